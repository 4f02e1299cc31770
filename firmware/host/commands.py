"""What the board does with a host's commands (docs/protocol.md): ``mode``, ``show``, ``end``,
``time``, ``diag``, ``referee``, ``clock``, ``replay``, ``key`` and ``lock``, carried out on the
app (``new`` is the app's own: ``App.command``, no code loaded while the next game is built).

``command(app, name, args, now_ms)`` runs a command whose arguments are well formed (the link
checks a host's first, firmware/host/arguments.py; the simulator's page builds its own); it
returns None when done, or an ``(error_code, detail)`` pair
naming the problem, the game as it was. The app's ``App.command`` runs it, for the link and
for the simulator's page alike, then journals what changed before the link replies; the app
loads this module for the command and lets it go after (code costs a Pico's heap, and a
board's link mostly hears ``hello``, which it answers itself).
"""

from binascii import hexlify, unhexlify

from ..events import EV_REFEREE
from ..leds.marks import HINT
from ..modes import NAMES as MODE_NAMES
from ..modes import TOURNAMENT
from ..protocol import E_MALFORMED, E_STATE, E_UNKNOWN, unquote
from ..rules.const import call_briefly
from ..rules.coords import PASS, parse_vertex
from ..rules.ending import FORFEIT, PENALTY_KINDS, POINTS
from ..rules.game import OVER, PLAYING
from ..rules.history import move_colour
from ..settings import is_pair
from .seal import KEY_FILE, LOCK_FILE


def command(app, name, args, now_ms):
    """Carry out a checked command on ``app``; see the module doc."""
    game = app.game
    if name == "mode":  # during a game: both players agree, or the referee decides
        mode = MODE_NAMES.index(args[0])
        by = args[1] if len(args) > 1 else ""
        current = app.referee.mode
        if mode != current and by != "referee" and game.phase != OVER and (
                game.move_number or app.timekeeper.started):
            if current == TOURNAMENT:
                return E_STATE, "mode: only the referee changes a tournament game's mode (mode %s referee)" % args[0]
            if by != "agreed":
                return E_STATE, "mode: a game is in progress: both players agree first (mode %s agreed)" % args[0]
        app.set_mode(mode)
        return None
    if name == "show":
        return _show(app, args)
    if name == "end":
        if game.phase == OVER:
            return E_STATE, "no game in progress"
        result = call_briefly("firmware.rules.result_sgf", "parse_sgf", unquote(args[0]) if args else "Void", "host", later=True)
        if result is None:
            return E_MALFORMED, "end: bad result " + (args[0][:12] if args else "")
        game.end(result)
        app.referee.refresh(now_ms)
        return None
    if name == "time":
        clock = app.clock
        if clock is None:
            return E_STATE, "time: this game has no clock"
        snap = clock.snapshot(now_ms)
        for colour, side, ms in ((1, snap.black, int(args[0])), (2, snap.white, int(args[1]))):
            clock.adjust(colour, ms - side.main_ms, now_ms)
        return None
    if name == "referee":  # a referee's take-back, caution, warning, penalty points or forfeit
        if args[0] == "undo":  # Korean regulations 21-2-2 (a dropped stone), Thai 22: in any mode
            return None if app.referee.takeback(now_ms, True) else (E_STATE, "referee undo: no move to take back")
        colour = 1 if args[1] == "B" else 2
        if args[0] == "order":
            return _wrong_order(app, colour, now_ms)
        return _penalise(app, colour, PENALTY_KINDS.index(args[0]), int(args[2]) if len(args) > 2 else 0,
                         "referee", now_ms)
    if name == "clock":
        return _clock(app, args, now_ms)
    if name == "replay":  # Korean Art.21-4
        return None if app.replay(now_ms) else (E_STATE, "replay: the game is not a draw")
    if name == "key":
        return _key(app, args[0])
    if name == "lock":
        return _lock(app, args[0] == "on") if app.link is not None else (E_STATE, "lock: no link")
    if name == "diag":
        if not app.diagnose(args[0] == "on", now_ms):
            return E_STATE, "a game is in progress: end it first"
        return None
    return E_UNKNOWN, name


def _wrong_order(app, colour, now_ms):
    # Thai 16.5: a wrong order upheld against ``colour``'s last move: 3 points, then 5,
    # then the game; only before the opponent's next move (16.5.4).
    from ..rules.pair import ORDER_POINTS, WRONG_ORDER, corrections  # loaded for pair go only

    game = app.game
    hist = game.hist
    if not is_pair(app.follower.settings.players):
        return E_STATE, "order: not a pair game"
    if hist.length < 2 or move_colour(hist.moves[hist.length - 1]) != colour:
        return E_STATE, "order: only right after that side's move (Thai 16.5.4)"
    n = corrections(game.penalties, hist.length, colour)
    if n < len(ORDER_POINTS):
        return _penalise(app, colour, POINTS, ORDER_POINTS[n], WRONG_ORDER, now_ms)
    return _penalise(app, colour, FORFEIT, 0, WRONG_ORDER, now_ms)


def _penalise(app, colour, kind, value, reason, now_ms):
    # A penalty the host decided (rules/ending.py Game.penalise), told as a referee event.
    try:
        app.game.penalise(colour, kind, value, reason)
    except ValueError as error:
        return E_STATE, "referee: " + str(error)
    app.events.add(EV_REFEREE, colour, PASS, kind, now_ms)
    app.referee.notify(EV_REFEREE, colour, kind)
    app.referee.refresh(now_ms)
    return None


def _clock(app, args, now_ms):
    # The referee's pause or resume, a Thai absence (31), lateness at the start (Thai 14).
    keeper = app.timekeeper
    what = args[0]
    colour = 1 if len(args) > 1 and args[1] == "B" else 2
    if what == "late":
        if keeper.started or app.game.phase != PLAYING:
            return E_STATE, "late: only before the clock starts"
        if keeper.late(colour, 1000 * int(args[2]), now_ms):
            return None
        return _penalise(app, colour, FORFEIT, 0, "late", now_ms)
    if what == "away":
        done = keeper.away(colour, now_ms)
    else:
        done = keeper.referee_pause(what == "pause", now_ms)
    return None if done else (E_STATE, "clock " + what + ": not now")


def _key(app, text):
    # Registration: the secret the board signs its results with (firmware/host/seal.py).
    if app.link is None:
        return E_STATE, "key: this board has no link"
    key = unhexlify(text)
    error = _keep(app, KEY_FILE, hexlify(key))
    if error is None:
        app.link.seal.key = key
    return error


def _lock(app, on):
    # A round locked by the venue: the link takes its signed commands only (firmware/host/link.py).
    error = _keep(app, LOCK_FILE, b"1" if on else b"0")
    if error is None:
        app.link.locked = on
    return error


def _keep(app, name, data):
    storage = app.hw.storage
    if storage is not None:
        from .signing import keep  # (loaded when used: code costs a Pico's heap)

        try:
            keep(storage, name, data)
        except OSError as error:
            return E_STATE, "not kept: flash error %s" % error
    return None


def _show(app, args):
    # Hint marks on the LEDs at the given vertices ("clear": none); a bad one changes nothing.
    size = app.game.size
    for text in args[1:]:
        try:
            if parse_vertex(size, text) != PASS:
                continue
        except ValueError:
            pass
        return E_MALFORMED, "show: %s is not a point of the %dx%d board" % (text[:8], size, size)
    marks = app.marks
    marks.clear(HINT)
    if args[0] != "clear":
        for text in args[1:]:
            marks.set(app.referee.region.phys_of[parse_vertex(size, text)], HINT)
    return None

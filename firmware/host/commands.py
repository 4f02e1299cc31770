"""What the board does with a host's commands (docs/protocol.md): ``mode``, ``show``, ``play``, ``end``,
``time``, ``diag``, ``referee``, ``clock``, ``replay``, ``key`` and ``lock``, carried out on the
app (``new`` is the app's own: ``App.command``, no code loaded while the next game is built).

``command(app, name, args, now_ms)`` parses the command's arguments once into the value its
code takes (``parse``; protocol.parse_command split the line and checked the name), then runs
it; it returns None when done, or an ``(error_code, detail)`` pair naming the problem, the game
as it was. The app's ``App.command`` calls it, for the link and for the simulator's page alike,
then journals what changed before the link replies; the app loads this module for the command
and lets it go after (code costs a Pico's heap, and a board's link mostly hears ``hello``,
which it answers itself).
"""

from binascii import hexlify, unhexlify

from ..events import EV_REFEREE
from ..leds.marks import HINT
from ..micro import const, ticks_add
from ..modes import NAMES as MODE_NAMES
from ..modes import TOURNAMENT
from ..protocol import E_MALFORMED, E_STATE, E_UNKNOWN, is_uint, unquote
from ..referee.states import PLAY, SYNC
from ..rules.const import call_briefly
from ..rules.coords import PASS, parse_vertex
from ..rules.ending import FORFEIT, PENALTY_KINDS, POINTS
from ..rules.game import COUNTING, OVER, PLAYING
from ..rules.history import move_colour
from ..rules.illegal import IllegalMove
from ..settings import is_pair
from .seal import KEY_FILE, LOCK_FILE

_WORDS_MS = const(1800000)  # a host's words stay on the clock display this long (30 min), or until a notice


def command(app, name, args, now_ms):
    """Parse and carry out a host's command on ``app``; see the module doc."""
    try:
        value = parse(name, args, app.game.size)
    except ValueError as error:
        return E_MALFORMED, str(error)
    game = app.game
    if name == "mode":  # during a game: both players agree, or the referee decides
        mode, by = value
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
        return _show(app, value, now_ms)
    if name == "play":
        return _play(app, value, now_ms)
    if name == "end":
        if game.phase == OVER:
            return E_STATE, "no game in progress"
        game.end(value)
        app.referee.refresh(now_ms)
        return None
    if name == "time":
        clock = app.clock
        if clock is None:
            return E_STATE, "time: this game has no clock"
        snap = clock.snapshot(now_ms)
        for colour, side, ms in ((1, snap.black, value[0]), (2, snap.white, value[1])):
            clock.adjust(colour, ms - side.main_ms, now_ms)
        return None
    if name == "referee":  # a referee's take-back, caution, warning, penalty points or forfeit
        what, colour, points = value
        if what == "undo":  # Korean regulations 21-2-2 (a dropped stone), Thai 22: in any mode
            return None if app.referee.takeback(now_ms, True) else (E_STATE, "referee undo: no move to take back")
        if what == "order":
            return _wrong_order(app, colour, now_ms)
        return _penalise(app, colour, PENALTY_KINDS.index(what), points, "referee", now_ms)
    if name == "clock":
        return _clock(app, value, now_ms)
    if name == "replay":  # Korean Art.21-4
        return None if app.replay(now_ms) else (E_STATE, "replay: the game is not a draw")
    if name == "key":
        return _key(app, value)
    if name == "lock":
        return _lock(app, value) if app.link is not None else (E_STATE, "lock: no link")
    if name == "diag":
        if not app.diagnose(value, now_ms):
            return E_STATE, "a game is in progress: end it first"
        return None
    return E_UNKNOWN, name


def parse(name, args, size):
    """The value command ``name``'s arguments (str) stand for (docs/protocol.md), or ValueError
    saying what is wrong with them; ``size``: the game's (its points' names)."""
    n = len(args)
    if name == "replay" and n:
        raise ValueError("replay takes no arguments")
    if name == "mode":
        if not 1 <= n <= 2 or args[0] not in MODE_NAMES or args[1:] not in ([], ["agreed"], ["referee"]):
            raise ValueError("mode needs casual, teaching or tournament [agreed|referee]")
        return MODE_NAMES.index(args[0]), args[1] if n > 1 else ""
    if name == "show":
        if not n or args[0] not in ("hint", "mark", "clear", "dead", "words"):
            raise ValueError("show needs hint, mark, dead, clear or words")
        if args[0] == "words":
            if not 1 < n < 4:
                raise ValueError("show words needs one or two lines")
            return "words", [unquote(text)[:16] for text in args[1:]]
        return args[0], [_point(size, text) for text in args[1:]]
    if name == "play":
        if n != 2 or args[0] not in ("B", "W"):
            raise ValueError("play needs B|W and a point or pass")
        return _colour(args[0]), PASS if args[1].lower() == "pass" else _point(size, args[1])
    if name == "end":
        if n > 1:
            raise ValueError("end takes at most a result")
        result = call_briefly("firmware.rules.result_sgf", "parse_sgf", unquote(args[0]) if n else "Void", "host",
                              later=True)
        if result is None:
            raise ValueError("end: bad result " + (args[0][:12] if n else ""))
        return result
    if name == "time":
        if n not in (2, 4) or not all(is_uint(a) for a in args):
            raise ValueError("time needs 2 or 4 numbers")
        return int(args[0]), int(args[1])
    if name == "referee":
        if args == ["undo"]:
            return "undo", 0, 0
        if (n not in (2, 3) or (args[0] not in PENALTY_KINDS and args[0] != "order") or args[1] not in ("B", "W")
                or (n == 3) != (args[0] == "points") or (n == 3 and not is_uint(args[2]))):
            raise ValueError("referee needs caution|warning|forfeit|order B|W, points B|W N, or undo")
        return args[0], _colour(args[1]), int(args[2]) if n == 3 else 0
    if name == "clock":
        what = args[0] if n else ""
        if not ((what in ("pause", "resume") and n == 1)
                or (what == "away" and n == 2 and args[1] in ("B", "W"))
                or (what == "late" and n == 3 and args[1] in ("B", "W") and is_uint(args[2]))):
            raise ValueError("clock needs pause, resume, away B|W or late B|W <seconds>")
        return what, _colour(args[1]) if n > 1 else 0, 1000 * int(args[2]) if n > 2 else 0
    if name == "diag" or name == "lock":
        if n != 1 or args[0] not in ("on", "off"):
            raise ValueError(name + " needs on or off")
        return args[0] == "on"
    if name == "key":
        if n != 1 or len(args[0]) != 64 or args[0].strip("0123456789abcdef"):
            raise ValueError("key needs 64 lowercase hex digits (32 bytes)")
        return unhexlify(args[0])
    return None


def _colour(letter):
    return 1 if letter == "B" else 2


def _point(size, text):
    # The game point a vertex names (a pass, or no point of the board: ValueError).
    if text.lower() != "pass":
        try:
            return parse_vertex(size, text)
        except ValueError:
            pass
    raise ValueError("%s is not a point of the %dx%d board" % (text[:8], size, size))


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


def _clock(app, value, now_ms):
    # The referee's pause or resume, a Thai absence (31), lateness at the start (Thai 14).
    keeper = app.timekeeper
    what, colour, late_ms = value
    if what == "late":
        if keeper.started or app.game.phase != PLAYING:
            return E_STATE, "late: only before the clock starts"
        if keeper.late(colour, late_ms, now_ms):
            return None
        return _penalise(app, colour, FORFEIT, 0, "late", now_ms)
    if what == "away":
        done = keeper.away(colour, now_ms)
    else:
        done = keeper.referee_pause(what == "pause", now_ms)
    return None if done else (E_STATE, "clock " + what + ": not now")


def _key(app, key):
    # Registration: the secret the board signs its results with (firmware/host/seal.py).
    if app.link is None:
        return E_STATE, "key: this board has no link"
    error = _keep(app, KEY_FILE, hexlify(key))
    if error is None:
        app.link.key(key)
    return error


def _lock(app, on):
    # A round locked by the venue: the link takes its signed commands only (firmware/host/link.py).
    error = _keep(app, LOCK_FILE, b"1" if on else b"0")
    if error is None:
        app.link.lock(on)
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


def _show(app, value, now_ms):
    # Hint marks on the LEDs at the given points ("clear": none); "dead": a proposal; "words": lines to show.
    what, points = value
    if what == "dead":
        return _dead(app, points, now_ms)
    if what == "words":  # (a teacher's, a problem's: on the display as a notice's, until the next one)
        display = app.hw.display
        if display is not None:
            display.words(points)
            app.said = None
            app._notice_until = ticks_add(now_ms, _WORDS_MS)
        return None
    marks = app.marks
    marks.clear(HINT)
    if what != "clear":
        for g in points:
            marks.set(app.referee.region.phys_of[g], HINT)
    return None


def _play(app, value, now_ms):
    # A move made elsewhere (the game's ``remote`` side: an engine, a player online) is the game's
    # at once, its clock stopped: its stone is lit to place (a stone missing, put_back) and the
    # person's stones it captured to lift; a stone placed elsewhere is not a move. Refused while
    # the person's move waits for its clock press (the host asks again).
    colour, g = value
    game = app.game
    referee = app.referee
    players = app.follower.settings.players or {}
    if game.phase != PLAYING or players.get("remote") != "BW"[colour - 1]:
        return E_STATE, "play: no game in play with %s played elsewhere" % "BW"[colour - 1]
    if game.to_move != colour or referee.awaiting_press:
        return E_STATE, "play: not %s's turn yet" % "BW"[colour - 1]
    if referee.state != PLAY and referee.state != SYNC:
        return E_STATE, "play: the board is not in play (%s)" % (referee.reason or "setup")
    if g == PASS:
        referee.pass_turn(colour, now_ms)
    else:
        try:
            n = game.play(colour, g)
        except IllegalMove as error:
            return E_STATE, "play: illegal move (%s)" % error.reason
        referee.undone = referee.region.phys_of[g]  # (its stone missing is neither a takeback nor a removal)
        referee.removal_charged = True
        referee.moved(colour, g, n, now_ms)
        referee.awaiting_press = 0
    clock = app.clock
    if clock is not None:
        keeper = app.timekeeper
        if not keeper.started:
            clock.start(now_ms, colour)
            keeper.started = True
        clock.press(colour, now_ms)
    return None


def _dead(app, points, now_ms):
    # While counting, the side played elsewhere proposes the chains at ``points`` dead, in place
    # of the board's own proposal (phases.py ``_propose``): lit to lift, answered on the board.
    game = app.game
    referee = app.referee
    if game.phase != COUNTING:
        return E_STATE, "show dead: only while the game is counted"
    referee.refresh(now_ms)  # (the board's own proposal made first: this one replaces it)
    game.clear_dead()
    for g in points:
        if g != PASS and game.pos.cells[g]:
            game.mark_dead(g)
    proposed = referee.proposed = bytearray(len(referee.frame))
    marked = game.dead_marks()
    phys_of = referee.region.phys_of
    for g in range(len(marked)):
        if marked[g]:
            proposed[phys_of[g]] = 1
    referee.refresh(now_ms)
    return None

"""What must always hold while simulated players play the board: checked after every loop pass.

``Checker(sim)`` hooks a headless ``Simulation`` (``sim.on_pass``) and records each
violation once per kind (``kind``: its invariant and words, its points, numbers and sides
left out) as ``(name, t_ms, detail)``. The invariants:

- ``stage_error``: no stage of the loop raised (``app.errors`` stays 0).
- ``clock``: the clock runs for exactly ``referee.awaiting_press or game.to_move`` while the
  game is played and the clock is neither paused nor stopped: the side to move, except that
  a mover whose stone the referee has taken keeps its time running until its press
  (timekeeper.py, docs/clock.md: a move's turn ends with its player's press; Thai 28/29's
  lost turn hands the clock over with the offender's press). It runs for no one while the
  game is counting or over (Korean regulations 10-2, Thai 12.2; a result stops it), and it
  has started once a move is played or the handicap is down. (Reported once a game: what a
  wrong clock brings later is that; later violations of the others say so.) A pause (PAUSE, the
  referee's, a power-up's hold, an absence: Thai 31, the host's ``clock away``, which stops
  the clock as the text says, docs/clock.md) is no one's time; the referee's stop (``clock
  pause``) is restarted by the referee only (Korean regulations 11-4).
- ``penalty``: a penalty the board charges (a foul, a warning, a lost turn, a result by
  foul) goes to a player whose hands acted just before (``acted``: during a player's turn
  the hands on the board are that player's); a referee's (the host's) to the player named.
- ``message``: the board's request in words (host_tools/board/messages.py ``message``), a result's
  words and the clock display's lines never raise, never say "None", never leave a name
  out (": has not pressed", "; presses", ", press your clock"), name only points on
  the game's board, and say dame are open only while one is lit.
- ``leds``: with the board settled (the sensors have read the stones as they lie, no
  reading pending, no hand passing, no counting work under way), no
  LED asks to lift a stone (LIFT, ERROR) where none lies, or to put one back (PUT_BACK)
  where one lies.
- ``result``: a fallen flag is a result in the same pass; what the players end (a
  resignation, an agreed count) has its result by the deadline the driver gives (``expect``).
- ``record`` (``final``): the logger's record (its model, and the SGF it writes) is the
  board's game: moves, setup, result, penalties; the players' simulator also compares the
  board's game with the game the players played (``players.py``).
"""

from __future__ import annotations

import re

from sgfmill import sgf as sgfmill

from firmware.leds.marks import DAME, ERROR, LIFT, PUT_BACK
from firmware.referee.states import SETUP
from firmware.rules.coords import PASS, parse_vertex, vertex
from firmware.rules.ending import PENALTY_KINDS
from firmware.rules.game import OVER, PLAYING
from firmware.rules.history import LOST_TURN, move_colour, move_point
from host_tools.board.messages import message
from host_tools.board.words import game_result_words

INVARIANTS = ("stage_error", "clock", "penalty", "message", "leds", "result", "record")
AFTER_CLOCK = "[the clock had gone wrong before]"  # a violation that may follow from a clock's
ACT_WINDOW_MS = 400  # a hand's act is judged within this (the settle time, a debounce, a pass)
_NAMELESS = re.compile(r"^[\s:;,]|[:;,(]\s*(has|have|presses|agreed|resigns)\b|[:;,(]\s*[:;,)]")
_VERTEX = re.compile(r"\b([A-HJ-Z])(\d{1,2})\b")
_SIDE = {1: "Black", 2: "White"}


class Found(Exception):
    """The violation a replay looks for (``Checker.stop_on``) happened: it stops there."""


class Checker:
    """The invariants over one simulated board (see the module doc)."""

    def __init__(self, sim):
        self.sim = sim
        self.stop_on = None  # a function of a violation: the replay stops at the first it holds for
        self.last = ""  # the last script line carried out, its time left out (replay.py's step)
        self._host_at = -1  # when the last host command came (its penalties are the referee's)
        self._referee_pause = False  # the referee stopped the clock (the host's clock pause)
        self._clock_wrong = None  # what is wrong with the clock now (reported once)
        self._flag_wrong = 0  # passes in a row with a fallen flag and the game not over
        self.violations = []  # (invariant, t_ms, detail), the first of each kind
        self.counts = dict.fromkeys(INVARIANTS, 0)  # every violation seen, per invariant
        self.acts = []  # (t_ms, colour) of every hand's act
        self.expects = []  # (deadline ms, invariant, predicate, detail)
        self.passes = 0
        self._logged = 0
        self._said = None
        self._painted = None
        self._errors = 0
        self._app = None
        sim.on_pass = self.after_pass

    def violate(self, name, detail):
        if self.last:
            detail += " (after: %s)" % self.last
        if self._clock_wrong and name != "clock":
            detail += " " + AFTER_CLOCK
        self.counts[name] += 1
        violation = (name, self.sim.now, detail)
        if not any(kind(v) == kind(violation) for v in self.violations):
            self.violations.append(violation)
        if self.stop_on is not None and self.stop_on(violation):
            raise Found(detail)

    def acted(self, t_ms, colour):
        """A hand of ``colour`` acted at ``t_ms`` (a stone placed, lifted, slid; a button)."""
        self.acts.append((t_ms, colour))

    def expect(self, deadline_ms, name, predicate, detail):
        """``predicate(sim)`` must hold at the first pass at or after ``deadline_ms``."""
        self.expects.append((deadline_ms, name, predicate, detail))

    # -- after every pass -----------------------------------------------------------

    def after_pass(self, sim):
        self.passes += 1
        app = sim.app
        if app is not self._app:  # a power-up: a new app, its own counts
            self._app, self._errors, self._said, self._painted = app, 0, None, None
            self._referee_pause = False  # (a clock gone wrong stays so: recovered, it is reported no further)
        if app.errors != self._errors:
            self._errors = app.errors
            self.violate("stage_error", "a stage raised %r" % (app.last_error,))
        if app.diag is not None:
            return
        self._clock(app)
        self._penalties(sim)
        self._message(app)
        self._leds(sim, app)
        clock = app.clock
        # (the clock's flag falls as the pass draws the clock, after the stage that ends the game
        # on it: the game must be over by the next pass)
        flag_wrong = clock is not None and clock.flag is not None and app.game.phase != OVER
        if flag_wrong and self._flag_wrong == 1:
            self.violate("result", "%s's flag fell and the game goes on" % _SIDE[1 if clock.flag == "B" else 2])
        self._flag_wrong = self._flag_wrong + 1 if flag_wrong else 0
        if self.expects:
            due = [e for e in self.expects if e[0] <= sim.now]
            for e in due:
                self.expects.remove(e)
                if not e[2](sim):
                    self.violate(e[1], e[3])

    def _clock(self, app):
        # (a state checked every pass: reported when it goes wrong, not again while it stays so)
        # (once a game's clock has gone wrong, what follows is that, not news: one report a game)
        if not self._clock_wrong:
            problem = self._clock_problem(app)
            if problem:
                self.violate("clock", problem)
                self._clock_wrong = problem

    def _clock_problem(self, app):
        clock = app.clock
        if clock is None:
            return None
        game = app.game
        keeper = app.timekeeper
        running = clock.turn if keeper.started and not (clock.paused or clock.stopped or clock.flag) else 0
        if game.phase != PLAYING:
            if running:
                return "%s's clock runs while the game is %s" % (_SIDE[running],
                                                                "over" if game.phase == OVER else "counting")
            return None
        if app.referee.state == SETUP:
            return None
        if not keeper.started and (game.move_number or game.handicap) and not app.recovered:
            return "a move is played and the clock has not started"
        expected = app.referee.awaiting_press or game.to_move
        if running and running != expected:
            awaited = app.referee.awaiting_press
            return "%s's clock runs while %s" % (_SIDE[running], ("%s is to press" % _SIDE[awaited]) if awaited else
                                                 ("%s is to move" % _SIDE[game.to_move]))
        return None

    def _penalties(self, sim):
        log = sim.log
        while self._logged < len(log):
            entry = log[self._logged]
            self._logged += 1
            kind = entry["kind"]
            if kind == "host":
                self._host_at = entry["t_ms"]
                if entry["value"] == "OK" and entry["reason"] in ("clock pause", "clock resume"):
                    self._referee_pause = entry["reason"] == "clock pause"
            elif kind == "resume" and self._referee_pause and entry["t_ms"] != self._host_at:
                self._referee_pause = False
                self.violate("clock", "the clock the referee stopped was restarted by a player (Korean regulations "
                             "11-4: the referee restarts it)")
            elif kind in ("result", "counting", "stop"):
                self._referee_pause = False
            charged = {"B": 1, "W": 2}.get(entry["colour"])
            if entry["reason"] == "referee" or charged is None:
                continue
            if kind in ("foul", "lost_turn", "warning"):
                self._charged_to(charged, entry["t_ms"], "%s %s" % (kind, entry["reason"] or ""))
            elif kind == "result" and entry["t_ms"] != self._host_at:  # (not the host's: a referee's decision)
                result = sim.app.game.result
                if (result is not None and result.reason == "foul" and result.winner in (1, 2)
                        and result.detail != "annihilation"):  # (OP: an annihilated side loses, no one's act)
                    self._charged_to(3 - result.winner, entry["t_ms"], "lost by a foul (%s)" % result.detail)

    def _charged_to(self, colour, t_ms, what):
        actors = self.actors(t_ms)
        if actors and colour not in actors:
            self.violate("penalty", "%s charged to %s (%s), but only %s acted" % (
                what.strip(), _SIDE[colour], t_ms, " and ".join(_SIDE[a] for a in sorted(actors))))

    def actors(self, t_ms):
        """The colours whose hands acted within ACT_WINDOW_MS before ``t_ms`` (or the last one before)."""
        inside = {c for t, c in self.acts if t_ms - ACT_WINDOW_MS < t <= t_ms and c}
        if not inside:
            before = [c for t, c in self.acts if t <= t_ms and c]
            return set(before[-1:])
        return inside

    def _message(self, app):
        referee = app.referee
        game = app.game
        clock = app.clock
        key = (referee.state, referee.reason, app.marks.version, game.move_number, referee.votes, game.phase,
               referee.awaiting_press, referee.seen.npending, referee.draw_votes, referee.job,
               None if clock is None else (clock.paused, clock.stopped))
        if key == self._said:
            return
        self._said = key
        texts = []
        try:
            texts.append(message(referee, clock))
            if game.result is not None:
                texts.append(game_result_words(game))
                from firmware.clock.verdict import result_lines

                texts.append(" ".join(result_lines(game.result)))
        except Exception as error:  # noqa: BLE001 - that is the violation
            self.violate("message", "the message raised %r (referee state %d, votes %d)" % (
                error, referee.state, referee.votes))
            return
        for text in texts:
            bad = _bad_words(text, game.size)
            if bad:
                self.violate("message", "%s: %r" % (bad, text))
                return
        if "dame still open" in texts[0] and referee.job is None and not any(
                app.marks.bits[p] & DAME and not app.scanner.frame[p] for p in range(len(app.marks.bits))):
            self.violate("message", "says dame are open, and no dame is lit: %r" % texts[0])

    def _leds(self, sim, app):
        stones = sim.hw.stones
        if app.scanner.pending or app.referee.job is not None or stones.next_change(sim.now) >= 0:
            return
        key = (app.marks.version, bytes(stones.colour))
        if key == self._painted:
            return
        bits = app.marks.bits
        colour = stones.colour
        frame = app.scanner.frame
        if any((frame[p] != 0) != (colour[p] != 0) for p in range(len(frame))):
            return  # (the sensors have not read the stones as they lie yet: no pass since a hand moved)
        self._painted = key
        region = app.referee.region
        for p in range(len(bits)):
            b = bits[p]
            if not b:
                continue
            where = _name(app, region, p)
            if b & (LIFT | ERROR) and not colour[p]:
                self.violate("leds", "%s lit at %s where no stone lies" % ("LIFT" if b & LIFT else "ERROR", where))
                return
            if b & PUT_BACK and colour[p]:
                self.violate("leds", "PUT_BACK lit at %s where a stone lies" % where)
                return

    # -- at the end --------------------------------------------------------------------

    def final(self):
        """The record: the logger's model and SGF against the board's game (needs ``record``)."""
        sim = self.sim
        for e in self.expects:
            if not e[2](sim):
                self.violate(e[1], e[3])
        self.expects = []
        problem = record_problem(sim)
        if problem:
            self.violate("record", problem)
        return self.violations


def kind(violation):
    """A violation's kind: its invariant and its words, points, numbers and sides left out."""
    name, _t, detail = violation
    words = re.sub(r"\b([A-HJ-T]\d{1,2}|\d+(\.\d+)?|Black|White|[BW]|black|white)\b", "_", detail)
    return name + ": " + re.sub(r"\s+", " ", words)


def _name(app, region, p):
    g = region.game_of[p]
    return vertex(app.game.size, g) if g != 0xFFFF else "physical point %d (outside the game)" % p


def _bad_words(text, size):
    """What is wrong with a sentence the board says (None: nothing)."""
    if "None" in text:
        return "says None"
    if _NAMELESS.search(text) or "  " in text:
        return "a name left out"
    for m in _VERTEX.finditer(text):
        try:
            parse_vertex(size, m.group(0))
        except ValueError:
            return "names %s, not a point of the %dx%d board" % (m.group(0), size, size)
    return None


def board_moves(game):
    """The board's game as (colour, point, lost turn) per move."""
    hist = game.hist
    return [(move_colour(hist.moves[k]), move_point(hist.moves[k]), bool(hist.moves[k] & LOST_TURN))
            for k in range(1, hist.length)]


def record_problem(sim):
    """How the logger's record differs from the board's game (None: it does not)."""
    game = sim.app.game
    log = sim.recording.games.games.get(sim.app.follower.gid)
    if log is None:
        return "the logger has no record of game %d" % sim.app.follower.gid
    moves = [(c, p, lost) for c, p, _ms, _periods, lost in log.moves]
    board = board_moves(game)
    if moves != board:
        k = next((i for i, (a, b) in enumerate(zip(moves, board, strict=False)) if a != b), min(len(moves), len(board)))
        return "the record's moves differ from move %d: %s, the board's %s" % (
            k + 1, _moves_text(game.size, moves[k:k + 3]), _moves_text(game.size, board[k:k + 3]))
    setup = tuple(sorted(points) for points in log.setup)
    if setup != tuple(sorted(points) for points in game.setup_stones):
        return "the record's setup stones differ from the board's"
    result = None if game.result is None else game.result.sgf()
    if log.result != result:
        return "the record's result is %s, the board's %s" % (log.result, result)
    penalties = [(k, c, kind, v, r) for k, c, kind, v, r in log.penalties]
    board_penalties = [(k, "B" if c == 1 else "W", PENALTY_KINDS[kind], v, r) for k, c, kind, v, r in game.penalties]
    if penalties != board_penalties:
        return "the record's penalties %s differ from the board's %s" % (penalties, board_penalties)
    if log.unplayable:
        return "the record is not replayable: " + "; ".join(log.unplayable)
    data = sim.sgf()
    parsed = sgfmill.Sgf_game.from_bytes(data)
    nodes = parsed.get_main_sequence()[1:]
    root = parsed.get_root()
    if len(nodes) != len(board) and not (not board and len(nodes) <= 1):
        return "the SGF has %d moves, the board %d" % (len(nodes), len(board))
    sgf_result = root.get("RE") if root.has_property("RE") else None
    if sgf_result != result:
        return "the SGF's RE is %s, the board's result %s" % (sgf_result, result)
    return None


def _moves_text(size, moves):
    return ", ".join(("BW"[c - 1] + " " + ("lost turn" if lost else vertex(size, p) if p != PASS else "pass"))
                     for c, p, lost in moves) or "nothing"


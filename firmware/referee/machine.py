"""The referee: from what is physically on the board to the game's moves.

The scanner hands over settled frames (one value per physical point: 0
empty, 1 black, 2 white, 3 a stone whose colour the sensors cannot tell).
The referee compares the frame with what should be on the board — the
game's stones, plus captured stones nobody has lifted yet — and decides:

- exactly one new stone, nothing missing: a move (colour from the turn on
  presence boards, from the sensor on polarity boards); illegal moves are
  refused (casual, teaching) or cost what the rule set says (tournament);
- captured stones are recorded at once and shown (LIFT) until lifted, in any
  order, even after the opponent's next stone has come;
- a stone missing that was not captured, a stone knocked to another point,
  two new stones, a wrong colour: no move is accepted, the LEDs show what to
  put back or lift, and play resumes by itself when the board matches;
- casual mode: lifting the last stone played takes the move back;
- clock presses: a press with no stone placed is a pass (Korean Art.14-4);
- handicap setup and the counting phase (lifted stones are dead).

States (``state``): SETUP (handicap stones being placed), PLAY (in sync,
accepting moves), SYNC (waiting for the board to match: put back / lift),
REJECT (an illegal or unexpected stone must be lifted), COUNTING, OVER.
docs/architecture.md has the state diagram. Time is injected (``now_ms``);
nothing here touches hardware. Work buffers are preallocated.
"""

from array import array

from ..leds import marks as mk
from ..micro import const
from ..rules.coords import PASS
from ..rules.game import COUNTING, OVER, IllegalMove
from ..rules.handicap import fixed_points, max_fixed
from ..rules.history import LOST_TURN, SELF_CAPTURE, move_colour, move_point
from ..rules.rulesets import HANDICAP_FIXED, HANDICAP_NONE, ILLEGAL_LOSS, ILLEGAL_REJECT, ILLEGAL_WARN
from ..rules.scoring import DAME, DEAD, KIND, OWNER, SEKI, TERRITORY

PHYS = const(19)
POINTS = const(361)
_NONE = const(0xFFFF)
_UNKNOWN = const(3)  # frame value: a stone of unknown colour

# Referee states.
SETUP = const(0)
PLAY = const(1)
SYNC = const(2)
REJECT = const(3)
COUNTING_STATE = const(4)
OVER_STATE = const(5)
STATE_NAMES = ("setup", "play", "sync", "reject", "counting", "over")

# Modes.
CASUAL = const(0)
TEACHING = const(1)
TOURNAMENT = const(2)
MODE_NAMES = ("casual", "teaching", "tournament")

# Event kinds (Events.kind).
EV_MOVE = const(1)  # colour, point (game index), arg = stones captured
EV_PASS = const(2)
EV_UNDO = const(3)  # point = the move taken back
EV_ILLEGAL = const(4)  # a stone was refused; arg = reason index
EV_PENALTY = const(5)  # arg = penalty (ILLEGAL_LOSS / ILLEGAL_WARN) applied to colour
EV_HANDICAP = const(6)  # arg = number of stones
EV_COUNTING = const(7)  # play stopped: counting begins
EV_DEAD = const(8)  # point's chain marked dead (arg 1) or alive again (arg 0)
EV_RESUME = const(9)
EV_END = const(10)  # the game has a result
EV_RESIGN = const(11)
EV_WARNING = const(12)  # colour warned; arg = reason index
EVENT_NAMES = ("", "move", "pass", "undo", "illegal", "penalty", "handicap", "counting", "dead",
               "resume", "end", "resign", "warning")

REASONS = ("occupied", "suicide", "ko", "superko", "out_of_turn", "off_board", "no_stones",
           "place_remove", "game_over", "two_stones", "wrong_colour", "press_clock",
           "captures_left")


def reason_index(reason):
    """Index of a reason name in REASONS (events carry ints)."""
    for i in range(len(REASONS)):
        if REASONS[i] == reason:
            return i
    return len(REASONS)


class Events:
    """A preallocated ring of the referee's events; read them with
    ``for i in range(events.start, events.end)`` and ``events.at(i)`` fields."""

    def __init__(self, capacity=64):
        self.capacity = capacity
        self.kind = bytearray(capacity)
        self.colour = bytearray(capacity)
        self.point = array("H", bytes(2 * capacity))
        self.arg = array("H", bytes(2 * capacity))
        self.time = array("I", bytes(4 * capacity))
        self.start = 0
        self.end = 0

    def push(self, kind, colour, point, arg, now_ms):
        i = self.end % self.capacity
        self.kind[i] = kind
        self.colour[i] = colour
        self.point[i] = point
        self.arg[i] = arg
        self.time[i] = now_ms & 0x3FFFFFFF
        self.end += 1
        if self.end - self.start > self.capacity:
            self.start = self.end - self.capacity

    def slot(self, i):
        """Ring index of event number i (start <= i < end)."""
        return i % self.capacity

    def drain(self):
        """Mark every event read."""
        self.start = self.end


class Region:
    """Where the game's board lies on the physical 19x19 board (a 9x9 or
    13x13 game in the middle, by default)."""

    def __init__(self, size, row=None, col=None):
        self.size = size
        top = (PHYS - size) // 2 if row is None else row
        left = (PHYS - size) // 2 if col is None else col
        if top < 0 or left < 0 or top + size > PHYS or left + size > PHYS:
            raise ValueError("a %dx%d game does not fit there" % (size, size))
        self.top = top
        self.left = left
        stride = size + 2
        self.game_of = array("H", [_NONE] * POINTS)  # physical point -> game point
        self.phys_of = array("H", [_NONE] * (stride * stride))  # game point -> physical point
        for r in range(size):
            for c in range(size):
                p = (top + r) * PHYS + left + c
                g = (r + 1) * stride + c + 1
                self.game_of[p] = g
                self.phys_of[g] = p


class Referee:
    """Turns settled frames and button presses into the game's moves.

    ``game``: the rules.Game being played (its size decides the region).
    ``marks``: the marks.Marks the LEDs show. ``polarity``: the sensors tell
    colours. ``clock``: a game clock is in use (then a move's turn ends with
    its player's press, and the next stone waits for that press).
    ``handicap``: stones Black must place before play starts.
    """

    def __init__(self, game, marks, polarity=False, mode=CASUAL, clock=False, handicap=0, region=None):
        self.game = game
        self.marks = marks
        self.polarity = polarity
        self.mode = mode
        self.clock = clock
        self.region = region or Region(game.size)
        self.events = Events()
        self.frame = bytearray(POINTS)
        self.pending = bytearray(POINTS)  # colour of a captured stone still on the board
        self.npending = 0
        self.rejected = _NONE  # physical point of a refused stone (state REJECT)
        self.reason = ""  # why the board waits (for messages)
        self.awaiting_press = 0  # colour whose move's turn ends with its clock press
        self.placed_since_turn = False
        self.handicap = handicap
        if handicap and (game.rules.handicap == HANDICAP_NONE or not 2 <= handicap < game.size * game.size):
            raise ValueError("no handicap of %d stones under %s rules" % (handicap, game.rules.name))
        self._handicap_sets = _handicap_sets(game, handicap) if handicap else ()
        self._missing = array("H", bytes(2 * POINTS))
        self._extra = array("H", bytes(2 * POINTS))
        self._wrong = array("H", bytes(2 * POINTS))
        self._chain = array("H", bytes(2 * game.size * game.size))
        w = game.pos.stride
        self._dirs = (-w, -1, 1, w)
        self.nmissing = self.nextra = self.nwrong = 0
        self.state = SETUP if handicap else PLAY
        self._refresh_marks()

    # -- inputs ------------------------------------------------------------

    def update(self, frame, now_ms):
        """A new settled frame from the scanner. Returns True if the game or
        the marks changed."""
        self.frame[:] = frame
        return self._reconcile(now_ms)

    def refresh(self, now_ms):
        """The game changed from outside (a flag fell, a host command): look
        again, record the end if it ended, and update the marks."""
        self._after_game_change(now_ms)

    def press(self, colour, now_ms):
        """``colour`` pressed its clock button. Returns True if the press
        ends that player's turn (the clock should switch), False if it is
        refused (not their turn, or the board must be fixed first)."""
        game = self.game
        if self.state == COUNTING_STATE or self.state == OVER_STATE or self.state == SETUP:
            return False
        if self.awaiting_press == colour:
            if self._captures_left() and self.mode == TOURNAMENT and game.rules.warning_loss:
                # Korean Art.18-1-4, Thai 24: pressing before the captures are off.
                self.events.push(EV_WARNING, colour, PASS, reason_index("captures_left"), now_ms)
                game.warn(colour, "captures_left")
                self._after_game_change(now_ms)
            self.awaiting_press = 0
            return True
        if game.to_move == colour and self.state == PLAY and self.awaiting_press == 0:
            self._pass(colour, now_ms)  # a press with no stone placed is a pass
            return True
        return False

    def button(self, name, now_ms):
        """Other controls: "pass", "undo", "resign_black", "resign_white",
        "ok" (finish counting), "resume". Returns True if something happened."""
        game = self.game
        if name == "pass":
            if self.state == PLAY and not self.awaiting_press:
                self._pass(game.to_move, now_ms)
                return True
            return False
        if name == "undo":
            return self._takeback(now_ms)
        if name == "resign_black" or name == "resign_white":
            if game.phase == OVER:
                return False
            colour = 1 if name == "resign_black" else 2
            game.resign(colour)
            self.events.push(EV_RESIGN, colour, PASS, 0, now_ms)
            self._after_game_change(now_ms)
            return True
        if name == "ok" and self.state == COUNTING_STATE:
            game.finish()
            self._after_game_change(now_ms)
            return True
        if name == "resume" and self.state == COUNTING_STATE:
            game.resume()
            self.events.push(EV_RESUME, game.to_move, PASS, 0, now_ms)
            self._after_game_change(now_ms)
            return True
        return False

    # -- the comparison ----------------------------------------------------

    def _reconcile(self, now_ms):
        self._compare()
        if self.state == SETUP:
            return self._setup(now_ms)
        if self.state == OVER_STATE:
            self._refresh_marks()
            return False
        if self.state == COUNTING_STATE:
            return self._counting(now_ms)
        if self.rejected != _NONE:
            if self.frame[self.rejected]:
                self._refresh_marks()
                return False
            self.rejected = _NONE  # the refused stone is gone
        if self.nmissing == 0 and self.nwrong == 0 and self.nextra == 1:
            return self._try_move(self._extra[0], now_ms)
        if (self.nmissing == 1 and self.nextra == 0 and self.nwrong == 0 and self.mode != TOURNAMENT
                and self._is_last_move(self._missing[0])):
            return self._takeback(now_ms)
        self._set_state()
        self._refresh_marks()
        return False

    def _compare(self):
        """Fill the missing / extra / wrong-colour lists; forget captured
        stones that have been lifted."""
        frame = self.frame
        pending = self.pending
        cells = self.game.pos.cells
        game_of = self.region.game_of
        dead = self._dead_marks()
        nm = ne = nw = 0
        for p in range(POINTS):
            g = game_of[p]
            f = frame[p]
            if g == _NONE:
                continue
            if pending[p]:
                if f == 0:
                    pending[p] = 0
                    self.npending -= 1
                continue
            v = cells[g]
            if dead is not None and dead[g]:
                v = 0  # dead stones belong off the board while counting
            if v and not f:
                self._missing[nm] = p
                nm += 1
            elif f and not v:
                self._extra[ne] = p
                ne += 1
            elif v and f != v and f != _UNKNOWN:
                self._wrong[nw] = p
                nw += 1
        self.nmissing = nm
        self.nextra = ne
        self.nwrong = nw

    def _dead_marks(self):
        game = self.game
        return game.counter().dead if game.phase == COUNTING else None

    def _captures_left(self):
        return self.npending > 0

    def _set_state(self):
        game = self.game
        if game.phase == OVER:
            self.state = OVER_STATE
        elif game.phase == COUNTING:
            self.state = COUNTING_STATE
        elif self.rejected != _NONE:
            self.state = REJECT
        elif self.nmissing or self.nextra or self.nwrong:
            self.state = SYNC
            if self.nextra >= 2 and not self.nmissing:
                self.reason = "two_stones"
            elif self.nmissing and self.nextra:
                self.reason = "moved"
            elif self.nmissing:
                self.reason = "put_back"
            elif self.nwrong:
                self.reason = "wrong_colour"
            else:
                self.reason = "lift"
        else:
            self.state = PLAY
            self.reason = ""

    # -- moves -------------------------------------------------------------

    def _try_move(self, p, now_ms):
        game = self.game
        g = self.region.game_of[p]
        f = self.frame[p]
        colour = f if f != _UNKNOWN else game.to_move
        if self.clock and self.awaiting_press:
            # The last mover has not pressed yet: a presence board cannot
            # tell a fast reply from a second stone, so the stone waits.
            if colour == self.awaiting_press or f == _UNKNOWN:
                return self._refuse(p, colour, "press_clock" if f == _UNKNOWN else "out_of_turn", now_ms)
            self.awaiting_press = 0  # the opponent replied: the press is implied
        if colour != game.to_move:
            return self._refuse(p, colour, "wrong_colour" if self.mode != TOURNAMENT else "out_of_turn", now_ms)
        try:
            n = game.play(colour, g)
        except IllegalMove as error:
            return self._refuse(p, colour, error.reason, now_ms)
        removed = game.pos.removed
        phys_of = self.region.phys_of
        record = game.hist.moves[game.hist.length - 1]
        captured = colour if record & SELF_CAPTURE else 3 - colour
        for i in range(n):
            q = phys_of[removed[i]]
            if self.frame[q] and not self.pending[q]:
                self.pending[q] = captured  # still on the board: to be lifted
                self.npending += 1
        self.events.push(EV_MOVE, colour, g, n, now_ms)
        if self.clock:
            self.awaiting_press = colour
        self._after_game_change(now_ms)
        return True

    def _refuse(self, p, colour, reason, now_ms):
        """A stone that is not a legal move: show it, apply the mode's rule."""
        game = self.game
        self.rejected = p
        self.reason = reason
        self.events.push(EV_ILLEGAL, colour, self.region.game_of[p], reason_index(reason), now_ms)
        if self.mode == TOURNAMENT and reason not in ("two_stones", "press_clock"):
            rules = game.rules
            if reason == "out_of_turn":
                # Korean Art.19-1-1, Thai 20: two stones in a row loses.
                penalty = ILLEGAL_REJECT if rules.illegal == ILLEGAL_REJECT else ILLEGAL_LOSS
                if penalty == ILLEGAL_LOSS:
                    game.foul(colour, reason)
            else:
                penalty = game.apply_illegal(colour, reason)
            if penalty != ILLEGAL_REJECT:
                self.events.push(EV_PENALTY, colour, self.region.game_of[p], penalty, now_ms)
            if penalty == ILLEGAL_WARN:
                self.awaiting_press = 0
            self._after_game_change(now_ms)
        else:
            self._finish()
        return True

    def _pass(self, colour, now_ms):
        game = self.game
        try:
            game.play(colour, PASS)
        except IllegalMove:
            return
        self.events.push(EV_PASS, colour, PASS, 0, now_ms)
        self._after_game_change(now_ms)

    def _is_last_move(self, p):
        hist = self.game.hist
        k = hist.length - 1
        record = hist.moves[k]
        return k > 0 and not record & (LOST_TURN | SELF_CAPTURE) and move_point(record) == self.region.game_of[p]

    def _takeback(self, now_ms):
        """Casual play: take the last move back (its stone lifted, or the undo
        button). Its captured stones are expected again: PUT_BACK marks show
        where, and play resumes when they are back."""
        game = self.game
        if self.mode == TOURNAMENT or game.move_number == 0 or self.state == SETUP or game.phase == OVER:
            return False
        record = game.hist.moves[game.hist.length - 1]
        game.undo()
        self.events.push(EV_UNDO, move_colour(record), move_point(record), 0, now_ms)
        pending = self.pending
        cells = game.pos.cells
        game_of = self.region.game_of
        for p in range(POINTS):
            if pending[p] and cells[game_of[p]]:
                pending[p] = 0  # captured by the taken-back move: in the game again
                self.npending -= 1
        self.awaiting_press = 0
        self._after_game_change(now_ms)
        return True

    def _after_game_change(self, now_ms):
        game = self.game
        if game.phase == COUNTING and self.state != COUNTING_STATE:
            self.events.push(EV_COUNTING, 0, PASS, 0, now_ms)
        if game.phase == OVER and self.state != OVER_STATE:
            self.events.push(EV_END, game.result.winner or 0, PASS, 0, now_ms)
        self._finish()

    def _finish(self):
        # The game or the refused stone changed: compare again, then show it.
        self._compare()
        self._set_state()
        self._refresh_marks()

    # -- handicap setup ----------------------------------------------------

    def _setup(self, now_ms):
        """Accept the handicap when the stones on the board are a valid
        arrangement (fixed: any customary one; free: any N points)."""
        game = self.game
        stones = self.nextra
        if stones == self.handicap and self.nmissing == 0:
            points = [self.region.game_of[self._extra[i]] for i in range(stones)]
            if not self._handicap_sets or _matches(points, self._handicap_sets):
                game.place_handicap(points)
                self.events.push(EV_HANDICAP, 1, PASS, stones, now_ms)
                self.state = PLAY
                self._after_game_change(now_ms)
                return True
        self.reason = "handicap"
        self._refresh_marks()
        return False

    # -- counting ----------------------------------------------------------

    def _counting(self, now_ms):
        """Lifted stones are dead (their whole chain); a stone put back is
        alive again; a new stone on an empty point resumes play."""
        game = self.game
        changed = False
        counter = game.counter()
        if self.nmissing:
            for i in range(self.nmissing):
                g = self.region.game_of[self._missing[i]]
                if game.pos.cells[g] and not counter.dead[g]:
                    game.mark_dead(g)
                    self.events.push(EV_DEAD, game.pos.cells[g], g, 1, now_ms)
                    changed = True
        if self.nextra:
            for i in range(self.nextra):
                p = self._extra[i]
                g = self.region.game_of[p]
                if game.pos.cells[g] and counter.dead[g] and self._chain_all_back(g):
                    game.mark_dead(g, False)
                    self.events.push(EV_DEAD, game.pos.cells[g], g, 0, now_ms)
                    changed = True
                elif not game.pos.cells[g] and self.nextra == 1 and self.nmissing == 0:
                    game.resume()
                    self.events.push(EV_RESUME, game.to_move, PASS, 0, now_ms)
                    self.state = PLAY
                    self._compare()
                    return self._try_move(p, now_ms) or True
        self._compare()
        self._set_state()
        self._refresh_marks()
        return changed

    def _chain_all_back(self, g):
        # Every stone of the dead chain through g is physically back.
        pos = self.game.pos
        n = pos.chain(g, self._chain)
        phys_of = self.region.phys_of
        for i in range(n):
            if not self.frame[phys_of[self._chain[i]]]:
                return False
        return True

    # -- the marks (what the LEDs show) ------------------------------------

    def _refresh_marks(self):
        m = self.marks
        m.clear(mk.ERROR | mk.PUT_BACK | mk.LIFT | mk.WRONG_COLOUR | mk.KO | mk.LAST_MOVE | mk.ATARI
                | mk.LIBERTY | mk.DAME | mk.TERRITORY | mk.SEKI)
        game = self.game
        cells = game.pos.cells
        phys_of = self.region.phys_of
        for i in range(self.nmissing):
            p = self._missing[i]
            m.set(p, mk.PUT_BACK, cells[self.region.game_of[p]])
        for i in range(self.nextra):
            p = self._extra[i]
            kind = mk.ERROR if p == self.rejected or self.nextra > 1 else mk.LIFT
            m.set(p, kind, self.frame[p] if self.frame[p] != _UNKNOWN else 0)
        for i in range(self.nwrong):
            p = self._wrong[i]
            m.set(p, mk.WRONG_COLOUR, cells[self.region.game_of[p]])
        if self.npending:
            pending = self.pending
            for p in range(POINTS):
                if pending[p]:
                    m.set(p, mk.LIFT, pending[p])
        if self.state == COUNTING_STATE:
            self._counting_marks()
            return
        if game.ko:
            m.set(phys_of[game.ko], mk.KO, game.to_move)
        hist = game.hist
        k = hist.length - 1
        if k:
            g = hist.moves[k] & 0x1FF
            if g and cells[g]:
                m.set(phys_of[g], mk.LAST_MOVE, cells[g])
                self._chain_marks(g)

    def _chain_marks(self, g):
        # Liberties of the chain just played; ATARI on it when it has one.
        pos = self.game.pos
        m = self.marks
        phys_of = self.region.phys_of
        libs = pos.liberties(g, 2)
        n = pos.chain(g, self._chain)
        cells = pos.cells
        for i in range(n):
            q = self._chain[i]
            if libs == 1:
                m.set(phys_of[q], mk.ATARI, cells[q])
            for d in self._dirs:
                r = q + d
                if cells[r] == 0:
                    m.set(phys_of[r], mk.LIBERTY, cells[g])

    def _counting_marks(self):
        game = self.game
        m = self.marks
        phys_of = self.region.phys_of
        game.count()
        cmap = game.counter().map
        for g in range(len(cmap)):
            v = cmap[g]
            p = phys_of[g] if g < len(phys_of) else _NONE
            if p == _NONE or not v:
                continue
            kind = v & KIND
            if kind == TERRITORY or kind == DEAD:
                m.set(p, mk.TERRITORY, v & OWNER)
            elif kind == SEKI:
                m.set(p, mk.SEKI, v & OWNER)
            elif kind == DAME:
                m.set(p, mk.DAME)  # Korean Art.7-2, Thai 9.2: dame are filled before counting

    # -- teaching: warnings before the stone is let go ------------------------

    def preview(self, points, n, now_ms):
        """Teaching mode, where the sensors see a stone that has not settled
        yet (a hand about to let it go) at points[:n]: mark it ERROR if the
        move would be illegal there, ATARI if it would leave its own chain in
        atari. Returns True if the marks changed."""
        if self.mode != TEACHING or self.state != PLAY:
            return False
        game = self.game
        before = self.marks.version
        self._refresh_marks()
        game_of = self.region.game_of
        colour = game.to_move
        for i in range(n):
            p = points[i]
            g = game_of[p]
            if g == _NONE or game.pos.cells[g] or self.frame[p]:
                continue
            try:
                captured = game.play(colour, g)
            except IllegalMove:
                self.marks.set(p, mk.ERROR, colour)
                continue
            if captured == 0 and game.pos.liberties(g, 2) < 2:
                self.marks.set(p, mk.ATARI, colour)
            game.undo()
        return self.marks.version != before

    # -- messages ------------------------------------------------------------

    def message(self):
        """What the board wants the players to do, in words."""
        state = self.state
        if state == SETUP:
            return "place %d handicap stones" % self.handicap
        if state == OVER_STATE:
            return "game over: " + self.game.result.sgf()
        if state == COUNTING_STATE:
            return "counting: lift dead stones, then OK"
        if state == REJECT:
            return "not accepted (" + self.reason.replace("_", " ") + "): lift the stone"
        if state == SYNC:
            return {"two_stones": "two new stones: lift one", "moved": "a stone moved: put it back",
                    "put_back": "put the stone back", "wrong_colour": "wrong colour",
                    "lift": "lift the stones shown"}.get(self.reason, self.reason)
        if self._captures_left():
            return "remove the captured stones"
        return ("black", "white")[self.game.to_move - 1] + " to play"


def _handicap_sets(game, n):
    """The point sets a fixed handicap of n stones may take: the GTP
    placement under the 8 symmetries of the board. Empty for free placement."""
    if game.rules.handicap != HANDICAP_FIXED or n > max_fixed(game.size):
        return ()
    size = game.size
    stride = size + 2
    base = fixed_points(size, n)
    out = []
    for t in range(8):
        pts = []
        for g in base:
            r, c = g // stride - 1, g % stride - 1
            if t & 1:
                r = size - 1 - r
            if t & 2:
                c = size - 1 - c
            if t & 4:
                r, c = c, r
            pts.append((r + 1) * stride + c + 1)
        pts.sort()
        if pts not in out:
            out.append(pts)
    return out


def _matches(points, sets):
    points = sorted(points)
    for s in sets:
        if s == points:
            return True
    return False

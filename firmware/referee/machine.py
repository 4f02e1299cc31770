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
nothing here touches hardware. Work buffers are preallocated; a chain's
points are listed in the position's flood scratch (``Position.stack``,
borrowed between its calls, as the counter does).
"""


from ..events import (
    EV_COUNTING,
    EV_END,
    EV_ILLEGAL,
    EV_MOVE,
    EV_PASS,
    EV_PENALTY,
    EV_RESUME_PLAY,
    EV_UNDO,
    EV_WARNING,
    Events,
)
from ..modes import CASUAL, TOURNAMENT
from ..rules.const import call_briefly
from ..rules.coords import PASS
from ..rules.game import COUNTING as GAME_COUNTING
from ..rules.game import OVER as GAME_OVER
from ..rules.game import IllegalMove
from ..rules.history import LOST_TURN, SELF_CAPTURE, move_colour, move_point
from ..rules.rulesets import ILLEGAL_LOSS, ILLEGAL_REJECT, ILLEGAL_WARN
from . import buttons
from .comparison import Comparison
from .phases import PROPOSE, SHOW, Phases
from .region import NONE, POINTS, Region
from .states import COUNTING, OVER, PLAY, REJECT, SETUP, SYNC, UNKNOWN

# Why a stone was refused or a player warned (events carry the index).
REASONS = ("occupied", "suicide", "ko", "superko", "out_of_turn", "off_board", "no_stones",
           "place_remove", "game_over", "two_stones", "wrong_colour", "press_clock",
           "captures_left", "removed_stone", "filled_chain", "took_back", "pushed_stone", "pressed_together",
           "dame_turn", "pressed_captures")


def reason_index(reason):
    """Index of a reason name in REASONS (len(REASONS): not one of them)."""
    return REASONS.index(reason) if reason in REASONS else len(REASONS)


class Referee(Phases):
    """Turns settled frames and button presses into the game's moves.

    ``game``: the rules.Game being played (its size decides the region).
    ``marks``: the leds.marks.Marks the LEDs show. ``events``: the ring to
    write to (the app's, shared with the clock). ``polarity``: the sensors tell
    colours. ``timed``: a game clock is in use (then a move's turn ends with
    its player's press, and the next stone waits for that press).
    ``handicap``: stones Black must place before play starts (none left to
    place when the game already has them: a recovered game).
    """

    def __init__(self, game, marks, events=None, polarity=False, mode=CASUAL, timed=False, handicap=0,
                 region=None):
        self.game = game
        self.marks = marks
        self.events = Events() if events is None else events
        self.polarity = polarity
        self.mode = mode
        self.timed = timed
        self.region = region or Region(game.size)
        self.frame = bytearray(POINTS)
        self.seen = Comparison(self.region, polarity)  # the frame against the game
        self.rejected = NONE  # physical point of a refused stone (state REJECT)
        # The stones missing now have cost their remover (a recovered game: what went while the
        # board was off costs nobody, until the board has matched the game once).
        self.removal_charged = game.move_number > 0
        self.reason = ""  # why the board waits (for messages)
        self.awaiting_press = 0  # colour whose move's turn ends with its clock press
        self.moved_at = -1  # when the last move was judged (a press that waited for it came with it)
        self.notice = 0  # what the players are told of at once (notify): an EV_* kind, 0 none
        self.notice_colour = 0
        self.notice_value = 0  # (a warning's reason: a REASONS index)
        self.notice_until = 0  # shown while the game's history is no longer than this
        self.notices = 0  # notices given (the loop's display and buzzer see a new one)
        self.draw_offer = False  # after a repetition, MENU offered a draw (Thai 11.1)
        self.draw_votes = 0  # the players who agreed to it by their clock press (bits: 1 black, 2 white)
        self.pair = False  # pair go (Thai 16): the messages name the partner to play
        self.proposed = None  # while counting: the stones proposed dead, not answered yet (phases.py)
        self.votes = 0  # while counting: who agreed to the count shown
        self.jobs = None  # the app's (firmware/jobs.py): counting's long work a slice a loop pass; None: at once
        self.job = None  # that work under way (phases.py ``work``)
        self.stale = False  # the count it makes is out of date
        self.undone = NONE  # the physical point of a move taken back, until the board is as it was
        self.handicap = handicap
        game.rules.check_handicap(game.size, handicap)
        self.handicap_sets = ()  # fixed placement: the customary arrangements (handicap.py)
        self.guide = None  # fixed placement: the physical points of every customary arrangement
        if handicap > 1:
            call_briefly("firmware.referee.handicap", "prepare", self)
        w = game.pos.stride
        self._dirs = (-w, -1, 1, w)  # the four neighbours' offsets (paint.py)
        self.ataris = None  # teaching's chains in atari (ataris.py), made when first painted
        self.state = SETUP if handicap > 1 and not game.handicap else PLAY  # (1: no stone to place)
        self.paint()

    # -- inputs ------------------------------------------------------------

    def update(self, frame, now_ms, first=False):
        """A new settled frame from the scanner (``first``: the game's first, at power-up or as it
        begins: the stones already there are to lift, Comparison.still_captured). True if the
        game or the marks changed."""
        self._settle(now_ms)
        self.frame[:] = frame
        if first:
            self.seen.still_captured(self.frame, self.game.hist, self.game.pos.cells)
        return self._reconcile(now_ms)

    def refresh(self, now_ms):
        """The game changed from outside (a flag, a host command): looked at again, the end recorded."""
        self._settle(now_ms)
        self.after_game_change(now_ms)

    def press(self, colour, now_ms, together=False):
        """``colour`` pressed its clock button (``together``: while the stone it ends was
        still settling). Returns True if the press ends that player's turn (the clock should
        switch), False if it is refused (not their turn, or the board must be fixed first)."""
        self._settle(now_ms)
        game = self.game
        if self.state == COUNTING:
            if self.awaiting_press == colour:  # the press of the move that stopped play (an OP cycle): not a vote
                self.awaiting_press = 0
                return False
            # Agreed to the count shown; both (the board unchanged since): the game ends with it.
            self.votes |= colour
            if self.votes == 3:
                self.votes = 0  # (refused, with dame still open: both agree again once they are filled)
                self.button("ok", now_ms)
            return False
        if self.state == OVER or self.state == SETUP:
            return False
        if self.draw_offer and game.cycle:
            # Thai 11.1: each player agrees to the draw offered by its own press.
            self.draw_votes |= colour
            if self.draw_votes == 3:
                game.agree_draw()
                self.after_game_change(now_ms)
            return False
        if self.awaiting_press == colour:
            if self._clauses():  # (fouls.py)
                seen = self.seen
                korean = game.rules.illegal == ILLEGAL_LOSS
                if seen.npending:  # Korean Art.18-1-4, Thai 24: pressing before the captures are off
                    self.foul(call_briefly("firmware.referee.fouls", "pressed", self, colour, later=True), now_ms)
                if korean and seen.nmissing and seen.nextra:  # Korean 18-1-3: a stone pushed
                    self.foul((colour, "pushed_stone", False), now_ms)
                elif together and not korean:  # Thai 23: placed and pressed together
                    self.foul((colour, "pressed_together", False), now_ms)
            self.awaiting_press = 0
            if self.rejected != NONE and self.reason == "press_clock":
                self.rejected = NONE  # the stone that waited for this press: the reply, judged now
                self._reconcile(now_ms)
            return True
        if game.to_move == colour and self.state == PLAY and self.awaiting_press == 0:
            self.pass_turn(colour, now_ms)  # a press with no stone placed is a pass
            return True
        return False

    def button(self, name, now_ms):
        """Other controls: "pass", "undo", "resign_black", "resign_white", "ok" (finish counting),
        "resume", "draw" (a vote for a draw after a repetition, Thai 11). True if done (buttons.py)."""
        self._settle(now_ms)
        return buttons.button(self, name, now_ms)

    def await_press(self, colour):
        """``colour`` moved and has still to press the clock (a clock restored at power-up)."""
        self.awaiting_press = colour

    def note(self, reason):
        """A control was refused for ``reason``: the message says why until the board changes."""
        self.reason = reason

    def notify(self, kind, colour, value=0):
        """Tell the players at once of what event ``kind`` recorded (a pass, a warning, a lost
        turn, play resumed, a referee's penalty; ``value``: a warning's REASONS index, a
        penalty's kind), until the next move (after a resumption, the one after it): the
        page's words, the LEDs (paint.py), the display and the buzzer (the loop)."""
        self.notice = kind
        self.notice_colour = colour
        self.notice_value = value
        self.notice_until = self.game.hist.length + (1 if kind == EV_RESUME_PLAY else 0)
        self.notices += 1
        self.paint()

    def noticed(self):
        """The notice still standing (an EV_* kind), or 0."""
        if self.notice and self.game.hist.length > self.notice_until:
            self.notice = 0
        return self.notice

    # -- the comparison ----------------------------------------------------

    def _reconcile(self, now_ms):
        self.compare()
        if self.state == SETUP:
            return call_briefly("firmware.referee.handicap", "judge", self, now_ms)
        if self.state == OVER:
            self.paint()
            return False
        if self.state == COUNTING:
            return self._counting(now_ms)
        if self.rejected != NONE:
            if self.frame[self.rejected]:
                self.paint()
                return False
            self.rejected = NONE  # the refused stone is gone
        seen = self.seen
        if seen.nmissing == 0 and seen.nwrong == 0 and seen.nextra == 1 and seen.extra[0] != self.undone:
            return self._try_move(seen.extra[0], now_ms)
        if (seen.nmissing == 1 and seen.nextra == 0 and seen.nwrong == 0 and self.mode != TOURNAMENT
                and self.undone == NONE):  # (while a takeback is being put right, its stones are not moves)
            hist = self.game.hist
            k = hist.length - 1
            record = hist.moves[k]
            if (k > 0 and not record & (LOST_TURN | SELF_CAPTURE)
                    and move_point(record) == self.region.game_of[seen.missing[0]]):
                return self.takeback(now_ms)  # the last stone played was lifted
        if self._removed(now_ms):
            return True
        self._set_state()
        self.paint()
        return False

    def compare(self):
        game = self.game
        result = game.result
        counted = result is not None and result.reason == "score"  # (a counted game's dead stones stay off)
        dead = game.dead_marks() if game.phase == GAME_COUNTING or counted else None
        self.seen.compare(self.frame, game.pos.cells, dead)

    def _set_state(self):
        game = self.game
        seen = self.seen
        if game.phase == GAME_OVER:
            self.state = OVER
        elif game.phase == GAME_COUNTING:
            self.state = COUNTING
        elif self.rejected != NONE:
            self.state = REJECT
        elif seen.nmissing or seen.nextra or seen.nwrong:  # (captured stones still to lift aside)
            self.state = SYNC
            if seen.nextra >= 2 and not seen.nmissing:
                self.reason = "two_stones"
            elif seen.nmissing and seen.nextra:
                self.reason = "moved"
            elif seen.nmissing:
                self.reason = "put_back"
            elif seen.nwrong:
                self.reason = "wrong_colour"
            else:
                self.reason = "lift"
        else:
            self.state = PLAY
            self.reason = ""
            self.undone = NONE

    # -- moves -------------------------------------------------------------

    def _try_move(self, p, now_ms):
        game = self.game
        g = self.region.game_of[p]
        f = self.frame[p]
        colour = f if f != UNKNOWN else game.to_move
        if self.timed and self.awaiting_press:
            # The last mover has not pressed yet: a presence board cannot
            # tell a fast reply from a second stone, so the stone waits.
            if colour == self.awaiting_press or f == UNKNOWN:
                return self._refuse(p, colour, "press_clock" if f == UNKNOWN else "out_of_turn", now_ms)
            self.awaiting_press = 0  # the opponent replied: the press is implied
        if colour != game.to_move:
            return self._refuse(p, colour, "wrong_colour" if self.mode != TOURNAMENT else "out_of_turn", now_ms)
        if game.op is not None and self.seen.npending:
            # OP Art.2-4: no placement while a chain without liberties is still on the board.
            return self._refuse(p, colour, "filled_chain", now_ms)
        if self._clauses() and self.seen.npending and self.foul(
                call_briefly("firmware.referee.fouls", "left", self, colour, later=True), now_ms):
            return True  # Korean regulations 19-1-3: captures left on the board to the next move (fouls.py)
        try:
            n = game.play(colour, g)
        except IllegalMove as error:
            return self._refuse(p, colour, error.reason, now_ms)
        self.moved(colour, g, n, now_ms)
        return True

    def moved(self, colour, g, n, now_ms):
        """The game took ``colour``'s move at game point ``g``, which captured ``n`` stones (a stone
        placed here, or a move made elsewhere: host/commands.py ``play``): recorded and shown."""
        game = self.game
        removed = game.pos.removed
        phys_of = self.region.phys_of
        record = game.hist.moves[game.hist.length - 1]
        captured = colour if record & SELF_CAPTURE else 3 - colour
        seen = self.seen
        pending = seen.pending
        for i in range(n):
            q = phys_of[removed[i]]
            if self.frame[q] and not pending[q]:  # still on the board: to be lifted
                pending[q] = captured
                seen.npending += 1
        self.events.add(EV_MOVE, colour, g, n, now_ms)
        self.moved_at = now_ms
        self.draw_offer = False
        self.draw_votes = 0
        if self.timed:
            self.awaiting_press = colour
        self.after_game_change(now_ms)

    def _refuse(self, p, colour, reason, now_ms):
        """A stone that is not a legal move: shown; in a tournament, the rule set's penalty
        (fouls.py decides one out of turn, loaded for that decision only: a refusal in casual or
        teaching play, a beginner's everyday, loads nothing)."""
        self.rejected = p
        self.reason = reason
        g = self.region.game_of[p]
        self.events.add(EV_ILLEGAL, colour, g, reason_index(reason), now_ms)
        if self.mode != TOURNAMENT or reason == "two_stones" or reason == "press_clock" or reason == "dame_turn":
            self._finish()
            return True
        game = self.game
        reason, penalty = call_briefly("firmware.referee.fouls", "judge", game, colour, reason, later=True)
        if penalty is None:
            penalty = game.apply_illegal(colour, reason)
        elif penalty == ILLEGAL_LOSS:
            game.foul(colour, reason)
        if penalty != ILLEGAL_REJECT:
            self.events.add(EV_PENALTY, colour, g, penalty, now_ms)
        if penalty == ILLEGAL_WARN:  # a warning, the turn lost (Thai 28, 29): told; the offender's press hands
            self.notify(EV_PENALTY, colour, reason_index(reason))  # the clock over
            self.awaiting_press = colour if self.timed else 0
        self.after_game_change(now_ms)
        return True

    def foul(self, decision, now_ms):
        """A tournament clause's charge (fouls.py): ``(colour, reason, loss)``, the game lost
        (``loss``) or a warning; None: nothing. True if the game is lost."""
        if decision is None:
            return False
        colour, reason, loss = decision
        if loss:
            self.game.foul(colour, reason)
            self.events.add(EV_PENALTY, colour, PASS, ILLEGAL_LOSS, now_ms)
        else:
            self.events.add(EV_WARNING, colour, PASS, reason_index(reason), now_ms)
            self.notify(EV_WARNING, colour, reason_index(reason))
            self.game.warn(colour, reason)
        self.after_game_change(now_ms)
        return loss

    def _clauses(self):
        # The tournament clauses on captured and removed stones (Korean, Thai).
        return self.mode == TOURNAMENT and self.game.rules.warning_loss

    def _removed(self, now_ms):
        """Stones missing, nothing else amiss, under the tournament clauses: charged if the
        last mover lifted the opponent's stones (fouls.py ``removed``). True if charged."""
        seen = self.seen
        if not seen.nmissing:
            self.removal_charged = False
            return False
        if seen.nextra or seen.nwrong or self.removal_charged or self.game.hist.length < 2 or not self._clauses():
            return False
        decision = call_briefly("firmware.referee.fouls", "removed", self, later=True)
        if decision is None:
            return False
        self.removal_charged = True
        self.foul(decision, now_ms)
        return True

    def pass_turn(self, colour, now_ms):
        game = self.game
        try:
            game.play(colour, PASS)
        except IllegalMove:
            return
        self.events.add(EV_PASS, colour, PASS, 0, now_ms)
        self.notify(EV_PASS, colour)
        self.after_game_change(now_ms)

    def takeback(self, now_ms, referee=False):
        """Take the last move back: in casual play (its stone lifted, or the undo button), or
        in any mode by the ``referee``'s decision (Korean regulations 21-2-2, Thai 22). Its
        captured stones are expected again: PUT_BACK marks show where, and play resumes when
        they are back. False if there is nothing to take back."""
        game = self.game
        if (self.mode == TOURNAMENT and not referee) or game.move_number == 0 or self.state == SETUP:
            return False
        if game.phase == GAME_OVER:
            return False
        record = game.hist.moves[game.hist.length - 1]
        game.undo()
        self.events.add(EV_UNDO, move_colour(record), move_point(record), 0, now_ms)
        self.seen.restore(game.pos.cells)  # what the move captured is in the game again
        self.awaiting_press = 0
        self.notice = 0
        self.undone = self.region.phys_of[move_point(record)] if move_point(record) else NONE
        self.after_game_change(now_ms)
        return True

    def after_game_change(self, now_ms):
        game = self.game
        if game.phase == GAME_COUNTING and self.state != COUNTING:
            if self.jobs is None:
                self._propose()
            else:
                self._later(PROPOSE)
            self.events.add(EV_COUNTING, 0, PASS, 0, now_ms)
        elif game.phase != GAME_COUNTING:
            self.proposed = None
            self.stop()
        result = game.result
        if result is not None and self.state != OVER:
            self.events.add(EV_END, result.winner or 0, PASS, 0, now_ms)
        if self.jobs is not None and self.state == COUNTING and game.phase == GAME_OVER:
            self.stop()
            self._later(SHOW)  # the count agreed: the board shown over in a later pass
        else:
            self._finish()

    def _finish(self):
        # The game or the refused stone changed: compare again, then show it.
        self.compare()
        self._set_state()
        self.paint()

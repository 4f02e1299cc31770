"""The referee's phase after play: counting (handicap setup before it is handicap.py's).

``Phases`` holds these methods of ``Referee`` (machine.py: ``class
Referee(Phases)``; paint.py's painting comes through ``Phases(Painter)``), kept apart as rules/ending.py is from the game: they read and write the
referee's state and call its comparison and move methods
(declared below for the type checker).
"""

from ..events import EV_DEAD, EV_MOVE, EV_RESUME_PLAY, EV_UNDO
from ..jobs import drop, finish, start
from ..micro import const
from ..rules.coords import PASS
from ..rules.dead import propose
from ..rules.illegal import IllegalMove
from ..rules.rulesets import SCORE_AREA, SCORE_TERRITORY
from .paint import Painter
from .region import NONE, POINTS
from .states import PLAY, UNKNOWN

_SEKI_POINTS = const(105)  # the count's seki search a loop pass: 5 rows of a 19x19 board's map (5 passes)
PROPOSE = const(1)  # the counting work's first slices (``work``): the dead stones proposed, then shown
SHOW = const(2)  # ... the board shown with the count agreed

TYPE_CHECKING = False  # the type checker reads the blocks below; nothing in them runs
if TYPE_CHECKING:
    from ..events import Events


class Phases(Painter):
    """Counting on the board: see the module doc."""

    # The referee's state these methods share (machine.py's Referee sets it; Painter declares more).
    events: "Events"
    reason: str
    proposed: "bytearray | None"  # physical points of the stones proposed dead, not answered yet
    votes: int  # the players who agreed to the count shown (bits: 1 black, 2 white)
    rejected: int  # physical point of a refused stone

    if TYPE_CHECKING:  # Referee's own methods
        def compare(self): ...

        def _finish(self): ...

        def after_game_change(self, now_ms): ...

        def _try_move(self, p, now_ms) -> bool: ...

        def _refuse(self, p, colour, reason, now_ms) -> bool: ...

        def notify(self, kind, colour, value=0): ...

    # -- counting ----------------------------------------------------------

    def _propose(self):
        """Counting begins: the board proposes the dead stones (rules/dead.py). They are
        lit to lift; lifting one accepts its chain, lifting it and putting it back keeps
        the chain alive, and an agreement with proposals still on the board accepts them."""
        game = self.game
        game.clear_dead()
        self.proposed = proposed = bytearray(POINTS)
        self.votes = 0
        # (Tromp-Taylor and OP count the board as it stands: nothing is taken off at the end)
        if game.rules.scoring != SCORE_TERRITORY and game.rules.scoring != SCORE_AREA:
            return
        found = propose(game)
        if found:
            phys_of = self.region.phys_of
            marked = game.dead_marks()
            for g in range(len(marked)):
                if marked[g]:
                    proposed[phys_of[g]] = 1

    def _later(self, first):
        # Counting's long work made a job of the app's (firmware/jobs.py): ``first`` PROPOSE
        # (counting begins), SHOW (the count agreed), 0 (the board changed: a count).
        self.stale = not first
        self.job = start(self.work(first))
        self.jobs.append(self.job)  # pyright: ignore[reportOptionalMemberAccess]  (the app's: _later's callers ask)

    def work(self, first):
        # The job, a slice a pass: the dead stones proposed, the board compared and painted
        # with them (to lift) or with the count agreed; then, when its paint asked for one
        # (``stale``), the count: its code loaded (at the game's first count), the board
        # labelled, its seki search _SEKI_POINTS a slice, its map.
        yield
        if first == PROPOSE:
            self._propose()
            yield
        if first:
            self._finish()
            yield
        if self.stale:
            self.stale = False
            game = self.game
            if game.count_map() is None:
                game.counter()  # (its code, loaded in a slice of its own)
                yield
            counter = game.counter()
            counter.begin()
            yield
            while not counter.more(_SEKI_POINTS):
                yield
            self.count_map(True)
        self.job = None

    def stop(self):
        """The counting work under way is let go (play resumed, the next game)."""
        self.job = drop(self.jobs, self.job)

    def _settle(self, now_ms):
        # The work under way, now: a stone, a press or a button needs the proposal and the count.
        if self.job is not None:
            finish(self.job, now_ms, self.jobs)

    def _counting(self, now_ms):
        """Lifted stones are dead (their whole chain); a stone put back is
        alive again; a stone filling a dame is recorded (territory scoring);
        another new stone on an empty point resumes play. Any change cancels
        the players' agreement so far."""
        game = self.game
        seen = self.seen
        changed = False
        counter = game.counter()
        proposed = self.proposed
        if proposed is None:  # counting since a power-up: nothing proposed
            proposed = self.proposed = bytearray(POINTS)
        # Proposed chains with a stone lifted are answered: accepted, or kept alive if put back.
        frame = self.frame
        game_of = self.region.game_of
        phys_of = self.region.phys_of
        pos = game.pos
        for p in range(POINTS):
            if proposed[p] and not frame[p]:
                chain = pos.stack  # (borrowed: no flood runs while it is read)
                for i in range(pos.chain(game_of[p], chain)):
                    proposed[phys_of[chain[i]]] = 0
        self.votes = 0
        rejected = self.rejected
        if rejected != NONE:
            if frame[rejected]:  # a fill out of turn, still on the board
                self._finish()
                return False
            self.rejected = NONE
        if seen.nmissing:
            for i in range(seen.nmissing):
                g = self.region.game_of[seen.missing[i]]
                if game.unfill_dame(g):  # the last dame fill lifted again: taken back
                    self.events.add(EV_UNDO, 3 - game.to_move, g, 0, now_ms)
                    changed = True
                elif game.filled_dame(g):
                    self.reason = "put_back"  # an earlier fill: the later ones come off first
                elif game.pos.cells[g] and not counter.dead[g]:
                    game.mark_dead(g)
                    self.events.add(EV_DEAD, game.pos.cells[g], g, 1, now_ms)
                    changed = True
        fresh = 0  # stones on empty points
        for i in range(seen.nextra):
            g = self.region.game_of[seen.extra[i]]
            if not game.pos.cells[g]:
                fresh += 1
        if seen.nextra:
            for i in range(seen.nextra):
                p = seen.extra[i]
                g = self.region.game_of[p]
                if proposed[p]:
                    continue  # a proposal not answered yet
                if game.pos.cells[g] and counter.dead[g] and self._chain_all_back(g):
                    game.mark_dead(g, False)
                    self.events.add(EV_DEAD, game.pos.cells[g], g, 0, now_ms)
                    changed = True
                elif not game.pos.cells[g] and fresh == 1 and seen.nmissing == 0:
                    # A dame filled (territory scoring): neutral, any colour, play stays stopped;
                    # presence sensors cannot tell the colour: the players' turn order gives it.
                    colour = self.frame[p] if self.frame[p] != UNKNOWN else game.to_move
                    try:
                        filled = game.fill_dame(colour, g)
                    except IllegalMove:  # (Korean Art.7-2, Thai 9.2: in turn)
                        return self._refuse(p, colour, "dame_turn", now_ms)
                    if filled:
                        self.events.add(EV_MOVE, colour, g, 0, now_ms)
                        self.reason = ""  # (a dame still open is lit; OK says so again)
                        self._finish()
                        return True
                    game.resume()  # (as buttons.py's "resume": no press owed any more)
                    self.awaiting_press = 0
                    self.events.add(EV_RESUME_PLAY, game.to_move, PASS, 0, now_ms)
                    self.notify(EV_RESUME_PLAY, game.to_move)
                    self.state = PLAY
                    self.compare()
                    return self._try_move(p, now_ms) or True
        if changed or fresh or (self.reason == "put_back" and not seen.nmissing):
            self.reason = ""
        self._finish()
        return changed

    def _chain_all_back(self, g):
        # Every stone of the dead chain through g is physically back.
        pos = self.game.pos
        chain = pos.stack  # (borrowed: no flood runs while it is read)
        phys_of = self.region.phys_of
        for i in range(pos.chain(g, chain)):
            if not self.frame[phys_of[chain[i]]]:
                return False
        return True

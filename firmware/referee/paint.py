"""What the LEDs must show for the referee's view of the board, painted into its ``Marks``.

``Painter`` holds these methods of ``Referee`` (machine.py's ``Referee``
through phases.py's ``Phases(Painter)``), kept apart as phases.py is: they
read the referee's state and write its marks.

Stones to put back, to lift and of the wrong colour; a refused stone; the
captured stones still on the board; the ko point, the last move with its
liberties (atari when it has one); at counting time the count map
(territory, seki, dame to fill). Teaching mode's preview marks where a stone
not yet let go would be illegal or in atari. Allocation-free in play; the
handicap setup's marks are handicap.py's, loaded for the painting.
"""

from ..leds.marks import (
    ATARI,
    DAME,
    ERROR,
    KO,
    LAST_MOVE,
    LIBERTY,
    LIFT,
    NOTICE,
    PUT_BACK,
    REFEREE_KINDS,
    SEKI,
    TERRITORY,
    WRONG_COLOUR,
)
from ..modes import TEACHING
from ..rules.const import call_briefly
from ..rules.game import IllegalMove
from .region import NONE, POINTS
from .states import COUNTING, OVER, PLAY, SETUP, UNKNOWN

TYPE_CHECKING = False  # the type checker reads the block below; nothing in it runs
if TYPE_CHECKING:
    from ..leds.marks import Marks
    from ..rules.game import Game
    from .ataris import Ataris
    from .comparison import Comparison
    from .region import Region


class Painter:
    """Paints the referee's view (its game, region, comparison lists) into its marks."""

    # The referee's state these methods read (machine.py's Referee sets it).
    game: "Game"
    marks: "Marks"
    region: "Region"
    seen: "Comparison"
    frame: bytearray
    state: int
    mode: int
    rejected: int
    guide: "bytearray | None"
    jobs: "list | None"  # the app's (firmware/jobs.py): counting's long work a slice a loop pass; None: at once
    job: "object | None"  # that work under way (a generator: phases.py ``work``)
    stale: bool  # the board changed while counting: the work under way counts again
    _dirs: tuple  # the four neighbours' offsets on the position's board
    ataris: "Ataris | None"  # teaching's chains in atari (ataris.py), made when first painted
    notice_colour: int  # the player a notice tells of (machine.py notify)

    if TYPE_CHECKING:  # Referee's own
        def noticed(self) -> int: ...

        def _later(self, first): ...

    def paint(self):
        """The marks for the board as the referee sees it now."""
        m = self.marks
        m.clear(REFEREE_KINDS)
        if self.state == SETUP:
            call_briefly("firmware.referee.handicap", "paint", self)  # (its code is loaded only then)
            return
        game = self.game
        if self.state == OVER:  # nothing to fix once it is over (the players clear the board)
            p = self.rejected
            if p != NONE and self.frame[p]:
                m.set(p, ERROR)  # the stone that lost the game
            result = game.result
            if result is not None and result.reason == "score":  # the final count stays shown:
                if game.count_map() is None:
                    self._paint_count()  # (a game recovered over: counted again)
                else:
                    self.count_map()  # (the count the result came from: nothing changes once over)
            return
        seen = self.seen
        cells = game.pos.cells
        game_of = self.region.game_of
        phys_of = self.region.phys_of
        if self.noticed():  # the game's four corners, in the colour of the player told
            n = game.size
            w = n + 2
            for g in (w + 1, w + n, n * w + 1, n * w + n):
                m.set(phys_of[g], NOTICE, self.notice_colour)
        for i in range(seen.nmissing):
            p = seen.missing[i]
            m.set(p, PUT_BACK, cells[game_of[p]])
        counting = self.state == COUNTING
        for i in range(seen.nextra):
            p = seen.extra[i]
            # (while counting, a stone of the game on the board is one marked dead: to lift)
            lone = seen.nextra == 1 or counting and cells[game_of[p]]
            kind = ERROR if p == self.rejected or not lone else LIFT
            m.set(p, kind, self.frame[p] if self.frame[p] != UNKNOWN else 0)
        for i in range(seen.nwrong):
            p = seen.wrong[i]
            m.set(p, WRONG_COLOUR, cells[game_of[p]])
        if seen.npending:
            pending = seen.pending
            for p in range(POINTS):
                if pending[p]:
                    m.set(p, LIFT, pending[p] & 3)
        if self.state == COUNTING:
            self._paint_count()
            return
        if game.ko:
            m.set(phys_of[game.ko], KO, game.to_move)
        if self.mode == TEACHING:
            self._ataris()
        hist = game.hist
        k = hist.length - 1
        if k:
            g = hist.moves[k] & 0x1FF
            if g and cells[g]:
                self._chain(g)

    def _ataris(self):
        # Teaching: every chain in atari, of either colour, for as long as it is (ataris.py).
        ataris = self.ataris
        game = self.game
        if ataris is None:
            from .ataris import Ataris  # (teaching's: loaded when a board first teaches)

            ataris = self.ataris = Ataris(game.pos)
        ataris.update(game)
        if not ataris.count:
            return
        flags = ataris.flags
        cells = game.pos.cells
        m = self.marks
        phys_of = self.region.phys_of
        g = flags.find(b"\x01")
        while g >= 0:
            m.set(phys_of[g], ATARI, cells[g])
            g = flags.find(b"\x01", g + 1)

    def _chain(self, g):
        # Liberties of the chain just played; ATARI on it when it has one (teaching).
        pos = self.game.pos
        m = self.marks
        phys_of = self.region.phys_of
        chain = pos.stack  # the position's flood scratch, borrowed: no flood runs while it is read
        cells = pos.cells
        libs = pos.liberties(g, 2)
        if libs != 1 or self.mode != TEACHING:  # (teaching: a self-atari's ATARI outranks the dot)
            m.set(phys_of[g], LAST_MOVE, cells[g])
        n = pos.chain(g, chain)
        for i in range(n):
            q = chain[i]
            if libs == 1:
                m.set(phys_of[q], ATARI, cells[q])
            for d in self._dirs:
                r = q + d
                if cells[r] == 0:
                    m.set(phys_of[r], LIBERTY, cells[g])

    def _paint_count(self):
        if self.jobs is None:
            self.game.count()
        elif self.job is None:  # counted in later loop passes (phases.py work); the last count shown meanwhile
            self._later(0)
        else:
            self.stale = True  # (the work under way counts after what it does now)
        self.count_map()

    def count_map(self, clear=False):
        """The last count's map as LED marks: territory, seki, dame (``clear``: the marks
        of the count before are taken off first)."""
        m = self.marks
        if clear:
            m.clear(TERRITORY | SEKI | DAME)
        cmap = self.game.count_map()
        if cmap is None:
            return  # nothing counted yet (the count's code loads with the first count, a pass of its own)
        from ..rules.scoring import DAME as MAP_DAME  # (after: built with names kept, this loads scoring.py)
        from ..rules.scoring import DEAD, KIND, OWNER
        from ..rules.scoring import SEKI as MAP_SEKI
        from ..rules.scoring import TERRITORY as MAP_TERRITORY

        phys_of = self.region.phys_of
        for g in range(len(cmap)):
            v = cmap[g]
            p = phys_of[g] if g < len(phys_of) else NONE
            if p == NONE or not v:
                continue
            kind = v & KIND
            if kind == MAP_TERRITORY or kind == DEAD:
                m.set(p, TERRITORY, v & OWNER)
            elif kind == MAP_SEKI:
                m.set(p, SEKI, v & OWNER)
            elif kind == MAP_DAME:
                m.set(p, DAME)  # Korean Art.7-2, Thai 9.2: dame are filled before counting

    def preview(self, points, n, now_ms):
        """Teaching mode, where the sensors see a stone that has not settled yet (a hand
        about to let it go) at points[:n]: mark it ERROR if the move would be illegal
        there, ATARI if it would leave its own chain in atari (one stone or more), and
        the liberties its chain would have (the game is tried and put back). Returns
        True if the marks changed."""
        if self.mode != TEACHING or self.state != PLAY:
            return False
        before = self.marks.version
        self.paint()
        game = self.game
        marks = self.marks
        game_of = self.region.game_of
        colour = game.to_move
        for i in range(n):
            p = points[i]
            g = game_of[p]
            if g == NONE or game.pos.cells[g] or self.frame[p]:
                continue
            try:
                captured = game.play(colour, g)
            except IllegalMove:
                marks.set(p, ERROR, colour)
                continue
            pos = game.pos
            if captured == 0 and pos.liberties(g, 2) < 2:
                marks.set(p, ATARI, colour)
            chain = pos.stack  # (borrowed: no flood runs while it is read)
            cells = pos.cells
            phys_of = self.region.phys_of
            for k in range(pos.chain(g, chain)):  # the liberties the chain under the hand would have
                q = chain[k]
                for d in self._dirs:
                    if cells[q + d] == 0:
                        marks.set(phys_of[q + d], LIBERTY, colour)
            game.undo()
        return self.marks.version != before

"""What the LEDs must show for the referee's view of the board, painted into its ``Marks``.

Stones to put back, to lift and of the wrong colour; a refused stone; the
captured stones still on the board; the ko point, the last move with its
liberties (atari when it has one); at counting time the count map
(territory, seki, dame to fill). Teaching mode's preview marks where a stone
not yet let go would be illegal or in atari. Allocation-free.
"""

from ..leds.marks import (
    ATARI,
    DAME,
    ERROR,
    KO,
    LAST_MOVE,
    LIBERTY,
    LIFT,
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
from .states import COUNTING, OVER, OWED_COUNT, SETUP, UNKNOWN


class Painter:
    """Paints one referee's view (its game, region, comparison lists) into its marks."""

    def __init__(self, referee):
        self.referee = referee
        w = referee.game.pos.stride
        self._dirs = (-w, -1, 1, w)

    def paint(self):
        ref = self.referee
        m = ref.marks
        m.clear(REFEREE_KINDS)
        if ref.state == SETUP:
            call_briefly("firmware.referee.handicap", "paint", ref)  # (its code is loaded only then)
            return
        game = ref.game
        if ref.state == OVER:  # nothing to fix once it is over (the players clear the board)
            p = ref.rejected
            if p != NONE and ref.frame[p]:
                m.set(p, ERROR)  # the stone that lost the game
            if game.result.reason == "score":
                self._counting()  # the final count stays shown
            return
        seen = ref.seen
        cells = game.pos.cells
        game_of = ref.region.game_of
        phys_of = ref.region.phys_of
        for i in range(seen.nmissing):
            p = seen.missing[i]
            m.set(p, PUT_BACK, cells[game_of[p]])
        counting = ref.state == COUNTING
        for i in range(seen.nextra):
            p = seen.extra[i]
            # (while counting, a stone of the game on the board is one marked dead: to lift)
            lone = seen.nextra == 1 or counting and cells[game_of[p]]
            kind = ERROR if p == ref.rejected or not lone else LIFT
            m.set(p, kind, ref.frame[p] if ref.frame[p] != UNKNOWN else 0)
        for i in range(seen.nwrong):
            p = seen.wrong[i]
            m.set(p, WRONG_COLOUR, cells[game_of[p]])
        if seen.npending:
            pending = seen.pending
            for p in range(POINTS):
                if pending[p]:
                    m.set(p, LIFT, pending[p] & 3)
        if ref.state == COUNTING:
            self._counting()
            return
        if game.ko:
            m.set(phys_of[game.ko], KO, game.to_move)
        hist = game.hist
        k = hist.length - 1
        if k:
            g = hist.moves[k] & 0x1FF
            if g and cells[g]:
                self._chain(g)

    def _chain(self, g):
        # Liberties of the chain just played; ATARI on it when it has one, and on each
        # chain next to it that the move left with one (teaching shows them).
        ref = self.referee
        pos = ref.game.pos
        m = ref.marks
        phys_of = ref.region.phys_of
        chain = pos.stack  # the position's flood scratch, borrowed: no flood runs while it is read
        cells = pos.cells
        for d in self._dirs:
            r = g + d
            if cells[r] == 3 - cells[g] and pos.liberties(r, 2) == 1:
                for i in range(pos.chain(r, chain)):
                    m.set(phys_of[chain[i]], ATARI, cells[r])
        libs = pos.liberties(g, 2)
        if libs != 1 or ref.mode != TEACHING:  # (teaching: a self-atari's ATARI outranks the dot)
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

    def _counting(self):
        ref = self.referee
        if ref.defer:  # counted in a later loop pass (Phases.catch_up); the last count shown meanwhile
            ref.owed |= OWED_COUNT
        else:
            ref.game.count()
        self.count_map()

    def count_map(self, clear=False):
        """The last count's map as LED marks: territory, seki, dame (``clear``: the marks
        of the count before are taken off first)."""
        from ..rules.scoring import DAME as MAP_DAME
        from ..rules.scoring import DEAD, KIND, OWNER
        from ..rules.scoring import SEKI as MAP_SEKI
        from ..rules.scoring import TERRITORY as MAP_TERRITORY

        ref = self.referee
        m = ref.marks
        if clear:
            m.clear(TERRITORY | SEKI | DAME)
        phys_of = ref.region.phys_of
        cmap = ref.game.counter().map
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

    def preview(self, points, n):
        """Teaching: mark each of points[:n] (a stone the sensors see but that has
        not settled: a hand about to let it go) ERROR if the move would be illegal
        there, ATARI if it would leave its own chain in atari (one stone or more),
        and the liberties its chain would have. The game is tried and put back."""
        ref = self.referee
        game = ref.game
        marks = ref.marks
        game_of = ref.region.game_of
        colour = game.to_move
        for i in range(n):
            p = points[i]
            g = game_of[p]
            if g == NONE or game.pos.cells[g] or ref.frame[p]:
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
            phys_of = ref.region.phys_of
            for k in range(pos.chain(g, chain)):  # the liberties the chain under the hand would have
                q = chain[k]
                for d in self._dirs:
                    if cells[q + d] == 0:
                        marks.set(phys_of[q + d], LIBERTY, colour)
            game.undo()

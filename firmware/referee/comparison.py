"""The physical board against the game: which stones are missing, extra or of the wrong colour.

``Comparison.compare(frame, cells, dead)`` goes over the region's physical
points once and fills, in preallocated arrays, the physical points where a
stone of the game is missing (``missing[:nmissing]``), where a stone lies
that the game does not have (``extra[:nextra]``) and where a stone shows
the wrong colour (``wrong[:nwrong]``, polarity sensors only: presence
sensors cannot tell a colour, so the array is empty for them). Captured
stones the players have not lifted yet are ``pending`` (their colour in bits
0-1, per physical point; ``npending`` of them; the referee sets them as a
move captures): they are expected on the board until lifted, in any order. A tournament charges their capturer once
per clause (fouls.py): the ``CHARGED_*`` bits remember it. Allocation-free.
"""

from ..micro import const
from ..rules.const import zeros
from ..rules.history import SELF_CAPTURE, move_colour
from .region import NONE, POINTS
from .states import UNKNOWN

CHARGED_PRESS = const(4)  # their capturer pressed the clock with them on the board
CHARGED_LEFT = const(8)  # their capturer played the next move with them on the board


class Comparison:
    """See the module doc; ``region``: where the game lies on the physical board;
    ``polarity``: the sensors tell colours."""

    def __init__(self, region, polarity=False):
        self.region = region
        self.missing = zeros("H", POINTS)
        self.extra = zeros("H", POINTS)
        self.wrong = zeros("H", POINTS if polarity else 0)
        self.nmissing = self.nextra = self.nwrong = 0
        self.pending = bytearray(POINTS)
        self.npending = 0

    def restore(self, cells):
        """Moves were taken back: captured stones the game has again are no longer to lift."""
        pending = self.pending
        game_of = self.region.game_of
        for p in range(POINTS):
            if pending[p] and cells[game_of[p]]:
                pending[p] = 0
                self.npending -= 1

    def still_captured(self, frame, hist, cells):
        """The first frame of a game: stones lying on points it has empty are to lift, not new stones.
        With no move yet, every one (the last game's stones, a new game's board not cleared; their
        colour as read). At power-up with a game in progress, the ones its moves (``hist``)
        captured (the journal keeps moves, not hands); the latest capture of a point says whose
        (read from the last move back)."""
        phys_of = self.region.phys_of
        pending = self.pending
        if hist.length == 1:
            game_of = self.region.game_of
            for q in range(POINTS):
                g = game_of[q]
                if g != NONE and frame[q] and not cells[g] and not pending[q]:
                    pending[q] = frame[q] & 3 | CHARGED_PRESS | CHARGED_LEFT  # (nobody's captures: nobody charged)
                    self.npending += 1
            return
        log = hist.removed
        for k in range(hist.length - 1, 0, -1):
            record = hist.moves[k]
            captured = move_colour(record) if record & SELF_CAPTURE else 3 - move_colour(record)
            for i in range(hist.removed_start(k), hist.removed_end[k]):
                g = log[i]
                q = phys_of[g]
                if frame[q] and not cells[g] and not pending[q]:
                    pending[q] = captured
                    self.npending += 1

    def compare(self, frame, cells, dead):
        """Fill the lists from a settled ``frame`` and the game's ``cells``; ``dead``: the
        dead-stone marks while counting (dead stones belong off the board), or None."""
        pending = self.pending
        game_of = self.region.game_of
        missing = self.missing
        extra = self.extra
        wrong = self.wrong
        nm = ne = nw = 0
        for p in range(POINTS):
            g = game_of[p]
            if g == NONE:
                continue
            f = frame[p]
            if pending[p]:
                if f == 0:
                    pending[p] = 0  # lifted
                    self.npending -= 1
                continue
            v = cells[g]
            if dead is not None and dead[g]:
                v = 0
            if v and not f:
                missing[nm] = p
                nm += 1
            elif f and not v:
                extra[ne] = p
                ne += 1
            elif v and f != v and f != UNKNOWN and len(wrong):  # (presence sensors: no colour to tell)
                wrong[nw] = p
                nw += 1
        self.nmissing = nm
        self.nextra = ne
        self.nwrong = nw


"""What the board wants the players to see, per physical point: the contract
between the referee (and the counting phase, and host hints) and the LEDs.

``Marks.bits[p]`` holds a bit per overlay kind for sensor point p (row-major,
top row first, 19 x 19 = 361 points); ``Marks.stone[p]`` the colour that
matters for the point's overlay (the stone to put back or lift, the colour
whose territory it is), 0 when none. The LED composer shows the kind with
the highest priority (the lowest bit) at each point. Writers set and clear
bits in place; nothing here allocates after construction.
"""

from array import array

from ..micro import const

# Overlay kinds, highest priority first (the LED composer's order).
ERROR = const(1 << 0)  # illegal placement, foul, a second stone, a stone of the side not to move
PUT_BACK = const(1 << 1)  # a stone was lifted or knocked away: put it back here
LIFT = const(1 << 2)  # a captured stone (or a stray one) to lift
WRONG_COLOUR = const(1 << 3)  # polarity sensors: the stone here is the wrong colour
KO = const(1 << 4)  # the ko point the player to move may not retake
LAST_MOVE = const(1 << 5)
ATARI = const(1 << 6)  # a chain in atari (or a self-atari warning while placing)
LIBERTY = const(1 << 7)  # liberties of the chain just played
DAME = const(1 << 8)  # dame to fill before counting
TERRITORY = const(1 << 9)  # counted territory of ``stone``'s colour
SEKI = const(1 << 10)  # neutral point or stone in seki at counting
HINT = const(1 << 11)  # a point the host asked to show
PLACE = const(1 << 12)  # handicap setup: put a stone here
ACCEPTED = const(1 << 13)  # handicap setup: this stone is on a right point
NOTICE = const(1 << 14)  # the game region's corners: a pass, a warning, play resumed (``stone``: whose)

# What each of the board's modes shows (firmware/modes.py; the composer's filter: a tournament
# board adds LAST_MOVE unless told not to).
_FIX = const(ERROR | PUT_BACK | LIFT | WRONG_COLOUR | PLACE | ACCEPTED | NOTICE)
CASUAL_KINDS = const(_FIX | KO | LAST_MOVE | DAME | TERRITORY | SEKI | HINT)
TEACHING_KINDS = const(_FIX | KO | LAST_MOVE | ATARI | LIBERTY | DAME | TERRITORY | SEKI | HINT)
TOURNAMENT_KINDS = const(_FIX | DAME | TERRITORY | SEKI)
# Every kind the referee paints (HINT is the host's).
REFEREE_KINDS = const(_FIX | KO | LAST_MOVE | ATARI | LIBERTY | DAME | TERRITORY | SEKI)

POINTS = const(361)


class Marks:
    """Overlay bits and colours for every physical point; ``version`` counts changes."""

    def __init__(self, points=POINTS):
        self.bits = array("H", bytes(2 * points))
        self.stone = bytearray(points)
        self.version = 0
        self._marked = array("H", bytes(2 * points))  # the points with any bit set
        self._nmarked = 0

    def set(self, p, kind, colour=0):
        """Add overlay ``kind`` at point p (with the colour that matters there)."""
        bits = self.bits
        if not bits[p] & kind or (colour and self.stone[p] != colour):
            if not bits[p]:
                self._marked[self._nmarked] = p
                self._nmarked += 1
            bits[p] |= kind
            if colour:
                self.stone[p] = colour
            self.version += 1

    def clear(self, kinds):
        """Remove the overlay kinds (a bit mask) from every point."""
        bits = self.bits
        marked = self._marked
        keep = 0xFFFF ^ kinds
        changed = False
        n = 0
        for i in range(self._nmarked):
            p = marked[i]
            if bits[p] & kinds:
                bits[p] &= keep
                changed = True
            if bits[p]:
                marked[n] = p
                n += 1
        self._nmarked = n
        if changed:
            self.version += 1

"""Diagnostics mode: check every sensor of an assembled board (hardware/ASSEMBLY.md).

Pure logic over a sensor (the Scanner contract: ``nbytes``,
``bits_per_point``, ``point_at``, ``read(buf)``) and a ``Marks`` object; the
caller gives ``now_ms`` and sends the marks to the LEDs. No debouncing: the
point is to see exactly what each sensor reads.

- ``scan()`` reads the sensor once, decodes every point's reading
  into ``reading`` (0 empty, 1 black, 2 white, 3 stone of unknown colour,
  4 untrusted: a 2-bit sensor at a rail) and lights each point that reads
  something: ``HINT`` with the colour read (0 for presence sensors), and
  ``ERROR`` at an untrusted point.
- A guided check (``step``): first the board must be clear (``clearing``:
  stones left from a game are lit; nothing counts as walked over until they
  are lifted), then a stone is walked over every point (``walked()`` counts
  the points that have read a stone), then MENU (``check_dead``) flags the
  points that never did.
- Stuck sensors: a point that has read a stone on every scan for
  ``stuck_ms`` since ``reset()`` (a welded reed, a magnet left on the board,
  a shorted input) is flagged while it goes on reading one: a stone lifted
  from it clears the flag (it was a stone, not a stuck sensor).
- Dead sensors: after a stone has been walked over every point, a point
  that never read a stone (a broken or missing switch, an open wire), or
  that read untrusted at any time (a sensor output at a rail).
- ``flag()`` marks points with ``ERROR``.
- ``spread(baseline)``: the Hall array's calibration (``HallArray.baseline``,
  fixed point x16): lowest, highest and mean quiet level in ``read_u16``
  counts; ``outliers(baseline, limit)`` lists the points whose quiet level
  is more than ``limit`` counts from the mean (a misplaced sensor, a magnet
  nearby, a wrong part).
- ``step(now_ms)``: the board's diagnostics mode (firmware/app.py), once per
  scan: ``scan()``, then flag the points in ``bad`` (the Hall outliers found
  by ``reset()``, the dead points once ``check_dead()`` found them) and the
  stuck ones. Allocation-free.
"""

from ..board_config import HALL_OFF
from ..leds.marks import ERROR, HINT, Marks
from ..micro import const, ticks_diff
from ..rules.game import OVER

_UNUSED = const(0xFFFF)
_UNTRUSTED = const(4)
_SEEN_STONE = const(1)
_SEEN_UNTRUSTED = const(2)
_FIX = const(4)  # HallArray baselines are stored x16


class Diagnostics:
    """Per-point sensor check; see the module doc."""

    def __init__(self, sensor, marks, points=361, stuck_ms=2000):
        self.sensor = sensor
        self.marks = marks
        self.points = points
        self.stuck_ms = stuck_ms
        self.raw = bytearray(sensor.nbytes)
        self._bpp = sensor.bits_per_point
        self._point_at = sensor.point_at
        self.reading = bytearray(points)
        self.seen = bytearray(points)  # _SEEN_* bits since reset()
        self._always = bytearray(points)  # 1 while the point has read a stone on every scan
        self._start = 0
        self.scans = 0
        self.bad = []  # points step() flags: Hall outliers, dead sensors
        self.clearing = True  # stones from before are still on the board: the walk has not begun
        self.stones = 0  # points reading a stone at the last scan
        self.nstuck = 0  # points flagged stuck at the last step
        self.checked = False  # check_dead() has run since reset()

    def reset(self, now_ms):
        """Start a check: forget what was seen; the stones on the board are to be cleared first."""
        for p in range(self.points):
            self.seen[p] = 0
            self._always[p] = 1
        self._start = now_ms
        self.scans = 0
        baseline = getattr(self.sensor, "baseline", None)
        self.bad = [] if baseline is None else outliers(baseline, HALL_OFF, self.points)
        self.clearing = True
        self.checked = False

    def step(self, now_ms):
        """One scan of the guided check: light the readings, flag the stuck points (once
        ``stuck_ms`` has passed) and the points in ``bad``; the board is clear once only
        stuck points read a stone."""
        stones = self.scan()
        nstuck = 0
        if ticks_diff(now_ms, self._start) >= self.stuck_ms:
            always = self._always
            marks = self.marks
            for p in range(self.points):
                if always[p]:
                    marks.set(p, ERROR)
                    nstuck += 1
            if stones == nstuck:
                self.clearing = False
        self.nstuck = nstuck
        self.flag(self.bad)

    def check_dead(self):
        """The walk is over (MENU): add the points that never read a stone to ``bad``.
        False, nothing flagged, before any point has read one (the walk has not begun)."""
        if self.clearing or not self.walked():
            return False
        bad = self.bad
        bad.extend([p for p in self.dead() if p not in bad])
        self.checked = True
        return True

    def lines(self):
        """The check's step in two short lines for the clock display (16 characters at most)."""
        if self.clearing:
            return ("CLEAR THE BOARD", "%d STONES LEFT" % self.stones) if self.stones else ("KEEP IT CLEAR", "STUCK CHECK...")
        if self.checked:
            return "%d/%d WORK" % (self.points - len(self.bad) - self.nstuck, self.points), "%d DEAD %d STUCK" % (
                len(self.bad), self.nstuck)
        return "WALK A STONE", "%d/%d READ" % (self.walked(), self.points)

    def walked(self):
        """How many points have read a stone since the board was clear."""
        n = 0
        for p in range(self.points):
            if self.seen[p] & _SEEN_STONE:
                n += 1
        return n

    def scan(self):
        """Read every point once and light it; returns how many points read a stone."""
        self.sensor.read(self.raw)
        raw = self.raw
        at = self._point_at
        reading = self.reading
        two = self._bpp == 2
        for p in range(self.points):
            reading[p] = 0
        for s in range(len(at)):
            p = at[s]
            if p == _UNUSED:
                continue
            if two:
                v = (raw[s >> 2] >> ((s & 3) << 1)) & 3
                reading[p] = _UNTRUSTED if v == 3 else v
            else:
                reading[p] = 3 if (raw[s >> 3] >> (s & 7)) & 1 else 0
        marks = self.marks
        marks.clear(HINT | ERROR)
        stones = 0
        for p in range(self.points):
            v = reading[p]
            if v == 0:
                self._always[p] = 0
            elif v == _UNTRUSTED:
                self.seen[p] |= _SEEN_UNTRUSTED
                self._always[p] = 0
                marks.set(p, ERROR)
            else:
                stones += 1
                if not self.clearing:
                    self.seen[p] |= _SEEN_STONE
                marks.set(p, HINT, v if v < 3 else 0)
        self.scans += 1
        self.stones = stones
        return stones

    def stuck(self, now_ms):
        """Points that read a stone on every scan for at least ``stuck_ms`` since reset()."""
        if not self.scans or ticks_diff(now_ms, self._start) < self.stuck_ms:
            return []
        return [p for p in range(self.points) if self._always[p]]

    def dead(self):
        """Points that never read a stone since reset(), or read untrusted."""
        return [p for p in range(self.points) if self.seen[p] != _SEEN_STONE]

    def flag(self, points):
        """Mark ``points`` (from stuck() or dead()) with ERROR; returns how many."""
        for p in points:
            self.marks.set(p, ERROR)
        return len(points)


def switch(app, on, now_ms):
    """App.diagnose: the sensor check on (False while a game is in progress: moves played or
    the clock started, and no result) or off."""
    if not on:
        app.diag = None
        return True
    game = app.game
    if game.phase != OVER and (game.move_number or app.timekeeper.started):
        return False
    if app.diag is None:
        app.diag = Diagnostics(app.hw.sensor, Marks())
        app.diag.reset(now_ms)
    return True


def spread(baseline, points=361):
    """(lowest, highest, mean) quiet level of the Hall array, read_u16 counts."""
    lo = 1 << 30
    hi = -1
    total = 0
    for p in range(points):
        b = baseline[p] >> _FIX
        if b < lo:
            lo = b
        if b > hi:
            hi = b
        total += b
    return lo, hi, total // points


def outliers(baseline, limit, points=361):
    """Points whose quiet level is more than ``limit`` counts from the mean."""
    mean = spread(baseline, points)[2]
    return [p for p in range(points) if abs((baseline[p] >> _FIX) - mean) > limit]

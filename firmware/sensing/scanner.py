"""Raw sensor reads in, settled frames out (debounce per point, no allocation).

The sensor contract (every driver in firmware/drivers and every twin):

- ``nbytes``: size of the raw buffer; ``bits_per_point``: 1 (presence) or
  2 (polarity, tells colours);
- ``read(buf)``: fill ``buf`` (bytearray(nbytes)) with the current reading,
  allocation-free;
- ``point_at``: array('H'), one entry per raw slot (nbytes * 8 //
  bits_per_point): the physical point of the slot, 0xFFFF if unused. Slot s
  sits in byte s * bpp >> 3, at bit (s * bpp) & 7 upwards (LSB first).
  Values: 1-bit 0 empty, 1 stone; 2-bit 0 empty, 1 black, 2 white,
  3 untrusted.

``Scanner.frame`` holds the settled value of every point: 0 empty, 1 black,
2 white, 3 stone of unknown colour (presence sensors). A point's settled
value changes only once its reading has stayed the same for ``settle_ms``
(measured on the ``now_ms`` each scan is given, modulo 2**16: a point's
wait is kept in 16 bits, which the 10 ms scans never outrun).
An untrusted reading (2-bit value 3) keeps the settled value and restarts
the wait. ``version`` counts the frame's changes.
``pending_at[:pending]`` lists the points whose reading differs from the
frame and is waiting to settle. The frame starts empty; ``prime(now_ms)``
at power-up takes what lies on the board then as settled at once (those
stones have been there: after a power cut, the game's).
"""

from ..board_config import SENSE_SETTLE_MS
from ..micro import const, ticks_add
from ..rules.const import zeros

_UNUSED = const(0xFFFF)
_UNTRUSTED = const(4)  # candidate value of a point read as untrusted: never settles
_MS16 = const(0xFFFF)  # the wait of a point is kept in 16 bits (ms)


class Scanner:
    """Debounces a sensor's raw reads into ``frame``; see the module doc."""

    def __init__(self, sensor, settle_ms=SENSE_SETTLE_MS, points=361):
        self.sensor = sensor
        self.settle_ms = settle_ms
        self.points = points
        n = sensor.nbytes
        self.raw = bytearray(n)  # this scan's reading
        self.prev = bytearray(n)  # the previous scan's reading (all empty at first)
        self._bpp = sensor.bits_per_point
        if self._bpp not in (1, 2):
            raise ValueError("bits_per_point must be 1 or 2")
        self._point_at = sensor.point_at
        if len(self._point_at) != n * 8 // self._bpp:
            raise ValueError("point_at must have one entry per slot")
        for p in self._point_at:
            if p != _UNUSED and p >= points:
                raise ValueError("point_at names a point beyond points")
        self.frame = bytearray(points)
        self._candidate = bytearray(points)  # latest reading of each point
        self._since = zeros("H", points)  # when the candidate was first read (ms, 16 bits)
        self._is_pending = bytearray(points)
        self.pending_at = zeros("H", points)
        self.pending = 0
        self.version = 0

    def scan(self, now_ms):
        """Read the sensor once; True if the settled frame changed."""
        raw = self.raw
        prev = self.prev
        self.sensor.read(raw)
        if raw != prev:
            self._decode(now_ms)
        if self.pending:
            return self._settle(now_ms)
        return False

    def prime(self, now_ms):
        """Power-up: read once and settle every trusted reading at once (as if
        read ``settle_ms`` ago). True if the frame changed."""
        self.sensor.read(self.raw)
        self._decode(ticks_add(now_ms, -self.settle_ms))
        return self._settle(now_ms) if self.pending else False

    def settles_in(self, now_ms):
        """Milliseconds until the first pending point could settle (0: due
        now), or -1 when nothing is pending. A simulator uses it to skip
        scans that cannot change anything."""
        if not self.pending:
            return -1
        since = self._since
        candidate = self._candidate
        soonest = self.settle_ms
        for i in range(self.pending):
            p = self.pending_at[i]
            if candidate[p] == _UNTRUSTED:
                continue
            left = self.settle_ms - ((now_ms - since[p]) & _MS16)
            if left < soonest:
                soonest = left
        return soonest if soonest > 0 else 0

    def _decode(self, now):
        raw = self.raw
        prev = self.prev
        at = self._point_at
        candidate = self._candidate
        frame = self.frame
        since = self._since
        is_pending = self._is_pending
        pending_at = self.pending_at
        npending = self.pending
        two = self._bpp == 2
        now &= _MS16
        for i in range(len(raw)):
            x = raw[i]
            diff = x ^ prev[i]
            if not diff:
                continue
            prev[i] = x
            # The 2-bit and 1-bit branches repeat the candidate bookkeeping on purpose:
            # unrolled per layout, with no call per point (MicroPython speed, make bench).
            if two:
                slot = i << 2
                for b in range(4):
                    shift = b << 1
                    if not (diff >> shift) & 3:
                        continue
                    p = at[slot + b]
                    if p == _UNUSED:
                        continue
                    v = (x >> shift) & 3
                    if v == 3:
                        v = _UNTRUSTED
                    if v != candidate[p] or v == _UNTRUSTED:
                        candidate[p] = v
                        since[p] = now
                        if v != frame[p] and not is_pending[p]:
                            is_pending[p] = 1
                            pending_at[npending] = p
                            npending += 1
            else:
                slot = i << 3
                for b in range(8):
                    if not (diff >> b) & 1:
                        continue
                    p = at[slot + b]
                    if p == _UNUSED:
                        continue
                    v = 3 if (x >> b) & 1 else 0
                    if v != candidate[p]:
                        candidate[p] = v
                        since[p] = now
                        if v != frame[p] and not is_pending[p]:
                            is_pending[p] = 1
                            pending_at[npending] = p
                            npending += 1
        self.pending = npending

    def _settle(self, now):
        candidate = self._candidate
        frame = self.frame
        since = self._since
        is_pending = self._is_pending
        pending_at = self.pending_at
        settle = self.settle_ms
        changed = False
        keep = 0
        for i in range(self.pending):
            p = pending_at[i]
            v = candidate[p]
            if v == frame[p]:  # back to what it was: nothing to settle
                is_pending[p] = 0
            elif v != _UNTRUSTED and (now - since[p]) & _MS16 >= settle:
                frame[p] = v
                is_pending[p] = 0
                changed = True
            else:
                pending_at[keep] = p
                keep += 1
        self.pending = keep
        if changed:
            self.version += 1
        return changed

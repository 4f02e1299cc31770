"""LED feedback: ``Marks`` in, one prepared pixel frame out (no allocation per render).

The pixel contract (every driver in firmware/drivers and the twin):

- ``Leds.frame``: bytearray(count * 3), LED i at bytes 3i..3i+2 in the wire
  ``order`` ("GRB" or "RGB"), gamma, brightness and the current budget
  already applied; a driver only transmits it: ``strip.show(leds.frame)``;
- ``offset_of[p]``: where physical point p's LED (row * 19 + col, row 0
  top) starts in ``frame``, 3 x its LED index from the layout (tables.py
  ``layout()``); tables.py ``chain_bytes(k)``: the (start, end) byte range
  of chain k in ``frame`` when several chains share the board.

``Leds.update(marks, now_ms)`` composes the frame and returns True only when
it changed: when ``marks.version``, the mode or the phase of a blinking
overlay on the board changed. At each point the highest-priority kind
(the lowest bit of ``marks.bits[p]``) that the mode shows wins; a blinking
kind is dark in its off half-period. Blinking is computed from ``now_ms``
(half-periods are powers of two ms, so the ticks wrap keeps the rhythm).

Modes: ``OFF`` (dark), ``TOURNAMENT`` (only what must be fixed: errors,
stones to put back or lift, wrong colour, handicap points; the count once
play has stopped; plus the last-move dot if ``last_move``), ``CASUAL`` (adds ko, last move, dame, territory, seki,
hints), ``TEACHING`` (everything: adds atari / self-atari and liberties).

Current budget: every frame's current is estimated as
``count * idle_ma + sum(channel bytes) * channel_ma / 255`` and, above
``budget_ma``, every byte is scaled by the same integer ratio (hues kept).

The palette, the blink rates, gamma and the layout are tables.py's: it is
loaded only while the offsets and the colour table are built (construction,
``set_brightness``), so only the render's code stays in the heap.
"""

from array import array

from ..board_config import (
    LED_BRIGHTNESS,
    LED_BUDGET_MA,
    LED_CHANNEL_MA,
    LED_IDLE_MA,
    LED_ORDER,
)
from ..micro import const
from ..modes import CASUAL, TEACHING, TOURNAMENT
from ..rules.const import call_briefly
from .marks import CASUAL_KINDS, LAST_MOVE, TEACHING_KINDS, TOURNAMENT_KINDS

COUNT = const(361)

# The board's modes (firmware/modes.py), and one of the LEDs' own: dark.
OFF = const(3)

_KINDS = const(15)
# A kind's index from its bit: (b & -b) % 37 is distinct for every power of two below 2**36,
# and _LOW[(1 << k) % 37] == k for the 15 kinds.
_LOW = b'\x00\x00\x01\x00\x02\x00\x00\x00\x03\x00\x00\x00\x00\x0b\x00\r\x04\x07\x00\x00\x00\x00\x00\x00\x00\n\x0c\x06\x00\x00\x0e\t\x05\x00\x08\x00\x00'


class Leds:
    """Composes ``Marks`` into ``frame``; see the module doc. ``led_of``: the LED index of
    every point (default: tables.py ``layout()`` from board_config); ``palette``,
    ``blink``: tables.py's PALETTE and BLINK by default."""

    def __init__(self, mode=CASUAL, last_move=True, order=LED_ORDER, brightness=LED_BRIGHTNESS,
                 budget_ma=LED_BUDGET_MA, channel_ma=LED_CHANNEL_MA, idle_ma=LED_IDLE_MA,
                 led_of=None, palette=None, blink=None, count=COUNT):
        if not 0 <= brightness <= 255:
            raise ValueError("brightness is 0-255")
        self.order = order
        self.count = count
        self.budget_ma = budget_ma
        self.channel_ma = channel_ma
        self.idle_ma = idle_ma
        self.palette = palette  # None: tables.py PALETTE
        self.brightness = brightness
        self.lut = bytearray(_KINDS * 2 * 3)  # kind, stone -> 3 wire bytes
        self.lut_sum = array("H", bytes(2 * _KINDS * 2))
        self._scaled = bytearray(_KINDS * 2 * 3)  # the table scaled to the budget (limiter)
        self._scaled_sum = array("H", bytes(2 * _KINDS * 2))
        # (each LED's byte offset in the frame and the blink rates; the colour table filled)
        self.offset_of, self._blink = call_briefly("firmware.leds.tables", "prepare", self, led_of, blink)
        self.frame = bytearray(3 * count)
        self.mode = mode
        self.last_move = last_move
        self.renders = 0  # frames composed (tests, bench)
        self.ma = count * idle_ma  # estimated current of the frame, after limiting
        self._version = -1
        self._marks = None
        self._mode_kinds = -1
        self._phase = 0
        self._blinking = 0  # kinds shown at some point in the last frame that blink

    def set_brightness(self, brightness):
        """Global brightness 0-255 (before gamma); rebuilds the colour table, forces a render."""
        if not 0 <= brightness <= 255:
            raise ValueError("brightness is 0-255")
        self.brightness = brightness
        call_briefly("firmware.leds.tables", "colours", self)
        self._version = -1

    def _phases(self, now_ms):
        """Bit k set: blinking kind k is in its off half-period."""
        off = 0
        blinking = self._blinking
        if blinking:
            blink = self._blink
            for k in range(_KINDS):
                if blinking >> k & 1 and (now_ms >> blink[k]) & 1:
                    off |= 1 << k
        return off

    def update(self, marks, now_ms):
        """Compose the frame if marks, mode or a blink phase changed; True if it did."""
        mode = self.mode
        if mode == CASUAL:
            kinds = CASUAL_KINDS
        elif mode == TEACHING:
            kinds = TEACHING_KINDS
        elif mode == TOURNAMENT:
            kinds = TOURNAMENT_KINDS | LAST_MOVE if self.last_move else TOURNAMENT_KINDS
        else:
            kinds = 0  # OFF
        phase = self._phases(now_ms) if self._blinking else 0  # (most frames: nothing blinks)
        if (marks.version == self._version and marks is self._marks and kinds == self._mode_kinds
                and phase == self._phase):
            return False
        self._fill(marks, kinds, now_ms)
        return True

    def _fill(self, marks, kinds, now_ms):
        # (apart from update: a frame this large is taken from the heap at each call, see micro.py)
        self._version = marks.version
        self._marks = marks
        self._mode_kinds = kinds
        count = self.count
        load = self._paint(marks, kinds, now_ms, self.lut, self.lut_sum)
        allowed = (self.budget_ma - count * self.idle_ma) * 255 // self.channel_ma
        if allowed < 0:
            allowed = 0
        if load > allowed:
            # Every frame byte comes from the colour table: scaling its 84
            # bytes (floor) and painting again equals scaling each frame byte
            # (what tables.limit() does), at a fraction of the cost.
            lut = self.lut
            scaled = self._scaled
            sums = self._scaled_sum
            for i in range(len(lut)):
                scaled[i] = lut[i] * allowed // load
            for e in range(len(sums)):
                i = 3 * e
                sums[e] = scaled[i] + scaled[i + 1] + scaled[i + 2]
            load = self._paint(marks, kinds, now_ms, scaled, sums)
        self.ma = count * self.idle_ma + load * self.channel_ma // 255
        self.renders += 1
        self._phase = self._phases(now_ms)  # the blinking kinds may have changed

    def _paint(self, marks, kinds, now_ms, lut, lut_sum):
        """Fill the frame from a colour table; returns its channel-byte sum."""
        frame = self.frame
        off3 = self.offset_of
        bits = marks.bits
        stone = marks.stone
        low = _LOW
        blink = self._blink
        present = 0
        load = 0
        for p in range(len(off3)):
            o = off3[p]
            b = bits[p] & kinds
            if b:
                present |= b
                k = low[(b & -b) % 37]
                if blink[k] and (now_ms >> blink[k]) & 1:
                    frame[o] = 0
                    frame[o + 1] = 0
                    frame[o + 2] = 0
                    continue
                e = 2 * k + (0 if stone[p] == 1 else 1)
                i = 3 * e
                frame[o] = lut[i]
                frame[o + 1] = lut[i + 1]
                frame[o + 2] = lut[i + 2]
                load += lut_sum[e]
            else:
                frame[o] = 0
                frame[o + 1] = 0
                frame[o + 2] = 0
        # Only the top kind of a point shows; a lower blinking kind counts as
        # present too (cheap, and at worst one extra render per half-period).
        blinking = 0
        for k in range(_KINDS):
            if blink[k] and present >> k & 1:
                blinking |= 1 << k
        self._blinking = blinking
        return load

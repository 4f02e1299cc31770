"""LED feedback: ``Marks`` in, one prepared pixel frame out (no allocation per render).

The pixel contract (every driver in firmware/drivers and the twin):

- ``Leds.frame``: bytearray(count * 3), LED i at bytes 3i..3i+2 in the wire
  ``order`` ("GRB" or "RGB"), gamma, brightness and the current budget
  already applied; a driver only transmits it: ``strip.show(leds.frame)``;
- ``offset_of[p]``: where physical point p's LED (row * 19 + col, row 0
  top) starts in ``frame``, 3 x its LED index from the layout (``layout()``);
  ``chain_bytes(k)``: the (start, end) byte range of chain k in ``frame``
  when several chains share the board.

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
"""

from array import array

from ..board_config import (
    LED_BRIGHTNESS,
    LED_BUDGET_MA,
    LED_BY_ROWS,
    LED_CHAINS,
    LED_CHANNEL_MA,
    LED_IDLE_MA,
    LED_ORDER,
    LED_ROTATION,
    LED_SERPENTINE,
    LED_START_CORNER,
)
from ..micro import const
from ..modes import CASUAL, TOURNAMENT
from ..modes import NAMES as MODES
from .marks import (
    ACCEPTED,
    ATARI,
    DAME,
    ERROR,
    HINT,
    KO,
    LAST_MOVE,
    LIBERTY,
    LIFT,
    PLACE,
    PUT_BACK,
    SEKI,
    TERRITORY,
    WRONG_COLOUR,
)

_SIZE = const(19)
COUNT = const(361)

# The board's modes (firmware/modes.py), and one of the LEDs' own: dark.
OFF = const(3)
MODE_NAMES = MODES + ("off",)

_FIX = ERROR | PUT_BACK | LIFT | WRONG_COLOUR | PLACE | ACCEPTED
MODE_KINDS = (  # what each mode shows, in mode order
    _FIX | KO | LAST_MOVE | DAME | TERRITORY | SEKI | HINT,
    _FIX | KO | LAST_MOVE | ATARI | LIBERTY | DAME | TERRITORY | SEKI | HINT,
    _FIX | DAME | TERRITORY | SEKI,
    0,
)

# Okabe-Ito colours (distinguishable with the common colour-vision deficiencies).
_VERMILLION = (213, 94, 0)
_BLUE = (0, 114, 178)
_WHITE = (200, 200, 200)
_PURPLE = (204, 121, 167)
_ORANGE = (230, 159, 0)
_YELLOW = (240, 228, 66)
_SKY = (86, 180, 233)
_GREEN = (0, 158, 115)
_DIM_BLUE = (0, 40, 64)  # territory: dim, so a counted board stays readable
_DIM_WHITE = (64, 64, 64)
_DIM_YELLOW = (90, 84, 24)  # dame

# Per kind, in bit order: (colour when marks.stone is black, colour when white or none).
PALETTE = (
    (_VERMILLION, _VERMILLION),  # ERROR
    (_BLUE, _WHITE),  # PUT_BACK: the colour of the stone to put back
    (_PURPLE, _PURPLE),  # LIFT
    (_ORANGE, _ORANGE),  # WRONG_COLOUR
    (_YELLOW, _YELLOW),  # KO
    (_SKY, _SKY),  # LAST_MOVE
    (_VERMILLION, _VERMILLION),  # ATARI (steady; an error blinks)
    (_GREEN, _GREEN),  # LIBERTY
    (_DIM_YELLOW, _DIM_YELLOW),  # DAME
    (_DIM_BLUE, _DIM_WHITE),  # TERRITORY of black / white
    (_PURPLE, _PURPLE),  # SEKI
    (_SKY, _SKY),  # HINT
    (_SKY, _SKY),  # PLACE
    (_GREEN, _GREEN),  # ACCEPTED
)
# Per kind: blink half-period as a power of two of ms (0: steady). 7 = 128 ms.
BLINK = (7, 8, 8, 8, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0)

_KINDS = const(14)
# (b & -b) % 37 is distinct for every power of two below 2**36: its bit index.
_LOW = bytearray(37)
for _i in range(_KINDS):
    _LOW[(1 << _i) % 37] = _i


def gamma_table(gamma=2.2):
    """bytearray(256): perceived level -> PWM level (floats only here, once)."""
    t = bytearray(256)
    for v in range(256):
        t[v] = int(255 * (v / 255) ** gamma + 0.5)
    return t


GAMMA = gamma_table()


def layout(by_rows=LED_BY_ROWS, serpentine=LED_SERPENTINE, corner=LED_START_CORNER,
           rotation=LED_ROTATION, chains=LED_CHAINS, size=_SIZE):
    """array('H'): the LED index of every physical point (row * size + col).

    The LED grid is the board turned ``rotation`` degrees clockwise; in it
    LED 0 sits at ``corner`` (0 top-left, 1 top-right, 2 bottom-right,
    3 bottom-left), the chain runs along rows (``by_rows``) or columns,
    back and forth if ``serpentine``. ``chains`` split the lines into
    consecutive bands (sizes differ by at most one); each chain's first
    line runs from the start corner's side."""
    if rotation not in (0, 90, 180, 270) or corner not in (0, 1, 2, 3) or not 1 <= chains <= size:
        raise ValueError("bad LED layout")
    last = size - 1
    band_start = bytearray(size)  # first line of the band each line belongs to
    line = 0
    for k in range(chains):
        n = size // chains + (1 if k < size % chains else 0)
        for i in range(n):
            band_start[line + i] = line
        line += n
    led_of = array("H", bytes(2 * size * size))
    for p in range(size * size):
        r, c = divmod(p, size)
        for _ in range(rotation // 90):  # clockwise quarter turn
            r, c = c, last - r
        if corner in (1, 2):
            c = last - c
        if corner in (2, 3):
            r = last - r
        if by_rows:
            ln, pos = r, c
        else:
            ln, pos = c, r
        if serpentine and (ln - band_start[ln]) & 1:
            pos = last - pos
        led_of[p] = ln * size + pos
    return led_of


def chain_bounds(chains=LED_CHAINS, size=_SIZE):
    """Tuple of (first LED, LED count) of every chain, in frame order."""
    out = []
    line = 0
    for k in range(chains):
        n = size // chains + (1 if k < size % chains else 0)
        out.append((line * size, n * size))
        line += n
    return tuple(out)


def estimate_ma(frame, count, channel_ma=LED_CHANNEL_MA, idle_ma=LED_IDLE_MA):
    """The current a frame draws, mA (integer estimate)."""
    return count * idle_ma + sum(frame) * channel_ma // 255


def limit(frame, count, budget_ma=LED_BUDGET_MA, channel_ma=LED_CHANNEL_MA, idle_ma=LED_IDLE_MA, load=-1):
    """Scale ``frame`` in place so that estimate_ma() <= budget_ma; returns
    the frame's channel-byte sum afterwards.
    Every byte is multiplied by the same ratio (floor): proportions kept."""
    if load < 0:
        load = sum(frame)
    allowed = (budget_ma - count * idle_ma) * 255 // channel_ma
    if allowed < 0:
        allowed = 0
    if load <= allowed:
        return load
    load_after = 0
    for i in range(len(frame)):
        v = frame[i]
        if v:
            v = v * allowed // load
            frame[i] = v
            load_after += v
    return load_after


class Leds:
    """Composes ``Marks`` into ``frame``; see the module doc."""

    def __init__(self, mode=CASUAL, last_move=True, order=LED_ORDER, brightness=LED_BRIGHTNESS,
                 budget_ma=LED_BUDGET_MA, channel_ma=LED_CHANNEL_MA, idle_ma=LED_IDLE_MA,
                 led_of=None, palette=PALETTE, blink=BLINK, count=COUNT):
        if order == "GRB":
            o0, o1, o2 = 1, 0, 2
        elif order == "RGB":
            o0, o1, o2 = 0, 1, 2
        else:
            raise ValueError("order must be GRB or RGB")
        self.order = order
        self.count = count
        offset_of = layout() if led_of is None else array("H", led_of)  # (the layout's own: no copy kept)
        for p in range(len(offset_of)):
            if offset_of[p] >= count:
                raise ValueError("layout names an LED beyond count")
            offset_of[p] *= 3
        self.offset_of = offset_of
        self.budget_ma = budget_ma
        self.channel_ma = channel_ma
        self.idle_ma = idle_ma
        self._order = (o0, o1, o2)
        self._palette = palette
        self._blink = bytearray(blink)
        self._lut = bytearray(_KINDS * 2 * 3)  # kind, stone -> 3 wire bytes
        self._lut_sum = array("H", bytes(2 * _KINDS * 2))
        self._scaled = bytearray(_KINDS * 2 * 3)  # the table scaled to the budget (limiter)
        self._scaled_sum = array("H", bytes(2 * _KINDS * 2))
        self.frame = bytearray(3 * count)
        self.mode = mode
        self.last_move = last_move
        self.brightness = -1
        self.set_brightness(brightness)
        self.renders = 0  # frames composed (tests, bench)
        self.ma = count * idle_ma  # estimated current of the frame, after limiting
        self._version = -1
        self._marks = None
        self._mode_kinds = -1
        self._phase = 0
        self._present = 0  # kinds shown at some point in the last frame
        self._blinking = 0  # of those, the blinking ones

    def set_brightness(self, brightness):
        """Global brightness 0-255 (before gamma); rebuilds the colour table, forces a render."""
        if not 0 <= brightness <= 255:
            raise ValueError("brightness is 0-255")
        self.brightness = brightness
        lut = self._lut
        o0, o1, o2 = self._order
        for k in range(_KINDS):
            for s in range(2):
                rgb = self._palette[k][s]
                i = (2 * k + s) * 3
                lut[i + o0] = GAMMA[rgb[0] * brightness // 255]
                lut[i + o1] = GAMMA[rgb[1] * brightness // 255]
                lut[i + o2] = GAMMA[rgb[2] * brightness // 255]
                self._lut_sum[2 * k + s] = lut[i] + lut[i + 1] + lut[i + 2]
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
        kinds = MODE_KINDS[mode]
        if mode == TOURNAMENT and self.last_move:
            kinds |= LAST_MOVE
        phase = self._phases(now_ms) if self._blinking else 0  # (most frames: nothing blinks)
        if (marks.version == self._version and marks is self._marks and kinds == self._mode_kinds
                and phase == self._phase):
            return False
        self._version = marks.version
        self._marks = marks
        self._mode_kinds = kinds
        self._compose(marks, kinds, now_ms)
        self._phase = self._phases(now_ms)  # the blinking kinds may have changed
        return True

    def _compose(self, marks, kinds, now_ms):
        count = self.count
        load = self._paint(marks, kinds, now_ms, self._lut, self._lut_sum)
        allowed = (self.budget_ma - count * self.idle_ma) * 255 // self.channel_ma
        if allowed < 0:
            allowed = 0
        if load > allowed:
            # Every frame byte comes from the colour table: scaling its 72
            # bytes (floor) and painting again equals scaling each frame byte
            # (what limit() does), at a fraction of the cost.
            lut = self._lut
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
        self._present = present
        self._blinking = blinking
        return load

    def chain_bytes(self, k, chains=LED_CHAINS):
        """(start, end) byte offsets of chain k in ``frame``."""
        first, n = chain_bounds(chains)[k]
        return 3 * first, 3 * (first + n)

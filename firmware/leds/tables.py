"""What the LED composer is built from: the palette, the blink rates, gamma, the layout of the chain(s).

The composer (composer.py) loads this module only while it builds its
per-point offsets and its colour table (``prepare``, ``colours``: with
rules/const.py ``call_briefly``), so none of it stays in the heap while a
game is played. Host tools and tests read the tables and helpers here:
``PALETTE``, ``BLINK``, ``MODE_KINDS``, ``KINDS``, ``NAMES``, ``gamma_table()``, ``layout()``,
``chain_bounds()``, ``chain_bytes()``, ``estimate_ma()``, ``limit()``
(docs/leds.md).
"""

from array import array

from ..board_config import (
    LED_BUDGET_MA,
    LED_BY_ROWS,
    LED_CHAINS,
    LED_CHANNEL_MA,
    LED_IDLE_MA,
    LED_ROTATION,
    LED_SERPENTINE,
    LED_START_CORNER,
)
from ..micro import const
from ..modes import NAMES as MODES
from .marks import (
    ACCEPTED,
    ATARI,
    CASUAL_KINDS,
    DAME,
    ERROR,
    HINT,
    KO,
    LAST_MOVE,
    LIBERTY,
    LIFT,
    NOTICE,
    PLACE,
    PUT_BACK,
    SEKI,
    TEACHING_KINDS,
    TERRITORY,
    TOURNAMENT_KINDS,
    WRONG_COLOUR,
)

_SIZE = const(19)
_KINDS = const(15)

MODE_NAMES = MODES + ("off",)  # the board's modes (firmware/modes.py), then the LEDs' own OFF
MODE_KINDS = (CASUAL_KINDS, TEACHING_KINDS, TOURNAMENT_KINDS, 0)  # what each mode shows, in mode order

# The overlay kinds (marks.py), in bit order, and their names (the simulator's legend and page).
KINDS = (ERROR, PUT_BACK, LIFT, WRONG_COLOUR, KO, LAST_MOVE, ATARI, LIBERTY, DAME, TERRITORY, SEKI, HINT, PLACE,
         ACCEPTED, NOTICE)
NAMES = ("error", "put_back", "lift", "wrong_colour", "ko", "last_move", "atari", "liberty", "dame",
         "territory", "seki", "hint", "place", "accepted", "notice")

# Per kind, in bit order: (colour when marks.stone is black, colour when white or none). Okabe-Ito
# colours (distinguishable with the common colour-vision deficiencies), written out: a name for
# each would be interned for good on the device, which loads this module while it starts.
PALETTE = (
    ((213, 94, 0), (213, 94, 0)),  # ERROR: vermillion
    ((0, 114, 178), (200, 200, 200)),  # PUT_BACK: blue, white (the colour of the stone to put back)
    ((204, 121, 167), (204, 121, 167)),  # LIFT: reddish purple
    ((0, 114, 178), (200, 200, 200)),  # WRONG_COLOUR: blue, white (the colour the stone must be), blinking
    ((240, 228, 66), (240, 228, 66)),  # KO: yellow
    ((86, 180, 233), (86, 180, 233)),  # LAST_MOVE: sky blue
    ((230, 159, 0), (230, 159, 0)),  # ATARI: orange (steady: never the error's vermillion)
    ((0, 158, 115), (0, 158, 115)),  # LIBERTY: bluish green
    ((120, 110, 30), (120, 110, 30)),  # DAME: dim yellow (dim, yet above the gamma's dark end)
    ((0, 70, 120), (115, 115, 115)),  # TERRITORY of black / white: dim blue, dim white (a counted board stays readable)
    ((204, 121, 167), (204, 121, 167)),  # SEKI: reddish purple
    ((86, 180, 233), (86, 180, 233)),  # HINT: sky blue
    ((86, 180, 233), (86, 180, 233)),  # PLACE: sky blue
    ((0, 158, 115), (0, 158, 115)),  # ACCEPTED: bluish green
    ((0, 114, 178), (200, 200, 200)),  # NOTICE: blue, white (the player told of a pass, a warning...)
)
# Per kind: blink half-period as a power of two of ms (0: steady). 7 = 128 ms.
BLINK = (7, 8, 8, 8, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 9)


def gamma_table(gamma=2.2):
    """bytearray(256): perceived level -> PWM level (floats only here, while a colour table is built)."""
    t = bytearray(256)
    for v in range(256):
        t[v] = int(255 * (v / 255) ** gamma + 0.5)
    return t


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


def chain_bytes(k, chains=LED_CHAINS):
    """(start, end) byte offsets of chain k in a composer's ``frame``."""
    first, n = chain_bounds(chains)[k]
    return 3 * first, 3 * (first + n)


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


def prepare(leds, led_of, blink):
    """A new composer's tables: (``offset_of``: 3 x ``led_of``, the LED index of every point
    (None: the board's layout); the blink rates as bytes), its colour table filled."""
    if leds.order != "GRB" and leds.order != "RGB":
        raise ValueError("order must be GRB or RGB")
    offset_of = layout() if led_of is None else array("H", led_of)  # (the layout's own: no copy kept)
    for p in range(len(offset_of)):
        if offset_of[p] >= leds.count:
            raise ValueError("layout names an LED beyond count")
        offset_of[p] *= 3
    colours(leds)
    return offset_of, bytearray(BLINK if blink is None else blink)


def colours(leds):
    """Fill the composer's colour table for its palette, brightness and wire order: per kind
    and stone, 3 wire bytes (gamma and brightness applied) and their sum."""
    palette = PALETTE if leds.palette is None else leds.palette
    gamma = gamma_table()
    brightness = leds.brightness
    lut = leds.lut
    o0, o1 = (1, 0) if leds.order == "GRB" else (0, 1)
    for k in range(_KINDS):
        for s in range(2):
            rgb = palette[k][s]
            i = (2 * k + s) * 3
            lut[i + o0] = gamma[rgb[0] * brightness // 255]
            lut[i + o1] = gamma[rgb[1] * brightness // 255]
            lut[i + 2] = gamma[rgb[2] * brightness // 255]
            leds.lut_sum[2 * k + s] = lut[i] + lut[i + 1] + lut[i + 2]

"""The LED legend the page shows: every colour the board can light in the current mode, and what it asks.

Built from the LED composer's own tables (firmware/leds/tables.py: the kinds
each mode shows, the palette, the blink rates), so the legend is always the
board's. Its colours are the ones the page draws: an LED's levels as the
board sends them (the palette through the composer's brightness and gamma:
tables.py ``colours``, the very function that fills the composer's table),
shown by ``drawn`` at full strength, the one function the page's board is
drawn with too (live.py ``state``). Where the words name a colour, the name
is that drawn colour's (``colour_name``): a palette change changes the words.
"""

import colorsys
from array import array
from types import SimpleNamespace

from firmware.leds import marks as mk
from firmware.leds.composer import LED_BRIGHTNESS
from firmware.leds.tables import BLINK, KINDS, MODE_KINDS, NAMES, colours
from firmware.referee.states import COUNTING, OVER, SETUP

MEANINGS = {  # kind -> (what it means, when it appears: "play", "setup", "counting" or "any")
    # ({black} and {white}: the names of the colours drawn for a black stone and a white one / none)
    mk.ERROR: ("a stone not accepted, or a handicap stone on a wrong point: lift it", "any"),
    mk.PUT_BACK: ("a stone is missing here: put it back ({black}: black stone, {white}: white stone)", "any"),
    mk.LIFT: ("lift this stone: captured, or proposed dead while counting", "any"),
    mk.WRONG_COLOUR: ("the stone here is the wrong colour (blue: it must be black, white: white)", "play"),
    mk.KO: ("the ko point: the player to move may not retake here now", "play"),
    mk.LAST_MOVE: ("the last move", "play"),
    mk.ATARI: ("a chain in atari (one liberty left), or a self-atari warning under the hand", "play"),
    mk.LIBERTY: ("the liberties of the chain just played", "play"),
    mk.DAME: ("a neutral point (fill it first under Korean and Thai rules)", "counting"),
    mk.TERRITORY: ("counted for Black ({black} dot) or White ({white} dot); on the board a dim light", "counting"),
    mk.SEKI: ("a stone or point in seki: it counts for nobody", "counting"),
    mk.HINT: ("a point the host asked to show", "play"),
    mk.PLACE: ("put a handicap stone here", "setup"),
    mk.ACCEPTED: ("a handicap stone on a right point", "setup"),
    mk.NOTICE: ("the corners: a pass, a warning or play resumed, told until the next move (blue: Black, white: White)",
                "play"),
}
_PHASES = {SETUP: "setup", COUNTING: "counting", OVER: "counting"}
# Hue bands (degrees, upper bounds) and their names, for colour_name.
_HUES = ((15, "red"), (48, "orange"), (70, "yellow"), (160, "green"), (195, "cyan"), (255, "blue"),
         (290, "purple"), (345, "pink"), (360, "red"))


def drawn(rgb):
    """The colour the page draws for an LED lit at ``rgb`` (its levels as sent to the strip,
    brightness cap and gamma applied, so dim on purpose): its hue at full strength, "rrggbb";
    "" for an LED that is off."""
    top = max(rgb)
    if not top:
        return ""
    return "%02x%02x%02x" % tuple((v * 255 + top // 2) // top for v in rgb)


def colour_name(hex_colour):
    """A plain name for a drawn colour ("rrggbb"): white, or its hue's name."""
    rgb = [int(hex_colour[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    hue, saturation, value = colorsys.rgb_to_hsv(*rgb)
    if not value:
        return "dark"
    if saturation < 0.25:
        return "white"
    degrees = hue * 360
    return next(name for top, name in _HUES if degrees < top)


def lit(palette=None, brightness=LED_BRIGHTNESS):
    """Per kind (bit order), the levels its LED is sent for a black stone and for a white one
    (or none): tables.py ``colours`` itself, run for a composer with this palette (None: the
    board's) and brightness, wire order RGB."""
    table = SimpleNamespace(palette=palette, brightness=brightness, order="RGB",
                            lut=bytearray(len(KINDS) * 2 * 3), lut_sum=array("H", [0] * (len(KINDS) * 2)))
    colours(table)
    lut = table.lut
    return [(tuple(lut[6 * k:6 * k + 3]), tuple(lut[6 * k + 3:6 * k + 6])) for k in range(len(KINDS))]


def _row(i, meaning, now, leds):
    black, white = (drawn(rgb) for rgb in leds[i])
    return {"kind": NAMES[i], "colour": "#" + black, "colour_white": "#" + white, "blinks": BLINK[i] != 0,
            "meaning": meaning.format(black=colour_name(black), white=colour_name(white)), "now": now}


def legend(mode, state, leds=None):
    """[{kind, colour, colour_white, blinks, meaning, now}] for every kind ``mode`` shows;
    ``colour``, ``colour_white``: as the page draws them ("#rrggbb"), for a black stone and a
    white one (or none); ``now``: it belongs to the referee's present phase. ``leds``: the
    board's composer (its palette and brightness; None: the defaults)."""
    phase = _PHASES.get(state, "play")
    shown = MODE_KINDS[mode]
    levels = lit() if leds is None else lit(leds.palette, leds.brightness)
    rows = []
    for i, kind in enumerate(KINDS):
        if shown & kind:
            meaning, when = MEANINGS[kind]
            rows.append(_row(i, meaning, when in ("any", phase), levels))
    return rows


def sensor_check_legend(leds=None):
    """The legend while the sensor check runs (firmware/sensing/diagnostics.py)."""
    levels = lit() if leds is None else lit(leds.palette, leds.brightness)
    return [_row(KINDS.index(kind), meaning, True, levels)
            for kind, meaning in ((mk.HINT, "this point's sensor reads a stone"),
                                  (mk.ERROR, "a stuck or dead sensor (or a reading out of range): see the message"))]

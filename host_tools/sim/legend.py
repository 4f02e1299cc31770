"""The LED legend the page shows: every colour the board can light in the current mode, and what it asks.

Built from the LED composer's own tables (firmware/leds/tables.py: the kinds
each mode shows, the palette, the blink rates), so the legend is always the
board's.
"""

from firmware.leds import marks as mk
from firmware.leds.tables import BLINK, KINDS, MODE_KINDS, NAMES, PALETTE
from firmware.referee.states import COUNTING, OVER, SETUP

MEANINGS = {  # kind -> (what it means, when it appears: "play", "setup", "counting" or "any")
    mk.ERROR: ("a stone not accepted, or a handicap stone on a wrong point: lift it", "any"),
    mk.PUT_BACK: ("a stone is missing here: put it back (blue: black stone, white: white stone)", "any"),
    mk.LIFT: ("lift this stone: captured, or proposed dead while counting", "any"),
    mk.WRONG_COLOUR: ("the stone here is the wrong colour (blue: it must be black, white: white)", "play"),
    mk.KO: ("the ko point: the player to move may not retake here now", "play"),
    mk.LAST_MOVE: ("the last move", "play"),
    mk.ATARI: ("a chain in atari (one liberty left), or a self-atari warning under the hand", "play"),
    mk.LIBERTY: ("the liberties of the chain just played", "play"),
    mk.DAME: ("a neutral point (fill it first under Korean and Thai rules)", "counting"),
    mk.TERRITORY: ("counted for Black (dim blue) or White (dim white)", "counting"),
    mk.SEKI: ("a stone or point in seki: it counts for nobody", "counting"),
    mk.HINT: ("a point the host asked to show", "play"),
    mk.PLACE: ("put a handicap stone here", "setup"),
    mk.ACCEPTED: ("a handicap stone on a right point", "setup"),
    mk.NOTICE: ("the corners: a pass, a warning or play resumed, told until the next move (blue: Black, white: White)",
                "play"),
}
_PHASES = {SETUP: "setup", COUNTING: "counting", OVER: "counting"}


def _hex(rgb):
    return "#%02x%02x%02x" % rgb


def legend(mode, state):
    """[{kind, colour, colour_white, blinks, meaning, now}] for every kind ``mode`` shows;
    ``now``: it belongs to the referee's present phase."""
    phase = _PHASES.get(state, "play")
    shown = MODE_KINDS[mode]
    rows = []
    for i, kind in enumerate(KINDS):
        if not shown & kind:
            continue
        meaning, when = MEANINGS[kind]
        black, white = PALETTE[i]
        rows.append({"kind": NAMES[i], "colour": _hex(black), "colour_white": _hex(white),
                     "blinks": BLINK[i] != 0, "meaning": meaning, "now": when in ("any", phase)})
    return rows


def sensor_check_legend():
    """The legend while the sensor check runs (firmware/sensing/diagnostics.py)."""
    rows = []
    for kind, meaning in ((mk.HINT, "this point's sensor reads a stone"),
                          (mk.ERROR, "a stuck or dead sensor (or a reading out of range): see the message")):
        i = KINDS.index(kind)
        black, white = PALETTE[i]
        rows.append({"kind": NAMES[i], "colour": _hex(black), "colour_white": _hex(white),
                     "blinks": BLINK[i] != 0, "meaning": meaning, "now": True})
    return rows

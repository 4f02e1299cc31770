"""A time control written back as the grammar's text (firmware/clock/spec.py reads it): for host
tools and tests.

The board only reads specs, so this is kept out of spec.py, which it loads
while the last game is still held.
"""

from firmware.clock.control import BRONSTEIN, BYOYOMI, CANADIAN, DELAY, FISCHER, ING, NONE, TV
from firmware.clock.spec import PRESETS, SYSTEM_NAMES


def canonical(tc):
    """The canonical spec of TimeControl ``tc`` (``spec.parse`` reads it back the same)."""
    s = tc.system
    if s == NONE:
        return "none"
    name = SYSTEM_NAMES[s] + " " + format_duration(tc.main_ms)
    if s == BYOYOMI or s == TV or s == ING:
        return name + " %dx%s" % (tc.periods, format_duration(tc.period_ms))
    if s == CANADIAN:
        return name + " %d/%s" % (tc.stones, format_duration(tc.period_ms))
    if s == FISCHER:
        name += " +" + format_duration(tc.increment_ms)
        return name + (" max " + format_duration(tc.cap_ms) if tc.cap_ms else "")
    if s == DELAY or s == BRONSTEIN:
        return name + " " + format_duration(tc.delay_ms)
    return name


def format_duration(ms):
    """1h30m, 40s, 0 ... (the inverse of spec.parse_duration for whole seconds)."""
    s = ms // 1000
    if s == 0:
        return "0"
    out = ""
    if s >= 3600:
        out += "%dh" % (s // 3600)
    if s % 3600 >= 60:
        out += "%dm" % (s % 3600 // 60)
    if s % 60:
        out += "%ds" % (s % 60)
    return out


def presets():
    """The preset names and the specs they stand for, as a dict (a menu, the simulator's page)."""
    out = {}
    for line in PRESETS.split("\n"):
        if line:
            name, spec = line.split(": ")
            out[name] = spec
    return out

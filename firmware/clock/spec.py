"""Time-control specs: the one grammar the CLI, the host's ``new`` and the journal share.

    parse("byoyomi 60m 3x40s")      # -> TimeControl(BYOYOMI, main_ms=3600000, periods=3, period_ms=40000)
    parse("korean-amateur")         # a preset name stands for its spec
    parse("byoyomi 60m x40s")       # SpecError naming the bad part

Grammar: ``none`` | ``absolute MAIN`` | ``byoyomi MAIN NxPERIOD`` |
``canadian MAIN STONES/PERIOD`` | ``fischer MAIN +INC [max CAP]`` |
``delay MAIN D`` | ``bronstein MAIN D`` | ``simple T`` | ``tv T NxPERIOD`` |
``ing MAIN NxBLOCK``; durations like 1h30m, 40s, 0 (units h, m, s). What each
system means is the clock's business (engine.py, docs/clock.md); the record a
spec is read into, control.py's ``TimeControl``, is what the clock keeps.

This grammar is loaded only while a game is set up (the settings read a spec
through ``call_briefly``), and then while the last game is still held: a new
game's settings are checked before the last game is let go. So it is kept
small: its tables are texts (a tuple or dict of strings would cost the heap
an object each), one check reads both period forms.
"""

from ..micro import const
from .control import BRONSTEIN, BYOYOMI, CANADIAN, DELAY, FISCHER, NONE, TimeControl

SYSTEM_NAMES = ("none", "absolute", "byoyomi", "canadian", "fischer", "delay", "bronstein", "simple", "tv", "ing")

_MAX_MS = const(360000000)  # 100 h: any duration beyond is a spec error

# Preset names (sorted) and the specs they stand for, a line each (host_tools/board/clock_spec.py's presets(): a dict).
PRESETS = """
aga: canadian 60m 20/5m
blitz: fischer 3m +2s max 5m
chinese: byoyomi 2h 5x60s
egf: fischer 90m +30s
ing: ing 3h30m 3x35m
janggi-amateur: byoyomi 5m 3x30s
japanese-pro: byoyomi 3h 5x60s
korean-amateur: byoyomi 30m 3x30s
korean-pro: byoyomi 1h 3x60s
nhk: tv 30s 10x1m
thai-gat: absolute 45m
thai-gat-byoyomi: byoyomi 30m 1x20s
"""

# Each system's words (its name first) and a spec of its form, for a spec that is missing a part.
_FORMS = b"\1\2\3\3\3\3\3\2\3\3"
_EXAMPLES = ("none|absolute 30m|byoyomi 60m 3x40s|canadian 10m 25/5m|fischer 5m +10s max 10m|delay 30m 5s"
             "|bronstein 30m 5s|simple 30s|tv 30s 10x1m|ing 3h30m 3x35m")


class SpecError(ValueError):
    """A time-control spec that cannot be read; the message names the bad part."""


def parse_duration(text, spec=""):
    """``1h30m``, ``90s``, ``5m``, ``0`` -> ms. Units h, m, s, largest first."""
    if text == "0":
        return 0
    total = 0
    number = -1
    last = 4
    for ch in text:
        if "0" <= ch <= "9":
            number = (0 if number < 0 else number * 10) + ord(ch) - 48
            if number > _MAX_MS:
                break
            continue
        rank = "smh".find(ch) + 1
        if number < 0 or rank == 0 or rank >= last:
            number = -2
            break
        total += number * (1000, 60000, 3600000)[rank - 1]
        number = -1
        last = rank
    if number != -1 or not text or total > _MAX_MS:
        raise SpecError("bad duration '%s' in '%s' (expected e.g. 30m, 1h30m, 40s or 0)" % (text, spec))
    return total


def parse(spec):
    """A spec string or preset name -> TimeControl; SpecError names the bad part (see the module doc)."""
    if not isinstance(spec, str):
        raise SpecError("time-control spec must be a string")
    words = spec.lower().split()
    if len(words) == 1:  # a preset's name?
        at = PRESETS.find("\n" + words[0] + ": ")
        if at >= 0:
            at += len(words[0]) + 3
            words = PRESETS[at:PRESETS.find("\n", at)].split()
    if not words:
        raise SpecError("empty time-control spec")
    name = words[0]
    if name not in SYSTEM_NAMES:
        presets = ""
        for line in PRESETS.split("\n")[1:-1]:
            presets += ", " + line[:line.find(":")]
        raise SpecError("unknown time system '%s' in '%s' (expected one of %s, or a preset: %s)"
                        % (name, spec, ", ".join(SYSTEM_NAMES), presets[2:]))
    system = SYSTEM_NAMES.index(name)
    need = _FORMS[system]
    if system == FISCHER and len(words) == 5:
        need = 5
    if len(words) != need:
        if len(words) > need:
            raise SpecError("unexpected '%s' in '%s'" % (" ".join(words[need:]), spec))
        raise SpecError("'%s' is missing a part (e.g. %s)" % (spec, _EXAMPLES.split("|")[system]))
    if system == NONE:
        return TimeControl(NONE)
    main = parse_duration(words[1], spec)
    if main == 0 and system != BYOYOMI and system != CANADIAN:
        raise SpecError("main time '0' in '%s': %s needs some time" % (spec, name))
    if need == 2:  # absolute, simple
        return TimeControl(system, main)
    part = words[2]
    if system == FISCHER:
        if part[:1] != "+":
            raise SpecError("bad increment '%s' in '%s' (expected e.g. +10s)" % (part, spec))
        inc = _positive(part[1:], "increment", spec)
        cap = 0
        if need == 5:
            if words[3] != "max":
                raise SpecError("unexpected '%s' in '%s' (expected 'max')" % (words[3], spec))
            cap = _positive(words[4], "cap", spec)
            if cap < main:
                raise SpecError("cap '%s' in '%s' is below the main time" % (words[4], spec))
        return TimeControl(FISCHER, main, increment_ms=inc, cap_ms=cap)
    if system == DELAY or system == BRONSTEIN:
        return TimeControl(system, main, delay_ms=_positive(part, "delay", spec))
    # N periods of a time (byoyomi, tv, ing: 3x40s) or N stones in one (canadian: 25/5m)
    canadian = system == CANADIAN
    at = part.find("/" if canadian else "x")
    if at < 0:
        raise SpecError("bad %s '%s' in '%s' (expected e.g. %s)"
                        % ("Canadian period" if canadian else "byo-yomi", part, spec, "25/5m" if canadian else "3x40s"))
    n = part[:at]
    ok = 0 < len(n) < 4
    for ch in n:  # (not isdigit(): CPython's takes digits int() refuses)
        ok = ok and "0" <= ch <= "9"
    if not ok or not 0 < int(n) < 256:
        raise SpecError("bad %s '%s' in '%s' (expected 1-255)" % ("stone count" if canadian else "period count", n, spec))
    n = int(n)
    period = _positive(part[at + 1:], "period", spec)
    if canadian:
        return TimeControl(CANADIAN, main, periods=1, stones=n, period_ms=period)
    if main + n * period > _MAX_MS:
        raise SpecError("'%s' in '%s' makes more than 100h in all" % (part, spec))
    return TimeControl(system, main, periods=n, period_ms=period)


def _positive(text, what, spec):
    ms = parse_duration(text, spec)
    if ms < 1000:
        raise SpecError("%s '%s' in '%s' must be at least 1s" % (what, text, spec))
    return ms

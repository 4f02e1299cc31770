"""Time-control specs: the one grammar the CLI, the host's ``new`` and the journal share.

    parse("byoyomi 60m 3x40s")      # -> TimeControl(BYOYOMI, main_ms=3600000, periods=3, period_ms=40000)
    parse("korean-amateur")         # a preset name stands for its spec
    parse("byoyomi 60m x40s")       # SpecError naming the bad part

Grammar: ``none`` | ``absolute MAIN`` | ``byoyomi MAIN NxPERIOD`` |
``canadian MAIN STONES/PERIOD`` | ``fischer MAIN +INC [max CAP]`` |
``delay MAIN D`` | ``bronstein MAIN D`` | ``simple T`` | ``tv T NxPERIOD`` |
``ing MAIN NxBLOCK``; durations like 1h30m, 40s, 0 (units h, m, s). What each
system means is the clock's business (engine.py, docs/clock.md); the record a
spec is read into, control.py's ``TimeControl``, is what the clock keeps. This
grammar is loaded only while a game is set up (``Clock`` and the settings
read a spec through ``call_briefly``): a board's heap does not keep it.
"""

from ..micro import const
from .control import ABSOLUTE, BRONSTEIN, BYOYOMI, CANADIAN, DELAY, FISCHER, ING, NONE, SIMPLE, TV, TimeControl

SYSTEM_NAMES = ("none", "absolute", "byoyomi", "canadian", "fischer", "delay", "bronstein", "simple", "tv", "ing")

_MAX_MS = const(360000000)  # 100 h: any duration beyond is a spec error

PRESETS = {
    "korean-pro": "byoyomi 1h 3x60s",
    "korean-amateur": "byoyomi 30m 3x30s",
    "japanese-pro": "byoyomi 3h 5x60s",
    "chinese": "byoyomi 2h 5x60s",
    "aga": "canadian 60m 20/5m",
    "egf": "fischer 90m +30s",
    "thai-gat": "absolute 45m",
    "thai-gat-byoyomi": "byoyomi 30m 1x20s",
    "janggi-amateur": "byoyomi 5m 3x30s",
    "nhk": "tv 30s 10x1m",
    "ing": "ing 3h30m 3x35m",
    "blitz": "fischer 3m +2s max 5m",
}


class SpecError(ValueError):
    """A time-control spec that cannot be read; the message names the bad part."""


def canonical(tc):
    """The canonical spec of TimeControl ``tc`` (``parse`` reads it back the same)."""
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
    """1h30m, 40s, 0 ... (the inverse of parse_duration for whole seconds)."""
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


def _count(text, what, spec):
    ok = 0 < len(text) < 4
    for ch in text:
        ok = ok and "0" <= ch <= "9"
    if not ok or int(text) < 1 or int(text) > 255:
        raise SpecError("bad %s '%s' in '%s' (expected 1-255)" % (what, text, spec))
    return int(text)


def parse(spec):
    """A spec string or preset name -> TimeControl; SpecError names the bad part.

    Grammar: ``none`` | ``absolute MAIN`` | ``byoyomi MAIN NxPERIOD`` |
    ``canadian MAIN STONES/PERIOD`` | ``fischer MAIN +INC [max CAP]`` |
    ``delay MAIN D`` | ``bronstein MAIN D``; durations like 1h30m, 40s, 0.
    """
    if not isinstance(spec, str):
        raise SpecError("time-control spec must be a string")
    text = spec.strip().lower()
    if text in PRESETS:
        text = PRESETS[text]
    words = text.split()
    if not words:
        raise SpecError("empty time-control spec")
    name = words[0]
    if name not in SYSTEM_NAMES:
        raise SpecError("unknown time system '%s' in '%s' (expected one of %s, or a preset: %s)"
                        % (name, spec, ", ".join(SYSTEM_NAMES), ", ".join(sorted(PRESETS))))
    system = SYSTEM_NAMES.index(name)
    need = (1, 2, 3, 3, 3, 3, 3, 2, 3, 3)[system]
    if system == FISCHER and len(words) == 5:
        need = 5
    if len(words) != need:
        if len(words) > need:
            raise SpecError("unexpected '%s' in '%s'" % (" ".join(words[need:]), spec))
        raise SpecError("'%s' is missing a part (e.g. %s)" % (spec, _EXAMPLES[system]))
    if system == NONE:
        return TimeControl(NONE)
    main = parse_duration(words[1], spec)
    if system == ABSOLUTE or system == SIMPLE:
        if main == 0:
            raise SpecError("main time '0' in '%s': %s time needs some time" % (spec, name))
        return TimeControl(system, main)
    part = words[2]
    if system == BYOYOMI or system == TV or system == ING:
        if main == 0 and system != BYOYOMI:
            raise SpecError("time '0' in '%s': %s needs some time" % (spec, name))
        n, period, sep = _split(part, "x")
        if not sep:
            raise SpecError("bad byo-yomi '%s' in '%s' (expected e.g. 3x40s)" % (part, spec))
        tc = TimeControl(system, main, periods=_count(n, "period count", spec),
                         period_ms=_positive(period, "period", spec))
        if main + tc.periods * tc.period_ms > _MAX_MS:
            raise SpecError("'%s' in '%s' makes more than 100h in all" % (part, spec))
        return tc
    if system == CANADIAN:
        n, period, sep = _split(part, "/")
        if not sep:
            raise SpecError("bad Canadian period '%s' in '%s' (expected e.g. 25/5m)" % (part, spec))
        return TimeControl(CANADIAN, main, periods=1, stones=_count(n, "stone count", spec),
                           period_ms=_positive(period, "period", spec))
    if system == FISCHER:
        if not part.startswith("+"):
            raise SpecError("bad increment '%s' in '%s' (expected e.g. +10s)" % (part, spec))
        inc = _positive(part[1:], "increment", spec)
        cap = 0
        if need == 5:
            if words[3] != "max":
                raise SpecError("unexpected '%s' in '%s' (expected 'max')" % (words[3], spec))
            cap = _positive(words[4], "cap", spec)
            if cap < main:
                raise SpecError("cap '%s' in '%s' is below the main time" % (words[4], spec))
        if main == 0:
            raise SpecError("main time '0' in '%s': Fischer needs some time" % spec)
        return TimeControl(FISCHER, main, increment_ms=inc, cap_ms=cap)
    if main == 0:
        raise SpecError("main time '0' in '%s': %s needs some time" % (spec, name))
    return TimeControl(system, main, delay_ms=_positive(part, "delay", spec))


def _split(text, sep):
    i = text.find(sep)
    if i < 0:
        return text, "", False
    return text[:i], text[i + 1:], True


def _positive(text, what, spec):
    ms = parse_duration(text, spec)
    if ms < 1000:
        raise SpecError("%s '%s' in '%s' must be at least 1s" % (what, text, spec))
    return ms


_EXAMPLES = ("none", "absolute 30m", "byoyomi 60m 3x40s", "canadian 10m 25/5m", "fischer 5m +10s max 10m",
             "delay 30m 5s", "bronstein 30m 5s", "simple 30s", "tv 30s 10x1m", "ing 3h30m 3x35m")


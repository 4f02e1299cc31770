"""Hypothesis properties of the game clock against the 1-ms model of tests/firmware/test_clock_model.py,
plus the spec grammar: canonical specs round-trip, and junk is always a SpecError (never another error)."""

from hypothesis import given, settings
from hypothesis import strategies as st
from test_clock_model import Model

from firmware.clock.control import (
    ABSOLUTE,
    BRONSTEIN,
    BYOYOMI,
    CANADIAN,
    DELAY,
    FISCHER,
    ING,
    NONE,
    SIMPLE,
    TV,
    TimeControl,
)
from firmware.clock.engine import Clock
from firmware.clock.spec import SpecError, parse
from firmware.rules.position import BLACK, WHITE
from host_tools.board.clock_spec import canonical


@st.composite
def time_controls(draw):
    s = draw(st.sampled_from([NONE, ABSOLUTE, BYOYOMI, CANADIAN, FISCHER, DELAY, BRONSTEIN, SIMPLE, TV, ING]))
    main = draw(st.integers(1, 300))
    if s == NONE:
        return TimeControl(NONE)
    if s == ABSOLUTE:
        return TimeControl(ABSOLUTE, main)
    if s == BYOYOMI:
        return TimeControl(BYOYOMI, draw(st.sampled_from([0, main])), periods=draw(st.integers(1, 4)),
                           period_ms=draw(st.integers(1, 60)))
    if s == CANADIAN:
        return TimeControl(CANADIAN, draw(st.sampled_from([0, main])), periods=1, stones=draw(st.integers(1, 5)),
                           period_ms=draw(st.integers(1, 120)))
    if s == FISCHER:
        return TimeControl(FISCHER, main, increment_ms=draw(st.integers(1, 50)),
                           cap_ms=draw(st.sampled_from([0, main + draw(st.integers(0, 80))])))
    if s == SIMPLE:
        return TimeControl(SIMPLE, draw(st.integers(1, 60)))
    if s == TV:
        return TimeControl(TV, draw(st.integers(1, 60)), periods=draw(st.integers(0, 3)),
                           period_ms=draw(st.integers(1, 50)))
    if s == ING:
        return TimeControl(ING, main, periods=draw(st.integers(1, 3)), period_ms=draw(st.integers(1, 100)))
    return TimeControl(s, main, delay_ms=draw(st.integers(1, 40)))


ops = st.lists(st.tuples(st.integers(0, 60), st.sampled_from(["press", "wrong", "pause", "resume"])),
               max_size=40)


@settings(max_examples=400, deadline=None)
@given(time_controls(), ops, st.integers(0, (1 << 30) - 1), st.sampled_from([BLACK, WHITE]))
def test_clock_agrees_with_the_millisecond_model(tc, script, base, first):
    clock = Clock(tc)
    model = Model(tc)
    clock.start(base, first)
    model.turn = first
    now = 0
    for wait, op in script:
        now += wait
        model.advance(now)
        t = (base + now) & 0x3FFFFFFF
        if op in ("press", "wrong"):
            side = model.turn if op == "press" else 3 - model.turn
            assert clock.press(side, t) == model.press(side)
        elif op == "pause":
            want = not model.paused and model.flag is None
            assert clock.pause(t) == want
            model.paused = model.paused or want
        else:
            want = model.paused and model.flag is None
            assert clock.resume(t) == want
            model.paused = model.paused and not want
        snap = clock.snapshot(t)
        assert snap.flag == model.flag and snap.running == model.turn
        for side in (BLACK, WHITE):
            v = snap.sides[side]
            assert (v.main_ms, v.periods, v.period_ms, v.stones, v.delay_ms) == model.view(side)


def test_save_restore_mid_sequence_matches_uninterrupted():
    @settings(max_examples=200, deadline=None)
    @given(time_controls(), ops, st.integers(0, 40))
    def prop(tc, script, cut):
        a = Clock(tc)
        b = Clock(tc)
        a.start(0, BLACK)
        b.start(0, BLACK)
        now = 0
        for i, (wait, op) in enumerate(script):
            now += wait
            for c in (a, b):
                if op == "press":
                    c.press(c.turn, now)
                elif op == "pause":
                    c.pause(now)
                elif op == "resume":
                    c.resume(now)
            if i == cut:
                b = Clock(tc)
                b.restore(a.save(now), now)
        sa, sb = a.snapshot(now), b.snapshot(now)
        for side in (BLACK, WHITE):
            va, vb = sa.sides[side], sb.sides[side]
            assert (va.main_ms, va.periods, va.period_ms, va.stones) == (vb.main_ms, vb.periods, vb.period_ms,
                                                                       vb.stones)
        assert (sa.flag, sa.running, sa.paused) == (sb.flag, sb.running, sb.paused)

    prop()


words = st.sampled_from(["none", "absolute", "byoyomi", "simple", "tv", "ing", "canadian", "fischer", "delay", "bronstein", "max", "+10s",
                         "3x40s", "25/5m", "1h", "30m", "5s", "0", "x", "/", "+", "m5", "1h2h", "", "3x", "0x4s"])


@settings(max_examples=500, deadline=None)
@given(st.lists(words, max_size=6) | st.text(max_size=20))
def test_any_text_parses_or_raises_spec_error(parts):
    text = parts if isinstance(parts, str) else " ".join(parts)
    try:
        tc = parse(text)
    except SpecError as e:
        assert str(e)
        return
    assert canonical(parse(canonical(tc))) == canonical(tc)

"""The game clock: spec grammar, every time system, pauses, tournament clauses, cues, digits, save/restore."""

from support import TICKS_PERIOD, check

from firmware.clock.clauses import Clauses, replay
from firmware.clock.control import BYOYOMI, CANADIAN, FISCHER, TimeControl
from firmware.clock.cues import CUE_COUNT, CUE_FLAG, CUE_LAST, CUE_NONE, CUE_PERIOD, CUE_TEN, Cues
from firmware.clock.engine import Clock
from firmware.clock.face import BLANK, digits
from firmware.clock.spec import SpecError, parse, parse_duration
from firmware.events import Events
from firmware.rules.position import BLACK, WHITE
from firmware.rules.rulesets import CAPTURE_ALWAYS, CAPTURE_NEVER, CAPTURE_THAI
from host_tools.board.clock_spec import canonical, presets
from host_tools.board.event_log import entries

S = 1000
M = 60 * S
H = 60 * M


def test_spec_grammar_reads_every_system():
    rows = [
        ("none", "none", {}),
        ("absolute 30m", "absolute 30m", {"main_ms": 30 * M}),
        ("Absolute 1h30m", "absolute 1h30m", {"main_ms": 90 * M}),
        ("byoyomi 60m 3x40s", "byoyomi 1h 3x40s", {"main_ms": H, "periods": 3, "period_ms": 40 * S}),
        ("byoyomi 0 10x30s", "byoyomi 0 10x30s", {"main_ms": 0, "periods": 10}),
        ("canadian 10m 25/5m", "canadian 10m 25/5m", {"main_ms": 10 * M, "stones": 25, "period_ms": 5 * M}),
        ("fischer 5m +10s max 10m", "fischer 5m +10s max 10m", {"increment_ms": 10 * S, "cap_ms": 10 * M}),
        ("fischer 5m +10s", "fischer 5m +10s", {"cap_ms": 0}),
        ("delay 30m 5s", "delay 30m 5s", {"delay_ms": 5 * S}),
        ("bronstein 30m 5s", "bronstein 30m 5s", {"delay_ms": 5 * S}),
        ("  byoyomi   2h   5x1m ", "byoyomi 2h 5x1m", {"period_ms": M}),
        ("janggi-amateur", "byoyomi 5m 3x30s", {}),
        ("simple 30s", "simple 30s", {"main_ms": 30 * S}),
        ("tv 30s 10x1m", "tv 30s 10x1m", {"main_ms": 30 * S, "periods": 10, "period_ms": M}),
        ("nhk", "tv 30s 10x1m", {}),
        ("ing 3h30m 3x35m", "ing 3h30m 3x35m", {"periods": 3, "period_ms": 35 * M}),
    ]
    failures = []
    for spec, text, fields in rows:
        tc = parse(spec)
        if canonical(tc) != text:
            failures.append("%r: canonical %r, expected %r" % (spec, canonical(tc), text))
        for name in fields:
            if getattr(tc, name) != fields[name]:
                failures.append("%r: %s = %r, expected %r" % (spec, name, getattr(tc, name), fields[name]))
        if canonical(parse(canonical(tc))) != text:
            failures.append("%r does not round-trip" % spec)
    check(failures)


def test_bad_specs_name_the_bad_part():
    rows = [
        ("", "empty"),
        ("sudden 30m", "'sudden'"),
        ("absolute 30x", "'30x'"),
        ("absolute m30", "'m30'"),
        ("absolute 30m20h", "'30m20h'"),
        ("absolute 0", "'0'"),
        ("absolute 30m 5s", "'5s'"),
        ("byoyomi 60m", "missing"),
        ("byoyomi 60m 3y40s", "'3y40s'"),
        ("byoyomi 60m 0x40s", "'0'"),
        ("byoyomi 60m x40s", "period count"),
        ("byoyomi 60m 3x0", "period '0'"),
        ("byoyomi 60m 3x40q", "'40q'"),
        ("canadian 10m 25x5m", "'25x5m'"),
        ("canadian 10m 0/5m", "stone count '0'"),
        ("fischer 5m 10s", "'10s'"),
        ("fischer 5m +10s cap 10m", "'cap'"),
        ("fischer 5m +10s max 1m", "cap '1m'"),
        ("fischer 5m +10s max", "'max'"),
        ("delay 30m", "missing"),
        ("bronstein 30m 0", "delay '0'"),
        ("absolute 200h", "'200h'"),
        ("simple 0", "'0'"),
        ("tv 30s", "missing"),
        ("tv 30s 10y1m", "'10y1m'"),
        ("ing 0 3x35m", "'0'"),
        ("canadian 10m 1000/5m", "'1000'"),
        ("byoyomi 90h 200x1h", "'200x1h'"),
    ]
    failures = []
    for spec, part in rows:
        try:
            parse(spec)
        except SpecError as e:
            if part not in str(e):
                failures.append("%r: message %r does not name %r" % (spec, str(e), part))
        else:
            failures.append("%r was accepted" % spec)
    try:
        parse(None)
        failures.append("None accepted")
    except SpecError:
        pass
    check(failures)


def test_presets_are_valid_specs():
    expect = {"thai-gat": "absolute 45m", "thai-gat-byoyomi": "byoyomi 30m 1x20s",
              "janggi-amateur": "byoyomi 5m 3x30s"}
    failures = []
    for name in presets():
        tc = parse(name)
        if name in expect and canonical(tc) != expect[name]:
            failures.append("%s: %s" % (name, canonical(tc)))
        Clock(name)
    for name in ("korean-pro", "korean-amateur", "japanese-pro", "chinese", "aga", "egf", "nhk", "blitz"):
        if name not in presets():
            failures.append("missing preset " + name)
    check(failures)


def test_every_event_kind_is_named_for_the_rings_readers():
    from firmware import events
    from host_tools.board import event_log

    kinds = {getattr(events, name): name[3:].lower() for name in dir(events) if name.startswith("EV_")}
    assert len(kinds) == len(event_log.NAMES) - 1
    assert [k for k in kinds if event_log.NAMES[k] != kinds[k]] == []


def test_durations():
    rows = [("0", 0), ("1s", S), ("90s", 90 * S), ("1h", H), ("1h30m", 90 * M), ("2m5s", 125 * S),
            ("1h0m1s", H + S)]
    check(["%s -> %d" % (t, parse_duration(t)) for t, ms in rows if parse_duration(t) != ms])


# Scenarios: ops then expected views. An op is (kind, side, t): "start", "press", "pause", "resume",
# "ignored" (a press that must be refused), "capture" (side = stones), "away", "late" (t = ms late).
# Expected: (t, side, field, value); field "flag" and "running" are clock-wide (side 0).
SCENARIOS = [
    ("absolute: flag exactly at the boundary", "absolute 1m",
     [("start", BLACK, 0)],
     [(M - 1, BLACK, "main_ms", 1), (M - 1, 0, "flag", None), (M, 0, "flag", "B"), (M, BLACK, "main_ms", 0),
      (M + 5000, WHITE, "main_ms", M)]),
    ("absolute: a press one ms before the flag counts", "absolute 1m",
     [("start", BLACK, 0), ("press", BLACK, M - 1)],
     [(M + 10, BLACK, "main_ms", 1), (M + 10, WHITE, "main_ms", M - 11), (M + 10, 0, "flag", None)]),
    ("absolute: a press at the boundary is too late", "absolute 1m",
     [("start", BLACK, 0), ("ignored", BLACK, M)],
     [(M + 10, 0, "flag", "B"), (M + 10, 0, "running", BLACK), (2 * M, WHITE, "main_ms", M)]),
    ("nothing changes after a flag", "absolute 1m",
     [("start", BLACK, 0), ("ignored", BLACK, M + 5), ("ignored", WHITE, M + 6)],
     [(5 * M, 0, "flag", "B"), (5 * M, WHITE, "main_ms", M), (5 * M, BLACK, "main_ms", 0)]),
    ("the side not running is ignored", "absolute 1m",
     [("start", BLACK, 0), ("ignored", WHITE, 1000), ("press", BLACK, 2000), ("ignored", BLACK, 3000)],
     [(4000, BLACK, "main_ms", M - 2000), (4000, WHITE, "main_ms", M - 2000), (4000, 0, "running", WHITE)]),
    ("byo-yomi: main time then periods; the count includes the period in use", "byoyomi 1m 3x10s",
     [("start", BLACK, 0)],
     [(M - 1, BLACK, "main_ms", 1), (M - 1, BLACK, "periods", 3), (M, BLACK, "main_ms", 0),
      (M, BLACK, "periods", 3), (M, BLACK, "period_ms", 10 * S), (M, BLACK, "overtime", True),
      (M + 10 * S - 1, BLACK, "period_ms", 1), (M + 10 * S, BLACK, "periods", 2),
      (M + 10 * S, BLACK, "period_ms", 10 * S), (M + 30 * S - 1, BLACK, "periods", 1),
      (M + 30 * S - 1, 0, "flag", None), (M + 30 * S, 0, "flag", "B"), (M + 30 * S, BLACK, "periods", 0)]),
    ("byo-yomi: a move inside a period resets it; a period used up is gone", "byoyomi 1m 3x10s",
     [("start", BLACK, 0), ("press", BLACK, M + 9999), ("press", WHITE, M + 10000),
      ("press", BLACK, M + 10000 + 15000)],
     [(M + 25000, BLACK, "periods", 2), (M + 25000, BLACK, "period_ms", 10 * S),
      (M + 25000, BLACK, "main_ms", 0), (M + 25000, WHITE, "main_ms", M - 1),
      (M + 25000 + M - 1 + 30 * S, 0, "flag", "W")]),
    ("byo-yomi with no main time", "byoyomi 0 2x30s",
     [("start", BLACK, 0)],
     [(0, BLACK, "overtime", True), (0, BLACK, "period_ms", 30 * S), (59999, BLACK, "period_ms", 1),
      (60000, 0, "flag", "B")]),
    ("Canadian: stones counted, the period renews after the last stone", "canadian 1m 3/30s",
     [("start", BLACK, 0), ("press", BLACK, M + 5 * S), ("press", WHITE, M + 6 * S),
      ("press", BLACK, M + 16 * S), ("press", WHITE, M + 17 * S), ("press", BLACK, M + 20 * S)],
     [(M + 20 * S, BLACK, "stones", 3), (M + 20 * S, BLACK, "period_ms", 30 * S),
      (M + 4 * S, BLACK, "stones", 3), (M + 21 * S, WHITE, "main_ms", M - 3 * S)]),
    ("Canadian: the period carries over between moves", "canadian 1m 3/30s",
     [("start", BLACK, 0), ("press", BLACK, M + 10 * S), ("press", WHITE, M + 11 * S)],
     [(M + 11 * S, BLACK, "stones", 2), (M + 11 * S, BLACK, "period_ms", 20 * S),
      (M + 31 * S - 1, BLACK, "period_ms", 1), (M + 31 * S, 0, "flag", "B")]),
    ("Canadian: a move exactly at the end of main time is the period's first stone", "canadian 1m 3/30s",
     [("start", BLACK, 0), ("press", BLACK, M)],
     [(M, BLACK, "stones", 2), (M, BLACK, "period_ms", 30 * S), (M, BLACK, "overtime", True)]),
    ("Fischer: increment after each move, capped", "fischer 1m +10s max 65s",
     [("start", BLACK, 0), ("press", BLACK, 2 * S), ("press", WHITE, 20 * S), ("press", BLACK, 21 * S)],
     [(21 * S, BLACK, "main_ms", 65 * S), (21 * S, WHITE, "main_ms", M - 8 * S),
      (21 * S + 1, WHITE, "main_ms", M - 8 * S - 1)]),
    ("Fischer: without a cap time accumulates", "fischer 1m +10s",
     [("start", BLACK, 0), ("press", BLACK, 1 * S), ("press", WHITE, 2 * S), ("press", BLACK, 3 * S)],
     [(3 * S, BLACK, "main_ms", M + 18 * S)]),
    ("simple delay: the first seconds of a turn are free", "delay 1m 5s",
     [("start", BLACK, 0), ("press", BLACK, 4999), ("press", WHITE, 4999 + 8000)],
     [(4999, BLACK, "main_ms", M), (12999, WHITE, "main_ms", M - 3000), (13000, BLACK, "delay_ms", 4999),
      (12999 + 5000 + M - 1, 0, "flag", None), (12999 + 5000 + M, 0, "flag", "B")]),
    ("Bronstein: the time used, up to the delay, comes back", "bronstein 1m 5s",
     [("start", BLACK, 0), ("press", BLACK, 3000), ("press", WHITE, 3000 + 8000)],
     [(11000, BLACK, "main_ms", M), (11000, WHITE, "main_ms", M - 3000), (11000 + M - 1, 0, "flag", None),
      (11000 + M, 0, "flag", "B")]),
    ("simple: a fixed time for every move", "simple 10s",
     [("start", BLACK, 0), ("press", BLACK, 9999), ("press", WHITE, 19998)],
     [(19998, BLACK, "main_ms", 10 * S), (19998, WHITE, "main_ms", 10 * S), (29997, 0, "flag", None),
      (29998, 0, "flag", "B")]),
    ("TV style: 30 s a move, then thinking periods, any fraction using one up", "tv 30s 3x1m",
     [("start", BLACK, 0), ("press", BLACK, 30 * S + 1), ("press", WHITE, 40 * S),
      ("press", BLACK, 69 * S)],
     [(30 * S, BLACK, "main_ms", 0), (30 * S, BLACK, "periods", 3), (30 * S, BLACK, "period_ms", M),
      (30 * S, BLACK, "overtime", True), (70 * S, BLACK, "periods", 2), (70 * S, BLACK, "main_ms", 30 * S),
      (70 * S, BLACK, "period_ms", M), (40 * S, WHITE, "periods", 3),
      (99 * S + 2 * M - 1, WHITE, "periods", 2), (99 * S + 2 * M, WHITE, "periods", 1),
      (99 * S + 3 * M - 1, 0, "flag", None), (99 * S + 3 * M, 0, "flag", "W")]),
    ("TV style: a press exactly at 30 s uses a period", "tv 30s 3x1m",
     [("start", BLACK, 0), ("press", BLACK, 30 * S)],
     [(30 * S, BLACK, "periods", 2)]),
    ("Ing: overtime blocks carry over between moves", "ing 1m 2x1m",
     [("start", BLACK, 0), ("press", BLACK, M + 20 * S), ("press", WHITE, M + 21 * S)],
     [(M + 21 * S, BLACK, "periods", 2), (M + 21 * S, BLACK, "period_ms", 40 * S),
      (M + 61 * S, BLACK, "periods", 1), (M + 61 * S, BLACK, "period_ms", M),
      (M + 121 * S - 1, 0, "flag", None), (M + 121 * S, 0, "flag", "B")]),
    ("no time limit: time used counts up, never flags", "none",
     [("start", BLACK, 0), ("press", BLACK, 7000)],
     [(10 * H, WHITE, "main_ms", 10 * H - 7000), (10 * H, BLACK, "main_ms", 7000), (10 * H, 0, "flag", None)]),
    ("pause stops the running side; resume continues", "absolute 1m",
     [("start", BLACK, 0), ("pause", 0, 10 * S), ("resume", 0, 50 * S)],
     [(30 * S, BLACK, "main_ms", 50 * S), (60 * S, BLACK, "main_ms", 40 * S), (30 * S, 0, "paused", True),
      (60 * S, 0, "paused", False)]),
    ("press while paused ends the move without the pause", "absolute 1m",
     [("start", BLACK, 0), ("pause", 0, 10 * S), ("press", BLACK, 40 * S)],
     [(41 * S, BLACK, "main_ms", 50 * S), (41 * S, WHITE, "main_ms", M - S), (41 * S, 0, "paused", False)]),
    ("press then the White clock; wrap of ticks is harmless", "absolute 1m",
     [("start", BLACK, TICKS_PERIOD - 500), ("press", BLACK, 500)],
     [(1500, WHITE, "main_ms", M - 1000), (1500, BLACK, "main_ms", M - 1000)]),
]


def _clock_op(c, kind, side, t):
    if kind == "start":
        return c.start(t, side)
    if kind == "press":
        return c.press(side, t)
    if kind == "ignored":
        return not c.press(side, t)
    if kind == "pause":
        return c.pause(t)
    if kind == "resume":
        return c.resume(t)
    if kind == "capture":
        return Clauses().capture_pause(c, side, t)
    raise ValueError(kind)


def _field(snap, side, field):
    if side == 0:
        return getattr(snap, field)
    return getattr(snap.sides[side], field)


def run_scenarios(rows, make=Clock):
    failures = []
    for name, spec, ops, expected in rows:
        for t, side, field, value in expected:
            # a fresh clock per check, given the ops up to t (a tick near the wrap counts as before)
            c = make(spec)
            ok = True
            for kind, s, at in ops:
                if at <= t or at > TICKS_PERIOD // 2:
                    ok = _clock_op(c, kind, s, at) and ok
            if not ok:
                failures.append("%s: an op did not do what was expected" % name)
            got = _field(c.snapshot(t), side, field)
            if got != value:
                failures.append("%s: at %d side %d %s = %r, expected %r" % (name, t, side, field, got, value))
    return failures


def test_every_system_table():
    check(run_scenarios(SCENARIOS))


def test_capture_removal_pause():
    rows = [
        # policy, spec, elapsed before the capture, stones, pauses?
        (CAPTURE_ALWAYS, "absolute 1h", 0, 1, True),  # Korean Art.14-2
        (CAPTURE_NEVER, "byoyomi 1m 3x30s", 2 * M, 10, False),
        (CAPTURE_THAI, "byoyomi 1m 3x30s", 30 * S, 10, False),  # main time: not yet byo-yomi
        (CAPTURE_THAI, "byoyomi 1m 3x30s", M + S, 4, False),  # byo-yomi, fewer than 5
        (CAPTURE_THAI, "byoyomi 1m 3x30s", M + S, 5, True),  # Thai 24
        (CAPTURE_THAI, "canadian 1m 10/5m", M + S, 7, True),
        (CAPTURE_THAI, "absolute 45m", 30 * M, 1, False),  # no byo-yomi: only the last 10 minutes
        (CAPTURE_THAI, "absolute 45m", 35 * M, 1, True),
        (CAPTURE_THAI, "absolute 45m", 35 * M - 1, 1, False),
        (CAPTURE_THAI, "fischer 20m +5s", 15 * M, 2, True),
        (CAPTURE_THAI, "none", 15 * M, 20, False),
    ]
    failures = []
    for policy, spec, at, stones, pauses in rows:
        c = Clock(spec)
        c.start(0, BLACK)
        got = Clauses(capture_policy=policy).capture_pause(c, stones, at)
        if got != pauses:
            failures.append("%s %s at %d, %d stones: %r" % (policy, spec, at, stones, got))
            continue
        kinds = [e[0] for e in entries(c.events)]
        if kinds[-1] != ("capture_pause" if pauses else "capture_refused"):
            failures.append("%s: log %r" % (spec, kinds))
        if pauses:
            before = c.snapshot(at).black.main_ms
            if c.snapshot(at + 5 * M).black.main_ms != before:
                failures.append("%s: time ran during capture removal" % spec)
            c.press(BLACK, at + 5 * M)  # the move ends after the stones are off the board
            if c.snapshot(at + 5 * M).running != WHITE or c.paused:
                failures.append("%s: press after removal did not hand over" % spec)
            if c.snapshot(at + 5 * M).white.main_ms != parse(spec).main_ms:
                failures.append("%s: White's time ran during the removal" % spec)
    check(failures)


def test_away_pause_once_per_player_in_byoyomi():
    failures = []
    c = Clock("byoyomi 1m 3x30s")
    c.start(0, BLACK)
    c.press(BLACK, 10 * S)  # Black: 50 s of main time left; White's turn
    if Clauses().away_pause(c, WHITE, 20 * S):
        failures.append("away pause allowed on one's own turn")
    if Clauses().away_pause(c, BLACK, 20 * S):
        failures.append("away pause allowed before byo-yomi (Thai 31: time runs normally)")
    c.press(WHITE, M + 15 * S)  # White used 65 s: in byo-yomi; Black's turn
    if not Clauses().away_pause(c, WHITE, M + 20 * S):
        failures.append("White in byo-yomi could not leave during Black's turn")
    left = c.snapshot(M + 20 * S).black.main_ms
    if left != 45 * S or c.snapshot(M + 20 * S + 4 * M).black.main_ms != left:
        failures.append("Black's clock ran while White was away")
    # Black moves while White is away: White's clock waits for White
    c.press(BLACK, M + 20 * S + 3 * M)
    if not c.paused or c.snapshot(M + 20 * S + 4 * M).white.period_ms != 30 * S:
        failures.append("White's clock ran while White was away")
    c.resume(M + 20 * S + 4 * M)
    c.press(WHITE, M + 20 * S + 4 * M + 5 * S)
    if c.snapshot(6 * M).white.periods != 3:
        failures.append("White's byo-yomi was touched by the away pause")
    c.press(BLACK, 6 * M)
    c.press(WHITE, 6 * M + 20 * S)
    if Clauses().away_pause(c, WHITE, 6 * M + 21 * S) or not c.snapshot(6 * M + 21 * S).running == BLACK:
        failures.append("a second away pause was allowed")
    kinds = [e[0] for e in entries(c.events)]
    if kinds.count("away_pause") != 1 or kinds.count("away_refused") != 3 or "flag" in kinds:
        failures.append("log: %r" % kinds)
    check(failures)


def test_lateness_deduction():
    rows = [
        ("absolute 45m", 10 * M, True, 35 * M),  # Thai 14: deducted
        ("absolute 45m", 15 * M, True, 30 * M),  # exactly 15 minutes: still deducted
        ("absolute 45m", 15 * M + 1, False, 45 * M),  # more: the game is lost
        ("byoyomi 5m 3x30s", 10 * M, True, 0),  # never below zero: byo-yomi remains
    ]
    failures = []
    for spec, late, ok, main in rows:
        c = Clock(spec)
        got = Clauses().late(c, BLACK, late, 0)
        c.start(0, BLACK)
        snap = c.snapshot(0)
        if got != ok or snap.black.main_ms != main or snap.white.main_ms != parse(spec).main_ms:
            failures.append("%s late %d: %r, main %d" % (spec, late, got, snap.black.main_ms))
        if entries(c.events)[0][0] != ("late" if ok else "late_forfeit"):
            failures.append("%s: log %r" % (spec, entries(c.events)))
    c = Clock("byoyomi 5m 3x30s")
    Clauses().late(c, BLACK, 10 * M, 0)
    c.start(0, BLACK)
    if c.snapshot(90 * S - 1).flag is not None or c.snapshot(90 * S).flag != "B":
        failures.append("the late player's byo-yomi should remain whole")
    check(failures)


def test_referee_log_and_adjust():
    c = Clock("absolute 10m", Events(4))
    c.start(100, BLACK)
    c.press(BLACK, 2100)
    c.adjust(WHITE, -M, 2200)
    c.pause(2300)
    c.resume(3300)
    c.stop(4300)
    log = entries(c.events)
    check([] if log == [("adjust", WHITE, 2200, -M), ("pause", WHITE, 2300, 0), ("resume", WHITE, 3300, 1000),
                            ("stop", WHITE, 4300, 1200)] and c.events.count == 6 else ["log %r" % (log,)])
    snap = c.snapshot(10 * M)
    assert snap.white.main_ms == 9 * M - 1200 and snap.paused
    assert not c.press(WHITE, 10 * M) and not c.resume(10 * M)


def test_flag_log_has_the_exact_time():
    c = Clock("byoyomi 10s 1x5s")
    c.start(1000, BLACK)
    c.snapshot(60000)
    assert entries(c.events)[-1] == ("flag", BLACK, 16000, 15000), entries(c.events)


def test_save_and_restore():
    specs = ["byoyomi 1m 3x10s", "canadian 1m 3/30s", "fischer 1m +10s max 65s", "delay 1m 5s", "none"]
    failures = []
    for spec in specs:
        c = Clock(spec)
        c.start(0, BLACK)
        c.press(BLACK, M + 12 * S)
        c.press(WHITE, M + 20 * S)
        c.press(BLACK, M + 30 * S)
        state = c.save(M + 33 * S)
        want = c.snapshot(M + 33 * S + 4000)
        want = (want.black.main_ms, want.black.periods, want.black.period_ms, want.black.stones,
                want.white.main_ms, want.white.period_ms, want.white.stones, want.running)
        r = Clock(spec)
        r.restore(state, 777)  # a new boot: ticks start elsewhere; the time off is not counted
        got = r.snapshot(777 + 4000)
        got = (got.black.main_ms, got.black.periods, got.black.period_ms, got.black.stones,
               got.white.main_ms, got.white.period_ms, got.white.stones, got.running)
        if got != want:
            failures.append("%s: %r != %r" % (spec, got, want))
        # paused and flagged states survive too
        if not c.pause(M + 34 * S):
            continue  # flagged already (fischer, delay)
        r = Clock(spec)
        r.restore(c.save(M + 40 * S), 5)
        if not r.snapshot(10 * M).paused or r.snapshot(10 * M).white.main_ms != c.snapshot(M + 40 * S).white.main_ms:
            failures.append("%s: pause lost" % spec)
    c = Clock("absolute 1m")
    c.start(0, BLACK)
    r = Clock("absolute 1m")
    r.restore(c.save(2 * M), 0)
    if r.snapshot(0).flag != "B" or r.press(BLACK, 1):
        failures.append("flag lost")
    try:
        r.restore((9, 1), 0)
        failures.append("bad state accepted")
    except ValueError:
        pass
    check(failures)


def _cues(spec, until, presses=(), step=100, **kw):
    c = Clock(spec)
    cues = Cues(c, **kw)
    c.start(0, BLACK)
    out = []
    presses = list(presses)
    for t in range(0, until, step):
        while presses and presses[0] <= t:
            c.press(c.turn, presses.pop(0))
        q = cues.cue(t)
        if q != CUE_NONE:
            out.append((t, q))
    return out


def test_byoyomi_counting_cues():
    got = _cues("byoyomi 10s 2x30s", 80 * S)
    # the period starts at 10 s: 10 s used, then 10 s left, 9 ... 1, the period is gone
    expect = [(20 * S, CUE_TEN)]
    expect += [((30 + i) * S, CUE_COUNT) for i in range(10)]
    expect += [(40 * S, CUE_PERIOD), (50 * S, CUE_TEN)]
    expect += [((60 + i) * S, CUE_LAST) for i in range(10)]  # the last period sounds different
    expect += [(70 * S, CUE_FLAG)]
    check([] if got == expect else ["cues %r\nexpected %r" % (got, expect)])


def test_cues_restart_with_each_move_and_sudden_death_counts_down():
    failures = []
    got = _cues("byoyomi 0 1x30s", 40 * S, presses=[15 * S])
    if got != [(10 * S, CUE_TEN), (25 * S, CUE_TEN)] + [((35 + i) * S, CUE_LAST) for i in range(5)]:
        failures.append("after a move: %r" % got)
    got = _cues("absolute 20s", 25 * S, count_ms=5000)
    if got != [(15 * S, CUE_LAST), (16 * S, CUE_LAST), (17 * S, CUE_LAST), (18 * S, CUE_LAST), (19 * S, CUE_LAST),
               (20 * S, CUE_FLAG)]:
        failures.append("sudden death: %r" % got)
    if _cues("none", 20 * S):
        failures.append("cues with no time limit")
    check(failures)


def _twin_cues(spec, ops):
    """The cues heard at every 10 ms tick by Cues as it is, and by a twin that recounts
    at every tick; ``ops(t)`` -> an action for both clocks at t, or None."""
    clocks = (Clock(spec), Clock(spec))
    cues = (Cues(clocks[0]), Cues(clocks[1]))
    for c in clocks:
        c.start(0, BLACK)
    heard = ([], [])
    for t in range(0, 150 * S, 10):
        op = ops(t)
        for c in clocks:
            if op == "press":
                c.press(c.turn, t)
            elif op == "pause":
                c.pause(t)
            elif op == "resume":
                c.resume(t)
            elif op is not None:  # ms given (taken, if negative) to the side to move
                c.adjust(c.turn or BLACK, op, t)
        cues[1]._changes = -1  # the twin: recounted every tick
        for i in (0, 1):
            q = cues[i].cue(t)
            if q != CUE_NONE:
                heard[i].append((t, q))
    return heard


def test_cues_looked_at_only_when_a_second_can_change_are_the_cues_of_every_tick():
    """Cues skips the clock between whole seconds: it must hear exactly what a twin that
    recounts at every tick hears, through presses, pauses, time given and taken,
    periods and the flag, under every time system."""
    from diagrams import Lcg

    failures = []
    rng = Lcg(15)
    random_ops = {0: "press", 1: "press", 2: "press", 3: "pause", 4: "resume", 5: -7300}  # per 1000 ticks
    for spec in ("byoyomi 20s 3x10s", "canadian 15s 3/20s", "fischer 20s +3s", "delay 20s 4s", "tv 10s 3x10s",
                 "ing 10s 2x20s", "absolute 40s", "none"):
        heard = _twin_cues(spec, lambda t: random_ops.get(rng.below(1000)))
        if heard[0] != heard[1]:
            failures.append("%s: %r\nevery tick: %r" % (spec, heard[0], heard[1]))
    # 14.5 s left, 5.3 s taken: 10 s shown at once, 9 s 0.2 s later (not when 15 s would have ended)
    heard = _twin_cues("absolute 40s", lambda t: -5300 if t == 25500 else None)
    if heard[0] != heard[1] or heard[0][:2] != [(25500, CUE_LAST), (25700, CUE_LAST)]:
        failures.append("time taken: %r\nevery tick: %r" % (heard[0], heard[1]))
    check(failures)


def test_display_digits_round_seconds_up():
    rows = [
        ("absolute 1h30m", 0, BLACK, (BLANK, 1, 3, 0, 1, BLANK, BLANK, 0)),  # H:MM
        ("absolute 1h30m", 30 * M + 1, BLACK, (BLANK, 1, 0, 0, 1, BLANK, BLANK, 0)),  # 59:59.999 shows 1:00
        ("absolute 1h30m", 30 * M + 1000, BLACK, (5, 9, 5, 9, 1, BLANK, BLANK, 0)),  # 59:59
        ("absolute 10m", 1, BLACK, (1, 0, 0, 0, 1, BLANK, BLANK, 0)),  # 9:59.999 shows 10:00
        ("absolute 10m", 10 * M - 1, BLACK, (BLANK, 0, 0, 1, 1, BLANK, BLANK, 0)),
        ("byoyomi 1m 3x40s", 0, WHITE, (BLANK, 1, 0, 0, 1, BLANK, 3, 0)),
        ("byoyomi 1m 3x40s", M + 1, BLACK, (BLANK, 0, 4, 0, 1, BLANK, 3, 1)),
        ("byoyomi 1m 3x40s", M + 40 * S, BLACK, (BLANK, 0, 4, 0, 1, BLANK, 2, 1)),
        ("canadian 10m 25/5m", 10 * M + 1, BLACK, (BLANK, 5, 0, 0, 1, 2, 5, 1)),
        ("delay 1m 5s", 1000, BLACK, (BLANK, 1, 0, 0, 1, BLANK, 4, 0)),
        ("byoyomi 1m 1x30s", M, BLACK, (BLANK, 0, 3, 0, 1, BLANK, 1, 3)),  # the LAST period
        ("byoyomi 1m 1x30s", 0, BLACK, (BLANK, 1, 0, 0, 1, BLANK, 1, 0)),  # not yet
        ("tv 30s 10x1m", 1, BLACK, (BLANK, 0, 3, 0, 1, 1, 0, 0)),
        ("tv 30s 10x1m", 31 * S, BLACK, (BLANK, 0, 5, 9, 1, 1, 0, 1)),
        ("ing 3h30m 3x35m", 0, WHITE, (BLANK, 3, 3, 0, 1, BLANK, 3, 0)),
    ]
    failures = []
    out = bytearray(11)
    for spec, t, side, want in rows:
        c = Clock(spec)
        c.start(0, BLACK)
        c.snapshot(t)
        got = tuple(digits(c, side, out))[:8]  # (the face's digits; then running, paused, flag)
        if got != want:
            failures.append("%s at %d: %r, expected %r" % (spec, t, got, want))
    check(failures)


def test_ing_blocks_cost_points():
    rows = [(M - 1, 0), (M, 2), (M + M - 1, 2), (M + M, 4), (M + 2 * M + 1, 6)]
    failures = []
    for at, points in rows:
        c = Clock("ing 1m 3x1m")
        c.start(0, BLACK)
        if Clauses().penalty_points(c, BLACK, at) != points or Clauses().penalty_points(c, WHITE, at) != 0:
            failures.append("at %d: %d points" % (at, Clauses().penalty_points(c, BLACK, at)))
        c.press(BLACK, at)
        if Clauses().penalty_points(c, BLACK, at + 5 * M) != points:
            failures.append("at %d after the press: %d" % (at, Clauses().penalty_points(c, BLACK, at + 5 * M)))
    c = Clock("ing 1m 3x1m")
    c.start(0, BLACK)
    c.snapshot(10 * M)
    if Clauses(ing_points=3).penalty_points(c, BLACK, 10 * M) != 9 or Clauses().penalty_points(Clock("absolute 1m"), BLACK, 0) != 0:
        failures.append("flagged / other systems")
    check(failures)


def test_time_control_object_accepted():
    c = Clock(TimeControl(BYOYOMI, 1000, periods=1, period_ms=500))
    c.start(0, WHITE)
    assert c.snapshot(1499).flag is None and c.snapshot(1500).flag == "W"
    c = Clock(TimeControl(CANADIAN, 0, periods=1, period_ms=500, stones=2))
    c.start(0, BLACK)
    assert c.snapshot(0).black.overtime and c.snapshot(0).black.stones == 2
    assert canonical(Clock(TimeControl(FISCHER, 100, increment_ms=10)).tc).startswith("fischer")


def test_press_with_stones_still_on_the_board_is_logged():
    c = Clock("absolute 10m")
    c.start(0, BLACK)
    assert c.press(BLACK, 5000, stones_left=3)
    assert entries(c.events)[-2:] == [("press", BLACK, 5000, 5000), ("stones_left", BLACK, 5000, 3)]
    assert c.press(WHITE, 6000) and entries(c.events)[-1][0] == "press"


def test_replay_with_the_remaining_times():
    rows = [
        ("byoyomi 1m 3x30s", M + 45 * S, (0, 2, 30 * S), (M - 10 * S, 3, 30 * S)),
        ("canadian 1m 3/30s", M + 10 * S, (0, 1, 20 * S), (M - 10 * S, 1, 30 * S)),
        ("absolute 10m", 2 * M, (8 * M, 0, 0), (10 * M - 10 * S, 0, 0)),
        ("ing 1m 2x1m", M + 70 * S, (0, 1, 50 * S), (M - 10 * S, 2, M)),
    ]
    failures = []
    for spec, black_used, want_b, want_w in rows:
        c = Clock(spec)
        c.start(0, WHITE)
        c.press(WHITE, 10 * S)
        r = replay(c, 10 * S + black_used)  # the game ends in a draw during Black's turn
        if r.turn or r.moves:
            failures.append("%s: the replay is not fresh" % spec)
        r.start(0, BLACK)
        snap = r.snapshot(0)
        got_b = (snap.black.main_ms, snap.black.periods, snap.black.period_ms)
        got_w = (snap.white.main_ms, snap.white.periods, snap.white.period_ms)
        if got_b != want_b or got_w != want_w:
            failures.append("%s: %r %r" % (spec, got_b, got_w))
    check(failures)


def test_an_away_pause_survives_a_restore():
    c = Clock("byoyomi 0 3x30s")
    c.start(0, BLACK)
    c.press(BLACK, 5 * S)
    assert Clauses().away_pause(c, BLACK, 6 * S)
    r = Clock("byoyomi 0 3x30s")
    r.restore(c.save(7 * S), 100)
    r.press(WHITE, 200)  # White moves while Black is away: Black's clock waits
    assert r.paused and r.snapshot(10 * M).black.period_ms == 30 * S
    assert r.resume(10 * M) and r.snapshot(10 * M + 1000).black.period_ms == 29 * S

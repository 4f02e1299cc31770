"""However play stops, the clock follows the game: one path (firmware/timekeeper.py) for every ending.

Each ending is reached as the board meets it — clock presses, the MENU button,
the simulator's controls, a host's command, a stone placed out of turn — on
a 9x9 board whose clock runs (White to move, 10 s each, absolute). After it
the clock must not run on: a flag may not fall later, the game's result may
not change, and only counting keeps the clock paused, to run again if play
resumes (Korean regulations 10-2, Thai 12.2).
"""

from harness import board, host_says, linked, point, press, run
from support import check

from firmware.drivers.buttons import B_BLACK, B_MENU, B_PAUSE, B_WHITE
from firmware.modes import TOURNAMENT
from firmware.rules.game import COUNTING, OVER, PLAYING
from firmware.rules.position import BLACK, WHITE

TIME = "absolute 10s"


def _running(**options):
    """Black has played E5 and pressed: White's clock runs. (hw, app, pipe or None, t)."""
    pipe = None
    if options.pop("host", False):
        hw, pipe, app = linked(time_spec=TIME, **options)
    else:
        options.setdefault("size", 9)
        hw, app = board(time_spec=TIME, **options)
    run(app, hw, 0, 100)
    hw.stones.place(point(app, 4, 4), BLACK)
    run(app, hw, 100, 400)
    press(app, hw, B_BLACK, 400)
    assert app.clock.snap.running == WHITE and not app.clock.paused
    return hw, app, pipe, 520


def _passes(hw, app, _pipe, t):
    press(app, hw, B_WHITE, t)  # White passes
    press(app, hw, B_BLACK, t + 200)  # Black passes: counting
    return t + 320


def _agreed(hw, app, pipe, t):
    t = _passes(hw, app, pipe, t)
    assert app.control("ok", t)
    return t


def _agreed_with_menu(hw, app, pipe, t):
    t = _passes(hw, app, pipe, t)
    press(app, hw, B_MENU, t)  # MENU, let go, finishes the count
    return t + 120


def _host_end(hw, app, pipe, t):
    assert host_says(hw, pipe, app, "end B+R", t)[-1][0] == "OK"
    return t + 40


def _resigns(_hw, app, _pipe, t):
    assert app.control("resign_white", t)
    return t


def _flag(hw, app, _pipe, t):
    run(app, hw, t, t + 10500)  # White thinks too long
    return t + 10500


def _foul(hw, app, _pipe, t):
    # Korean Art.19-1-1 (polarity sensors): White places two stones without pressing in between.
    hw.stones.place(point(app, 2, 2), WHITE)
    run(app, hw, t, t + 300)
    hw.stones.place(point(app, 6, 6), WHITE)
    run(app, hw, t + 300, t + 600)
    return t + 600


ENDINGS = (
    # name, how, board options, the result it gives (None: still counting)
    ("two passes", _passes, {}, None),
    ("a result agreed (ok)", _agreed, {}, "B+73.5"),  # E5 alone on 9x9: 80 points less komi
    ("a result agreed (MENU)", _agreed_with_menu, {}, "B+73.5"),
    ("the host's end", _host_end, {"host": True}, "B+R"),
    ("a resignation", _resigns, {}, "B+R"),
    ("a flag", _flag, {}, "B+T"),
    ("a foul", _foul, {"sensors": "polarity", "mode": TOURNAMENT, "rules": "korean"}, "B+F"),
)


def test_every_ending_stops_or_pauses_the_clock():
    failures = []
    for name, how, options, result in ENDINGS:
        hw, app, pipe, t = _running(**dict(options))
        t = how(hw, app, pipe, t)
        clock = app.clock
        game = app.game
        counting = result is None
        if counting != (game.phase == COUNTING) or (not counting and game.phase != OVER):
            failures.append("%s: the game's phase is %d" % (name, game.phase))
            continue
        snap = clock.snapshot(t)
        white_left = snap.white.main_ms
        if not snap.paused and snap.flag is None:  # (a fallen flag holds the time as it fell)
            failures.append("%s: the clock still runs" % name)
        run(app, hw, t, t + 15000)  # longer than anybody's time
        snap = clock.snapshot(t + 15000)
        if name != "a flag" and snap.flag is not None:
            failures.append("%s: a flag fell afterwards (%s)" % (name, snap.flag))
        if snap.white.main_ms != white_left:
            failures.append("%s: White's time went on from %d to %d" % (name, white_left, snap.white.main_ms))
        got = game.result.sgf() if game.result is not None else None
        if got != result:
            failures.append("%s: result %r, expected %r" % (name, got, result))
        if counting == (clock.stopped or clock.flag is not None):
            failures.append("%s: the clock is %s" % (name, "stopped for good" if counting else "not stopped"))
    check(failures)


def test_a_cycle_stops_the_clock():
    """The triple ko of tests/data/rules_cases.jsonl under Korean rules: a draw, however it was played."""
    from rules_cases import load_cases
    from support import data_path

    from firmware.rules.coords import parse_vertex

    case = next(c for c in load_cases(data_path("rules_cases.jsonl")) if c["id"] == "triple-ko-korean-draw")
    hw, app = board(size=7, rules="korean", komi=6.5, time_spec=TIME)
    game = app.game
    setup = case["setup"]
    game.setup([parse_vertex(7, v) for v in setup["B"]], [parse_vertex(7, v) for v in setup["W"]])
    press(app, hw, B_WHITE, 0)  # White starts Black's clock
    t = 120
    for colour, v in case["moves"]:
        game.play(BLACK if colour == "B" else WHITE, parse_vertex(7, v))
        app.clock.press(BLACK if colour == "B" else WHITE, t)
        run(app, hw, t, t + 100)
        t += 100
        if game.phase == OVER:
            break
    assert game.result.sgf() == "0" and app.clock.stopped
    left = app.clock.snapshot(t).black.main_ms
    run(app, hw, t, t + 15000)
    assert app.clock.snapshot(t + 15000).flag is None and app.clock.snap.black.main_ms == left


def test_play_resumed_after_counting_restarts_the_clock():
    hw, app, pipe, t = _running()
    t = _passes(hw, app, pipe, t)
    clock = app.clock
    side = clock.turn  # White's: Black's pass was a press
    paused_at = clock.snapshot(t).sides[side].main_ms
    press(app, hw, B_PAUSE, t)  # PAUSE cannot start it while counting
    run(app, hw, t + 120, t + 3000)
    assert clock.snapshot(t + 3000).paused and clock.snap.sides[side].main_ms == paused_at
    assert app.control("resume", t + 3000)
    assert app.game.phase == PLAYING and not clock.snapshot(t + 3000).paused
    run(app, hw, t + 3000, t + 5000)
    assert clock.snapshot(t + 5000).sides[side].main_ms == paused_at - 2000  # its time runs again


def test_a_stone_after_the_passes_resumes_play_and_its_clock():
    hw, app, pipe, t = _running()
    t = _passes(hw, app, pipe, t)
    clock = app.clock
    before = clock.snapshot(t).white.main_ms
    hw.stones.place(point(app, 2, 6), WHITE)  # White plays on: the counting is off
    run(app, hw, t, t + 400)
    assert app.game.phase == PLAYING and app.game.move_number == 4
    assert not clock.paused and clock.snapshot(t + 400).white.main_ms < before


def test_the_journal_keeps_the_counting_pause():
    from harness import power_up

    from twins.storage import SimStorage

    hw, app = board(SimStorage(), size=9, time_spec=TIME)
    run(app, hw, 0, 100)
    hw.stones.place(point(app, 4, 4), BLACK)
    run(app, hw, 100, 400)
    press(app, hw, B_BLACK, 400)
    t = _passes(hw, app, None, 520)
    assert app.game.phase == COUNTING
    again = power_up(hw, now_ms=t + 5000)  # a power cut while counting
    run(again, hw, t + 5000, t + 20000)
    assert again.game.phase == COUNTING and again.clock.snapshot(t + 20000).flag is None
    assert again.control("resume", t + 20000)
    assert not again.clock.snapshot(t + 20000).paused


def test_the_agreement_takes_the_count_shown_and_counts_nothing_again():
    # MENU while counting: the result is the score of the count the board shows (its slices
    # spread over loop passes), not a count made again in the agreement's pass.
    hw, app, pipe, t = _running()
    t = _passes(hw, app, pipe, t)
    run(app, hw, t, t + 200)  # the count's passes
    game = app.game
    counts = []
    count = game.count
    game.count = lambda: counts.append(1) or count()
    press(app, hw, B_MENU, t + 200)
    assert game.phase == OVER and not counts
    game.count = count
    assert game.result.sgf() == game.result_of(game.count()).sgf() != "Void"

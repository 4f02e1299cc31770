"""The device's own loop, ``App.run()``: step(), then sleep until the next stage is due.

It runs on a virtual clock: ``sleep_ms`` moves the clock on and yields, once,
to whatever drives the coroutine. On CPython that is asyncio's event loop;
MicroPython's WebAssembly port has no ``asyncio.run``, so there the test
drives the coroutine by hand, as an event loop does.
"""

import sys

from harness import board, point, press, run

from firmware.drivers.buttons import B_BLACK
from firmware.rules.position import BLACK, WHITE

MP = sys.implementation.name == "micropython"


class Yield:
    """An awaitable that yields once to the driver (asyncio takes a bare yield as 'run others')."""

    def __iter__(self):
        yield

    __await__ = __iter__


class VirtualTime:
    """The loop's clock and sleep; ``at(t, fn)`` runs fn when the virtual clock passes t."""

    def __init__(self, app, until):
        self.app = app
        self.now = 0
        self.until = until
        self.sleeps = []
        self.todo = []

    def ticks(self):
        return self.now

    def at(self, t, fn):
        self.todo.append((t, fn))

    async def sleep_ms(self, ms):
        self.sleeps.append(ms)
        self.now += ms if ms > 0 else 1
        for t, fn in list(self.todo):
            if t <= self.now:
                self.todo.remove((t, fn))
                fn()
        if self.now >= self.until:
            self.app.running = False
        await Yield()


def drive(app, virtual):
    """Run app.run() with the virtual clock to its end."""
    loop = app.run(virtual.ticks, virtual.sleep_ms)
    if MP:
        try:
            while True:
                loop.send(None)
        except StopIteration:
            pass
    else:
        import asyncio

        asyncio.run(loop)


def test_run_is_step_in_a_loop_with_sleeps():
    hw, app = board(size=9, time_spec="byoyomi 1m 3x10s")
    virtual = VirtualTime(app, 2000)
    centre = point(app, 4, 4)

    def stone():
        hw.stones.set_time(virtual.now)
        hw.stones.place(centre, BLACK)

    virtual.at(100, stone)
    drive(app, virtual)
    assert not app.running and virtual.now >= 2000
    assert app.game.move_number == 1 and app.timekeeper.started  # scanned, settled, refereed, clock started
    assert hw.strip.lit() and hw.display.frames > 0  # LEDs composed and sent, clock faces drawn
    assert max(virtual.sleeps) <= 10 and min(virtual.sleeps) >= 0  # it sleeps until the next stage is due
    assert 150 <= len(virtual.sleeps) <= 400  # about one round every 10 ms over 2 s


def test_a_failing_stage_is_reported_and_the_others_go_on():
    hw, app = board(size=9, time_spec="absolute 10m")

    class BrokenDisplay:  # (an OSError, its I/O failing, drops the part instead: test_parts_missing.py)
        pending = 0

        def update(self, clock):
            raise ValueError("a bug")  # in the code a stage runs

    hw.display = BrokenDisplay()
    virtual = VirtualTime(app, 1500)

    def stone():
        hw.stones.set_time(virtual.now)
        hw.stones.place(point(app, 2, 2), BLACK)

    virtual.at(100, stone)
    drive(app, virtual)
    assert app.errors >= 10 and isinstance(app.last_error, ValueError)  # every display round failed, reported
    assert app.game.move_number == 1 and hw.strip.lit()  # scanning, the referee and the LEDs went on


def test_stones_placed_during_a_long_step_are_recorded():
    """The longest step of a loop pass (a journal compaction, a count: ~135 ms on an RP2040,
    make bench) only delays the next pass: stones put down meanwhile settle and are played."""
    hw, app = board(size=9, time_spec="byoyomi 1m 3x10s")

    def passes(start, end, every):
        for t in range(start, end, every):
            hw.stones.set_time(t)
            app.step(t)

    passes(0, 1000, 10)
    hw.stones.set_time(1005)
    hw.stones.place(point(app, 4, 4), BLACK)  # while a pass runs until 1200
    passes(1200, 1500, 10)
    assert app.game.move_number == 1, app.game.move_number
    press(app, hw, B_BLACK, 1500)  # White's turn
    hw.stones.set_time(1705)
    hw.stones.place(point(app, 2, 6), WHITE)
    passes(1800, 3000, 200)  # from now on every pass is a 200 ms step
    assert app.game.move_number == 2, app.game.move_number


def test_counting_begins_over_passes_each_with_one_long_job():
    # The second clock press stops play. The dead stones the board proposes, the count
    # (the board labelled, then its seki search and tally) and its map each take tens of
    # ms on a Pico: each comes in a pass of its own, after the pass that took the press
    # (docs/device.md, the loop's times), with the host's stage (the journal, the link) in
    # a pass between two. The proposal's code comes and goes before the count's is loaded
    # (the Counter made, in a pass of its own before the count's): never both in the heap.
    from firmware.leds import marks as mk
    from firmware.rules.game import COUNTING

    hw, app = board(size=9, time_spec="absolute 10m")
    t = 0
    jobs = []  # (pass, job) as they run
    passes = [0]
    game = app.game
    counter = game.counter

    def made():
        made = counter()
        if "begin" not in made.__dict__:  # (the Counter's parts, logged on this one)
            begin, more = made.begin, made.more

            def begun():
                jobs.append((passes[0], "count"))
                begin()

            def went_on(points):
                jobs.append((passes[0], "seki"))
                return more(points)

            made.begin, made.more = begun, went_on
        return made

    game.counter = made

    def step(until):
        nonlocal t
        while t < until:
            hw.stones.set_time(t)
            proposed = app.referee.proposed
            app.step(t)
            if app.referee.proposed is not proposed and app.referee.proposed is not None:
                jobs.append((passes[0], "proposal"))
            if game.phase == COUNTING and not any(job == "press" for _, job in jobs):
                jobs.append((passes[0], "press"))
            if game._counter is not None and not any(job == "counter" for _, job in jobs):
                jobs.append((passes[0], "counter"))
            passes[0] += 1
            t += 10

    moves = ((BLACK, 2, 2), (WHITE, 6, 6))  # two lone stones: the board proposes both dead
    for colour, col, row in moves:
        hw.stones.place(point(app, col, row), colour)
        step(t + 300)
        hw.buttons.hold(colour - 1)
        step(t + 60)
        hw.buttons.release(colour - 1)
        step(t + 60)
    for colour in (BLACK, WHITE):  # two presses without a stone: two passes
        hw.buttons.hold(colour - 1)
        step(t + 60)
        hw.buttons.release(colour - 1)
        step(t + 60)
    step(t + 100)
    assert game.phase == COUNTING
    long = [(n, job) for n, job in jobs if job != "counter"]
    assert [job for _, job in long][:4] == ["press", "proposal", "count", "seki"], jobs
    assert len(set(n for n, _ in long)) == len(long), jobs  # one long job a pass
    made = [n for n, job in jobs if job == "counter"]
    first = [n for n, job in long if job == "count"][0]
    assert len(made) == 1 and made[0] < first and made[0] not in [n for n, _ in long], jobs  # the count's code: a pass of its own
    passes_of = sorted([n for n, _ in long] + made)
    assert all(b - a >= 2 for a, b in zip(passes_of, passes_of[1:])), jobs  # the host's pass between two
    assert app.referee.job is None and not app.jobs  # nothing left for later
    bits = app.marks.bits
    assert bits[point(app, 2, 2)] & mk.LIFT and bits[point(app, 6, 6)] & mk.LIFT  # both lone stones proposed dead
    shown = bytes(bits)
    app.referee.jobs = None
    app.referee.paint()  # all at once, as a referee without the app's jobs paints
    assert bytes(app.marks.bits) == shown


def test_a_settled_stone_is_journalled_and_told_in_the_next_pass():
    # One long job a pass: the pass whose referee records the move leaves the journal
    # and the link to the next one, 10 ms later.
    from twins.storage import SimStorage

    hw, app = board(SimStorage(), size=9)
    t = 0
    hw.stones.place(point(app, 2, 2), BLACK)
    while app.game.move_number == 0:
        records = app.journal.records
        hw.stones.set_time(t)
        app.step(t)
        t += 10
        assert t < 2000, "the stone was never settled"
    assert app.journal.records == records  # not in the pass that decided
    hw.stones.set_time(t)
    app.step(t)
    assert app.journal.records > records  # the next pass wrote it


def test_a_pass_with_a_decision_leaves_the_leds_the_clock_face_and_the_host_to_the_next():
    # One long job a pass: the pass whose referee records a move runs no other stage after
    # the buttons' tick; the host's stage (the journal) comes next pass, then the LEDs' compose,
    # then a redraw due, each in a pass of its own.
    hw, app = board(size=9)
    ran = []  # (pass, stage)
    n = [0]
    app.stages = tuple((lambda now_ms, i=i, stage=stage: (ran.append((n[0], i)), stage(now_ms)))
                        for i, stage in enumerate(app.stages))
    deciding = []
    t = 0
    for col, row in ((2, 2), (6, 6), (2, 6), (6, 2)):
        colour = app.game.to_move
        hw.stones.place(point(app, col, row), colour)
        moves = app.game.move_number
        while app.game.move_number == moves:
            hw.stones.set_time(t)
            app._due[2] = app._due[3] = t  # (the LEDs and the clock face due in every pass)
            app.step(t)
            n[0] += 1
            t += 10
            assert t < 20000, "the stone was never settled"
        deciding.append(n[0] - 1)
        for _ in range(5):
            hw.stones.set_time(t)
            app.step(t)
            n[0] += 1
            t += 10
        press(app, hw, colour - 1, t)
        t += 200
        n[0] += 1000  # (press() stepped on its own)
    for k in deciding:
        assert {i for p, i in ran if p == k} <= {0, 1}, (k, [r for r in ran if r[0] == k])
        # the journal and the host a pass later, the new stone's lights the pass after, then the face:
        # each long job in a pass of its own
        # (the host's stage runs every pass: after the first, an idle poll)
        passes = [{i for p, i in ran if p == k + d} - {0, 1, 4} for d in (1, 2, 3)]
        assert passes == [set(), {2}, {3}] and 4 in {i for p, i in ran if p == k + 1}, (k, passes)


def test_code_let_go_in_play_is_collected_in_a_pass_of_its_own():
    # The host ends the game: its result is read with rules/result_sgf.py loaded for it, then let
    # go (rules/const.py call_briefly's later): the heap is collected in the next pass, a pass
    # that runs no stage and asks for the next at once, so no pass holds both.
    if sys.implementation.name != "micropython":
        return  # (CPython keeps the module: nothing to collect)
    from firmware import loop as loop_module

    hw, app = board(size=9)
    run(app, hw, 0, 100)
    t = 100
    collections = []
    stages = []
    collect = loop_module.collect
    loop_module.collect = lambda: collections.append(t)
    app.stages = tuple((lambda now_ms, i=i, stage=stage: (stages.append((t, i)), stage(now_ms)))
                       for i, stage in enumerate(app.stages))
    try:
        assert app.command("end", ["B+R"], t) is None
        ended = t
        waits = {}
        while t < ended + 100:
            t += 10
            waits[t] = app.step(t)
    finally:
        loop_module.collect = collect
    assert app.game.result is not None and app.game.result.sgf() == "B+R"
    assert collections == [ended + 10], (collections, ended)
    assert waits[ended + 10] == 0 and not [n for n, _ in stages if n == ended + 10]
    assert [n for n, _ in stages if n == ended + 20]  # the loop goes on

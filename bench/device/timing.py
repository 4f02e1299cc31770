"""The device loop's time budget, task by task, in MicroPython's unix port.

    MICROPYPATH=.frozen:build/named/mpy:.:tests/firmware micropython -X heapsize=4M bench/device/timing.py JOURNAL COLLECT_US FLASH_US [LOADS]

bench/device_time.py runs this on the device bundle with its constants'
names kept (build/named: ``scripts/mpy_bundle.py --keep-names``, the same
code as ``make mpy``'s, for the twins and test helpers beside it import
those names) and turns its lines into a table with RP2040 estimates. Each line printed is
``TASK name|typical us|worst us|runs|code|pace us``:
typical is the median, worst the maximum of ``runs`` timings with
time.ticks_us, pace the time of a fixed piece of bytecode just after
them (this PC's speed then: bench/device_time.py scales by it); code is ``bytecode``
(the x100 calibration holds) or ``calls`` (viper code calling C functions:
x100 holds for the calls, the driver bounds the viper code itself from
its instruction counts). Whole stages are timed on a real App on
twins (19x19, byo-yomi, a journal on a real file, a cable to a host); the
sensor twin's own read (a Python loop over the simulated stones, not the
device's transfer) and the display twin's drawing (a Python canvas that
also keeps each frame as text; the device's redraw is its own row, a few
ms) are left out of the stage timings; the firmware's collections and the
journal file's syncs, renames and removals are counted at the device's
times (bench/device_time.py gives them: COLLECT_US, FLASH_US), and so are
the loads of the code the firmware loads for a moment (LOADS:
``module=us,...``, bench/device/loads.py's on the device bundle).
"""

import builtins
import gc
import os
import sys
import time

import micropython
from harness import board
from pace import pace
from pro_games import longest_game

from firmware import loop as loop_module
from firmware.drivers.storage import FileStorage
from firmware.protocol import encode_command
from firmware.rules import const as rules_const
from firmware.rules.game import COUNTING
from firmware.rules.history import move_colour, move_point
from firmware.sensing.scanner import Scanner
from twins.link import Pipe
from twins.sensors import NullSensor

ticks_us = time.ticks_us
ticks_diff = time.ticks_diff
JOURNAL = sys.argv[1]
DEVICE_COLLECT_US = int(sys.argv[2])  # a collection of the device's heap, in this port (bench/device_time.py)
FLASH_COMMIT_US = int(sys.argv[3])  # a commit to the device's flash, in this port's time (bench/device_time.py)
left_out = [0]  # the time left out of the timings so far (as_on_device), growing: ints (a float is
# an object on the heap: tens of thousands of timings as floats filled this 4 MB heap, and every
# allocation in a nearly full heap is slow)
_NO = object()  # an argument not given


def as_on_device(fn, us):
    """``fn``, counted in the timings (``elapsed``) as ``us`` whatever it takes here: 0 for
    a twin's own work (a Python stand-in of hardware), the device's time for a collection
    (this 4 MB heap's takes longer) or a flash commit (a file's fsync here)."""
    def run(a=_NO, b=_NO):  # (no *args: its tuple would be allocated in the timings, at every call)
        t0 = ticks_us()
        done = fn() if a is _NO else fn(a) if b is _NO else fn(a, b)
        left_out[0] += ticks_diff(ticks_us(), t0) - us
        return done
    return run


def elapsed(t0, left0):
    """The time since ``ticks_us()`` was ``t0`` and ``left_out[0]`` was ``left0``, what was
    left out meanwhile taken out."""
    return ticks_diff(ticks_us(), t0) - (left_out[0] - left0)


rules_const.collect = loop_module.collect = as_on_device(gc.collect, DEVICE_COLLECT_US)  # (the firmware's)

DEVICE_LOADS = {name: int(us) for name, us in (item.split("=") for item in sys.argv[4].split(","))} if sys.argv[4:] else {}
_import = builtins.__import__


def device_import(name, globals=None, locals=None, fromlist=(), level=0):
    """Loading a module the firmware loads for a moment (DEVICE_LOADS: bench/device/loads.py's
    figures) counted as long as the device takes to load it from its own bundle: this names-kept
    build imports more, beside thousands more names to search. (Imports here are absolute.)"""
    us = DEVICE_LOADS.get(name)
    if us is None or name in sys.modules:
        return _import(name, globals, locals, fromlist, level)
    t0 = ticks_us()
    module = _import(name, globals, locals, fromlist, level)
    left_out[0] += ticks_diff(ticks_us(), t0) - us
    return module


builtins.__import__ = device_import


def report(name, times, code="bytecode"):
    """A TASK line: the median and the maximum of ``times``, and the pace just after them."""
    times.sort()
    print("TASK %s|%.2f|%.2f|%d|%s|%d" % (name, times[len(times) // 2], times[-1], len(times), code, pace()))


def timed(fn, runs, prepare=None, batch=1):
    """``runs`` timings of fn(i); each the mean of ``batch`` calls (tasks shorter
    than the ticks' microsecond)."""
    times = []
    for i in range(runs):
        if prepare is not None:
            prepare(i)
        t0, left0 = ticks_us(), left_out[0]
        for _ in range(batch):
            fn(i)
        times.append(elapsed(t0, left0) / batch)
    return times


def scans():
    for nbytes, bpp, label in ((46, 1, "1-bit presence"), (91, 2, "2-bit polarity")):
        scanner = Scanner(NullSensor(nbytes, bpp))
        scanner.scan(0)
        report("Scanner.scan idle, " + label, timed(lambda i, s=scanner: s.scan(10 * i), 300, batch=20))
        raw = scanner.raw
        changes = []
        settles = []
        t = 0
        for _ in range(1000):
            raw[20] ^= 1  # a point's reading changes: decoded, pending...
            t0 = ticks_us()
            scanner.scan(t)
            changes.append(ticks_diff(ticks_us(), t0))
            t += scanner.settle_ms
            t0 = ticks_us()
            if not scanner.scan(t):  # ...and settles settle_ms later
                raise AssertionError("the change did not settle")
            settles.append(ticks_diff(ticks_us(), t0))
            t += 10
        report("Scanner.scan with a change, " + label, changes)
        report("Scanner.scan settling a change, " + label, settles)


class NullI2C:
    """The display's I2C bus, taking every frame at once."""

    def writeto(self, addr, buf):
        return None


def on_device(part, names, us):
    """``part``'s methods ``names`` counted as ``us`` each in the timings (as_on_device)."""
    for name in names:
        setattr(part, name, as_on_device(getattr(part, name), us))


class Stages:
    """The App's stages and step wrapped with timers (the twins' read and drawing left out)."""

    def __init__(self, app, hw):
        self.app = app
        self.times = [[] for _ in app._stages]
        self.steps = []
        self.decisions = []  # sense stages in which a move was recorded
        self.appends = []  # host stages that journalled a record
        on_device(hw.sensor, ("read",), 0)
        on_device(hw.display, ("update", "words"), 0)
        self.plain = app._stages  # the idle pass is timed without the per-stage timing around them
        app._stages = tuple(self._wrap(i, stage) for i, stage in enumerate(app._stages))

    def _wrap(self, i, stage):
        def run(now_ms):
            app = self.app
            moves = app.game.move_number
            records = app.journal.records
            t0, left0 = ticks_us(), left_out[0]
            stage(now_ms)
            us = elapsed(t0, left0)
            self.times[i].append(us)
            if i == 0 and app.game.move_number != moves:
                self.decisions.append(us)
            if i == 4 and app.journal.records != records:
                self.appends.append(us)
        return run

    def step(self, now_ms):
        t0, left0 = ticks_us(), left_out[0]
        self.app.step(now_ms)
        self.steps.append(elapsed(t0, left0))


def game(moves=200):
    """A professional game played by hands: a stone, its settle, the clock press,
    captures lifted. Every stage and step timed."""
    record = longest_game("tests/data/pro_games.txt")
    pipe = Pipe()
    for suffix in ("", ".new"):
        try:
            os.remove(JOURNAL + suffix)
        except OSError:
            pass
    storage = FileStorage(JOURNAL)
    on_device(storage, ("flush", "replace", "remove"), FLASH_COMMIT_US)  # (a file's fsync here)
    hw, app = board(storage, pipe.board, size=19, time_spec="byoyomi 5m 3x30s")
    stages = Stages(app, hw)
    phys = app.referee.region.phys_of
    t = 0

    def run(until):
        nonlocal t
        while t < until:
            hw.stones.set_time(t)
            stages.step(t)
            t += 10
        pipe.take()

    run(100)
    for colour, pt in record.moves[:moves]:
        if pt == 0:
            continue
        hw.stones.place(phys[pt], colour)
        run(t + 300)
        hw.buttons.hold(colour - 1)
        run(t + 60)
        hw.buttons.release(colour - 1)
        run(t + 60)
        cells = app.game.pos.cells
        for p in range(len(phys)):
            if phys[p] != 0xFFFF and not cells[p] and hw.stones.colour[phys[p]]:
                hw.stones.lift(phys[p])
        run(t + 200)
    if app.game.move_number < moves * 9 // 10:
        raise AssertionError("the game stopped at move %d" % app.game.move_number)
    names = ("sense", "tick (buttons, clock, buzzer)", "render (LEDs)", "show_clock (display)",
             "sync_host (journal, link poll)")
    for i, name in enumerate(names):
        report("App.%s, in the game" % name, stages.times[i])
    report("App.sense with a referee decision (a new stone settled)", stages.decisions)
    report("App.sync_host journalling a move (Recorder.record)", stages.appends)
    report("App.step, worst in a %d-move game (all steps)" % app.game.move_number, stages.steps)
    return hw, app, pipe, stages, t


class CPin:
    """A button's pin as the device reads it, a C call (machine.Pin.value): released, the
    pull-up's level (``micropython.stack_use``: a non-zero count without arguments)."""

    def __init__(self):
        self.value = micropython.stack_use


class CUart:
    """A UART with nothing received, its ``any`` a C call as on the device (0:
    ``micropython.opt_level``)."""

    def __init__(self):
        self.any = micropython.opt_level


def idle(hw, app, stages, t):
    """Nothing happening: the 10 ms passes, sense, tick and host, every other one with the
    LEDs' render (20 ms), told apart by what the app has due (the display's pass is in the
    next row); then the pass with every stage due. The buttons and the host's cable are the
    device's drivers on C calls, as on the device (the twins' pins and pipe are Python)."""
    from firmware.drivers.serial_link import Uart

    quiet, lit = [], []
    due = app._due  # when each stage is next due, in the stages' order (render third, the display fourth)
    timed_stages = app._stages
    app._stages = stages.plain
    buttons = app.controls.buttons
    pins, transport = buttons.pins, app.link.transport
    buttons.pins = [CPin() for _ in pins]
    app.link.transport = Uart(CUart())
    for _ in range(300):
        t += 10
        hw.stones.set_time(t)
        if ticks_diff(due[3], t) > 0:
            stages.steps = lit if ticks_diff(due[2], t) <= 0 else quiet
            stages.step(t)
        else:
            app.step(t)
    app._stages = timed_stages
    buttons.pins, app.link.transport = pins, transport
    report("App.step idle: sense + tick + link poll (10 ms pass)", quiet)
    report("App.step idle: sense + tick + render + link poll (the other 10 ms pass)", lit)
    stages.steps = []
    for _ in range(100):
        t += 100
        hw.stones.set_time(t)
        stages.step(t)
    report("App.step idle, every stage due", stages.steps)
    return t


def journal_and_host(app, pipe, t):
    recorder = app.recorder
    limit = recorder.limit
    longest = []
    totals = []
    for _ in range(20):  # a compaction from its first slice to the rename, one record() a loop pass
        recorder.limit = 0  # due now
        slices = []
        while not slices or recorder.compacting:
            t += 10
            t0, left0 = ticks_us(), left_out[0]
            recorder.record(t, app.clock, app.link.next)
            slices.append(elapsed(t0, left0))
            recorder.limit = limit
        longest.append(max(slices))
        totals.append(sum(slices))
    moves = app.game.move_number
    report("Journal compaction, longest slice (%d moves, on a file)" % moves, longest)
    report("Journal compaction, its %d slices together (one a loop pass)" % len(slices), totals)
    for command in ("state", "hello"):
        data = encode_command(command)

        def answer(i):
            app.link.poll(t + i)

        report("host command '%s' (Link.poll reads, answers)" % command,
               timed(answer, 100, lambda i, data=data: (pipe.take(), pipe.send(data))))


def passes(hw, stages, t, n=40):
    """``n`` timed 10 ms loop passes from ``t``, this 4 MB heap collected before each (its
    collection inside a pass would count as the pass's: the twins' garbage, not the
    firmware's); the time after them."""
    for _ in range(n):
        t += 10
        hw.stones.set_time(t)
        gc.collect()
        stages.step(t)
    return t


def counting(hw, app, stages, t):
    """Both players press their clock without a stone (two passes): the longest pass from the
    first press until the count is shown (the referee's decision, the count, its map, the LEDs)."""
    game = app.game
    stages.steps = []
    for _ in range(2):
        button = game.to_move - 1
        hw.buttons.hold(button)
        t = passes(hw, stages, t)
        hw.buttons.release(button)
        t = passes(hw, stages, t)
    if game.phase != COUNTING:
        raise AssertionError("two clock presses without a stone did not start the count")
    report("App.step, the longest pass as the count starts (decision, count, map, LEDs)", [max(stages.steps)])
    return t


def agreed(hw, app, stages, t):
    """MENU while counting: the players agree to the count shown (referee/buttons.py "ok"),
    the result set (or, dame still open under rules that fill them, refused)."""
    game = app.game
    stages.steps = []
    hw.buttons.hold(3)
    t = passes(hw, stages, t, 6)
    hw.buttons.release(3)
    t = passes(hw, stages, t)
    ended = game.result is not None
    if not ended and app.referee.reason != "dame_open":
        raise AssertionError("MENU while counting did nothing: %r" % app.referee.reason)
    report("App.step, the longest pass as MENU agrees to the count (%s)"
           % ("the result set" if ended else "refused: dame open"), [max(stages.steps)])
    return t


def count(app):
    """The count as the referee spreads it over loop passes (referee/phases.py catch_up):
    the board labelled, the seki search a slice a pass, the map on the LEDs, on the board as
    counting begins (the proposed dead stones lit, none lifted yet: no dead marks); the
    proposal; the count whole."""
    from firmware.referee.states import OWED_COUNT, OWED_SEKI
    from firmware.rules.dead import propose

    game = app.game
    referee = app.referee
    parts = ([], [], [])  # the labelling, the seki slices, the map
    for _ in range(20):
        referee.owed = OWED_COUNT
        while referee.owed:
            part = 0 if referee.owed & OWED_COUNT else 1 if referee.owed & OWED_SEKI else 2
            t0, left0 = ticks_us(), left_out[0]
            referee.catch_up()
            parts[part].append(elapsed(t0, left0))
    report("count, its first pass: the board labelled (Counter.begin)", parts[0])
    report("count, a pass of its seki search (Counter.more, %d passes)" % (len(parts[1]) // 20), parts[1])
    report("count, its map on the LEDs (the referee's count_map)", parts[2])
    report("dead-stone proposal, 19x19 after %d moves (rules/dead.py propose)" % game.move_number,
           timed(lambda i: propose(game), 20, lambda i: game.clear_dead()))  # (the same marks left)
    report("count, whole (Game.count: a host's end; the referee's spread over passes)",
           timed(lambda i: game.count(), 20))


def leds_and_display():
    from firmware.clock import Clock
    from firmware.drivers.clock_display import ClockDisplay, Ssd1306
    from firmware.leds import CASUAL, Leds
    from firmware.leds.marks import HINT, PUT_BACK, Marks

    leds = Leds(mode=CASUAL, brightness=255, budget_ma=2000)
    marks = Marks()
    for p in range(361):
        marks.set(p, HINT if p & 1 else PUT_BACK, 2)
    leds.update(marks, 0)

    def compose(i):
        marks.version += 1
        leds.update(marks, 0)

    report("Leds.update, full compose (every mark changed)", timed(compose, 300))

    clock = Clock("byoyomi 5m 3x30s")
    display = ClockDisplay(Ssd1306(NullI2C()))
    clock.start(0, 1)
    clock.snapshot(0)
    display.update(clock)

    def redraw(i):
        clock.snapshot(1000 * (i + 1))
        display.update(clock)

    report("ClockDisplay redraw (Ssd1306, framebuf, i2c stand-in)", timed(redraw, 200))


def drivers():
    """The other variants' drivers on a bus that does nothing (Python stand-ins)."""
    from firmware.drivers.matrix import DiodeMatrix
    from firmware.drivers.shift165 import ShiftChain

    class NullBus:
        def write_readinto(self, tx, rx):
            pass

        def value(self, v=None):
            return 0

        def writeto_mem(self, addr, reg, buf):
            pass

        def readfrom_mem_into(self, addr, reg, buf):
            pass

    bus = NullBus()
    for driver in (ShiftChain(bus, bus), DiodeMatrix(bus)):
        buf = bytearray(driver.nbytes)
        report("%s.read (null bus)" % type(driver).__name__, timed(lambda i, d=driver, b=buf: d.read(b), 200))


def hall():
    """HallArray on stand-ins that are C functions, as the device's are: a
    select line is called (machine.Pin; ``abs``), an ADC's read_u16 and the
    clock are C calls without arguments (``micropython.stack_use``: a
    mid-scale count, the same at every read from one depth; time.ticks_us
    reads a timer register on an RP2040, but is a clock_gettime on the unix
    port, twice a plain call's time). The conversions and the settling are
    hardware time, added by the driver (settle_us 0 here). Timed: the Python
    path's sweep and its sleep_us calls; the viper path's whole read (its
    calls and read()'s Python; the viper code's own time is bounded by the
    driver from its Thumb code); the Python classification on a mid-game
    board's samples."""
    from firmware.drivers.hall import HallArray
    from twins.hall import SimHallBus
    from twins.stones import Stones

    call = micropython.stack_use

    class Adc:
        def __init__(self):
            self.read_u16 = call

    def stand_ins(native):
        hall = HallArray([Adc(), Adc()], [abs] * 4, [abs] * 4, native=native)
        hall._clock = call
        return hall

    sweep = stand_ins(False)
    report("HallArray.sample, Python path (mux sweep, 361 ADC reads)", timed(lambda i: sweep.sample(), 200))
    sleep_us = time.sleep_us

    def settle_calls(i):
        for _ in range(192):
            sleep_us(0)

    report("time.sleep_us(0) x 192 (the Python path's settle calls)", timed(settle_calls, 200))
    whole = stand_ins(True)
    if whole.native:
        names = {"micropython": micropython}
        exec("@micropython.viper\ndef calls(f, n: int):\n    while n:\n        int(f())\n        n -= 1", names)
        calls = names["calls"]
        report("the clock x 192 from viper code (the viper path's settling: a check more a step)",
               timed(lambda i: calls(call, 192), 200, None, 5), "calls")
        buf = bytearray(whole.nbytes)
        timed(lambda i: whole.read(buf), 1)  # the samples, read as deep in the stack as below
        level = whole.samples[0]

        # Baselines 10 below the samples on odd points (they track, a step of 3) and 5000 above on
        # even ones (white, held): the read does every part of its work, the held points' nudge too.
        def baselines(i):
            for p in range(whole.points):
                whole.baseline[p] = (level - 10 if p & 1 else level + 5000) << 4

        report("HallArray.read, viper path: its calls and Python (stand-ins)",
               timed(lambda i: whole.read(buf), 200, baselines, 5), "calls")
        if not 512 < level < 65024 or whole._sums[1] * whole._sums[2] == 0:
            raise AssertionError("the stand-ins did not exercise the whole read: %d, %r"
                                 % (level, list(whole._sums)))
    else:
        print("NOTE no viper in this port")
    stones = Stones()
    bus = SimHallBus(stones, noise=60)
    driver = bus.driver(native=False)
    driver.calibrate()  # on the empty board, then half of it covered
    for p in range(0, 361, 2):
        stones.place(p, 1 + (p >> 1) % 2)
    buf = bytearray(driver.nbytes)
    driver.read(buf)
    driver.sample = lambda: None  # classify the same samples again and again
    report("HallArray classify, Python path (181 stones)", timed(lambda i, d=driver, b=buf: d.read(b), 200))


def rare(hw, app, stages, t, times=5):
    """The longest loop pass as a stone where the side to move may not play is refused (a
    casual game: no penalty, nothing loaded), then lifted; as a rare event whose code is loaded
    for it (rules/const.py call_briefly's later: collected in the next pass, a pass of its own)
    is handled: MENU taking the last move back (referee/buttons.py), the stone then lifted and
    the move played again. ``times`` times each: single passes, so one preempted by this PC
    shows in the worst column only."""
    game = app.game
    phys = app.referee.region.phys_of
    cells = game.pos.cells
    illegal = next((p for p in range(len(phys)) if phys[p] != 0xFFFF and not cells[p]
                    and not game.is_legal(game.to_move, p)), None)
    if illegal is None:
        raise AssertionError("no point where the side to move may not play")
    k = game.hist.length - 1
    if game.hist.removed_end[k] != game.hist.removed_start(k):
        raise AssertionError("the last move captured: taking it back asks for its stones again")
    record = game.hist.moves[k]
    refusals, undos = [], []
    for _ in range(times):
        stages.steps = []
        hw.stones.place(phys[illegal], game.to_move)
        t = passes(hw, stages, t)
        if app.referee.rejected == 0xFFFF:
            raise AssertionError("the stone was not refused")
        refusals.append(max(stages.steps))
        hw.stones.lift(phys[illegal])
        t = passes(hw, stages, t)
        moves = game.move_number
        stages.steps = []
        hw.buttons.hold(3)  # MENU: in a casual game, the last move taken back
        t = passes(hw, stages, t, 6)
        hw.buttons.release(3)
        t = passes(hw, stages, t)
        if game.move_number != moves - 1:
            raise AssertionError("MENU took nothing back")
        undos.append(max(stages.steps))
        hw.stones.lift(phys[move_point(record)])
        t = passes(hw, stages, t)
        hw.stones.place(phys[move_point(record)], move_colour(record))  # the move again, and its clock
        t = passes(hw, stages, t)
        hw.buttons.hold(move_colour(record) - 1)
        t = passes(hw, stages, t, 6)
        hw.buttons.release(move_colour(record) - 1)
        t = passes(hw, stages, t)
        if game.move_number != moves:
            raise AssertionError("the move was not played again")
    report("App.step, the longest pass as a stone is refused (casual: nothing loaded)", refusals)
    report("App.step, the longest pass as MENU takes a move back (its code loaded for it)", undos)
    return t


def main():
    scans()
    leds_and_display()
    drivers()
    hall()
    hw, app, pipe, stages, t = game()
    t = idle(hw, app, stages, t)
    t = rare(hw, app, stages, t)
    journal_and_host(app, pipe, t)
    t = counting(hw, app, stages, t + 1000)
    agreed(hw, app, stages, t)
    count(app)


main()

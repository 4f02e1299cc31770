"""The loop's passes timed on the device itself (the emulated Pico): bench/pico_game.py's probe.

bench/pico_game.py deploys this file as /probe.py and a main.py that is
firmware/main.py with ``probe.install(app)`` just before the loop starts.
It wraps ``app._pass`` (the loop pass) and each stage with ``time.ticks_us`` (the Pico's
own clock), and after each pass keeps: the number of passes, the idle
passes' times (sense, tick and the host stage only: no LED frame, no
redraw, nothing decided), the longest passes (with each stage's share)
and the heap's worst point: the least ``gc.mem_free()`` after a
collection, looked at every ``HEAP_EVERY`` passes (a look costs ~8 ms:
the collector's table is scanned; and a collection makes the next call of
any function whose frame MicroPython takes from the heap slower, see
firmware/micro.py: so a timing run turns the looks off,
``install(app, heap_every=0)``, and a heap run is another) and collected only when the heap
with its garbage has less free than the least seen (then no point with
less free live data can hide). The probe's own time (the look, its
collections) is in no pass, but its stage timers (~25 us a stage) are:
a timing run goes without them, ``install(app, stages=False)``, and
tells the stages a pass ran by the dues that moved. ``report()`` prints
one line a figure.
"""

import gc
import time
from array import array

from micropython import const

_LONGEST = const(12)
_BUCKETS = (1000, 2000, 5000, 10000, 20000, 50000, 100000)  # us: passes at least this long
HEAP_EVERY = 10
_NAMES = ("sense", "tick", "render", "show_clock", "sync_host", "collect")

ticks_us = time.ticks_us
ticks_diff = time.ticks_diff


class Probe:
    def __init__(self, app, stages=True):
        self.app = app
        self.stages = stages
        self.passes = 0
        self.stage_us = array("i", [0] * len(_NAMES))  # this pass's
        self.stage_max = array("i", [0] * len(_NAMES))
        self.idle = array("i", [0] * 512)  # a histogram of idle passes, 10 us a bin (the last: longer)
        self.idle_n = 0
        self.idle_max = 0
        self.idle_stage = array("i", [0] * len(_NAMES))  # the idle passes' stage times, summed (ms: us // 1000 each)
        self.idle_stage_us = array("i", [0] * len(_NAMES))  # ... their remainders
        self.buckets = array("i", [0] * len(_BUCKETS))
        self.longest = []  # (us, emulated ms at its start, mask, stage us...)
        self.least_free = 1 << 30
        self.least_at = 0
        self.looks = 0
        step = app._pass  # (the device's loop runs the pass itself)
        stage_us = self.stage_us

        # The wrappers keep their frames within 11 words, as the loop's own functions do (a larger
        # frame is taken from the heap at each call: firmware/micro.py), so the probe adds only
        # its clock reads to what it times.
        def timed_stage(i, fn):
            def run(now_ms):
                t0 = ticks_us()
                fn(now_ms)  # (a stage that raises is not timed: the loop counts it)
                stage_us[i] += ticks_diff(ticks_us(), t0)
            return run

        if stages:  # (~25 us a stage: the timing runs go without, the stages run told by their dues)
            app.stages = tuple(timed_stage(i, fn) for i, fn in enumerate(app.stages))
        due = app._due
        before = self.due_before = array("i", due)

        def timed_pass(now_ms):
            for i in range(len(due)):
                before[i] = due[i]
            t0 = ticks_us()
            wait = step(now_ms)
            self._pass(ticks_diff(ticks_us(), t0), wait)
            return wait

        app._pass = timed_pass

    def _pass(self, us, wait):
        self.passes += 1
        stage_us = self.stage_us
        ran = 0
        due = self.app._due
        for i in range(len(due)):  # (stages timed: those timed; else those whose due moved, put off ones too)
            if stage_us[i] if self.stages else due[i] != self.due_before[i]:
                ran |= 1 << i
        if not ran and wait == 0:  # the pass that collects what call_briefly let go
            ran = 1 << 5
            stage_us[5] = us
        for i in range(len(_NAMES)):
            if stage_us[i] > self.stage_max[i]:
                self.stage_max[i] = stage_us[i]
        for i in range(len(_BUCKETS)):
            if us >= _BUCKETS[i]:
                self.buckets[i] += 1
        if ran == 0b10011 and self.app.host_waits == 0:  # sense, tick, host: an idle pass
            self.idle[min(us // 10, len(self.idle) - 1)] += 1
            self.idle_n += 1
            if us > self.idle_max:
                self.idle_max = us
            for i in range(len(_NAMES)):
                v = self.idle_stage_us[i] + stage_us[i]
                self.idle_stage[i] += v // 1000
                self.idle_stage_us[i] = v % 1000
        longest = self.longest
        if len(longest) < _LONGEST or us > longest[-1][0]:
            longest.append((us, time.ticks_ms(), ran) + tuple(stage_us))
            longest.sort(reverse=True)
            del longest[_LONGEST:]
        for i in range(len(_NAMES)):
            stage_us[i] = 0
        if HEAP_EVERY and self.passes % HEAP_EVERY == 0:
            self.looks += 1
            if gc.mem_free() < self.least_free:
                gc.collect()
                free = gc.mem_free()
                if free < self.least_free:
                    self.least_free = free
                    self.least_at = time.ticks_ms()

    def idle_percentile(self, q):
        """The idle passes' time (us, to 10) at or under which ``q`` of them are."""
        want = q * self.idle_n
        seen = 0
        for i in range(len(self.idle)):
            seen += self.idle[i]
            if seen >= want:
                return (i + 1) * 10
        return 0

    def report(self):
        print("PROBE passes %d" % self.passes)
        print("PROBE errors n=%d last=%s" % (self.app.errors, repr(self.app.last_error).replace(" ", "_")))
        print("PROBE idle n=%d median_us=%d p90_us=%d p99_us=%d max_us=%d" % (
            self.idle_n, self.idle_percentile(0.5), self.idle_percentile(0.9), self.idle_percentile(0.99),
            self.idle_max))
        n = self.idle_n or 1
        print("PROBE idle_stage_mean_us " + " ".join("%s=%d" % (name, (self.idle_stage[i] * 1000 + self.idle_stage_us[i]) // n)
                                                     for i, name in enumerate(_NAMES)))
        print("PROBE buckets " + " ".join("%d=%d" % (_BUCKETS[i], self.buckets[i]) for i in range(len(_BUCKETS))))
        print("PROBE stage_max " + " ".join("%s=%d" % (_NAMES[i], self.stage_max[i]) for i in range(len(_NAMES))))
        for item in self.longest:
            print("PROBE long us=%d at_ms=%d stages=%s %s" % (
                item[0], item[1], "+".join(n for i, n in enumerate(_NAMES) if item[2] >> i & 1),
                " ".join("%s=%d" % (_NAMES[i], item[3 + i]) for i in range(len(_NAMES)) if item[3 + i])))
        gc.collect()
        print("PROBE heap least_free=%d at_ms=%d looks=%d free_now=%d" % (
            self.least_free, self.least_at, self.looks, gc.mem_free()))


class Detail:
    """The parts of the stages timed too (``install(app, detail=True)``): each call's count, mean
    and how many took over 1 ms. Costs ~30 us a call: a diagnostic, not the figures."""

    PARTS = (("controls", "poll"), ("timekeeper", "tick"), ("timekeeper", "follow"), ("scanner", "scan"),
             ("follower", "follow"), ("recorder", "record"), ("link", "poll"), ("referee", "update"))

    def __init__(self, app):
        self.rows = []
        for owner, name in self.PARTS:
            obj = getattr(app, owner, None)
            if obj is not None:
                self.rows.append(self._wrap(obj, owner + "." + name, name))

    def _wrap(self, obj, label, name):
        row = [label, 0, 0, 0]  # label, calls, ms (rounded down, summed), calls over 1 ms
        fn = getattr(obj, name)
        rest = [0]

        def run(*args):
            t0 = ticks_us()
            try:
                return fn(*args)
            finally:
                us = ticks_diff(ticks_us(), t0) + rest[0]
                row[1] += 1
                row[2] += us // 1000
                rest[0] = us % 1000
                if us >= 1000:
                    row[3] += 1

        setattr(obj, name, run)
        return row

    def report(self):
        for label, calls, ms, over in self.rows:
            print("PROBE part %s calls=%d mean_us=%d over_1ms=%d" % (label, calls, ms * 1000 // (calls or 1), over))


probe = None
detail = None


def install(app, with_detail=False, heap_every=HEAP_EVERY, stages=True):
    global probe, detail, HEAP_EVERY
    HEAP_EVERY = heap_every
    probe = Probe(app, stages)
    if with_detail:
        detail = Detail(app)
    return probe


def report():
    if probe is not None:
        probe.report()
    if detail is not None:
        detail.report()

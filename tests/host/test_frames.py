"""An idle loop pass takes no frame from the heap: every function it calls keeps within 11 words.

MicroPython makes a call's frame on the C stack only when it needs at most 11 words (py/objfun.c
``VM_MAX_STATE_ON_STACK``: its locals, its deepest stack, 3 words a try block); a larger frame is
taken from the heap at each call and given back at its return, which ``gc.mem_alloc()`` never
shows. Finding room for it searches the heap's allocation table, and after a collection that search
starts at the heap's beginning and crosses every live block: on the emulated Pico with a game in
its heap each such call took ~0.45 ms more, which put the idle pass at 2-5 ms (firmware/micro.py).

The functions are found by running the assembled board's idle passes on CPython (``sys.setprofile``;
the real buttons, shift-register and flash-log drivers, on twins), their frames read from the unix
port's compiler (``micropython -v -v`` prints each code block's N_STATE and N_EXC_STACK).
"""

from __future__ import annotations

import re
import subprocess
import sys

from firmware.drivers.buttons import B_BLACK, B_WHITE
from firmware.drivers.flashlog import FlashLog
from firmware.rules.position import BLACK
from tests.firmware.harness import linked, point, press, run
from tests.mp.unix_port import ROOT, executable
from twins.flash import SimFlash

WORDS_ON_STACK = 11


def frame_words(path):
    """{name: words} of the code blocks in a firmware file, as the unix port compiles it (the largest
    of those of one name)."""
    out = subprocess.run([executable(), "-v", "-v", "-X", "compile-only", str(path)], capture_output=True,
                         text=True, check=True).stdout
    words = {}
    for m in re.finditer(r"code block '([^']*)'.*?\(N_STATE (\d+)\)\n\(N_EXC_STACK (\d+)\)", out, re.S):
        name, size = m.group(1), int(m.group(2)) + 3 * int(m.group(3))
        words[name] = max(size, words.get(name, 0))
    return words


def idle_calls():
    """{(file, name, first line)} of the firmware's functions an idle pass of a game in progress calls."""
    hw, _, app = linked(FlashLog(SimFlash(16)), size=19, time_spec="byoyomi 5m 3x30s", sensors="shift")
    t = 0
    colour = BLACK
    for col, row in ((3, 3), (15, 15), (3, 15), (15, 3), (9, 9)):
        hw.stones.place(point(app, col, row), colour)
        run(app, hw, t, t + 400)
        press(app, hw, B_BLACK if colour == BLACK else B_WHITE, t + 400)
        t += 3000
        run(app, hw, t - 2480, t)
        colour = 3 - colour
    calls = set()
    names = []

    def seen(frame, event, _):
        code = frame.f_code
        if event == "call" and code.co_filename.startswith(str(ROOT / "firmware")):
            names.append((code.co_filename, code.co_name, code.co_firstlineno))

    display, leds = app.hw.display, app.leds
    for now in range(t, t + 1100, 10):  # each stage's idle path, the display's, the LEDs' and the once-a-second's
        frames, renders = display.frames, leds.renders
        names.clear()
        sys.setprofile(seen)
        try:
            app._pass(now)  # (the device's loop runs the pass itself: step is the tests' entry)
        finally:
            sys.setprofile(None)
        if display.frames == frames and leds.renders == renders:  # (a redrawn face, a new frame: work)
            calls.update(names)
    assert app.game.hist.length == 1 + 5 and app.errors == 0  # (the start, then the moves)
    return calls


def test_no_function_an_idle_pass_calls_takes_its_frame_from_the_heap():
    calls = idle_calls()
    ran = {name for _, name, _ in calls}
    assert {"_asking", "_check", "digits", "update", "cue", "record", "poll", "follow", "scan"} <= ran, ran
    files = {path for path, _, _ in calls}
    words = {path: frame_words(path) for path in files}
    sizes = {(path, name, line): words[path].get(name) for path, name, line in calls}
    assert sum(size is not None for size in sizes.values()) >= 15, sizes  # (the parse found them)
    large = sorted("%s %s (line %d): %d words" % (path.split("/firmware/")[1], name, line, size)
                   for (path, name, line), size in sizes.items() if size is not None and size > WORDS_ON_STACK)
    assert not large, "frames over %d words (taken from the heap at each call): %s" % (WORDS_ON_STACK, large)


def test_the_frame_reading_tells_a_large_frame_from_a_small_one(tmp_path):
    source = tmp_path / "f.py"
    source.write_text("def small(a):\n    return a + 1\n\n\ndef large(a):\n"
                      "    try:\n        b, c, d, e, f, g, h = a\n    except ValueError:\n        return 0\n"
                      "    return b + c + d + e + f + g + h\n")
    words = frame_words(source)
    assert words["small"] <= WORDS_ON_STACK < words["large"]

"""firmware/drivers/cp_strip.py through Adafruit's own CircuitPython ``neopixel`` library.

The library (adafruit-circuitpython-neopixel + adafruit-circuitpython-pixelbuf,
pinned in requirements-adafruit.txt) is installed by ``make`` with --no-deps into
build/adafruit, never into .venv: its Blinka dependency installs top-level
``neopixel``, ``board`` and ``micropython`` modules that would shadow the
firmware's shims. This test puts that folder on sys.path only while it runs and
stands in for the hardware modules the library imports (``board``, ``digitalio``,
``neopixel_write``, and ``microcontroller`` for its annotations); the fake ``neopixel_write`` records every transmitted buffer.
"""

import sys
import types

import pytest

from firmware.leds import composer as L
from firmware.leds.marks import ERROR, HINT, LIFT, PUT_BACK, TERRITORY, Marks
from firmware.modes import TEACHING

from .conftest import ROOT

ADAFRUIT = ROOT / "build" / "adafruit"
SHADOWED = ("neopixel", "adafruit_pixelbuf", "board", "digitalio", "neopixel_write", "microcontroller")


@pytest.fixture
def adafruit(monkeypatch):
    """(the library's neopixel module, list of transmitted buffers)."""
    if not (ADAFRUIT / "neopixel.py").exists():
        pytest.skip("Adafruit NeoPixel library not installed: run `make setup`")
    sent = []

    board = types.ModuleType("board")
    board.GP16 = "GP16"
    digitalio = types.ModuleType("digitalio")

    class DigitalInOut:
        def __init__(self, pin):
            self.pin = pin
            self.direction = None

        def deinit(self):
            pass

    digitalio.DigitalInOut = DigitalInOut
    digitalio.Direction = types.SimpleNamespace(OUTPUT="output", INPUT="input")
    npw = types.ModuleType("neopixel_write")

    def neopixel_write(pin, buf):
        sent.append((pin.pin, bytes(buf)))

    npw.neopixel_write = neopixel_write
    microcontroller = types.ModuleType("microcontroller")
    microcontroller.Pin = str
    for name in SHADOWED:
        monkeypatch.delitem(sys.modules, name, raising=False)
    monkeypatch.setitem(sys.modules, "board", board)
    monkeypatch.setitem(sys.modules, "digitalio", digitalio)
    monkeypatch.setitem(sys.modules, "neopixel_write", npw)
    monkeypatch.setitem(sys.modules, "microcontroller", microcontroller)
    monkeypatch.syspath_prepend(str(ADAFRUIT))
    import neopixel

    assert neopixel.__file__.startswith(str(ADAFRUIT))
    yield neopixel, sent
    for name in ("neopixel", "adafruit_pixelbuf"):
        sys.modules.pop(name, None)


def scene():
    marks = Marks()
    marks.set(0, ERROR)
    marks.set(20, PUT_BACK, 1)
    marks.set(21, PUT_BACK, 2)
    marks.set(100, LIFT, 2)
    marks.set(360, HINT)
    for p in range(200, 240):
        marks.set(p, TERRITORY, 1 + p % 2)
    return marks


@pytest.mark.parametrize("order", ["GRB", "RGB"])
def test_frames_reach_the_wire_unchanged_through_the_library(adafruit, order):
    neopixel, sent = adafruit
    from firmware.drivers.cp_strip import CpStrip

    pixels = neopixel.NeoPixel(sys.modules["board"].GP16, 361, brightness=1.0, auto_write=False,
                               pixel_order=order)
    strip = CpStrip(pixels, order)
    leds = L.Leds(mode=TEACHING, order=order)
    marks = scene()
    assert leds.update(marks, 0)
    strip.show(leds.frame)
    assert sent == [("GP16", bytes(leds.frame))]
    # a blink phase later (errors, put-back and lift blink): only changed LEDs are passed on
    assert leds.update(marks, 384)
    assert leds.frame[leds.offset_of[0]:leds.offset_of[0] + 3] == b"\0\0\0"
    strip.show(leds.frame)
    marks.clear(TERRITORY)
    leds.update(marks, 384)
    strip.show(leds.frame)
    assert [buf for _pin, buf in sent[1:]] == [bytes(frame_at(scene(), 384, order)), bytes(leds.frame)]
    assert strip.frames == 3


def frame_at(marks, now, order):
    leds = L.Leds(mode=TEACHING, order=order)
    leds.update(marks, now)
    return leds.frame


def test_refuses_auto_write_and_library_brightness(adafruit):
    neopixel, _sent = adafruit
    from firmware.drivers.cp_strip import CpStrip

    with pytest.raises(ValueError):
        CpStrip(neopixel.NeoPixel("GP16", 361, auto_write=True))
    with pytest.raises(ValueError):
        CpStrip(neopixel.NeoPixel("GP16", 361, brightness=0.5, auto_write=False))
    strip = CpStrip(neopixel.NeoPixel("GP16", 10, auto_write=False))
    with pytest.raises(ValueError):
        strip.show(bytearray(361 * 3))

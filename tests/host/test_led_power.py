"""hardware/power.md's figures, recomputed from the firmware (they cannot disagree)."""

import re

from led_scenes import mid_game_marks

from firmware import board_config as C
from firmware.leds import composer as L
from firmware.leds import tables as T
from firmware.modes import TEACHING

from .conftest import ROOT

POWER = (ROOT / "hardware" / "power.md").read_text()


def row(label):
    """The mA figure of the table row whose text starts with ``label``."""
    m = re.search(r"^\| " + re.escape(label) + r"[^|]*\| (\d+) mA \|$", POWER, re.M)
    assert m, label
    return int(m.group(1))


def test_constants_match_board_config():
    assert f"| `LED_CHANNEL_MA` | {C.LED_CHANNEL_MA} mA |" in POWER
    assert f"| `LED_IDLE_MA` | {C.LED_IDLE_MA} mA |" in POWER
    assert f"| `LED_BUDGET_MA` | {C.LED_BUDGET_MA} mA |" in POWER
    assert f"| `LED_BRIGHTNESS` | {C.LED_BRIGHTNESS} / 255 |" in POWER


def test_figures():
    n = C.LED_COUNT
    assert row("all dark") == T.estimate_ma(bytearray(3 * n), n)
    assert row("full white, every channel 255") == T.estimate_ma(bytearray(b"\xff" * 3 * n), n)
    gamma = T.gamma_table()
    g = gamma[C.LED_BRIGHTNESS]
    assert f"gamma → {g} per channel" in POWER
    assert row("full white at the default brightness") == T.estimate_ma(bytearray([g] * 3 * n), n)
    brightest = max(sum(gamma[v * C.LED_BRIGHTNESS // 255] for v in rgb) for pair in T.PALETTE for rgb in pair)
    assert row("every LED lit with the brightest") == n * C.LED_IDLE_MA + n * brightest * C.LED_CHANNEL_MA // 255
    marks = mid_game_marks()
    leds = L.Leds(mode=TEACHING)
    leds.update(marks, 0)
    assert row("a teaching-mode mid-game frame") == leds.ma
    assert row("every LED lit with the brightest") < C.LED_BUDGET_MA

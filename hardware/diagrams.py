"""Schematic diagrams of the repeated cells and the MCU wiring, drawn with schemdraw to SVG.

    python -m hardware.diagrams      # writes hardware/diagrams/*.svg

Pin numbers come from firmware/board_config.py; the netlists (hardware/netlist.py) are the
complete circuit, these drawings the readable summary of one cell of each kind.
"""

import os

import schemdraw
import schemdraw.elements as elm
import schemdraw.logic as logic

import firmware.board_config as cfg
from hardware.pins import pin_groups

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "diagrams")
schemdraw.use("svg")
MARGIN = 1.2  # schemdraw underestimates the width of small text: keep long labels inside the picture


def _ic(name, left, right, **kw):
    """A chip with its name above it (inside, it would cover the pin names)."""
    pins = [elm.IcPin(name=n, side="left") for n in left] + [elm.IcPin(name=n, side="right") for n in right]
    return elm.Ic(pins=pins, w=3, **kw).label(name, loc="top")


def cell_165():
    """One 74HC165: eight reed switches from 3V3, a 10 k network to GND, chained QH -> SER."""
    d = schemdraw.Drawing(show=False, margin=MARGIN)
    ic = d.add(_ic("74HC165 (chip k)", ["D0", "D1", "D2", "D3", "D4", "D5", "D6", "D7"],
                   ["SH/LD", "CLK", "QH", "SER", "CLK INH"], pinspacing=1.5))
    ends = []
    for i in range(8):
        d.add(elm.Line().left(1.5).at(getattr(ic, "D%d" % i)))
        if i == 0:
            node = d.here
        d.add(elm.Switch().left().label("reed p=8k+%d" % i, loc="top", fontsize=8))
        ends.append(d.add(elm.Dot()).center)
    d.add(elm.Vdd().at(ends[-1]).label("3V3", fontsize=8))
    d.add(elm.Line().at(ends[-1]).to(ends[0]))  # the 3V3 bus: every switch's other end
    d.add(elm.Dot().at(node))
    d.add(elm.Resistor().down().at(node).label("10k x8 (one per input) to GND", loc="bottom", fontsize=8))
    d.add(elm.Ground())
    for pin, text in (("SH/LD", "GP%d SR_LOAD" % cfg.SR_LOAD), ("CLK", "GP%d SR_SCK" % cfg.SR_SCK),
                      ("QH", "SER of chip k-1 (chip 0: GP%d SR_MISO)" % cfg.SR_MISO),
                      ("SER", "QH of chip k+1 (last chip: GND)"), ("CLK INH", "GND")):
        d.add(elm.Line().right(1).at(ic[pin]).label(text, loc="right", fontsize=8))
    return d


def cell_hall():
    """One first-level 74HC4067 with its 16 AH49E sensors, into a second-level mux."""
    d = schemdraw.Drawing(show=False, margin=MARGIN)
    shown = ["I%d" % i for i in range(0, 16, 3)]  # I0, I3, ... I15: every channel is wired the same way
    ic = d.add(_ic("74HC4067 (first level m)", shown, ["COM", "S0-S3", "E"]))
    for n in shown:
        d.add(elm.Line().left(1).at(getattr(ic, n)))
        d.add(elm.Dot())
        d.add(elm.Line().left(0.5).label("AH49E OUT, p=16m+%s" % n[1:], loc="left", fontsize=8))
    d.add(elm.Line().right(1).at(ic.COM).label("second-level mux m // 12, input m %% 12\n(its COM: ADC GP%d / GP%d)"
                                              % cfg.HALL_ADC, loc="right", fontsize=8))
    d.add(elm.Line().right(1).at(ic["S0-S3"]).label("GP%s HALL_SELECT_1" % "/".join(map(str, cfg.HALL_SELECT_1)),
                                                      loc="right", fontsize=8))
    d.add(elm.Line().right(1).at(ic.E).label("GND (always enabled)", loc="right", fontsize=8))
    return d


def cell_matrix():
    """One point of the diode matrix: column -> reed switch -> diode -> row."""
    d = schemdraw.Drawing(show=False, margin=MARGIN)
    col = "column c: MCP23017 0x%02x/0x%02x\npin c %% 16, input with pull-up" % cfg.MX_COL_EXPANDERS
    row = "row r: MCP23017 0x%02x/0x%02x\npin r %% 16, low while selected" % cfg.MX_ROW_EXPANDERS
    d.add(elm.Line().right(1).label(col, loc="left", fontsize=8))
    d.add(elm.Switch().right().label("reed p=19r+c", loc="top", fontsize=8))
    d.add(elm.Diode().right().label("1N4148W", loc="top", fontsize=8))
    d.add(elm.Line().right(1).label(row, loc="right", fontsize=8))
    return d


def cell_led():
    """The LED data path: 74AHCT125 gate, 330 R, WS2812B n -> n+1, 100 nF per LED."""
    d = schemdraw.Drawing(show=False, margin=MARGIN)
    d.add(elm.Line().right(1).label("GP%d LED_PIN" % cfg.LED_PIN, loc="left", fontsize=8))
    buf = d.add(logic.Buf().right().label("74AHCT125 (5 V)", loc="top", fontsize=8))
    d.add(elm.Resistor().right().at(buf.out).label("330R", fontsize=8))
    for n in ("LED 0", "LED 1", "... LED %d" % (cfg.LED_COUNT - 1)):
        led = d.add(_ic(n, ["DIN"], ["DOUT"]).anchor("DIN"))
        d.add(elm.Capacitor().down().at(led.DOUT).label("100nF", loc="bottom", fontsize=8).length(1.5))
        d.add(elm.Ground())
        d.add(elm.Line().right(1).at(led.DOUT))
    return d


def mcu():
    """The Pico's GPIOs, each with its board_config name."""
    d = schemdraw.Drawing(show=False, margin=MARGIN)
    names = {}
    for name, (_, _, gpios) in pin_groups().items():
        for i, n in enumerate(gpios):
            names.setdefault(n, []).append(name if len(gpios) == 1 else "%s[%d]" % (name, i))
    gpios = sorted(names)
    left = ["GP%d" % n for n in gpios[: len(gpios) // 2]]
    right = ["GP%d" % n for n in gpios[len(gpios) // 2:]]
    ic = d.add(_ic("Raspberry Pi Pico", left, right))
    for side, pins in ((-1, left), (1, right)):
        for pin in pins:
            text = ", ".join(names[int(pin[2:])])
            line = elm.Line().at(getattr(ic, pin)).length(0.8)
            d.add((line.left() if side < 0 else line.right()).label(text, loc="left" if side < 0 else "right",
                                                                   fontsize=8))
    return d


DIAGRAMS = {"cell_74hc165": cell_165, "cell_hall_mux": cell_hall, "cell_matrix": cell_matrix, "cell_led": cell_led,
            "mcu": mcu}


def svgs():
    """{name: SVG text} of every diagram."""
    return {name: make().get_imagedata("svg").decode() for name, make in DIAGRAMS.items()}


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, text in svgs().items():
        with open(os.path.join(OUT, name + ".svg"), "w") as f:
            f.write(text)
        print("hardware/diagrams/%s.svg" % name)


if __name__ == "__main__":
    main()

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

from .pins import pin_groups

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "diagrams")
schemdraw.use("svg")


def _ic(name, left, right, **kw):
    pins = [elm.IcPin(name=n, side="left") for n in left] + [elm.IcPin(name=n, side="right") for n in right]
    return elm.Ic(pins=pins, label=name, w=3, **kw)


def cell_165():
    """One 74HC165: eight reed switches from 3V3, a 10 k network to GND, chained QH -> SER."""
    d = schemdraw.Drawing(show=False)
    ic = d.add(_ic("74HC165 (chip k)", ["D0", "D1", "D2", "D3", "D4", "D5", "D6", "D7"],
                   ["SH/LD", "CLK", "QH", "SER", "CLK INH"]))
    for i in range(8):
        d.add(elm.Line().left(1).at(getattr(ic, "D%d" % i)))
        d.add(elm.Switch().left().label("reed p=8k+%d" % i, loc="top", fontsize=8))
        d.add(elm.Vdd().label("3V3", fontsize=8))
    d.add(elm.Resistor().down().at(ic.D7).label("10k x8 to GND", loc="bottom", fontsize=8).length(1.5))
    d.add(elm.Ground())
    d.add(elm.Line().right(1).at(ic["SH/LD"]).label("GP%d SR_LOAD" % cfg.SR_LOAD, loc="right", fontsize=8))
    d.add(elm.Line().right(1).at(ic.CLK).label("GP%d SR_SCK" % cfg.SR_SCK, loc="right", fontsize=8))
    d.add(elm.Line().right(1).at(ic.QH).label("SER of chip k-1 (chip 0: GP%d SR_MISO)" % cfg.SR_MISO, loc="right",
                                               fontsize=8))
    d.add(elm.Line().right(1).at(ic.SER).label("QH of chip k+1 (last chip: GND)", loc="right", fontsize=8))
    d.add(elm.Line().right(1).at(ic["CLK INH"]))
    d.add(elm.Ground())
    return d


def cell_hall():
    """One first-level 74HC4067 with its 16 AH49E sensors, into a second-level mux."""
    d = schemdraw.Drawing(show=False)
    ic = d.add(_ic("74HC4067 (first level m)", ["I%d" % i for i in range(0, 16, 3)] + ["I15"],
                   ["COM", "S0-S3", "E"]))
    for n in ["I%d" % i for i in range(0, 16, 3)] + ["I15"]:
        d.add(elm.Line().left(1).at(getattr(ic, n)))
        d.add(elm.Dot())
        d.add(elm.Line().left(0.5).label("AH49E OUT, p=16m+%s" % n[1:], loc="left", fontsize=8))
    d.add(elm.Line().right(1).at(ic.COM).label("I(m %% 12) of second-level mux m // 12 -> ADC GP%d / GP%d"
                                              % cfg.HALL_ADC, loc="right", fontsize=8))
    d.add(elm.Line().right(1).at(ic["S0-S3"]).label("GP%s HALL_SELECT_1" % "/".join(map(str, cfg.HALL_SELECT_1)),
                                                      loc="right", fontsize=8))
    d.add(elm.Line().right(1).at(ic.E))
    d.add(elm.Ground())
    return d


def cell_led():
    """The LED data path: 74AHCT125 gate, 330 R, WS2812B n -> n+1, 100 nF per LED."""
    d = schemdraw.Drawing(show=False)
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
    d = schemdraw.Drawing(show=False)
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


DIAGRAMS = {"cell_74hc165": cell_165, "cell_hall_mux": cell_hall, "cell_led": cell_led, "mcu": mcu}


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

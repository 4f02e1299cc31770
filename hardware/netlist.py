"""The board's netlist as code (SKiDL + KiCad's symbol library), one per sensing variant.

    python -m hardware.netlist            # writes hardware/netlists/{shift,hall,matrix}.net, runs ERC
    python -m hardware.netlist --check    # ERC only, exit 1 on any ERC error

Every GPIO number comes from firmware/board_config.py (the one source of
truth). The Pico sits in a 2 x 20 socket whose pin n is the Pico's pin n.
Variants (the sensing alternatives of board_config.SENSORS):

- ``shift``: 361 reed switches (or digital Hall switches) on 46 x 74HC165;
  a closed switch pulls its input to 3V3, a 10k network pulls it down.
- ``hall``: 361 AH49E-class ratiometric Hall sensors through 23 + 2
  74HC4067 muxes into ADC0/ADC1 (firmware/drivers/hall.py's wiring).
- ``matrix``: 361 reed switches in a 19 x 19 diode matrix: 2 MCP23017 I2C
  expanders drive the rows, 2 read the columns with their own pull-ups
  (firmware/drivers/matrix.py's wiring).

Common to both: the WS2812B chain (5 V, a 100 nF cap per LED, data through
one 74AHCT125 gate and a 330 R resistor), four buttons to ground, the
SSD1306 header (I2C1) and the alternative TM1637 header, a UART header,
the piezo buzzer (through 100 R) and the 5 V input (VSYS through a Schottky).
Every part has a ``tag`` so the netlist is the same on every run.
"""

import os
import re
import sys

os.environ.setdefault("KICAD6_SYMBOL_DIR", "/usr/share/kicad/symbols")

from skidl import (  # noqa: E402
    KICAD6,
    POWER,
    TEMPLATE,
    Circuit,
    Net,
    Part,
    erc_logger,
    set_default_tool,
)
from skidl.logger import rt_logger  # noqa: E402

import firmware.board_config as cfg  # noqa: E402
from hardware.pins import PICO_3V3, PICO_AGND, PICO_GND, PICO_GPIO, PICO_UNUSED, PICO_VSYS  # noqa: E402

set_default_tool(KICAD6)
rt_logger.stop_file_output()
erc_logger.stop_file_output()  # no .log/.erc files beside the caller: the results are printed and tested

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "netlists")
VARIANTS = ("shift", "hall", "matrix")

FOOTPRINTS = {
    "Conn_02x20_Odd_Even": "Module:RaspberryPi_Pico_Common_THT",
    "Conn_01x02": "Connector_PinHeader_2.54mm:PinHeader_1x02_P2.54mm_Vertical",
    "Conn_01x03": "Connector_PinHeader_2.54mm:PinHeader_1x03_P2.54mm_Vertical",
    "Conn_01x04": "Connector_PinSocket_2.54mm:PinSocket_1x04_P2.54mm_Vertical",
    "Conn_01x05": "Connector_PinHeader_2.54mm:PinHeader_1x05_P2.54mm_Vertical",
    "D_Schottky": "Diode_SMD:D_SMA",
    "C_Polarized": "Capacitor_THT:CP_Radial_D10.0mm_P5.00mm",
    "C": "Capacitor_SMD:C_0603_1608Metric",
    "R": "Resistor_SMD:R_0603_1608Metric",
    "R_Network08": "Resistor_THT:R_Array_SIP9",
    "74LS125": "Package_SO:SOIC-14_3.9x8.7mm_P1.27mm",
    "74HC165": "Package_SO:SOIC-16_3.9x9.9mm_P1.27mm",
    "CD74HC4067M": "Package_SO:SOIC-24W_7.5x15.4mm_P1.27mm",
    "MCP23017_SO": "Package_SO:SOIC-28W_7.5x17.9mm_P1.27mm",
    "D": "Diode_SMD:D_SOD-123",
    "WS2812B": "LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm",
    "DRV5055A1xLPGxQ1": "Package_TO_SOT_THT:TO-92_Inline",
    "SW_Reed": "Sensor:Reed_Switch_Glass_THT",
    "SW_Push": "Button_Switch_THT:SW_PUSH_6mm",
    "Buzzer": "Buzzer_Beeper:Buzzer_12x9.5RM7.6",
    "TestPoint": "TestPoint:TestPoint_Pad_D1.5mm",
}
_TEMPLATES = {}


def _part(lib, name, tag, value=None, ref=None):
    """A part from KiCad's library (each symbol read once), tagged for reproducible output."""
    key = (lib, name)
    if key not in _TEMPLATES:
        _TEMPLATES[key] = Part(lib, name, dest=TEMPLATE, footprint=FOOTPRINTS[name])
    p = _TEMPLATES[key](tag=tag, ref=ref)
    if value:
        p.value = value
    return p


class VariantCircuit:
    """Builds one variant's circuit; ``gp(n)`` is the net on GPIO n."""

    def __init__(self, variant):
        self.variant = variant
        self.circuit = Circuit()
        self.circuit.no_files = True
        with self.circuit:
            self._build()

    def gp(self, n):
        """The net on GPIO n (made, and tied to the Pico's pin, on first use)."""
        if n not in self.gpio_nets:
            net = Net("GP%d" % n)
            net += self.pico[PICO_GPIO[n]]
            self.gpio_nets[n] = net
        return self.gpio_nets[n]

    def rail(self, name, *pins):
        """Queue pins for a supply net (joined in one go at the end: SKiDL is quadratic otherwise)."""
        self.rails[name].extend(pins)

    def _build(self):
        self.gnd = Net("GND")
        self.v3 = Net("+3V3")
        self.v5 = Net("+5V")
        self.vsys = Net("VSYS")
        for net in (self.gnd, self.v3, self.v5, self.vsys):
            net.drive = POWER  # the Pico module (3V3, GND) and the 5 V input supply them
        pico = _part("Connector_Generic", "Conn_02x20_Odd_Even", "pico", "Raspberry Pi Pico", ref="U1")
        self.pico = pico
        self.gpio_nets = {}
        self.rails = {"gnd": [], "v3": [], "v5": [], "vsys": []}
        for pin in PICO_GND + (PICO_AGND,):
            self.rail("gnd", pico[pin])
        self.rail("v3", pico[PICO_3V3])
        self.rail("vsys", pico[PICO_VSYS])
        for pin in PICO_UNUSED:
            pico[pin] += self.circuit.NC
        self._power()
        self._leds()
        self._controls()
        if self.variant == "shift":
            self._shift()
        elif self.variant == "hall":
            self._hall()
        elif self.variant == "matrix":
            self._matrix()
        else:
            raise ValueError("unknown variant %r" % self.variant)
        for gpio, pin in PICO_GPIO.items():
            if gpio not in self.gpio_nets:
                pico[pin] += self.circuit.NC  # a GPIO this variant leaves free
        for name, pins in self.rails.items():
            getattr(self, name).connect(*pins)

    def _power(self):
        j = _part("Connector_Generic", "Conn_01x02", "j_power", "5V in", ref="J1")
        self.rail("v5", j[1])
        self.rail("gnd", j[2])
        d = _part("Device", "D_Schottky", "d_vsys", "SS14", ref="D1")
        self.rail("v5", d["A"])
        self.rail("vsys", d["K"])
        c = _part("Device", "C_Polarized", "c_bulk", "1000uF 10V", ref="C1")
        self.rail("v5", c[1])
        self.rail("gnd", c[2])

    def _leds(self):
        shifter = _part("74xx", "74LS125", "led_shifter", "74AHCT125", ref="U2")
        self.rail("v5", shifter["VCC"])
        self.rail("gnd", shifter["GND"])
        c = _part("Device", "C", "c_shifter", "100nF", ref="C2")
        self.rail("v5", c[1])
        self.rail("gnd", c[2])
        self.gp(cfg.LED_PIN).connect(shifter[2])
        self.rail("gnd", shifter[1])  # gate 1 enabled (OE active low)
        r = _part("Device", "R", "r_led_data", "330R", ref="R1")
        data = Net("LED_DIN")
        data += shifter[3], r[1]
        for oe, a, y in ((4, 5, 6), (10, 9, 8), (13, 12, 11)):  # unused gates: disabled, inputs grounded
            self.rail("v5", shifter[oe])
            self.rail("gnd", shifter[a])
            shifter[y] += self.circuit.NC
        prev = r[2]
        for i in range(cfg.LED_COUNT):
            led = _part("LED", "WS2812B", "led%d" % i, ref="LED%d" % (i + 1))
            cap = _part("Device", "C", "c_led%d" % i, "100nF", ref="C%d" % (100 + i))
            self.rail("v5", led["VDD"], cap[1])
            self.rail("gnd", led["VSS"], cap[2])
            Net("LED_D%d" % i).connect(prev, led["DIN"])
            prev = led["DOUT"]
        prev += self.circuit.NC

    def _controls(self):
        for i, name in enumerate(("BUTTON_BLACK", "BUTTON_WHITE", "BUTTON_PAUSE", "BUTTON_MENU")):
            sw = _part("Switch", "SW_Push", name.lower(), name[7:].title(), ref="SW%d" % (i + 1))
            self.gp(getattr(cfg, name)).connect(sw[1])
            self.rail("gnd", sw[2])
        oled = _part("Connector_Generic", "Conn_01x04", "j_ssd1306", "SSD1306 I2C", ref="J2")
        self.rail("gnd", oled[1])
        self.rail("v3", oled[2])
        self.gp(cfg.DISPLAY_SCL).connect(oled[3])
        self.gp(cfg.DISPLAY_SDA).connect(oled[4])
        for tag, gpio, ref in (("r_sda", cfg.DISPLAY_SDA, "R2"), ("r_scl", cfg.DISPLAY_SCL, "R3")):
            r = _part("Device", "R", tag, "4k7", ref=ref)
            self.rail("v3", r[1])
            self.gp(gpio).connect(r[2])
        tm = _part("Connector_Generic", "Conn_01x05", "j_tm1637", "TM1637 x2 (alternative)", ref="J3")
        self.gp(cfg.TM1637_CLK).connect(tm[1])
        self.gp(cfg.TM1637_DIO_BLACK).connect(tm[2])
        self.gp(cfg.TM1637_DIO_WHITE).connect(tm[3])
        self.rail("v3", tm[4])
        self.rail("gnd", tm[5])
        uart = _part("Connector_Generic", "Conn_01x03", "j_uart", "UART", ref="J4")
        self.gp(cfg.UART_TX).connect(uart[1])
        self.gp(cfg.UART_RX).connect(uart[2])
        self.rail("gnd", uart[3])
        bz = _part("Device", "Buzzer", "buzzer", "piezo", ref="BZ1")
        r = _part("Device", "R", "r_buzzer", "100R", ref="R4")
        self.gp(cfg.BUZZER_PIN).connect(r[1])
        Net("BUZZ").connect(r[2], bz[2])
        self.rail("gnd", bz[1])

    def _shift(self):
        from firmware.drivers.shift165 import wiring

        chips = []
        for k in range(cfg.SR_CHIPS):
            u = _part("74xx", "74HC165", "sr%d" % k, ref="U%d" % (10 + k))
            rn = _part("Device", "R_Network08", "rn%d" % k, "10k x8", ref="RN%d" % (k + 1))
            c = _part("Device", "C", "c_sr%d" % k, "100nF", ref="C%d" % (10 + k))
            self.rail("v3", u["VCC"], c[1])
            self.rail("gnd", u["GND"], u["~{CE}"], rn["common"], c[2])
            self.gp(cfg.SR_LOAD).connect(u["~{PL}"])
            self.gp(cfg.SR_SCK).connect(u["CP"])
            u["~{Q7}"] += self.circuit.NC
            for d in range(8):
                Net("SR%d_D%d" % (k, d)).connect(u["D%d" % d], rn["R%d" % (d + 1)])
            chips.append(u)
        self.gp(cfg.SR_MISO).connect(chips[0]["Q7"])
        for k in range(1, cfg.SR_CHIPS):
            Net("SR_CHAIN%d" % k).connect(chips[k]["Q7"], chips[k - 1]["DS"])
        self.rail("gnd", chips[-1]["DS"])
        for p in range(cfg.POINTS * cfg.POINTS):
            chip, d = wiring(p, cfg.SR_CHIPS, cfg.SR_CHAIN_ORDER, cfg.SR_BIT_ORDER)
            sw = _part("Switch", "SW_Reed", "sw%d" % p, "reed / Hall switch", ref="S%d" % (p + 1))
            self.rail("v3", sw[1])
            chips[chip]["D%d" % d] += sw[2]
        # SR_MOSI is driven by the SPI peripheral and goes nowhere: a test point.
        tp = _part("Connector", "TestPoint", "tp_sr_mosi", "SR_MOSI (unused)", ref="TP1")
        self.gp(cfg.SR_MOSI).connect(tp[1])

    def _hall(self):
        # 361 sensors draw about 2.2 A (AH49E: 6 mA typ.): far beyond the Pico's
        # 3V3 regulator (300 mA), so they get their own 5 V -> 3.3 V / 3 A buck module.
        buck = _part("Connector_Generic", "Conn_01x03", "j_buck_hall", "3.3V 3A buck module", ref="J5")
        self.rail("v5", buck[1])
        self.rail("gnd", buck[2])
        vhall = Net("+3V3_HALL")
        vhall.drive = POWER
        vhall += buck[3]
        hall_vcc = []
        per_mux, per_adc = 16, 12
        points = cfg.POINTS * cfg.POINTS
        nfirst = (points + per_mux - 1) // per_mux
        second = []
        for a, gpio in enumerate(cfg.HALL_ADC):
            m = self._mux("mux2_%d" % a, "U%d" % (80 + a), cfg.HALL_SELECT_2)
            self.gp(gpio).connect(m["COM"])
            second.append(m)
        for k in range(nfirst):
            m = self._mux("mux1_%d" % k, "U%d" % (10 + k), cfg.HALL_SELECT_1)
            Net("MUX1_%d" % k).connect(m["COM"], second[k // per_adc]["I%d" % (k % per_adc)])
            for ch in range(per_mux):
                p = k * per_mux + ch
                if p >= points:
                    m["I%d" % ch] += self.circuit.NC
                    continue
                h = _part("Sensor_Magnetic", "DRV5055A1xLPGxQ1", "hall%d" % p, "AH49E", ref="H%d" % (p + 1))
                hall_vcc.append(h["VCC"])
                self.rail("gnd", h["GND"])
                Net("HALL%d" % p).connect(h["OUT"], m["I%d" % ch])
        vhall.connect(*hall_vcc)
        for a, m in enumerate(second):
            for ch in range(per_mux):
                if a * per_adc + ch >= nfirst or ch >= per_adc:
                    m["I%d" % ch] += self.circuit.NC

    def _matrix(self):
        # Point p = r * 19 + c: column c -> reed switch -> diode -> row r (cathode towards the
        # row). The selected row is driven low; a closed switch then pulls its column low.
        rows = self._expanders("row", cfg.MX_ROW_EXPANDERS, cfg.POINTS, 40)
        cols = self._expanders("col", cfg.MX_COL_EXPANDERS, cfg.POINTS, 42)
        for r in range(cfg.POINTS):
            for c in range(cfg.POINTS):
                p = r * cfg.POINTS + c
                sw = _part("Switch", "SW_Reed", "sw%d" % p, "reed switch", ref="S%d" % (p + 1))
                d = _part("Device", "D", "d%d" % p, "1N4148W", ref="D%d" % (10 + p))
                cols[c] += sw[1]
                Net("MX_P%d" % p).connect(sw[2], d["A"])
                rows[r] += d["K"]
        for tag, gpio, ref in (("r_mx_sda", cfg.MX_SDA, "R5"), ("r_mx_scl", cfg.MX_SCL, "R6")):
            r = _part("Device", "R", tag, "4k7", ref=ref)
            self.rail("v3", r[1])
            self.gp(gpio).connect(r[2])

    def _expanders(self, name, addrs, lines, ref0):
        """MCP23017s at ``addrs`` on the matrix's I2C bus; returns the nets of the first ``lines``
        pins (pin i of expander i // 16: 0-7 GPA0-7, 8-15 GPB0-7), the rest left open."""
        nets = []
        for k, addr in enumerate(addrs):
            u = _part("Interface_Expansion", "MCP23017_SO", "mx_%s%d" % (name, k), "MCP23017", ref="U%d" % (ref0 + k))
            c = _part("Device", "C", "c_mx_%s%d" % (name, k), "100nF", ref="C%d" % (ref0 + k))
            self.rail("v3", u["VDD"], u["~{RESET}"], c[1])
            self.rail("gnd", u["VSS"], c[2])
            for bit in range(3):  # A0-A2: the address's low bits
                self.rail("v3" if addr >> bit & 1 else "gnd", u["A%d" % bit])
            self.gp(cfg.MX_SCL).connect(u["SCK"])
            self.gp(cfg.MX_SDA).connect(u["SDA"])
            u["INTA"] += self.circuit.NC
            u["INTB"] += self.circuit.NC
            for i in range(16):
                pin = u["GP%s%d" % ("AB"[i // 8], i % 8)]
                line = 16 * k + i
                if line < lines:
                    nets.append(Net("MX_%s%d" % (name.upper(), line)))
                    nets[-1] += pin
                else:
                    pin += self.circuit.NC
        return nets

    def _mux(self, tag, ref, select):
        m = _part("74xx", "CD74HC4067M", tag, "74HC4067", ref=ref)
        c = _part("Device", "C", "c_" + tag, "100nF", ref="C" + ref[1:])
        self.rail("v3", m["VCC"], c[1])
        self.rail("gnd", m["GND"], m["~{E}"], c[2])
        for i, gpio in enumerate(select):
            self.gp(gpio).connect(m["S%d" % i])
        return m

    def erc(self):
        """(errors, warnings) of SKiDL's ERC on this variant."""
        erc_logger.error.reset()
        erc_logger.warning.reset()
        self.circuit.ERC()
        return erc_logger.error.count, erc_logger.warning.count

    def netlist(self):
        """The KiCad netlist text; SKiDL's date and source stamps are fixed so the output is reproducible."""
        text = str(self.circuit.generate_netlist(do_backup=False, track_src=False))
        text = re.sub(r'\(source "[^"]*"\)', '(source "hardware/netlist.py")', text)
        return re.sub(r'\(date "[^"]*"\)', '(date "")', text)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    check_only = "--check" in argv
    failed = False
    for variant in VARIANTS:
        board = VariantCircuit(variant)
        errors, warnings = board.erc()
        print("%s: %d parts, ERC %d errors, %d warnings" % (variant, len(board.circuit.parts), errors, warnings))
        failed |= errors > 0
        if not check_only:
            os.makedirs(OUT, exist_ok=True)
            with open(os.path.join(OUT, variant + ".net"), "w") as f:
                f.write(board.netlist())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""hardware/BOM.csv from the netlists (quantities counted from the SKiDL boards) and the
whole-board power budget from firmware/board_config.py.

    python -m hardware.bom          # writes hardware/BOM.csv, prints the power budget
"""

import csv
import io
import os

import firmware.board_config as cfg
from firmware.leds import tables as leds
from hardware.netlist import HERE, VARIANTS, VariantCircuit

# symbol (or symbol + value) -> (role, part number / type). Quantities come from the netlists.
PARTS = {
    ("Conn_02x20_Odd_Even", "Raspberry Pi Pico"): ("MCU module (2 x 20 socket or soldered)", "Raspberry Pi Pico (RP2040) SC0915"),
    ("Conn_01x02", "5V in"): ("5 V input", "2-pin header / USB-C PD trigger or 5 V 3 A supply"),
    ("D_Schottky", "SS14"): ("5 V -> VSYS (Pico datasheet: external supply)", "SS14 Schottky 1 A"),
    ("C_Polarized", "1000uF 10V"): ("bulk capacitor on the LED 5 V rail", "1000 uF 10 V electrolytic"),
    ("74LS125", "74AHCT125"): ("LED data level shifter 3.3 V -> 5 V", "SN74AHCT125DR"),
    ("C", "100nF"): ("decoupling (one per LED and per IC)", "100 nF X7R 0603"),
    ("R", "330R"): ("series resistor on the LED data line", "330 R 0603"),
    ("R", "4k7"): ("I2C pull-ups (display; matrix: expanders)", "4.7 k 0603"),
    ("R", "100R"): ("buzzer series resistor", "100 R 0603"),
    ("WS2812B", "WS2812B"): ("one LED under every intersection", "WS2812B-5050 (or SK6812)"),
    ("SW_Push", None): ("clock and control buttons", "6 mm tactile switch"),
    ("Conn_01x04", "SSD1306 I2C"): ("clock display header", "SSD1306 128x64 I2C OLED module"),
    ("Conn_01x05", "TM1637 x2 (alternative)"): ("alternative clock display header", "2 x TM1637 4-digit module"),
    ("Conn_01x03", "UART"): ("UART header to a host", "3-pin header"),
    ("Buzzer", "piezo"): ("clock and referee sounds", "passive piezo 12 mm"),
    ("74HC165", "74HC165"): ("presence inputs, 8 per chip", "SN74HC165DR"),
    ("R_Network08", "10k x8"): ("pull-downs of the switch inputs", "10 k x 8 bussed SIP-9 (4609X-101-103LF)"),
    ("SW_Reed", "reed / Hall switch"): ("stone presence under every intersection", "reed switch (e.g. MKA-14103) or digital Hall switch"),
    ("TestPoint", "SR_MOSI (unused)"): ("SPI MOSI test point (unused by the 74HC165)", "test pad"),
    ("CD74HC4067M", "74HC4067"): ("analog muxes: 23 first level + 2 second level", "CD74HC4067M96"),
    ("DRV5055A1xLPGxQ1", "AH49E"): ("analog Hall sensor under every intersection", "AH49E (SS49E class, TO-92S)"),
    ("Conn_01x03", "3.3V 3A buck module"): ("3.3 V supply of the Hall sensors", "5 V -> 3.3 V 3 A buck module"),
    ("MCP23017_SO", "MCP23017"): ("I2C I/O expanders: 2 drive the rows, 2 read the columns", "MCP23017-E/SO"),
    ("SW_Reed", "reed switch"): ("stone presence under every intersection (matrix)", "reed switch (e.g. MKA-14103)"),
    ("D", "1N4148W"): ("one diode per switch: no ghost stones", "1N4148W SOD-123"),
}

# Supply currents that are hardware facts, not firmware settings (datasheet typical values).
PICO_MA = 25  # RP2040 at 125 MHz, running (Pico datasheet, typical)
DISPLAY_MA = 20  # SSD1306 128x64, about half the pixels lit
HC165_MA = 0.08  # 74HC165 quiescent (max at 25 C, per chip)
HC4067_MA = 0.08  # 74HC4067 quiescent
AH49E_MA = 6  # AH49E supply current, typical (10 max)
MCP23017_MA = 1  # MCP23017 active at 400 kHz (datasheet max)
SWITCH_MA = 3.3 / 10  # a closed reed switch into its 10 k pull-down


def bom_rows(boards=None):
    """[role, part number, symbol, value, qty per variant...] in a stable order."""
    counts = {}
    for variant in VARIANTS:
        board = boards[variant] if boards else VariantCircuit(variant)
        for part in board.circuit.parts:
            key = (part.name, part.value if (part.name, part.value) in PARTS else None)
            if key not in PARTS:
                raise KeyError("no BOM entry for %s %s" % (part.name, part.value))
            counts.setdefault(key, dict.fromkeys(VARIANTS, 0))[variant] += 1
    rows = []
    for key, (role, number) in PARTS.items():
        if key in counts:
            rows.append([role, number, key[0], key[1] or ""] + [counts[key][v] for v in VARIANTS])
    return rows


def bom_csv(boards=None):
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["role", "part_number", "symbol", "value"] + ["qty_" + v for v in VARIANTS])
    w.writerows(bom_rows(boards))
    return out.getvalue()


def power_budget():
    """[(item, rail, mA)] of the whole board at its worst allowed frame, from board_config."""
    n = cfg.LED_COUNT
    points = cfg.POINTS * cfg.POINTS
    full_white = leds.estimate_ma(bytearray(b"\xff" * 3 * n), n)
    rows = [
        ("LEDs dark (%d x LED_IDLE_MA %d mA)" % (n, cfg.LED_IDLE_MA), "5V", n * cfg.LED_IDLE_MA),
        ("LEDs full white uncapped (%d x (%d + 3 x LED_CHANNEL_MA %d) mA)" % (n, cfg.LED_IDLE_MA, cfg.LED_CHANNEL_MA),
         "5V", full_white),
        ("LEDs at most (limiter: LED_BUDGET_MA)", "5V", min(cfg.LED_BUDGET_MA, full_white)),
        ("Pico (RP2040 running)", "VSYS", PICO_MA),
        ("SSD1306 display", "3V3", DISPLAY_MA),
        ("shift: %d x 74HC165" % cfg.SR_CHIPS, "3V3", round(cfg.SR_CHIPS * HC165_MA)),
        ("shift: %d switches closed (10 k pull-downs)" % points, "3V3", round(points * SWITCH_MA)),
        ("hall: %d x AH49E" % points, "3V3_HALL", points * AH49E_MA),
        ("hall: 25 x 74HC4067", "3V3", round(25 * HC4067_MA)),
        ("matrix: 4 x MCP23017", "3V3", 4 * MCP23017_MA),
    ]
    return rows


def totals():
    """{variant: worst-case 5 V input current in mA} (3.3 V loads counted at 5 V: linear/buck, no gain assumed)."""
    rows = {item: ma for item, _, ma in power_budget()}
    points = cfg.POINTS * cfg.POINTS
    common = rows["LEDs at most (limiter: LED_BUDGET_MA)"] + PICO_MA + DISPLAY_MA
    return {
        "shift": common + round(cfg.SR_CHIPS * HC165_MA) + round(points * SWITCH_MA),
        "hall": common + points * AH49E_MA + round(25 * HC4067_MA),
        "matrix": common + 4 * MCP23017_MA,
    }


def main():
    with open(os.path.join(HERE, "BOM.csv"), "w") as f:
        f.write(bom_csv())
    for item, rail, ma in power_budget():
        print("| %s | %s | %d mA |" % (item, rail, ma))
    for variant, ma in totals().items():
        print("| total, %s variant (5 V input, worst case) | 5V | %d mA |" % (variant, ma))


if __name__ == "__main__":
    main()

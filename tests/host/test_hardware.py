"""hardware/: the SKiDL netlists (ERC, every board_config pin wired, none twice), the BOM and
power budget recomputed from the config, the schematic SVGs, and make deploy without a board."""

import csv
import io
import re
import subprocess

import pytest

from firmware import board_config as C
from hardware import bom, netlist
from hardware.netlist import VariantCircuit
from hardware.pins import PICO_GPIO, pin_groups

from .conftest import ROOT

HW = ROOT / "hardware"


@pytest.fixture(scope="module")
def boards():
    return {v: VariantCircuit(v) for v in netlist.VARIANTS}


@pytest.fixture(scope="module")
def netlists(boards):
    return {v: b.netlist() for v, b in boards.items()}


def nets_of(text):
    """{net name: {(ref, pin), ...}} parsed from a KiCad netlist."""
    out = {}
    for block in re.split(r"\(net\s", text)[1:]:
        name = re.search(r'\(name "([^"]*)"\)', block).group(1)
        out[name] = set(re.findall(r'\(node\s+\(ref "([^"]+)"\)\s+\(pin "([^"]+)"\)', block))
    return out


def test_erc_has_no_errors_or_warnings(boards):
    for variant, board in boards.items():
        errors, warnings = board.erc()
        assert errors == 0, variant
        assert warnings == 0, variant  # hardware/README.md: ERC section


def test_committed_netlists_are_reproducible(netlists):
    for variant, text in netlists.items():
        assert (HW / "netlists" / (variant + ".net")).read_text() == text, "run make hardware"


def test_every_part_is_tagged(boards):
    for board in boards.values():
        tags = [p.tag for p in board.circuit.parts]
        assert all(tags) and len(set(tags)) == len(tags)


def test_every_config_pin_is_wired_in_its_variants(netlists):
    groups = pin_groups()
    assert {"LED_PIN", "SR_LOAD", "HALL_ADC", "BUTTON_MENU", "DISPLAY_SDA", "TM1637_CLK", "BUZZER_PIN"} <= set(groups)
    failures = []
    for variant, text in netlists.items():
        nets = nets_of(text)
        for name, (kind, alt, gpios) in groups.items():
            if kind == "sensing" and alt != variant:
                continue  # another sensing variant's pins
            for gpio in gpios:
                nodes = nets.get("GP%d" % gpio, set())
                if ("U1", str(PICO_GPIO[gpio])) not in nodes or len(nodes) < 2:
                    failures.append("%s: %s = GP%d not wired (%s)" % (variant, name, gpio, sorted(nodes)))
    assert not failures, "\n".join(failures)


def test_no_pin_assigned_twice_within_a_variant():
    groups = pin_groups()
    for gpios in (g for _, _, g in groups.values()):
        assert all(n in PICO_GPIO for n in gpios), gpios  # a Pico GPIO on a header pin
    sensing = {alt for kind, alt, _ in groups.values() if kind == "sensing"}
    displays = {alt for kind, alt, _ in groups.values() if kind == "display"}
    assert sensing == {"shift", "hall", "matrix"} and displays == {"ssd1306", "tm1637"}
    for s in sensing:
        for d in displays:
            used = {}
            for name, (kind, alt, gpios) in groups.items():
                if kind == "common" or alt in (s, d):
                    for n in gpios:
                        assert n not in used, "GP%d is both %s and %s (%s, %s)" % (n, used.get(n), name, s, d)
                        used[n] = name


def test_bom_matches_the_netlists(boards):
    text = bom.bom_csv(boards)
    assert (HW / "BOM.csv").read_text() == text, "run make hardware"
    rows = {r["symbol"] + "/" + r["value"]: r for r in csv.DictReader(io.StringIO(text))}
    assert int(rows["WS2812B/WS2812B"]["qty_shift"]) == C.LED_COUNT
    assert int(rows["74HC165/74HC165"]["qty_shift"]) == C.SR_CHIPS
    assert int(rows["SW_Reed/reed / Hall switch"]["qty_shift"]) == C.POINTS ** 2
    assert int(rows["DRV5055A1xLPGxQ1/AH49E"]["qty_hall"]) == C.POINTS ** 2
    assert int(rows["CD74HC4067M/74HC4067"]["qty_hall"]) == 25
    assert int(rows["SW_Reed/reed switch"]["qty_matrix"]) == C.POINTS ** 2
    assert int(rows["D/1N4148W"]["qty_matrix"]) == C.POINTS ** 2
    assert int(rows["MCP23017_SO/MCP23017"]["qty_matrix"]) == 4


def test_power_budget_in_the_readme_is_recomputed_from_the_config():
    readme = (HW / "README.md").read_text()
    for item, rail, ma in bom.power_budget():
        assert "| %s | %s | %d mA |" % (item, rail, ma) in readme, item
    for variant, ma in bom.totals().items():
        assert "| total, %s variant (5 V input, worst case) | 5V | %d mA |" % (variant, ma) in readme
    assert bom.totals()["shift"] == C.LED_BUDGET_MA + bom.PICO_MA + bom.DISPLAY_MA + 4 + 119


def test_deploy_without_a_board_fails_clearly():
    done = subprocess.run(["make", "--no-print-directory", "deploy", "PORT=/dev/no-such-board"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "error: deploy failed: no MicroPython board answered on PORT=/dev/no-such-board" in done.stderr


def test_schematic_svgs_are_generated_and_committed():
    from hardware import diagrams

    svgs = diagrams.svgs()
    assert set(svgs) == {"cell_74hc165", "cell_hall_mux", "cell_matrix", "cell_led", "mcu"}
    for name, text in svgs.items():
        assert text.startswith("<svg") and "</svg>" in text, name
        assert (HW / "diagrams" / (name + ".svg")).read_text() == text, "run make hardware"
    assert "GP%d" % C.LED_PIN in svgs["mcu"] and "SR_LOAD" in svgs["mcu"]

"""The WS2812 PIO program of firmware/drivers/pio_strip.py, assembled by a fake ``rp2``
and run cycle by cycle on the bits PioStrip feeds it: every bit lasts 1.25 us
(800 kHz) and its high time is inside the WS2812B / SK6812 windows."""

import sys
import types

import pytest

from firmware.drivers.pio_strip import FREQ, PioStrip, state_machine
from twins.strip import FakeStateMachine


class Instr:
    def __init__(self, op, *args):
        self.op = op
        self.args = args
        self.side_value = None
        self.delay = 0

    def side(self, v):
        self.side_value = v
        return self

    def __getitem__(self, delay):
        self.delay = delay
        return self


def fake_rp2():
    rp2 = types.ModuleType("rp2")
    rp2.PIO = types.SimpleNamespace(OUT_LOW=0, SHIFT_LEFT=0)
    made = {}

    def asm_pio(**config):
        def assemble(fn):
            program = []
            names = {
                "wrap_target": lambda: program.append(Instr("wrap_target")),
                "wrap": lambda: program.append(Instr("wrap")),
                "label": lambda name: program.append(Instr("label", name)),
                "out": lambda dest, n: program.append(Instr("out", dest, n)) or program[-1],
                "jmp": lambda *a: program.append(Instr("jmp", *a)) or program[-1],
                "nop": lambda: program.append(Instr("nop")) or program[-1],
                "x": "x",
                "not_x": "not_x",
            }
            g = fn.__globals__
            saved = {k: g[k] for k in names if k in g}
            g.update(names)
            try:
                fn()
            finally:
                for k in names:
                    g.pop(k, None)
                g.update(saved)
            made["config"] = config
            return program

        return assemble

    class StateMachine:
        def __init__(self, sm_id, program, freq, sideset_base):
            made.update(sm_id=sm_id, program=program, freq=freq, pin=sideset_base)

        def active(self, on):
            made["active"] = on

    rp2.asm_pio = asm_pio
    rp2.StateMachine = StateMachine
    return rp2, made


def run(program, bits):
    """Pin level per PIO cycle while the program shifts ``bits`` out; the cycle each bit's out() starts."""
    code = [i for i in program if i.op not in ("label", "wrap_target", "wrap")]
    labels = {}
    n = 0
    for i in program:
        if i.op == "label":
            labels[i.args[0]] = n
        elif i.op not in ("wrap_target", "wrap"):
            n += 1
    levels, starts = [], []
    pc, x, k = 0, 0, 0
    while True:
        ins = code[pc]
        if ins.op == "out":
            if k == len(bits):
                return levels, starts
            starts.append(len(levels))
            x = bits[k]
            k += 1
        levels += [ins.side_value] * (1 + ins.delay)
        pc += 1
        if ins.op == "jmp":
            cond, target = (ins.args if len(ins.args) == 2 else (None, ins.args[0]))
            if cond is None or (cond == "not_x" and x == 0):
                pc = labels[target]
        pc %= len(code)


@pytest.fixture
def rp2(monkeypatch):
    mod, made = fake_rp2()
    monkeypatch.setitem(sys.modules, "rp2", mod)
    return made


def test_program_timing_matches_ws2812(rp2):
    state_machine("PIN16", 0)
    assert rp2["freq"] == FREQ and rp2["pin"] == "PIN16" and rp2["active"] == 1
    assert rp2["config"]["autopull"] and rp2["config"]["pull_thresh"] == 8
    frame = bytearray([0x00, 0xFF, 0xA5, 0x5A, 0x81, 0x7E])
    fake = FakeStateMachine()
    PioStrip(fake, lambda us: None).show(frame)
    bits = fake.bits()
    levels, starts = run(rp2["program"], bits)
    ns = 1e9 / FREQ
    # the last bit has no next out() to end its window: check every bit but the last
    for i, bit in enumerate(bits[:-1]):
        window = levels[starts[i]:starts[i + 1]]
        assert len(window) * ns == pytest.approx(1250)
        high = sum(window) * ns
        if bit:
            assert 580 <= high <= 1000, (i, high)  # T1H
        else:
            assert 220 <= high <= 380, (i, high)  # T0H (WS2812B-V5 / SK6812 window)
        rises = sum(1 for a, b in zip(window, window[1:], strict=False) if a == 0 and b == 1)
        assert rises == 1 and window[0] == 0, (i, window)  # one high pulse per bit

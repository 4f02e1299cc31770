"""firmware/main.py as a board boots it, in MicroPython's unix port (tests/host/test_main_boot.py).

    MICROPYPATH=.frozen:build/mpy:bench/device micropython -X heapsize=296K tests/mp/boot_main.py JOURNAL [PART...]

On bench/device's ``machine`` stand-ins: an empty board on the 74HC165
chain, a host on the UART that sends ``hello`` (what the board writes
comes out on stdout), the journal at JOURNAL. Each PART named does not
work (the stand-in's methods replaced here: the device-fit game's heap
holds the stand-ins, so they stay as small as they are): ``display`` does
not answer on its I2C (every write raises OSError 110, ETIMEDOUT, as an
RP2040's I2C does when nothing drives the bus), ``buzzer``'s PWM raises
ValueError, ``sensor`` is a diode-matrix board whose I/O expanders do not
answer (drivers/matrix.py's first I2C write raises OSError 110). Once the board has said HELLO a hand
puts a stone on A19 (the chain's first input). Then main.py runs as it is,
until SIGINT (a KeyboardInterrupt, as a host's Ctrl-C on the USB port).
"""

import sys

import machine

from firmware import board_config as cfg
from firmware.drivers import pico
from firmware.protocol import encode_command

pico.JOURNAL_PATH = sys.argv[1]
if cfg.JOURNAL == "flash":  # the flash log's sectors: in the JOURNAL file (rp2_region needs littlefs)
    from flash_region import FileRegion

    pico._region = lambda: FileRegion(sys.argv[1])
cfg.LINK = "uart"  # the host on the UART stand-in (USB is this process's terminal)


def no_answer(*args):  # (the stand-in's I2C.writeto: no device acknowledges, the bus times out)
    raise OSError(110)


def no_pwm(*args):  # (its PWM.freq and duty_u16)
    raise ValueError("invalid pin")


if "display" in sys.argv[2:]:
    machine.I2C.writeto = no_answer
if "sensor" in sys.argv[2:]:  # a diode-matrix board whose MCP23017 expanders do not answer
    cfg.SENSORS = "matrix"
    machine.I2C.writeto_mem = no_answer
if "buzzer" in sys.argv[2:]:
    machine.PWM.freq = machine.PWM.duty_u16 = no_pwm
machine.UART.rx.extend(encode_command("hello"))


def wrote(data):
    data = bytes(data)
    sys.stdout.write(data.decode())
    if b" HELLO " in data and machine.SPI.raw is not None:  # (read since power-up: the chain's bytes)
        machine.SPI.raw[0] |= 1  # a stone on A19: point 0, input A of the chip nearest the Pico


machine.UART.on_write = wrote
with open("firmware/main.py") as f:
    exec(f.read())

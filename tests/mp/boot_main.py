"""firmware/main.py as a board boots it, in MicroPython's unix port (tests/host/test_main_boot.py).

    MICROPYPATH=.frozen:build/mpy:bench/device micropython -X heapsize=296K tests/mp/boot_main.py JOURNAL

On bench/device's ``machine`` stand-ins: an empty board on the 74HC165
chain, a host on the UART that sends ``hello`` (what the board writes
comes out on stdout), the journal at JOURNAL. Then main.py runs as it is,
until SIGINT (a KeyboardInterrupt, as a host's Ctrl-C on the USB port).
"""

import sys

import machine

from firmware import board_config as cfg
from firmware.drivers import pico
from firmware.protocol import encode_command

pico.JOURNAL_PATH = sys.argv[1]
cfg.LINK = "uart"  # the host on the UART stand-in (USB is this process's terminal)
machine.UART.rx.extend(encode_command("hello"))
machine.UART.on_write = lambda data: sys.stdout.write(bytes(data).decode())
with open("firmware/main.py") as f:
    exec(f.read())

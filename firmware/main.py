"""Boot: run the board. `make deploy` puts this file at the device's root (hence absolute imports)."""

import asyncio
import time

from firmware.app import App
from firmware.drivers.pico import hardware

try:
    asyncio.run(App(hardware(), now_ms=time.ticks_ms()).run())
except KeyboardInterrupt:  # the host sent Ctrl-C (drivers/serial_link.py): the REPL has the USB port
    print("board stopped: the USB port is the REPL's (reset to start again)")

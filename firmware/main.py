"""Boot: run the board. `make deploy` puts this file at the device's root."""

import asyncio
import time

from firmware.app import Board
from firmware.drivers.pico import hardware

asyncio.run(Board(hardware(), now_ms=time.ticks_ms()).run())

"""Boot: run the board. `make deploy` puts this file at the device's root (hence absolute imports).

While the code loads and the app builds its buffers, the heap is collected
every 4 KB allocated (``gc.threshold``): the loader's garbage (dict tables
outgrown, paths) is then reused at once instead of staying as small holes
between the code, where the app's long-lived buffers would not fit. On the
device-fit game this lowers the heap the board needs by ~32 KB (README,
"Memory on the device"). Then the threshold is off again: a game allocates
little, and a collection costs scanning time.
"""

import gc

gc.threshold(4096)

import asyncio  # noqa: E402
import time  # noqa: E402

from firmware.app import App  # noqa: E402
from firmware.drivers.pico import hardware  # noqa: E402

app = App(hardware(), now_ms=time.ticks_ms())
gc.threshold(-1)
try:
    asyncio.run(app.run())
except KeyboardInterrupt:  # the host sent Ctrl-C (drivers/serial_link.py): the REPL has the USB port
    print("board stopped: the USB port is the REPL's (reset to start again)")

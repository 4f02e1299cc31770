"""Boot: run the board. `make deploy` puts this file at the device's root (hence absolute imports).

The hardware record is built by drivers/pico.py from board_config.py, and
neither stays in the heap after: only the drivers they made do.

While the code loads and the app builds its buffers, the heap is collected
every 4 KB allocated (``gc.threshold``): the loader's garbage (dict tables
outgrown, paths) is then reused at once instead of staying as small holes
between the code, where the app's long-lived buffers would not fit. On the
device-fit game this lowers the heap the board needs by ~32 KB (docs/device.md,
"Memory on the device"). Then the threshold is off again: a game allocates
little, and a collection costs scanning time.
"""

import gc

gc.threshold(4096)

import asyncio  # noqa: E402
import time  # noqa: E402

from firmware.app import App  # noqa: E402
from firmware.rules.const import call_briefly, drop  # noqa: E402

# The reference board's drivers on their pins (drivers/pico.py), built once: the builder and
# the pin table are let go after (the modules that run took the values they use when imported;
# one loaded later, the sensor check, loads the table again).
hw = call_briefly("firmware.drivers.pico", "hardware")
drop("firmware.board_config")
app = App(hw, now_ms=time.ticks_ms())
gc.threshold(-1)
try:
    asyncio.run(app.run())
except KeyboardInterrupt:  # the host sent Ctrl-C (drivers/serial_link.py): the REPL has the USB port
    print("board stopped: the USB port is the REPL's (reset to start again)")

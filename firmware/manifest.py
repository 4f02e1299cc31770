# MicroPython freeze manifest for release builds (not a module: the firmware build runs it).
#   cd micropython/ports/rp2 && make BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/firmware/manifest.py
# The port's own frozen modules (asyncio, neopixel, ...), then the firmware package frozen as
# bytecode, and main.py frozen as the boot script (a main.py on the filesystem still wins).
include("$(PORT_DIR)/boards/manifest.py")
package("firmware", base_path="..", opt=3)
module("main.py", opt=3)

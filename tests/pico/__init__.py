"""The emulated-Pico tier: stock MicroPython on rp2040js running the deployed firmware (docs/pico.md)."""

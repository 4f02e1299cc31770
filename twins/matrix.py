"""A simulated diode matrix on simulated MCP23017 expanders, for the real ``DiodeMatrix``.

``SimDiodeMatrix(stones, ...)`` puts one ``SimMCP23017`` per address on a
``SimI2C`` bus (``writeto_mem``/``readfrom_mem_into``, sequential register
access as with IOCON.BANK = 0) and wires them as firmware/drivers/matrix.py
says: a column input reads low when some row pin is an output driven low
and the switch (the ``Stones`` point) between them is closed; else high
with its pull-up, low without (a floating input, modelled as 0).
"""

from firmware.drivers.matrix import GPIOA, IODIRA, OLATA, DiodeMatrix

_GPPUA = 0x0C


class SimMCP23017:
    """Registers of one expander (22 of them, BANK = 0 addresses)."""

    def __init__(self):
        self.regs = bytearray(0x16)
        self.regs[IODIRA] = 0xFF
        self.regs[IODIRA + 1] = 0xFF

    def word(self, reg):
        return self.regs[reg] | (self.regs[reg + 1] << 8)


class SimI2C:
    """A bus of expanders; ``levels(dev)`` gives what a device's GPIO pins read."""

    def __init__(self, levels):
        self.devices = {}
        self.levels = levels
        self.transactions = 0

    def writeto_mem(self, addr, memaddr, buf):
        self.transactions += 1
        dev = self.devices[addr]
        for i in range(len(buf)):
            reg = memaddr + i
            if reg in (GPIOA, GPIOA + 1):  # writing GPIO writes the latch
                reg += OLATA - GPIOA
            dev.regs[reg] = buf[i]

    def readfrom_mem_into(self, addr, memaddr, buf):
        self.transactions += 1
        dev = self.devices[addr]
        pins = self.levels(dev)
        for i in range(len(buf)):
            reg = memaddr + i
            if reg == GPIOA:
                buf[i] = pins & 0xFF
            elif reg == GPIOA + 1:
                buf[i] = pins >> 8
            else:
                buf[i] = dev.regs[reg]


class SimDiodeMatrix:
    """The matrix wired to its expanders; see the module doc."""

    def __init__(self, stones, row_addrs=(0x20, 0x21), col_addrs=(0x22, 0x23), rows=19, cols=19):
        self.stones = stones
        self.rows = rows
        self.cols = cols
        self.row_addrs = tuple(row_addrs)
        self.col_addrs = tuple(col_addrs)
        self.i2c = SimI2C(self._levels)
        self.row_devs = []
        self.col_devs = []
        for addr in self.row_addrs:
            self.row_devs.append(self._add(addr))
        for addr in self.col_addrs:
            self.col_devs.append(self._add(addr))

    def _add(self, addr):
        dev = SimMCP23017()
        self.i2c.devices[addr] = dev
        return dev

    def driver(self):
        """The real driver on this simulated bus."""
        return DiodeMatrix(self.i2c, self.row_addrs, self.col_addrs, self.rows, self.cols)

    def selected_rows(self):
        """Rows driven low now."""
        out = []
        for r in range(self.rows):
            dev = self.row_devs[r >> 4]
            bit = 1 << (r & 15)
            if not dev.word(IODIRA) & bit and not dev.word(OLATA) & bit:
                out.append(r)
        return out

    def _levels(self, dev):
        iodir = dev.word(IODIRA)
        level = dev.word(OLATA) & ~iodir  # outputs read their latch
        if dev in self.col_devs:
            j = self.col_devs.index(dev)
            rows = self.selected_rows()
            pullup = dev.word(_GPPUA)
            for pin in range(16):
                bit = 1 << pin
                c = j * 16 + pin
                if not iodir & bit:
                    continue
                high = pullup & bit
                if c < self.cols:
                    for r in rows:
                        if self.stones.sensed(r * self.cols + c):
                            high = 0
                if high:
                    level |= bit
        return level

"""Reed switches in a 19 x 19 diode matrix behind MCP23017 I2C expanders (presence only).

Wiring (docs/sensing.md): row r is pin r % 16 of row expander r // 16 (pins
0-7 = GPA0-7, 8-15 = GPB0-7), driven low to select the row, high
otherwise; column c is pin c % 16 of column expander c // 16, an input
with its pull-up. Point p = r * 19 + c has its switch in series with a
diode (cathode towards the row): a closed switch pulls its column low
only while its row is selected, and the diodes stop sneak paths (no
ghost stones, whatever the pattern).

A read selects each row in turn (one I2C write; two when the row moves to
the next expander) and reads the column ports (one I2C read per column
expander, one or two bytes as it has columns), allocation-free.

Raw slots (the Scanner contract): row r takes ``per_row`` bytes (3 for 19
columns: GPA, GPB of the first column expander, GPA of the second); slot
s is bit s & 7 of byte s >> 3, 1 = stone; unused pins read 0.
"""

from array import array

from ..board_config import MX_COL_EXPANDERS, MX_ROW_EXPANDERS
from ..micro import const

IODIRA = const(0x00)
_GPPUA = const(0x0C)
GPIOA = const(0x12)
OLATA = const(0x14)


class DiodeMatrix:
    """The matrix's driver; see the module doc. ``i2c`` is a ``machine.I2C``
    (``writeto_mem``/``readfrom_mem_into``)."""

    bits_per_point = 1

    def __init__(self, i2c, row_addrs=MX_ROW_EXPANDERS, col_addrs=MX_COL_EXPANDERS, rows=19, cols=19):
        if len(row_addrs) * 16 < rows or len(col_addrs) * 16 < cols:
            raise ValueError("not enough expander pins")
        self._i2c = i2c
        self._rows = rows
        self._row_addrs = tuple(row_addrs[:(rows + 15) // 16])
        self._col_addrs = tuple(col_addrs[:(cols + 15) // 16])
        # one read buffer per column expander: 1 byte when it has <= 8 columns
        bufs = []
        masks = []
        for j in range(len(self._col_addrs)):
            n = min(16, cols - 16 * j)
            nb = 1 if n <= 8 else 2
            bufs.append(bytearray(nb))
            for k in range(nb):
                used = min(8, n - 8 * k)
                masks.append((1 << used) - 1)
        self._col_bufs = bufs
        self._masks = bytes(masks)
        self.per_row = len(masks)
        self.nbytes = rows * self.per_row
        self._high = bytearray(b"\xff\xff")
        self._patterns = []
        for r in range(rows):
            level = 0xFFFF & ~(1 << (r & 15))
            self._patterns.append(bytearray((level & 0xFF, level >> 8)))
        at = array("H", b"\xff\xff" * (self.nbytes * 8))  # all unused
        for r in range(rows):
            for c in range(cols):
                j = c >> 4
                off = 0
                for k in range(j):
                    off += len(bufs[k])
                pin = c & 15
                at[(r * self.per_row + off + (pin >> 3)) * 8 + (pin & 7)] = r * cols + c
        self.point_at = at
        self.setup()

    def setup(self):
        """Configure the expanders: rows outputs, all high; columns inputs with pull-ups."""
        i2c = self._i2c
        for addr in self._row_addrs:
            i2c.writeto_mem(addr, OLATA, self._high)
            i2c.writeto_mem(addr, IODIRA, b"\x00\x00")
        for addr in self._col_addrs:
            i2c.writeto_mem(addr, IODIRA, b"\xff\xff")
            i2c.writeto_mem(addr, _GPPUA, b"\xff\xff")

    def read(self, buf):
        """Scan every row into ``buf`` (nbytes)."""
        i2c = self._i2c
        row_addrs = self._row_addrs
        col_addrs = self._col_addrs
        bufs = self._col_bufs
        masks = self._masks
        patterns = self._patterns
        per_row = self.per_row
        k = 0
        for r in range(self._rows):
            e = r >> 4
            if r and not r & 15:
                i2c.writeto_mem(row_addrs[e - 1], OLATA, self._high)
            i2c.writeto_mem(row_addrs[e], OLATA, patterns[r])
            m = 0
            for j in range(len(col_addrs)):
                cb = bufs[j]
                i2c.readfrom_mem_into(col_addrs[j], GPIOA, cb)
                for i in range(len(cb)):
                    buf[k] = ~cb[i] & masks[m]
                    k += 1
                    m += 1
            if m != per_row:
                raise ValueError("column layout")
        i2c.writeto_mem(row_addrs[(self._rows - 1) >> 4], OLATA, self._high)

"""A simulated 74HC165 chain on a simulated SPI bus, for the real ``ShiftChain``.

``SimShiftChain(stones, ...)`` models the chips bit by bit: SH/LD low loads
(and, while low, keeps loading) every chip's inputs from the ``Stones``;
each SPI clock samples QH of chip 0 and then shifts every chip one place
(QH of chip k + 1 into SER of chip k, a grounded SER into the last one).
Use ``chain.spi`` (it has ``write_readinto``/``readinto``) and ``chain.load``
(a ``SimPin``) to build the real driver, or call ``chain.driver()``.
"""

from firmware.drivers.shift165 import A_FIRST, NEAR_FIRST, ShiftChain, wiring

from .pins import SimPin


class SimShiftChain:
    """Chips numbered from the MISO end; see the module doc."""

    def __init__(self, stones, chips=46, points=361, chain_order=NEAR_FIRST, bit_order=A_FIRST,
                 msb_first=True, active_low=False):
        self.stones = stones
        self.active_low = active_low
        self.chips = chips
        self.points = points
        self.chain_order = chain_order
        self.bit_order = bit_order
        self.msb_first = msb_first
        # The chain's registers as one integer: chip 0 (its bit 7 = QH, on
        # MISO) in the top byte, the last chip in the low byte.
        self.chain = 0
        self._mask = (1 << (8 * chips)) - 1
        self.chip_of = bytearray(points)
        self.pin_of = bytearray(points)
        for p in range(points):
            chip, pin = wiring(p, chips, chain_order, bit_order)
            self.chip_of[p] = chip
            self.pin_of[p] = pin
        self.load = SimPin(1, self._load_changed)
        self.spi = self
        self.latches = 0
        self.transfers = 0

    def driver(self):
        """The real driver on this simulated bus."""
        return ShiftChain(self, self.load, self.chips, self.points, self.chain_order, self.bit_order,
                          self.msb_first, self.active_low)

    def _parallel_load(self):
        chain = 0
        sensed = self.stones.sensed
        top = self.chips - 1
        for p in range(self.points):
            if sensed(p):
                chain |= 1 << ((top - self.chip_of[p]) * 8 + self.pin_of[p])
        if self.active_low:  # every input idles high (pull-ups); a stone pulls it low
            chain ^= self._mask
        self.chain = chain

    def registers(self):
        """Each chip's shift register now (bytes, chip 0 first, bit 7 = QH)."""
        top = self.chips - 1
        return bytes((self.chain >> ((top - k) * 8)) & 0xFF for k in range(self.chips))

    def _load_changed(self, pin):
        if not pin.level:
            self.latches += 1
            self._parallel_load()

    def _clock(self):
        if not self.load.level:  # parallel load mode: the clock is ignored
            self._parallel_load()
            return
        # every chip shifts one place: QH of chip k+1 enters chip k, ground enters the last
        self.chain = (self.chain << 1) & self._mask

    def readinto(self, buf, write=0):
        self.write_readinto(bytes(len(buf)), buf)

    def write_readinto(self, tx, rx):
        """One SPI transfer, mode 0: sample QH of chip 0, then clock; 8 times a byte."""
        self.transfers += 1
        top = self.chips * 8 - 1
        for i in range(len(rx)):
            byte = 0
            for b in range(8):
                bit = (self.chain >> top) & 1
                if self.msb_first:
                    byte |= bit << (7 - b)
                else:
                    byte |= bit << b
                self._clock()
            rx[i] = byte

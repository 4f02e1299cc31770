"""74HC165 chain read over SPI: 361 presence switches (reed or digital Hall) on 46 chips.

Wiring (docs/sensing.md): SH/LD of every chip on one GPIO (``load``, active
low); CLK on SCK; QH of chip 0, the chip nearest the MCU, on MISO; QH of
chip k on SER of chip k - 1; SER of the last chip grounded; CLK INH
grounded.

After a latch, SPI transfer byte k receives chip k. With an MSB-first bus
(``machine.SPI`` default, the only order of the RP2040) the chip's input H
(D7) arrives first, so byte k bit b = input D_b; ``msb_first=False``
describes a bus receiving LSB first (bit b = D_(7-b)).

Points are wired in order along the chain, eight per chip:
``chain_order`` 0 puts points 0-7 on chip 0 (nearest MISO), 1 on the last
chip; ``bit_order`` 0 puts a chip's lowest point on input A (D0), 1 on
input H (D7). ``point_at`` tells the Scanner where each point lands.

Switches normally close to make their input read 1 (a stone);
``active_low=True`` is for switches pulling the input low (open-drain
digital Hall switches with pull-ups): the driver inverts the bytes.

Raw slots (the Scanner contract): slot s is bit s & 7 of byte s >> 3,
1 = stone.
"""

from array import array

from ..board_config import SR_BIT_ORDER, SR_CHAIN_ORDER, SR_CHIPS
from ..micro import const

NEAR_FIRST = const(0)  # chain_order: points 0-7 on the chip whose QH drives MISO
FAR_FIRST = const(1)  # chain_order: points 0-7 on the chip at the far (grounded SER) end
A_FIRST = const(0)  # bit_order: a chip's lowest point on input A (D0)
H_FIRST = const(1)  # bit_order: a chip's lowest point on input H (D7)


def wiring(p, chips, chain_order, bit_order):
    """(chip, input) that point p is wired to: chip 0 nearest MISO, input 0 = A."""
    k = p >> 3
    chip = k if chain_order == NEAR_FIRST else chips - 1 - k
    pin = p & 7 if bit_order == A_FIRST else 7 - (p & 7)
    return chip, pin


class ShiftChain:
    """The chain's driver; see the module doc.

    ``spi`` is a configured ``machine.SPI`` (or anything with
    ``write_readinto``), ``load`` an output ``machine.Pin`` on SH/LD.
    """

    bits_per_point = 1

    def __init__(self, spi, load, chips=SR_CHIPS, points=361, chain_order=SR_CHAIN_ORDER, bit_order=SR_BIT_ORDER,
                 msb_first=True, active_low=False):
        if chips * 8 < points:
            raise ValueError("not enough inputs")
        self._spi = spi
        self._load = load
        self.nbytes = chips
        self._tx = bytearray(chips)
        self._invert = active_low
        load.value(1)
        at = array("H", b"\xff\xff" * (chips * 8))  # all unused
        for p in range(points):
            chip, pin = wiring(p, chips, chain_order, bit_order)
            bit = pin if msb_first else 7 - pin
            at[chip * 8 + bit] = p
        self.point_at = at

    def read(self, buf):
        """Latch every input, then shift the chain into ``buf`` (nbytes)."""
        load = self._load
        load.value(0)
        load.value(1)
        self._spi.write_readinto(self._tx, buf)
        if self._invert:
            for i in range(len(buf)):
                buf[i] ^= 0xFF

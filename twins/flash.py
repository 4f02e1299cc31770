"""A NOR flash twin (a W25Q16JV region) that counts erases and can lose power in any operation.

``SimFlash(sectors)``: 4096-byte sectors, erased to 0xFF; ``program(i, off,
page)`` writes a 256-byte page at a 256-aligned offset and can only clear
bits (the flash holds old AND new: a byte given as 0xFF is left alone);
``erase(i)`` sets a whole sector to 0xFF. ``erases``, ``programs`` and
``erase_counts[i]`` count them (wear). ``prefix(i)``: the bytes a region
keeps at the start of sector i (``prefixes``; b"" by default, as on bare
flash; a littlefs file's block pointers in drivers/rp2_region.py).

Power cuts: ``cut_at(k, keep)``: operation k (counting from 0, erases and
programs alike) is torn, and no later one happens. A torn program has
cleared the bits of its first ``keep`` bytes and part of the bits of the next
one; a torn erase leaves every byte of the sector with some of its bits set
(``keep`` seeds which). ``trace``: a list to log every operation in (tests
replay a game's operations up to a cut: ``replay``). Nothing is allocated
per operation unless tracing.
"""

SECTOR = 4096
PAGE = 256


class SimFlash:
    """See the module doc."""

    def __init__(self, sectors=16, prefixes=None, trace=None):
        self.sectors = sectors
        self.data = bytearray(b"\xff" * (sectors * SECTOR))
        self.prefixes = prefixes  # sector -> bytes, or None
        for i in range(sectors if prefixes else 0):  # (as the region was made: its prefixes there)
            pre = prefixes[i]
            self.data[i * SECTOR:i * SECTOR + len(pre)] = pre
        self.trace = trace
        self.erases = 0
        self.programs = 0
        self.erase_counts = [0] * sectors
        self.ops = 0  # operations done (the index of the next)
        self.cut = -1  # the operation that is torn (-1: none planned)
        self.keep = 0

    def prefix(self, i):
        return self.prefixes[i] if self.prefixes else b""

    def cut_at(self, k, keep=0):
        self.cut = k
        self.keep = keep

    def dead(self):
        return 0 <= self.cut < self.ops

    def readinto(self, i, off, buf):
        base = i * SECTOR + off
        data = self.data
        for j in range(len(buf)):
            buf[j] = data[base + j]

    def erase(self, i):
        if self.trace is not None:
            self.trace.append((0, i, 0, None))
        k = self.ops
        self.ops = k + 1
        if 0 <= self.cut < k:
            return  # the power is off
        base = i * SECTOR
        data = self.data
        if k == self.cut:  # torn: bits partly set
            seed = (self.keep * 2654435761 + i) & 0xFFFFFFFF
            for j in range(SECTOR):
                seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
                data[base + j] |= (seed >> 16) & 0xFF
            return
        for j in range(SECTOR):
            data[base + j] = 0xFF
        self.erases += 1
        self.erase_counts[i] += 1

    def program(self, i, off, page):
        if off % PAGE or len(page) != PAGE:
            raise ValueError("a page at a page boundary")
        if self.trace is not None:
            self.trace.append((1, i, off, bytes(page)))
        k = self.ops
        self.ops = k + 1
        if 0 <= self.cut < k:
            return
        n = PAGE
        if k == self.cut:
            n = self.keep
        base = i * SECTOR + off
        data = self.data
        for j in range(min(n, PAGE)):
            data[base + j] &= page[j]
        if n < PAGE:  # the byte being programmed when the power went: some of its bits
            data[base + n] &= page[n] | 0x5A
        else:
            self.programs += 1


def replay(trace, k, keep, sectors=16, prefixes=None, base=None):
    """A SimFlash holding what ``trace`` (a SimFlash's operations) left on flash with the
    power cut in operation k (``cut_at(k, keep)``); ``base``: the flash's bytes before them."""
    flash = SimFlash(sectors, prefixes)
    if base is not None:
        flash.data[:] = base
    flash.cut_at(k, keep)
    for op, i, off, page in trace[:k + 1]:
        if op == 0:
            flash.erase(i)
        else:
            flash.program(i, off, page)
    flash.cut = -1
    return flash

"""Stand-in for the Pico's flash log region on the unix port: NOR sectors in a host file.

``FileRegion(path)`` is drivers/flashlog.py's ``flash`` (drivers/rp2_region.py's
``Region`` on a Pico): ``sectors`` 4 KB sectors in the file at ``path`` (made
erased, all 0xFF, if it is not there), ``erase`` sets a sector to 0xFF,
``program`` ANDs a page in (bits only cleared), each written through at once
(a process killed as the power goes keeps it). Never deployed:
bench/device/play.py and tests/mp/boot_main.py put it behind
``pico._region``.
"""


class FileRegion:
    """See the module doc."""

    def __init__(self, path, sectors=16):
        self.sectors = sectors
        self._ff = bytearray(b"\xff" * 256)
        self._buf = bytearray(256)
        try:
            self.f = open(path, "r+b")
        except OSError:
            with open(path, "wb") as f:
                for _ in range(sectors * 16):
                    f.write(self._ff)
            self.f = open(path, "r+b")

    def prefix(self, i):
        return b""

    def erase(self, i):
        f = self.f
        f.seek(i * 4096)
        for _ in range(16):
            f.write(self._ff)
        f.flush()

    def program(self, i, off, page):
        f = self.f
        buf = self._buf
        f.seek(i * 4096 + off)
        f.readinto(buf)
        for j in range(256):
            buf[j] &= page[j]
        f.seek(i * 4096 + off)
        f.write(buf)
        f.flush()

    def readinto(self, i, off, buf):
        self.f.seek(i * 4096 + off)
        self.f.readinto(buf)

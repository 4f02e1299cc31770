"""The flash log's region on a Pico with stock MicroPython: the blocks of a reserved littlefs file.

Stock MicroPython (rp2, 1.27) mounts the whole ``rp2.Flash()`` (1,408 KB at
flash offset 0xA0000, 4 KB blocks) as littlefs in its frozen ``_boot.py``,
and formats it if the mount fails; the firmware image ends far below it and
no other flash is reachable. So the log lives inside the filesystem: the
file ``/journal.area`` (``BLOCKS`` blocks, written once, never again through
littlefs) is where littlefs will never put anything else, and the log
erases and programs its blocks directly (``rp2.Flash`` ``ioctl(6, block)``,
``writeblocks(block, page, offset)``, ``readblocks(block, buf, offset)``).

littlefs keeps a file as a CTZ skip list: block i (i >= 1) of the file
starts with ctz(i) + 1 little-endian u32 pointers to blocks i - 1, i - 2,
i - 4...; littlefs reads them (and nothing else of the file) when it looks
for free blocks. Each sector's ``prefix`` is those pointers: the log writes
them back in the same program as its sector header, after each erase, and
at power-up restores any a cut erase spoiled (drivers/flashlog.py), before
the application writes a file.

Finding the blocks: the file is written with a tag (``SGBJ``, its block
index, a random nonce) at the start of each block's data and 0xFF elsewhere
(programming 0xFF leaves the erased cells as they are); the device's blocks
are then scanned for the tags, the pointers checked against them, and the
block numbers kept in ``/journal.map``. At every power-up the file's size
and the pointers must still agree with the map (at most one block's may be
off: the one a cut erase left), or the area is made again.
"""

import os

from .flashlog import PREFIX

AREA = "/journal.area"
MAP = "/journal.map"
BLOCKS = 16
_TAG = b"SGBJ"


class Region:
    """``flash`` for FlashLog: ``blocks[i]`` is sector i's block on ``bdev`` (see the module doc)."""

    def __init__(self, bdev, blocks):
        self.bdev = bdev
        self.blocks = blocks
        self.sectors = len(blocks)
        self._pre = [pointers(blocks, i) for i in range(len(blocks))]

    def prefix(self, i):
        return self._pre[i]

    def erase(self, i):
        self.bdev.ioctl(6, self.blocks[i])  # MP_BLOCKDEV_IOCTL_BLOCK_ERASE

    def program(self, i, off, page):
        self.bdev.writeblocks(self.blocks[i], page, off)  # (4 arguments: programmed, not erased)

    def readinto(self, i, off, buf):
        self.bdev.readblocks(self.blocks[i], buf, off)

    def off_blocks(self):
        """How many of the blocks do not start with their pointers."""
        bad = 0
        for i in range(1, self.sectors):
            pre = self._pre[i]
            buf = bytearray(len(pre))
            self.readinto(i, 0, buf)
            bad += buf != pre
        return bad


def region(bdev=None, n=BLOCKS):
    """The Region of /journal.area on ``bdev`` (the whole ``rp2.Flash()``), made on first use."""
    if bdev is None:
        import rp2

        bdev = rp2.Flash()
    blocks = _load(n)
    if blocks is not None:
        r = Region(bdev, blocks)
        if r.off_blocks() <= 1:
            return r
    r = Region(bdev, _make(bdev, n))
    if r.off_blocks():
        raise OSError(5)  # EIO: littlefs did not lay the file out as expected
    return r


def pointers(blocks, i):
    """The CTZ pointers at the start of a file's block i (b"" for block 0)."""
    out = bytearray()
    j = 0
    while i and (j == 0 or not i & ((1 << j) - 1)):
        b = blocks[i - (1 << j)]
        out.extend(bytes((b & 0xFF, (b >> 8) & 0xFF, (b >> 16) & 0xFF, b >> 24)))
        j += 1
    return bytes(out)


def _pointer_bytes(i):
    return len(pointers([0] * (i + 1), i))


def area_size(n):
    return sum(4096 - _pointer_bytes(i) for i in range(n))


def _load(n):
    try:
        if _size(AREA) != area_size(n):
            return None
        f = _open(MAP, "rb")
        data = f.read()
        f.close()
    except OSError:
        return None
    if len(data) != 4 + 2 * n or data[:4] != b"SGBM":
        return None
    return [data[4 + 2 * i] | data[5 + 2 * i] << 8 for i in range(n)]


def _make(bdev, n):
    if _pointer_bytes(n - 1) > PREFIX:
        raise ValueError("too many blocks")
    for path in (MAP, AREA):
        try:
            _remove(path)
        except OSError:
            pass
    nonce = _nonce()
    page = bytearray(b"\xff" * 256)
    f = _open(AREA, "wb")
    for i in range(n):
        page[0:4] = _TAG
        page[4] = i
        page[5] = nonce & 0xFF
        page[6] = nonce >> 8
        page[7] = 0xA5
        f.write(page)
        for j in range(8):
            page[j] = 0xFF
        left = 4096 - _pointer_bytes(i) - 256
        while left > 0:
            f.write(page if left >= 256 else bytes(page[:left]))
            left -= 256
    f.close()
    blocks = [-1] * n
    probe = bytearray(PREFIX + 8)
    for b in range(bdev.ioctl(4, 0)):  # MP_BLOCKDEV_IOCTL_BLOCK_COUNT
        bdev.readblocks(b, probe, 0)
        for off in range(0, PREFIX + 4, 4):
            if (probe[off:off + 4] == _TAG and probe[off + 5] == nonce & 0xFF and probe[off + 6] == nonce >> 8
                    and probe[off + 7] == 0xA5):
                i = probe[off + 4]
                if i < n and off == _pointer_bytes(i):
                    if blocks[i] >= 0:
                        raise OSError(5)
                    blocks[i] = b
    if min(blocks) < 0:
        raise OSError(5)
    data = bytearray(b"SGBM")
    for b in blocks:
        data.extend(bytes((b & 0xFF, b >> 8)))
    f = _open(MAP, "wb")
    f.write(data)
    f.close()
    return blocks


# The file system, through these (tests put littlefs-python's behind them).
def _open(path, mode):
    return open(path, mode)  # noqa: SIM115 - closed by the callers


def _remove(path):
    os.remove(path)


def _size(path):
    return os.stat(path)[6]


def _nonce():
    try:
        data = os.urandom(2)
    except AttributeError:  # (a port without it)
        import time

        data = bytes((time.ticks_us() & 0xFF, 0x5A))
    return data[0] | data[1] << 8

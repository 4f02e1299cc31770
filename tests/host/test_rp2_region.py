"""The flash log inside a real littlefs (littlefs-python: the littlefs C library, v2 on-disk format, as MicroPython's).

The Pico's region (firmware/drivers/rp2_region.py) is the blocks of a
reserved file, ``/journal.area``, on a filesystem laid out as the stock
rp2 port's (4 KB blocks, 352 of them, 256-byte programs). A stand-in for
``rp2.Flash()`` reads, programs (bits only cleared) and erases the same
bytes littlefs uses. The region is found, a game is journalled on it with
its blocks erased and programmed directly, and then littlefs must still
mount, read every other file, count the area's blocks as its own and put
new files elsewhere (it follows the file's CTZ pointers, which the log
keeps); a block left half erased by a power cut has its pointers back after
the next power-up, before anything else writes a file.
"""

import pytest

littlefs = pytest.importorskip("littlefs")

from journal_cases import is_fresh, record_game, recover, state  # noqa: E402

from firmware.drivers import rp2_region  # noqa: E402
from firmware.drivers.flashlog import FlashLog  # noqa: E402
from firmware.journal.store import MAIN  # noqa: E402

BLOCKS = 352


class FakeFlash:
    """``rp2.Flash()``'s block-device methods on littlefs-python's buffer (NOR: programs only clear bits)."""

    def __init__(self, buffer):
        self.buffer = buffer
        self.erases = 0

    def readblocks(self, block, buf, off=0):
        start = block * 4096 + off
        buf[:] = self.buffer[start:start + len(buf)]

    def writeblocks(self, block, buf, off):
        start = block * 4096 + off
        assert off % 256 == 0 and len(buf) % 256 == 0
        for j, b in enumerate(buf):
            self.buffer[start + j] &= b

    def ioctl(self, op, arg):
        if op == 4:
            return BLOCKS
        if op == 6:
            self.erases += 1
            self.buffer[arg * 4096:(arg + 1) * 4096] = b"\xff" * 4096
            return 0
        raise AssertionError(op)


@pytest.fixture
def fs(monkeypatch):
    fs = littlefs.LittleFS(block_size=4096, block_count=BLOCKS, prog_size=256, read_size=256)
    for i in range(12):  # the firmware's files, before the area
        with fs.open("/lib%d.mpy" % i, "wb") as f:
            f.write(bytes([i]) * (1000 + 2500 * i))

    def size(path):
        try:
            return fs.stat(path).size
        except littlefs.errors.LittleFSError as error:
            raise OSError(2) from error

    monkeypatch.setattr(rp2_region, "_open", fs.open)
    monkeypatch.setattr(rp2_region, "_remove", fs.remove)
    monkeypatch.setattr(rp2_region, "_size", size)
    return fs


def _others_intact(fs):
    for i in range(12):
        with fs.open("/lib%d.mpy" % i, "rb") as f:
            assert f.read() == bytes([i]) * (1000 + 2500 * i)


def _fill(fs, name, blocks):
    """New files through littlefs: they must go to blocks not the area's."""
    with fs.open(name, "wb") as f:
        f.write(b"\x11" * 4096 * blocks)


def test_the_area_is_found_and_littlefs_keeps_it_through_a_journalled_game(fs):
    bdev = FakeFlash(fs.context.buffer)
    assert len(rp2_region.region(bdev).blocks) == rp2_region.BLOCKS
    region = rp2_region.region(bdev, 4)  # (made again, smaller: a 150-move game goes round it)
    assert sorted(set(region.blocks)) == sorted(region.blocks) and len(region.blocks) == 4
    assert fs.stat(rp2_region.AREA).size == rp2_region.area_size(4)
    assert rp2_region.region(bdev, 4).blocks == region.blocks  # the map, read back
    log = FlashLog(region)
    _, _, app = record_game(150, limit=4096, storage=log, mark=lambda s: 0)
    assert bdev.erases > 4  # the ring went round: every block erased by the log
    area = [bytes(fs.context.buffer[b * 4096:(b + 1) * 4096]) for b in region.blocks]
    _others_intact(fs)
    _fill(fs, "/after.bin", 200)  # littlefs walks the area's pointers to find free blocks
    assert [bytes(fs.context.buffer[b * 4096:(b + 1) * 4096]) for b in region.blocks] == area
    again = littlefs.LittleFS(context=fs.context, block_size=4096, block_count=BLOCKS, prog_size=256, read_size=256)
    assert again.stat(rp2_region.AREA).size == rp2_region.area_size(4)
    got = recover(FlashLog(rp2_region.region(bdev, 4)))
    assert state(got) == state(app) or is_fresh(got)


def test_a_block_a_cut_erase_spoiled_gets_its_pointers_back_before_littlefs_allocates(fs):
    bdev = FakeFlash(fs.context.buffer)
    region = rp2_region.region(bdev)
    _, _, app = record_game(40, limit=4096, storage=FlashLog(region), mark=lambda s: 0)
    log = FlashLog(region)
    journal = log.read(MAIN)
    victim = region.blocks[(log.seq + 1) % region.sectors]  # the next the log will erase
    fs.context.buffer[victim * 4096:(victim + 1) * 4096] = bytes(0xC3 for _ in range(4096))  # half erased
    assert rp2_region.region(bdev).blocks == region.blocks  # (one block off: still the area)
    after = FlashLog(rp2_region.region(bdev))  # the power-up: the pointers written back
    assert region.off_blocks() == 0
    _fill(fs, "/after.bin", 250)
    _others_intact(fs)
    assert after.read(MAIN) == journal and app.game.result is not None
    assert is_fresh(recover(after))  # (the game had ended: the next one starts)


def test_a_stale_map_is_made_again():
    # (the map names blocks whose pointers do not match: the area was removed and made by something else)
    blocks = list(range(10, 26))
    assert rp2_region.pointers(blocks, 1) == bytes([10, 0, 0, 0])
    assert rp2_region.pointers(blocks, 4) == bytes([13, 0, 0, 0, 12, 0, 0, 0, 10, 0, 0, 0])
    assert rp2_region.pointers(blocks, 0) == b""
    assert rp2_region.area_size(16) == 16 * 4096 - 4 * (15 + 11)

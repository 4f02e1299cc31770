"""The simulated board's end of a serial cable: a pty whose other end a host
tool (``host_tools.logger``, pyserial) opens by its path, as it would open
``/dev/ttyACM0``.

``PtyLink`` has the transport interface firmware/host/link.py uses
(``read_into(buf)``, ``write(data)``): reads never block, and writes drop
what the line cannot take, as a USB port with nobody reading does (the
protocol resends). ``corrupt``/``drop`` are per-byte fault probabilities
for the board-to-host direction (needs ``rng``); ``unplugged`` loses all bytes.
"""

from __future__ import annotations

import errno
import os
import tty


class PtyLink:
    def __init__(self, rng=None, corrupt=0.0, drop=0.0):
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # keep the slave open: a pty with no slave open reads EIO
        tty.setraw(self.master)
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)
        self.rng = rng
        self.corrupt = corrupt
        self.drop = drop
        self.unplugged = False

    def read_into(self, buf):
        try:
            data = os.read(self.master, len(buf))
        except OSError as e:
            if e.errno in (errno.EAGAIN, errno.EIO):
                return 0
            raise
        if self.unplugged:
            return 0
        buf[:len(data)] = data
        return len(data)

    def write(self, data):
        if self.unplugged:
            return len(data)
        data = bytes(data)
        if self.corrupt or self.drop:
            data = self._faults(data)
        try:
            return os.write(self.master, data)
        except BlockingIOError:
            return 0  # nobody reads: lost, the protocol resends

    def _faults(self, data):
        out = bytearray()
        for b in data:
            r = self.rng.random()
            if r < self.drop:
                continue
            if r < self.drop + self.corrupt:
                b ^= 1 << self.rng.randrange(8)
            out.append(b)
        return bytes(out)

    def close(self):
        os.close(self.master)
        os.close(self.slave)

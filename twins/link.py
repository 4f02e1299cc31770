"""A link transport twin for tests: two byte queues, optional faults.

``Pipe()`` is one cable: ``pipe.board`` is what firmware/host/link.py gets,
``pipe.host`` the other end (``send(bytes)``, ``take() -> bytes``).
``corrupt``/``drop`` are per-byte probabilities applied board-to-host (both
ways with ``both_ways``), using a caller's ``rng`` (anything with
``random()``); ``unplugged`` loses all bytes both ways. ``HostSerial(pipe)``
is the host's end as pyserial (the logger's ``SerialPort`` takes it).
"""


class _End:
    def __init__(self, pipe, inbox, outbox):
        self.pipe = pipe
        self.inbox = inbox
        self.outbox = outbox

    def read_into(self, buf):
        n = min(len(buf), len(self.inbox))
        if n:
            buf[:n] = self.inbox[:n]
            self.inbox[:n] = b""
        return n

    def write(self, data):
        self.pipe._carry(data, self.outbox)
        return len(data)


class Pipe:
    def __init__(self, rng=None, corrupt=0.0, drop=0.0, both_ways=False):
        self.to_board = bytearray()
        self.to_host = bytearray()
        self.rng = rng
        self.corrupt = corrupt
        self.drop = drop
        self.unplugged = False
        self.both_ways = both_ways
        self.board = _End(self, self.to_board, self.to_host)
        self.host = _End(self, self.to_host, self.to_board)

    def _carry(self, data, outbox):
        if self.unplugged:
            return
        if self.rng is None or (not self.corrupt and not self.drop) or (outbox is self.to_board and not self.both_ways):
            outbox.extend(data)
            return
        rng = self.rng
        for b in bytes(data):
            r = rng.random()
            if r < self.drop:
                continue
            if r < self.drop + self.corrupt:
                b ^= 1 << int(rng.random() * 8)
            outbox.append(b)

    def send(self, data):
        self.host.write(data)

    def take(self):
        data = bytes(self.to_host)
        self.to_host[:] = b""
        return data


class HostSerial:
    """The host's end of a Pipe, as pyserial: ``in_waiting``, ``read(n)``, ``write(data)``."""

    def __init__(self, pipe):
        self.pipe = pipe

    @property
    def in_waiting(self):
        return len(self.pipe.to_host)

    def read(self, n):
        return self.pipe.take()

    def write(self, data):
        self.pipe.send(data)
        return len(data)

    def close(self):
        pass

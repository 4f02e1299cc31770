"""A journal storage twin that can lose power at any byte.

``SimStorage(capacity)`` holds each file in a preallocated bytearray (so
appends allocate nothing, as on the device). ``cut_after(n)``: the power
fails after n more bytes are written: the write in progress is torn there,
and every later write, rename or removal is lost. ``restore_power()``
lets a new Board use the same storage.
"""

import io


class SimStorage:
    """See the module doc. ``files``: name -> [bytearray, length]."""

    def __init__(self, capacity=1 << 16):
        self.capacity = capacity
        self.files = {}
        self.budget = -1  # bytes that can still be written; -1: no cut planned
        self.written = 0  # bytes written, ever (wear figures)

    def cut_after(self, n):
        self.budget = n

    def restore_power(self):
        self.budget = -1

    def data(self, name=""):
        """A copy of the file's bytes (tests), or None."""
        f = self.files.get(name)
        return None if f is None else bytes(f[0][:f[1]])

    def set_data(self, name, data):
        """Replace a file's bytes (tests: corrupt a journal)."""
        buf = bytearray(max(self.capacity, len(data)))
        buf[:len(data)] = data
        self.files[name] = [buf, len(data)]

    def read(self, name):
        return self.data(name)

    def reader(self, name):
        """The file to read from its start (``readinto``; a ``with`` closes it), or None."""
        data = self.data(name)
        return None if data is None else io.BytesIO(data)

    def write(self, name, data, n=-1):
        """Append data[:n] (all of it if n < 0), torn where the power fails."""
        if self.budget == 0:
            return
        m = len(data) if n < 0 else n
        if 0 < self.budget < m:
            m = self.budget
        if self.budget > 0:
            self.budget -= m
        f = self.files.get(name)
        if f is None:
            f = self.files[name] = [bytearray(self.capacity), 0]
        buf, end = f
        if end + m > len(buf):
            raise OSError(28)  # ENOSPC
        for i in range(m):  # (byte by byte: no slice allocated, as on the device)
            buf[end + i] = data[i]
        f[1] = end + m
        self.written += m

    def flush(self, name):
        pass

    def replace(self, src, dst):
        if self.budget == 0:
            return
        self.files[dst] = self.files.pop(src)

    def remove(self, name):
        if self.budget == 0:
            return
        self.files.pop(name, None)

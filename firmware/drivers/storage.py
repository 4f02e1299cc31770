"""The journal's storage on a file system: littlefs on the device, any file system on a host.

``FileStorage("/journal.bin")`` keeps the journal in that file and a
compaction in progress beside it (``/journal.bin.new``): names given to its
methods are suffixes of the path (firmware/journal/store.py). Each file
being appended stays open (the journal and, while a compaction is written a
slice at a time, its snapshot: no reopening between them); ``flush(name)``
makes what was written to that file durable (littlefs commits it on flush;
on a host it reaches the operating system, which outlives a killed process).
"""

import os


class FileStorage:
    """See the module doc."""

    def __init__(self, path):
        self.path = path
        self._files = {}  # name -> the file open for appending

    def read(self, name):
        """The whole file, or None if there is none (a small one: the whole journal is read
        with ``reader``, a record at a time)."""
        try:
            with open(self.path + name, "rb") as f:
                return f.read()
        except OSError:
            return None

    def reader(self, name):
        """The file open for reading from its start (``readinto``; the caller closes it:
        ``with``), or None if there is none."""
        try:
            return open(self.path + name, "rb")  # noqa: SIM115 - the caller reads it and closes it
        except OSError:
            return None

    def write(self, name, data, n=-1):
        """Append data[:n] to the file (all of it if n < 0)."""
        f = self._files.get(name)
        if f is None:
            f = self._files[name] = open(self.path + name, "ab")  # noqa: SIM115 - stays open between appends
        if n < 0:
            f.write(data)
            return
        try:
            f.write(data, n)  # MicroPython's streams take a length: nothing sliced, nothing allocated
        except TypeError:  # CPython's files do not
            f.write(memoryview(data)[:n])

    def flush(self, name):
        f = self._files.get(name)
        if f is not None:
            f.flush()

    def replace(self, src, dst):
        """Rename src over dst (atomic on littlefs and POSIX), its appends made durable
        first: closing a file commits it on littlefs, as flush does."""
        self.close()
        getattr(os, "replace", os.rename)(self.path + src, self.path + dst)

    def remove(self, name):
        f = self._files.pop(name, None)
        if f is not None:
            f.close()
        try:
            os.remove(self.path + name)
        except OSError:
            pass

    def close(self):
        files = self._files
        while files:
            files.popitem()[1].close()

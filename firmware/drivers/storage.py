"""The journal's storage on a file system: littlefs on the device, any file system on a host.

``FileStorage("/journal.bin")`` keeps the journal in that file and a
compaction in progress beside it (``/journal.bin.new``): names given to its
methods are suffixes of the path (firmware/journal/store.py). The file being
appended stays open; ``flush()`` makes what was written durable (littlefs
commits it on flush; on a host it reaches the operating system, which
outlives a killed process).
"""

import os


class FileStorage:
    """See the module doc."""

    def __init__(self, path):
        self.path = path
        self._file = None
        self._name = None

    def read(self, name):
        """The whole file, or None if there is none."""
        try:
            with open(self.path + name, "rb") as f:
                return f.read()
        except OSError:
            return None

    def write(self, name, data):
        """Append data to the file."""
        if self._name != name:
            self.close()
            self._file = open(self.path + name, "ab")  # noqa: SIM115 - stays open between appends
            self._name = name
        f = self._file
        if f is not None:
            f.write(data)

    def flush(self):
        if self._file is not None:
            self._file.flush()

    def replace(self, src, dst):
        """Rename src over dst (atomic on littlefs and POSIX)."""
        self.close()
        getattr(os, "replace", os.rename)(self.path + src, self.path + dst)

    def remove(self, name):
        if self._name == name:
            self.close()
        try:
            os.remove(self.path + name)
        except OSError:
            pass

    def close(self):
        if self._file is not None:
            self._file.close()
        self._file = None
        self._name = None

"""The simulated board's stones kept in a file, so that they outlive the simulator's process as a real
board's stones outlive its power (``--state DIR``: ``DIR/table.bin``)."""

from __future__ import annotations

import os


class StonesFile:
    """One byte a point: 0 empty, 1 black, 2 white."""

    def __init__(self, path):
        self.path = path

    def load(self, stones):
        """Put the kept stones on ``stones`` (twins.stones.Stones); False if there is no such file."""
        try:
            data = self.path.read_bytes()
        except OSError:
            return False
        if len(data) != len(stones.colour) or any(c > 2 for c in data):
            return False  # not a stones file: start with an empty board
        stones.colour[:] = data
        return True

    def save(self, stones):
        part = self.path.with_name(self.path.name + ".part")
        part.write_bytes(bytes(stones.colour))
        os.replace(part, self.path)

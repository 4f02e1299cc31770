"""The buttons' twin: the real ``Buttons`` debouncing on simulated pins, pressed by a test's fingers."""

from firmware.drivers.buttons import COUNT, Buttons

from .pins import SimPin


class SimButtons(Buttons):
    """``hold(i)`` / ``release(i)`` instead of fingers; ``bounce`` for contact bounce."""

    def __init__(self, count=COUNT, debounce_ms=20):
        super().__init__([SimPin(1) for _ in range(count)], debounce_ms)

    def hold(self, i):
        self.pins[i].level = 0

    def release(self, i):
        self.pins[i].level = 1

    def bounce(self, i, down):
        """One raw level change (contact bounce is a burst of these)."""
        self.pins[i].level = 0 if down else 1

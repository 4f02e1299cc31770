"""Clock buttons: Black's, White's, pause and menu, debounced with injected time.

``Buttons`` receives ``machine.Pin`` objects (inputs to ground with pull-ups,
so pressed reads 0); it never creates pins. ``poll(now_ms)`` samples every
pin and returns a bit mask of the buttons that became pressed; ``at[i]`` is
the tick when that press began (the first edge of the level that then stayed
stable for ``debounce_ms``), which is the time the clock should be given.
What the presses mean is firmware/controls.py's. The twin (twins/buttons.py)
debounces the same way, with ``hold(i)`` / ``release(i)`` instead of
fingers. Nothing here allocates after construction.
"""

from ..micro import const, ticks_diff

B_BLACK = const(0)
B_WHITE = const(1)
B_PAUSE = const(2)
B_MENU = const(3)
COUNT = const(4)


class Buttons:
    """Debounced buttons; ``pins`` in the order black, white, pause, menu."""

    def __init__(self, pins, debounce_ms=20, active_low=True):
        self.pins = pins
        self.debounce_ms = debounce_ms
        self.active = 0 if active_low else 1
        n = len(pins)
        self.raw = bytearray(n)  # last sampled level (1 = pressed)
        self.state = bytearray(n)  # debounced level (1 = pressed)
        self.at = [0] * n  # tick at which the raw level last changed
        self.bits = 0  # debounced pressed mask

    def poll(self, now_ms):
        """Sample the pins; return the mask (1 << index) of buttons newly pressed.
        Runs every tick: the pins are read inline (a method call per pin costs)."""
        pressed = 0
        raw = self.raw
        state = self.state
        pins = self.pins
        active = self.active
        for i in range(len(raw)):
            level = 1 if pins[i].value() == active else 0
            if level != raw[i]:
                raw[i] = level
                self.at[i] = now_ms
            elif level != state[i] and ticks_diff(now_ms, self.at[i]) >= self.debounce_ms:
                state[i] = level
                if level:
                    pressed |= 1 << i
                    self.bits |= 1 << i
                else:
                    self.bits &= ~(1 << i)
        return pressed

    def is_down(self, i):
        return self.state[i] == 1

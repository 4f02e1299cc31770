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
        self.levels = 0  # the last sampled levels, a mask (1 = pressed)
        self.at = [0] * len(pins)  # tick at which each level last changed
        self.bits = 0  # debounced pressed mask

    def poll(self, now_ms):
        """Sample the pins; return the mask (1 << index) of buttons newly pressed.
        Runs every tick: the pins are read inline into a mask (a method call per pin
        costs), and nothing more is done while it equals the last and the debounced one."""
        active = self.active
        levels = 0
        bit = 1
        for pin in self.pins:
            if pin.value() == active:
                levels |= bit
            bit <<= 1
        was = self.levels
        bits = self.bits
        if levels == was == bits:
            return 0
        self.levels = levels
        at = self.at
        pressed = 0
        for i in range(len(at)):
            bit = 1 << i
            if (levels ^ was) & bit:
                at[i] = now_ms
            elif (levels ^ bits) & bit and ticks_diff(now_ms, at[i]) >= self.debounce_ms:
                bits ^= bit
                pressed |= levels & bit
        self.bits = bits
        return pressed

    def is_down(self, i):
        return self.bits >> i & 1 == 1

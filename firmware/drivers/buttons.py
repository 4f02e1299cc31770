"""Clock buttons: Black's, White's, pause and menu, debounced with injected time, taps latched.

``Buttons`` receives ``machine.Pin`` objects (inputs to ground with pull-ups,
so pressed reads 0); it never creates pins. ``poll(now_ms)`` samples every
pin and returns a bit mask of the buttons that became pressed; ``at[i]`` is
the tick when that press began (the first edge of the level that then stayed
stable for ``debounce_ms``), which is the time the clock should be given.
What the presses mean is firmware/controls.py's. The twin (twins/buttons.py)
debounces the same way, with ``hold(i)`` / ``release(i)`` instead of
fingers. Nothing here allocates after construction.

Taps between two polls: the loop polls every 10 ms, but a pass can take
longer (a flash erase, the display's redraw, the count), and a short tap
(30-60 ms, a normal press) could begin and end between two polls, or be
seen down once only, and be lost. With ``clock`` (``time.ticks_ms``) each
pin's press edge raises an IRQ (``Pin.irq``: the edge is latched by the
GPIO hardware even while interrupts are off, as in a flash write) that
notes the edge and its time; ``poll`` then counts a press the sampling
missed, at the edge's time. An edge within ``debounce_ms`` of a release
is that release's contact bounce, not a press.
"""

from ..micro import const, ticks_diff

B_BLACK = const(0)
B_WHITE = const(1)
B_PAUSE = const(2)
B_MENU = const(3)
COUNT = const(4)
_EDGE_MS = const(250)  # a latched edge older than this when the level is first seen down is not its start


class Buttons:
    """Debounced buttons; ``pins`` in the order black, white, pause, menu; ``clock``: taps latched
    by the pins' IRQs (see the module doc), their times read from it."""

    def __init__(self, pins, debounce_ms=20, active_low=True, clock=None):
        self.pins = pins
        self.debounce_ms = debounce_ms
        self.active = 0 if active_low else 1
        self.levels = 0  # the last sampled levels, a mask (1 = pressed)
        self.at = [0] * len(pins)  # tick at which each level last changed
        self.bits = 0  # debounced pressed mask
        self.latched = 0  # press edges the IRQs saw since the last poll, a mask
        self.tapped = 0  # press edges not yet counted or dismissed
        self.edge_at = [0] * len(pins)  # the time of each button's first press edge latched
        self.released = [None] * len(pins)  # when each button's last debounced release began
        self._clock = clock
        if clock is not None:
            for i in range(len(pins)):
                pin = pins[i]
                pin.irq(lambda p, i=i: self._edge(i), pin.IRQ_FALLING if active_low else pin.IRQ_RISING)

    def _edge(self, i):
        # (the IRQ's handler, scheduled: runs between two bytecodes of the loop)
        bit = 1 << i
        clock = self._clock
        if clock is not None and not (self.latched | self.tapped) & bit:
            self.edge_at[i] = clock()
        self.latched |= bit

    def poll(self, now_ms):
        """Sample the pins; return the mask (1 << index) of buttons newly pressed.
        Runs every tick: the pins are read inline into a mask (a method call per pin
        costs), and nothing more is done while it equals the last and the debounced one
        and no tap is latched."""
        if self._clock is not None and not (self.levels | self.bits | self.latched | self.tapped):
            return 0  # all up at the last look and no press edge since: the IRQs latch every one
        pins = self.pins
        active = self.active
        levels = 0
        for i in range(len(pins)):
            if pins[i].value() == active:
                levels |= 1 << i
        if levels == self.levels == self.bits and not (self.latched | self.tapped):
            return 0
        return self._change(levels, now_ms)

    def _change(self, levels, now_ms):
        # (apart from poll: a frame this large is taken from the heap at each call, see micro.py)
        was = self.levels
        bits = self.bits
        tapped = self.tapped | self.latched
        self.latched = 0
        self.levels = levels
        at = self.at
        pressed = 0
        for i in range(len(at)):
            bit = 1 << i
            if (levels ^ was) & bit:
                at[i] = now_ms
                if levels & tapped & bit and 0 <= ticks_diff(now_ms, self.edge_at[i]) < _EDGE_MS:
                    at[i] = self.edge_at[i]  # the press began at its edge, before this poll saw it
            elif (levels ^ bits) & bit and ticks_diff(now_ms, at[i]) >= self.debounce_ms:
                bits ^= bit
                if levels & bit:
                    pressed |= bit
                    tapped &= ~bit
                else:
                    self.released[i] = at[i]  # pyright: ignore[reportArgumentType, reportCallIssue]
            if tapped & bit and not (levels | bits) & bit:  # an edge, and the button up since: a tap
                tapped &= ~bit  # ... unless the edge was a release's bounce
                released = self.released[i]
                if released is None or ticks_diff(self.edge_at[i], released) >= self.debounce_ms:
                    pressed |= bit
                    at[i] = self.edge_at[i]
        self.bits = bits
        self.tapped = tapped
        return pressed

    def is_down(self, i):
        return self.bits >> i & 1 == 1

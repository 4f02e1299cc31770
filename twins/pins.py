"""Stand-ins for ``machine.Pin`` and ``machine.PWM``: they remember what they are told."""


class SimPin:
    """``value()`` reads the level, ``value(v)`` sets it (1 = high: a released
    active-low button); ``on_change(pin)`` is called when the level changes
    (a simulated chip watching its input)."""

    IRQ_FALLING = 4  # (machine.Pin's values on the RP2040)
    IRQ_RISING = 8

    def __init__(self, level=1, on_change=None):
        self.level = level
        self.on_change = on_change
        self.changes = 0
        self.handler = None  # irq(): called on the edges of ``trigger``, as a scheduled IRQ handler is
        self.trigger = 0

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING):
        self.handler = handler
        self.trigger = trigger

    def value(self, v=None):
        if v is None:
            return self.level
        v = 1 if v else 0
        if v != self.level:
            self.level = v
            self.changes += 1
            if self.on_change is not None:
                self.on_change(self)
            if self.handler is not None and self.trigger & (self.IRQ_RISING if v else self.IRQ_FALLING):
                self.handler(self)
        return None

    def __call__(self, v=None):
        return self.value(v)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)


class SimPWM:
    """What a PWM would be told: frequency and duty."""

    def __init__(self):
        self.frequency = 0
        self.duty = 0

    def freq(self, f=None):
        if f is None:
            return self.frequency
        self.frequency = f
        return None

    def duty_u16(self, d=None):
        if d is None:
            return self.duty
        self.duty = d
        return None

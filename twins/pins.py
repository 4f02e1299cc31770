"""Stand-ins for ``machine.Pin`` and ``machine.PWM``: they remember what they are told."""


class SimPin:
    """``value()`` reads the level, ``value(v)`` sets it (1 = high: a released
    active-low button); ``on_change(pin)`` is called when the level changes
    (a simulated chip watching its input)."""

    def __init__(self, level=1, on_change=None):
        self.level = level
        self.on_change = on_change
        self.changes = 0

    def value(self, v=None):
        if v is None:
            return self.level
        v = 1 if v else 0
        if v != self.level:
            self.level = v
            self.changes += 1
            if self.on_change is not None:
                self.on_change(self)
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

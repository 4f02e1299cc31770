"""The buzzer's twin: the real ``Buzzer`` patterns on a simulated PWM, every beep recorded."""

from firmware.drivers.buzzer import Buzzer

from .pins import SimPWM


class SimBuzzer(Buzzer):
    """Records each beep as (tick, frequency, on ms) in ``beeps``."""

    def __init__(self, patterns=None, quiet=False):
        self.beeps = []
        super().__init__(SimPWM(), patterns, quiet)

    def _begin(self, now_ms):
        p = self.pattern
        self.beeps.append((now_ms, p[self._step], p[self._step + 1]))
        super()._begin(now_ms)

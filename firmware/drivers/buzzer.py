"""Piezo buzzer on PWM: the clock's cues as short, non-blocking tones.

``Buzzer`` receives a ``machine.PWM`` object (never a pin number).
``play(cue, now_ms)`` starts the cue's pattern, ``update(now_ms)`` (every
tick while ``pattern``, the one sounding, is not empty) steps it and
silences the buzzer at the end; nothing blocks, nothing allocates.
``quiet = True`` silences everything. The patterns are a table
(cue -> beeps of (frequency Hz, on ms, off ms)), replaceable per board.
The twin (twins/buzzer.py SimBuzzer) records (tick, frequency, ms) for every beep.
"""

from ..clock.cues import CUE_COUNT, CUE_FLAG, CUE_LAST, CUE_NOTICE, CUE_PERIOD, CUE_TEN
from ..micro import const, ticks_add, ticks_diff

_DUTY = const(32768)  # 50 % on a piezo: loudest

# cue -> flat tuple of (frequency, on ms, off ms) triples
PATTERNS = {
    CUE_TEN: (1000, 60, 0),
    CUE_COUNT: (2000, 50, 0),
    CUE_LAST: (3000, 80, 0),  # distinct: the last period is being counted
    CUE_PERIOD: (2000, 80, 60, 2000, 80, 0),
    CUE_FLAG: (3000, 250, 100, 3000, 250, 100, 3000, 600, 0),
    CUE_NOTICE: (1500, 70, 50, 1500, 70, 0),  # a pass, a warning: look at the board
}


class Buzzer:
    def __init__(self, pwm, patterns=None, quiet=False):
        self.pwm = pwm
        self.patterns = PATTERNS if patterns is None else patterns
        self.quiet = quiet
        self.pattern = ()
        self._step = 0
        self._until = 0
        self._on = False
        self._off()

    def _tone(self, freq):
        self.pwm.freq(freq)
        self.pwm.duty_u16(_DUTY)

    def _off(self):
        self.pwm.duty_u16(0)

    def play(self, cue, now_ms):
        """Start cue's pattern (a cue of 0 or unknown, or quiet mode: nothing). True if it sounds."""
        if self.quiet or cue not in self.patterns:
            return False
        self.pattern = self.patterns[cue]
        self._step = 0
        self._begin(now_ms)
        return True

    def _begin(self, now_ms):
        p = self.pattern
        i = self._step
        self._tone(p[i])
        self._on = True
        self._until = ticks_add(now_ms, p[i + 1])

    def update(self, now_ms):
        """Advance the pattern; call every tick while there is one."""
        p = self.pattern
        if not p or ticks_diff(now_ms, self._until) < 0:
            return
        if self._on:
            self._off()
            self._on = False
            self._until = ticks_add(now_ms, p[self._step + 2])
            return
        self._step += 3
        if self._step >= len(p):
            self.pattern = ()
            return
        self._begin(now_ms)

"""The game clock: the time-control grammar (spec), the clock itself (engine), the tournament
clauses, what the display shows (face) and what the buzzer plays (cues).

``from firmware.clock import Clock`` is the documented entry point (docs/clock.md).
"""

from .engine import Clock  # noqa: F401

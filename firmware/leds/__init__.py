"""LED feedback: the marks the referee sets per point (marks) composed into one pixel frame (composer).

``from firmware.leds import Leds, CASUAL`` is the documented entry point (docs/leds.md).
"""

from .composer import CASUAL, OFF, TEACHING, TOURNAMENT, Leds  # noqa: F401

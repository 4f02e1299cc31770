"""LED feedback: the marks the referee sets per point (marks) composed into one pixel frame (composer).

``from firmware.leds import Leds, CASUAL`` is the documented entry point (docs/leds.md).
"""

from ..modes import CASUAL, TEACHING, TOURNAMENT  # noqa: F401
from .composer import OFF, Leds  # noqa: F401

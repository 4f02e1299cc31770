"""The players' simulator's tables: what one seeded game is played with, and the game played.

``draw_table(rng)`` draws a ``Table`` (board size, rule set, mode, sensing kind, time
control, handicap) from a seed's generator; ``Table.options()`` writes it as the
``python -m host_tools.sim`` options a script's header keeps, ``Table.from_options`` reads
them back, ``Table.simulation()`` builds the headless board for it (a journal on simulated
flash, the serial link recorded). ``Game`` is a played game: its script lines and violations.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass

from firmware.modes import NAMES as MODE_NAMES
from firmware.rules.rulesets import by_name
from firmware.settings import Settings
from twins.storage import SimStorage

from .headless import Simulation

RULES = ("korean", "japanese", "chinese", "thai", "aga", "op")
TIMES = ("none", "none", "none", "absolute 10m", "byoyomi 1m 3x20s", "fischer 2m +10s", "canadian 1m 5/1m",
         "absolute 40s", "byoyomi 10s 1x10s", "fischer 20s +3s", "simple 15s", "korean-amateur")


@dataclass
class Table:
    """One game's settings."""

    size: int = 9
    rules: str = "japanese"
    mode: str = "casual"
    sensors: str = "presence"
    time: str = "none"
    handicap: int = 0

    def options(self):
        """The settings as ``python -m host_tools.sim`` options (a script's header)."""
        return "--size %d --rules %s --mode %s --sensors %s --time %s --handicap %d" % (
            self.size, self.rules, self.mode, self.sensors, shlex.quote(self.time), self.handicap)

    @classmethod
    def from_options(cls, text):
        words = shlex.split(text)
        values = dict(zip(words[::2], words[1::2], strict=False))
        return cls(int(values.get("--size", 9)), values.get("--rules", "japanese"), values.get("--mode", "casual"),
                   values.get("--sensors", "presence"), values.get("--time", "none"), int(values.get("--handicap", 0)))

    def settings(self):
        return Settings(self.size, self.rules, None, self.handicap, self.time)

    def simulation(self):
        return Simulation(self.settings(), MODE_NAMES.index(self.mode), self.sensors, storage=SimStorage(),
                          record=True)


def draw_table(rng):
    """A table drawn from ``rng``: mostly 9x9, every rule set, mode, sensing kind and time system."""
    size = rng.choice((9, 9, 9, 9, 7, 13, 19))
    rules = rng.choice(RULES)
    handicap = 0
    if rules != "op" and rng.random() < 0.2:
        handicap = rng.choice((1, 2, 3, 4)) if size >= 9 else 1
        try:
            by_name(rules).check_handicap(size, handicap)
        except ValueError:
            handicap = 0
    return Table(size, rules, rng.choice(("casual", "casual", "teaching", "tournament")),
                 rng.choice(("presence", "polarity")), rng.choice(TIMES), handicap)


@dataclass
class Game:
    """A played game: its table, its script lines, the checker's violations and the passes run."""

    seed: int
    table: Table
    lines: list
    violations: list
    passes: int
    moves: int
    result: str

    def script(self, invariant=""):
        head = ["# players' simulator, seed %d" % self.seed, "# settings: " + self.table.options()]
        if invariant:
            head.append("# invariant: " + invariant)
        return "\n".join(head + self.lines) + "\n"

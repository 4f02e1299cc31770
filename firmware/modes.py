"""How the board plays (one numbering for the referee, the LEDs, the link and the journal).

casual: takebacks, refusals explained, LEDs for ko, last move, dame, territory;
teaching: casual plus atari and liberties, and warnings before a stone is let go;
tournament: the rule set's penalties, LEDs only for what must be fixed.
The journal stores the number: do not renumber.
"""

from .micro import const

CASUAL = const(0)
TEACHING = const(1)
TOURNAMENT = const(2)
NAMES = ("casual", "teaching", "tournament")

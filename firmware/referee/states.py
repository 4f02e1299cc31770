"""The referee's states (docs/architecture.md has the state diagram) and a frame's unknown colour.

Constants only (folded into their users by the bundle: the device never loads this module);
the reasons a stone is refused are machine.py's ``REASONS``.
"""

from ..micro import const

SETUP = const(0)  # handicap stones being placed
PLAY = const(1)  # the board matches the game: a new stone is a move
SYNC = const(2)  # waiting for the board to match: stones to put back or lift
REJECT = const(3)  # a refused stone must be lifted
COUNTING = const(4)  # play stopped: lifted stones are dead
OVER = const(5)  # the game has a result
NAMES = ("setup", "play", "sync", "reject", "counting", "over")


UNKNOWN = const(3)  # a settled frame's value for a stone whose colour the sensors cannot tell

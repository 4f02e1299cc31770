"""The referee's states (docs/architecture.md has the state diagram), the work it owes, a frame's unknown colour.

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

# Work a deferring referee (the app's) leaves to later loop passes (Referee.owed, bits).
OWED_PROPOSE = const(1)  # the dead stones to propose as counting begins
OWED_COUNT = const(2)  # the count
OWED_MAP = const(4)  # the count's map on the LEDs
OWED_SHOW = const(8)  # the proposal compared and painted (stones to lift)
OWED_SEKI = const(16)  # the count begun: its seki search, a slice a pass (rules/scoring.py more)

UNKNOWN = const(3)  # a settled frame's value for a stone whose colour the sensors cannot tell

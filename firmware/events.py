"""The board's event ring: what the referee decided and what the clock did, in one place, in order.

The referee and the clock of a game write to the same ``Events`` (the app
makes it and hands it to both), so a reader sees one history: a move, the
clock press that ended it, a pause, a warning... Preallocated arrays: adding
an event allocates nothing. Event number n (``count`` is how many were ever
added) lies at ``n % capacity`` in the arrays ``kind``, ``colour``,
``point`` (a game point, 0 when none), ``value`` and ``at`` (ticks ms). The
board itself only writes its ring: reading it back (the simulator's page and
log, the tests) is host_tools/board/event_log.py's. 32 events are ample for the simulators,
which read the new ones after every loop pass (a pass adds a few at most).
"""

from array import array

from .micro import const

# What the referee decided (colour: the player concerned; point: a game point).
EV_MOVE = const(1)  # value: stones captured
EV_PASS = const(2)
EV_UNDO = const(3)  # point: the move taken back
EV_ILLEGAL = const(4)  # a stone was refused; value: the reason (referee/machine.py REASONS index)
EV_PENALTY = const(5)  # value: the penalty applied (rulesets ILLEGAL_LOSS / ILLEGAL_WARN)
EV_HANDICAP = const(6)  # value: stones placed
EV_COUNTING = const(7)  # play stopped: counting begins
EV_DEAD = const(8)  # point's chain marked dead (value 1) or alive again (value 0)
EV_RESUME_PLAY = const(9)  # counting is over: play goes on
EV_END = const(10)  # the game has a result; colour: the winner (0: none)
EV_RESIGN = const(11)
EV_WARNING = const(12)  # value: the reason (referee/machine.py REASONS index)
# What the clock did (colour: the side concerned; value in ms unless said).
EV_START = const(13)
EV_PRESS = const(14)  # value: ms the move took (pauses excluded)
EV_PAUSE = const(15)
EV_RESUME = const(16)  # value: ms the clock stood still
EV_CAPTURE_PAUSE = const(17)  # value: stones to remove
EV_CAPTURE_REFUSED = const(18)
EV_AWAY_PAUSE = const(19)  # colour: the player who leaves
EV_AWAY_REFUSED = const(20)
EV_LATE = const(21)  # value: ms deducted
EV_LATE_FORFEIT = const(22)  # value: ms late
EV_FLAG = const(23)  # at: the exact tick the time ran out; value: ms the turn lasted
EV_ADJUST = const(24)  # value: ms added (negative: taken)
EV_STOP = const(25)
EV_STONES_LEFT = const(26)  # a press with captured stones still on the board; value: how many
EV_REFEREE = const(27)  # a referee's penalty (the host's ``referee``); value: its kind (rules/ending.py)
EV_JOURNAL = const(28)  # value 1: the journal cannot write (flash full or failing); 0: it writes again
EV_HAND_OVER = const(29)  # the turn given to colour without a move (a takeback); value: ms the other side ran
EV_REFEREE_STOP = const(30)  # the referee stopped the clock (Korean regulations 11-4): the referee restarts it
EV_CALL_PAUSE = const(31)  # a player stopped the clock to call the referee (Thai 17, 35)
EV_MISSING = const(32)  # a part is missing (left out at power-up, or dropped in play); value: the parts missing,
# firmware/hardware.py's ``faults`` mask


class Events:
    """A ring of the last ``capacity`` events; see the module doc."""

    def __init__(self, capacity=32):
        self.capacity = capacity
        self.kind = bytearray(capacity)
        self.colour = bytearray(capacity)
        self.point = array("H", bytes(2 * capacity))
        self.value = array("i", bytes(4 * capacity))
        self.at = array("i", bytes(4 * capacity))
        self.count = 0

    def add(self, kind, colour, point, value, at_ms):
        i = self.count % self.capacity
        self.kind[i] = kind
        self.colour[i] = colour
        self.point[i] = point
        self.value[i] = value
        self.at[i] = at_ms & 0x3FFFFFFF
        self.count += 1

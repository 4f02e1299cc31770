"""The referee's states, and the reasons it gives (docs/architecture.md has the state diagram)."""

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

UNKNOWN = const(3)  # a settled frame's value for a stone whose colour the sensors cannot tell

# Why a stone was refused or a player warned (events carry the index).
REASONS = ("occupied", "suicide", "ko", "superko", "out_of_turn", "off_board", "no_stones",
           "place_remove", "game_over", "two_stones", "wrong_colour", "press_clock",
           "captures_left", "removed_stone", "filled_chain")


def reason_index(reason):
    """Index of a reason name in REASONS."""
    for i in range(len(REASONS)):
        if REASONS[i] == reason:
            return i
    return len(REASONS)

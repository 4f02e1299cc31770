"""A move the rule set does not allow: ``IllegalMove`` and its reasons."""

# Reasons carried by IllegalMove.
OCCUPIED = "occupied"
SUICIDE = "suicide"
KO = "ko"
SUPERKO = "superko"
OUT_OF_TURN = "out_of_turn"
OFF_BOARD = "off_board"
NO_STONES = "no_stones"
PLACE_REMOVE = "place_remove"
GAME_OVER = "game_over"


class IllegalMove(ValueError):
    """A move the rule set does not allow.

    ``reason`` is one of: occupied, suicide, ko, superko, out_of_turn,
    off_board, no_stones, place_remove, game_over. ``point`` is the point tried.
    """

    def __init__(self, reason, point=0):
        super().__init__(reason)
        self.reason = reason
        self.point = point

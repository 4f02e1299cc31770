"""How a game ended, as a small value with its SGF ``RE`` string."""

from .const import const

DRAW = const(0)  # ``winner`` of a draw or jigo; None means no result (void)
BOTH_LOSE = const(4)  # ``winner`` when nobody wins and both players lose (OP Art.9-3, Thai 40)

SCORE = "score"
RESIGN = "resign"
TIME = "time"
FOUL = "foul"
CYCLE = "cycle"
NO_POINTS = "no_points"  # OP Art.9-3: a side with no points loses (RE "B+" / "W+")


def half_points(n2):
    """Points from half points: an int when whole (3), a float with its half (3.5)."""
    return n2 // 2 if n2 % 2 == 0 else n2 / 2


class Result:
    """The outcome of a game.

    ``winner``: BLACK (1), WHITE (2), DRAW (0), BOTH_LOSE (4) or None (no result).
    ``reason``: one of SCORE, RESIGN, TIME, FOUL, CYCLE, NO_POINTS.
    ``margin2``: the winning margin in half points (SCORE only).
    ``detail``: what happened, for people and logs ("ko", "annihilation"...).
    """

    def __init__(self, winner, reason, margin2=0, detail=""):
        self.winner = winner
        self.reason = reason
        self.margin2 = margin2
        self.detail = detail

    @property
    def margin(self):
        """Winning margin in points (a float only when it has a half)."""
        return half_points(self.margin2)

    def sgf(self):
        """The SGF FF[4] RE value: "B+3.5", "W+R", "B+T", "W+F", "0", "Void"; "Both lose"
        (FF[4] has no form for it: RE is free text, and this one is not "Void")."""
        if self.winner is None:
            return "Void"
        if self.winner == BOTH_LOSE:
            return "Both lose"
        if self.winner == DRAW:
            return "0"
        side = "B+" if self.winner == 1 else "W+"
        if self.reason == SCORE:
            return side + str(self.margin)
        reason = self.reason
        return side + ("R" if reason == RESIGN else "T" if reason == TIME else "F" if reason == FOUL else "")

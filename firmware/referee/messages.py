"""What the board wants the players to do, in words (the simulator's page; a display, one day)."""

from ..rules.result import DRAW
from ..rules.rulesets import CYCLE_DRAW
from .states import COUNTING, OVER, REJECT, SETUP, SYNC

_SYNC = {"two_stones": "two new stones: lift one", "moved": "a stone moved: put it back",
         "put_back": "put the stone back", "wrong_colour": "wrong colour", "lift": "lift the stones shown"}


def message(referee):
    """The referee's request now, as a sentence."""
    state = referee.state
    if state == SETUP:
        return "place %d handicap stones" % referee.handicap
    if state == OVER:
        result = referee.game.result
        if result.winner == DRAW and referee.game.rules.cycle == CYCLE_DRAW:
            return "game over: a draw; MENU replays it with the times left (Korean Art.21-4)"
        return "game over: " + result.sgf()
    if state == COUNTING:
        if referee.reason == "dame_open":
            return "dame still open (lit): fill them, then OK"
        if referee.reason == "put_back":
            return "put the stone back: the last dame filled comes off first"
        return "counting: lift dead stones, then OK"
    if state == REJECT:
        return "not accepted (" + referee.reason.replace("_", " ") + "): lift the stone"
    if state == SYNC:
        return _SYNC.get(referee.reason, referee.reason)
    if referee.reason == "pause_refused":
        if referee.game.rules.capture_pause == 1:
            return "no pause: only to remove captured stones (Korean Art.14-2)"
        return "no pause: only to remove 5+ captured stones in byo-yomi or the last 10 min (Thai 24)"
    if referee.seen.npending:
        return "remove the captured stones"
    if referee.game.cycle:
        return "position repeated (Thai 11): MENU twice if both agree to a draw (%d/2), or play on" % (
            referee.draw_votes)
    side = ("black", "white")[referee.game.to_move - 1]
    if referee.pair:
        from ..rules.pair import next_partner

        return "%s (%s%d) to play" % (side, side[0].upper(), next_partner(referee.game))
    return side + " to play"

"""What the board wants the players to do, in words (the simulator's page; a display, one day)."""

from .states import COUNTING, OVER, REJECT, SETUP, SYNC

_SYNC = {"two_stones": "two new stones: lift one", "moved": "a stone moved: put it back",
         "put_back": "put the stone back", "wrong_colour": "wrong colour", "lift": "lift the stones shown"}


def message(referee):
    """The referee's request now, as a sentence."""
    state = referee.state
    if state == SETUP:
        return "place %d handicap stones" % referee.handicap
    if state == OVER:
        return "game over: " + referee.game.result.sgf()
    if state == COUNTING:
        if referee.reason == "dame_open":
            return "dame still open (lit): fill them, then OK"
        return "counting: lift dead stones, then OK"
    if state == REJECT:
        return "not accepted (" + referee.reason.replace("_", " ") + "): lift the stone"
    if state == SYNC:
        return _SYNC.get(referee.reason, referee.reason)
    if referee.seen.npending:
        return "remove the captured stones"
    return ("black", "white")[referee.game.to_move - 1] + " to play"

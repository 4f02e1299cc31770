"""What the board wants the players to do, in words: the simulator's page (the long form).

Every message says what the LEDs show and where, in GTP names ("lift the
stones at D4, E4"), whose turn it is and who must press, and why a stone or a
control was refused. Results are said by words.py. The device never loads this
(it has no screen for sentences: its LEDs, its clock display and its ALERT
waiting= line say the short forms, firmware/referee/asks.py and clock/verdict.py).
"""

from firmware.events import (
    EV_AWAY_PAUSE,
    EV_CALL_PAUSE,
    EV_PASS,
    EV_PENALTY,
    EV_REFEREE,
    EV_REFEREE_STOP,
    EV_RESUME_PLAY,
)
from firmware.modes import TOURNAMENT
from firmware.referee.machine import REASONS
from firmware.referee.region import NONE
from firmware.referee.states import COUNTING, OVER, PLAY, REJECT, SETUP, SYNC
from firmware.rules.coords import vertex
from firmware.rules.history import is_pass
from firmware.rules.result import DRAW, half_points
from firmware.rules.rulesets import CAPTURE_ALWAYS, CYCLE_DRAW, SCORE_AREA, SCORE_OP, SCORE_TERRITORY

from .words import foul_words, game_result_words, result_words

_SHOWN = 6  # points named in a list before "and N more"

_REFUSED = {
    "occupied": "a stone is already there",
    "suicide": "a stone there would have no liberties (suicide is not allowed)",
    "ko": "ko: it retakes the ko at once; play elsewhere first",
    "superko": "it would repeat an earlier position (superko)",
    "place_remove": "it would undo the last removal (OP place-remove rule, Art.4)",
    "filled_chain": "the chain without liberties must come off first (OP Art.2-4)",
    "off_board": "it is outside the game's area",
    "game_over": "the game is over",
}
_REFEREE_GIVES = ("a caution", "a warning", "penalty points", "a forfeit")  # rules/ending.py PENALTY_KINDS order
_NOTES = {
    "no_takeback": "no takebacks in tournament mode: the referee decides",
    "nothing_to_undo": "nothing to take back",
    "counting_undo": "counting: a stone put back makes its chain alive again; Resume play goes back to play",
}


def names(referee, points, n):
    """GTP names of the physical points points[:n] (at most a few, then how many more)."""
    region = referee.region
    size = referee.game.size
    shown = [vertex(size, region.game_of[points[i]]) for i in range(min(n, _SHOWN))]
    text = ", ".join(shown)
    return text + (" and %d more" % (n - _SHOWN) if n > _SHOWN else "")


def _side(colour):
    return ("", "Black", "White")[colour]


def message(referee, clock=None):
    """The referee's request now, as a sentence (``clock``: the game's, to say a pause), after
    what the players are told of at once (a pass, a warning...: ``Referee.notify``)."""
    state = referee.state
    game = referee.game
    if state == SETUP:
        return _setup(referee)
    if state == OVER or game.result is not None:  # (the board shows it over in the next pass)
        return _over(referee)
    return notice(referee) + _request(referee, clock)


def notice(referee):
    """What the players are told of at once, as a sentence and a space ("" when nothing)."""
    kind = referee.noticed()
    if not kind:
        return ""
    game = referee.game
    who = _side(referee.notice_colour)
    value = referee.notice_value
    if kind == EV_PASS:  # (the second stops play: the count says so)
        if game.passes != 1 or referee.state == COUNTING:
            return ""
        return "%s passed: a pass by %s too ends play. " % (who, _side(3 - referee.notice_colour))
    if kind == EV_RESUME_PLAY:
        return "Play resumed after the passes: %s plays first. " % who if referee.state == PLAY else ""
    if kind == EV_REFEREE:
        return "The referee gives %s %s. " % (who, _REFEREE_GIVES[value])
    what = foul_words(REASONS[value], game.rules.name) if value < len(REASONS) else ""
    limit = game.rules.warning_loss
    count = " (warning %d; %d lose)" % (game.warnings[referee.notice_colour], limit) if limit else ""
    lost = " and loses the turn" if kind == EV_PENALTY else ""
    return "%s is warned%s%s: %s. " % (who, count, lost, what)


def _over(referee):
    game = referee.game
    if game.result.winner == DRAW and game.rules.cycle == CYCLE_DRAW:
        return "Game over: a draw; MENU replays it with the times left (Korean Art.21-4)"
    return "Game over: " + game_result_words(game)


def _request(referee, clock):
    state = referee.state
    game = referee.game
    if state == COUNTING:
        return _counting(referee)
    if state == REJECT:
        return _rejected(referee)
    if state == SYNC:
        return _sync(referee)
    seen = referee.seen
    note = _NOTES.get(referee.reason)
    if note:
        return note
    if referee.reason == "referee_stop":
        return "clock stopped by the referee: the referee restarts it (Korean regulations 11-4)"
    if referee.reason == "pause_refused":
        if game.rules.capture_pause == CAPTURE_ALWAYS:
            return "no pause: only to remove captured stones (Korean Art.14-2)"
        return "no pause: only to remove 5+ captured stones in byo-yomi or the last 10 min (Thai 24)"
    if seen.npending:
        pending = [p for p in range(len(seen.pending)) if seen.pending[p]]
        return "remove the captured stones at %s (lit)" % names(referee, pending, len(pending))
    if game.cycle:
        votes = referee.draw_votes
        if not referee.draw_offer:
            return "position repeated (Thai 11.1): a draw if both agree (MENU, then both press your clocks), or play on"
        if votes:
            return "a draw offered (Thai 11.1): %s agreed; %s, press your clock to agree, or play on" % (
                _side(votes), _side(3 - votes))
        return "a draw offered (Thai 11.1): both press your clocks to agree, or play on"
    turn = _turn(referee)
    if referee.awaiting_press:
        turn = "%s: press your clock to end the move (%s next)" % (_side(referee.awaiting_press), turn)
    else:
        turn += " to play"
    if clock is not None and clock.paused and not clock.stopped:
        kind = clock.pause_kind
        if kind == EV_REFEREE_STOP:
            return "clock stopped by the referee: the referee restarts it; " + turn
        if kind == EV_CALL_PAUSE:
            return "clock stopped: the referee is called (Thai 17, 35); PAUSE restarts it; " + turn
        if kind == EV_AWAY_PAUSE:
            return "clock stopped while a player is away (Thai 31): PAUSE on return; " + turn
        return "clock paused: PAUSE restarts it; " + turn
    return turn


def _turn(referee):
    game = referee.game
    side = ("black", "white")[game.to_move - 1]
    if referee.pair:
        from firmware.rules.pair import next_partner

        return "%s (%s%d)" % (side, side[0].upper(), next_partner(game))
    return side


def _setup(referee):
    seen = referee.seen
    need = referee.handicap
    down = seen.nextra
    if referee.guide is None:  # free placement
        return "place %d handicap stones anywhere: %d of %d down" % (need, down, need)
    wrong = [seen.extra[i] for i in range(down) if not referee.guide[seen.extra[i]]]
    if wrong:
        return "%s: not a handicap point, lift it (the handicap points are lit)" % names(referee, wrong, len(wrong))
    if down > need:
        return "more than %d handicap stones: lift one" % need
    return "place %d handicap stones on the lit points: %d of %d down" % (need, down, need)


def _rejected(referee):
    game = referee.game
    reason = referee.reason
    where = names(referee, (referee.rejected,), 1)
    mover = _side(game.to_move)
    if reason == "press_clock":
        why = "%s has not pressed the clock yet (lift it; %s presses, then %s plays)" % (
            _side(referee.awaiting_press), _side(referee.awaiting_press), mover)
        return "not accepted at %s: %s" % (where, why)
    if reason in ("out_of_turn", "wrong_colour"):
        why = "it is %s's turn" % mover
        if referee.awaiting_press:
            why += " once %s has pressed the clock" % _side(referee.awaiting_press)
        elif _resumed(game):
            why += ": play resumed after the passes with %s, who passed first" % mover
    elif reason == "two_stones":
        why = "two new stones at once"
    else:
        why = _REFUSED.get(reason, reason.replace("_", " "))
    return "not accepted at %s: %s. Lift the stone" % (where, why)


def _resumed(game):
    # Play resumed after the two passes that stopped it, and no stone played since.
    hist = game.hist
    k = hist.length - 1
    return k >= 2 and is_pass(hist.moves[k]) and is_pass(hist.moves[k - 1])


def _sync(referee):
    seen = referee.seen
    reason = referee.reason
    if reason == "two_stones":
        return "two new stones at %s: lift one" % names(referee, seen.extra, seen.nextra)
    if reason == "moved" and seen.nmissing == 1 and seen.nextra == 1 and referee.undone == NONE:
        return "a stone moved from %s to %s: put it back on %s" % (
            names(referee, seen.missing, 1), names(referee, seen.extra, 1), names(referee, seen.missing, 1))
    parts = []
    if seen.nextra:
        parts.append("lift the stone%s at %s" % ("s" if seen.nextra > 1 else "", names(referee, seen.extra, seen.nextra)))
    if seen.nmissing:
        parts.append("put back the stone%s at %s" % ("s" if seen.nmissing > 1 else "",
                                                      names(referee, seen.missing, seen.nmissing)))
    if seen.nwrong:
        parts.append("turn over the wrong colour at %s" % names(referee, seen.wrong, seen.nwrong))
    head = "taken back: " if referee.undone != NONE else ""
    return head + "; ".join(parts) + " (lit)"


def _counting(referee):
    game = referee.game
    if referee.reason == "dame_turn" and referee.rejected != NONE:
        return "not accepted at %s: the dame are filled in turn, %s's next. Lift the stone" % (
            names(referee, (referee.rejected,), 1), _side(game.to_move))
    seen = referee.seen
    if seen.npending:  # (captured stones still there: on their points, the dame would look filled)
        pending = [p for p in range(len(seen.pending)) if seen.pending[p]]
        return "counting: remove the captured stones at %s (lit) first" % names(referee, pending, len(pending))
    if referee.reason == "dame_open":
        return "dame still open (lit): fill them, then both press your clocks"
    if referee.reason == "put_back":
        return "put the stone back: the last dame filled comes off first"
    score = game.counter().score
    if game.rules.scoring == SCORE_OP:  # (OP Art.9: a draw at 7, a side with no points cannot win)
        text = "counting: Black %d, White %d: if it ends so, %s. " % (
            score.total(1), score.total(2), result_words(game.result_of(score), "op"))
    else:
        margin2 = score.margin2()
        lead = "even" if margin2 == 0 else "%s leads by %s" % ("Black" if margin2 > 0 else "White",
                                                              half_points(abs(margin2)))
        text = "counting: Black %d, White %d + komi %s: %s. " % (score.total(1), score.total(2), game.komi, lead)
    proposed = referee.proposed
    if game.rules.scoring != SCORE_TERRITORY and game.rules.scoring != SCORE_AREA:
        text += "The board counts as it stands: nothing is lifted at the end. "
    elif proposed is not None and any(proposed):
        text += "The lit stones look dead: lift them to agree, or lift and put back a chain to keep it alive. "
    else:
        text += "Lift dead stones (put one back: alive again). "
    votes = referee.votes
    if votes:
        return text + "%s agreed: %s, press your clock to agree" % (_side(votes), _side(3 - votes))
    return text + "Both press your clock to agree" + (" (or MENU)" if referee.mode != TOURNAMENT else "")

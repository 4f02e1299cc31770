"""Handicap stones placed before play: the referee's SETUP state (machine.py).

The referee loads this module (rules/const.py ``call_briefly``) only while it
sets a handicap game up, judges a frame in SETUP or paints its marks there:
a game plays on without it in the heap. ``referee.guide``: the physical
points of every customary arrangement (fixed placement), None for free
placement; ``referee.handicap_sets``: those arrangements (game points, each
sorted), empty for free placement.
"""

from ..events import EV_HANDICAP
from ..leds.marks import ACCEPTED, ERROR, PLACE
from ..rules.const import call_briefly
from ..rules.coords import PASS
from ..rules.rulesets import HANDICAP_FIXED
from .region import POINTS
from .states import PLAY, UNKNOWN


def prepare(referee):
    """A new referee's handicap: the customary arrangements when the rule set fixes them."""
    game = referee.game
    if referee.handicap > 1 and game.rules.handicap == HANDICAP_FIXED:
        referee.handicap_sets = sets = call_briefly("firmware.rules.handicap", "fixed_sets", game.size,
                                                    referee.handicap)
        referee.guide = guide = bytearray(POINTS)
        phys_of = referee.region.phys_of
        for points in sets:
            for g in points:
                guide[phys_of[g]] = 1


def judge(referee, now_ms):
    """Accept the handicap when the stones on the board are a valid arrangement
    (fixed: any customary one; free: any N points). True if it was placed."""
    game = referee.game
    seen = referee.seen
    stones = seen.nextra
    if stones == referee.handicap and seen.nmissing == 0:
        points = [referee.region.game_of[seen.extra[i]] for i in range(stones)]
        if not referee.handicap_sets or sorted(points) in referee.handicap_sets:
            game.place_handicap(points)
            referee.events.add(EV_HANDICAP, 1, PASS, stones, now_ms)
            referee.state = PLAY
            referee.after_game_change(now_ms)
            return True
    referee.reason = "handicap"
    referee.paint()
    return False


def paint(referee):
    """The SETUP marks: stones on right points ACCEPTED, on wrong ones ERROR, and (fixed
    placement) the points still to take PLACE: of the customary arrangement that holds
    the stones down so far, the first one when none does."""
    m = referee.marks
    seen = referee.seen
    guide = referee.guide
    frame = referee.frame
    right = 0
    for i in range(seen.nextra):
        p = seen.extra[i]
        ok = guide is None and seen.nextra <= referee.handicap or guide is not None and guide[p]
        right += 1 if ok else 0
        m.set(p, ACCEPTED if ok else ERROR, frame[p] if frame[p] != UNKNOWN else 0)
    if guide is None:
        return
    phys_of = referee.region.phys_of
    sets = referee.handicap_sets
    target = sets[0]
    for points in sets:
        held = 0
        for g in points:
            if frame[phys_of[g]]:
                held += 1
        if held == right:
            target = points
            break
    for g in target:
        if not frame[phys_of[g]]:
            m.set(phys_of[g], PLACE, 1)

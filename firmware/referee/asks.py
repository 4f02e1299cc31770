"""What the board asks the players to fix, in a few words: the host's ``ALERT waiting=`` line
(firmware/loop.py ``_asking``, firmware/host/link.py ``waiting``), so the venue sees a stuck table.
The short form of host_tools/board/messages.py's request; loaded for the line only.
"""

from ..rules.coords import vertex
from .states import REJECT

_SHOWN = 6  # points named before "+N" (how many more)


def words(referee):
    """``lift C3; put back D4,E4``: the stones the LEDs ask to lift, put back or turn over."""
    if referee.state == REJECT:
        return "lift " + _names(referee, (referee.rejected,), 1)
    seen = referee.seen
    parts = []
    for what, points, n in (("lift ", seen.extra, seen.nextra), ("put back ", seen.missing, seen.nmissing),
                            ("turn over ", seen.wrong, seen.nwrong)):
        if n:
            parts.append(what + _names(referee, points, n))
    return "; ".join(parts)


def _names(referee, points, n):
    # GTP names of the physical points points[:n], at most _SHOWN of them.
    game_of = referee.region.game_of
    size = referee.game.size
    text = ",".join([vertex(size, game_of[points[i]]) for i in range(min(n, _SHOWN))])
    return text + ("+%d" % (n - _SHOWN) if n > _SHOWN else "")

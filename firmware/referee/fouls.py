"""The referee's tournament clauses on captured and removed stones (Korean regulations, Thai rules).

``Fouls`` holds these methods of ``Referee`` (machine.py's ``Referee``
through phases.py's ``Phases(Fouls)``), kept apart as phases.py is: they
read the referee's state and charge a player a warning or the game.
"""

from ..events import EV_PENALTY, EV_WARNING, Events
from ..modes import TOURNAMENT
from ..rules.coords import PASS
from ..rules.history import move_colour
from ..rules.rulesets import ILLEGAL_LOSS
from .comparison import Comparison
from .region import Region
from .states import reason_index

TYPE_CHECKING = False  # the type checker reads the blocks below; nothing in them runs
if TYPE_CHECKING:
    from ..rules.game import Game


class Fouls:
    """Tournament clauses on the board: see the module doc."""

    # The referee's state these methods share (machine.py's Referee sets it).
    game: "Game"
    events: Events
    region: Region
    seen: Comparison
    mode: int
    _removal_charged: bool

    if TYPE_CHECKING:  # Referee's own method
        def _after_game_change(self, now_ms): ...

    def _clauses(self):
        # The tournament clauses on captured and removed stones (Korean, Thai).
        return self.mode == TOURNAMENT and self.game.rules.warning_loss

    def _charge(self, colour, reason, loss, now_ms):
        """``colour`` broke a tournament clause: it loses the game (``loss``) or is warned."""
        game = self.game
        if loss:
            game.foul(colour, reason)
            self.events.add(EV_PENALTY, colour, PASS, ILLEGAL_LOSS, now_ms)
        else:
            self.events.add(EV_WARNING, colour, PASS, reason_index(reason), now_ms)
            game.warn(colour, reason)
        self._after_game_change(now_ms)

    def _removed(self, now_ms):
        """Stones missing that were not captured, and nothing else amiss: the last mover
        lifted the opponent's stones (Korean regulations 19-1-2: the game; Thai 27: a
        warning). Charged once until the board matches again; they go back either way."""
        seen = self.seen
        if not seen.nmissing:
            self._removal_charged = False
            return False
        game = self.game
        hist = game.hist
        if seen.nextra or seen.nwrong or self._removal_charged or hist.length < 2 or not self._clauses():
            return False
        mover = move_colour(hist.moves[hist.length - 1])
        cells = game.pos.cells
        game_of = self.region.game_of
        for i in range(seen.nmissing):
            if cells[game_of[seen.missing[i]]] == mover:
                return False  # its own stone: put back, no clause
        self._removal_charged = True
        self._charge(mover, "removed_stone", game.rules.illegal == ILLEGAL_LOSS, now_ms)
        return True

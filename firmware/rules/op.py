"""The bookkeeping only the OP ("One Pure") rules need.

The product's reading of the seed text (docs/rulesets.md):

- 180 stones each. Stones the opponent removes go back to their owner's bowl
  and can be played again; self-removed stones are isolated (out of the game).
- Art.4, place-remove: the board right after a stone is removed must differ
  from the board just before that stone was placed. A move whose removals
  break this is a foul (the mover loses); ``Game`` raises
  IllegalMove("place_remove") so the caller can apply it.
- Art.3-3 / 5-1, re-removal: a chain removed again with the same colour and
  exactly the same points is isolated.
- Art.5-2, annihilation: a colour with no stone left on the board, after it
  has placed its first, loses. Black passing on the first move loses.
- Art.8, at the count (``Ledger.unscored``, on scoring.py's map: the count's
  code for the other rule sets does without it), and Art.9, the result.
"""

from array import array

from .const import zeros
from .history import move_point
from .position import ZOBRIST
from .result import BOTH_LOSE, DRAW, FOUL, NO_POINTS, SCORE, Result


class Ledger:
    """Stone supply, isolated stones and the registry of removed chains.

    ``supply[c]``: stones colour c can still play; ``isolated[c]``: stones of
    colour c out of the game; ``placed[c]``: stones colour c has placed.
    Capturing moves allocate (the registry grows); other moves do not.
    """

    def __init__(self, game):
        self.game = game
        supply = game.rules.stone_supply
        self.supply = array("H", (0, supply, supply))
        self.isolated = array("H", (0, 0, 0))
        self.placed = array("H", (0, 0, 0))
        cells = len(game.pos.cells)
        self.placed_at = zeros("H", cells)  # move that placed the stone on each point
        self._seen = bytearray(cells)
        self.chains = []  # every removed chain, oldest first: (colour, hash, points)
        self._undo = []  # per removing move: (move, stones isolated, chains registered)

    def setup_stone(self, pt, colour):
        """A stone put on the board before play begins comes from the bowl."""
        self.supply[colour] -= 1
        self.placed[colour] += 1

    def breaks_place_remove(self, pt, n):
        """Art.4 for the move just recorded (the last position), which removed n stones."""
        game = self.game
        hist = game.hist
        pos = game.pos
        j = hist.length - 1
        placed_at = self.placed_at
        placed_at[pt] = j
        h = hist.hashes[j]
        removed = pos.removed
        for i in range(n):
            t = placed_at[removed[i]]
            if t and hist.hashes[t - 1] == h and hist.board_equals(t - 1, pos.cells, pos.marks):
                return True
        return False

    def after_move(self, pt, colour, n, self_capture):
        """Account for a legal move: supply, isolation, annihilation."""
        game = self.game
        j = game.hist.length - 1
        self.supply[colour] -= 1
        self.placed[colour] += 1
        self.placed_at[pt] = j
        if n:
            victim = colour if self_capture else 3 - colour
            isolated = self._register_removals(victim, self_capture)
            self._undo.append((j, isolated, game.pos.nchains))
            self.supply[victim] += n - isolated
            self.isolated[victim] += isolated
        count = game.pos.count
        opp = 3 - colour
        if self.placed[opp] and count[opp] == 0:
            game.end(Result(colour, FOUL, 0, "annihilation"))
        elif self.placed[colour] and count[colour] == 0:
            game.end(Result(opp, FOUL, 0, "annihilation"))
        else:
            self.check_supply()

    def check_supply(self):
        """Art.6-2: play ends normally when the player to move has no stone left."""
        game = self.game
        if game.phase == 0 and self.supply[game.to_move] == 0:
            game.phase = 1

    def _register_removals(self, colour, self_capture):
        # Record each removed chain; return how many removed stones are isolated.
        pos = self.game.pos
        removed = pos.removed
        isolated = 0
        start = 0
        for c in range(pos.nchains):
            end = pos.chain_end[c]
            points = tuple(removed[start:end])
            h = 0  # the points' keys: chains are compared by colour too
            for p in points:
                h ^= ZOBRIST[p]
            if self_capture or self._removed_before(colour, h, points):
                isolated += len(points)
            self.chains.append((colour, h, points))
            start = end
        return isolated

    def _removed_before(self, colour, h, points):
        # Same colour, same hash, same size, then the exact point set.
        seen = self._seen
        for p in points:
            seen[p] = 1
        found = False
        for c, ch, cpoints in self.chains:
            if c == colour and ch == h and len(cpoints) == len(points):
                found = True
                for p in cpoints:
                    if not seen[p]:
                        found = False
                        break
                if found:
                    break
        for p in points:
            seen[p] = 0
        return found

    def before_undo(self, k, pt, colour, n, back):
        """Reverse the accounting of move k (before its stones are restored)."""
        self.supply[colour] += 1
        self.placed[colour] -= 1
        if n:
            move, isolated, chains = self._undo.pop()
            self.supply[back] -= n - isolated
            self.isolated[back] -= isolated
            del self.chains[len(self.chains) - chains:]

    def unscored(self, m):
        """OP Art.8 on a count's map ``m`` (scoring.py's, its regions labelled): a stone
        touching an opponent stone, or an empty region that reaches anything but its own
        colour, scores nothing (its entry becomes a stone of nobody's)."""
        from .scoring import DAME, KIND, OWNER, STONE, TERRITORY  # (loaded by now: the count's code, never kept by OP)

        cells = self.game.pos.cells
        w = self.game.pos.stride
        dirs = (-w, -1, 1, w)
        for p in range(len(m)):
            if m[p] & KIND != STONE:
                continue
            colour = cells[p]
            for d in dirs:
                q = p + d
                u = m[q]
                kind = u & KIND
                if (kind == DAME or (kind == STONE and cells[q] == 3 - colour)
                        or (kind == TERRITORY and u & OWNER != colour)):
                    m[p] = STONE
                    break

    def after_undo(self, k, log, start, n):
        """Restored stones get back the number of the move that placed them."""
        moves = self.game.hist.moves
        for i in range(start, start + n):
            p = log[i]
            m = k - 1
            while m > 0 and move_point(moves[m]) != p:
                m -= 1
            self.placed_at[p] = m


def result(score):
    """OP Art.9 from a Score: Black wins when B - W is more than the komi
    (7: B - W >= 8), draws at exactly 7, else White wins. A side with no
    points cannot win (Art.9-3): if the count favours it, it loses instead;
    when neither side has points both lose (RE "Both lose")."""
    black = score.points[1]
    white = score.points[2]
    if black == 0 and white == 0:
        return Result(BOTH_LOSE, NO_POINTS, 0, "both lose: no points")
    margin2 = 2 * (black + score.penalty[1] - white - score.penalty[2]) - score.komi2
    if margin2 >= 0 and black == 0:
        return Result(2, NO_POINTS, 0, "black has no points")
    if margin2 <= 0 and white == 0:
        return Result(1, NO_POINTS, 0, "white has no points")
    if margin2 > 0:
        return Result(1, SCORE, margin2)
    if margin2 < 0:
        return Result(2, SCORE, -margin2)
    return Result(DRAW, SCORE, 0, "draw at the komi")

"""The game the players played, read from their script lines' tags, against the board's game.

A players' script line carries, after ``#``, whose hands act and why: ``# B move E5``,
``# W pass``, ``# B takeback``, ``# W resume``, ``# B handicap``, ``# W resign``,
``# B agree`` (other words: ``capture``, ``knocked``, ``dead``, ``dame``... say what a hand
does; ``# host`` and no tag: the host, the power). ``Played`` keeps the game those intents
make (a rules ``Game``: the shadow the players choose their moves on) and checks the
board against it: before each move or pass, the board's moves so far are the players'
(``record``); after a resignation and an agreed count, the board has the result by a
deadline (``result``, through the checker's ``expect``).
"""

from __future__ import annotations

from firmware.leds.marks import DAME
from firmware.rules.coords import PASS, parse_vertex, vertex
from firmware.rules.game import COUNTING, OVER
from firmware.rules.history import DAME_FILL, move_colour, move_point

SIDES = {"B": 1, "W": 2}
_NAMES = {1: "B", 2: "W"}
TAKEBACK_SETTLES_MS = 400  # a lifted stone is seen after the sensors' 150 ms settle and a pass or two


def tag_of(line):
    """(who, words) of a script line's tag: who 1 or 2 (0: the host, the power, none)."""
    if "#" not in line:
        return 0, []
    words = line.split("#", 1)[1].split()
    if not words:
        return 0, []
    return SIDES.get(words[0], 0), words[1:]


def moves_of(game):
    """A game's moves and passes as (colour, point), dame fills left out."""
    hist = game.hist
    return [(move_colour(hist.moves[k]), move_point(hist.moves[k])) for k in range(1, hist.length)
            if not hist.moves[k] & DAME_FILL]


class Played:
    """The players' game (``game``) for one table; see the module doc."""

    def __init__(self, table):
        self.table = table
        self.game = table.settings().game()
        self.handicap = []
        self.agreed = 0
        self.taken_back = None  # (the move, when its takeback began)

    def before(self, sim, check, words):
        """A line with these intent words is about to be carried out: a move or a pass
        begins a turn, so the board must have the players' game so far."""
        if words and words[0] in ("move", "pass"):
            return self.check(sim, check)
        return True

    def apply(self, who, words, t_ms, check):
        """The line's intent, carried out: the players' game follows; a resignation or an
        agreement gives the board a deadline for its result."""
        game = self.game
        what = words[0] if words else ""
        if what == "move":
            g = parse_vertex(game.size, words[1])
            if game.phase == COUNTING:  # a stone resumes play: its player's move
                game.resume()
                game.to_move = who
            game.play(who, g)
        elif what == "pass":
            game.play(who, PASS)
        elif what == "takeback":
            self.taken_back = (moves_of(game)[-1], t_ms)
            game.undo()
        elif what == "resume" and game.phase == COUNTING:
            game.resume()
        elif what == "handicap":
            self.handicap.append(parse_vertex(game.size, words[1]))
            if len(self.handicap) == self.table.handicap:
                game.place_handicap(sorted(self.handicap))
        elif what == "resign":
            winner = 3 - who
            check.expect(t_ms + 300, "result", lambda sim: sim.game.result is not None and (
                sim.game.result.winner == winner or sim.game.result.reason != "resign"),
                "%s resigned and the game has no such result" % _NAMES[who])
        elif what == "agree":
            self.agreed += 1
            if self.agreed >= 2 or (len(words) > 1 and words[1] == "both"):
                self.agreed = 0
                check.expect(t_ms + 1500, "result", counted,
                             "the players agreed to the count and the game has no result (no dame lit)")
        if what in ("move", "pass", "resume", "takeback"):
            self.agreed = 0

    def check(self, sim, check):
        """The board's game is the players' (a game the board ended early, by a foul or a
        flag, may stop short of their last move); else a ``record`` violation. True if same."""
        board = moves_of(sim.game)
        mine = moves_of(self.game)
        if board == mine or (sim.game.phase == OVER and (mine[:len(board)] == board or self._overtaken(sim, board, mine))):
            return True
        k = next((i for i, (a, b) in enumerate(zip(board, mine, strict=False)) if a != b), min(len(board), len(mine)))
        check.violate("record", "the board's game differs from the players' from move %d: the board has %s, "
                      "the players played %s" % (k + 1, self.text(board[k:k + 2]), self.text(mine[k:k + 2])))
        return False

    def _overtaken(self, sim, board, mine):
        # A takeback the game's end overtook: the flag fell (or a foul ended the game) before
        # the lifted stone had settled (150 ms), so the board kept the move.
        if self.taken_back is None:
            return False
        move, began = self.taken_back
        ended = next((e["t_ms"] for e in reversed(sim.log) if e["kind"] == "result"), None)
        return board == mine + [move] and ended is not None and ended <= began + TAKEBACK_SETTLES_MS

    def text(self, moves):
        size = self.game.size
        return ", ".join("%s %s" % (_NAMES[c], vertex(size, p) if p != PASS else "pass") for c, p in moves) or "nothing"


def counted(sim):
    """After an agreement: a result, or the board still asks for captured stones to be lifted
    or dame (lit) to be filled."""
    if sim.game.result is not None or sim.game.phase != COUNTING or sim.app.referee.seen.npending:
        return True
    bits = sim.app.marks.bits
    stones = sim.hw.stones.colour
    return any(bits[p] & DAME and not stones[p] for p in range(len(bits)))

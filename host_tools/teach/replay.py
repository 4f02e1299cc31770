"""Any SGF stepped through on the board, its variations too: the next move lit, the student's hands
moving it forward and back.

``Replay(board, data)`` starts the record's position on the board (its set-up
stones lit to place) with no side played elsewhere, then at each node lights
the moves that follow (``show hint``: the main line's and every variation's)
and says on the display whose move it is, or how many variations there are.

- Forward: place a lit stone. The board takes it as the move; a variation's
  move follows that variation, and its comment is said.
- Back: MENU (the last stone taken back, lit to lift).
- A stone the record does not have there is taken back at once (``referee
  undo``), the display saying so. At a pass in the record, the clock button
  passes.
- At the end of a line the display says so; the clock button there ends the
  replay.
"""

from __future__ import annotations

from sgfmill import sgf

from firmware.rules.coords import PASS, vertex
from host_tools.sgf import from_sgfmill, rules_from_ru

from .problem import node_move
from .solving import AGAIN, next_event, setup_field, show_words, start_game

WAIT_S = 3600.0


class Replay:
    """One record on one board; see the module doc. ``say``: what happens, in words."""

    def __init__(self, board, data: bytes, say=print, patience_s=WAIT_S):
        self.board = board
        self.game = sgf.Sgf_game.from_bytes(data)
        self.size = self.game.get_size()
        self.say = say
        self.patience_s = patience_s
        self.known = 0
        self.steps = 0  # moves made forward and back

    def run(self) -> int:
        """Step through until the clock button at the end of a line; the moves stepped."""
        root = self.game.get_root()
        black, white = ([from_sgfmill(self.size, p) for p in stones] for stones in root.get_setup_stones()[:2])
        rules = rules_from_ru(root.get("RU") if root.has_property("RU") else None)  # (its moves legal as it was played)
        fields = f"size={self.size} komi=0 rules={rules.name if rules else 'japanese'}"
        first = next((node_move(self.size, child) for child in root), None)
        if black or white:  # (a handicap game's record: White moves first)
            fields += " " + setup_field(self.size, black, white) + ("/W" if first and first[0] == 2 else "")
        start_game(self.board, fields)
        path = [root]  # the nodes from the root to where the board is
        while True:
            node = path[-1]
            moves = [(child, node_move(self.size, child)) for child in node]
            moves = [(child, move) for child, move in moves if move is not None]
            self._show(moves)
            event, self.known = next_event(self.board, self.known, self.patience_s)
            if event == AGAIN:  # MENU: back one move
                if len(path) > 1:
                    path.pop()
                    self.steps += 1
                continue
            colour, pt = self.board.game.moves[self.known - 1][:2]
            child = next((c for c, move in moves if move == (colour, pt)), None)
            if child is None:
                if pt == PASS and not moves:
                    self.board.must("referee undo")  # (the pass is not kept: the replay ends)
                    show_words(self.board, "END OF REPLAY")
                    self.say(f"the replay ends after {self.steps} steps")
                    return self.steps
                self.board.must("referee undo")
                self.known -= 1
                show_words(self.board, "NOT IN RECORD", "LIFT IT")
                self.say(f"{vertex(self.size, pt) if pt != PASS else 'a pass'}: not the record's move; taken back")
                self.board.wait(1.0)
                continue
            path.append(child)
            self.steps += 1
            if child.has_property("C"):
                self.say(child.get("C"))

    def _show(self, moves) -> None:
        # The moves that follow lit as hints; the display: whose move, or how many variations.
        hints = [vertex(self.size, pt) for _c, (_colour, pt) in moves if pt != PASS]
        self.board.must("show " + ("hint " + " ".join(hints) if hints else "clear"))
        number = len(self.board.game.moves) + 1
        if not moves:
            show_words(self.board, "END OF THE LINE", "CLOCK: STOP")
        elif len(moves) > 1:
            show_words(self.board, f"MOVE {number}", f"{len(moves)} VARIATIONS")
        else:
            colour, pt = moves[0][1]
            show_words(self.board, f"MOVE {number}", ("BLACK " if colour == 1 else "WHITE ") +
                       ("PASSES" if pt == PASS else vertex(self.size, pt)))

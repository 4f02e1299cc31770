"""Guess the next move: a recorded game replayed on the board, the student guessing one side's moves.

``Guess(board, record, colour)`` starts the record's game on the board with the other
side played elsewhere (``new ... remote=``, the same door as an engine's moves,
host_tools/play): the other side's moves come lit to place, one by one. At each of
the student's moves the student places a stone. The record's move scores a point, and
play goes on. Another move is taken back (the referee's ``undo``: the board lights it to
lift) and the record's move is lit (``show hint``) until the student places it. The
score (right first time, of the moves asked) is the result; ``say`` tells each step.
A record's set-up or handicap stones come lit to place first (``new ... setup=``).
"""

from __future__ import annotations

from firmware.rules.coords import PASS, vertex
from host_tools.play.board import BoardError

from .solving import setup_field, start_game

WAIT_S = 3600.0  # the student's move: as long as it takes


class Guess:
    """One record guessed on one board (see the module doc). ``record``: host_tools.sgf.Record;
    ``colour``: the student's, 1 black or 2 white."""

    def __init__(self, board, record, colour, say=print, patience_s=WAIT_S):
        self.board = board
        self.moves = record.moves
        self.size = record.size
        self.colour = colour
        self.say = say
        self.patience_s = patience_s
        self.asked = 0  # the student's moves asked so far
        self.right = 0  # of them, guessed at the first try
        komi = f" komi={record.komi:g}" if record.komi is not None else ""
        setup = ""
        if record.black or record.white:  # (a handicap game's: White first)
            white_first = bool(record.moves) and record.moves[0][0] == 2
            setup = " " + setup_field(record.size, record.black, record.white) + ("/W" if white_first else "")
        start_game(board, f"size={record.size}{komi}{setup} remote={'BW'[2 - colour]}")

    def run(self):
        """Replay the whole record; (right, asked)."""
        for k, (colour, pt) in enumerate(self.moves):
            if pt == PASS:
                self.say(f"move {k + 1}: {'BW'[colour - 1]} passes; the replay stops here")
                break
            if colour == self.colour:
                self._ask(k, pt)
            else:
                self.board.send_move("BW"[colour - 1], vertex(self.size, pt), k + 1, self.patience_s)
        self.say(f"guessed {self.right} of {self.asked} at the first try")
        return self.right, self.asked

    def _ask(self, k, pt):
        # The student's move k+1: right at the first try scores; another is taken back and the
        # record's is shown until it is placed.
        self.asked += 1
        first = True
        while True:
            placed = self._placed(k)
            if placed == pt:
                break
            first = False
            self.board.must("referee undo")
            self.board.must(f"show hint {vertex(self.size, pt)}")
            self.say(f"move {k + 1}: not {vertex(self.size, placed)}; the record played {vertex(self.size, pt)}")
        if first:
            self.right += 1
            self.say(f"move {k + 1}: {vertex(self.size, pt)}, right")
        else:
            self.board.must("show clear")

    def _placed(self, k):
        # The point of the student's move k+1 once the board tells it.
        board = self.board
        if not board.wait(self.patience_s, lambda: len(board.game.moves) > k):
            raise BoardError(f"no move {k + 1} from the board in {self.patience_s:g} s")
        return board.game.moves[k][1]

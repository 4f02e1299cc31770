"""A GTP engine against the person at a board: the engine's moves lit on the board, the person's told to the engine.

``Match(board, engine, ...)`` starts a game on the board with the engine's colour
played elsewhere (``new ... remote=``) and then, a ``step`` at a time:

- the engine is told the board's game as the board tells it (host_tools/play/board.py):
  the person's moves, and any move taken back (an undo on the board, a power cut
  before the engine's stone was placed) taken back in the engine too (GTP ``undo``;
  an engine without it gets the game again from ``clear_board``);
- in the engine's turn, its ``genmove`` is sent to the board (``play``; a pass the
  same way), its resignation ends the game (``end B+R``);
- when the board counts, the engine's ``final_status_list dead`` is the proposal
  the board lights (``show dead``); the person answers it on the board and agrees.

The board's referee and rules decide every move: an engine whose move the board
refuses, that dies, answers garbage or is too slow stops the match with a
``MatchError`` naming what happened; the game stays on the board (and in its
journal) as it was, and the caller writes the record so far.
"""

from __future__ import annotations

from firmware.protocol import quote
from firmware.rules.coords import PASS, parse_vertex, vertex
from firmware.rules.game import COUNTING, PLAYING
from host_tools.gtp.engine import EngineError, EngineRefused

from .board import BoardError


class MatchError(Exception):
    """The match cannot go on (the engine failed, the board refused it); the message says why."""


class Match:
    """One game (see the module doc). ``colour``: the engine's, "B" or "W"; ``fields``: the board's
    ``new`` fields besides ``remote`` and the engine's name (rules, size, komi, handicap, time, pb/pw)."""

    def __init__(self, board, engine, colour, fields, move_s=120.0, patience_s=24 * 3600.0, say=print):
        self.board = board
        self.engine = engine
        self.colour = colour
        self.mine = 1 if colour == "B" else 2  # (the engine's colour as the rules core names it)
        self.move_s = move_s
        self.patience_s = patience_s
        self.say = say
        self.told: list[tuple[int, int]] = []  # the moves the engine has, in order (colour, point)
        self.proposed = False  # the engine's dead stones were sent for this count
        self.name = engine.identity()
        name_key = "pb" if colour == "B" else "pw"
        words = " ".join(f"{k}={v}" for k, v in fields.items())
        game = board.new_game(f"{words} remote={colour} {name_key}={quote(self.name)}")
        self.size = game.size
        self.handicap_told = False  # the handicap stones, once placed on the board
        engine.new_game(game.size, game.komi)  # (the board's komi: a handicap's under the rule set)
        self.say(f"{self.name} plays {'Black' if colour == 'B' else 'White'} on the {game.size}x{game.size} board"
                 + (f", {game.handicap} handicap stones to place first" if game.handicap else ""))

    @property
    def over(self):
        return self.board.game is None or self.board.game.result is not None

    def run(self):
        """Play until the game has a result (MatchError if it cannot)."""
        while not self.over:
            self.step()
        return self.board.game

    def step(self):
        """One look at the board and what it asks of the engine: a move it made told, the engine's
        turn, the count's proposal."""
        board = self.board
        changed = board.wait_change(len(board.game.moves), 0.2)
        game = board.game
        if game.result is not None:
            return
        rules = game.replayed()
        propose = rules.phase == COUNTING and not self.proposed
        turn = rules.phase == PLAYING and rules.to_move == self.mine
        if not (changed or propose or turn):
            return
        try:
            self._tell()
            if propose:
                self._propose()
            elif rules.phase == PLAYING:
                self.proposed = False  # (play resumed after the passes: the next count is proposed again)
                if turn:
                    self._move()
        except BoardError as error:
            raise MatchError(str(error)) from None
        except EngineError as error:
            raise MatchError(f"the engine failed: {error}") from None

    def _tell(self):
        # The engine's game made the board's: its handicap stones once placed, moves taken back
        # undone, new ones played.
        game = self.board.game
        if game.setup[0] and not self.handicap_told:
            self.engine.command("set_free_handicap " + " ".join(self._vertex(p) for p in game.setup[0]))
            self.handicap_told = True
        moves = [(c, PASS if lost else p) for c, p, _ms, _periods, lost in game.moves]
        told = self.told
        k = 0
        while k < len(told) and k < len(moves) and told[k] == moves[k]:
            k += 1
        while len(told) > k:
            try:
                self.engine.command("undo")
                told.pop()
            except EngineRefused:  # (an engine without undo: the game again from the start)
                self.engine.new_game(self.size, game.komi)
                self.handicap_told = False
                told.clear()
                return self._tell()
        for colour, pt in moves[len(told):]:
            self.engine.play("BW"[colour - 1], self._vertex(pt))
            told.append((colour, pt))
            if colour != self.mine:
                self.say(f"you: {'BW'[colour - 1]} {self._vertex(pt)}")

    def _move(self):
        move = self.engine.genmove(self.colour, self.move_s)
        if move == "resign":
            winner = "W" if self.colour == "B" else "B"
            self.board.must(f"end {winner}+R")
            self.say(f"{self.name} resigns")
            return
        self.told.append((self.mine, PASS if move == "pass" else parse_vertex(self.size, move)))  # (its game's)
        try:
            self.board.send_move(self.colour, move, len(self.told), self.patience_s)
        except BoardError as error:
            self.engine.command("undo")
            self.told.pop()
            raise MatchError(f"{self.name} played {move}, which the board refused: {error}") from None
        self.say(f"{self.name}: {self.colour} {move}")

    def _propose(self):
        dead = self.engine.dead_stones(self.move_s)
        self.board.must(" ".join(["show", "dead"] + dead))
        self.proposed = True
        self.say(f"{self.name} holds dead: {' '.join(dead) or 'nothing'}; lift them (or keep them) and press OK")

    def _vertex(self, pt):
        return "pass" if pt == PASS else vertex(self.size, pt)

"""The physical board as a GTP engine: the person at the board plays whatever is on the other side.

``BoardEngine(board)`` answers a GTP controller (Sabaki, GoGui, gomill's
ringmaster, gtp2ogs; ``python -m host_tools.gtp --board PORT|sim``) for a
``Board`` (host_tools/play/board.py). It keeps the controller's game in the
rules core, as the arbiter does (arbiter.py), and the board keeps its own:

- ``play C V`` (the opponent's move) starts the board's game at the first
  move, with C played elsewhere (``new ... remote=C``), then sends it
  (``play``): the board lights it to place and the person's stones it captured
  to lift. While the person's own move still waits for its clock press the
  board is asked again. An answer means the board took the move; the next
  ``genmove`` waits until its stone is down (the board takes no other move
  before).
- ``genmove C`` answers the next stone the person places (``pass``: a pass
  from the board's controls; ``resign``: its resign control).
- ``undo`` is the referee's take-back on the board; ``final_score`` and
  ``final_status_list dead`` are the board's count once the person agreed it
  (until then the rules core's); ``printsgf`` the board's record as the logger writes it;
  ``time_settings`` sets the clock of the next
  game the board starts (``time_left`` is answered and left: the board's own
  clock keeps the time).
- A move taken back on the board (a casual takeback, a power cut before the
  opponent's stone was placed) is sent again while ``genmove`` waits.

The board's game and the controller's differ only if the person takes back its
own move on the board: ``genmove`` then answers the move placed again, or
fails, naming the move, if it is another.
"""

from __future__ import annotations

from firmware.rules.coords import PASS, vertex
from firmware.rules.game import PLAYING
from firmware.version import NAME, VERSION
from host_tools.play.board import BoardError
from host_tools.sim.played import moves_of

from .arbiter import Arbiter, GtpError

PATIENCE_S = 24 * 3600.0  # a person's move, a count, a clock press: a controller waits as long


class BoardEngine(Arbiter):
    """GTP on one board (see the module doc); ``patience_s``: how long a person's move may take."""

    def __init__(self, board, rules="japanese", mode="casual", patience_s=PATIENCE_S):
        super().__init__(rules, 19)
        self.board = board
        self.mode = mode
        self.patience_s = patience_s
        self.person = 0  # the board's colour (1 black, 2 white): set by the game's first play or genmove
        self.handicap = 0
        self.time_spec = "none"
        for name in ("loadsgf", "place_free_handicap", "set_free_handicap", "mark_dead", "mark_alive"):
            del self.commands[name]  # (the board sets up and counts its own game)
        self.commands.update({"genmove": self.genmove, "time_settings": self.time_settings,
                              "time_left": self.time_left})

    def name(self, args):
        return NAME + " (the person at the board)"

    def version(self, args):
        return VERSION

    # -- the board's game ----------------------------------------------------------------

    def _start(self, person):
        # The board's game begins with the first move: the person plays ``person``.
        if self.person:
            if person != self.person:
                raise GtpError("the board plays %s: ask it with genmove" % "BW"[self.person - 1])
            return
        remote = "BW"[2 - person]
        fields = (f"size={self.size} komi={self.game.komi:g} rules={self.rules.name} remote={remote}"
                  f" handicap={self.handicap} time={self.time_spec.replace(' ', '%20')}")
        try:
            left = self.board.game
            if left is not None and left.result is None and left.moves:
                self.board.command("end Void")  # (a game the controller left: its record says so)
            self.board.new_game(fields)
            if self.mode != "casual":
                self.board.must(f"mode {self.mode}")
        except BoardError as error:
            raise GtpError(str(error)) from None
        self.person = person

    def _board_moves(self):
        game = self.board.game
        return [] if game is None else game.moves

    def _ours(self):
        # The controller's moves, (colour, point) in order.
        return moves_of(self.game)

    def _send_again(self):
        # The board lost moves the controller has (a takeback, a power cut): the opponent's next is sent again.
        ours, theirs = self._ours(), self._board_moves()
        if len(theirs) < len(ours):
            colour, pt = ours[len(theirs)]
            if colour != self.person and [m[:2] for m in theirs] == ours[:len(theirs)]:
                self.board.send_move("BW"[colour - 1], self._vertex_of(pt), len(theirs) + 1, self.patience_s)

    # -- the commands ----------------------------------------------------------------------

    def play(self, args):
        self._arity(args, 2, "play COLOUR VERTEX")
        colour = self._colour(args[0])
        self._start(3 - colour)
        super().play(args)
        ours = self._ours()
        try:
            self.board.send_move("BW"[colour - 1], self._vertex_of(ours[-1][1]), len(ours), self.patience_s)
        except BoardError as error:
            self.game.undo()
            raise GtpError(str(error)) from None
        return ""

    def genmove(self, args):
        self._arity(args, 1, "genmove COLOUR")
        colour = self._colour(args[0])
        self._start(colour)
        n = len(self._ours())
        board = self.board
        while True:
            self._send_again()
            moves = self._board_moves()
            if board.game.result is not None:
                if board.game.result.endswith("+R") and board.game.result[0] != "BW"[colour - 1]:
                    return "resign"
                raise GtpError("the board's game is over: " + board.game.result)
            if len(moves) > n:
                break
            if not board.wait_change(len(moves), self.patience_s):
                raise GtpError("no move from the board in %g s" % self.patience_s)
        mover, pt = moves[n][:2]
        if mover != colour or [m[:2] for m in moves[:n]] != self._ours():
            raise GtpError("the board's game went another way at move %d" % (n + 1))
        super().play(["BW"[colour - 1], self._vertex_of(pt)])
        return self._vertex_of(pt)

    def _vertex_of(self, pt):
        return "pass" if pt == PASS else vertex(self.size, pt)

    def undo(self, args):
        super().undo(args)
        if self.person:
            try:
                self.board.must("referee undo")
            except BoardError as error:
                raise GtpError(str(error)) from None
        return ""

    def boardsize(self, args):
        answer = super().boardsize(args)
        self.person = self.handicap = 0
        return answer

    def clear_board(self, args):
        self.person = self.handicap = 0
        return super().clear_board(args)

    def fixed_handicap(self, args):
        answer = super().fixed_handicap(args)
        self.handicap = int(args[0])
        return answer

    def time_settings(self, args):
        self._arity(args, 3, "time_settings MAIN_TIME BYO_YOMI_TIME BYO_YOMI_STONES")
        main, byo, stones = (self._int(a, "a time") for a in args)
        if byo <= 0:
            self.time_spec = f"absolute {main}s" if main > 0 else "none"
        else:
            self.time_spec = f"canadian {main}s {stones}/{byo}s" if stones > 0 else f"absolute {main}s"
        return ""

    def time_left(self, args):
        self._arity(args, 3, "time_left COLOUR TIME STONES")
        return ""

    def _counted(self):
        # The board's game once its count was agreed (waits for the person); None for no board game.
        board = self.board
        if not self.person or board.game is None:
            return None
        if board.game.result is None and self.game.phase != PLAYING:
            board.wait(self.patience_s, lambda: board.game.result is not None)
        return board.game if board.game.result is not None else None

    def final_score(self, args):
        counted = self._counted()
        return counted.result if counted is not None else super().final_score(args)

    def final_status_list(self, args):
        counted = self._counted()
        if counted is not None and args and args[0].lower() == "dead":
            return " ".join(vertex(self.size, p) for p in counted.dead)
        return super().final_status_list(args)

    def _record(self):
        # ``printsgf``: the board's own record, as the logger writes it (host_tools/logger/games.py).
        game = self.board.game
        if not self.person or game is None:
            return super()._record()
        return game.sgf_bytes(self.board.sync.board_id or "board")

"""The rules core as a GTP (Go Text Protocol v2) arbiter: the engine state and its commands.

``Arbiter.handle(line)`` answers one command line (``python -m host_tools.gtp``
runs it on stdin and stdout: host_tools/gtp/__main__.py). It plays no moves of its own: a
controller (Sabaki, gogui, a tournament runner) sends the moves and asks what
is legal, what was captured, and the score. Standard commands plus
``kgs-rules``, ``rules``, ``list_stones``, ``captures``, ``is_legal``,
``loadsgf``, ``printsgf``, ``final_score``, ``final_status_list`` and the
extensions ``mark_dead`` / ``mark_alive`` (whole chains, before
``final_score``). With ``--tournament`` an illegal play also costs what the
rule set says (Korean: the game, W+F / B+F; Thai: a warning and the turn).
Errors answer ``? message``; nothing a controller sends can crash the
process.
"""

from __future__ import annotations

from pathlib import Path

from firmware.rules.catalog import ALL
from firmware.rules.coords import MAX_SIZE, MIN_SIZE, PASS, parse_vertex, point, vertex
from firmware.rules.game import COUNTING, GAME_OVER, PLACE_REMOVE, Game, IllegalMove
from firmware.rules.handicap import fixed_points, max_fixed
from firmware.rules.history import LOST_TURN, move_colour, move_point
from firmware.rules.position import BLACK, WHITE
from firmware.rules.rulesets import by_name
from firmware.rules.scoring import DAME, DEAD, KIND, OWNER, SEKI, TERRITORY
from firmware.version import NAME, VERSION
from host_tools import sgf
from host_tools.board.rules import all_points, diagram, fixed_handicap, parse_colour


class GtpError(Exception):
    """A command failed; the message is the GTP error text."""


class Arbiter:
    """GTP engine state: one game, replaced by boardsize / clear_board / loadsgf."""

    def __init__(self, rules: str = "japanese", size: int = 19, komi: float | None = None,
                 tournament: bool = False):
        self.rules = by_name(rules)
        self.tournament = tournament
        self.size = size
        self.komi = komi
        self.game = self._new_game()
        self.done = False
        self.commands = {
            "protocol_version": self.protocol_version,
            "name": self.name,
            "version": self.version,
            "known_command": self.known_command,
            "list_commands": self.list_commands,
            "quit": self.quit,
            "boardsize": self.boardsize,
            "clear_board": self.clear_board,
            "komi": self.set_komi,
            "play": self.play,
            "undo": self.undo,
            "showboard": self.showboard,
            "fixed_handicap": self.fixed_handicap,
            "place_free_handicap": self.place_free_handicap,
            "set_free_handicap": self.set_free_handicap,
            "loadsgf": self.loadsgf,
            "printsgf": self.printsgf,
            "kgs-rules": self.kgs_rules,
            "rules": self.set_rules,
            "list_stones": self.list_stones,
            "captures": self.captures,
            "is_legal": self.is_legal,
            "final_score": self.final_score,
            "final_status_list": self.final_status_list,
            "mark_dead": self.mark_dead,
            "mark_alive": self.mark_alive,
        }

    def _new_game(self) -> Game:
        # GTP lets a controller play one colour twice in a row.
        return Game(self.size, self.rules, komi=self.komi, strict_turns=False)

    # -- the protocol ------------------------------------------------------

    def handle(self, line: str) -> str | None:
        """Answer one command line; None for a line with no command."""
        line = "".join(ch for ch in line if ch in "\t\n" or ord(ch) >= 32).replace("\t", " ")
        line = line.split("#", 1)[0].strip()
        if not line:
            return None
        words = line.split()
        ident = ""
        if words[0].isdigit():
            ident = words.pop(0)
            if not words:
                return f"?{ident} missing command\n\n"
        command, args = words[0], words[1:]
        handler = self.commands.get(command)
        try:
            if handler is None:
                raise GtpError("unknown command")
            answer = handler(args)
        except GtpError as error:
            return f"?{ident} {_brief(str(error))}\n\n"
        except Exception as error:  # a bug must not kill the controller's session
            return f"?{ident} internal error: {type(error).__name__}: {_brief(str(error))}\n\n"
        return f"={ident} {answer}\n\n" if answer else f"={ident}\n\n"

    # -- argument helpers --------------------------------------------------

    @staticmethod
    def _arity(args, n, usage):
        if len(args) != n:
            raise GtpError("syntax error, usage: " + usage)

    def _colour(self, text):
        try:
            return parse_colour(text)
        except ValueError:
            raise GtpError("syntax error, bad colour " + repr(text)) from None

    def _vertex(self, text):
        try:
            return parse_vertex(self.size, text)
        except ValueError as error:
            raise GtpError("syntax error, " + str(error)) from None

    def _int(self, text, what):
        try:
            return int(text)
        except ValueError:
            raise GtpError(f"syntax error, {what} must be an integer") from None

    # -- administrative ----------------------------------------------------

    def protocol_version(self, args):
        return "2"

    def name(self, args):
        return NAME + " arbiter"

    def version(self, args):
        return VERSION

    def known_command(self, args):
        self._arity(args, 1, "known_command name")
        return "true" if args[0] in self.commands else "false"

    def list_commands(self, args):
        return "\n".join(sorted(self.commands))

    def quit(self, args):
        self.done = True
        return ""

    # -- setup -------------------------------------------------------------

    def boardsize(self, args):
        self._arity(args, 1, "boardsize N")
        size = self._int(args[0], "size")
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise GtpError("unacceptable size")
        self.size = size
        self.game = self._new_game()
        return ""

    def clear_board(self, args):
        self.game = self._new_game()
        return ""

    def set_komi(self, args):
        self._arity(args, 1, "komi FLOAT")
        try:
            komi = float(args[0])
        except ValueError:
            raise GtpError("syntax error, komi must be a number") from None
        if komi != komi or abs(komi) > 1000:
            raise GtpError("syntax error, komi out of range")
        try:
            self.game.komi = komi
        except ValueError as error:
            raise GtpError("syntax error, " + str(error)) from None
        self.komi = komi
        return ""

    def _check_empty_board(self):
        if self.game.move_number or self.game.pos.count[BLACK] or self.game.pos.count[WHITE]:
            raise GtpError("board not empty")

    def fixed_handicap(self, args):
        self._arity(args, 1, "fixed_handicap N")
        n = self._int(args[0], "number of stones")
        self._check_empty_board()
        if n < 2 or n > max_fixed(self.size):
            raise GtpError("invalid number of stones")
        try:
            points = fixed_handicap(self.game, n)
        except ValueError as error:
            raise GtpError(str(error)) from None
        return " ".join(vertex(self.size, p) for p in points)

    def place_free_handicap(self, args):
        self._arity(args, 1, "place_free_handicap N")
        n = self._int(args[0], "number of stones")
        self._check_empty_board()
        if n < 2 or n > self.size * self.size - 1:
            raise GtpError("invalid number of stones")
        points = free_handicap_points(self.size, n)
        self._place_handicap(points)
        return " ".join(vertex(self.size, p) for p in points)

    def set_free_handicap(self, args):
        if len(args) < 2:
            raise GtpError("syntax error, at least two vertices")
        points = [self._vertex(a) for a in args]
        if PASS in points or len(set(points)) != len(points):
            raise GtpError("bad vertex list")
        if len(points) > self.size * self.size - 1:
            raise GtpError("bad vertex list")
        self._check_empty_board()
        self._place_handicap(points)
        return ""

    def _place_handicap(self, points):
        try:
            self.game.place_handicap(points)
        except ValueError as error:
            raise GtpError(str(error)) from None

    def kgs_rules(self, args):
        self._arity(args, 1, "kgs-rules japanese|chinese|aga|new_zealand")
        for rules in ALL:
            if rules.kgs == args[0].lower():
                return self._change_rules(rules)
        raise GtpError("unknown rules " + repr(args[0]))

    def set_rules(self, args):
        if not args:
            return self.rules.name
        self._arity(args, 1, "rules [" + "|".join(r.name for r in ALL) + "]")
        try:
            return self._change_rules(by_name(args[0]))
        except ValueError as error:
            raise GtpError(str(error)) from None

    def _change_rules(self, rules):
        """Switch rule sets, replaying the game so far under the new ones."""
        try:
            game = self._rebuild(rules)
        except (IllegalMove, ValueError) as error:
            raise GtpError("the game so far is not legal under " + rules.name + ": " + str(error)) from None
        self.rules = rules
        self.game = game
        return ""

    def _rebuild(self, rules):
        """A new game under ``rules`` with this game's setup and moves."""
        old = self.game
        game = Game(self.size, rules, komi=old.komi, strict_turns=False)
        black, white = old.setup_stones
        if old.handicap:
            game.place_handicap(list(black))
        elif black or white:
            game.setup(black, white, old.hist.first)
        for k in range(1, old.hist.length):
            record = old.hist.moves[k]
            if record & LOST_TURN:
                game.lose_turn(move_colour(record))
            else:
                _play_resuming(game, move_colour(record), move_point(record))
        return game

    # -- play --------------------------------------------------------------

    def play(self, args):
        self._arity(args, 2, "play COLOUR VERTEX")
        colour = self._colour(args[0])
        pt = self._vertex(args[1])
        game = self.game
        try:
            _play_resuming(game, colour, pt)
        except IllegalMove as error:
            # OP's place-remove foul is the rule itself; other penalties apply in tournament mode.
            if error.reason != GAME_OVER and (self.tournament or error.reason == PLACE_REMOVE):
                game.apply_illegal(colour, error.reason)
            raise GtpError("illegal move: " + error.reason) from None
        game.clear_dead()
        return ""

    def undo(self, args):
        try:
            self.game.undo()
        except ValueError:
            raise GtpError("cannot undo") from None
        return ""

    def is_legal(self, args):
        self._arity(args, 2, "is_legal COLOUR VERTEX")
        colour = self._colour(args[0])
        pt = self._vertex(args[1])
        game = self.game
        if game.phase == COUNTING:
            # Play may resume after passes: judge the move as if it had.
            game = self._rebuild(self.rules)
            game.resume(3 - colour)
        return "1" if game.is_legal(colour, pt) else "0"

    # -- information -------------------------------------------------------

    def list_stones(self, args):
        self._arity(args, 1, "list_stones COLOUR")
        colour = self._colour(args[0])
        cells = self.game.pos.cells
        return " ".join(vertex(self.size, p) for p in all_points(self.game.pos) if cells[p] == colour)

    def captures(self, args):
        self._arity(args, 1, "captures COLOUR")
        return str(self.game.captures[self._colour(args[0])])

    def showboard(self, args):
        game = self.game
        size = self.size
        letters = "ABCDEFGHJKLMNOPQRST"[:size]
        lines = ["   " + " ".join(letters)]
        for r, row in enumerate(diagram(game.pos)):
            n = size - r
            lines.append(f"{n:2d} " + " ".join(row) + f" {n:2d}")
        lines.append("   " + " ".join(letters))
        lines.append(f"rules {self.rules.name}, komi {game.komi:g}, {('black', 'white')[game.to_move - 1]} to play, "
                     f"captures B {game.captures[BLACK]} W {game.captures[WHITE]}")
        return "\n" + "\n".join(lines)

    # -- counting ------------------------------------------------------------

    def final_score(self, args):
        game = self.game
        if game.result is not None:
            return game.result.sgf()
        return game.result_of(game.count()).sgf()

    def final_status_list(self, args):
        self._arity(args, 1, "final_status_list alive|dead|seki|black_territory|white_territory|dame")
        wanted = args[0].lower()
        game = self.game
        counter = game.counter()
        m = counter.classify()
        cells = game.pos.cells
        picks = {
            "alive": lambda p: cells[p] in (BLACK, WHITE) and not counter.dead[p] and m[p] & KIND != SEKI,
            "dead": lambda p: cells[p] in (BLACK, WHITE) and counter.dead[p],
            "seki": lambda p: cells[p] in (BLACK, WHITE) and m[p] & KIND == SEKI and m[p] & OWNER,
            "black_territory": lambda p: m[p] & KIND in (TERRITORY, DEAD) and m[p] & OWNER == BLACK,
            "white_territory": lambda p: m[p] & KIND in (TERRITORY, DEAD) and m[p] & OWNER == WHITE,
            "dame": lambda p: m[p] & KIND == DAME,
        }
        if wanted not in picks:
            raise GtpError("syntax error, unknown status " + repr(args[0]))
        pick = picks[wanted]
        return " ".join(vertex(self.size, p) for p in all_points(game.pos) if pick(p))

    def mark_dead(self, args):
        return self._mark(args, True)

    def mark_alive(self, args):
        return self._mark(args, False)

    def _mark(self, args, dead):
        if not args:
            raise GtpError("syntax error, at least one vertex")
        points = [self._vertex(a) for a in args]
        counter = self.game.counter()
        for text, pt in zip(args, points, strict=True):
            if pt == PASS or self.game.pos.cells[pt] not in (BLACK, WHITE):
                raise GtpError("no stone at " + text)
        for pt in points:
            counter.set_dead(pt, dead)
        return ""

    # -- SGF -----------------------------------------------------------------

    def loadsgf(self, args):
        if not 1 <= len(args) <= 2:
            raise GtpError("syntax error, usage: loadsgf FILE [MOVE_NUMBER]")
        upto = self._int(args[1], "move number") if len(args) == 2 else None
        try:
            record = sgf.read(Path(args[0]).read_bytes())
        except OSError as error:
            raise GtpError("cannot load file: " + str(error.strerror or error)) from None
        except ValueError as error:
            raise GtpError("cannot load file: " + str(error)) from None
        if not MIN_SIZE <= record.size <= MAX_SIZE:
            raise GtpError("unacceptable size")
        saved = (self.size, self.rules, self.komi, self.game)
        self.size = record.size
        if record.rules is not None:
            self.rules = record.rules
        self.komi = record.komi
        game = self._new_game()
        try:
            if record.handicap and record.black and not record.white:
                game.place_handicap(record.black)
            elif record.black or record.white:
                first = record.to_move or (record.moves[0][0] if record.moves else BLACK)
                game.setup(record.black, record.white, first)
            moves = record.moves if upto is None else record.moves[: max(upto - 1, 0)]
            for colour, pt in moves:
                _play_resuming(game, colour, pt)
        except (IllegalMove, ValueError) as error:
            self.size, self.rules, self.komi, self.game = saved
            raise GtpError("cannot load file: illegal record (" + str(error) + ")") from None
        self.game = game
        return ("black", "white")[game.to_move - 1]

    def printsgf(self, args):
        data = self._record().decode("utf-8").strip()
        if args:
            try:
                Path(args[0]).write_text(data + "\n", encoding="utf-8")
            except OSError as error:
                raise GtpError("cannot write file: " + str(error.strerror or error)) from None
            return ""
        return data


    def _record(self) -> bytes:
        # The game's SGF (the arbiter's: its rules core's game).
        return sgf.write(self.game)


def _play_resuming(game: Game, colour: int, pt: int):
    """Play, resuming first if passes had stopped play (controllers play on)."""
    if game.phase == COUNTING:
        game.resume(3 - colour)
    game.play(colour, pt)


def free_handicap_points(size: int, n: int) -> list[int]:
    """Where the arbiter puts a free handicap: the fixed points first, then
    the rest of a 3-3 / 4-4 / middle grid, then the remaining points."""
    chosen = list(fixed_points(size, min(n, max_fixed(size)))) if n >= 2 and max_fixed(size) else []
    edge = 2 if size < 13 else 3
    lines = sorted({edge, size // 2, size - 1 - edge})
    candidates = [point(size, c, r) for r in lines for c in lines]
    candidates += [point(size, c, r) for r in range(size) for c in range(size)]
    for p in candidates:
        if len(chosen) == n:
            break
        if p not in chosen:
            chosen.append(p)
    return chosen


def _brief(text: str, limit: int = 160) -> str:
    """An error message on one line and short: what a controller sent is never echoed whole."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + "..."

"""One board as the venue sees it: its lines, applied in order, and what the pages show of it.

The venue keeps two copies of every board: the live one (referees) and the
delayed one (the public page, ``--delay``). Both are ``BoardView``s fed the same
lines, the delayed one later, once the venue's gate (intake.py) let them through.
A board that waits for its players to fix it (its ``ALERT ... waiting=``) or whose
clock runs with no move for ``stall_s`` is a board a referee should look at. No I/O here.
"""

from __future__ import annotations

from firmware import protocol as pr
from firmware.rules.coords import PASS, col_row, point
from firmware.rules.game import COUNTING, Game
from firmware.rules.position import BLACK
from host_tools.board.protocol import decode
from host_tools.logger.games import GameLog, Games
from host_tools.records import Checker
from host_tools.venue.intake import unchanged

FOULS = ("warning", "points", "forfeit")  # penalties a referee looks at (a caution alone is not)
PROGRESS = ("GAME", "MOVE", "UNDO", "END", "PENALTY")  # lines that show a game going on
REFUSALS_SAID = 3  # refused lines named under a board's problems (the first ones: the cause); the rest counted


class BoardView:
    """A board's games and health from its lines (``take``), summed up by ``summary``."""

    def __init__(self, board: str, key: bytes | None = None):
        """``key``: the board's secret (host_tools/records.py board_key), to check its signatures."""
        self.board = board
        self.games = Games()
        self.checker = Checker(board, key)
        self.seal = "none"  # the current game's, as the checker found it
        self.status = "offline"  # the logger's word: online / offline
        self.journal = "ok"
        self.signs = False  # its HELLO says it holds a secret (sign=1): registered
        self.missing = ""  # the parts the board runs without ("display,buzzer"), as its HELLO and ALERT say
        self.mode = ""
        self.boot = 0
        self.announced: dict[int, int] = {}  # game id -> the power-up its GAME line was last told in
        self.replaying: dict[int, int] = {}  # game id -> its next move told again (a game told again)
        self.last_seq = -1
        self.problems: list[str] = []  # what a referee should look at (a conflict, a gap, a rejected line)
        self.refused: list[dict] = []  # the last commands the board refused (its ERR lines): seq, code, detail, at
        self.clock: dict[int, tuple[int, int, float]] = {}  # colour -> (ms left, periods, when heard)
        self.waiting: tuple[int, str] | None = None  # the board's word: (seconds waited for the players, for what)
        self.progress_at = 0.0  # when the last line about the game came (a move, a penalty...)
        self.stalled = ""  # why the game looks stuck (a clock running, no move), or ""
        self.quarantined = 0  # lines the gate refused (kept apart in the archive)
        self.pairing: dict = {}  # round, table_no, names and ranks, when the venue paired this board
        self.version = 0  # bumped by every change the pages should show
        self._replay: tuple[GameLog | None, list, Game | None] = (None, [], None)

    def take(self, seq: int, raw: str, at: float, boot: int = 0) -> None:
        """One line from the board (already checked: CRC, order, the gate); ``boot``: the
        power-up its logger heard it in."""
        msg = decode(raw.encode())
        if msg is None:
            self.problem("line %d: bad CRC" % seq)
            return
        _seq, kind, fields = msg
        self.last_seq = max(self.last_seq, seq)
        self.boot = max(self.boot, boot)
        self.version += 1
        if kind == "HELLO":
            hello = pr.fields_dict(fields)
            self.boot = int(hello.get("boot", self.boot))
            self.journal = hello.get("journal", "ok")
            self.missing = hello.get("missing", "")
            self.signs = hello.get("sign") == "1"
            self._wait(hello)
            return
        if kind in ("ALERT", "STUCK"):
            alerts = pr.fields_dict(fields)
            if "journal" in alerts or "missing" in alerts:  # (an ALERT names every part missing)
                self.journal = alerts.get("journal", self.journal)
                self.missing = alerts.get("missing", "")
            self._wait(alerts)
            return
        if kind == "MODE" and fields:
            self.mode = fields[0]
            return
        if kind == "ERR":
            self.refusal(seq, fields, at)
            return
        if kind in PROGRESS:
            self.progress_at = at
            self.stalled = ""
        if unchanged(self, kind, fields):
            if kind == "GAME":  # told again (a power-up): its moves follow, told again one by one
                self.announced[int(fields[0])] = self.boot
                self.replaying[int(fields[0])] = 1
            elif kind == "MOVE" and self.games.current is not None:
                gid = self.games.current.gid
                if self.replaying.get(gid) == int(fields[0]):
                    self.replaying[gid] += 1
            return
        if kind in ("GAME", "MOVE", "UNDO"):
            self.replaying.clear()
        if kind == "GAME":
            self.clock = {}
            self.waiting = None
        try:
            changed = self.games.apply(kind, fields)
        except (ValueError, IndexError) as error:
            self.problem("line %d %s refused: %s" % (seq, kind, error))
            return
        if kind == "GAME" and changed is not None:
            self.announced[changed.gid] = self.boot
        if changed is not None and changed is self.games.current:
            self.seal, problem = self.checker.check(changed)
            if problem and problem not in self.problems:
                self.problem(problem)
        if kind == "MOVE" and len(fields) >= 5:
            colour = BLACK if fields[1] == "B" else 3 - BLACK
            self.clock[colour] = (int(fields[3]), int(fields[4]), at)

    def refusal(self, seq: int, fields: list[str], at: float) -> None:
        """A command the board refused (``ERR <code> <detail>``): kept for the referee, the last
        five, unless it answered the logger's own resync (a ``resend`` too old or too far)."""
        code = fields[0] if fields else ""
        try:
            detail = pr.unquote(fields[1]) if len(fields) > 1 else ""
        except (ValueError, UnicodeError):
            detail = fields[1]
        if code == pr.E_TOO_OLD or detail.startswith("resend"):
            return
        self.refused = (self.refused + [{"seq": seq, "code": code, "detail": detail, "at": at}])[-5:]

    def _wait(self, fields: dict) -> None:
        """The board's word that it waits for the players to fix it (``waiting=<s> what=<words>``;
        ``waiting=0``: fixed)."""
        if "waiting" not in fields:
            return
        try:
            seconds = max(0, int(fields["waiting"]))
        except ValueError:
            return
        self.waiting = (seconds, fields.get("what", "")[:120]) if seconds else None

    def stall(self, now: float, after_s: float) -> bool:
        """Look again for a game stuck with its clock running (no move for ``after_s``): whether
        that changed (the pages should hear of it)."""
        log = self.games.current
        why = ""
        if (log is not None and log.result is None and log.moves and self.clock and self.progress_at
                and now - self.progress_at >= after_s and log.fields.get("time", "none") != "none"):
            _log, game = self.game()
            if game is not None and game.phase != COUNTING:
                side = "Black" if game.to_move == BLACK else "White"
                why = "no move for %d min while %s's clock runs (move %d)" % (
                    (now - self.progress_at) // 60, side, len(log.moves))
        if why == self.stalled:
            return False
        self.stalled = why
        self.version += 1
        return True

    def problem(self, text: str) -> None:
        self.problems = (self.problems + [text])[-5:]
        self.version += 1

    def refuse(self, text: str) -> None:
        """A line of this board the venue refused (kept apart): the first few said, the rest counted."""
        self.quarantined += 1
        if self.quarantined <= REFUSALS_SAID:
            self.problem(text)
            return
        more = "%d more lines refused (kept apart)" % (self.quarantined - REFUSALS_SAID)
        self.problems = [p for p in self.problems if not p.endswith("more lines refused (kept apart)")][-4:] + [more]
        self.version += 1

    def set_status(self, status: str) -> None:
        if status != self.status:
            self.status = status
            self.version += 1

    # -- what the pages show -------------------------------------------------------

    def game(self) -> tuple[GameLog | None, Game | None]:
        """The current game and its position, replayed only as far as it changed."""
        log = self.games.current
        if log is None:
            return None, None
        done_log, done_moves, game = self._replay
        n = len(done_moves)
        if done_log is not log or game is None or log.moves[:n] != done_moves or log.undone:
            game = log.game()
        else:
            for colour, pt, _ms, _periods, lost in log.moves[n:]:
                try:
                    if game.phase == COUNTING:
                        game.resume(3 - colour)
                    game.lose_turn(colour) if lost else game.play(colour, pt)
                except ValueError:
                    game = log.game()  # the slow way names what the rules refused
                    break
        log.undone = False
        self._replay = (log, list(log.moves), game)
        return log, game

    def state(self, log: GameLog | None, game: Game | None) -> str:
        no_sensor = "sensor" in self.missing.split(",")  # (a board without its sensor cannot be played on)
        if self.status != "online" or self.journal == "failing" or self.problems or no_sensor or self.waiting:
            return "problem"
        if log is None:
            return "waiting"
        if log.result is not None:
            return "finished"
        if game is not None and game.phase == COUNTING:
            return "counting"
        return "playing" if log.moves else "waiting"

    def summary(self) -> dict:
        """What the pages need of this board (JSON-ready)."""
        log, game = self.game()
        out = {"board": self.board, "status": self.status, "journal": self.journal, "missing": self.missing,
               "mode": self.mode, "refused": self.refused, "signs": self.signs, "quarantined": self.quarantined,
               "problems": self.problems, "state": self.state(log, game), "version": self.version,
               **self.pairing}
        if log is None or game is None:
            out["attention"] = self.attention(log, out["state"])
            return out
        size = log.size
        stones = "".join(".XO"[game.pos.cells[point(size, c, r)]] for r in range(size) for c in range(size))
        last = None
        if log.moves:
            colour, pt, *_ = log.moves[-1]
            last = {"colour": "B" if colour == BLACK else "W", "at": None if pt == PASS else col_row(size, pt)}
        out.update(
            game=log.gid, boot=self.boot, size=size, stones=stones, moves=len(log.moves), last=last,
            to_move="B" if game.to_move == BLACK else "W", result=log.result, why=log.why,
            black=log.fields.get("pb", out.get("black", "")), white=log.fields.get("pw", out.get("white", "")),
            captures={"B": game.captures[BLACK], "W": game.captures[3 - BLACK]},
            clock={"B" if c == BLACK else "W": {"ms": ms, "periods": p, "at": at}
                   for c, (ms, p, at) in self.clock.items()},
            penalties=[{"n": k, "colour": side, "kind": kind, "value": value, "reason": reason}
                       for k, side, kind, value, reason in log.penalties],
            rules=log.rules, komi=log.komi, handicap=log.handicap, time=log.fields.get("time", ""), seal=self.seal)
        out["attention"] = self.attention(log, out["state"])
        return out

    def attention(self, log: GameLog | None, state: str) -> list[str]:
        """Why a referee should look at this board now, most urgent first (empty: nothing)."""
        why = []
        if self.waiting:
            seconds, what = self.waiting
            why.append("stuck: waiting %d s for the players%s" % (seconds, ": " + what if what else ""))
        if self.stalled:
            why.append("stuck: " + self.stalled)
        if self.status != "online":
            why.append("disconnected")
        if self.journal == "failing":
            why.append("journal failing")
        if self.missing:
            why.append("missing: " + self.missing.replace(",", ", "))
        why += self.problems
        why += ["refused: " + refused.get("command", refused["code"]) + " (" + refused["detail"] + ")"
                for refused in self.refused[-2:]]
        if log is not None:
            if log.result is None:
                why += ["%s %s (%s)" % (kind, side, reason) for _k, side, kind, _v, reason in log.penalties[-2:]
                        if kind in FOULS]
            elif "+T" in log.result:
                why.append("flag: %s" % log.result)
            elif log.why and log.why not in ("resign", "score"):
                why.append("foul: %s (%s)" % (log.result, log.why))
        if state == "counting":
            why.append("counting")
        return why

    def moves(self) -> list[dict]:
        """The current game's moves with their clock figures (the full board view)."""
        log = self.games.current
        if log is None:
            return []
        size = log.size
        return [{"n": k, "colour": "B" if colour == BLACK else "W", "at": None if pt == PASS else col_row(size, pt),
                 "ms": ms, "periods": periods, "lost": lost}
                for k, (colour, pt, ms, periods, lost) in enumerate(log.moves, start=1)]

    def setup(self) -> dict:
        """The current game's setup stones (handicap): colour -> [(col, row)]."""
        log = self.games.current
        if log is None:
            return {}
        return {side: [col_row(log.size, pt) for pt in points] for side, points in zip("BW", log.setup, strict=True)}

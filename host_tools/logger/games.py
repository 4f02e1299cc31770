"""What one board has said about its games, rebuilt from the lines the sync accepted.

No file or network I/O: the caller writes the SGF of whichever game ``apply`` says changed.
"""

from __future__ import annotations

import time

from sgfmill import sgf as sgfmill

from firmware import protocol as pr
from firmware.clock.control import BYOYOMI, CANADIAN, FISCHER, ING, SIMPLE, TV
from firmware.clock.spec import parse as parse_spec
from firmware.rules.coords import PASS, check_size, point, vertex
from firmware.rules.ending import PENALTY_KINDS, komi2_of
from firmware.rules.game import COUNTING, Game
from firmware.rules.pair import partners
from firmware.rules.position import BLACK, WHITE
from firmware.rules.result import FOUL, SCORE
from firmware.rules.result_sgf import parse_sgf
from firmware.rules.rulesets import SCORE_TERRITORY, by_name
from firmware.rules.scoring import DEAD, KIND, OWNER, TERRITORY
from firmware.settings import is_pair
from firmware.version import VERSION
from host_tools import sgf
from host_tools.board.words import result_words
from host_tools.records import sgf_seal


class GameLog:
    """One game as the board announced it."""

    def __init__(self, gid: int, fields: dict):
        """ValueError for fields no game can have (a size, rule set, komi or setup point)."""
        self.gid = gid
        self.fields = fields
        self.size = int(fields.get("size", "19"))
        check_size(self.size)
        self.rules = by_name(fields.get("rules", "japanese")).name
        self.komi = float(fields.get("komi", "6.5"))
        komi2_of(self.komi)
        self.handicap = int(fields.get("handicap", "0"))
        self.boot = str(int(fields["boot"])) if "boot" in fields else None  # the power-up the game began in
        self.setup = tuple(self._points(fields.get(key, "")) for key in ("ab", "aw"))
        self.moves: list[tuple[int, int, int, int, bool]] = []  # (colour, point, ms left, periods, lost)
        self.header: str | None = None  # the GAME line's fields after the id, as the board hashed them
        self.marks: list[str] = []  # each move's h= (the board's running hash, host_tools/records.py)
        self.hash = ""  # the END line's hash= and sig=: the board's final digest and its signature
        self.sig = ""
        self.penalties: list[tuple[int, str, str, int, str]] = []  # (move number, B|W, kind, value, reason)
        self.result: str | None = None
        self.why = ""  # what the result came from, when the board said (a foul's reason...)
        self.dead: list[int] = []  # the stones counted dead, when the board said (a count's END)
        self.unplayable: list[str] = []  # moves the rules refused on the last replay, said in the record
        self.played: list[int] = []  # indexes in ``moves`` of the moves the last replay made, in order
        self._kept: tuple[Game, list[int], list[str]] | None = None  # ``replayed``'s game, played, unplayable
        self.undone = False  # an UNDO line took moves back (a shorter record is the board's word)
        self.path: str | None = None  # the file this logger run writes the game to, once it wrote it
        self.on_file: dict[str, object] = {}  # what files already hold, as the logger read them (cli.py)
        self.kept = False  # the logger said it keeps a file with more of this game
        self.saved_at = float("-inf")  # when the logger last wrote its SGF (its own clock, s)

    def point(self, text: str) -> int:
        """A line's point (SGF letters, ``pass``, ``lost``); ValueError for one off this board."""
        if text in ("pass", "lost"):
            return PASS
        if len(text) != 2 or not ("a" <= text[0] < chr(97 + self.size) and "a" <= text[1] < chr(97 + self.size)):
            raise ValueError("no point %r on %dx%d" % (text[:8], self.size, self.size))
        return point(self.size, ord(text[0]) - 97, ord(text[1]) - 97)

    def _points(self, text: str) -> list[int]:
        if len(text) % 2:
            raise ValueError("setup points come in pairs of letters")
        return [self.point(text[i:i + 2]) for i in range(0, len(text), 2)]

    def agrees_with(self, record: sgfmill.Sgf_game) -> bool:
        """Whether an SGF file can hold this game as far as it was heard: same size, setup,
        moves where both have them, and result when both have one."""
        root = record.get_root()
        result = root.get("RE") if root.has_property("RE") else None
        if record.get_size() != self.size or None not in (result, self.result) and result != self.result:
            return False
        setup = root.get_setup_stones()[:2]
        nodes = record.get_main_sequence()[1:]
        if not nodes and not any(setup):  # the game as first told, before its handicap stones
            return True
        if tuple({sgf.to_sgfmill(self.size, p) for p in points} for points in self.setup) != setup:
            return False
        self.replayed()  # which moves the file can have: the ones the rules played
        for node, i in zip(nodes, self.played, strict=False):
            colour, pt = self.moves[i][:2]
            if node.get_move() != ("b" if colour == BLACK else "w", sgf.to_sgfmill(self.size, pt)):
                return False
        return True

    def game(self) -> Game:
        """The game replayed by the rules from its start, the caller's own to play on; a move they
        refuse (a line the board should never have sent) is left out and named in ``unplayable``,
        the rest kept (``played``)."""
        game = self._start()
        self.played, self.unplayable = [], []
        for i in range(len(self.moves)):
            self._play(game, i, self.played, self.unplayable)
        return game

    def replayed(self) -> Game:
        """The same game, kept between calls and played on from where it was while moves are only
        added (so a move costs as much late in a long game as early): not to be changed."""
        if self._kept is None:
            self._kept = (self._start(), [], [])
        game, played, unplayable = self._kept
        for i in range(len(played) + len(unplayable), len(self.moves)):
            self._play(game, i, played, unplayable)
        self.played, self.unplayable = played, unplayable
        return game

    def changed(self) -> None:
        """Moves were taken back or replaced (not only added): ``replayed`` starts again."""
        self._kept = None

    def _start(self) -> Game:
        game = Game(self.size, self.rules, komi=self.komi, strict_turns=False)
        black, white = self.setup
        if self.handicap and black and not white:
            game.place_handicap(black)
        elif black or white:
            game.setup(black, white)
        return game

    def _play(self, game: Game, i: int, played: list[int], unplayable: list[str]) -> None:
        colour, pt, _ms, _periods, lost = self.moves[i]
        try:
            if game.phase == COUNTING:
                game.resume(3 - colour)
            if lost:
                game.lose_turn(colour)
            else:
                game.play(colour, pt)
            played.append(i)
        except ValueError as error:  # IllegalMove too
            unplayable.append("move %d %s %s (%s)" % (i + 1, "B" if colour == BLACK else "W", vertex(self.size, pt),
                                                      error))

    def _penalty_notes(self) -> dict[int, str]:
        """Move number -> the comment telling that move's penalties (0: before the first move)."""
        notes: dict[int, list[str]] = {}
        for k, side, kind, value, reason in self.penalties:
            who = "Black" if side == "B" else "White"
            if kind == "points":
                text = "%s: penalty of %d point%s (%s)" % (who, value, "" if value == 1 else "s",
                                                          reason.replace("_", " "))
            elif kind == "forfeit":
                text = "%s: forfeit (%s)" % (who, reason.replace("_", " "))
            else:
                text = "%s: %s %d (%s)" % (who, kind, value, reason.replace("_", " "))
            notes.setdefault(min(k, len(self.moves)), []).append(text)
        return {k: "\n".join(texts) for k, texts in notes.items()}

    def _penalty_totals(self) -> str:
        """The root's summary: each player's cautions, warnings and penalty points."""
        lines = []
        for side, who in (("B", "Black"), ("W", "White")):
            counts = {"caution": 0, "warning": 0}
            points = 0
            forfeit = False
            for _k, s, kind, value, _reason in self.penalties:
                if s != side:
                    continue
                if kind in counts:
                    counts[kind] = max(counts[kind], value)
                elif kind == "points":
                    points += value
                else:
                    forfeit = True
            parts = ["%d %s%s" % (n, kind, "" if n == 1 else "s") for kind, n in counts.items() if n]
            if points:
                parts.append("%d penalty point%s" % (points, "" if points == 1 else "s"))
            if forfeit:
                parts.append("forfeit")
            if parts:
                lines.append("%s: %s" % (who, ", ".join(parts)))
        return ("Penalties: " + "; ".join(lines)) if lines else ""

    def _pair_players(self) -> list[str]:
        """Pair go (Thai 16): who played each move ("B1", "W2"...), wrong orders upheld counted."""
        if not is_pair(self.fields):
            return []
        colours = [move[0] for move in self.moves]
        return ["%s%d" % ("B" if colour == BLACK else "W", who)
                for colour, who in zip(colours, partners(colours, self.penalties), strict=True)]

    def sgf_bytes(self, board_id: str, extra: dict | None = None) -> bytes:
        """The game as SGF FF[4]; ``extra``: more root properties (the venue's PC, BR, WR...)."""
        count = self._count()  # (first: its own replay, which the count changes)
        game = self.replayed()
        root = {"AP": ("SmartGoBoard-logger", VERSION)}
        keys = {"pb": "PB", "pw": "PW", "ev": "EV", "ro": "RO", "dt": "DT"}
        for key, prop in keys.items():
            if self.fields.get(key):
                root[prop] = self.fields[key]
        root.update(time_properties(self.fields.get("time")))
        seal = sgf_seal(self, board_id)
        if "DT" not in root and not seal:  # (a sealed record says only what the board signed)
            root["DT"] = time.strftime("%Y-%m-%d")
        if self.result is not None:
            root["RE"] = self.result
        root["GN"] = "%s game %d" % (board_id, self.gid)
        root.update(seal)
        root.update(extra or {})
        notes = self._penalty_notes()
        totals = self._penalty_totals()
        lost = ("Not replayable by the rules: " + "; ".join(self.unplayable)) if self.unplayable else ""
        said = self._result_words()
        if totals or said or lost:
            root["GC"] = "\n".join(filter(None, (totals, said, lost)))
        if notes.get(0):
            root["C"] = notes[0]

        players = self._pair_players()

        def move_props(k):
            i = self.played[k - 1]  # (a move the rules refused is not in the game's history)
            colour, _pt, ms, periods, _lost = self.moves[i]
            props = {"N": players[i]} if players else {}
            if ms >= 0:
                side = "B" if colour == BLACK else "W"
                props[side + "L"] = ms / 1000
                if periods:
                    props["O" + side] = periods
            if i + 1 in notes:
                props["C"] = notes[i + 1]
            if k == len(self.played) and count:  # the count on the last move, as players would see it
                props.update(count, C="\n".join(filter(None, (props.get("C"), count["C"]))))
            return props

        if count and not self.played:
            root.update(count)
        return sgf.write(game, root, move_props)

    def _result_words(self) -> str:
        """GC's "Result: ..." line: the result in words, and what it came from when the board said."""
        result = parse_sgf(self.result, self.why) if self.result else None
        if result is None:
            return "Result: " + self.why if self.why else ""
        loser = "W" if result.winner == BLACK else "B" if result.winner == WHITE else ""
        warnings = max((v for _k, side, kind, v, _r in self.penalties if side == loser and kind == "warning"),
                       default=0)
        limit = by_name(self.rules).warning_loss
        words = result_words(result, self.rules, bool(limit and warnings >= limit),
                             int(self.fields.get("captures", "1")))
        explained = result.reason in (FOUL, "captures")  # (the words say what it came from)
        return "Result: " + words + (" (%s)" % self.why if self.why and not explained else "")

    def _count(self) -> dict:
        """TB/TW and the count in words, from the dead stones the board's END named (a count)."""
        result = parse_sgf(self.result) if self.result else None
        if result is None or result.reason != SCORE:
            return {}
        game = self.game()
        if game.phase != COUNTING:
            return {}
        try:
            for p in self.dead:
                if game.pos.cells[p] and not game.counter().dead[p]:
                    game.mark_dead(p)
        except ValueError:
            return {}
        for k, side, kind, value, reason in self.penalties:  # the points the board's count gave
            if kind in PENALTY_KINDS:
                game.restore_penalty(k, BLACK if side == "B" else WHITE, PENALTY_KINDS.index(kind), value, reason)
        score = game.count()
        cmap = game.counter().map
        owned = {BLACK: [], WHITE: []}
        for p, v in enumerate(cmap):
            if v & KIND in (TERRITORY, DEAD) and v & OWNER in owned:
                owned[v & OWNER].append(sgf.to_sgfmill(self.size, p))
        area = game.rules.scoring != SCORE_TERRITORY
        parts = []
        for colour, who in ((BLACK, "Black"), (WHITE, "White")):
            total = score.total(colour)
            extra = (" + %d stones" % score.stones[colour]) if area else (" + %d prisoners" % score.prisoners[colour])
            more = (" + %d penalty" % score.penalty[colour]) if score.penalty[colour] else ""
            if colour == WHITE and score.compensation:
                more += " + %d handicap compensation" % score.compensation
            parts.append("%s %d territory%s%s = %d" % (who, score.territory[colour], extra, more, total))
        text = "Count (%s rules): %s; komi %s: %s." % (game.rules.name.capitalize(), "; ".join(parts), game.komi,
                                                       result_words(result, self.rules))
        if self.dead:
            text += " Dead stones: " + " ".join(vertex(self.size, p) for p in self.dead) + "."
        return {"TB": owned[BLACK], "TW": owned[WHITE], "C": text}


def time_properties(spec: str | None) -> dict:
    """SGF TM (main time, s) and OT (the overtime, in the customary words) of a time-control
    spec or preset (firmware/clock/spec.py); a text that is not one is kept as OT."""
    if not spec or spec == "none":
        return {}
    try:
        tc = parse_spec(spec)
    except ValueError:
        return {"OT": spec}
    if tc.system == SIMPLE:
        return {"TM": 0, "OT": "%gs per move" % (tc.main_ms / 1000)}
    props: dict = {"TM": tc.main_ms / 1000}
    period = "%g" % (tc.period_ms / 1000)
    overtime = {BYOYOMI: "%dx%s byo-yomi" % (tc.periods, period), CANADIAN: "%d/%s Canadian" % (tc.stones, period),
                ING: "%dx%s Ing" % (tc.periods, period), TV: "%dx%s TV" % (tc.periods, period),
                FISCHER: "Fischer +%gs" % (tc.increment_ms / 1000)}
    if tc.system in overtime:
        props["OT"] = overtime[tc.system]
    return props


class Games:
    """The games of one boot of a board; ``current`` is the one later lines are about."""

    def __init__(self):
        self.games: dict[int, GameLog] = {}
        self.current: GameLog | None = None

    def apply(self, kind: str, fields: list[str]) -> GameLog | None:
        """Take an accepted GAME, MOVE, UNDO, END, PENALTY or STATE line; the game it changed, if any.
        ValueError or IndexError for a line no board should send (the games are then as they were)."""
        if kind == "GAME":
            gid = int(fields[0])
            self.current = GameLog(gid, pr.fields_dict(fields[1:]))
            self.current.header = " ".join(fields[1:])
            self.games[gid] = self.current
            return self.current
        if kind == "MOVE" and self.current is not None:
            game = self.current
            info = pr.fields_dict(fields)
            fields = [f for f in fields if "=" not in f]  # (the positional ones: h= follows them)
            k = int(fields[0])
            if k < 1 or fields[1] not in ("B", "W"):
                raise ValueError("bad move number or colour")
            if k > len(game.moves) + 1:  # (an earlier move resent as SKIP: its game was over by then)
                raise ValueError("move %d after move %d: the moves between were not heard" % (k, len(game.moves)))
            colour = BLACK if fields[1] == "B" else WHITE
            pt = game.point(fields[2])
            ms = int(fields[3]) if len(fields) >= 5 else -1
            periods = int(fields[4]) if len(fields) >= 5 else 0
            if k <= len(game.moves):  # (a move replaced: the line again, or a take-back not told)
                game.changed()
            del game.moves[k - 1:]
            del game.marks[k - 1:]
            game.moves.append((colour, pt, ms, periods, fields[2] == "lost"))
            game.marks.append(info.get("h", ""))
            return game
        if kind == "UNDO" and self.current is not None:
            self.current.changed()
            del self.current.moves[int(fields[0]):]
            del self.current.marks[int(fields[0]):]
            self.current.undone = True
            return self.current
        if kind == "END":
            game = self.games.get(int(fields[0]))
            if game is not None:
                info = pr.fields_dict(fields[1:])
                dead = game._points(info.get("dead", ""))  # (a bad point: the line is refused whole)
                game.result = info.get("re")
                game.why = info.get("why", "")
                game.dead = dead
                game.hash = info.get("hash", "")
                game.sig = info.get("sig", "")
            return game
        if kind == "PENALTY" and self.current is not None:
            entry = (int(fields[0]), fields[1], fields[2], int(fields[3]), pr.unquote(fields[4]))
            self.current.penalties.append(entry)
            return self.current
        if kind == "STATE" and len(fields) >= 2:
            return self._snapshot(int(fields[0]), pr.fields_dict(fields[2:]))
        return None

    def _snapshot(self, gid, info):
        if "board" not in info:
            return None
        game = self.games.get(gid)
        if game is None:  # its GAME line was lost: size from the board, defaults for the rest
            game = GameLog(gid, {"size": str(info["board"].count("/") + 1)})
            self.games[gid] = self.current = game
        moves = []
        for item in filter(None, info.get("moves", "").split(",")):
            if item[0] not in "BW":
                raise ValueError("bad colour in a snapshot")
            moves.append((BLACK if item[0] == "B" else WHITE, game.point("pass" if item[1:] == ".." else item[1:]),
                          -1, 0, False))
        game.moves = moves
        game.changed()
        game.marks = [""] * len(moves)  # (a snapshot carries no hashes)
        return game

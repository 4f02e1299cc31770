"""Records that can be trusted: the host's side of the board's running hash and signature.

The board (firmware/host/seal.py) hashes each game as it goes: d0 from the
board's name, the game id and its GAME line's fields; each move folded in as its
MOVE line tells it (``h=`` on the line: the first 8 bytes); the result folded in
last (``hash=`` on the END line), signed with the board's secret when it has one
(``sig=``). A venue derives each board's secret from its own key, so the venue's
key alone checks any record later. docs/records.md describes the scheme.

``Checker`` checks a board's games as the venue takes their lines (and gives the digest
a line must continue: host_tools/venue/intake.py); ``sgf_seal`` gives the SGF properties
that carry the proof, and ``verify_sgf`` checks a record file with nothing but the venue's
key: its moves, clock figures and result against the chain, and every property that
defines the game (size, komi, rules, handicap and setup stones, players, event, round,
date, time control) against the GAME line the chain starts from.
"""

from __future__ import annotations

import hmac
import re

import sgfmill.sgf as sgfmill_sgf

from firmware import protocol as pr
from firmware.host.seal import fold, head
from firmware.rules.coords import PASS, col_row, point
from firmware.rules.position import BLACK
from firmware.rules.rulesets import by_name
from host_tools import sgf

PROPS = ("GBGAME", "GBHASH", "GBSIG")  # SGF root properties: d0's text, dE, the board's HMAC of dE
SIGNED_TEXT = {"pb": "PB", "pw": "PW", "ev": "EV", "ro": "RO", "dt": "DT"}  # GAME fields an SGF carries as text
_SETUP = ("AB", "AW", "AE", "PL")  # setup properties: the root's, never a move node's
_LETTERS = "abcdefghijklmnopqrs"


def board_key(venue_key: bytes, board: str) -> bytes:
    """The secret a venue gives a board at registration: HMAC-SHA256(venue key, "board " + name)."""
    return hmac.new(venue_key, b"board " + board.encode(), "sha256").digest()


def move_text(size: int, k: int, colour: int, pt: int, ms: int, periods: int, lost: bool) -> bytes:
    """A MOVE line's fields as the board writes (and hashes) them."""
    if lost:
        where = "lost"
    elif pt == PASS:
        where = "pass"
    else:
        col, row = col_row(size, pt)
        where = _LETTERS[col] + _LETTERS[row]
    text = "%d %s %s" % (k, "B" if colour == BLACK else "W", where)
    return (text + " %d %d" % (ms, periods) if ms >= 0 else text).encode()


def digests(header: str, moves: list, size: int) -> list[bytes]:
    """d0, d1, ... dn: the chain over a game's moves (GameLog.moves tuples)."""
    out = [head_of(header)]
    for k, (colour, pt, ms, periods, lost) in enumerate(moves, start=1):
        out.append(fold(out[-1], move_text(size, k, colour, pt, ms, periods, lost)))
    return out


def head_of(header: str) -> bytes:
    """d0 from its text: ``GB1 <board> <gid> <GAME fields>`` (the SGF's GBGAME)."""
    _tag, board, gid, fields = header.split(" ", 3)
    return head(board.encode(), int(gid), fields.encode())


def final(last: bytes, result: str) -> bytes:
    """dE: the result (SGF RE) folded in after the last move's digest."""
    return fold(last, b"END " + pr.quote(result).encode())


class Checker:
    """A board's games checked as their lines arrive (the venue): one fold per new move.
    ``check(log)`` gives the game's seal, and the first problem when there is one:
    ``none`` (the board sent no hashes), ``hashed`` (its hashes agree so far),
    ``signed`` (its result is signed with the board's secret, derived from the
    venue's key), ``unsigned`` (a result with no signature: a board not registered),
    ``broken`` (a move, the result or the signature disagrees: a gap, an edit, a
    replay, or a board not holding this venue's secret)."""

    def __init__(self, board: str, key: bytes | None = None):
        self.board = board
        self.key = key  # the board's secret (board_key), or None: signatures are not checked
        self.log = None
        self.moves: list = []
        self.chain: list[bytes] = []
        self.checked = 0  # moves whose h= agreed

    def digest(self, log, k: int) -> bytes:
        """dk of this game as the venue holds it (d0: its GAME line), folded only as far as it changed."""
        n = len(log.moves)
        same = min(n, len(self.moves))
        if log is not self.log or log.moves[:same] != self.moves[:same]:
            self.log, self.moves, self.checked = log, [], 0
            self.chain = [head_of(seal_header(log, self.board))]
        elif n < len(self.moves):  # (moves taken back: the chain steps back with them)
            del self.moves[n:], self.chain[n + 1:]
            self.checked = min(self.checked, n)
        for i in range(len(self.moves) + 1, n + 1):
            self.chain.append(fold(self.chain[-1], move_text(log.size, i, *log.moves[i - 1])))
        self.moves = list(log.moves)
        return self.chain[k]

    def check(self, log) -> tuple[str, str | None]:
        if log.header is None or not (log.hash or any(log.marks)):
            return "none", None  # (a board that sends no hashes: firmware before them)
        self.digest(log, 0)
        for k in range(self.checked + 1, len(log.marks) + 1):
            mark = log.marks[k - 1]
            if mark and mark != self.chain[k][:8].hex():
                return "broken", "move %d differs from the board's record (its hash): a gap, an edit or a replay" % k
            self.checked = k
        if log.result is None or not log.hash:
            return "hashed", None
        dE = final(self.chain[-1], log.result)
        if dE.hex() != log.hash:
            return "broken", "the result differs from the board's record (its hash)"
        if not log.sig:
            return "unsigned", None
        if self.key is not None and not hmac.compare_digest(hmac.new(self.key, dE, "sha256").hexdigest(), log.sig):
            return "broken", "the result's signature does not verify: not this venue's secret"
        return "signed", None


def seal_header(log, board: str) -> str:
    return "GB1 %s %d %s" % (board, log.gid, log.header)


def sgf_seal(log, board: str) -> dict:
    """The root properties that let anyone with the venue's key check the record."""
    if log.header is None or not log.hash:
        return {}
    props = {"GBGAME": seal_header(log, board), "GBHASH": log.hash}
    if log.sig:
        props["GBSIG"] = log.sig
    return props


def verify_sgf(data: bytes, venue_key: bytes | None) -> tuple[bool, str]:
    """Check a record written with ``sgf_seal``: (True, what was checked) or (False, why not).
    Without a key, only the hash (the record is whole as the board told it, not who told it)."""
    try:
        return _verify(data, venue_key)
    except ValueError as error:  # (a property sgfmill cannot read, bytes that are not text: a hand-edited record)
        return False, "malformed record: %s" % str(error)[:200]


def _verify(data: bytes, venue_key: bytes | None) -> tuple[bool, str]:
    record = sgfmill_sgf.Sgf_game.from_bytes(data)
    root = record.get_root()
    if not all(root.has_property(p) for p in PROPS[:2]):
        return False, "no board seal (GBGAME, GBHASH): not a sealed record"
    header = root.get("GBGAME")
    if header.count(" ") < 3 or not header.startswith("GB1 "):
        return False, "GBGAME is not a board's game header"
    board = header.split(" ")[1]
    why = _root_differs(record, header) or _nodes_differ(record)
    if why:
        return False, why + ": not what the board signed"
    moves = _moves(record)
    result = root.get("RE") if root.has_property("RE") else None
    if result is None:
        return False, "no result (RE): the board signs finished games"
    dE = final(digests(header, moves, record.get_size())[-1], result)
    if dE.hex() != root.get("GBHASH"):
        return False, "the record differs from what the board hashed (a move, a clock figure or the result)"
    if venue_key is None:
        return True, "hash agrees (%d moves, %s); no key given: who signed is not checked" % (len(moves), result)
    if not root.has_property("GBSIG"):
        return False, "unsigned: board %s was not registered" % board
    expected = hmac.new(board_key(venue_key, board), dE, "sha256").hexdigest()
    if not hmac.compare_digest(expected, root.get("GBSIG")):
        return False, "bad signature: not signed by board %s with this venue's key" % board
    return True, "signed by board %s (%d moves, %s)" % (board, len(moves), result)


def _root_differs(record, header: str) -> str | None:
    """Which property of the root disagrees with the GAME fields the chain starts from (GBGAME)."""
    from host_tools.logger.games import time_properties  # (that module imports this one)

    root = record.get_root()
    fields = pr.fields_dict(header.split(" ")[3:])
    size = int(fields.get("size", "19"))

    def value(prop):
        return root.get(prop) if root.has_property(prop) else None

    if record.get_size() != size:
        return "SZ[%d], the board's game is %dx%d" % (record.get_size(), size, size)
    expected = {"KM": float(fields.get("komi", "6.5")), "RU": by_name(fields.get("rules", "japanese")).sgf,
                "HA": int(fields.get("handicap", "0")) or None}
    expected.update(time_properties(fields.get("time")))
    expected.update({prop: fields.get(key) or None for key, prop in SIGNED_TEXT.items()})
    for prop in ("TM", "OT"):
        expected.setdefault(prop, None)
    for prop, want in expected.items():
        have = value(prop)
        if prop == "HA" and have == 0:
            have = None
        if have != want:
            return "%s[%s], the board's game has %s" % (prop, "" if have is None else have,
                                                        "none" if want is None else want)
    setup = [{sgf.to_sgfmill(size, p) for p in _points(fields.get(key, ""), size)} for key in ("ab", "aw")]
    black, white, empty = root.get_setup_stones()
    if [black, white] != setup or empty:
        return "the setup stones (AB, AW, AE) differ from the board's game"
    if root.get_move() != (None, None):
        return "a move in the root"
    return None


def _points(text: str, size: int) -> list[int]:
    """GBGAME's ab=/aw= points (SGF letters, as the GAME line has them)."""
    if len(text) % 2:
        raise ValueError("GBGAME's setup points come in pairs of letters")
    out = []
    for i in range(0, len(text), 2):
        col, row = _LETTERS.find(text[i]), _LETTERS.find(text[i + 1])
        if not (0 <= col < size and 0 <= row < size):
            raise ValueError("GBGAME's setup point %r is off the board" % text[i:i + 2])
        out.append(point(size, col, row))
    return out


def _nodes_differ(record) -> str | None:
    """A node the chain does not have: a variation, a setup property in a move node, a node
    with no move that is not a lost turn."""
    main = record.get_main_sequence()
    total, stack = 0, [record.get_root()]
    while stack:
        node = stack.pop()
        total += 1
        stack.extend(node)
    if total != len(main):
        return "%d node(s) off the main line (variations)" % (total - len(main))
    for number, node in enumerate(main[1:], start=1):
        for prop in _SETUP:
            if node.has_property(prop):
                return "node %d has %s (a setup property in a move node)" % (number, prop)
        if node.has_property("B") and node.has_property("W"):
            return "node %d has two moves" % number
        if node.get_move()[0] is None and not _lost_turn(node):
            return "node %d is not a move" % number
    return None


def _lost_turn(node) -> bool:
    comment = node.get("C") if node.has_property("C") else ""
    return bool(re.match(r"(Black|White) lost the turn", comment))


def _moves(record) -> list:
    """The main line's moves as the chain folds them: (colour, point, ms, periods, lost)."""
    size = record.get_size()
    moves = []
    for node in record.get_main_sequence()[1:]:
        colour, move = node.get_move()
        comment = node.get("C") if node.has_property("C") else ""
        lost = colour is None
        colour = BLACK if (colour == "b" or (lost and comment.startswith("Black"))) else 3 - BLACK
        side = "B" if colour == BLACK else "W"
        pt = PASS if move is None else sgf.from_sgfmill(size, move)
        ms = round(float(node.get(side + "L")) * 1000) if node.has_property(side + "L") else -1
        periods = int(node.get("O" + side)) if node.has_property("O" + side) else 0
        moves.append((colour, pt, ms, periods, lost))
    return moves

"""The venue's gate: whether a board's line may change what the venue shows, decided before it does.

Every line a board sends about its games is checked against the board's chain
(docs/records.md) as the venue holds it: a ``MOVE`` must continue the chain
(``h=``), an ``END`` must close it (``hash=``, and ``sig=`` from a board that signs),
a ``GAME`` line may not start again a game already under way, and a ``STATE``
snapshot may not rewrite moves the chain cannot check. On a board the venue knows
(its registry: registered, paired, or seen sending its chain) a missing hash is a
refusal too; a board never known and sending no hashes (firmware from before
them) is taken as it always was. ``refusal`` says why a line is refused, or None:
the venue then keeps the line apart (its quarantine) and shows why, never applies it.
"""

from __future__ import annotations

import hmac

from firmware import protocol as pr
from firmware.rules.position import BLACK, WHITE
from host_tools.records import digests, final, fold, move_text, seal_header

EDITABLE = ("handicap", "ab", "aw")  # GAME fields a game not started may change (its handicap stones placed)


def refusal(view, kind: str, fields: list[str], known: bool, signs: bool, boot: int = 0) -> str | None:
    """Why this line may not be applied to ``view`` (a BoardView), or None. ``known``: the
    board is in the venue's registry (its lines must carry hashes); ``signs``: its results
    must carry a signature (registered, or it signed before); ``boot``: the power-up its
    logger heard it in."""
    try:
        check = _CHECKS.get(kind)
        return check(view, fields, known, signs, max(view.boot, boot)) if check else None
    except (ValueError, IndexError) as error:
        return "%s line not understood: %s" % (kind, error)


def unchanged(view, kind: str, fields: list[str]) -> bool:
    """Whether a line tells only what ``view`` holds already (a resend, a board powered up again
    telling its game again, a snapshot of the same moves): applied, it would change nothing,
    but the logger's game model would take it apart and build it again (a replayed MOVE 1
    would cut the game back to one move), so the views skip it."""
    games = view.games
    game = games.current
    try:
        if kind == "GAME":
            return game is not None and int(fields[0]) == game.gid and " ".join(fields[1:]) == game.header
        if kind == "MOVE" and game is not None:
            pos = [f for f in fields if "=" not in f]
            k = int(pos[0])
            return 1 <= k <= len(game.moves) and game.moves[k - 1] == _parse(game, pos) and (
                game.marks[k - 1] == pr.fields_dict(fields).get("h", ""))
        if kind == "STATE" and game is not None and len(fields) >= 2 and int(fields[0]) == game.gid:
            return _snapshot(game, pr.fields_dict(fields[2:])) == [(c, p) for c, p, *_rest in game.moves]
    except (ValueError, IndexError):
        return False
    return False


def _hello(view, fields, _known, _signs, _boot):
    name = pr.fields_dict(fields).get("board")
    if name is not None and name != view.board:
        return "a HELLO from board %s on board %s's feed" % (name[:40], view.board)
    return None


def _game(view, fields, _known, _signs, boot):
    gid, header = int(fields[0]), " ".join(fields[1:])
    games = view.games
    old = games.games.get(gid)
    if old is None:
        return None  # a new game
    started = bool(old.moves) or old.result is not None
    if old is games.current and header == old.header:
        if not started or boot > view.announced.get(gid, boot):
            return None  # the game as it is (a board powered up again, or a resend, tells it again: no change)
        return "GAME %d told again in one power-up, after its moves: a replay" % gid
    if old is games.current and not started and _same_but(old.header, header, EDITABLE):
        return None  # its handicap stones placed: the board tells the game again with them
    return "GAME %d replayed: that game was started already" % gid


def _move(view, fields, known, _signs, _boot):
    info = pr.fields_dict(fields)
    pos = [f for f in fields if "=" not in f]
    mark = info.get("h")
    game = view.games.current
    if not mark:
        return "no hash (h=) on a MOVE, where one is due" if known else None
    if game is None or game.header is None:
        return "a move with no game started"
    k = int(pos[0])
    if k < 1:
        raise ValueError("bad move number")
    n = len(game.moves)
    if k > n + 1:
        return "move %d after move %d: the moves between were not heard" % (k, n)
    move = _parse(game, pos)
    if k <= n:
        if not unchanged(view, "MOVE", fields):
            return "move %d again, another than the one kept, with no UNDO before it" % k
        if view.replaying.get(game.gid) != k:
            return "move %d told again at a new number, not after its game was told again: a replay" % k
        return None  # a board powered up again tells its game again, move by move
    due = fold(view.checker.digest(game, k - 1), move_text(game.size, k, *move))[:8].hex()
    if not hmac.compare_digest(due, mark):
        return "move %d does not continue the board's chain (h=): an edit, a forgery or a replay" % k
    return None


def _end(view, fields, known, signs, _boot):
    game = view.games.games.get(int(fields[0]))
    info = pr.fields_dict(fields[1:])
    digest, sig = info.get("hash"), info.get("sig")
    if not digest:
        return "no hash (hash=) on a result, where one is due" if known else None
    if game is None or game.header is None:
        return "a result for game %s, which the board never started" % fields[0][:12]
    if "re" not in info:
        return "a result with no re="
    if game.result is not None:
        if (game.result, game.hash, game.sig) != (info["re"], digest, sig or ""):
            return "a second result for game %d, over already: a forgery or a replay" % game.gid
        if view.replaying.get(game.gid) is None:
            return "the result told again at a new number, not after its game was told again: a replay"
        return None
    if game is view.games.current:
        last = view.checker.digest(game, len(game.moves))
    else:
        last = digests(seal_header(game, view.board), game.moves, game.size)[-1]
    closing = final(last, info["re"])
    if not hmac.compare_digest(closing.hex(), digest):
        return "the result %s does not close the board's chain (hash=): an edit, a forgery or a replay" % (
            info["re"][:16])
    if not sig:
        return "an unsigned result from a board that signs" if signs else None
    key = view.checker.key
    if key is not None and not hmac.compare_digest(hmac.new(key, closing, "sha256").hexdigest(), sig):
        return "the result's signature does not verify: not this venue's secret"
    return None


def _state(view, fields, known, _signs, _boot):
    if not known or unchanged(view, "STATE", fields):
        return None
    return "a snapshot (STATE) the chain cannot check, of moves other than the chain's"


def _parse(game, pos) -> tuple:
    """A MOVE line's positional fields as a GameLog move: (colour, point, ms, periods, lost)."""
    clocked = len(pos) >= 5
    if pos[1] not in ("B", "W"):
        raise ValueError("bad colour")
    return (BLACK if pos[1] == "B" else WHITE, game.point(pos[2]), int(pos[3]) if clocked else -1,
            int(pos[4]) if clocked else 0, pos[2] == "lost")


def _snapshot(game, info) -> list[tuple[int, int]] | None:
    """A STATE line's moves as (colour, point); None without them."""
    if "board" not in info:
        return None
    out = []
    for item in filter(None, info.get("moves", "").split(",")):
        if item[:1] not in ("B", "W"):
            raise ValueError("bad colour in a snapshot")
        out.append((BLACK if item[0] == "B" else WHITE, game.point("pass" if item[1:] == ".." else item[1:])))
    return out


def _same_but(a: str, b: str, keys) -> bool:
    """Two GAME headers alike but for ``keys``."""
    def rest(header):
        return [f for f in header.split(" ") if f.split("=", 1)[0] not in keys]
    return rest(a) == rest(b)


_CHECKS = {"HELLO": _hello, "GAME": _game, "MOVE": _move, "END": _end, "STATE": _state}

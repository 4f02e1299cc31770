"""What the venue hands out: each game's SGF, a round as one zip, the results as CSV."""

from __future__ import annotations

import csv
import io
import zipfile

from host_tools.records import SIGNED_TEXT, sgf_seal
from host_tools.venue.boards import BoardView


def game_sgf(view: BoardView, event: dict) -> bytes | None:
    """The board's current game as SGF FF[4], with the tournament's properties (EV, RO,
    PB/PW from the board; PC, ranks and the date from the venue). A sealed record (a
    hashed result) carries the game's defining properties as the board signed them
    only: the venue adds no player, event, round or date the board's GAME line lacks."""
    log = view.games.current
    if log is None:
        return None
    pairing = view.pairing
    sealed = bool(sgf_seal(log, view.board))
    extra = {}
    for prop, value in (("EV", event.get("name")), ("PC", event.get("place")), ("DT", event.get("date")),
                        ("BR", pairing.get("black_rank")), ("WR", pairing.get("white_rank")),
                        ("RO", str(pairing["round"]) if pairing.get("round") else None),
                        ("PB", pairing.get("black")), ("PW", pairing.get("white"))):
        signed = prop.lower() in SIGNED_TEXT
        if value and not (signed and (sealed or log.fields.get(prop.lower()))):
            extra[prop] = value
    return log.sgf_bytes(view.board, extra)


def game_name(view: BoardView) -> str:
    log = view.games.current
    table = view.pairing.get("table_no")
    prefix = "table%02d-" % table if table else ""
    return "%s%s-g%d.sgf" % (prefix, view.board, log.gid if log else 0)


def round_zip(views: list[BoardView], event: dict) -> bytes:
    """Every game of these boards, one SGF file each, in one zip."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for view in views:
            data = game_sgf(view, event)
            if data is not None:
                archive.writestr(game_name(view), data)
    return out.getvalue()


def results_csv(summaries: list[dict]) -> str:
    """The results table: one row per board's current game."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["round", "table", "board", "black", "black_rank", "white", "white_rank", "moves", "result",
                     "state"])
    for s in summaries:
        writer.writerow([s.get("round", ""), s.get("table_no", ""), s["board"], s.get("black", ""),
                         s.get("black_rank", ""), s.get("white", ""), s.get("white_rank", ""), s.get("moves", 0),
                         s.get("result") or "", s["state"]])
    return out.getvalue()

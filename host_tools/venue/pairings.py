"""A round's pairings from a CSV file, and the ``new`` command each board gets from them.

One row per table, a header naming the columns (any order, case ignored)::

    round,table,board,black,black_rank,white,white_rank,handicap,komi,rules,size,time
    1,1,table1,Lee Sedol,9p,Gu Li,9p,0,6.5,korean,19,byoyomi 1h 3x30s

The ``settings`` kept for each table are the ``new`` command's fields, values
percent-escaped (one token each).

``board`` is the id of the board at that table (its ``HELLO board=``); ``round``,
``table``, ``black``, ``white`` are required, the rest default to the event's
(``--rules``, ``--komi``, ``--time``). Players' ranks go to the SGF (``BR``/``WR``).
"""

from __future__ import annotations

import csv
import io
import urllib.parse

from firmware.rules.rulesets import by_name

REQUIRED = ("round", "table", "board", "black", "white")


class PairingError(ValueError):
    """A pairing file no round can come from: says the row and the column."""


def read(text: str, defaults: dict | None = None) -> dict[int, list[dict]]:
    """The rounds in a pairing CSV: round -> rows (table_no, board, black, black_rank, white,
    white_rank, settings); PairingError naming the row for anything a board would refuse."""
    defaults = defaults or {}
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    fields = {(name or "").strip().lower(): name for name in reader.fieldnames or ()}
    missing = [name for name in REQUIRED if name not in fields]
    if missing:
        raise PairingError("the pairing file lacks the column(s) %s (it has: %s)" % (
            ", ".join(missing), ", ".join(fields) or "nothing"))
    rounds: dict[int, list[dict]] = {}
    seen = set()
    for n, row in enumerate(reader, start=2):
        get = {key: (row.get(name) or "").strip() for key, name in fields.items()}
        try:
            round_no, table = int(get["round"]), int(get["table"])
        except ValueError:
            raise PairingError("row %d: round and table must be numbers" % n) from None
        if (round_no, table) in seen:
            raise PairingError("row %d: table %d of round %d is paired twice" % (n, table, round_no))
        seen.add((round_no, table))
        for key in ("board", "black", "white"):
            if not get[key]:
                raise PairingError("row %d: no %s" % (n, key))
        settings = {key: get.get(key) or str(defaults.get(key, "")) for key in ("rules", "size", "komi", "handicap",
                                                                                   "time")}
        try:
            _check(settings)
        except ValueError as error:
            raise PairingError("row %d: %s" % (n, error)) from None
        rounds.setdefault(round_no, []).append({
            "table_no": table, "board": get["board"], "black": get["black"], "black_rank": get.get("black_rank", ""),
            "white": get["white"], "white_rank": get.get("white_rank", ""),
            "settings": " ".join("%s=%s" % (k, _escape(v)) for k, v in settings.items() if v)})
    return rounds


def _check(settings):
    if settings["rules"]:
        by_name(settings["rules"])
    if settings["size"] and not 5 <= int(settings["size"]) <= 19:
        raise ValueError("size %s is not a board's" % settings["size"])
    if settings["komi"]:
        float(settings["komi"])
    if settings["handicap"] and not 0 <= int(settings["handicap"]) <= 9:
        raise ValueError("handicap %s is not 0..9" % settings["handicap"])
    if settings["time"]:
        from firmware.clock.spec import parse

        parse(settings["time"])


def new_command(pairing: dict, event: dict, round_no: int) -> str:
    """The ``new`` host command that sets this table's game up on its board."""
    words = ["new", *pairing["settings"].split()]  # (its values escaped already)
    for key, value in (("pb", pairing["black"]), ("pw", pairing["white"]), ("ev", event.get("name", "")),
                       ("ro", str(round_no)), ("dt", event.get("date", ""))):
        if value:
            words.append("%s=%s" % (key, _escape(value)))
    return " ".join(words)


def _escape(value: str) -> str:
    """A value as one token of a host command (percent-escaped like the protocol's text)."""
    return urllib.parse.quote(value, safe="+-.:/_,")

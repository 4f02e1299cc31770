"""A game reviewed by GNU Go: the moves that lost the most, and what it would have played there.

``review(record, engine)`` replays a record's moves in the engine and asks its
``estimate_score`` after each (Black's lead, in points). A move's swing is how much
its player's lead fell with it. The ``count`` biggest are kept, each with the
engine's first choice in that position (``top_moves_black``/``_white``).
``annotate(data, swings)`` writes them into the SGF: a comment on the move that
lost, and the engine's move as a variation beside it. These are the positions
the player retries. The replay starts from the record's set-up stones and stops
at its first pass.
"""

from __future__ import annotations

from dataclasses import dataclass

from sgfmill import sgf

from firmware.rules.coords import PASS, parse_vertex, vertex
from host_tools.sgf import from_sgfmill, to_sgfmill


@dataclass
class Swing:
    """Move ``number`` (1: the first) by ``colour`` (1 or 2) at ``played`` lost ``lost`` points
    by the engine's estimate; it would have played ``better`` (PASS: it had nothing)."""

    number: int
    colour: int
    played: int
    lost: float
    better: int


def lead(answer: str) -> float:
    """Black's lead in an ``estimate_score`` answer ("W+10.8 (upper bound...)": -10.8; "0": 0)."""
    word = answer.split()[0] if answer.split() else "0"
    if word[:2] not in ("B+", "W+"):
        return 0.0
    return float(word[2:]) * (1 if word[0] == "B" else -1)


def review(record, engine, count=3) -> list[Swing]:
    """The ``count`` moves of ``record`` (host_tools.sgf.Record) that lost the most, biggest first."""
    size = record.size
    engine.new_game(size, record.komi if record.komi is not None else 6.5)
    for colour, points in ((1, record.black), (2, record.white)):
        for pt in points:
            engine.play("BW"[colour - 1], vertex(size, pt))
    losses = []
    before = lead(engine.command("estimate_score"))
    for k, (colour, pt) in enumerate(record.moves):
        if pt == PASS:
            break
        best = _first_choice(engine, colour, size)
        engine.play("BW"[colour - 1], vertex(size, pt))
        after = lead(engine.command("estimate_score"))
        lost = (before - after) * (1 if colour == 1 else -1)
        if best != pt:
            losses.append(Swing(k + 1, colour, pt, round(lost, 1), best))
        before = after
    losses.sort(key=lambda swing: -swing.lost)
    return [swing for swing in losses[:count] if swing.lost > 0]


def _first_choice(engine, colour, size):
    moves = engine.command("top_moves_" + ("black" if colour == 1 else "white")).split()
    return parse_vertex(size, moves[0]) if moves else PASS


def annotate(data: bytes, swings: list[Swing]) -> bytes:
    """The record ``data`` with each swing's comment on its move and the engine's move as a variation."""
    game = sgf.Sgf_game.from_bytes(data)
    size = game.get_size()
    nodes = game.get_main_sequence()
    for swing in swings:
        node = nodes[swing.number]
        if from_sgfmill(size, node.get_move()[1]) != swing.played:
            raise ValueError(f"move {swing.number} of the record is not {vertex(size, swing.played)}")
        said = f"GNU Go: this move lost about {swing.lost:g} points"
        if swing.better != PASS:
            said += f"; it would play {vertex(size, swing.better)} (the variation)"
            beside(nodes[swing.number - 1], size, swing.colour, swing.better,
                   f"GNU Go's move instead of {vertex(size, swing.played)}")
        comment(node, said)
    return game.serialise()


def beside(parent, size: int, colour: int, pt: int, said: str):
    """The child of ``parent`` that plays ``colour`` at ``pt`` (made if there is none), ``said`` added
    to its comment: a variation beside the game's move, or the game's move itself."""
    move = ("b" if colour == 1 else "w", to_sgfmill(size, pt))
    child = next((c for c in parent if c.get_move() == move), None)
    if child is None:
        child = parent.new_child()
        child.set_move(*move)
    comment(child, said)
    return child


def comment(node, said: str) -> None:
    """``said`` added to the node's comment, on a line of its own (not twice)."""
    old = node.get("C") if node.has_property("C") else ""
    if said not in old:
        node.set("C", old + "\n" + said if old else said)

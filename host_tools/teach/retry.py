"""The positions a review found (review.py), set up on the board again for the player to retry, and
the tries written into the record as variations.

``positions(record, swings)`` makes each swing a problem: the position before
the move that lost (the record's moves played through the rules core, the
captures taken), the player who lost to play, GNU Go's move the right answer
and the game's own the wrong one. solving.py runs them on the board like any
problem set, with the same controls (the clock button: the next position;
MENU: again). ``with_tries(data, swings, tries)`` adds every first move tried
there as a variation beside the game's move, commented with its verdict.
"""

from __future__ import annotations

from sgfmill import sgf

from firmware.rules.coords import PASS, vertex
from firmware.rules.game import Game
from firmware.rules.rulesets import by_name
from host_tools.board.rules import all_points

from .problem import Node, Problem
from .review import Swing, annotate, beside


def positions(record, swings: list[Swing]) -> list[Problem]:
    """A problem for each swing where GNU Go had a move (host_tools.sgf Record)."""
    problems = []
    for swing in swings:
        if swing.better == PASS:
            continue
        game = Game(record.size, record.rules or by_name("japanese"), strict_turns=False)
        game.setup(list(record.black), list(record.white))
        for colour, pt in record.moves[:swing.number - 1]:
            game.play(colour, pt)
        cells = game.pos.cells
        stones = [[g for g in all_points(game.pos) if cells[g] == colour] for colour in (1, 2)]
        side = "Black" if swing.colour == 1 else "White"
        played = vertex(record.size, swing.played)
        root = Node(0, PASS, children=[
            Node(swing.colour, swing.better, f"RIGHT: GNU Go's move, where {played} lost about {swing.lost:g} points."),
            Node(swing.colour, swing.played, f"WRONG: the game's move, {played}, lost about {swing.lost:g} points."),
        ])
        problems.append(Problem(size=record.size, black=stones[0], white=stones[1], to_play=swing.colour,
                                question=f"{side} to play: move {swing.number} lost about {swing.lost:g} points. "
                                         "Find a better move.",
                                title=f"Move {swing.number}", target=swing.better, root=root))
    return problems


def with_tries(data: bytes, swings: list[Swing], tries: list[tuple[str, list[int], str]]) -> bytes:
    """The reviewed record (``annotate``) with each try's first move (``tries``: (problem title
    "Move N", the moves, right or wrong), Solving's) as a variation beside move N."""
    game = sgf.Sgf_game.from_bytes(annotate(data, swings))
    size = game.get_size()
    nodes = game.get_main_sequence()
    by_title = {f"Move {swing.number}": swing for swing in swings}
    for title, moves, verdict in tries:
        swing = by_title.get(title)
        if swing is None or not moves or moves[0] == PASS:
            continue
        beside(nodes[swing.number - 1], size, swing.colour, moves[0], f"Tried on the board: {verdict}")
    return game.serialise()

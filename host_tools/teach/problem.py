"""A problem of the course: its SGF read through sgfmill, and a student's moves judged against its tree.

The tree holds every correct first move and the common wrong ones as children of the root; each student move
is followed by the opponent's one reply (its first child), and every leaf's comment starts with RIGHT or WRONG.
A custom root property ``GT`` names one point of the chain the problem is about (GNU Go's check reads it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from sgfmill import sgf
from sgfmill.sgf_properties import interpret_go_point

from firmware.rules.coords import PASS
from firmware.rules.position import BLACK, WHITE
from host_tools.sgf import from_sgfmill

_COLOURS = {"b": BLACK, "w": WHITE}


@dataclass
class Node:
    """A move of the tree (the root: colour 0, PASS) and what follows it."""

    colour: int
    point: int
    comment: str = ""
    children: list[Node] = field(default_factory=list)

    @property
    def verdict(self) -> str | None:
        """"right" or "wrong" for a leaf whose comment says so; None otherwise."""
        for word in ("RIGHT", "WRONG"):
            if self.comment.startswith(word):
                return word.lower()
        return None


@dataclass
class Problem:
    """A problem as the board needs it: points are the rules core's point indexes."""

    size: int
    black: list[int]
    white: list[int]
    to_play: int  # BLACK or WHITE
    question: str
    title: str
    target: int  # a point of the chain to capture or kill, save or make live
    root: Node


def read(data: bytes) -> Problem:
    """Parse a problem's SGF bytes. Raises ValueError on a record that is not a problem."""
    game = sgf.Sgf_game.from_bytes(data)
    size = game.get_size()
    root = game.get_root()
    for key in ("PL", "C", "GN", "GT"):
        if not root.has_property(key):
            raise ValueError("a problem's root needs " + key)
    black, white, _ = root.get_setup_stones()
    target = interpret_go_point(root.get_raw("GT"), size)
    if target is None:
        raise ValueError("GT names no point")
    tree = Node(0, PASS, children=[_node(size, child) for child in root])
    return Problem(size=size, black=sorted(from_sgfmill(size, p) for p in black),
                   white=sorted(from_sgfmill(size, p) for p in white), to_play=_COLOURS[root.get("PL")],
                   question=root.get("C"), title=root.get("GN"), target=from_sgfmill(size, target), root=tree)


def node_move(size, sgf_node) -> tuple[int, int] | None:
    """An SGF node's move as (colour, rules-core point; PASS for a pass), or None for a node with none."""
    colour, move = sgf_node.get_move()
    return None if colour is None else (_COLOURS[colour], from_sgfmill(size, move))


def _node(size, sgf_node) -> Node:
    move = node_move(size, sgf_node)
    if move is None or move[1] == PASS:
        raise ValueError("every node of a problem's tree is a move on the board")
    comment = sgf_node.get("C") if sgf_node.has_property("C") else ""
    return Node(*move, comment, [_node(size, child) for child in sgf_node])


def reached(problem: Problem, moves) -> Node | None:
    """The tree's node the game's moves (``(colour, point, ...)``, both sides') reached, up to the first
    pass; None when a move leaves the tree."""
    node = problem.root
    for _colour, pt, *_ in moves:
        if pt == PASS:
            break
        node = next((child for child in node.children if child.point == pt), None)
        if node is None:
            return None
    return node


def judge(problem: Problem, moves) -> tuple[str, int | None]:
    """The verdict on the student's moves so far (each after the tree's reply to the one before):
    ("right", None) or ("wrong", None) where the line ends on the student's move; ("right" or "wrong",
    reply) where it ends on the opponent's reply; ("continue", reply) for the opponent's reply to play;
    ("off", None) for a move the tree does not know (to be treated as wrong). No moves yet: ("continue", None)."""
    if not moves:
        return "continue", None
    node = problem.root
    for k, pt in enumerate(moves):
        if k:
            if not node.children:  # (the line ended on the student's move before this one)
                return "off", None
            node = node.children[0]
        node = next((child for child in node.children if child.point == pt), None)
        if node is None:
            return "off", None
    if not node.children:
        return node.verdict or "off", None
    reply = node.children[0]
    return (reply.verdict or "continue"), reply.point


def load_problems(sets: list[Path]) -> list[Problem]:
    """The problems of SGF files and folders of them (each folder's in name order), in the order
    given; the bundled course when ``sets`` is empty. ValueError naming the file that is not a problem."""
    if not sets:
        from .course import course_files

        files = course_files()
    else:
        files = [f for path in sets for f in (sorted(path.glob("*.sgf")) if path.is_dir() else [path])]
    problems = []
    for path in files:
        try:
            problems.append(read(path.read_bytes()))
        except ValueError as error:
            raise ValueError(f"{path}: {error}") from None
    if not problems:
        raise ValueError("no problem files in " + ", ".join(str(path) for path in sets))
    return problems

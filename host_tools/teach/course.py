"""The bundled beginner course: its SGF files written from course_source.py, and checked against GNU Go's reading.

    python -m host_tools.teach.course --write   # course/NN-topic-name.sgf, in step with course_source.py
    python -m host_tools.teach.course --check   # a line per problem: GNU Go's verdicts (exit 1: a failure)

GNU Go's check: the student attacks the target chain (it is the opponent's) or defends it (it is the student's own).
Before the first move the student's side must succeed (``attack``/``defend``, or the ``owl_`` ones for races and
life and death, answer 1); after each student move of a RIGHT line the other side must fail (answer 0, or the
target is captured when attacking); after a WRONG line's refutation the student's side must fail. In a ko problem a
ko counts: 2 (a ko the side takes first) succeeds, 3 (a ko it must find a threat for first) fails. The other first
moves GNU Go finds that work are listed too ("also works"), for the questions to rule out ("in one move", "give
atari") or the tree to take in.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sgfmill.sgf_grammar import escape_text
from sgfmill.sgf_properties import serialise_go_point

from firmware.rules.coords import parse_vertex, point, vertex
from firmware.rules.position import BLACK, WHITE
from host_tools.gtp.engine import Engine, default_engine
from host_tools.sgf import to_sgfmill

from .course_source import SOURCES, Source
from .problem import Node, Problem, read

SIZE = 9  # the course's board: beginners' classes play on 9x9

COURSE = Path(__file__).resolve().parent / "course"
TOPICS = ("capture", "atari", "escape", "ladder", "net", "snapback", "race", "eye", "two-eyes", "kill", "live", "ko")
# Which of GNU Go's readings judges a topic: tactical (one chain's capture) or owl (races, life and death).
READING = {"race": "owl", "eye": "owl", "two-eyes": "owl", "kill": "owl", "live": "owl"}
COMMANDS = {"tactical": ("attack", "defend"), "owl": ("owl_attack", "owl_defend")}
_LETTERS = {BLACK: "B", WHITE: "W"}


def course_files() -> list[Path]:
    """The course's SGF files, in course order."""
    return sorted(COURSE.glob("[0-9][0-9]-*.sgf"))


def file_name(number: int, source: Source) -> str:
    return f"{number:02d}-{source.topic}-{source.name}.sgf"


# -- from source to SGF ---------------------------------------------------------------------------------------------


def setup(source: Source) -> tuple[int, list[int], list[int]]:
    """(size, black points, white points) of a source's diagram on the course's 9x9 board: each row
    its number, then its points (X black, O white, . empty); a row left out is empty."""
    black, white = [], []
    seen = set()
    for line in source.board.strip().splitlines():
        number, *cells = line.split()
        row = SIZE - int(number) if number.isdigit() else -1
        if not 0 <= row < SIZE or row in seen or len(cells) != SIZE or set(cells) - set("XO."):
            raise ValueError(f"{source.name}: {line.strip()!r} is not a row number and {SIZE} points of X, O or .")
        seen.add(row)
        for col, cell in enumerate(cells):
            if cell != ".":
                (black if cell == "X" else white).append(point(SIZE, col, row))
    black.sort()
    white.sort()
    return SIZE, black, white


def to_play(source: Source) -> int:
    """The side to play, as the question says it first ("Black to play: ...")."""
    first = source.question.split()[0]
    if first not in ("Black", "White"):
        raise ValueError(f"{source.name}: the question does not start with who plays")
    return BLACK if first == "Black" else WHITE


def tree(source: Source, size: int) -> Node:
    """The problem's tree from its lines: each line's moves alternate from the side to play; lines that begin
    alike share their nodes. A RIGHT line ends on the student's move, a WRONG one on the opponent's refutation,
    and each student move has one reply."""
    first = to_play(source)
    root = Node(0, 0)
    for text, comment in source.lines.items():
        moves = [parse_vertex(size, word) for word in text.split()]
        verdict = comment.split(":")[0]
        if verdict not in ("RIGHT", "WRONG") or (len(moves) % 2 == 1) != (verdict == "RIGHT"):
            raise ValueError(f"{source.name} {text}: a RIGHT line ends on the student's move, a WRONG one after")
        node = root
        for k, pt in enumerate(moves):
            child = next((c for c in node.children if c.point == pt), None)
            if child is None:
                if k % 2 == 1 and node.children:
                    raise ValueError(f"{source.name} {text}: a second reply to the same student move")
                if node.comment:
                    raise ValueError(f"{source.name} {text}: goes on past the end of another line")
                child = Node(first if k % 2 == 0 else 3 - first, pt)
                node.children.append(child)
            node = child
        if node.children or node.comment:
            raise ValueError(f"{source.name} {text}: ends inside another line")
        node.comment = comment
    return root


def to_sgf(source: Source) -> bytes:
    """The problem's SGF FF[4] file."""
    size, black, white = setup(source)
    target = parse_vertex(size, source.target)

    def points(pts):
        return "".join(f"[{_point(size, p)}]" for p in sorted(pts, key=lambda p: _point(size, p)))

    root = (f"(;FF[4]GM[1]CA[UTF-8]SZ[{size}]\nAB{points(black)}\nAW{points(white)}\n"
            f"PL[{_LETTERS[to_play(source)]}]GN[{_text(source.title)}]GT[{_point(size, target)}]\n"
            f"C[{_text(source.question)}]\n")
    return (root + _variations(size, tree(source, size).children, "") + ")\n").encode("utf-8")


def _variations(size, children, indent) -> str:
    return "".join(f"{indent}({_sequence(size, child, indent)})\n" for child in children)


def _sequence(size, node, indent) -> str:
    """A node and the ones after it, on one line until the tree branches."""
    text = ""
    while True:
        text += f";{_LETTERS[node.colour]}[{_point(size, node.point)}]"
        if node.comment:
            text += f"C[{_text(node.comment)}]"
        if len(node.children) != 1:
            break
        node = node.children[0]
    if node.children:
        text += "\n" + _variations(size, node.children, indent + " ") + indent
    return text


def _point(size, pt) -> str:
    return serialise_go_point(to_sgfmill(size, pt), size).decode("ascii")


def _text(text) -> str:
    return escape_text(text.encode("utf-8")).decode("utf-8")


def write() -> list[Path]:
    """Write every problem's SGF file, and remove course files no problem has any more."""
    COURSE.mkdir(exist_ok=True)
    paths = []
    for number, source in enumerate(SOURCES, 1):
        path = COURSE / file_name(number, source)
        path.write_bytes(to_sgf(source))
        paths.append(path)
    for stale in set(course_files()) - set(paths):
        stale.unlink()
    return paths


# -- GNU Go's check -------------------------------------------------------------------------------------------------


def lines(node: Node, moves=()):
    """(moves, verdict) of every line of the tree, from the root's children."""
    for child in node.children:
        line = (*moves, child)
        if child.children:
            yield from lines(child, line)
        else:
            yield line, child.verdict


def check(engine: Engine, source: Source, problem: Problem) -> tuple[bool, str]:
    """(passed, what GNU Go said) for one problem: see the module doc."""
    if source.unchecked:
        return True, "not applicable: " + source.unchecked
    reading = READING.get(source.topic, "tactical")
    attack, defend = COMMANDS[reading]
    attacking = problem.target not in (problem.black if problem.to_play == BLACK else problem.white)
    ours, theirs = (attack, defend) if attacking else (defend, attack)
    target = vertex(problem.size, problem.target)
    ko = source.topic == "ko"
    before = _ask(engine, problem, (), ours)
    passed = _succeeds(before, ko)
    said = [f"{ours} {target} ({'attacking' if attacking else 'defending'}): {before}"]
    for line, verdict in lines(problem.root):
        if verdict == "right":
            answers = [_ask(engine, problem, line[:k + 1], theirs) for k in range(0, len(line), 2)]
            failed = [a for a in answers if not _fails(a, attacking, ko)]
            said.append(f"right {_moves(problem, line)}: {theirs} " + " ".join(answers))
        else:
            answer = _ask(engine, problem, line, ours)
            failed = [] if _fails(answer, not attacking, ko) else [answer]
            said.append(f"wrong {_moves(problem, line)}: {ours} {answer}")
        passed = passed and not failed
    others = _other_moves(engine, problem, reading, attacking, theirs)
    if others:
        said.append("also works: " + " ".join(others))
    return passed, "; ".join(said) + (" - ok" if passed else " - FAILED")


def _succeeds(answer, ko) -> bool:
    """GNU Go's answer says the side reading succeeds (see the module doc)."""
    return answer[:1] == "1" or (ko and answer[:1] == "2")


def _fails(answer, gone_fails, ko) -> bool:
    """GNU Go's answer says the side reading fails (see the module doc); ``gone_fails``: the target gone is this
    side's loss."""
    return answer == "0" or (gone_fails and answer == "captured") or (ko and answer[:1] == "3")


def _other_moves(engine, problem, reading, attacking, theirs) -> list[str]:
    """The first moves GNU Go finds that work for the student besides the tree's RIGHT ones. None are looked for
    where the opponent, moving first, would fail too: there every move works."""
    if not _ask(engine, problem, (), theirs).startswith("1"):
        return []
    does = ("owl_" if reading == "owl" else "") + ("does_attack" if attacking else "does_defend")
    right = {line[0].point for line, verdict in lines(problem.root) if verdict == "right"}
    size = problem.size
    taken = set(problem.black) | set(problem.white) | right
    target = vertex(size, problem.target)
    _setup(engine, problem, ())
    return [vertex(size, pt) for pt in _points(size) if pt not in taken
            and engine.command(f"{does} {vertex(size, pt)} {target}").startswith("1")]


def _points(size):
    return [point(size, col, row) for row in range(size) for col in range(size)]


def _moves(problem, line) -> str:
    return " ".join(vertex(problem.size, node.point) for node in line)


def _ask(engine, problem, line, command) -> str:
    """GNU Go's answer to ``command`` on the target after the setup and the line's moves ("captured" if gone)."""
    _setup(engine, problem, line)
    target = vertex(problem.size, problem.target)
    owner = "black" if problem.target in problem.black else "white"
    if engine.command(f"color {target}") != owner:
        return "captured"
    return engine.command(f"{command} {target}")


def _setup(engine, problem, line):
    """The problem's position and the line's moves on GNU Go's board. The setup stones are played one by one
    (every chain of a problem has a liberty: none of them captures)."""
    size = problem.size
    engine.command(f"boardsize {size}")
    engine.command("clear_board")
    for colour, points in ((BLACK, problem.black), (WHITE, problem.white)):
        for pt in points:
            engine.command(f"play {_LETTERS[colour]} {vertex(size, pt)}")
    for node in line:
        engine.command(f"play {_LETTERS[node.colour]} {vertex(size, node.point)}")


def check_all(report=print) -> bool:
    """GNU Go's check over the whole course, a line per problem to ``report``; True if every problem passed."""
    passed = True
    with Engine(default_engine(level=10, seed=1)) as engine:
        for number, source in enumerate(SOURCES, 1):
            problem = read(to_sgf(source))
            ok, said = check(engine, source, problem)
            report(f"{number:02d} {source.title} [{source.topic}] {said}")
            passed = passed and ok
    return passed


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m host_tools.teach.course",
                                     description="write the course's SGF files, or check them against GNU Go")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", action="store_true", help="write course/*.sgf from course_source.py")
    group.add_argument("--check", action="store_true", help="GNU Go's verdicts per problem; exit 1 on a failure")
    args = parser.parse_args(argv)
    if args.write:
        for path in write():
            print(path.relative_to(COURSE.parent.parent.parent))
        return 0
    return 0 if check_all() else 1


if __name__ == "__main__":
    sys.exit(main())

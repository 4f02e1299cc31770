"""The bundled problem course (host_tools/teach): at least 60 problems in teaching order, each well formed, legal
under the rules core, judged as its tree says, in step with its source, and agreed with by GNU Go's reading.

GNU Go is Debian's (make test installs it).
"""

import pytest

from firmware.rules.coords import PASS, parse_vertex
from firmware.rules.game import Game
from firmware.rules.position import BLACK
from host_tools.gtp.engine import default_engine
from host_tools.teach.course import COURSE, SOURCES, TOPICS, check_all, course_files, file_name, lines, to_sgf
from host_tools.teach.problem import judge, read

PROBLEMS = {path.name: read(path.read_bytes()) for path in course_files()}


def topic_of(name):
    """The topic of a course file's name, NN-topic-short-name.sgf (a topic may itself hold a hyphen)."""
    return next(topic for topic in TOPICS if name[3:].startswith(topic + "-"))


def test_the_course_has_at_least_60_problems_numbered_in_teaching_order():
    names = list(PROBLEMS)
    assert len(names) >= 60
    assert [name[:3] for name in names] == [f"{n:02d}-" for n in range(1, len(names) + 1)]
    topics = [topic_of(name) for name in names]
    assert topics == sorted(topics, key=TOPICS.index)
    for topic in TOPICS:
        assert topics.count(topic) >= 2, topic


@pytest.mark.parametrize("name", PROBLEMS)
def test_a_problem_is_well_formed(name):
    problem = PROBLEMS[name]
    assert (COURSE / name).read_bytes().startswith(b"(;FF[4]GM[1]CA[UTF-8]SZ[9]\n")
    assert problem.size == 9 and problem.title
    assert problem.question.startswith(("Black to play: ", "White to play: ")) and problem.question.endswith(".")
    assert problem.question.startswith("Black") == (problem.to_play == BLACK)
    assert problem.target in problem.black + problem.white
    verdicts = [verdict for _, verdict in lines(problem.root)]
    assert "right" in verdicts and set(verdicts) <= {"right", "wrong"}
    for line, verdict in lines(problem.root):
        assert [node.colour for node in line] == [(problem.to_play, 3 - problem.to_play)[k % 2]
                                                 for k in range(len(line))]
        assert len(line) % 2 == (1 if verdict == "right" else 0)  # (RIGHT on the student's move, WRONG after)
        assert all(len(node.children) <= 1 for node in line[::2])  # (one reply to each student move)


@pytest.mark.parametrize("name", PROBLEMS)
def test_every_move_of_a_tree_is_legal_under_the_rules_core(name):
    problem = PROBLEMS[name]
    game = Game(9, "japanese", strict_turns=False)
    game.setup(problem.black, problem.white, problem.to_play)

    def walk(node):
        for child in node.children:
            assert child.point != PASS
            game.play(child.colour, child.point)  # (raises IllegalMove)
            walk(child)
            game.undo()

    walk(problem.root)
    assert game.move_number == 0


def test_judge_follows_the_tree_and_calls_any_other_move_off():
    problem = PROBLEMS["10-atari-toward-the-edge.sgf"]

    def v(*names):
        return [parse_vertex(9, name) for name in names]

    assert judge(problem, []) == ("continue", None)
    assert judge(problem, v("F2")) == ("continue", parse_vertex(9, "E1"))  # (the tree's reply: White runs)
    assert judge(problem, v("F2", "F1")) == ("continue", parse_vertex(9, "D1"))
    assert judge(problem, v("F2", "F1", "C1")) == ("right", None)
    assert judge(problem, v("F2", "D1", "G1")) == ("right", None)  # (the other way along the edge: right too)
    assert judge(problem, v("E1")) == ("wrong", parse_vertex(9, "F2"))  # (the refutation, for the board to play)
    assert judge(problem, v("A9")) == ("off", None)
    assert judge(problem, v("F2", "A9")) == ("off", None)
    assert judge(problem, v("F2", "F1", "C1", "A9")) == ("off", None)  # (past the end of the line)


def test_the_sgf_files_are_what_the_generator_writes_now():
    assert [path.name for path in course_files()] == [file_name(n, source) for n, source in enumerate(SOURCES, 1)]
    for path, source in zip(course_files(), SOURCES, strict=True):
        assert path.read_bytes() == to_sgf(source), f"{path.name}: run python -m host_tools.teach.course --write"


def test_gnu_go_agrees_with_every_problem():
    # Its reading at level 10 judges each problem: the student's side succeeds before the first move, the RIGHT
    # moves leave the other side no way, the WRONG ones leave the student none (course.py). A few ko problems are
    # not for its reading: those say why.
    command = default_engine()
    assert command is not None, "GNU Go is not installed (make test installs it: scripts/ensure-system.sh gnugo)"
    said = []
    assert check_all(said.append), "\n".join(line for line in said if not line.endswith(" - ok"))
    assert len(said) == len(SOURCES)
    unchecked = [line for line in said if "not applicable: " in line]
    assert len(unchecked) <= 3, unchecked
    assert all(line.endswith(" - ok") for line in said if line not in unchecked)

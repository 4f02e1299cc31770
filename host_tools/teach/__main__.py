"""``python -m host_tools.teach problems [FILE|FOLDER ...] [--board PORT|sim]``: problems solved on the
board, the bundled course by default (solving.py); ``python -m host_tools.teach guess FILE [--colour B|W]
[--board PORT|sim]``: guess a recorded game's moves on the board (guess.py); ``python -m host_tools.teach
review FILE [--out FILE] [--retry --board PORT|sim]``: GNU Go's review of a game, the moves that lost most
with its own as variations (review.py), retried on the board (retry.py); ``replay FILE``, ``lesson N``,
``classroom``: replay.py, lessons.py, classroom.py; ``python -m host_tools.teach.course --check``: the course."""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from firmware.rules.coords import PASS, vertex
from host_tools import sgf
from host_tools.gtp.engine import Engine, EngineError, default_engine
from host_tools.play.board import Board, BoardError
from host_tools.play.connect import open_board
from host_tools.play.sim import SimTable

from .guess import Guess
from .lessons import LESSONS, Teaching, course_problem
from .problem import load_problems
from .replay import Replay
from .retry import positions, with_tries
from .review import review as review_game
from .solving import Progress, Solving, default_progress
from .student import Reader, Student


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m host_tools.teach", description="teaching on the board")
    sub = parser.add_subparsers(dest="what", required=True)
    problems = sub.add_parser("problems", help="problems on the board: the position lit, replies lit, right or wrong")
    problems.add_argument("sets", type=Path, nargs="*", help="problem SGF files or folders of them "
                          "(default: the bundled beginner course)")
    problems.add_argument("--board", default="sim", metavar="PORT|sim", help="the board's serial port, or sim")
    problems.add_argument("--progress", type=Path, help="the student's progress file "
                          "(default: $XDG_DATA_HOME/goboard/progress-<board>.json)")
    problems.add_argument("--start", type=int, metavar="N", help="begin at problem N (default: where the progress says)")
    problems.add_argument("--seed", type=int, default=0, help="with --board sim: the simulated student's seed")
    problems.add_argument("--wrong", type=float, default=0.3, help="with --board sim: how often the student errs")
    problems.add_argument("--tries", type=int, help="stop after this many tries")
    room = sub.add_parser("classroom", help="the teacher's page for a class of boards on the venue's broker")
    room.add_argument("--mqtt", required=True, metavar="HOST:PORT", help="the venue's broker")
    room.add_argument("--mqtt-login", metavar="FILE", help="the venue's login file (user:password)")
    room.add_argument("--root", default="goboard", help="the topics' root (default goboard)")
    room.add_argument("--key", metavar="FILE", help="the venue's key file: boards registered to it take signed "
                      "commands only")
    room.add_argument("--host", default="127.0.0.1", help="the page's address (0.0.0.0: the hall's network)")
    room.add_argument("--port", type=int, default=8090, help="the page's port (default 8090)")
    room.add_argument("--stuck", type=float, default=60.0, help="seconds without a move that make a board stuck")
    room.add_argument("--progress-dir", type=Path, help="keep each board's problem progress here")
    replay = sub.add_parser("replay", help="step through a record on the board, variations too")
    replay.add_argument("record", type=Path, help="an SGF file")
    replay.add_argument("--board", default="sim", metavar="PORT|sim", help="the board's serial port, or sim")
    lesson = sub.add_parser("lesson", help="a lesson for a first-time player, step by step on the board")
    lesson.add_argument("number", type=int, nargs="?", help="the lesson (default: list them)")
    lesson.add_argument("--board", default="sim", metavar="PORT|sim", help="the board's serial port, or sim")
    lesson.add_argument("--seed", type=int, default=0, help="with --board sim: the simulated student's seed")
    guess = sub.add_parser("guess", help="guess a recorded game's moves, the other side's lit to place")
    guess.add_argument("record", type=Path, help="an SGF file")
    guess.add_argument("--colour", choices=("B", "W"), default="B", help="the side whose moves you guess")
    guess.add_argument("--board", default="sim", metavar="PORT|sim", help="the board's serial port, or sim")
    guess.add_argument("--seed", type=int, default=0, help="with --board sim: the simulated student's seed")
    review = sub.add_parser("review", help="GNU Go's review: the moves that lost most, its own as variations")
    review.add_argument("record", type=Path, help="an SGF file (a game the board recorded, or any)")
    review.add_argument("--swings", type=int, default=3, help="how many moves to point out (default 3)")
    review.add_argument("--level", type=int, default=5, help="GNU Go's level 0-10")
    review.add_argument("--out", type=Path, help="write the reviewed SGF here (default: FILE-review.sgf)")
    review.add_argument("--retry", action="store_true", help="then retry those positions on the board; "
                        "the tries go into the reviewed SGF as variations")
    review.add_argument("--board", default="sim", metavar="PORT|sim", help="with --retry: the board's port, or sim")
    review.add_argument("--seed", type=int, default=0, help="with --retry --board sim: the simulated player's seed")
    args = parser.parse_args(argv)
    run = {"problems": _problems, "lesson": _lesson, "classroom": _classroom, "replay": _replay,
           "review": _review, "guess": _guess}[args.what]
    try:
        return run(args)
    except OSError as error:
        where = f"{error.filename}: " if error.filename else ""  # (a file not read, a port not opened)
        print(f"teach: {where}{error.strerror or error}", file=sys.stderr)
    except (BoardError, EngineError, ValueError) as error:
        print(f"teach: {error}", file=sys.stderr)
    return 1


def _board(where, seed, problems, wrong=0.3):
    """The board on serial port ``where``, or the simulated one with a simulated student."""
    if where != "sim":
        return open_board(where)[0]
    table = SimTable(seed, Student(problems, random.Random(seed), wrong=wrong))
    return Board(table.port, table)


def _replay(args):
    data = args.record.read_bytes()
    if args.board == "sim":
        table = SimTable(0, Reader())
        board = Board(table.port, table)
    else:
        board = open_board(args.board)[0]
    Replay(board, data).run()
    return 0


def _guess(args):
    record = sgf.read(args.record.read_bytes())
    board, _ = open_board(args.board, args.seed)
    Guess(board, record, 1 if args.colour == "B" else 2).run()
    return 0


def _classroom(args):
    from host_tools.venue.broker import read_login
    from host_tools.venue.keys import load_key

    from .classroom import Classroom, serve

    login = read_login(args.mqtt_login) if args.mqtt_login else None
    key = load_key(args.key, create=False) if args.key else None
    room = Classroom(args.mqtt, login, args.root, args.stuck, args.progress_dir, key)
    server = serve(room, args.host, args.port)
    print(f"classroom: http://{args.host}:{args.port}/ (Ctrl-C stops it)")
    try:
        while True:
            time.sleep(1)
    except KeyboardInterrupt:
        server.shutdown()
        room.close()
    return 0


def _lesson(args):
    if args.number is None:
        for k, lesson in enumerate(LESSONS, start=1):
            print(f"{k}. {lesson.title} ({len(lesson.steps)} steps)")
        return 0
    problems = [course_problem(step.problem) for lesson in LESSONS for step in lesson.steps if step.problem]
    Teaching(_board(args.board, args.seed, problems)).run(args.number)
    return 0


def _problems(args):
    problems = load_problems(args.sets)
    board = _board(args.board, args.seed, problems, args.wrong)
    progress = Progress(args.progress or default_progress(board.sync.board_id or "board"))
    print(f"progress: {progress.path}")
    Solving(board, problems, progress).run(None if args.start is None else args.start - 1, args.tries)
    return 0


def _review(args):
    data = args.record.read_bytes()
    record = sgf.read(data)
    with Engine(default_engine(args.level, 1)) as engine:
        swings = review_game(record, engine, args.swings)
    for swing in swings:
        better = "nothing" if swing.better == PASS else vertex(record.size, swing.better)
        print(f"move {swing.number} ({'BW'[swing.colour - 1]} {vertex(record.size, swing.played)}): "
              f"about {swing.lost:g} points lost; GNU Go would play {better}")
    out = args.out or args.record.with_name(args.record.stem + "-review.sgf")
    tries = []
    if args.retry:
        problems = positions(record, swings)
        if problems:
            solving = Solving(_board(args.board, args.seed, problems), problems, Progress(None))
            solving.run(0)
            tries = solving.tries
    out.write_bytes(with_tries(data, swings, tries))
    print(f"the review is in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Turn a game record into what hands would do on the board: a physical event script.

Stones are placed by hand (a hand sliding a stone passes near other points
first: short hovers), captured stones are lifted one by one in random order
after random delays, sometimes the last only after the opponent's reply, and
passes are clock presses. Used by the tests (every bundled professional game
must be recorded back move for move) and by ``make demo``.
"""

from __future__ import annotations

import random

from firmware.rules.coords import PASS, col_row, point, vertex
from firmware.rules.game import COUNTING, Game, IllegalMove
from firmware.rules.handicap import fixed_points
from firmware.rules.position import BLACK

from .script import parse

_NAMES = {1: "black", 2: "white"}


def _near(size, pt, rng):
    """A point one or two lines from pt (where a sliding hand passes)."""
    col, row = col_row(size, pt)
    while True:
        c = col + rng.choice((-2, -1, 0, 1, 2))
        r = row + rng.choice((-2, -1, 0, 1, 2))
        if (c, r) != (col, row) and 0 <= c < size and 0 <= r < size:
            return point(size, c, r)


def script_lines(size, moves, handicap=(), rules="japanese", seed=1, polarity=False,
                 settle_ms=150, late_lift=0.3, clock=False):
    """Physical event lines for a game: ``moves`` as (colour, point) with
    PASS for passes, ``handicap`` the black stones placed first. Two moves of
    one colour in a row get a pass (a clock press) of the other in between.
    With ``clock`` every move ends with its player's press.
    Returns (lines, moves as the board will record them)."""
    rng = random.Random(seed)
    game = Game(size, rules, strict_turns=False)
    if handicap:
        game.place_handicap(list(handicap))
    timed = []  # (t, order, text)
    order = 0
    t = 0

    def add(at, text):
        nonlocal order
        order += 1
        timed.append((at, order, text))

    colour_word = (lambda c: " " + _NAMES[c]) if polarity else (lambda c: "")
    for pt in handicap:
        t += rng.randint(400, 900)
        add(t, f"place {vertex(size, pt)}{colour_word(BLACK)}")
    expected = []
    pending_late = None  # a captured stone to lift only after the opponent's reply
    not_before = 0  # a hand needs time to bring a stone where one was just lifted
    for index, (colour, pt) in enumerate(moves):
        if game.phase == COUNTING and pt != PASS:
            game.resume(3 - colour)
        if colour != game.to_move:
            t += rng.randint(300, 900)
            add(t, f"press {_NAMES[game.to_move]}")
            game.play(game.to_move, PASS)
            expected.append((3 - colour, PASS))
            if game.phase == COUNTING:
                game.resume(3 - colour)
        t = max(t + rng.randint(600, 2500), not_before)
        if pt == PASS:
            add(t, f"press {_NAMES[colour]}")
            game.play(colour, PASS)
            expected.append((colour, PASS))
            if pending_late:
                not_before = t + rng.randint(100, 400)
                add(not_before, f"lift {vertex(size, pending_late)}")
                not_before += 2 * settle_ms
                pending_late = None
            continue
        for k in range(rng.randint(0, 3)):  # the hand slides in
            hover_at = t - 40 * (k + 1) - rng.randint(0, 30)
            add(hover_at, f"hover {vertex(size, _near(size, pt, rng))} {rng.randint(15, settle_ms // 2)}"
                          f"{colour_word(colour)}")
        add(t, f"place {vertex(size, pt)}{colour_word(colour)}")
        if pending_late:
            not_before = t + rng.randint(150, 600)
            add(not_before, f"lift {vertex(size, pending_late)}")
            not_before += 2 * settle_ms
            pending_late = None
        n = game.play(colour, pt)
        expected.append((colour, pt))
        captured = [game.pos.removed[i] for i in range(n)]
        rng.shuffle(captured)
        lift_at = t + rng.randint(200, 500)
        for i, q in enumerate(captured):
            last = i == len(captured) - 1
            if last and len(captured) and rng.random() < late_lift:
                pending_late = q  # lifted only after the opponent's reply
                break
            add(lift_at, f"lift {vertex(size, q)}")
            lift_at += rng.randint(80, 700)
        t = max(t, lift_at - 400)
        if pending_late and index + 1 < len(moves) and moves[index + 1][1] == pending_late:
            # The reply is played where that stone lies: it is lifted first, and a
            # hand takes longer than the settle time to bring the next stone there.
            add(lift_at, f"lift {vertex(size, pending_late)}")
            t = max(t, lift_at + settle_ms)
            pending_late = None
        if clock:  # the press after the stone is down (and settled)
            t = max(t, lift_at, t + settle_ms + rng.randint(100, 500))
            add(t, f"press {_NAMES[colour]}")
    if pending_late:
        add(t + 500, f"lift {vertex(size, pending_late)}")
    timed.sort()
    return [f"{at} {text}" for at, _order, text in timed], expected


def random_moves(size, count, rng, handicap=0):
    """A random legal game of ``count`` moves (colour, point) after ``handicap`` fixed stones,
    no pass (two would end the play); ``rng``: a random.Random."""
    game = Game(size)
    if handicap:
        game.place_handicap(fixed_points(size, handicap))
    moves = []
    while len(moves) < count:
        pt = rng.randrange(1, len(game.pos.cells))  # (0 is PASS)
        colour = game.to_move
        try:
            game.play(colour, pt)
        except (IllegalMove, ValueError, IndexError):
            continue
        moves.append((colour, pt))
    return moves


def resigned(size, moves, start_ms, seed, handicap=(), first_ms=500, resign_ms=3000):
    """The script events (script.py) of hands playing ``moves`` after the ``handicap`` stones,
    the first ``first_ms`` after ``start_ms``, then the player to move resigning (its button)
    ``resign_ms`` after the last."""
    lines, _expected = script_lines(size, moves, handicap, seed=seed)
    events, errors = parse(lines, size)
    if errors:
        raise ValueError("the script of these moves does not parse: %s" % errors)
    for event in events:
        event.t_ms += start_ms + first_ms
    end = events[-1].t_ms + resign_ms
    return events + parse(["%d button resign_%s" % (end, "white" if len(moves) % 2 else "black")], size)[0]


def main(argv=None):
    """python -m host_tools.sim.physical RECORD.sgf [--polarity] [--clock] [--seed N]: print
    the physical event script of a game record (stops at its first illegal move)."""
    import argparse
    import sys
    from pathlib import Path

    from firmware.rules.game import IllegalMove
    from host_tools import sgf

    parser = argparse.ArgumentParser(prog="python -m host_tools.sim.physical", description=main.__doc__.split(":")[0])
    parser.add_argument("record", type=Path)
    parser.add_argument("--polarity", action="store_true", help="say each stone's colour (Hall sensors)")
    parser.add_argument("--seed", type=int, default=1, help="randomness of the hands (default 1)")
    parser.add_argument("--rules", default="japanese")
    parser.add_argument("--clock", action="store_true", help="a game clock: every move ends with a press")
    args = parser.parse_args(argv)
    try:
        record = sgf.read(args.record.read_bytes())
    except (OSError, ValueError) as error:
        parser.error(f"cannot read {args.record}: {error}")
    handicap = record.black if record.black and not record.white else []
    moves = []
    game = Game(record.size, args.rules, strict_turns=False)
    if handicap:
        game.place_handicap(handicap)
    for colour, pt in record.moves:
        try:
            if game.phase == COUNTING:
                game.resume(3 - colour)
            game.play(colour, pt)
        except IllegalMove as error:
            print(f"# the record stops here: move {len(moves) + 1} is illegal ({error.reason})", file=sys.stderr)
            break
        moves.append((colour, pt))
    lines, _expected = script_lines(record.size, moves, handicap, rules=args.rules, seed=args.seed,
                                    polarity=args.polarity, clock=args.clock)
    print(f"# {args.record.name}: {len(moves)} moves, handicap {len(handicap)}")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

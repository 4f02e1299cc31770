"""A players' script played again, checked line by line: the simulator's, the shrinker's and the regression tests' one way.

A players' script (players.py writes them, docs/script.md has the grammar) starts with
comment lines naming its settings (``# settings: --size 9 --rules korean ...``), and may
name the invariant it broke (``# invariant: clock ...``) and the issue item it is
(``# item: 2``); each event line's tag says whose hands act and why (played.py).
``replay(table, lines)`` plays it on a fresh board with every invariant checked after
every pass (invariants.py) and the players' game against the board's (played.py), and
returns the ``Checker``. ``valid(table, lines)`` says whether the lines are a game
players could play (the shrinker keeps only such scripts).
"""

from __future__ import annotations

from firmware.rules.game import COUNTING, OVER, IllegalMove

from .invariants import Checker, Found
from .played import Played, tag_of
from .script import ScriptError, parse_line

HANDS = ("place", "lift", "hover", "press", "hold", "button")


def step(sim, check, played, line, number=0):
    """Carry out one tagged script line; False once the board's game is not the players'."""
    event = parse_line(line, number, played.game.size, 0)
    if event is None:
        return True
    who, words = tag_of(line)
    sim.advance(event.t_ms)
    if not played.before(sim, check, words):
        return False
    if who and event.action in HANDS:
        check.acted(event.t_ms, who)
    check.last = line.split(None, 1)[1]
    over = sim.game.phase == OVER  # (a game over: what the players still do changes nothing)
    sim.apply(event)
    if not over:
        played.apply(who, words, event.t_ms, check)
    return True


def finish(sim, check, played, stopped=False):
    """The board settles and the record catches up; the last checks."""
    sim.run([], tail_ms=1500)
    if not stopped:
        played.check(sim, check)
    check.final()


def replay(table, lines, stop_on=None):
    """Play ``lines`` on a fresh board of ``table``; the Checker. With ``stop_on`` (a function
    of a violation), stop at the first violation it holds for."""
    sim = table.simulation()
    check = Checker(sim)
    check.stop_on = stop_on
    played = Played(table)
    try:
        stopped = False
        for number, line in enumerate(lines, 1):
            if not step(sim, check, played, line, number):
                stopped = True
                break
        finish(sim, check, played, stopped)
    except Found:
        pass
    except (IllegalMove, ValueError):  # (the players' game cannot follow the lines: nothing more to check)
        pass
    return check


def valid(table, lines):
    """The lines are a game players could play: each stone placed on an empty point; the
    players' intents legal in turn; before each move or pass the stones on the board are
    the players' game (captured stones not yet lifted aside); a clock button pressed only to
    end its player's move (in a timed game, before the next move or pass), to pass, to
    agree to a count, or by mistake right after a move (``wrong side``)."""
    played = Played(table)
    game = played.game
    stones = {}  # game point -> True: a stone lies there
    captured = set()  # points whose stones were captured and may still lie there
    dead = set()  # points whose stones were lifted as dead at a count
    slips = set()  # points a slip left wrong (put right before the next move; a game may end first)
    owed = 0  # the mover who has not pressed yet (a timed game)
    owed_next = 0  # the opponent whose stone came early: it owes its press once the mover's comes
    timed = table.time != "none"
    check = _Quiet()
    for number, line in enumerate(lines, 1):
        try:
            event = parse_line(line, number, table.size, 0)
        except ScriptError:
            return False
        if event is None:
            continue
        who, words = tag_of(line)
        what = words[0] if words else ""
        early = what == "move" and words[-1] == "early" and owed == 3 - who and not owed_next
        if what in ("move", "pass"):
            if (owed and not early) or (captured and game.op is not None):  # (OP Art.2-4: captures off first)
                return False
            if not _matches(game, stones, captured):
                return False
        if event.action == "place":
            if stones.get(event.point) or (what == "dame" and game.phase != COUNTING):
                return False
            stones[event.point] = True
            slips.discard(event.point)
            if what in ("out", "knocked", "early"):  # (a stone out of turn, knocked, too early: lifted again)
                slips.add(event.point)
        if what in ("knocked", "put") and owed and owed != who:  # (during a turn the hands are its player's)
            return False
        if event.action == "lift":
            stones.pop(event.point, None)
            captured.discard(event.point)
            slips.discard(event.point)
            if what == "dead":
                dead.add(event.point)
            elif what == "knocked":  # (put right later)
                slips.add(event.point)
        elif event.action == "press" and event.colour:
            if what == "move" or what not in ("pass", "agree", "wrong", "early") and not (timed and owed == who == event.colour):
                return False
            if owed == who == event.colour:
                owed, owed_next = owed_next, 0
        before = game.pos.cells[:]
        try:
            played.apply(who, words, event.t_ms, check)
        except (IllegalMove, ValueError, IndexError):
            return False
        if what == "move":
            after = game.pos.cells
            captured.update(g for g in range(len(after)) if before[g] in (1, 2) and not after[g])
            if early:
                owed_next = who
            else:
                owed = who if timed else 0
        elif what in ("takeback", "resume"):
            owed = 0
            captured.clear()
            dead.clear()
        elif what == "dame":
            dead.add(event.point)
    return _matches(game, stones, captured | dead | slips)  # (at the end too: no stone left astray)


def _matches(game, stones, astray):
    # The stones on the board are the game's, but for the points in ``astray``.
    cells = game.pos.cells
    for g in stones:
        if not cells[g] and g not in astray:
            return False
    for g in range(len(cells)):
        if cells[g] in (1, 2) and g not in stones and g not in astray:
            return False
    return True


class _Quiet:
    """A checker that notes nothing (valid() follows the intents only)."""

    def expect(self, *args):
        pass

    def violate(self, *args):
        pass


def read(text):
    """A players' script file: (table, event lines, header dict: seed, invariant, item...)."""
    from .tables import Table

    header, lines = {}, []
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            key, _, value = line[1:].strip().partition(":")
            if value and key.strip() in ("settings", "invariant", "item", "seed", "found", "cause"):
                header[key.strip()] = value.strip()
            continue
        lines.append(line)
    return Table.from_options(header.get("settings", "")), lines, header

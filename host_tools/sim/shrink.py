"""A failing players' script cut down to the few lines that still break the same invariant.

``shrink(table, lines, invariant)``: delta debugging (Zeller's ddmin), first over turns (a
move or a pass with the presses and lifts that follow it), then over pairs of turns in a
row (a move of each player), then over lines, then one line at a time, keeping a candidate
only if it is a game players could play (replay.py ``valid``) and its replay breaks
``invariant`` again (the replay stops at that violation). The lines after the first
violation go first (only the end-of-game checks need them). ``budget`` and ``seconds`` bound the replays.
"""

from __future__ import annotations

import time

from .replay import replay, valid


def shrink(table, lines, invariant, budget=600, same=None, seconds=90):
    """The shortest lines found (a list) that still break ``invariant`` (and, with ``same``, a
    function of a violation, with a violation ``same`` holds for); the lines themselves if none.
    At most ``budget`` replays and ``seconds`` of time."""
    tries = [0]
    until = time.monotonic() + seconds

    def wanted(v):
        return v[0] == invariant and (same is None or same(v))

    def fails(candidate):
        if tries[0] >= budget or time.monotonic() > until or not candidate or not valid(table, candidate):
            return False
        tries[0] += 1
        return any(wanted(v) for v in replay(table, candidate, stop_on=wanted).violations)

    if not fails(lines):
        return lines
    at = next(v[1] for v in replay(table, lines, stop_on=wanted).violations if wanted(v))
    head = [line for line in lines if int(line.split()[0]) <= at]
    if head != lines and fails(head):
        lines = head
    groups = _ddmin(_turns(lines), lambda gs: fails([line for g in gs for line in g]))
    i = len(groups) - 2
    while i >= 0:  # a move of each player at once (one alone breaks the turn order)
        candidate = groups[:i] + groups[i + 2:]
        if fails([line for g in candidate for line in g]):
            groups = candidate
        i = min(i, len(groups) - 1) - 1
    lines = _ddmin([line for g in groups for line in g], fails)
    changed = True
    while changed:  # then each line alone
        changed = False
        for i in range(len(lines) - 1, -1, -1):
            candidate = lines[:i] + lines[i + 1:]
            if fails(candidate):
                lines = candidate
                changed = True
    return lines


def _turns(lines):
    """The lines in turns: a new one at each move, pass, handicap stone, resignation, host command or power event."""
    groups = []
    for line in lines:
        words = line.split("#", 1)[1].split() if "#" in line else []
        action = line.split()[1]
        if not groups or action in ("host", "power") or (len(words) > 1 and words[1] in (
                "move", "pass", "handicap", "resign")):
            groups.append([])
        groups[-1].append(line)
    return groups


def _ddmin(lines, fails):
    n = 2
    while len(lines) >= 2:
        size = len(lines) // n
        chunks = [lines[i:i + size] for i in range(0, len(lines), size)] if size else [lines]
        reduced = False
        for i in range(len(chunks)):
            candidate = [line for j, chunk in enumerate(chunks) if j != i for line in chunk]
            if fails(candidate):
                lines = candidate
                n = max(n - 1, 2)
                reduced = True
                break
        if not reduced:
            if n >= len(lines):
                break
            n = min(n * 2, len(lines))
    return lines

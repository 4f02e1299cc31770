"""Physical event scripts: what hands do on the board, one event per line.

    <t_ms> place <vertex> [black|white]   # a stone comes to rest (colour only where sensors can tell)
    <t_ms> lift <vertex>                  # a stone leaves the intersection
    <t_ms> hover <vertex> <ms> [black|white]  # a magnet passes near for <ms> (hand sliding a stone)
    <t_ms> press black|white              # a player's clock button
    <t_ms> button <name>                  # pass, undo, ok, resume, resign_black, resign_white

``#`` starts a comment. Vertices are GTP names (A1 bottom left, no I) on
the game's board. Time only moves forward. ``parse`` reports every bad line
with its number; the simulator then plays nothing (a script runs whole or not at all).
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware.rules.coords import parse_vertex
from firmware.rules.position import BLACK, WHITE

BUTTONS = ("pass", "undo", "ok", "resume", "resign_black", "resign_white")
_COLOURS = {"black": BLACK, "b": BLACK, "white": WHITE, "w": WHITE}


@dataclass
class Event:
    """One parsed line. ``point`` is a game point index; ``colour`` 0 when not given."""

    t_ms: int
    action: str
    point: int = 0
    colour: int = 0
    duration_ms: int = 0
    name: str = ""
    line: int = 0


class ScriptError(ValueError):
    """A line that is not an event; ``line`` is its number (1-based)."""

    def __init__(self, line: int, message: str):
        super().__init__(f"line {line}: {message}")
        self.line = line


def parse_line(text: str, number: int, size: int, last_t: int) -> Event | None:
    """The event on one line (None for a blank or comment line). Raises
    ScriptError naming what is wrong."""
    words = text.split("#", 1)[0].split()
    if not words:
        return None
    try:
        t = int(words[0])
    except ValueError:
        raise ScriptError(number, f"time {words[0]!r} is not a whole number of milliseconds") from None
    if t < last_t:
        raise ScriptError(number, f"time {t} is before the previous event ({last_t}): time only moves forward")
    if len(words) < 2:
        raise ScriptError(number, "missing action (place, lift, hover, press, button)")
    action, args = words[1].lower(), words[2:]

    def point(i):
        if len(args) <= i:
            raise ScriptError(number, f"{action} needs a vertex")
        try:
            return parse_vertex(size, args[i])
        except ValueError as error:
            raise ScriptError(number, str(error)) from None

    def colour(i, required=False):
        if len(args) <= i:
            if required:
                raise ScriptError(number, f"{action} needs black or white")
            return 0
        if args[i].lower() not in _COLOURS:
            raise ScriptError(number, f"bad colour {args[i]!r} (black or white)")
        return _COLOURS[args[i].lower()]

    if action == "place":
        if len(args) > 2:
            raise ScriptError(number, "place takes a vertex and an optional colour")
        return Event(t, action, point(0), colour(1), line=number)
    if action == "lift":
        if len(args) != 1:
            raise ScriptError(number, "lift takes one vertex")
        return Event(t, action, point(0), line=number)
    if action == "hover":
        if len(args) < 2 or len(args) > 3:
            raise ScriptError(number, "hover takes a vertex, a duration in ms and an optional colour")
        try:
            duration = int(args[1])
        except ValueError:
            raise ScriptError(number, f"hover duration {args[1]!r} is not a whole number of ms") from None
        if duration <= 0:
            raise ScriptError(number, "hover duration must be positive")
        return Event(t, action, point(0), colour(2), duration_ms=duration, line=number)
    if action == "press":
        if len(args) != 1:
            raise ScriptError(number, "press takes black or white")
        return Event(t, action, colour=colour(0, True), line=number)
    if action == "button":
        if len(args) != 1 or args[0].lower() not in BUTTONS:
            raise ScriptError(number, "button takes one of: " + ", ".join(BUTTONS))
        return Event(t, action, name=args[0].lower(), line=number)
    raise ScriptError(number, f"unknown action {words[1]!r} (place, lift, hover, press, button)")


def parse(lines, size: int):
    """(events, errors) for a whole script: bad lines are collected, not fatal."""
    events, errors = [], []
    last_t = 0
    for number, text in enumerate(lines, 1):
        try:
            event = parse_line(text, number, size, last_t)
        except ScriptError as error:
            errors.append(error)
            continue
        if event is not None:
            events.append(event)
            last_t = event.t_ms
    return events, errors

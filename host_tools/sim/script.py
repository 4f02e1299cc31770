"""Physical event scripts: what hands (and a host) do to the board, one event per line (docs/script.md).

    <t_ms> place <vertex> [black|white]       # a stone comes to rest (colour only where sensors can tell)
    <t_ms> lift <vertex>                      # a stone leaves the intersection
    <t_ms> hover <vertex> <ms> [black|white]  # a magnet passes near for <ms> (hand sliding a stone)
    <t_ms> press black|white|pause|menu       # a finger presses one of the board's buttons (60 ms)
    <t_ms> hold <button>[+<button>] <ms>      # fingers hold buttons for <ms> (hold pause+menu 3000)
    <t_ms> button <control>                   # the referee's controls: pass, undo, ok, resume, draw, resign_*
    <t_ms> host <command> [args...]           # a host's command, as the link reads it (docs/protocol.md)
    <t_ms> power off|on|cut                   # the board's power goes, comes back, or both at once

``#`` starts a comment. Vertices are GTP names (A1 bottom left, no I) on
the game's board. Time only moves forward; events at the same time are
carried out in order. ``parse`` reports every bad line with its number; the
simulator then plays nothing (a script runs whole or not at all).
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware import protocol as pr
from firmware.drivers.buttons import B_BLACK, B_MENU, B_PAUSE, B_WHITE
from firmware.host.commands import parse as parse_arguments
from firmware.rules.coords import parse_vertex
from firmware.rules.position import BLACK, WHITE

ACTIONS = ("place", "lift", "hover", "press", "hold", "button", "host", "power")
BUTTONS = ("pass", "undo", "ok", "resume", "draw", "resign_black", "resign_white")  # App.control's
KEYS = {"black": B_BLACK, "b": B_BLACK, "white": B_WHITE, "w": B_WHITE, "pause": B_PAUSE, "menu": B_MENU}
POWER = ("off", "on", "cut")
_LINK_OWN = ("hello", "state", "resend", "mem")  # answered by the link itself: nothing for the app to do
_COLOURS = {"black": BLACK, "b": BLACK, "white": WHITE, "w": WHITE}


@dataclass
class Event:
    """One parsed line. ``point`` is a game point index; ``colour`` 0 when not given (for a press
    of a clock button: its colour); ``buttons``: drivers/buttons.py indices (press, hold);
    ``name``: the control, host command or power word; ``args``: the host command's arguments."""

    t_ms: int
    action: str
    point: int = 0
    colour: int = 0
    duration_ms: int = 0
    name: str = ""
    line: int = 0
    buttons: tuple = ()
    args: tuple = ()


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
        raise ScriptError(number, "missing action (" + ", ".join(ACTIONS) + ")")
    action, args = words[1].lower(), words[2:]

    def fail(message):
        raise ScriptError(number, message)

    def point(i):
        if len(args) <= i:
            fail(f"{action} needs a vertex")
        try:
            return parse_vertex(size, args[i])
        except ValueError as error:
            raise ScriptError(number, str(error)) from None

    def colour(i):
        if len(args) <= i:
            return 0
        if args[i].lower() not in _COLOURS:
            fail(f"bad colour {args[i]!r} (black or white)")
        return _COLOURS[args[i].lower()]

    def duration(i, what):
        try:
            ms = int(args[i])
        except ValueError:
            raise ScriptError(number, f"{what} duration {args[i]!r} is not a whole number of ms") from None
        if ms <= 0:
            fail(f"{what} duration must be positive")
        return ms

    if action == "place":
        if len(args) > 2:
            fail("place takes a vertex and an optional colour")
        return Event(t, action, point(0), colour(1), line=number)
    if action == "lift":
        if len(args) != 1:
            fail("lift takes one vertex")
        return Event(t, action, point(0), line=number)
    if action == "hover":
        if len(args) < 2 or len(args) > 3:
            fail("hover takes a vertex, a duration in ms and an optional colour")
        return Event(t, action, point(0), colour(2), duration_ms=duration(1, "hover"), line=number)
    if action == "press":
        if len(args) != 1 or args[0].lower() not in KEYS:
            fail("press takes black, white, pause or menu")
        key = args[0].lower()
        return Event(t, action, colour=_COLOURS.get(key, 0), name=key, buttons=(KEYS[key],), line=number)
    if action == "hold":
        if len(args) != 2:
            fail("hold takes buttons (black, white, pause, menu, joined by +) and a duration in ms")
        keys = args[0].lower().split("+")
        if not all(k in KEYS for k in keys):
            fail(f"hold: bad button in {args[0]!r} (black, white, pause, menu, joined by +)")
        buttons = tuple(KEYS[k] for k in keys)
        if len(set(buttons)) != len(buttons):
            fail(f"hold: a button named twice in {args[0]!r}")
        return Event(t, action, name=args[0].lower(), buttons=buttons, duration_ms=duration(1, "hold"), line=number)
    if action == "button":
        if len(args) != 1 or args[0].lower() not in BUTTONS:
            fail("button takes one of: " + ", ".join(BUTTONS))
        return Event(t, action, name=args[0].lower(), line=number)
    if action == "host":
        name, host_args = host_command(" ".join(args), number, size)
        return Event(t, action, name=name, args=host_args, line=number)
    if action == "power":
        if len(args) != 1 or args[0].lower() not in POWER:
            fail("power takes off, on or cut")
        return Event(t, action, name=args[0].lower(), line=number)
    fail(f"unknown action {words[1]!r} (" + ", ".join(ACTIONS) + ")")


def host_command(text, number=0, size=19):
    """A host command line checked as the board checks it, on a ``size`` board: (name, args).
    Raises ScriptError."""
    if not text:
        raise ScriptError(number, "host needs a command (mode, new, end, clock, referee, replay, time, show, diag...)")
    name, args = pr.parse_command(text.encode("utf-8", "replace"))
    if name is None:
        raise ScriptError(number, f"host: {args[1]}")
    if name in _LINK_OWN:
        raise ScriptError(number, f"host {name}: the link answers it itself (nothing for the board's app to do)")
    if name != "new":
        try:
            parse_arguments(name, args, size)
        except ValueError as error:
            raise ScriptError(number, f"host: {error}") from None
    return name, tuple(args)


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

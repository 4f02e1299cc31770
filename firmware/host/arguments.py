"""What each host command's arguments must be (docs/protocol.md), for the commands the app
carries out (firmware/host/commands.py): the link checks them first, so a malformed command
changes nothing. protocol.parse_command has checked the name, and the arguments of those the
link answers itself and of ``new``. Loaded for the command and let go after
(firmware/host/link.py).
"""

from ..modes import NAMES as MODE_NAMES
from ..protocol import E_MALFORMED, is_uint
from ..rules.ending import PENALTY_KINDS


def check(name, args):
    """What is wrong with the arguments of command ``name`` (one of protocol.COMMANDS the link
    does not answer itself, not ``new``): an ``(error_code, detail)`` pair, or None."""
    if name == "replay":
        if args:
            return E_MALFORMED, "replay takes no arguments"
    elif name == "mode":
        if not 1 <= len(args) <= 2 or args[0] not in MODE_NAMES or args[1:] not in ([], ["agreed"], ["referee"]):
            return E_MALFORMED, "mode needs casual, teaching or tournament [agreed|referee]"
    elif name == "show":
        if not args or args[0] not in ("hint", "mark", "clear"):
            return E_MALFORMED, "show needs hint, mark or clear"
    elif name == "end":
        if len(args) > 1:
            return E_MALFORMED, "end takes at most a result"
    elif name == "time":
        if len(args) not in (2, 4) or not all(is_uint(a) for a in args):
            return E_MALFORMED, "time needs 2 or 4 numbers"
    elif name == "referee":
        if args == ["undo"]:
            return None
        if (len(args) not in (2, 3) or (args[0] not in PENALTY_KINDS and args[0] != "order")
                or args[1] not in ("B", "W") or (len(args) == 3) != (args[0] == "points")
                or (len(args) == 3 and not is_uint(args[2]))):
            return E_MALFORMED, "referee needs caution|warning|forfeit|order B|W, points B|W N, or undo"
    elif name == "clock":
        what = args[0] if args else ""
        if not ((what in ("pause", "resume") and len(args) == 1)
                or (what == "away" and len(args) == 2 and args[1] in ("B", "W"))
                or (what == "late" and len(args) == 3 and args[1] in ("B", "W") and is_uint(args[2]))):
            return E_MALFORMED, "clock needs pause, resume, away B|W or late B|W <seconds>"
    elif name == "diag" or name == "lock":
        if len(args) != 1 or args[0] not in ("on", "off"):
            return E_MALFORMED, name + " needs on or off"
    elif name == "key":
        if len(args) != 1 or len(args[0]) != 64 or args[0].strip("0123456789abcdef"):
            return E_MALFORMED, "key needs 64 lowercase hex digits (32 bytes)"
    return None

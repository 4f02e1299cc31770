"""The board's link on its own, for the protocol tests: a Follower and a Link on a cable twin, and a
test-only control that runs games itself (the board's real one is firmware/host/commands.py)."""

from firmware import protocol as pr
from firmware.follower import Follower
from firmware.host.link import Link
from firmware.modes import NAMES as MODE_NAMES
from firmware.rules.game import PLAYING, Game
from firmware.rules.result import RESIGN, Result
from firmware.settings import Settings
from host_tools.board.rules import fixed_handicap


def link_on(transport, **options):
    """A Link listening to a new Follower (``link.follower``)."""
    follower = Follower(options.get("boot", 1))
    link = Link(transport, follower, **options)
    follower.listen(link)
    return link


def attach(link, game, players=None):
    """Stream ``game`` as the link's next game."""
    follower = link.follower
    time_spec = (players or {}).get("time", "none")
    follower.attach(game, Settings(game.size, game.rules.name, time_spec=time_spec, players=players), follower.gid + 1)


class GameControl:
    """A ``control`` for a Link that runs games itself: ``new`` makes a
    rules.Game (fixed handicap, extra fields pb pw ev ro dt time kept for the
    GAME line, nothing validated beyond the rules), ``mode`` sets the
    follower's, ``show``/``time`` are kept (``shown``, ``times``), ``end
    [result]`` ends the game (``B+R`` style results; none: void)."""

    def __init__(self, link):
        self.link = link
        self.shown = []  # (kind, vertex text)
        self.times = None

    def command(self, name, args, now_ms):
        follower = self.link.follower
        game = follower.game
        if name == "new":
            if game is not None and game.phase == PLAYING and game.hist.length > 1:
                return pr.E_STATE, "a game is in progress: end it first"
            fields = pr.fields_dict(args)
            try:
                size = int(fields.get("size", "19"))
                komi = fields.get("komi")
                new = Game(size, fields.get("rules", "japanese"), komi=None if komi is None else float(komi))
                handicap = int(fields.get("handicap", "0"))
                if handicap:
                    fixed_handicap(new, handicap)
            except (ValueError, KeyError, IndexError) as e:
                return pr.E_MALFORMED, "new: " + str(e)[:40]
            extra = {}
            for key in ("pb", "pw", "ev", "ro", "dt", "time"):
                if key in fields:
                    extra[key] = fields[key]
            attach(self.link, new, extra)
            return None
        if name == "mode":
            follower.set_mode(MODE_NAMES.index(args[0]))
            return None
        if name == "show":
            self.shown = [] if args[0] == "clear" else [(args[0], v) for v in args[1:9]]
            return None
        if name == "time":
            self.times = [int(a) for a in args]
            return None
        if name == "end":
            if game is None or game.result is not None:
                return pr.E_STATE, "no game in progress"
            text = args[0] if args else "Void"
            if len(text) >= 3 and text[0] in "BW" and text[1] == "+" and text[2] == "R":
                game.end(Result(1 if text[0] == "B" else 2, RESIGN))
            else:
                game.end(Result(None, RESIGN))
            follower.follow()
            return None
        return pr.E_UNKNOWN, name

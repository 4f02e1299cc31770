"""A game's settings: what a host's ``new`` asks, the journal's NEW record keeps, the link's GAME line tells."""

from .clock.engine import Clock
from .rules.const import call_briefly
from .rules.coords import check_size
from .rules.ending import komi2_of
from .rules.game import Game
from .rules.rulesets import by_name


class Settings:
    """``size`` 5-19, ``rules`` (a rule set's name), ``komi`` (None: the rule set's,
    for the handicap), ``handicap`` (stones Black places first), ``time_spec`` (a
    time-control spec or preset; "none": no clock), ``players`` (the record's
    other fields as text: pb, pw, ev, ro, dt...; None for none).

    The rule set's record and the time control are read from their names once
    (``ruleset``, ``time_control``: the rule-set table and the time-control
    grammar are loaded for that moment only) and kept: the game and the clock
    made from these settings hold the same two records, a new game's check,
    game and clock load each once, a next game that names the same ones takes
    them (``share``: a venue's rounds load nothing again), and the app can
    make the last game again without loading anything (App.new_game's
    fallback)."""

    def __init__(self, size=19, rules="japanese", komi=None, handicap=0, time_spec="none", players=None):
        self.size = size
        self.rules = rules
        self.komi = komi
        self.handicap = handicap
        self.time_spec = time_spec
        self.players = players
        self._ruleset = None
        self._time = None

    def ruleset(self):
        """The RuleSet ``rules`` names; ValueError if none."""
        if self._ruleset is None:
            self._ruleset = by_name(self.rules)
        return self._ruleset

    def time_control(self):
        """The TimeControl ``time_spec`` reads as, or None for no clock; a bad spec is a
        SpecError naming its bad part."""
        if self._time is None and self.time_spec != "none":
            self._time = call_briefly("firmware.clock.spec", "parse", self.time_spec)
        return self._time

    def share(self, other):
        """Take ``other``'s rule set and time control where these settings name the same
        ones (the next game like the last: nothing is loaded or read again)."""
        if self.rules == other.rules:
            self._ruleset = other._ruleset
        if self.time_spec == other.time_spec:
            self._time = other._time

    def check(self):
        """Raise ValueError (a bad time spec: a SpecError naming its bad part) for
        settings the rules refuse, building nothing big: the app checks a new
        game's settings before it lets the last game go (a Pico's heap holds one)."""
        check_size(self.size)
        rules = self.ruleset()
        if self.komi is not None:
            komi2_of(self.komi)
        rules.check_handicap(self.size, self.handicap)
        self.time_control()
        players = self.players
        if players and players.get("remote", "B") not in ("B", "W"):
            raise ValueError("remote")  # (B or W: a name of its own would cost a Pico's heap)
        if players and int(players.get("captures", "0")) not in range(self.size * self.size):
            raise ValueError("captures")  # capture Go's goal: stones, fewer than the board's points
        if players and players.get("setup"):  # (the letters' code: loaded for the moment)
            call_briefly("firmware.rules.handicap", "setup_letters", self.size, players["setup"])

    def game(self, spent=None):
        """A new rules Game with these settings; ValueError names what the rules refuse.
        ``spent``: the last game, of this size, whose board and history it takes (rules/game.py)."""
        game = Game(self.size, self.ruleset(), komi=self.komi, spent=spent)
        if self.komi is None and self.handicap:
            game.komi = game.rules.default_komi(self.handicap)
        players = self.players
        if players and "captures" in players:  # capture Go: the first to capture that many stones wins
            game.captures[0] = int(players["captures"])
        if players and players.get("setup"):  # a position the players put down first (a problem's)
            call_briefly("firmware.rules.handicap", "setup_position", game, players["setup"], players.get("remote"))
        return game

    def clock(self, events):
        """The game's clock writing to ``events``, or None; a bad spec is a SpecError naming its bad part."""
        time = self.time_control()
        return None if time is None else Clock(time, events)


def is_pair(players):
    """A game's fields (Settings.players: the host's ``new`` fields) ask for pair go (``pair=1``,
    Thai rules 16: rules/pair.py)."""
    return bool(players) and players.get("pair", "0") not in ("0", "")


def from_fields(fields):
    """Settings from the host's ``new`` fields (a dict of text, taken: the settings' own fields
    leave it, its other fields are ``players``); ValueError for a bad number."""
    komi = fields.pop("komi", None)
    size = int(fields.pop("size", "19"))
    handicap = int(fields.pop("handicap", "0"))
    return Settings(size, fields.pop("rules", "japanese"), None if komi is None else float(komi), handicap,
                    fields.pop("time", "none"), fields or None)

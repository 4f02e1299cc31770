"""A game's settings: what a host's ``new`` asks, the journal's NEW record keeps, the link's GAME line tells."""

from .clock.engine import Clock
from .clock.spec import parse
from .rules.coords import check_size
from .rules.ending import komi2_of
from .rules.game import Game
from .rules.rulesets import by_name


class Settings:
    """``size`` 5-19, ``rules`` (a rule set's name), ``komi`` (None: the rule set's,
    for the handicap), ``handicap`` (stones Black places first), ``time_spec`` (a
    time-control spec or preset; "none": no clock), ``players`` (the record's
    other fields as text: pb, pw, ev, ro, dt...; None for none)."""

    def __init__(self, size=19, rules="japanese", komi=None, handicap=0, time_spec="none", players=None):
        self.size = size
        self.rules = rules
        self.komi = komi
        self.handicap = handicap
        self.time_spec = time_spec
        self.players = players

    def check(self):
        """Raise ValueError (a bad time spec: a SpecError naming its bad part) for
        settings the rules refuse, building nothing big: the app checks a new
        game's settings before it lets the last game go (a Pico's heap holds one)."""
        check_size(self.size)
        rules = by_name(self.rules)
        if self.komi is not None:
            komi2_of(self.komi)
        rules.check_handicap(self.size, self.handicap)
        if self.time_spec != "none":
            parse(self.time_spec)

    def game(self):
        """A new rules Game with these settings; ValueError names what the rules refuse."""
        game = Game(self.size, self.rules, komi=self.komi)
        if self.komi is None and self.handicap:
            game.komi = game.rules.default_komi(self.handicap)
        return game

    def clock(self, events):
        """The game's clock writing to ``events``, or None; a bad spec is a SpecError naming its bad part."""
        return None if self.time_spec == "none" else Clock(self.time_spec, events)


def from_fields(fields):
    """Settings from the host's ``new`` fields (a dict of text); ValueError for a bad number."""
    komi = fields.get("komi")
    return Settings(int(fields.get("size", "19")), fields.get("rules", "japanese"), None if komi is None else float(komi),
                    int(fields.get("handicap", "0")), fields.get("time", "none"), fields)

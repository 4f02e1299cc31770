"""A rule set as the firmware asks it: the ``RuleSet`` record and the values of its fields.

The rest of the firmware asks the record (``rules.ko == KO_POSITIONAL``...)
instead of testing rule-set names. The eight rule sets the board supports
are catalog.py's table, which ``by_name`` loads only while it makes a game's
record: a board plays with that one record, not the table. The product's
reading of each rule text is in docs/rulesets.md (from the seed texts:
Hanguk Kiwon rules and regulations, Thai Go Association rules, OP).
"""

from .const import call_briefly, const

# The values of the fields the firmware tests; those only the table names are catalog.py's.

# How repetition is prevented (0: simple ko; 3: OP's place-remove rule).
KO_POSITIONAL = const(1)  # no move may recreate any earlier board
KO_SITUATIONAL = const(2)  # ... any earlier board with the same player to move

# Which self-captures may be played (2: every placement, OP).
SUICIDE_NONE = const(0)  # no move may leave its own chain without liberties
SUICIDE_MULTI = const(1)  # multi-stone self-capture is legal (single-stone never is)

# How the game is counted (rules/scoring.py; 2: Tromp-Taylor's area of the board as it stands).
SCORE_TERRITORY = const(0)  # territory + prisoners, seki points count for nobody
SCORE_AREA = const(1)  # stones + surrounded empty points
SCORE_OP = const(3)  # OP Art.8: points whose every empty path reaches one colour

# Handicap stones (1: free, Black chooses the points).
HANDICAP_FIXED = const(0)  # on the star points
HANDICAP_NONE = const(2)  # the rule set has no handicap

# What a repeated position (simple-ko rule sets) does to the game (2: no result).
CYCLE_NONE = const(0)  # cannot happen: the ko rule forbids it
CYCLE_DRAW = const(1)  # Korean Art.9: draw, replayed with the remaining times
CYCLE_AGREE = const(3)  # Thai 11: draw if both agree, else play on

# What an illegal placement costs in tournament mode.
ILLEGAL_LOSS = const(0)  # the offender loses (Korean Art.19, and most rule sets)
ILLEGAL_WARN = const(1)  # Thai 28/29: stone not accepted, warning, turn lost
ILLEGAL_REJECT = const(2)  # Tromp-Taylor: the move is simply not played

# What PAUSE is in tournament play (clock/clauses.py applies it).
CAPTURE_NEVER = const(0)  # PAUSE stops the clock freely
CAPTURE_ALWAYS = const(1)  # Korean Art.14-2: only to remove captured stones
CAPTURE_THAI = const(2)  # Thai 24: to remove 5+ stones in byo-yomi (the last 10 min without); else Thai 17, 35


class RuleSet:
    """One rule set's answers to every question the firmware asks.

    Every record is catalog.py's (``by_name``), whose table sets its fields:
    the board keeps its game's record, not the code that makes one.
    ``name``, ``title``, ``sgf`` (the SGF RU value) and ``kgs`` (GTP's
    kgs-rules name, or None) name it; ``ko``, ``suicide``, ``scoring``,
    ``handicap``, ``cycle`` and ``illegal`` take the values above (and
    catalog.py's). ``komi2`` / ``komi2_handicap`` are default komi in half
    points (6.5 -> 13) so counting stays in integers. With ``compensate``,
    White gets handicap N minus ``comp_offset`` points under area scoring
    (Chinese N, AGA N - 1). ``white_passes_last`` and ``pass_stones``: AGA's
    passes; ``stone_supply``: OP's stones a side (0: unlimited);
    ``resume_first_passer``: Thai 12.3. ``warning_points[n]`` is what a
    player's n warnings give the opponent (the last entry holds for more:
    Korean Art.18, 2 points a warning; Thai 39, 2 points at the second);
    ``warning_loss`` is the number of warnings that loses (Korean
    Art.19-1-9: 2; Thai 39: 3; 0: never). With ``fill_dame`` the players
    fill every dame before the count is accepted (Korean Art.7-2, Thai 9.2).
    ``cautions_per_warning`` cautions make a warning (Korean regulations
    18-1-7: 2; 0: cautions cost nothing). ``capture_pause``: what PAUSE is in
    tournament play (CAPTURE_*: clock/clauses.py applies it).
    """

    name: str
    title: str
    sgf: str
    kgs: "str | None"
    ko: int
    suicide: int
    scoring: int
    handicap: int
    komi2: int
    komi2_handicap: int
    cycle: int
    illegal: int
    compensate: bool
    comp_offset: int
    white_passes_last: bool
    pass_stones: bool
    stone_supply: int
    resume_first_passer: bool
    warning_points: tuple
    warning_loss: int
    fill_dame: bool
    cautions_per_warning: int
    capture_pause: int

    def check_handicap(self, size, stones):
        """Raise ValueError unless a game on ``size`` may start with ``stones`` handicap stones (0: none;
        1: no stone placed, Black plays first with the handicap komi, as clubs give one stone).
        A handicap's check is handicap.py's, loaded for it (a game's setup)."""
        if stones:
            call_briefly("firmware.rules.handicap", "check", self, size, stones)

    def default_komi(self, handicap=0):
        """Default komi in points for a game with this many handicap stones."""
        return (self.komi2_handicap if handicap else self.komi2) / 2


def by_name(name):
    """Return the RuleSet called ``name`` (case-insensitive, common aliases too), made
    from catalog.py's table, which is loaded for the call only.

    Raises ValueError listing the known names if there is none.
    """
    return call_briefly("firmware.rules.catalog", "find", name)

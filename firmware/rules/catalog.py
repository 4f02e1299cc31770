"""The rule sets the board supports, as data: one ``RuleSet`` record each (rulesets.py).

A game needs only its own record: ``rulesets.by_name`` loads this table while
it makes one, and lets it go again (a Pico's heap is small), with the code
that fills a record's fields (``_record``); host tools import ``ALL``. The product's reading of each rule text is in
docs/rulesets.md.
"""

from .const import const
from .rulesets import (
    CAPTURE_ALWAYS,
    CAPTURE_THAI,
    CYCLE_AGREE,
    CYCLE_DRAW,
    CYCLE_NONE,
    HANDICAP_FIXED,
    HANDICAP_NONE,
    ILLEGAL_LOSS,
    ILLEGAL_REJECT,
    ILLEGAL_WARN,
    KO_POSITIONAL,
    KO_SITUATIONAL,
    SCORE_AREA,
    SCORE_OP,
    SCORE_TERRITORY,
    SUICIDE_MULTI,
    SUICIDE_NONE,
    RuleSet,
)

# The values of the fields that only this table names (rulesets.py has the others).
_KO_SIMPLE = const(0)  # no immediate recapture of a single stone
_KO_PLACE_REMOVE = const(3)  # OP Art.4: after a stone is removed the board must differ
#                             from the board just before that stone was placed
_SUICIDE_ALL = const(2)  # OP: every placement is played; the place-remove rule judges it
_SCORE_BOARD = const(2)  # Tromp-Taylor: area of the board as it stands
_HANDICAP_FREE = const(1)  # Black chooses the points
_CYCLE_VOID = const(2)  # no result



def _record(name, title, ko, suicide, scoring, handicap, komi2, cycle, illegal, compensate=False, comp_offset=0,
            komi2_handicap=None, white_passes_last=False, pass_stones=False, stone_supply=0,
            resume_first_passer=False, warning_points=(0,), warning_loss=0, fill_dame=False,
            cautions_per_warning=0, capture_pause=0, sgf=None, kgs=None):
    # A RuleSet with these fields (rulesets.py documents them).
    rules = RuleSet()
    rules.name = name
    rules.title = title
    rules.ko = ko
    rules.suicide = suicide
    rules.scoring = scoring
    rules.handicap = handicap
    rules.komi2 = komi2
    rules.komi2_handicap = komi2 if komi2_handicap is None else komi2_handicap
    rules.cycle = cycle
    rules.illegal = illegal
    rules.compensate = compensate
    rules.comp_offset = comp_offset
    rules.white_passes_last = white_passes_last
    rules.pass_stones = pass_stones
    rules.stone_supply = stone_supply
    rules.resume_first_passer = resume_first_passer
    rules.warning_points = warning_points
    rules.warning_loss = warning_loss
    rules.fill_dame = fill_dame
    rules.cautions_per_warning = cautions_per_warning
    rules.capture_pause = capture_pause
    rules.sgf = sgf or title
    rules.kgs = kgs
    return rules


ALL = (
    _record("korean", "Korean", _KO_SIMPLE, SUICIDE_NONE, SCORE_TERRITORY,
            HANDICAP_FIXED, 13, CYCLE_DRAW, ILLEGAL_LOSS, komi2_handicap=1,
            warning_points=(0, 2, 4), warning_loss=2, fill_dame=True, cautions_per_warning=2,
            capture_pause=CAPTURE_ALWAYS, sgf="Korean"),
    _record("japanese", "Japanese", _KO_SIMPLE, SUICIDE_NONE, SCORE_TERRITORY,
            HANDICAP_FIXED, 13, _CYCLE_VOID, ILLEGAL_LOSS, komi2_handicap=1,
            sgf="Japanese", kgs="japanese"),
    _record("chinese", "Chinese", _KO_SIMPLE, SUICIDE_NONE, SCORE_AREA,
            _HANDICAP_FREE, 15, _CYCLE_VOID, ILLEGAL_LOSS, compensate=True,
            komi2_handicap=1, sgf="Chinese", kgs="chinese"),
    _record("aga", "AGA", KO_SITUATIONAL, SUICIDE_NONE, SCORE_AREA,
            HANDICAP_FIXED, 15, CYCLE_NONE, ILLEGAL_LOSS, compensate=True,
            comp_offset=1, komi2_handicap=1, white_passes_last=True,
            pass_stones=True, sgf="AGA", kgs="aga"),
    _record("nz", "New Zealand", KO_SITUATIONAL, SUICIDE_MULTI, SCORE_AREA,
            _HANDICAP_FREE, 14, CYCLE_NONE, ILLEGAL_LOSS, komi2_handicap=0, sgf="NZ",
            kgs="new_zealand"),
    _record("tromp-taylor", "Tromp-Taylor", KO_POSITIONAL, SUICIDE_MULTI,
            _SCORE_BOARD, _HANDICAP_FREE, 15, CYCLE_NONE, ILLEGAL_REJECT,
            komi2_handicap=1, sgf="Tromp-Taylor"),
    _record("thai", "Thai", _KO_SIMPLE, SUICIDE_NONE, SCORE_TERRITORY,
            HANDICAP_FIXED, 13, CYCLE_AGREE, ILLEGAL_WARN, komi2_handicap=1,
            resume_first_passer=True, warning_points=(0, 0, 2), warning_loss=3,
            fill_dame=True, capture_pause=CAPTURE_THAI, sgf="Thai"),
    _record("op", "One Pure (OP)", _KO_PLACE_REMOVE, _SUICIDE_ALL, SCORE_OP,
            HANDICAP_NONE, 14, CYCLE_NONE, ILLEGAL_LOSS, stone_supply=180,
            sgf="OP"),
)

_ALIASES = {"new_zealand": "nz", "new-zealand": "nz", "tromp_taylor": "tromp-taylor",
            "tt": "tromp-taylor", "one-pure": "op", "one_pure": "op",
            "hanguk-kiwon": "korean", "kgs-japanese": "japanese"}


def find(name):
    """The RuleSet called ``name`` (rulesets.by_name); ValueError listing the known names if none."""
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    for rules in ALL:
        if rules.name == key:
            return rules
    raise ValueError("unknown rule set " + repr(name) + "; known: "
                     + ", ".join(r.name for r in ALL))

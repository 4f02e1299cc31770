"""What the journal's records mean: their kinds and payloads (the file format is store.py's).

The recorder writes them, the recovery reads them back. Payloads, little-endian::

    NEW    text: size= rules= komi2= handicap= mode= time= gid= boot= p.<player field>=
    SETUP  u16 points: the handicap stones placed
    MOVE   u16 move number, u16 history record, i32 mover's ms left (-1: no clock), u8 periods
    UNDO   u16 positions kept
    WARN   u8 colour, u8 warnings (read only: older journals; PENALTY replaced it)
    END    u8 winner (3: none; 4: both lose), u8 reason, u16 margin2, text detail
    MODE   u8 mode (firmware/modes.py)
    CLOCK  20 x i32: Clock.save_into
    TICK   i32 ms of the running turn so far (a checkpoint: the rest is in the last CLOCK)
    SEQ    i32 link sequence numbers reserved below, i32 power-up count
    PENALTY u16 move number, u8 colour, u8 kind (rules/ending.py), u16 value, text reason
    RESUME u8 the colour that plays first: play went on after the passes (no move yet)

Journals outlive firmware updates: kinds and layouts only ever grow.
"""

from ..micro import const
from ..protocol import fields_dict, quote
from ..rules.result import CYCLE, FOUL, NO_POINTS, RESIGN, SCORE, TIME
from ..settings import Settings

K_NEW = const(1)
K_SETUP = const(2)
K_MOVE = const(3)
K_UNDO = const(4)
K_WARN = const(5)
K_END = const(6)
K_MODE = const(7)
K_CLOCK = const(8)
K_SEQ = const(9)
K_TICK = const(10)
K_PENALTY = const(11)
K_RESUME = const(12)

REASONS = (SCORE, RESIGN, TIME, FOUL, CYCLE, NO_POINTS)  # an END record's reason byte


def new_text(settings, komi2, mode, gid, boot):
    """A NEW record's text (``boot``: the power-up the game began in)."""
    parts = ["size=%d" % settings.size, "rules=" + settings.rules, "komi2=%d" % komi2,
             "handicap=%d" % settings.handicap, "mode=%d" % mode, "time=" + quote(settings.time_spec), "gid=%d" % gid,
             "boot=%d" % boot]
    players = settings.players or {}
    for key in sorted(players):
        parts.append("p." + key + "=" + quote(str(players[key])))
    return " ".join(parts)


def parse_new(payload):
    """(Settings, mode, gid, boot) from a NEW record (boot 0: a journal older than the
    field); KeyError or ValueError when it is not one."""
    fields = fields_dict(payload.decode().split())
    players = {}
    for key in fields:
        if key.startswith("p."):
            players[key[2:]] = fields[key]
    settings = Settings(int(fields["size"]), fields["rules"], int(fields["komi2"]) / 2, int(fields["handicap"]),
                        fields["time"], players or None)
    return settings, int(fields["mode"]), int(fields["gid"]), int(fields.get("boot", "0"))

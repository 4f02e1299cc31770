"""The event ring read back in words (firmware/events.py): for the simulator's page and log, and the tests.

The board only writes its ring, so the names stay out of events.py, which it
keeps loaded (a tuple of names costs ~1 KB of its heap).
"""

NAMES = ("", "move", "pass", "undo", "illegal", "penalty", "handicap", "counting", "dead", "resume_play", "end",  # by kind:
         "resign", "warning", "start", "press", "pause", "resume", "capture_pause", "capture_refused",  # events.py's
         "away_pause", "away_refused", "late", "late_forfeit", "flag", "adjust", "stop", "stones_left",  # EV_* numbers
         "referee", "journal")


def entries(events):
    """(name, colour, at, value) of the events an ``Events`` ring keeps, oldest first."""
    out = []
    for n in range(events.first(), events.count):
        i = events.slot(n)
        out.append((NAMES[events.kind[i]], events.colour[i], events.at[i], events.value[i]))
    return out

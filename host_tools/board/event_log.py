"""The event ring (firmware/events.py) read back: for the simulator's page and log, and the tests.

Readers keep their own cursor: events number ``first(ring) .. ring.count - 1``
are kept, ``slot(ring, n)`` is where event n lies in the ring's arrays,
``NAMES[kind]`` names its kind. The board only writes its ring, so this
stays out of events.py, which it keeps loaded (the names would cost ~1 KB of heap).
"""

NAMES = ("", "move", "pass", "undo", "illegal", "penalty", "handicap", "counting", "dead", "resume_play", "end",  # by kind:
         "resign", "warning", "start", "press", "pause", "resume", "capture_pause", "capture_refused",  # events.py's
         "away_pause", "away_refused", "late", "late_forfeit", "flag", "adjust", "stop", "stones_left",  # EV_* numbers
         "referee", "journal", "hand_over", "referee_stop", "call_pause", "missing")


def first(ring):
    """The number of the oldest event ``ring`` keeps."""
    return ring.count - ring.capacity if ring.count > ring.capacity else 0


def slot(ring, n):
    """Where event number n lies in ``ring``'s arrays."""
    return n % ring.capacity


def entries(ring):
    """(name, colour, at, value) of the events ``ring`` keeps, oldest first."""
    out = []
    for n in range(first(ring), ring.count):
        i = slot(ring, n)
        out.append((NAMES[ring.kind[i]], ring.colour[i], ring.at[i], ring.value[i]))
    return out

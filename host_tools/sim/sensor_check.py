"""The sensor check's guidance in words, for the page (firmware/sensing/diagnostics.py is the check).

The physical board is named in GTP letters whatever the game's size: the
check is of all 19 x 19 sensors.
"""

from firmware.rules.coords import COLUMNS

POINTS = 361


def name(p):
    return "%s%d" % (COLUMNS[p % 19], 19 - p // 19)


def names(points, shown=8):
    text = ", ".join(name(p) for p in points[:shown])
    return text + (" and %d more" % (len(points) - shown) if len(points) > shown else "")


def sensor_check_message(diag, now_ms):
    """What the players do next in the sensor check, and what it found."""
    stuck_now = diag.stuck(now_ms)
    stuck_text = "; stuck (reads a stone with none there): %s" % names(stuck_now) if stuck_now else ""
    if diag.clearing:
        if diag.stones:
            return ("sensor check: clear the board first: %d point%s read a stone (lit), lift the stones there "
                    "(a point that stays lit with no stone on it is a stuck sensor)" % (
                        diag.stones, "" if diag.stones == 1 else "s"))
        return "sensor check: looking for stuck sensors, keep the board clear"
    if diag.checked:
        dead = diag.dead()
        bad = set(dead) | set(stuck_now) | set(diag.bad)
        return ("sensor check done: %d of %d sensors work%s%s. Walk again and MENU to check again; "
                "Black's clock button starts over" % (
                    POINTS - len(bad), POINTS, "; dead (never read a stone): " + names(dead) if dead else "",
                    stuck_text))
    return ("sensor check: walk one stone over every point, then MENU: %d of %d points have read it%s" % (
        diag.walked(), POINTS, stuck_text))

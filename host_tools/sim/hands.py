"""Simulated hands on the simulated board: stones placed, lifted and slid across, fingers on the buttons.

The headless and the live simulators share them. A finger holds a button at
least PRESS_MS and lets go only once the board's debouncer has seen the
press, however late the simulator steps (a busy thread, a time jump).
"""

from __future__ import annotations

PRESS_MS = 60  # the driver debounces 20 ms


class Hands:
    """Hands on one simulated hardware set (twins/hardware.py)."""

    def __init__(self, hw):
        self.hw = hw
        self._fingers = []  # (due ms, button index)

    def touch(self, event, physical, to_move, now_ms):
        """A script event's hand on the stones (place, lift, hover; ``physical``:
        game point -> physical point). False for events that are not hands on stones."""
        stones = self.hw.stones
        action = event.action
        if action == "place":
            stones.place(physical(event.point), event.colour or to_move)
        elif action == "lift":
            stones.lift(physical(event.point))
        elif action == "hover":
            stones.hover(physical(event.point), now_ms, event.duration_ms, event.colour or to_move)
        else:
            return False
        return True

    def press(self, index, now_ms, hold_ms=PRESS_MS):
        """A finger on button ``index`` (drivers/buttons.py order) for ``hold_ms``."""
        self.hw.buttons.hold(index)
        self._fingers.append((now_ms + hold_ms, index))

    def fingers(self, event, now_ms):
        """A script event's fingers on the buttons (press: PRESS_MS; hold: its duration, every
        button named at once). False for events that are not fingers on buttons."""
        if event.action == "press":
            self.press(event.buttons[0], now_ms)
        elif event.action == "hold":
            for index in event.buttons:
                self.press(index, now_ms, event.duration_ms)
        else:
            return False
        return True

    def pressing(self):
        """A finger is still on a button."""
        return bool(self._fingers)

    def let_go(self, now_ms):
        """Lift the fingers whose presses are long enough and seen."""
        buttons = self.hw.buttons
        for due, index in list(self._fingers):
            if due <= now_ms and buttons.is_down(index):
                buttons.release(index)
                self._fingers.remove((due, index))

    def forget(self):
        """A power cut: the buttons are new, no finger is on them."""
        self._fingers.clear()

"""The board's buttons as intents: what a press, a release or a chord means.

Four buttons, debounced by drivers/buttons.py (order: Black's clock button,
White's, PAUSE, MENU). ``Controls.poll(now_ms)`` returns a mask of intents:

- ``BLACK`` / ``WHITE``: a clock button pressed (the driver's ``at[i]`` is
  when the press began: the time the clock is given);
- ``PAUSE``: PAUSE pressed, unless MENU is down already (a chord beginning);
- ``MENU``: MENU let go, unless PAUSE joined it while it was down: holding
  the chord must not also take a move back or finish a count;
- ``CHORD``: PAUSE and MENU held together for ``chord_ms`` (3 s), once per
  hold: the sensor check (diagnostics) on or off.

What an intent does is the application's business (firmware/app.py).
Nothing here allocates after construction.
"""

from .drivers.buttons import B_MENU, B_PAUSE
from .micro import const, ticks_diff

BLACK = const(1)  # bits 0 and 1: the clock buttons' own bits in the driver's masks
WHITE = const(2)
PAUSE = const(4)
MENU = const(8)
CHORD = const(16)

_CHORD_KEYS = const(0b1100)  # PAUSE and MENU
_CHORD_MS = const(3000)


class Controls:
    """Intents from one set of buttons; see the module doc."""

    def __init__(self, buttons, chord_ms=_CHORD_MS):
        self.buttons = buttons
        self.chord_ms = chord_ms
        self._chord_done = False  # this PAUSE+MENU hold has given its CHORD
        self._menu_down = False
        self._menu_chord = False  # PAUSE was down during this MENU hold

    def menu_used(self):
        """The MENU hold now down served something else (a registration at the venue's desk):
        its release is no MENU press."""
        self._menu_chord = True

    def poll(self, now_ms):
        """Sample the buttons; the intents of this moment (a mask, 0 for none)."""
        buttons = self.buttons
        pressed = buttons.poll(now_ms)
        if not pressed and not buttons.bits and not self._menu_down:  # none down, none let go: the idle tick
            self._chord_done = False
            return 0
        intents = pressed & (BLACK | WHITE)
        menu = buttons.is_down(B_MENU)
        if pressed & (1 << B_MENU) and not menu and not self._menu_down and not buttons.is_down(B_PAUSE):
            intents |= MENU  # a tap the driver's latch caught between two polls: pressed and let go
        if pressed & (1 << B_PAUSE) and not menu:
            intents |= PAUSE
        if buttons.bits & _CHORD_KEYS == _CHORD_KEYS:
            since = buttons.at[B_MENU]  # (the chord's later press; no local more: 11 words, see micro.py)
            if ticks_diff(since, buttons.at[B_PAUSE]) <= 0:
                since = buttons.at[B_PAUSE]
            if not self._chord_done and ticks_diff(now_ms, since) >= self.chord_ms:
                self._chord_done = True
                intents |= CHORD
        else:
            self._chord_done = False
        if menu and buttons.is_down(B_PAUSE):
            self._menu_chord = True
        if self._menu_down and not menu:
            if not self._menu_chord:
                intents |= MENU
            self._menu_chord = False
        self._menu_down = menu
        return intents

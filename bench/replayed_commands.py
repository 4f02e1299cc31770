"""Replayed, forged and unsigned commands to a registered board (issue 37, security item 2).

    .venv/bin/python bench/replayed_commands.py

The board is the firmware's App on twins (tests/firmware/harness.py), its flash a SimStorage
that can lose power at any byte, registered with its venue's secret and playing a clocked game.
The venue signs a round of commands (each kind that changes something) as host_tools/venue
does: the attacker copied them off the network. Then:

- the copies sent again, on the same power-up and after each of several power cuts;
- a power cut at every byte the board writes while it takes a signed ``referee caution B``
  (its counter, then the journal), then the copy sent again: taken twice shows as two cautions;
- forgeries: signed with another key, a tag moved onto another command, the counter changed
  under the same tag, each hex digit of a tag changed, tags cut short or missing a counter;
- every command unsigned, and ``key`` with the attacker's secret (no MENU held on the board).

A command is wrongly obeyed when the board answers ``OK`` or its game, lock, secret or
penalties change. Prints the commands tried and those wrongly obeyed (must be 0: exit 1 if not).
"""

import pathlib
import sys
from binascii import unhexlify

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "firmware")]

from harness import host_says, linked, point, power_up, press, run  # noqa: E402

from firmware.drivers.buttons import B_BLACK, B_WHITE  # noqa: E402
from firmware.host.signing import signed  # noqa: E402
from firmware.rules.position import BLACK, WHITE  # noqa: E402
from twins.storage import SimStorage  # noqa: E402

KEY = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"  # the board's secret
THEIRS = "ee" * 32
CLOCK = "byoyomi 10m 3x30s"
ROUND = ("show hint C3", "time 600000 600000", "referee caution B", "mode tournament referee", "lock on",
         "clock pause", "clock resume", "referee undo", "end W+R", "new size=9", "lock off", "key " + KEY)
UNSIGNED = ROUND + ("end B+R", "new size=13", "referee forfeit W", "referee points B 9", "clock late B 60",
                    "diag on", "replay", "mode casual referee", "key " + THEIRS)


def sign(command, counter, key=KEY):
    return "%s ~%d:%s" % (command, counter, signed(unhexlify(key), counter, command))


class Bench:
    """The board, the time and the tally."""

    def __init__(self):
        self.storage = SimStorage()
        self.hw, self.pipe, self.app = linked(self.storage, time_spec=CLOCK)
        self.t = 0
        self.wait(100)
        self.say("key " + KEY)  # the desk's first registration
        self.play()
        self.counter = 1_700_000_000_000  # the venue's: its clock in ms

    def wait(self, ms):
        run(self.app, self.hw, self.t, self.t + ms)
        self.t += ms

    def say(self, command):
        lines = host_says(self.hw, self.pipe, self.app, command, self.t)
        self.t += 40
        return [kind for kind, _fields in lines if kind in ("OK", "ERR")]

    def play(self):
        # Two moves of a clocked game (so undo, pause and a caution have something to act on).
        for colour, col, button in ((BLACK, 2, B_BLACK), (WHITE, 6, B_WHITE)):
            self.hw.stones.place(point(self.app, col, 2), colour)
            self.wait(400)
            press(self.app, self.hw, button, self.t)
            self.t += 120

    def venue(self, command):
        """The venue's signed command, obeyed (the attacker keeps the copy)."""
        self.counter += 1
        text = sign(command, self.counter)
        assert self.say(text) == ["OK"], (command, self.say)
        return text

    def state(self):
        app = self.app
        game = app.game
        return (game.size, game.move_number, game.result and game.result.sgf(), app.referee.mode,
                len(game.penalties), app.link.locked, app.link.seal.key, app.clock and app.clock.paused)

    def attack(self, command):
        """True when the board wrongly obeys ``command``."""
        before = self.state()
        said = self.say(command)
        return said == ["OK"] or self.state() != before

    def power_cut(self):
        self.storage.restore_power()
        self.app = power_up(self.hw, time_spec=CLOCK)
        self.wait(100)
        self.pipe.take()


def replays(cuts=3):
    bench = Bench()
    captured = [bench.venue(command) for command in ROUND]
    tried = wrong = 0
    for command in captured:
        tried += 1
        wrong += bench.attack(command)
    same = (tried, wrong)
    for _ in range(cuts):
        bench.power_cut()
        for command in captured:
            tried += 1
            wrong += bench.attack(command)
    return same, (tried - same[0], wrong - same[1]), captured


def cut_while_taken(offsets=120):
    """A power cut at each byte written while a signed caution is taken, then its copy again."""
    tried = twice = 0
    for cut in range(offsets):
        bench = Bench()
        bench.venue("show clear")
        bench.counter += 1
        caution = sign("referee caution B", bench.counter)
        bench.storage.cut_after(cut)
        bench.say(caution)
        bench.power_cut()
        bench.say(caution)
        tried += 1
        twice += len(bench.app.game.penalties) > 1
    return tried, twice


def forgeries(captured):
    bench = Bench()
    counter = bench.counter + 10 ** 6
    forged = []
    for i, text in enumerate(captured):
        command, token = text.rsplit(" ", 1)
        n, tag = token[1:].split(":")
        other = captured[(i + 1) % len(captured)].rsplit(" ", 1)[1]
        forged += [sign(command, counter + i, THEIRS),  # the attacker's own key
                   command + " " + other,  # another command's signature
                   "%s ~%d:%s" % (command, int(n) + 10 ** 6, tag),  # the counter raised, the tag kept
                   "%s ~%s" % (command, tag),  # no counter
                   "%s ~%s:%s" % (command, n, tag[:8]),  # the tag cut short
                   "%s ~-%s:%s" % (command, n, tag)]
        for d in range(len(tag)):  # each hex digit changed
            forged.append("%s ~%s:%s" % (command, n, tag[:d] + "0123456789abcdef"[(int(tag[d], 16) + 1) % 16]
                                         + tag[d + 1:]))
    return len(forged), sum(bench.attack(command) for command in forged)


def unsigned():
    bench = Bench()
    return len(UNSIGNED), sum(bench.attack(command) for command in UNSIGNED)


def main():
    print("Replayed, forged and unsigned commands to a registered board (the firmware on twins):", flush=True)
    same, after, captured = replays()
    rows = [("the venue's signed commands, copied and sent again, same power-up", *same),
            ("... again after each of 3 power cuts", *after),
            ("a power cut at each byte written while one is taken, its copy then (twice: 2 cautions)",
             *cut_while_taken()),
            ("forged: another key, a tag moved, the counter changed, a digit changed, cut short", *forgeries(captured)),
            ("unsigned (every command that changes something, the attacker's key)", *unsigned())]
    for name, tried, wrong in rows:
        print("  %-92s %5d tried, %d wrongly obeyed" % (name, tried, wrong))
    tried = sum(r[1] for r in rows)
    wrong = sum(r[2] for r in rows)
    print("  commands tried: %d, commands wrongly obeyed: %d (must be 0)" % (tried, wrong))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())

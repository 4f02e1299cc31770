"""Commands to a registered board, as someone on the venue's network could send them (issue 37):
a board given a secret takes no command that changes anything unless its venue signed it,
locked round or not; ``key`` needs that signature too, or MENU held on the board (the desk);
the counter of signed commands is on flash, so a copy is refused after a power cut too."""

from binascii import unhexlify

from harness import host_says, linked, point, power_up, run

from firmware.drivers.buttons import B_MENU
from firmware.host.signing import signed
from firmware.protocol import fields_dict, unquote
from firmware.rules.position import BLACK
from twins.storage import SimStorage

KEY = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"  # the venue's secret for the board
THEIRS = "ff" * 32  # an attacker's

# Every command that changes something, as a host would send it to a board with a game on.
CHANGES = ("end W+R", "new size=13", "mode tournament referee", "show hint C3", "time 1000 1000",
           "referee caution B", "referee undo", "clock pause", "diag on", "replay", "lock on", "lock off",
           "key " + THEIRS)


def _sig(command, counter, key=KEY):
    return "%s ~%d:%s" % (command, counter, signed(unhexlify(key), counter, command))


def _reply(lines):
    replies = [line for line in lines if line[0] in ("OK", "ERR")]
    assert len(replies) == 1, lines
    kind, fields = replies[0]
    return kind if kind == "OK" else "ERR %s %s" % (fields[0], unquote(fields[1]))


def _registered(storage=None):
    """A 9x9 board with a flash, registered (``key``, unsigned: the desk's first), a stone played."""
    hw, pipe, app = linked(SimStorage() if storage is None else storage)
    run(app, hw, 0, 100)
    assert _reply(host_says(hw, pipe, app, "key " + KEY, 100)) == "OK"
    hw.stones.place(point(app, 2, 2), BLACK)
    run(app, hw, 200, 600)
    assert app.game.move_number == 1
    return hw, pipe, app


def test_a_registered_board_takes_no_unsigned_command_that_changes_anything():
    hw, pipe, app = _registered()
    t = 600
    for command in CHANGES:
        said = _reply(host_says(hw, pipe, app, command, t))
        t += 100
        assert said.startswith("ERR denied " + command.split()[0] + ": "), (command, said)
    assert app.game.move_number == 1 and app.game.result is None and app.game.size == 9
    assert app.link.seal.key == unhexlify(KEY) and not app.link.locked and app.diag is None
    # Reading is anyone's; the venue's signed command is carried out.
    for command, kind in (("hello", "HELLO"), ("state", "STATE"), ("mem", "MEM")):
        assert [k for k, _ in host_says(hw, pipe, app, command, t)] == [kind], command
        t += 100
    assert _reply(host_says(hw, pipe, app, _sig("end W+R", 1), t)) == "OK"
    assert app.game.result.sgf() == "W+R"


def test_a_forged_or_copied_signature_is_refused_and_says_why():
    hw, pipe, app = _registered()
    assert _reply(host_says(hw, pipe, app, _sig("show hint C3", 10), 600)) == "OK"
    copy = _reply(host_says(hw, pipe, app, _sig("show hint C3", 10), 700))
    assert copy == "ERR denied show: a copy: its counter 10 is not above the last taken", copy
    theirs = _reply(host_says(hw, pipe, app, _sig("end W+R", 11, THEIRS), 800))
    assert theirs == "ERR denied end: bad signature", theirs
    # The venue's tag on another command (``end B+R`` signed, ``end W+R`` sent): refused.
    tag = _sig("end B+R", 12).rsplit(" ", 1)[1]
    assert _reply(host_says(hw, pipe, app, "end W+R " + tag, 900)) == "ERR denied end: bad signature"
    assert app.game.result is None


def test_the_counter_is_on_flash_so_a_copy_is_refused_after_a_power_cut():
    storage = SimStorage()
    hw, pipe, app = _registered(storage)
    captured = [_sig("lock on", 5), _sig("show hint C3", 6), _sig("lock off", 7)]
    t = 600
    for command in captured:
        assert _reply(host_says(hw, pipe, app, command, t)) == "OK", command
        t += 100
    for cut in range(3):  # the power goes off and on, again and again: every copy stays refused
        app = power_up(hw, size=9)
        run(app, hw, t, t + 100)
        pipe.take()
        for command in captured:
            said = _reply(host_says(hw, pipe, app, command, t + 100))
            t += 100
            assert said.startswith("ERR denied "), (cut, command, said)
        assert not app.link.locked
    assert _reply(host_says(hw, pipe, app, _sig("lock on", 8), t + 100)) == "OK"
    assert storage.data(".count") == b"8"  # beside the secret


def test_a_power_cut_while_the_counter_is_written_never_lets_a_command_be_taken_twice():
    # The power fails at every byte of the counter's write (beside, then renamed): after it, the
    # command was carried out once or not at all, and its copy is refused once it was.
    done = 0
    for cut in range(12):
        storage = SimStorage()
        hw, pipe, app = _registered(storage)
        assert _reply(host_says(hw, pipe, app, _sig("show clear", 900), 600)) == "OK"
        storage.cut_after(cut)
        host_says(hw, pipe, app, _sig("end W+R", 1000), 700)
        storage.restore_power()
        app = power_up(hw, size=9)
        run(app, hw, 800, 900)
        pipe.take()
        kept = storage.data(".count")
        assert kept in (b"900", b"1000"), (cut, kept)
        said = _reply(host_says(hw, pipe, app, _sig("end W+R", 1000), 900))
        if kept == b"1000":  # taken before the cut: never again
            assert said.startswith("ERR denied end: a copy"), (cut, said)
        else:
            assert said == "OK", (cut, said)
            done += 1
    assert 0 < done < 12  # (both sides of the rename were cut)


def test_key_on_a_registered_board_needs_the_venues_signature_or_menu_held():
    hw, pipe, app = _registered()
    assert _reply(host_says(hw, pipe, app, "key " + THEIRS, 600)) == (
        "ERR denied key: registered to a venue: its signed commands only, or MENU held on the board")
    assert _reply(host_says(hw, pipe, app, _sig("key " + THEIRS, 20, THEIRS), 700)).startswith("ERR denied key")
    assert app.link.seal.key == unhexlify(KEY)
    # The venue itself may give its board a secret again, signed.
    assert _reply(host_says(hw, pipe, app, _sig("key " + KEY, 21), 800)) == "OK"
    # At the desk: MENU held while ``key`` comes. Its release takes no move back (casual MENU).
    hw.buttons.hold(B_MENU)
    run(app, hw, 900, 1000)
    assert _reply(host_says(hw, pipe, app, "key " + THEIRS, 1000)) == "OK"
    hw.buttons.release(B_MENU)
    run(app, hw, 1040, 1200)
    assert app.link.seal.key == unhexlify(THEIRS) and app.game.move_number == 1


def test_an_attackers_key_and_lock_do_not_shut_the_venue_out():
    # Issue 37: ``key`` then ``lock on`` with an attacker's secret on a board not yet registered.
    hw, pipe, app = linked(SimStorage())
    run(app, hw, 0, 100)
    assert _reply(host_says(hw, pipe, app, "key " + THEIRS, 100)) == "OK"
    assert _reply(host_says(hw, pipe, app, _sig("lock on", 10 ** 15, THEIRS), 200)) == "OK"
    hello = fields_dict([f for k, f in host_says(hw, pipe, app, "hello", 300) if k == "HELLO"][0])
    assert hello["sign"] == "1" and hello["lock"] == "1"
    # The desk registers it again, its key signed with the venue's secret under its clock: refused
    # unless MENU is held on the board; then the venue's counters (its clock) count from there.
    desk = _sig("key " + KEY, 1_700_000_000_000)
    assert _reply(host_says(hw, pipe, app, desk, 400)).startswith("ERR denied key")
    hw.buttons.hold(B_MENU)
    run(app, hw, 500, 600)
    assert _reply(host_says(hw, pipe, app, _sig("key " + KEY, 1_700_000_000_001), 600)) == "OK"
    hw.buttons.release(B_MENU)
    run(app, hw, 640, 700)
    assert _reply(host_says(hw, pipe, app, _sig("lock off", 1_700_000_000_002), 700)) == "OK"
    assert not app.link.locked
    assert _reply(host_says(hw, pipe, app, _sig("lock off", 10 ** 15 + 1, THEIRS), 800)).startswith("ERR denied")


def test_a_board_not_registered_takes_commands_as_before_but_no_lock():
    hw, pipe, app = linked(SimStorage())
    run(app, hw, 0, 100)
    assert _reply(host_says(hw, pipe, app, "show hint C3", 100)) == "OK"
    assert _reply(host_says(hw, pipe, app, "lock on", 200)) == (
        "ERR denied lock: only with the venue's signature: register the board first")
    assert _reply(host_says(hw, pipe, app, "end W+R", 300)) == "OK"


def test_a_damaged_counter_takes_no_signed_command_until_the_desk_registers_the_board_again():
    storage = SimStorage()
    hw, pipe, app = _registered(storage)
    assert _reply(host_says(hw, pipe, app, _sig("show clear", 50), 600)) == "OK"
    storage.set_data(".count", b"5\x00\xff")  # flash trouble
    app = power_up(hw, size=9)
    run(app, hw, 700, 800)
    pipe.take()
    assert _reply(host_says(hw, pipe, app, _sig("show clear", 60), 800)).startswith("ERR denied show: a copy")
    hw.buttons.hold(B_MENU)
    run(app, hw, 900, 1000)
    assert _reply(host_says(hw, pipe, app, _sig("key " + KEY, 70), 1000)) == "OK"
    hw.buttons.release(B_MENU)
    run(app, hw, 1040, 1100)
    assert _reply(host_says(hw, pipe, app, _sig("show clear", 71), 1100)) == "OK"
    assert storage.data(".count") == b"71"

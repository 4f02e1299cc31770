"""Records that can be trusted, on the assembled board: a secret given at registration (the
host's ``key``), kept on flash across a power cut, and the game's result signed with it."""

import hashlib
from binascii import hexlify, unhexlify

from harness import host_says, linked, point, power_up, run, said

from firmware.host.signing import hmac_sha256, signed
from firmware.protocol import fields_dict, unquote
from firmware.rules.position import BLACK, WHITE
from twins.storage import SimStorage

KEY = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"


def test_hmac_matches_rfc_4231():
    # Test cases 2 (a short key) and 6 (a key longer than the block: hashed first).
    assert hexlify(hmac_sha256(b"Jefe", b"what do ya want for nothing?")) == (
        b"5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    assert hexlify(hmac_sha256(b"\xaa" * 131, b"Test Using Larger Than Block-Size Key - Hash Key First")) == (
        b"60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")


def _fields(lines, kind):
    return [fields for k, fields in lines if k == kind]


def test_a_registered_board_signs_its_result_and_keeps_its_key_through_a_power_cut():
    hw, pipe, app = linked(SimStorage())
    run(app, hw, 0, 100)
    assert _fields(host_says(hw, pipe, app, "key " + KEY[:-2], 100), "ERR")[0][0] == "malformed"
    assert _fields(host_says(hw, pipe, app, "key " + KEY, 200), "OK") == [["key"]]
    hello = fields_dict(_fields(host_says(hw, pipe, app, "hello", 300), "HELLO")[0])
    assert hello["sign"] == "1"

    hw.stones.place(point(app, 2, 2), BLACK)
    run(app, hw, 300, 700)
    app = power_up(hw, size=9)  # the power goes off and on: the key is read back from flash
    run(app, hw, 700, 800)
    pipe.take()
    hw.stones.place(point(app, 6, 6), WHITE)
    run(app, hw, 800, 1200)
    moves = _fields(said(pipe.take()), "MOVE")
    assert [m[:3] for m in moves] == [["2", "W", "gg"]], moves
    end = fields_dict(_fields(host_says(hw, pipe, app, _signed("end B+R", 1), 1200), "END")[0])
    final = unhexlify(end["hash"])
    assert end["sig"] == hexlify(hmac_sha256(unhexlify(KEY), final)).decode()
    # The chain (firmware/host/seal.py) over the moves as their lines told them, then the result.
    header = " ".join(_game_fields(app))
    d = hashlib.sha256(b"GB1 " + app.link.board_id.encode() + b" 1 " + header.encode()).digest()
    for text in (b"1 B cc", b"2 W gg", b"END B+R"):
        d = hashlib.sha256(d + text).digest()
    assert d == final


def test_an_unregistered_board_hashes_but_does_not_sign():
    hw, pipe, app = linked()
    run(app, hw, 0, 100)
    hello = fields_dict(_fields(host_says(hw, pipe, app, "hello", 100), "HELLO")[0])
    assert "sign" not in hello
    end = fields_dict(_fields(host_says(hw, pipe, app, "end W+R", 200), "END")[0])
    assert len(end["hash"]) == 64 and "sig" not in end


def test_a_registered_board_tells_its_mqtt_password_once_and_an_unregistered_one_refuses():
    hw, pipe, app = linked(SimStorage())
    run(app, hw, 0, 100)
    assert _fields(host_says(hw, pipe, app, "mqtt", 100), "ERR") == [["state", "mqtt:%20not%20registered%20with%20a%20venue"]]
    host_says(hw, pipe, app, "key " + KEY, 200)
    said = host_says(hw, pipe, app, "mqtt", 300)
    password = hexlify(hmac_sha256(unhexlify(KEY), b"mqtt"))[:32].decode()
    assert _fields(said, "OK") == [["mqtt", password]]  # (host_tools/venue/broker.py derives the same)
    app.link.lock(True)  # read only: a locked board answers it unsigned too
    assert _fields(host_says(hw, pipe, app, "mqtt", 400), "OK") == [["mqtt", password]]
    reply_seq = app.link.next - 1
    assert _fields(host_says(hw, pipe, app, "resend %d" % reply_seq, 500), "SKIP") == [[]]  # written once


def _game_fields(app):
    """The GAME line's fields after the id, as the link keeps them."""
    return app.link._headers[app.follower.gid].decode().split(" ")


def _signed(command, counter, key=KEY):
    return "%s ~%d:%s" % (command, counter, signed(unhexlify(key), counter, command))


def test_a_locked_board_takes_only_its_venues_signed_commands_even_after_a_power_cut():
    hw, pipe, app = linked(SimStorage())
    run(app, hw, 0, 100)
    host_says(hw, pipe, app, "key " + KEY, 100)
    assert _fields(host_says(hw, pipe, app, "lock on", 200), "ERR")[0][0] == "denied"  # unsigned
    assert _fields(host_says(hw, pipe, app, _signed("lock on", 5), 300), "OK") == [["lock"]]
    app = power_up(hw, size=9)  # the lock is on the board's flash
    run(app, hw, 400, 500)
    pipe.take()
    assert fields_dict(_fields(host_says(hw, pipe, app, "hello", 500), "HELLO")[0])["lock"] == "1"
    refused = _fields(host_says(hw, pipe, app, "new size=13", 550), "ERR")
    assert refused and "its signed commands only" in unquote(refused[0][1]), refused
    assert _fields(host_says(hw, pipe, app, "state", 600), "STATE")  # reading is for anyone
    assert _fields(host_says(hw, pipe, app, _signed("new size=13", 7), 700), "OK") == [["new"]]
    assert app.game.size == 13
    # The same signed command again (copied off the network), or signed with another key: refused.
    assert _fields(host_says(hw, pipe, app, _signed("new size=13", 7), 800), "ERR")
    assert _fields(host_says(hw, pipe, app, _signed("new size=9", 8, "ff" * 32), 900), "ERR")
    assert _fields(host_says(hw, pipe, app, _signed("lock off", 9), 1000), "OK") == [["lock"]]
    assert "lock" not in fields_dict(_fields(host_says(hw, pipe, app, "hello", 1050), "HELLO")[0])
    # Unlocked, still registered: its venue's signed commands only (test_venue_commands.py).
    assert _fields(host_says(hw, pipe, app, "new size=9", 1100), "ERR")[0][0] == "denied"
    assert _fields(host_says(hw, pipe, app, _signed("new size=9", 10), 1200), "OK") == [["new"]]

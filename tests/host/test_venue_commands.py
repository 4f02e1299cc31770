"""The venue's commands to its boards (issue 37, security item 2): every one signed; a board's
refusal heard and shown (the board summary's ``refused``, its attention list, an audit line); the
desk registers a board again, its own or, with MENU held on it, one holding another key."""

import json

from firmware import protocol as pr
from firmware.drivers.buttons import B_MENU
from firmware.settings import Settings
from host_tools.board import protocol as ph
from host_tools.records import board_key
from host_tools.venue.archive import Archive
from host_tools.venue.keys import Refused, clock_counter, register, signed_command
from host_tools.venue.service import Venue
from twins.hardware import simulated
from twins.link import Pipe
from twins.storage import SimStorage

VENUE_KEY = bytes(range(32))
THEIRS = bytes([0xEE]) * 32  # an attacker's secret


class Board:
    """A simulated board (firmware App on twins, with a flash) and its cable, stepped in
    simulated time; ``readline`` as a pyserial port's (the desk's tool reads it so)."""

    def __init__(self, name="t7"):
        from firmware.app import App

        self.pipe = Pipe()
        self.hw = simulated("presence", self.pipe.board, SimStorage(), board_id=name)
        self.app = App(self.hw, Settings(9))
        self.now = 0
        self.pending = b""
        self.lines = []  # every line the board wrote, as text

    def step(self, ms):
        for _ in range(ms // 10):
            self.hw.stones.set_time(self.now)
            self.app.step(self.now)
            self.now += 10
        out = self.pipe.take()
        self.pending += out
        self.lines += [raw.decode() for raw in out.split(b"\n") if raw]

    def say(self, text):
        self.pipe.send(pr.encode_command(text))
        self.step(40)

    def opened(self):
        """The board's port as the desk's tool opens it (what came before is not read)."""
        self.pending = b""
        return self

    def write(self, data):
        self.pipe.send(data)
        return len(data)

    def readline(self):
        while b"\n" not in self.pending:
            self.step(20)
        line, _, self.pending = self.pending.partition(b"\n")
        return line + b"\n"


def _venue(tmp_path):
    venue = Venue(Archive("sqlite:///%s" % (tmp_path / "venue.db")), "127.0.0.1:1", key=VENUE_KEY)
    sent = []
    venue.client.publish = lambda topic, payload, qos=0: sent.append((topic, json.loads(payload)))
    return venue, sent


def _feed(venue, board, name="t7"):
    """The board's lines so far to the venue, as its logger publishes them."""
    prev = venue.applied.get(name, -1)
    for raw in board.lines:
        seq = ph.decode(raw.encode())[0]
        if seq > prev:
            venue.line(name, 1, seq, raw, prev)
            prev = seq


def test_the_venue_signs_its_commands_and_shows_the_ones_a_board_refuses(tmp_path):
    venue, sent = _venue(tmp_path)
    ours, theirs = Board("t7"), Board("t8")
    ours.say("key " + board_key(VENUE_KEY, "t7").hex())
    theirs.say("key " + THEIRS.hex())  # registered by someone else
    for name, board in (("t7", ours), ("t8", theirs)):
        venue.command(name, "end W+R", "kim")
        topic, payload = sent[-1]
        assert topic == "goboard/%s/command" % name and payload["by"] == "kim"
        assert payload["text"].startswith("end W+R ~"), payload  # signed
        board.say(payload["text"])
        _feed(venue, board, name)
    assert ours.app.game.result.sgf() == "W+R" and theirs.app.game.result is None
    assert venue.board("live", "t7")["refused"] == []
    summary = venue.board("live", "t8")
    assert [(r["code"], r["detail"], r["command"]) for r in summary["refused"]] == [
        ("denied", "end: bad signature", "end W+R")], summary["refused"]
    assert "refused: end W+R (end: bad signature)" in summary["attention"], summary["attention"]
    audit = [a for a in venue.archive.actions() if a["what"] == "refused"]
    assert [(a["board"], a["detail"]) for a in audit] == [("t8", "denied end: bad signature (to: end W+R)")]
    # A refusal of the board's own resync (its logger's ``resend``) is not the venue's business.
    theirs.say("resend 99999")
    _feed(venue, theirs, "t8")
    assert len(venue.board("live", "t8")["refused"]) == 1


def test_the_desk_registers_a_board_again_even_when_another_key_locked_it():
    # Someone on the network gave a board not yet registered a key, and locked it with that key
    # (issue 37): the desk's key, signed with the venue's secret for it, is refused...
    board = Board("t9")
    board.say("key " + THEIRS.hex())
    board.say(signed_command(THEIRS, "lock on", 10 ** 15))
    assert board.app.link.locked
    told = []
    try:
        register(board.opened(), VENUE_KEY, hold_s=0.0, tell=told.append)
        raise AssertionError("registered without MENU held")
    except Refused as refused:
        assert refused.code == "denied"
    # ... until MENU is held on the board, as the desk's tool asks; then the venue's commands are
    # taken again, and the venue registers its board again at will (signed: no MENU).
    def hold_menu(text):
        told.append(text)
        board.hw.buttons.hold(B_MENU)

    assert register(board.opened(), VENUE_KEY, tell=hold_menu) == "t9"
    board.hw.buttons.release(B_MENU)
    assert told == ["board t9 refused its key (key: bad signature): hold its MENU button down until it is "
                    "registered"], told
    assert board.app.link.seal.key == board_key(VENUE_KEY, "t9")
    board.say(signed_command(board_key(VENUE_KEY, "t9"), "lock off", clock_counter()))
    assert not board.app.link.locked, board.lines[-3:]
    assert register(board.opened(), VENUE_KEY, tell=told.append) == "t9" and len(told) == 1

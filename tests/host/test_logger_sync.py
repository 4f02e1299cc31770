"""The logger's sync core without a port: board lines (host_tools.board.protocol.encode) in,
commands and accepted lines out, time given as a number."""

from host_tools.board import protocol as ph
from host_tools.logger.sync import HEARTBEAT_S, RESEND_WAIT_S, SILENT_S, LinkSync


class Owner:
    """Records what the sync hands out."""

    def __init__(self):
        self.sent = []
        self.accepted = []
        self.events = []
        self.boots = 0
        self.writable = True

    def send(self, command, now, heartbeat=False):
        self.sent.append(command)
        return self.writable

    def audit(self, event, text, seq=None):
        self.events.append(event)

    def accept(self, seq, kind, fields):
        self.accepted.append((seq, kind, fields))

    def new_boot(self):
        self.boots += 1


def hello(seq, boot=5):
    return ph.encode(seq, "HELLO", ("proto=1", "board=t1", "boot=%d" % boot, "game=1"))


def game(seq):
    return ph.encode(seq, "GAME", (1, "rules=japanese", "size=9", "komi=6.5", "handicap=0"))


def move(seq, k):
    return ph.encode(seq, "MOVE", (k, "B" if k % 2 else "W", "abcdefghi"[k] + "e"))


def linked(now=0.0):
    """A sync that has said hello and heard the board's HELLO (sequence 0)."""
    owner = Owner()
    sync = LinkSync(owner)
    sync.connect(now)
    sync.feed(hello(0), now)
    return owner, sync


def seqs(owner):
    return [seq for seq, _kind, _fields in owner.accepted]


def test_lines_in_order_are_accepted():
    owner, sync = linked()
    sync.feed(game(1) + move(2, 1) + move(3, 2), 0.0)
    assert owner.sent == ["hello"]
    assert owner.accepted == [(1, "GAME", ["1", "rules=japanese", "size=9", "komi=6.5", "handicap=0"]),
                              (2, "MOVE", ["1", "B", "be"]), (3, "MOVE", ["2", "W", "ce"])]
    assert (sync.board_id, sync.boot, sync.expected, owner.boots) == ("t1", "5", 4, 1)


def test_lines_split_anywhere_are_the_same_lines():
    owner, sync = linked()
    data = game(1) + move(2, 1)
    for i in range(len(data)):
        sync.feed(data[i:i + 1], 0.0)
    assert seqs(owner) == [1, 2]


def test_lines_before_the_hello_are_ignored_and_hello_is_asked_again():
    owner = Owner()
    sync = LinkSync(owner)
    sync.connect(0.0)
    sync.feed(game(1), 0.01)
    sync.step(0.1)
    assert owner.sent == ["hello"] and owner.accepted == [] and "ignored" in owner.events
    sync.step(RESEND_WAIT_S + 0.01)
    assert owner.sent == ["hello", "hello"]


def test_a_hello_that_did_not_go_out_is_asked_again_at_once():
    owner = Owner()
    owner.writable = False
    sync = LinkSync(owner)
    sync.connect(10.0)
    sync.step(10.01)
    assert owner.sent == ["hello", "hello"]


def test_a_corrupt_line_is_asked_again_and_refilled():
    owner, sync = linked()
    sync.feed(game(1), 0.0)
    bad = move(2, 1).replace(b" be ", b" bf ")
    sync.feed(bad + move(3, 2), 0.0)
    assert sync.crc_errors == 1 and owner.sent == ["hello", "resend 2"]
    assert seqs(owner) == [1]  # 3 is held: 2 is missing
    sync.feed(move(2, 1) + move(3, 2), 0.05)  # the board resends from 2
    assert seqs(owner) == [1, 2, 3]
    assert owner.accepted[1] == (2, "MOVE", ["1", "B", "be"])
    assert owner.sent == ["hello", "resend 2"] and owner.events.count("duplicate") == 1


def test_a_gap_is_held_then_filled():
    owner, sync = linked()
    sync.feed(game(1) + move(2, 1) + move(4, 3) + move(5, 4), 0.0)  # 3 lost on the line
    assert seqs(owner) == [1, 2] and owner.sent == ["hello", "resend 3"]
    assert sorted(sync.held) == [4, 5]
    sync.feed(move(3, 2), 0.01)
    assert seqs(owner) == [1, 2, 3, 4, 5] and sync.held == {} and sync.asked == -1


def test_duplicates_are_dropped():
    owner, sync = linked()
    sync.feed(game(1) + move(2, 1) + game(1) + move(2, 1) + hello(0), 0.0)
    assert seqs(owner) == [1, 2] and owner.events.count("duplicate") == 2
    assert owner.sent == ["hello"]


def test_a_resend_that_brings_nothing_is_asked_again():
    owner, sync = linked()
    sync.feed(game(1) + move(3, 2), 1.0)
    assert owner.sent == ["hello", "resend 2"]
    sync.step(1.0 + RESEND_WAIT_S / 2)
    assert owner.sent == ["hello", "resend 2"]
    sync.step(1.0 + RESEND_WAIT_S + 0.01)
    assert owner.sent == ["hello", "resend 2", "resend 2"] and sync.resyncs == 2
    sync.feed(move(2, 1), 1.5)
    assert seqs(owner) == [1, 2, 3]


def test_too_old_asks_for_a_snapshot_and_takes_it():
    owner = Owner()
    sync = LinkSync(owner)
    sync.connect(0.0)
    sync.feed(hello(40), 0.0)  # a logger arriving late: lines 0..39 are gone
    assert owner.sent == ["hello", "resend 0"]
    sync.feed(ph.encode(41, "ERR", ("too_old", "resend")), 0.01)
    assert owner.sent == ["hello", "resend 0", "state"] and sync.recovering
    snapshot = ph.encode(42, "STATE", (1, 2, "mode=casual", "next=B", "to=B",
                                       "board=...../...../..X../...../..O..", "moves=Bcc,Wce"))
    sync.feed(snapshot + move(43, 3), 0.02)
    assert [(seq, kind) for seq, kind, _fields in owner.accepted] == [(42, "STATE"), (43, "MOVE")]
    assert not sync.recovering and sync.expected == 44 and "snapshot" in owner.events


def test_a_new_boot_id_starts_the_sequence_again():
    owner, sync = linked()
    sync.feed(game(1) + move(2, 1) + move(3, 2), 0.0)
    sync.feed(hello(0, boot=6) + game(1) + move(2, 1), 0.1)  # the board rebooted
    assert seqs(owner) == [1, 2, 3, 1, 2]
    assert sync.boot == "6" and owner.boots == 2 and "reboot" in owner.events
    assert owner.sent == ["hello"]


def test_a_quiet_line_gets_a_heartbeat_that_finds_lost_last_lines():
    owner, sync = linked(0.0)
    sync.feed(game(1), 0.0)
    sync.step(HEARTBEAT_S - 0.1)
    assert owner.sent == ["hello"]
    sync.step(HEARTBEAT_S + 0.01)
    assert owner.sent == ["hello", "hello"]
    sync.step(HEARTBEAT_S + 0.5)
    assert owner.sent == ["hello", "hello"]  # the heartbeat counts as traffic
    sync.feed(hello(4), HEARTBEAT_S + 0.6)  # lines 2 and 3 never came
    assert owner.sent == ["hello", "hello", "resend 2"]


def test_silent_after_silent_s():
    _owner, sync = linked(100.0)
    assert not sync.silent(100.0 + SILENT_S)
    assert sync.silent(100.0 + SILENT_S + 0.01)

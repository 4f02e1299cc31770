"""What lets a simulator skip idle scans: the scanner's and the simulated board's next changes."""

from firmware.sensing.scanner import Scanner
from twins.sensors import SimPresence
from twins.stones import Stones


def test_settles_in_counts_down_to_the_settle_time():
    board = Stones()
    scanner = Scanner(SimPresence(board), settle_ms=150)
    assert scanner.settles_in(0) == -1
    board.place(40, 1)
    board.set_time(10)
    scanner.scan(10)
    assert scanner.settles_in(10) == 150
    assert scanner.settles_in(100) == 60
    assert scanner.settles_in(170) == 0
    assert scanner.scan(160) and scanner.frame[40] == 3
    assert scanner.settles_in(160) == -1


def test_next_change_is_the_next_hover_edge():
    board = Stones()
    assert board.next_change(0) == -1
    board.hover(7, 100, 40, 2)
    assert board.next_change(0) == 100
    assert board.next_change(120) == 20
    assert board.next_change(140) == -1

"""Pair go (Thai rules 16) on the assembled board: the order B1 W1 B2 W2 named in the board's
messages, a wrong order the referee upholds (the host's ``referee order``) costing 3 points, then
5, then the game (16.5), the order going on from the offender (16.5.1), kept across a power cut.
"""

from harness import host_says, linked, point, power_up, run

from firmware.modes import TOURNAMENT
from firmware.rules.position import BLACK, WHITE
from host_tools.board.messages import message
from twins.storage import SimStorage


class PairTable:
    def __init__(self):
        self.storage = SimStorage()
        self.hw, self.pipe, self.app = linked(self.storage, mode=TOURNAMENT, rules="thai")
        self.t = 0
        self.wait(100)
        lines = self.host("new rules=thai size=9 pair=1 pb=Ann%20%26%20Cid pw=Ben%20%26%20Dan")
        assert [kind for kind, _ in lines][-2:] == ["GAME", "OK"] and "pair=1" in lines[-2][1], lines
        self.col = 0

    def wait(self, ms):
        run(self.app, self.hw, self.t, self.t + ms)
        self.t += ms

    def host(self, command):
        self.pipe.take()  # the board's lines so far (moves): only the answer is wanted
        lines = host_says(self.hw, self.pipe, self.app, command, self.t)
        self.t += 40
        return lines

    def move(self, colour):
        self.hw.stones.place(point(self.app, self.col, 4 if colour == BLACK else 6), colour)
        self.col += 1
        self.wait(400)


def test_pair_order_wrong_orders_and_their_penalties():
    table = PairTable()
    app = table.app
    assert message(app.referee) == "black (B1) to play"
    table.move(BLACK)
    assert message(app.referee) == "white (W1) to play"
    table.move(WHITE)
    assert message(app.referee) == "black (B2) to play"
    table.move(BLACK)  # B1 played it instead of B2: White protests at once
    assert table.host("referee order W")[0][0] == "ERR"  # not White's move
    lines = table.host("referee order B")
    assert lines[0] == ("PENALTY", ["3", "B", "points", "3", "wrong_order"])
    assert message(app.referee) == (  # the players are told; the order goes on after B1: W1 again
        "The referee gives Black penalty points. white (W1) to play")
    table.move(WHITE)
    assert message(app.referee) == "black (B2) to play"
    table.move(BLACK)
    assert table.host("referee order B")[0][1][3] == "5"  # Thai 16.5.2
    table.move(WHITE)
    assert table.host("referee order B")[0][0] == "ERR"  # White has played since (16.5.4)
    again = power_up(table.hw, now_ms=table.t)  # the corrections are journaled with the penalties
    run(again, table.hw, table.t, table.t + 300)
    table.t += 300
    table.app = again
    assert message(again.referee) == message(app.referee) == "black (B2) to play"
    table.move(BLACK)
    lines = table.host("referee order B")
    assert [kind for kind, _ in lines] == ["PENALTY", "END", "OK"]  # the third: the game (16.5.3)
    assert again.game.result.sgf() == "W+F" and again.game.result.detail == "wrong_order"
    assert again.game.penalty_points(BLACK) == 8

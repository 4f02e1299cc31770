"""Pair go (Thai rules 16) on the assembled board: the order B1 W1 B2 W2 named in the board's
messages, a wrong order the referee upholds (the host's ``referee order``) costing 3 points, then
5, then the game (16.5), the order going on from the offender (16.5.1), kept across a power cut.
"""

from harness import Table

from firmware.modes import TOURNAMENT
from firmware.rules.position import BLACK, WHITE
from host_tools.board.messages import message
from twins.storage import SimStorage


def pair_table():
    """A 9x9 pair game (Ann & Cid for Black, Ben & Dan for White) begun by the host, the board
    with a flash; its stones go down along rows 5 (Black) and 3 (White), a column a move."""
    table = Table("thai", "none", mode=TOURNAMENT, cable=True, storage=SimStorage())
    table.wait(100)
    lines = table.says("new rules=thai size=9 pair=1 pb=Ann%20%26%20Cid pw=Ben%20%26%20Dan")
    assert [kind for kind, _ in lines][-2:] == ["GAME", "OK"] and "pair=1" in lines[-2][1], lines
    return table


def move(table, colour):
    table.place(colour, table.game.move_number // 2, 4 if colour == BLACK else 6, ms=400)


def test_pair_order_wrong_orders_and_their_penalties():
    table = pair_table()
    app = table.app
    assert message(app.referee) == "black (B1) to play"
    move(table, BLACK)
    assert message(app.referee) == "white (W1) to play"
    move(table, WHITE)
    assert message(app.referee) == "black (B2) to play"
    move(table, BLACK)  # B1 played it instead of B2: White protests at once
    assert table.says("referee order W")[0][0] == "ERR"  # not White's move
    lines = table.says("referee order B")
    assert lines[0] == ("PENALTY", ["3", "B", "points", "3", "wrong_order"])
    assert message(app.referee) == (  # the players are told; the order goes on after B1: W1 again
        "The referee gives Black penalty points. white (W1) to play")
    move(table, WHITE)
    assert message(app.referee) == "black (B2) to play"
    move(table, BLACK)
    assert table.says("referee order B")[0][1][3] == "5"  # Thai 16.5.2
    move(table, WHITE)
    assert table.says("referee order B")[0][0] == "ERR"  # White has played since (16.5.4)
    table.power_up()  # the corrections are journaled with the penalties
    table.wait(290)
    again = table.app
    assert message(again.referee) == message(app.referee) == "black (B2) to play"
    move(table, BLACK)
    lines = table.says("referee order B")
    assert [kind for kind, _ in lines] == ["PENALTY", "END", "OK"]  # the third: the game (16.5.3)
    assert again.game.result.sgf() == "W+F" and again.game.result.detail == "wrong_order"
    assert again.game.penalty_points(BLACK) == 8

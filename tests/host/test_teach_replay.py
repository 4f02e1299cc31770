"""A record stepped through on the simulated board (host_tools/teach/replay.py): the next move lit,
forward by placing it, a variation chosen, back with MENU, a stone the record lacks taken back, and
the clock button at the end of a line."""

from firmware.rules.coords import parse_vertex
from host_tools.play.board import Board
from host_tools.play.sim import SimTable
from host_tools.teach.__main__ import main
from host_tools.teach.replay import Replay
from host_tools.teach.student import Script

# B E5, W C7, then Black's G7 (the main line, W G3 after it) or C3 (a variation).
RECORD = b"(;FF[4]GM[1]SZ[9]RU[Japanese];B[ee]C[Centre];W[cc](;B[gc]C[Main line];W[gg])(;B[cg]C[A variation]))"


def test_forward_a_variation_back_a_stray_stone_and_the_end():
    table = SimTable(1, Script(["E5", "C7", "C3", "menu", "G7", "A1", "G3", "clock"], both_sides=True))
    board = Board(table.port, table)
    said = []
    steps = Replay(board, RECORD, said.append, patience_s=60).run()
    assert steps == 6  # E5, C7, C3, back, G7, G3
    assert said[:3] == ["Centre", "A variation", "Main line"]
    assert "A1: not the record's move; taken back" in said and said[-1] == "the replay ends after 6 steps"
    shown = table.sim.hw.display.shown
    for words in ("MOVE 1 / BLACK E5", "MOVE 3 / 2 VARIATIONS", "NOT IN RECORD / LIFT IT",
                  "END OF THE LINE / CLOCK: STOP", "END OF REPLAY"):
        assert words in shown, shown
    assert [(c, p) for c, p, *_ in board.game.moves] == [
        (1, parse_vertex(9, "E5")), (2, parse_vertex(9, "C7")), (1, parse_vertex(9, "G7")), (2, parse_vertex(9, "G3"))]


def test_the_command_line_replays_a_professional_game_to_its_end(capsys):
    assert main(["replay", "tests/data/sgf/091_LG_02_19.sgf"]) == 0
    assert "the replay ends after" in capsys.readouterr().out


def test_a_handicap_games_record_has_white_first():
    record = b"(;FF[4]GM[1]SZ[9]HA[2]AB[cg][gc];W[ee];B[cc])"  # Black C3 G7, then White E5, Black C7
    table = SimTable(1, Script(["E5", "C7", "clock"], both_sides=True))
    board = Board(table.port, table)
    assert Replay(board, record, lambda _words: None, patience_s=60).run() == 2
    assert [(c, p) for c, p, *_ in board.game.moves] == [(2, parse_vertex(9, "E5")), (1, parse_vertex(9, "C7"))]
    assert sorted(board.game.setup[0]) == sorted(parse_vertex(9, v) for v in ("C3", "G7"))

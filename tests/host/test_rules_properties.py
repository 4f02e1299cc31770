"""Property tests of the rules core: random move sequences under every rule set.

sgfmill's Board is the oracle for the mechanics (what a legal move captures);
the invariants cover the policy: an illegal move changes nothing, the hash is
always the hash of the board, undo restores every earlier state.
"""

from hypothesis import given, settings
from hypothesis import strategies as st
from sgfmill import boards

from firmware.rules.catalog import ALL
from firmware.rules.coords import PASS, col_row, point
from firmware.rules.game import Game, IllegalMove
from firmware.rules.position import BLACK, WHITE, stone_key
from host_tools.board.rules import diagram


def state(game):
    op = game.op
    return (bytes(game.pos.cells), game.pos.hash, game.to_move, game.ko, game.passes, tuple(game.captures),
            game.move_number, game.phase, None if op is None else (tuple(op.supply), tuple(op.isolated)))


def board_hash(game):
    h = 0
    for p, v in enumerate(game.pos.cells):
        if v in (BLACK, WHITE):
            h ^= stone_key(p, v)
    return h


def to_rows(board):
    chars = {None: ".", "b": "X", "w": "O"}
    return ["".join(chars[board.get(r, c)] for c in range(board.side)) for r in range(board.side - 1, -1, -1)]


games = st.tuples(
    st.sampled_from(ALL),
    st.integers(5, 9),
    st.lists(st.one_of(st.just(None), st.integers(0, 80)), min_size=1, max_size=160),
)


@settings(max_examples=150, deadline=None)
@given(games)
def test_random_games_keep_every_invariant(spec):
    rules, size, actions = spec
    game = Game(size, rules)
    oracle = boards.Board(size)
    history = [state(game)]
    for action in actions:
        if game.phase != 0:
            break
        colour = game.to_move
        pt = PASS if action is None else point(size, action % size, (action // size) % size)
        before = state(game)
        try:
            game.play(colour, pt)
        except IllegalMove as error:
            assert state(game) == before, error.reason
            assert error.reason in ("occupied", "suicide", "ko", "superko", "place_remove")
            continue
        if pt != PASS:
            col, row = col_row(size, pt)
            oracle.play(size - 1 - row, col, "b" if colour == BLACK else "w")
        assert diagram(game.pos) == to_rows(oracle)
        assert game.pos.hash == board_hash(game)
        assert game.pos.count[BLACK] + game.pos.count[WHITE] == len(oracle.list_occupied_points())
        history.append(state(game))
    while game.move_number:
        history.pop()
        game.undo()
        assert state(game) == history[-1]

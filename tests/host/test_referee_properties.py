"""Property test of the referee: random hands on the board never crash it, never
record a move that was not placed, and it always returns to play when the
board is restored."""

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.leds.marks import Marks
from firmware.modes import CASUAL, TEACHING, TOURNAMENT
from firmware.referee.machine import Referee
from firmware.referee.states import COUNTING as COUNTING_STATE
from firmware.referee.states import OVER as OVER_STATE
from firmware.referee.states import PLAY
from firmware.rules.game import COUNTING, Game
from firmware.rules.history import LOST_TURN, move_point

ACTIONS = st.lists(
    st.tuples(st.sampled_from(["place", "place", "place", "lift", "restore", "press", "pass", "undo"]),
              st.integers(0, 80), st.integers(1, 3)),
    max_size=80)


def expected_frame(ref):
    """What should be on the physical board for the referee to be satisfied."""
    game = ref.game
    frame = bytearray(361)
    dead = game.counter().dead if game.phase == COUNTING else None
    for p in range(361):
        g = ref.region.game_of[p]
        if g != 0xFFFF and game.pos.cells[g] and not (dead is not None and dead[g]):
            frame[p] = game.pos.cells[g] if ref.polarity else 3
    return frame


@settings(max_examples=250, deadline=None)
@given(st.sampled_from(["japanese", "korean", "thai", "chinese", "nz", "tromp-taylor", "op"]),
       st.sampled_from([CASUAL, TEACHING, TOURNAMENT]), st.booleans(), st.booleans(), ACTIONS)
def test_random_hands(rules, mode, polarity, clock, actions):
    game = Game(9, rules)
    ref = Referee(game, Marks(), polarity=polarity, mode=mode, timed=clock)
    frame = bytearray(361)
    now = 0
    for action, where, colour in actions:
        now += 250
        p = ref.region.phys_of[(where // 9 + 1) * 11 + where % 9 + 1]
        before = game.move_number
        if action == "place" and not frame[p]:
            frame[p] = colour if polarity else 3
            ref.update(frame, now)
        elif action == "lift" and frame[p]:
            frame[p] = 0
            ref.update(frame, now)
        elif action == "restore":
            frame[:] = expected_frame(ref)
            ref.update(frame, now)
            assert ref.state in (PLAY, COUNTING_STATE, OVER_STATE), (ref.state, ref.reason)
        elif action == "press":
            ref.press(1 + colour % 2, now)
        elif action in ("pass", "undo"):
            ref.button(action, now)
        if game.move_number == before + 1:
            record = game.hist.moves[game.hist.length - 1]
            pt = move_point(record)
            if pt and not record & LOST_TURN:
                # a recorded stone is a stone that is physically there
                assert frame[ref.region.phys_of[pt]], "ghost move"
    frame[:] = expected_frame(ref)
    ref.update(frame, now + 1000)
    assert ref.state in (PLAY, COUNTING_STATE, OVER_STATE)
    assert ref.seen.nmissing == ref.seen.nextra == ref.seen.nwrong == 0

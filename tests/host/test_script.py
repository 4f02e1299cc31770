"""The physical event script, played headless: every event carried out, the board stepped after each,
flags at their time, every button and host command scriptable (issue 36, item 14; docs/script.md)."""

from sgfmill import sgf

from firmware.modes import CASUAL, TOURNAMENT
from firmware.rules.position import BLACK, WHITE
from firmware.settings import Settings
from host_tools.sim.headless import Simulation
from host_tools.sim.script import ScriptError, parse, parse_line
from twins.storage import SimStorage


def play(text, size=9, mode=CASUAL, sensors="presence", storage=None, **settings):
    events, errors = parse(text.splitlines(), size)
    assert not errors, errors
    sim = Simulation(Settings(size, **settings), mode, sensors, storage=storage, record=True)
    sim.run(events)
    return sim


def recorded(sim):
    game = sgf.Sgf_game.from_bytes(sim.sgf())
    moves = [node.get_move() for node in game.get_main_sequence()[1:]]
    return moves, game.get_root().get("RE") if game.get_root().has_property("RE") else None


def ended_at(sim):
    return [e["t_ms"] for e in sim.log if e["kind"] == "result"]


def test_a_resignation_as_the_last_event_is_recorded():
    sim = play("100 place E5\n1000 place C3\n2000 button resign_black\n")
    assert recorded(sim) == ([("b", (4, 4)), ("w", (2, 2))], "W+R")


def test_events_in_the_same_millisecond_are_all_carried_out():
    sim = play("100 place E5\n1000 button pass\n1000 button resign_white\n")
    assert recorded(sim) == ([("b", (4, 4)), ("w", None)], "B+R")
    sim = play("100 place E5\n1000 button pass\n1000 button pass\n1000 button ok\n")
    moves, result = recorded(sim)
    assert moves == [("b", (4, 4)), ("w", None), ("b", None)] and result == "B+73.5"


def test_a_flag_is_a_result_when_it_falls_not_at_the_next_event():
    # White's 20 s run from Black's press at 1400: the flag falls at 21.4 s; the next event is at 90 s.
    sim = play("1000 place E5\n1400 press black\n90000 place C3\n", time_spec="absolute 20s")
    assert sim.game.result.sgf() == "B+T"
    assert ended_at(sim) and 21400 <= ended_at(sim)[0] <= 21410, sim.log[-3:]
    assert recorded(sim) == ([("b", (4, 4))], "B+T")


def test_menu_is_acted_on_release_a_takeback_in_casual_play():
    sim = play("100 place E5\n1000 place C3\n2000 press menu\n")
    assert sim.game.move_number == 1 and sim.game.to_move == WHITE
    assert [e["kind"] for e in sim.log].count("undo") == 1


def test_pause_stops_the_clock_and_restarts_it():
    sim = play("100 place E5\n200 press black\n1000 press pause\n5000 press pause\n", time_spec="absolute 10m")
    kinds = [(e["kind"], e["t_ms"]) for e in sim.log if e["kind"] in ("pause", "resume")]
    assert [k for k, _ in kinds] == ["pause", "resume"] and 1000 <= kinds[0][1] <= 1030  # (acted on once debounced: 20 ms)
    assert not sim.app.clock.paused and sim.app.clock.turn == WHITE


def test_the_pause_and_menu_chord_held_3_s_is_the_sensor_check():
    sim = play("100 hold pause+menu 3200\n")
    assert sim.app.diag is not None
    sim = play("100 hold pause+menu 1000\n")  # too short
    assert sim.app.diag is None


def test_host_commands_go_through_the_apps_door():
    sim = play("100 place E5\n200 press black\n300 host clock pause\n400 host referee caution W\n"
               "500 host clock resume\n600 host end B+R\n", mode=TOURNAMENT, time_spec="absolute 10m",
               rules="korean")
    hosts = [e for e in sim.log if e["kind"] == "host"]
    assert [h["reason"] for h in hosts] == ["clock pause", "referee caution W", "clock resume", "end B+R"]
    assert all(h["value"] == "OK" for h in hosts), hosts
    assert sim.game.result.sgf() == "B+R"
    # a command the board refuses is answered as the link would, and the script goes on
    sim = play("100 host clock late B 60\n200 place E5\n300 press black\n400 host clock late W 60\n",
               time_spec="byoyomi 10m 3x30s", rules="thai", mode=TOURNAMENT)
    hosts = [e for e in sim.log if e["kind"] == "host"]
    assert hosts[0]["value"] == "OK" and hosts[1]["value"].startswith("ERR state")


def test_thai_draw_agreement_and_korean_replay_by_menu_and_host():
    # The grammar has what the clauses need: MENU presses (a draw vote each), a replay, a new game.
    events, errors = parse(["10 press menu", "20 host replay", "30 host new rules=thai time=byoyomi%201m%203x30s",
                            "40 host mode tournament referee", "50 button draw"], 9)
    assert not errors and [e.action for e in events] == ["press", "host", "host", "host", "button"]
    assert events[2].name == "new" and events[2].args == ("rules=thai", "time=byoyomi%201m%203x30s")


def test_power_off_moves_while_off_and_power_on_recovers():
    sim = play("100 place E5\n1000 place C3\n2000 power off\n2500 lift C3\n3000 place D4\n4000 power on\n",
               storage=SimStorage())
    assert sim.game.move_number == 2 and sim.app.recovered
    assert sim.referee.state != 1  # not PLAY: the stones do not match the game (C3 to put back, D4 to lift)
    sim = play("100 place E5\n1000 place C3\n2000 power cut\n3000 place D4\n", storage=SimStorage())
    assert sim.game.move_number == 3 and sim.app.recovered and sim.game.to_move == WHITE


def test_presses_of_every_button_and_bad_lines():
    events, errors = parse(["10 press pause", "20 press menu", "30 press b", "40 hold black 500",
                            "50 hold pause+menu 3000", "60 power cut", "70 power off", "80 power on",
                            "90 host mode teaching", "95 button draw"], 19)
    assert not errors, errors
    assert events[0].buttons == (2,) and events[1].buttons == (3,) and events[2].colour == BLACK
    assert events[3].buttons == (0,) and events[3].duration_ms == 500 and events[4].buttons == (2, 3)
    bad = {"10 press green": "press takes", "10 hold pause+pause 100": "twice", "10 hold menu": "hold takes",
           "10 hold menu 0": "positive", "10 power down": "power takes", "10 host": "host needs a command",
           "10 host frob": "unknown command", "10 host hello": "link answers", "10 host mode dance": "mode needs",
           "10 host clock late B x": "clock needs", "10 host new colour=red": "bad field"}
    for text, words in bad.items():
        try:
            parse_line(text, 4, 19, 0)
        except ScriptError as error:
            assert error.line == 4 and words in str(error), (text, str(error))
        else:
            raise AssertionError(text)


def test_a_long_game_is_still_fast():
    """The 402-move game of the device-fit bench, by hands with a running clock, in well under a second of CPU."""
    import time

    from pro_games import load_games, replay

    from host_tools.sim.physical import script_lines

    from .conftest import DATA

    record = max(load_games(str(DATA / "pro_games.txt")), key=lambda r: len(r.moves))
    _game, illegal_at, _error = replay(record, "japanese")
    moves = record.moves[:illegal_at] if illegal_at is not None else record.moves
    lines, expected = script_lines(record.size, moves, clock=True)
    events, errors = parse(lines, record.size)
    assert not errors
    started = time.process_time()
    sim = Simulation(Settings(record.size, time_spec="byoyomi 30m 3x30s"), record=True)
    sim.run(events)
    spent = time.process_time() - started
    assert sim.game.move_number == len(expected) and spent < 1.5, (len(moves), spent)


def test_the_examples_in_the_docs_play_as_they_say():
    import re
    import shlex

    from .conftest import ROOT

    text = (ROOT / "docs" / "script.md").read_text().split("## Examples", 1)[1].split("\n## ", 1)[0]
    parts = text.split("```")
    examples = [(re.findall(r"`(--[^`]*)`", parts[i - 1])[-1], parts[i]) for i in range(1, len(parts), 2)]
    assert len(examples) == 4, [e[0] for e in examples]
    sims = []
    for options, body in examples:
        words = shlex.split(options)
        opts = dict(zip(words[::2], words[1::2], strict=False))
        sims.append(play(body, size=int(opts.get("--size", 19)), rules=opts.get("--rules", "japanese"),
                         mode=TOURNAMENT if opts.get("--mode") == "tournament" else CASUAL,
                         time_spec=opts.get("--time", "none"), storage=SimStorage()))
    capture, menu, referee, cut = sims
    assert capture.game.move_number == 7 and capture.game.captures[BLACK] == 1 and capture.referee.state == 1
    assert menu.game.move_number == 1 and [e["kind"] for e in menu.log].count("pause") == 1
    assert not menu.app.clock.paused and menu.app.clock.turn == WHITE
    assert [e["value"] for e in referee.log if e["kind"] == "host"] == ["OK"] * 5 and referee.game.result.sgf() == "0"
    assert cut.app.recovered and cut.game.move_number == 2 and cut.referee.state != 1

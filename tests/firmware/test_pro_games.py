"""Every bundled professional game replays through the rules core.

Final boards and capture counts must equal sgfmill's (tests/data/pro_games.txt,
generated and checked against sgfmill by the host tests), and the rule
incidents the records contain must be flagged exactly where MANIFEST.tsv says
(for example the illegal ko retake of the 1980 Meijin game, move 213).
"""

from pro_games import load_games, replay
from support import check, data_path

from firmware.rules.coords import vertex
from host_tools.board.rules import diagram

RULE_COLUMNS = (("japanese", "replay_japanese"), ("tromp-taylor", "replay_tromp_taylor"))


def manifest():
    rows = {}
    with open(data_path("sgf/MANIFEST.tsv")) as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            cells = line.rstrip("\n").split("\t")
            rows[cells[0]] = dict(zip(header, cells))
    return rows


def test_replays_match_sgfmill_and_the_recorded_incidents():
    games = load_games(data_path("pro_games.txt"))
    info = manifest()
    assert len(games) == len(info) >= 120
    failures = []
    incidents = 0
    for record in games:
        for rules, column in RULE_COLUMNS:
            expected = info[record.name][column]
            game, illegal_at, error = replay(record, rules)
            if illegal_at is None:
                got = "ok"
            else:
                got = "illegal@%d:%s:%s%s" % (illegal_at, error.reason, "B" if record.moves[illegal_at][0] == 1 else "W",
                                             vertex(record.size, error.point))
                incidents += 1
            if got != expected:
                failures.append("%s %s: %s, manifest says %s" % (record.name, rules, got, expected))
            elif got == "ok" and game.move_number == len(record.moves):
                if diagram(game.pos) != record.rows:
                    failures.append("%s %s: final board differs from sgfmill" % (record.name, rules))
                captures = (game.captures[1], game.captures[2])
                if captures != record.captures:
                    failures.append("%s %s: captures %s, sgfmill %s" % (record.name, rules, captures, record.captures))
            elif got == "ok":
                failures.append("%s %s: stopped at move %d" % (record.name, rules, game.move_number))
    check(failures)
    assert incidents == 3

"""The board, simulated: the firmware on simulated drivers, in the browser or headless.

    python -m host_tools.sim [--rules NAME] [--size N] [--komi K] [--handicap N] [--time SPEC]
        [--sensors presence|polarity] [--mode casual|teaching|tournament] [--hardware ...]
        [--port N] [--no-browser] [--games DIR] [--script FILE [--speed X]]
        [--state DIR] [--tty-link PATH] [--no-logger] [--engine COMMAND|gnugo [--colour B|W]]
    python -m host_tools.sim --headless --script FILE [...] [--time SPEC | --clock] [--sgf PATH]
        [--events FILE]

The live board (the default) runs the device's application (firmware/app.py)
in real time on the simulated hardware (twins/hardware.py), streams its game
over a pty to a ``host_tools.logger`` process writing ``games/*.sgf``, and
serves a page on 127.0.0.1 (host_tools/sim/web.py) to play on: click points to place or lift
stones, press the clock buttons, start new games. ``--script`` plays a
physical event script on it as well. Ctrl-C stops it; the SGF is kept.
With ``--state DIR`` the board's game journal and the stones on it are kept
in DIR: killing the simulator is a power cut, and starting it again with the
same DIR powers the board up again (it recovers the game).
With ``--engine`` a GTP engine plays the other side instead of a second person
(``host_tools.play`` on the board's port, in the logger's place, writing the SGF):
its moves are lit on the page's board to place, as on a real one.

Headless mode runs the same application on the same simulated hardware,
clock included (``--time``, ``--mode tournament``...), plays a physical event
script (host_tools/sim/script.py) with simulated time, and writes the game as
the logger records it from the board's serial lines (SGF FF[4], clock
figures per move, penalties, result) to stdout, or to ``--sgf PATH``;
``--events FILE`` gets every referee and clock event and every host command, one JSON object a line.
A script with bad lines (each reported on stderr with its number) is not played, nothing is
written, and the exit status is 1; a script that is not text (a binary file) is named, exit status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
import time
import webbrowser
from pathlib import Path

from firmware.modes import NAMES as MODE_NAMES
from firmware.rules.catalog import ALL
from firmware.rules.coords import MAX_SIZE, MIN_SIZE
from firmware.rules.rulesets import by_name
from firmware.settings import Settings
from host_tools.board.messages import message
from host_tools.gtp.engine import default_engine
from twins.storage import SimStorage

from .headless import Simulation
from .live import LiveBoard
from .port_host import PortHost
from .pty_link import PtyLink
from .script import parse
from .web import serve

BOARD_ID = "sim"  # the headless board's id on its serial link (and in the logger's file names)


def build_parser():
    parser = argparse.ArgumentParser(prog="python -m host_tools.sim", description=__doc__.split("\n\n")[0])
    parser.add_argument("--headless", action="store_true",
                        help="no live board: play --script with simulated time and write the SGF")
    parser.add_argument("--script", type=Path, help="physical event script to play")
    parser.add_argument("--time", default="none", help="time control spec or preset (default: none)")
    parser.add_argument("--port", type=int, default=None,
                        help="live board: web page port (0: any free port; default: 8019, or the next free one)")
    parser.add_argument("--no-browser", action="store_true", help="live board: do not open a browser")
    parser.add_argument("--games", type=Path, default=Path("games"),
                        help="live board: folder the logger writes SGF files to (default: games)")
    parser.add_argument("--state", type=Path, metavar="DIR",
                        help="live board: keep the game journal (the board's flash) and the stones in DIR; "
                             "started again with the same DIR, the board recovers the game as after a power cut")
    parser.add_argument("--tty-link", type=Path, metavar="PATH",
                        help="live board: also name the board's serial port PATH (a symlink to the pty)")
    parser.add_argument("--no-logger", action="store_true",
                        help="live board: start no logger (run host_tools.logger on the port yourself)")
    parser.add_argument("--engine", metavar="COMMAND|gnugo",
                        help="live board: a GTP engine plays the other side (gnugo: Debian's GNU Go at --level)")
    parser.add_argument("--level", type=int, default=5, help="with --engine gnugo: GNU Go's level 0-10")
    parser.add_argument("--colour", choices=("B", "W"), default="B", help="with --engine: the person's colour")
    parser.add_argument("--speed", type=float, default=1.0, help="live board: --script time runs this much faster (above ~1.4 hands get quicker "
                             "than the sensors' settle time, as real hands never are)")
    parser.add_argument("--rules", default="japanese", help="rule set: " + ", ".join(r.name for r in ALL))
    parser.add_argument("--size", type=int, default=19, help="board size, 5..19 (a region of the 19x19 board)")
    parser.add_argument("--komi", type=float, default=None, help="komi (default: the rule set's)")
    parser.add_argument("--handicap", type=int, default=0, help="handicap stones Black places first")
    parser.add_argument("--sensors", choices=("presence", "polarity"), default="presence",
                        help="presence: stones only (reed switches); polarity: colours too (Hall sensors)")
    parser.add_argument("--mode", choices=MODE_NAMES, default="casual")
    parser.add_argument("--clock", action="store_true",
                        help="headless: a game clock is in use, moves end with a press (with no --time: one that "
                             "never runs out)")
    parser.add_argument("--hardware", choices=("fast", "shift", "matrix", "hall"), default="fast",
                        help="fast: sensor twins reading the board directly; or the real driver over "
                             "simulated hardware: shift (74HC165, presence), matrix (presence), hall (polarity)")
    parser.add_argument("--sgf", type=Path, help="write the SGF here instead of stdout")
    parser.add_argument("--events", type=Path, metavar="FILE",
                        help="headless: write every referee and clock event here, one JSON object a line "
                             "(t_ms, kind, colour, point, reason, value)")
    return parser


def read_script(args, err):
    """(events, 0) for ``--script``; (None, exit status) if the file cannot be read (1), is not
    text (2: a binary file, named) or has bad lines (1, each reported on ``err`` with its
    number): a script is played whole or not at all."""
    try:
        text = args.script.read_text(encoding="utf-8")
    except OSError as error:
        print(f"cannot read the script: {error.strerror or error}", file=err)
        return None, 1
    except UnicodeDecodeError as error:
        print(f"error: {args.script} is not a text file (byte {error.start} is not UTF-8): a physical event "
              "script is text, one event a line (docs/script.md); nothing played, nothing written", file=err)
        return None, 2
    events, errors = parse(text.splitlines(), args.size)
    for error in errors:
        print(f"{args.script}:{error}", file=err)
    if errors:
        print(f"{len(errors)} bad line{'s' if len(errors) > 1 else ''}: nothing played, nothing written", file=err)
        return None, 1
    return events, 0


def game_settings(args, time_spec):
    return Settings(args.size, args.rules, args.komi, args.handicap, time_spec)


def run_headless(args, out=sys.stdout, err=sys.stderr) -> int:
    events, status = read_script(args, err)
    if events is None:
        return status
    sensors = args.sensors if args.hardware == "fast" else args.hardware
    time_spec = "absolute 99h" if args.clock and args.time == "none" else args.time  # a clock that never runs out
    sim = Simulation(game_settings(args, time_spec), MODE_NAMES.index(args.mode), sensors, board_id=BOARD_ID,
                     storage=SimStorage(), record=True)  # (flash: a script's power cut recovers the game)
    sim.run(events)
    game = sim.game
    record = (sim.sgf() or b"").decode("utf-8")
    if args.sgf:
        args.sgf.write_text(record + "\n", encoding="utf-8")
    else:
        out.write(record + "\n")
    if args.events:
        with args.events.open("w", encoding="utf-8") as log:
            for entry in sim.log:
                log.write(json.dumps(entry) + "\n")
    print(f"{len(events)} events, {game.move_number} moves recorded; board: {message(sim.referee)}", file=err)
    return 0


def run_live(args, out=sys.stdout, err=sys.stderr) -> int:
    events = []
    if args.script is not None:
        events, status = read_script(args, err)
        if events is None:
            return status
    try:
        args.games.mkdir(parents=True, exist_ok=True)
        probe = args.games / ".writable"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as error:
        print(f"error: cannot write games to {args.games}: {error.strerror or error}", file=err)
        return 1
    gnugo = default_engine() is not None  # (the page offers a game against it)
    line = PtyLink()
    try:
        live = LiveBoard(game_settings(args, args.time), args.mode,
                         sensors=args.hardware if args.hardware != "fast" else args.sensors,
                         transport=line, board_id=board_id(args.state), state=args.state)
    except ValueError as error:  # a bad time spec, a handicap the rules do not have...
        print(f"error: {error}", file=err)
        line.close()
        return 1
    port = line.path
    if args.tty_link is not None:
        part = args.tty_link.with_name(args.tty_link.name + ".part")
        part.unlink(missing_ok=True)
        part.symlink_to(line.path)
        os.replace(part, args.tty_link)
        port = str(args.tty_link)
    host = PortHost(port, args.games, logger=not args.no_logger, tell=live.tell)
    if args.engine:  # the engine's match records the game (one program on the port)
        host.match(engine_args(args, args.engine, args.level, args.colour, game_fields(args)))
        host.poll()
    else:
        host.record()
    stop = threading.Event()
    threads = [threading.Thread(target=live.run, args=(stop,), daemon=True),
               threading.Thread(target=_watch, args=(host, stop), daemon=True)]
    if events:
        threads.append(threading.Thread(target=play_script, args=(live, events, args.speed, stop), daemon=True))

    def engine_game(fields, colour, level, void):
        # The page's new game against GNU Go, on a cleared board (host_tools.play starts it).
        refused = live.make_room(void)
        if refused is None:
            live.clear_stones()
            host.match(engine_args(args, "gnugo", level, colour, fields))
        return refused

    def teaching(what, lesson, void):
        # The page's problems or lesson, on a cleared board (host_tools.teach starts its games).
        refused = live.make_room(void)
        if refused is None:
            live.clear_stones()
            host.teach(what, [str(lesson)] if what == "lesson" else [])
        return refused

    def extra_state():
        app = live.app  # the logger names a game's file after the board, the power-up it began in and its number
        name = "%s-%d-g%d" % (app.hw.board_id, app.follower.game_boot, app.follower.gid)
        files = list(args.games.glob(name + ".sgf")) + list(args.games.glob(name + "-*.sgf"))
        record = max(files, key=lambda f: f.stat().st_mtime, default=None)
        return {"sgf": str(record) if record else "", "logger": host.status()}

    try:
        engine = engine_game if gnugo else None
        if args.port is None:
            server = serve(live, extra_state=extra_state, engine=engine, teach=teaching)
        else:  # the port asked for, or an error: never another one silently
            server = serve(live, port=args.port, extra_state=extra_state, tries=1, engine=engine, teach=teaching)
    except OSError as error:
        print(f"error: {error} (try another --port N, or 0 for any free one)", file=err)
        host.stop()
        line.close()
        return 1
    for signum in (signal.SIGINT, signal.SIGTERM):  # also when started with SIGINT ignored (a background job)
        signal.signal(signum, _interrupt)
    for thread in threads:
        thread.start()
    url = "http://%s:%d/" % server.server_address[:2]
    print(f"Smart Go board simulator: {url}", file=out)
    if args.engine:
        print(f"An engine plays on {port} (host_tools.play); games go to {args.games}/. Ctrl-C stops.", file=out)
    elif not args.no_logger:
        print(f"Games are recorded to {args.games}/ by host_tools.logger on {port}. Ctrl-C stops.", file=out)
    else:
        print(f"The board's serial port: {port}. Ctrl-C stops.", file=out)
    out.flush()
    if not args.no_browser:
        if sys.platform in ("darwin", "win32") or os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
            webbrowser.open(url)
        else:  # no screen here: a text-mode browser would take over the terminal
            print("No display here: open the address above in a browser (e.g. through an SSH tunnel).", file=out)
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        server.stopping = True
        server.server_close()
        time.sleep(0.3)  # the board's last lines reach the logger
        stop.set()
        host.stop()
        line.close()
        saved = extra_state()["sgf"]
        print("\nstopped; " + (f"the game is in {saved}" if saved else "no game recorded"), file=out)
    return 0


def game_fields(args):
    """The game's settings from the options, as the page's form gives them."""
    return {"rules": args.rules, "size": args.size, "handicap": args.handicap, "time": args.time, "komi": args.komi}


def engine_args(args, engine, level, colour, fields):
    """``host_tools.play``'s arguments: the engine (``gnugo``: GNU Go at ``level``), the person's colour
    and the game's settings (``fields``: game_fields')."""
    chosen = ["--level", str(level)] if engine == "gnugo" else ["--engine", engine]
    game = ["--colour", colour, "--size", str(fields["size"]), "--rules", fields["rules"], "--handicap",
            str(fields["handicap"]), "--time", fields["time"]]
    return chosen + game + ([] if fields["komi"] is None else ["--komi", f"{fields['komi']:g}"])


def _watch(host, stop):
    # A match that ended gives the port back to the logger.
    while not stop.wait(0.5):
        host.poll()


def board_id(state):
    """The live board's name: like a device's chip id, its own (kept in the ``--state`` folder,
    so a restarted simulator is the same board; a new one each run without it)."""
    saved = None if state is None else state / "board_id"
    if saved is not None and saved.exists():
        return saved.read_text().strip()
    name = "sim-" + os.urandom(4).hex()
    if saved is not None:
        state.mkdir(parents=True, exist_ok=True)
        saved.write_text(name + "\n")
    return name


def _interrupt(_signum, _frame):
    raise KeyboardInterrupt


def play_script(live, events, speed, stop):
    """Play script events on the live board at their times (``speed`` times faster)."""
    start = time.monotonic()
    for event in events:
        delay = start + event.t_ms / 1000 / speed - time.monotonic()
        if delay > 0 and stop.wait(delay):
            return
        live.play(event)


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not MIN_SIZE <= args.size <= MAX_SIZE:
        parser.error(f"--size must be {MIN_SIZE}..{MAX_SIZE}")
    try:
        by_name(args.rules)
    except ValueError as error:
        parser.error(str(error))
    if args.speed <= 0:
        parser.error("--speed must be positive")
    if args.port is not None and not 0 <= args.port <= 65535:
        parser.error("--port must be 0..65535 (0: any free port)")
    try:  # before any script is read or file written
        game_settings(args, args.time).check()
        if args.hardware != "fast" and (args.hardware == "hall") != (args.sensors == "polarity"):
            raise ValueError(args.hardware + " sensors cannot " + ("tell" if args.sensors == "polarity" else "ignore")
                             + " colours")
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    if not args.headless:
        return run_live(args)
    if args.script is None:
        parser.error("--headless needs --script FILE")
    try:
        return run_headless(args)
    except ValueError as error:  # a setting the game refuses (a handicap the rules do not have, say)
        print(f"error: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())

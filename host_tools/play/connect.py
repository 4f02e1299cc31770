"""Which board to play on: a serial port (pyserial, real time) or ``sim`` (the simulated board and its hands)."""

from __future__ import annotations

import random
import time
from pathlib import Path

from host_tools import sgf
from host_tools.gtp.engine import Engine, EngineError

from .board import Board
from .sim import EngineBrain, Moves, SimTable


class RealTime:
    """The runner of a real board: the host's own clock."""

    @staticmethod
    def now() -> float:
        return time.monotonic()

    @staticmethod
    def wait(seconds: float) -> None:
        time.sleep(seconds)


def brain(hands: list[str], seed: int = 0):
    """The simulated person's judgement: ``random`` (seeded), ``sgf FILE`` (its main line, then
    random), ``gtp COMMAND`` (an engine's moves and dead stones); ValueError saying what is wrong."""
    rng = random.Random(seed)
    if hands == ["random"]:
        return Moves([], rng)
    if len(hands) == 2 and hands[0] == "sgf":
        try:
            return Moves(sgf.read(Path(hands[1]).read_bytes()).moves, rng)
        except OSError as error:
            raise ValueError(f"--sim-hands sgf: cannot read {hands[1]}: {error.strerror}") from None
    if len(hands) >= 2 and hands[0] == "gtp":
        try:
            return EngineBrain(Engine(" ".join(hands[1:])))
        except EngineError as error:
            raise ValueError(f"--sim-hands gtp: {error}") from None
    raise ValueError("--sim-hands is 'random', 'sgf FILE' or 'gtp COMMAND'")


def open_board(where: str, seed: int = 0, hands: list[str] | None = None, slip: float = 0.05):
    """(Board, SimTable or None): the board on serial port ``where``, or the simulated one for
    ``sim``. BoardError when the board does not answer, ValueError for bad hands."""
    if where == "sim":
        table = SimTable(seed, brain(hands or ["random"], seed), slip)
        return Board(table.port, table), table
    import serial  # (pyserial: only for a real board)

    try:
        port = serial.serial_for_url(where, baudrate=115200, timeout=0, write_timeout=1)
    except (serial.SerialException, OSError, ValueError) as error:
        raise ValueError(f"cannot open {where}: {error}") from None
    return Board(port, RealTime()), None

"""One call to a simulated sensor: the real driver of a variant on its simulated hardware.

    board = SimBoard()
    scanner = Scanner(twin(board))          # board_config.SENSORS, or "shift", "matrix", "hall"

``"presence"`` and ``"polarity"`` give the fast twins that read the board
directly (no wiring simulated). A Hall array comes back calibrated on the
board as it is (leave it empty).
"""

from ..board_config import SENSORS
from .sim_board import SimPolarity, SimPresence
from .sim_hall import SimHallBus
from .sim_matrix import SimDiodeMatrix
from .sim_shift165 import SimShiftChain


def twin(board, kind=SENSORS, **options):
    """A sensor reading ``board``; ``options`` go to the simulated hardware."""
    if kind == "shift":
        return SimShiftChain(board, **options).driver()
    if kind == "matrix":
        return SimDiodeMatrix(board, **options).driver()
    if kind == "hall":
        driver = SimHallBus(board, **options).driver()
        driver.calibrate()
        return driver
    if kind == "presence":
        return SimPresence(board)
    if kind == "polarity":
        return SimPolarity(board)
    raise ValueError("unknown sensor kind: " + kind)

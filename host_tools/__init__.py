"""Host tools (CPython 3.11+): GTP front-ends, SGF, the serial logger, the simulator (board/: the
board's code only the host runs, MicroPython too)."""

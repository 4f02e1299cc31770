"""Host tools (CPython 3.11+): GTP front-ends, SGF, the serial logger, the simulator."""

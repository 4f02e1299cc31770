"""Play on the board against a program (``python -m host_tools.play``), and the host's end of a board for it."""

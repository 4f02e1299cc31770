"""The host logger (``python -m host_tools.logger PORT [PORT...]``), in layers:

- ``sync``: keeping in step with a board's numbered lines; no I/O, no clock;
- ``games``: the games a board announced, rebuilt from the lines taken; SGF;
- ``serial_port`` and ``mqtt``: the pyserial and paho-mqtt adapters;
- ``connection``: one port, the three above wired together;
- ``cli``: the program: every port, SGF files, the audit log, the status line.
"""

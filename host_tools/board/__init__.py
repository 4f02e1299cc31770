"""The board's code that only the host runs: its lines decoded (protocol.py), its event ring
named (event_log.py), a time control written back (clock_spec.py), diagrams of its games
(rules.py), what it wants of the players in words (messages.py, words.py).

Kept out of firmware/, which is what the device loads. MicroPython as well as CPython: the
firmware tests, which run on both, use it (tests/mp/micropython.mjs copies this package).
"""

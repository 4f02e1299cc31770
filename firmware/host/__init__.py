"""Talking to a host computer: the board's link (firmware/protocol.py is the wire format) and the host's commands."""

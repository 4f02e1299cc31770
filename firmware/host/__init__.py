"""Talking to a host computer: the serial protocol (both ends), the board's link, the host's commands."""

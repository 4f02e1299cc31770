"""Simulated twins of the board's parts: the stones and hands on the board, sensors, buttons, display,
buzzer, LED strip, serial cable and flash. Tests and the simulator use them; nothing here is deployed."""

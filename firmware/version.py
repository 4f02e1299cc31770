"""Firmware version, reported in GTP, the serial hello and the SGF application tag."""

VERSION = "0.2.0"
NAME = "Smart Go Board"

"""Sensing: raw sensor reads into settled frames (scanner), and the sensor check (diagnostics)."""

"""Hardware adapters: the only modules that touch pins and buses (their simulated twins are in twins/,
which is never deployed). pico.py builds the reference board's Hardware record (firmware/hardware.py)."""

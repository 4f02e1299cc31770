"""Hardware adapters (the only modules that touch pins) and their simulated twins."""

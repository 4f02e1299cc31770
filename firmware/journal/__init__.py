"""Power cuts lose nothing: the game journal on flash, its recorder and the recovery at power-up."""

from ..rules.const import call_briefly


def recover_once(journal):
    """The journal's game (recovery.py), whose code runs once at power-up and is then
    dropped from the heap (a Pico's is small)."""
    return call_briefly("firmware.journal.recovery", "recover", journal)

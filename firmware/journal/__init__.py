"""Power cuts lose nothing: the game journal on flash, its recorder and the recovery at power-up."""


def recover_once(journal):
    """The journal's game (recovery.py), whose code runs once at power-up and is then
    dropped from the heap (a Pico's is small)."""
    from ..micro import unload
    from . import recovery

    try:
        return recovery.recover(journal)
    finally:
        unload(recovery)

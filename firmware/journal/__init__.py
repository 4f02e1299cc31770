"""Power cuts lose nothing: the game journal on flash, its recorder and the recovery at power-up."""


def recover_once(journal):
    """The journal's game (recovery.py), whose code runs once at power-up and is then
    dropped from the heap (a Pico's is small)."""
    import sys

    from . import recovery

    try:
        return recovery.recover(journal)
    finally:
        del sys.modules[recovery.__name__]
        delattr(sys.modules[__name__], "recovery")  # the package's reference

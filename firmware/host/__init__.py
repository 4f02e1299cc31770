"""Talking to a host computer: the board's link (firmware/protocol.py is the wire format) and the host's commands."""


def let_go(name):
    """Drop ``firmware.host.<name>``, a module loaded for one job: its code costs a Pico's heap
    (its names stay interned). The next import loads it again."""
    import sys

    sys.modules.pop(__name__ + "." + name, None)
    package = sys.modules[__name__]
    if hasattr(package, name):
        delattr(package, name)  # the package's reference

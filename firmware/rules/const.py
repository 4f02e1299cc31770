"""``const`` for the rules core: MicroPython's, or the identity on CPython.

The rules core stands alone (host tools import it without the rest of the
firmware), so it carries this one fallback itself. MicroPython's compiler
folds ``_NAME = const(x)`` whichever module ``const`` comes from.
"""

try:
    from micropython import const
except ImportError:  # CPython
    def const(value):
        return value

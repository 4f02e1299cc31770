"""The rules core: pure logic, no I/O, no time, no hardware; runs unchanged on MicroPython."""

"""Link transports on the device: USB CDC (sys.stdin/sys.stdout) and a UART.

Both give ``read_into(buf) -> int`` (never blocks: 0 when nothing waits)
and ``write(data) -> int`` as firmware/host/link.py expects.
"""

import select
import sys

CTRL_C = 3


class UsbCdc:
    """The USB serial port the REPL normally uses. The program reads every
    byte itself (``kbd_intr(-1)``), but a Ctrl-C, which the protocol's text
    lines never contain, is a tool such as mpremote asking for the REPL:
    Ctrl-C is given back to MicroPython and KeyboardInterrupt raised, so the
    program stops and the REPL answers the bytes that follow.
    ``kbd_intr``: MicroPython's ``micropython.kbd_intr`` (a stand-in in tests)."""

    def __init__(self, stdin=None, stdout=None, poller=None, kbd_intr=None):
        if kbd_intr is None:
            import micropython

            kbd_intr = micropython.kbd_intr
        self.kbd_intr = kbd_intr
        kbd_intr(-1)
        self.stdin = stdin or sys.stdin.buffer
        self.stdout = stdout or sys.stdout.buffer
        if poller is None:
            poller = select.poll()
            poller.register(self.stdin, select.POLLIN)
        self.poller = poller
        self._byte = bytearray(1)

    def read_into(self, buf):
        for _ in self.poller.ipoll(0):  # (ipoll, not poll: poll() makes a list at every call)
            return self._copy(buf)
        return 0  # nothing waits: the link's idle poll

    def _copy(self, buf):
        n = 0
        size = len(buf)
        byte = self._byte
        while n < size and self._waiting():
            if not self.stdin.readinto(byte):  # pyright: ignore[reportAttributeAccessIssue]  (a stream has it)
                break
            if byte[0] == CTRL_C:
                self.kbd_intr(CTRL_C)
                raise KeyboardInterrupt
            buf[n] = byte[0]
            n += 1
        return n

    def _waiting(self):
        # ipoll, not poll: poll() makes a list at every call, and the link asks every pass
        for _ in self.poller.ipoll(0):
            return True
        return False

    def write(self, data):
        return self.stdout.write(data) or 0


class Uart:
    """A ``machine.UART`` given by the caller (pins and baud rate are the
    board's business)."""

    def __init__(self, uart):
        self.uart = uart

    def read_into(self, buf):
        if not self.uart.any():
            return 0
        return self.uart.readinto(buf) or 0

    def write(self, data):
        return self.uart.write(data) or 0

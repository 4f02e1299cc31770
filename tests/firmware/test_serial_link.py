"""The device's link transports, on stand-ins for the USB port and a UART."""

from firmware.drivers.serial_link import Uart, UsbCdc


class FakeStream:
    """A byte stream with a poller stand-in: ipoll(0) yields the stream while bytes wait."""

    def __init__(self, data=b""):
        self.data = bytearray(data)
        self.written = bytearray()

    def ipoll(self, _timeout):
        return iter(((self, 1),) if self.data else ())

    def readinto(self, buf):
        n = min(len(buf), len(self.data))
        buf[:n] = self.data[:n]
        self.data[:n] = b""
        return n

    def write(self, data):
        self.written.extend(data)
        return len(data)


def test_usb_reads_what_waits_without_blocking():
    port = FakeStream(b"hello\nstate\n")
    usb = UsbCdc(port, port, poller=port, kbd_intr=[].append)
    buf = bytearray(8)
    assert usb.read_into(buf) == 8 and bytes(buf) == b"hello\nst"
    assert usb.read_into(buf) == 4 and bytes(buf[:4]) == b"ate\n"
    assert usb.read_into(buf) == 0  # nothing waiting: no wait either
    assert usb.write(b"1 OK *0\n") == 8 and port.written == b"1 OK *0\n"


def test_a_ctrl_c_hands_the_port_to_the_repl():
    port = FakeStream(b"hel\r\x03\r\x01")  # mpremote: Ctrl-C, then Ctrl-A for the raw REPL
    interrupts = []
    usb = UsbCdc(port, port, poller=port, kbd_intr=interrupts.append)
    assert interrupts == [-1]  # the program reads Ctrl-C itself
    buf = bytearray(16)
    try:
        usb.read_into(buf)
    except KeyboardInterrupt:
        pass
    else:
        raise AssertionError("Ctrl-C did not stop the program")
    assert bytes(port.data) == b"\r\x01"  # what follows is left for the REPL
    assert interrupts == [-1, 3]  # Ctrl-C is MicroPython's again


class FakeUart:
    def __init__(self, data=b""):
        self.data = bytearray(data)
        self.written = bytearray()

    def any(self):
        return len(self.data)

    def readinto(self, buf):
        n = min(len(buf), len(self.data))
        buf[:n] = self.data[:n]
        self.data[:n] = b""
        return n

    def write(self, data):
        self.written.extend(data)
        return len(data)


def test_uart_reads_what_waits_without_blocking():
    uart = FakeUart(b"resend 4\n")
    link = Uart(uart)
    buf = bytearray(32)
    assert link.read_into(buf) == 9 and bytes(buf[:9]) == b"resend 4\n"
    assert link.read_into(buf) == 0
    assert link.write(b"x") == 1 and uart.written == b"x"

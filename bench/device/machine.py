"""Stand-in for MicroPython's ``machine`` on the unix port: the parts firmware/drivers/pico.py builds.

Only what the device-fit run (bench/device/play.py) needs, on the pins of
firmware/board_config.py: a ``Pin`` keeps its level (the hands set a
button's), ``SPI.write_readinto`` hands the 74HC165 chain's bytes
(``SPI.raw``, set by the hands), ``UART`` is the cable to a host (``rx`` what
the host sent, ``on_write`` what the board wrote), ``I2C`` and ``PWM`` take
what a display and a buzzer would. Never deployed: the device has the real
``machine``.
"""


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1

    def __init__(self, number, *args, value=None):
        self.level = 1 if value is None else value  # a button's pull-up reads 1 until pressed

    def value(self, level=None):
        if level is None:
            return self.level
        self.level = level
        return None


class SPI:
    raw = None  # the chain's bytes as the switches set them (set by the hands; at first an empty board)

    def __init__(self, *args, **_):
        pass

    def write_readinto(self, tx, rx):
        if SPI.raw is None:
            SPI.raw = bytearray(len(rx))
        rx[:] = SPI.raw


class I2C:
    def __init__(self, *args, **_):
        pass

    def writeto(self, *args):
        pass


class PWM:
    def __init__(self, pin):
        self.pin = pin

    def freq(self, *args):
        pass

    def duty_u16(self, *args):
        pass


class ADC:
    def __init__(self, pin):
        self.pin = pin

    def read_u16(self):
        return 32768


class UART:
    rx = bytearray()  # bytes from the host, not yet read by the board
    on_write = None  # the host's reader of the board's bytes

    def __init__(self, *args, **_):
        pass

    def any(self):
        return len(UART.rx)

    def readinto(self, buf):
        n = min(len(buf), len(UART.rx))
        buf[:n] = UART.rx[:n]
        UART.rx[:n] = b""
        return n

    def write(self, data):
        UART.on_write(data)
        return len(data)


def unique_id():
    return b"\xe6\x61\x4c\x31\x1b\x6a\x8b\x2c"  # an RP2040's flash chip's 64-bit id

"""Stand-in for MicroPython's ``machine`` on the unix port: the parts firmware/drivers/pico.py builds.

Only what the device-fit run (bench/device/play.py) needs, on the pins of
firmware/board_config.py. On a Pico ``machine`` is in the firmware's flash,
so here it is kept small in the heap: one class is every part (``Pin``,
``SPI``, ``I2C``, ``PWM``, ``ADC``, ``UART``), each using the methods it
has on a board. A pin keeps its level (the hands set a button's),
``write_readinto`` hands the 74HC165 chain's bytes (``raw``, set by the
hands), the UART is the cable to a host (``rx`` what the host sent,
``on_write`` what the board wrote); a display's and a buzzer's writes go
nowhere. Never deployed: the device has the real ``machine``.
"""


class Part:
    IN = 0
    OUT = 1
    PULL_UP = 1
    IRQ_FALLING = 4
    IRQ_RISING = 8
    raw = None  # the chain's bytes as the switches set them (set by the hands; at first an empty board)
    rx = bytearray()  # bytes from the host, not yet read by the board
    on_write = None  # the host's reader of the board's bytes

    def __init__(self, *args, value=None, **_):
        self.level = 1 if value is None else value  # a button's pull-up reads 1 until pressed
        self.notify = None  # (irq: the press edges' handler)

    def value(self, level=None):
        if level is None:
            return self.level
        if self.notify is not None and self.level and not level:  # a press's falling edge: its IRQ
            self.notify(self)
        self.level = level
        return None

    def irq(self, handler=None, trigger=IRQ_FALLING):  # (the buttons' only one: their press edges)
        self.notify = handler

    def write_readinto(self, tx, rx):
        if Part.raw is None:  # (no hands: an empty board)
            Part.raw = bytearray(len(rx))
        rx[:] = Part.raw

    def nothing(self, *args):  # I2C.writeto, PWM.freq and duty_u16
        pass

    writeto = freq = duty_u16 = nothing

    def read_u16(self):
        return 32768

    def any(self):
        return len(Part.rx)

    def readinto(self, buf):
        n = min(len(buf), len(Part.rx))
        buf[:n] = Part.rx[:n]
        Part.rx[:n] = b""
        return n

    def write(self, data):
        Part.on_write(data)
        return len(data)


Pin = SPI = I2C = PWM = ADC = UART = Part


def unique_id():
    return b"\xe6\x61\x4c\x31\x1b\x6a\x8b\x2c"  # an RP2040's flash chip's 64-bit id

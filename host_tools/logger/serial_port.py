"""A pyserial connection that can be lost and opened again (device and pty paths, ``socket://``, ``loop://``)."""

from __future__ import annotations

import serial

RETRY_S = 0.5  # reopen a lost port this often
READ_MAX = 4096  # read at most this much a step: a flooding port leaves the others their turn


class PortError(Exception):
    """The port cannot be opened, or is lost (a closed pty reads as SerialException)."""


class SerialPort:
    def __init__(self, url: str):
        self.url = url
        self.ser = None
        self.next_open = 0.0

    @property
    def is_open(self) -> bool:
        return self.ser is not None

    def open_due(self, now: float) -> bool:
        return self.ser is None and now >= self.next_open

    def open(self, now: float) -> None:
        try:
            self.ser = serial.serial_for_url(self.url, baudrate=115200, timeout=0, write_timeout=0.05)
        except (serial.SerialException, OSError, ValueError) as e:
            self.ser = None
            self.next_open = now + RETRY_S
            raise PortError(e) from e

    def attach(self, ser) -> None:
        """Use an object already open that reads and writes like pyserial (tests)."""
        self.ser = ser

    def read(self) -> bytes:
        """What is waiting (b"" if nothing)."""
        try:
            return self.ser.read(min(self.ser.in_waiting, READ_MAX) or 1)
        except (serial.SerialException, OSError) as e:
            raise PortError(e) from e

    def write(self, data: bytes) -> bool:
        """False if the board is not reading (the write timed out): the caller asks again later."""
        try:
            self.ser.write(data)
        except serial.SerialTimeoutException:
            return False
        except (serial.SerialException, OSError) as e:
            raise PortError(e) from e
        return True

    def close(self, now: float) -> None:
        if self.ser is not None:
            try:
                self.ser.close()
            except (serial.SerialException, OSError):
                pass
        self.ser = None
        self.next_open = now + RETRY_S

"""The reference board's hardware (Raspberry Pi Pico): real drivers on the pins of board_config.

``hardware()`` builds the Hardware record the app takes (firmware/hardware.py):
the sensor of board_config.SENSORS, the buttons, the SSD1306 clock display,
the buzzer, the LED chain through a PIO state machine, the link's transport
(board_config.LINK) and the journal's storage (/journal.bin on the littlefs
flash), from firmware/board_config.py, the one place pin numbers live. Only
the device runs this module (it imports ``machine``); tests and the
simulators build the same record from twins (twins/hardware.py).
"""

import binascii

from machine import ADC, I2C, PWM, SPI, UART, Pin, unique_id

from .. import board_config as cfg
from ..hardware import Hardware
from .buttons import Buttons
from .buzzer import Buzzer
from .clock_display import ClockDisplay, Ssd1306
from .pio_strip import PioStrip, state_machine
from .storage import FileStorage

JOURNAL_PATH = "/journal.bin"
HALL_CALIBRATION_PATH = "/hall_calibration.bin"


# Each variant's driver is imported only when the board has it: code costs heap on a Pico.
def _sensor():
    if cfg.SENSORS == "shift":
        from .shift165 import ShiftChain

        spi = SPI(cfg.SR_SPI_ID, baudrate=cfg.SR_BAUD, sck=Pin(cfg.SR_SCK), mosi=Pin(cfg.SR_MOSI),
                  miso=Pin(cfg.SR_MISO))
        return ShiftChain(spi, Pin(cfg.SR_LOAD, Pin.OUT, value=1))
    if cfg.SENSORS == "matrix":
        from .matrix import DiodeMatrix

        return DiodeMatrix(I2C(cfg.MX_I2C_ID, sda=Pin(cfg.MX_SDA), scl=Pin(cfg.MX_SCL)))
    if cfg.SENSORS == "hall":
        from .hall import HallArray

        adcs = [ADC(Pin(p)) for p in cfg.HALL_ADC]
        select1 = [Pin(p, Pin.OUT, value=0) for p in cfg.HALL_SELECT_1]
        select2 = [Pin(p, Pin.OUT, value=0) for p in cfg.HALL_SELECT_2]
        sensor = HallArray(adcs, select1, select2, settle_us=cfg.HALL_SETTLE_US)
        if not sensor.load(HALL_CALIBRATION_PATH):  # kept: a power cut mid-game leaves stones on the board
            sensor.calibrate()  # the first power-up: the board must be empty (hardware/ASSEMBLY.md)
            sensor.save(HALL_CALIBRATION_PATH)
        return sensor
    raise ValueError("unknown SENSORS in board_config: " + cfg.SENSORS)


def _transport():
    if cfg.LINK == "usb":
        from .serial_link import UsbCdc

        return UsbCdc()
    if cfg.LINK == "uart":
        from .serial_link import Uart

        return Uart(UART(cfg.UART_ID, baudrate=cfg.UART_BAUD, tx=Pin(cfg.UART_TX), rx=Pin(cfg.UART_RX)))
    if cfg.LINK == "none":
        return None
    raise ValueError("unknown LINK in board_config: " + cfg.LINK)


def hardware():
    """Every driver of the reference board, on its pins."""
    pins = [Pin(p, Pin.IN, Pin.PULL_UP) for p in (cfg.BUTTON_BLACK, cfg.BUTTON_WHITE, cfg.BUTTON_PAUSE,
                                                   cfg.BUTTON_MENU)]
    display = None
    if cfg.DISPLAY == "ssd1306":
        display = ClockDisplay(Ssd1306(I2C(cfg.DISPLAY_I2C_ID, sda=Pin(cfg.DISPLAY_SDA), scl=Pin(cfg.DISPLAY_SCL))))
    # The PIO state machine sends the LED frame without turning interrupts off
    # (neopixel.write() would stop scanning for ~10.8 ms per frame).
    strip = PioStrip(state_machine(Pin(cfg.LED_PIN)))
    return Hardware(_sensor(), Buttons(pins), display, Buzzer(PWM(Pin(cfg.BUZZER_PIN))), strip, _transport(),
                    FileStorage(JOURNAL_PATH), board_id())


def board_id():
    """The configured name, else "sgb-" and the chip's unique id in hex (the flash chip's
    64-bit id on an RP2040): two boards never share one, and it survives reflashing."""
    return cfg.BOARD_NAME or "sgb-" + binascii.hexlify(unique_id()).decode()

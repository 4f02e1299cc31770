"""The reference board's hardware (Raspberry Pi Pico): real drivers on the pins of board_config.

``hardware()`` builds the Hardware record the app takes (firmware/hardware.py):
the sensor of board_config.SENSORS, the buttons, the SSD1306 clock display,
the buzzer, the LED chain through a PIO state machine, the link's transport
(board_config.LINK) and the journal's storage (board_config.JOURNAL: "flash",
the raw flash log in a reserved littlefs file's blocks, drivers/flashlog.py and
drivers/rp2_region.py; "file", or a flash log that cannot start: /journal.bin
on littlefs), from firmware/board_config.py, the one place pin numbers live; each
part on its own, so one that fails to start is left out and named in the
record's ``faults``, and the board starts without it. Only
the device runs this module (it imports ``machine``); tests and the
simulators build the same record from twins (twins/hardware.py).
"""

import binascii

from machine import ADC, I2C, PWM, SPI, UART, Pin, unique_id

from .. import board_config as cfg
from ..faults import F_BUTTONS, F_BUZZER, F_DISPLAY, F_SENSOR, F_STORAGE, F_STRIP, F_TRANSPORT
from ..hardware import Hardware
from ..micro import ticks_ms
from ..rules.const import call_briefly
from .buttons import Buttons
from .buzzer import Buzzer
from .clock_display import ClockDisplay, Ssd1306
from .pio_strip import PioStrip, dma_channel, state_machine

JOURNAL_PATH = "/journal.bin"
HALL_CALIBRATION_PATH = "/hall_calibration.bin"
_faults = 0  # the parts hardware() could not build (hardware.py's F_* bits)


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
    """Every driver of the reference board, on its pins. A part whose driver raises while it
    is built (a display that does not answer on I2C: OSError 110, ETIMEDOUT) is left out
    (None) and its bit set in ``faults`` (firmware/hardware.py), the console told: the
    board starts without it and says so (firmware/faults.py). A sensor that fails is
    replaced by one that sees nothing: the board starts to say so, and plays nothing."""
    global _faults
    _faults = 0
    storage = _part(F_STORAGE, _storage)  # (first: its power-up mends littlefs before a file is written)
    pins = _part(F_BUTTONS, _pins)
    display = _part(F_DISPLAY, _display) if cfg.DISPLAY == "ssd1306" else None
    strip = _part(F_STRIP, _strip)
    hw = Hardware(_part(F_SENSOR, _sensor) or call_briefly("firmware.faults", "NoSensor"),
                  pins and _part(F_BUTTONS, _buttons, pins), display, _part(F_BUZZER, _buzzer), strip,
                  _part(F_TRANSPORT, _transport), storage, board_id())
    if _faults:
        hw.faults = _faults
    return hw


def _storage():
    # The flash log: one erase per 4 KB of journal (a littlefs file: about one per flush, docs/journal.md).
    if cfg.JOURNAL == "flash":
        try:
            from .flashlog import FlashLog

            return FlashLog(_region())
        except Exception as error:  # noqa: BLE001 - no region (another port, littlefs full...): the file
            print("board: journal on %s: %r" % (JOURNAL_PATH, error))
    from .storage import FileStorage

    return FileStorage(JOURNAL_PATH)


def _region():
    # The flash log's sectors (bench/device's stand-in replaces this on the unix port).
    from .rp2_region import region

    return region()


def _pins():
    return [Pin(p, Pin.IN, Pin.PULL_UP) for p in (cfg.BUTTON_BLACK, cfg.BUTTON_WHITE, cfg.BUTTON_PAUSE,
                                                   cfg.BUTTON_MENU)]


def _buttons(pins):
    # Taps latched by the pins' IRQs, timed by the ticks (drivers/buttons.py): none lost in a long pass.
    return Buttons(pins, clock=ticks_ms)


def _display():
    return ClockDisplay(Ssd1306(I2C(cfg.DISPLAY_I2C_ID, sda=Pin(cfg.DISPLAY_SDA), scl=Pin(cfg.DISPLAY_SCL))))


def _strip():
    # The PIO state machine sends the LED frame without turning interrupts off
    # (neopixel.write() would stop scanning for ~10.8 ms per frame), fed by DMA: the loop does not wait.
    return PioStrip(state_machine(Pin(cfg.LED_PIN)), dma=dma_channel())


def _buzzer():
    return Buzzer(PWM(Pin(cfg.BUZZER_PIN)))


def _part(bit, build, *args):
    # The part build(*args) makes, or None if its driver raised: its bit set in _faults, the console
    # told (on LINK "usb" the host's logger reads the line as a garbled one, and audits it).
    global _faults
    try:
        return build(*args)
    except Exception as error:  # noqa: BLE001 - any error of any driver: the board starts without it
        _faults |= bit
        print("board: no %s: %r" % (call_briefly("firmware.faults", "missing", bit), error))
        return None


def board_id():
    """The configured name, else "sgb-" and the chip's unique id in hex (the flash chip's
    64-bit id on an RP2040): two boards never share one, and it survives reflashing."""
    return cfg.BOARD_NAME or "sgb-" + binascii.hexlify(unique_id()).decode()

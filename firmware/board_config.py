"""The board's hardware configuration: the one place pin numbers live.

Drivers receive ``Pin``/``SPI``/``ADC`` objects built from these numbers by
the application; logic never reads this module's pins. The sensing variants
are alternatives, so their pins may overlap each other, never the rest. The reference design
is a Raspberry Pi Pico (RP2040); hardware/ documents the wiring from this
file, and its tests read it, so the two cannot disagree.
"""

from .micro import const

BOARD = "pico"  # reference target: Raspberry Pi Pico / Pico W (RP2040)

# The board's name on its link and in the recorded games' file names. None: made from
# the chip's unique id ("sgb-e6614c311b6a8b2c"), unique without any set-up. A name
# ("club-t07": letters, digits, "-" and "_") must be unique among a venue's boards.
BOARD_NAME = None
POINTS = const(19)  # intersections per side of the physical board

# Which sensing variant this board is built with:
#   "shift"  - 361 reed or digital Hall switches on 46 x 74HC165 (presence only)
#   "matrix" - reed switches in a 19 x 19 diode matrix behind I/O expanders (presence only)
#   "hall"   - 361 analog Hall sensors (AH49E class) through 74HC4067 muxes (colour by polarity)
SENSORS = "shift"

# Scanner: a point's settled value changes only after its raw reading has
# been the same for this long (docs/sensing.md: a stone slid across points
# must not register on each point it crosses).
SENSE_SETTLE_MS = const(150)

# Where the serial protocol (docs/protocol.md) runs:
#   "usb"  - the USB port (CDC), shared with the REPL: a Ctrl-C from the host
#            (mpremote, make deploy) stops the program and hands the port back
#   "uart" - UART0 on the pins below (a USB-serial adapter; USB keeps the REPL)
#   "none" - no host link
LINK = "usb"

# Where the game journal lives (docs/journal.md):
#   "flash" - a log of its own on raw flash, in the blocks of a reserved littlefs file
#             (/journal.area, 64 KB): one sector erase per 4 KB of journal
#   "file"  - /journal.bin on littlefs: about one sector erase per flush (the fallback when
#             the flash log cannot start)
JOURNAL = "flash"

# UART to a host when USB is not used for the protocol (UART0).
UART_ID = const(0)
UART_TX = const(0)
UART_RX = const(1)
UART_BAUD = 115200

# 74HC165 chain on SPI0 (MISO reads QH of the last chip; SH/LD latches).
SR_SPI_ID = const(0)
SR_SCK = const(2)
SR_MOSI = const(3)  # unused by the 74HC165, required by the SPI peripheral
SR_MISO = const(4)
SR_LOAD = const(5)  # SH/LD, active low
SR_CHIPS = const(46)  # 46 x 8 = 368 inputs for 361 points
SR_BAUD = 4_000_000
SR_CHAIN_ORDER = const(0)  # 0: points 0-7 on the chip nearest MISO; 1: on the far chip
SR_BIT_ORDER = const(0)  # 0: the lowest point of a chip on input A (D0); 1: on input H (D7)

# Diode matrix: rows driven, columns read, through MCP23017 I2C expanders.
MX_I2C_ID = const(0)
MX_SDA = const(8)
MX_SCL = const(9)
MX_ROW_EXPANDERS = (0x20, 0x21)  # 19 row outputs
MX_COL_EXPANDERS = (0x22, 0x23)  # 19 column inputs

# Analog Hall sensors: 23 first-level 74HC4067 (S0-S3 shared) into two
# second-level 74HC4067 (their own S0-S3), read by ADC0 and ADC1.
HALL_SELECT_1 = (6, 7, 8, 9)  # S0..S3 of the first-level muxes
HALL_SELECT_2 = (10, 11, 12, 13)  # S0..S3 of the second-level muxes
HALL_ADC = (26, 27)  # ADC0, ADC1
HALL_SETTLE_US = const(20)  # after switching a mux, before sampling
HALL_ON = const(1200)  # |reading - baseline| (read_u16 counts) that makes a stone
HALL_OFF = const(700)  # ... and below which it is gone (hysteresis: ON > OFF)
HALL_DRIFT_SHIFT = const(6)  # baseline follows quiet empty points by 1/64 of the difference per scan
HALL_CAL_SAMPLES = const(16)  # readings averaged per point by calibrate()

# LEDs: one WS2812B/SK6812 chain, 5 V through a 74AHCT125 level shifter.
LED_PIN = const(16)
LED_COUNT = const(361)
LED_ORDER = "GRB"  # byte order on the wire: "GRB" (WS2812B, SK6812) or "RGB"
LED_BRIGHTNESS = const(96)  # global cap, 0-255, applied before gamma
LED_BUDGET_MA = const(2000)  # the frame is scaled down to stay under this (USB: 2 A; more on a 5 V supply)
LED_CHANNEL_MA = const(12)  # mA of one channel at full scale (WS2812B datasheet: 12 mA per colour)
LED_IDLE_MA = const(1)  # mA per LED when dark (WS2812B quiescent, about 0.7-1 mA)
# Layout of the chain(s) over the board (docs/leds.md): by rows or columns,
# serpentine or straight, the corner where LED 0 sits (0 top-left, 1 top-right,
# 2 bottom-right, 3 bottom-left, seen from the board's row 0 top), the LED grid's
# rotation against the board (0, 90, 180, 270 degrees clockwise), and how many
# chains share the lines (consecutive bands; each chain restarts its serpentine).
LED_BY_ROWS = const(1)  # 1: the chain runs along rows, 0: along columns
LED_SERPENTINE = const(1)  # 1: every other line runs back, 0: all lines run the same way
LED_START_CORNER = const(0)
LED_ROTATION = const(0)
LED_CHAINS = const(1)

# Player and control buttons (to ground, internal pull-ups).
BUTTON_BLACK = const(17)  # Black's clock button
BUTTON_WHITE = const(18)  # White's clock button
BUTTON_PAUSE = const(19)
BUTTON_MENU = const(20)

# Clock display: SSD1306 128x64 OLED on I2C1 (or two TM1637 sharing CLK).
DISPLAY = "ssd1306"
DISPLAY_I2C_ID = const(1)
DISPLAY_SDA = const(14)
DISPLAY_SCL = const(15)
TM1637_CLK = const(14)
TM1637_DIO_BLACK = const(15)
TM1637_DIO_WHITE = const(21)

# Piezo buzzer (PWM).
BUZZER_PIN = const(22)

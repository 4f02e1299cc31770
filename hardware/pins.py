"""The pin map as hardware/ reads it: Pico pin numbers, and every pin-like name in
firmware/board_config.py with the group it belongs to (no skidl import: cheap)."""

import firmware.board_config as cfg

# Raspberry Pi Pico pin numbers (the module's 40 castellated pins).
PICO_GPIO = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15, 12: 16, 13: 17,
             14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29, 26: 31, 27: 32, 28: 34}
PICO_GND = (3, 8, 13, 18, 23, 28, 38)
PICO_AGND, PICO_3V3, PICO_VSYS = 33, 36, 39
PICO_UNUSED = (30, 35, 37, 40)  # RUN, ADC_VREF, 3V3_EN, VBUS: left open

# Pin-like names in board_config and the group each belongs to (see pin_groups).
_PIN_SUFFIXES = ("_PIN", "_TX", "_RX", "_SCK", "_MOSI", "_MISO", "_LOAD", "_SDA", "_SCL", "_CLK")
_PIN_PREFIXES = ("BUTTON_", "HALL_SELECT_", "HALL_ADC", "TM1637_DIO_")
SENSING_GROUPS = {"SR_": "shift", "HALL_": "hall", "MX_": "matrix"}
DISPLAY_GROUPS = {"DISPLAY_": "ssd1306", "TM1637_": "tm1637"}


def is_pin_name(name):
    return name.endswith(_PIN_SUFFIXES) or name.startswith(_PIN_PREFIXES)


def pin_groups(config=cfg):
    """{name: (kind, alternative, (gpio, ...))} for every pin in the config.

    kind is "common", "sensing" or "display"; alternatives of one kind (the
    sensing variants, the two displays) may share GPIOs with each other, never
    with another kind or with the common pins.
    """
    out = {}
    for name in sorted(dir(config)):
        if not name.isupper() or not is_pin_name(name):
            continue
        value = getattr(config, name)
        gpios = tuple(value) if isinstance(value, tuple) else (value,)
        kind, alt = "common", ""
        for prefix, variant in SENSING_GROUPS.items():
            if name.startswith(prefix):
                kind, alt = "sensing", variant
        for prefix, display in DISPLAY_GROUPS.items():
            if name.startswith(prefix):
                kind, alt = "display", display
        out[name] = (kind, alt, gpios)
    return out

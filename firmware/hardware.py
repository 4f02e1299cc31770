"""The hardware interface: what the application needs of a board's parts, in one record.

``Hardware`` is built by firmware/drivers/pico.py on the device (real drivers
on the pins of board_config) and by twins/hardware.py off it (every part a
twin, for the tests and the simulators); the application (firmware/app.py)
never asks which. Every part but the sensor may be None: not fitted.

``sensor``
    The sensing seam (firmware/sensing/scanner.py): ``nbytes``,
    ``bits_per_point`` (1 presence, 2 colour by polarity), ``point_at``
    (array 'H': raw slot -> physical point, 0xFFFF unused) and ``read(buf)``,
    allocation-free; an analog array also has ``baseline`` (its calibration,
    which the sensor check inspects). drivers/shift165.py, matrix.py, hall.py.
``buttons``
    Debounced buttons, in the order black, white, pause, menu
    (drivers/buttons.py): ``poll(now_ms)`` -> the mask of buttons newly
    pressed, ``is_down(i)``, ``bits`` (the mask held down), ``at[i]`` (the
    tick a press began).
``display``
    The clock faces (drivers/clock_display.py): ``update(clock)`` after
    ``clock.snapshot(now_ms)``.
``buzzer``
    The clock's sounds (drivers/buzzer.py): ``play(cue, now_ms)``,
    ``update(now_ms)`` while ``pattern`` (the cue sounding) is not empty;
    never blocks.
``strip``
    The LED chain (drivers/strip.py, pio_strip.py, cp_strip.py):
    ``show(frame)``, a frame of 3 bytes per LED in wire order as
    firmware/leds/composer.py prepares it.
``transport``
    The serial link to a host (drivers/serial_link.py): ``read_into(buf)``
    -> bytes read (0 when nothing waits; never blocks), ``write(data)``.
``storage``
    The game journal's flash (drivers/storage.py): ``read(name)`` -> bytes or
    None, ``reader(name)`` -> it open for reading (``readinto``; closed by ``with``)
    or None, ``write(name, data)`` (append), ``flush(name)``, ``replace(src, dst)`` (src made durable first),
    ``remove(name)``; an OSError is a storage failure (flash full...).
``board_id``
    The board's name on its link and in the logger's file names: a token
    unique among the boards of a venue (drivers/pico.py: board_config's
    ``BOARD_NAME``, else one made from the chip's ``machine.unique_id()``).
``faults``
    The parts the board should have and has not: a mask of firmware/faults.py's
    ``F_*`` bits, one per part above (0: none missing). A part whose driver
    raised while it was built is left out (None) and its bit set
    (drivers/pico.py); one whose I/O fails in play is dropped the same way
    (firmware/faults.py ``lost``). A sensor that failed is replaced by
    faults.py's ``NoSensor``, which sees nothing: the board runs to say so,
    and plays nothing.
"""


class Hardware:
    """One board's parts; see the module doc."""

    faults = 0  # (a class default: a record has its own once a part is missing)

    def __init__(self, sensor, buttons=None, display=None, buzzer=None, strip=None, transport=None, storage=None,
                 board_id="board"):
        self.sensor = sensor
        self.buttons = buttons
        self.display = display
        self.buzzer = buzzer
        self.strip = strip
        self.transport = transport
        self.storage = storage
        self.board_id = board_id

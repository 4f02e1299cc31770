// The smart Go board's parts around the emulated Pico, on the pins of firmware/board_config.py.
//
// attachBoard(pico, cfg) wires models of what drivers/pico.py talks to:
// - ShiftChain: 46 chained 74HC165s on SPI0 (SH/LD on a GPIO): a falling SH/LD latches the
//   switches (`raw`, the bytes the driver reads: byte k = chip k, bit b = input D_b, 1 = stone,
//   set by the test's hands); each SPI byte then shifts the next chip's byte out, taking its
//   8 bit times at the bus's clock on the emulated clock (an instant SPI hangs MicroPython's
//   DMA path for transfers of 32 bytes and more, which the chain's 46-byte read takes);
// - Buttons: inputs driven high (rp2040js 1.4.1 reads an undriven input as 0 even with its
//   pull-up on); press() drives one low, as the button to ground does;
// - Ssd1306: the clock display on I2C, ACKing its address (rp2040js NACKs every address with no
//   device) and keeping its RAM as the commands' windows and the data write it; each byte takes 9 bit
//   times at 400 kHz;
// - LedStrip: the WS2812 chain. rp2040js 1.4.1 steps PIO from setTimeout, unclocked, so PIO is
//   not run (pico.mjs): the words the firmware writes to PIO0's TX FIFO are the LED bytes (the
//   top byte of each word, as drivers/pio_strip.py puts them); every LED_COUNT*3 bytes are a frame.
//   The state machine's pull is modelled on the emulated clock: a word leaves the 4-word FIFO every
//   10 us (8 bits at 800 kHz), so a CPU feeding it waits as on a real chain (10.8 ms a frame) and
//   a DMA channel paced by the FIFO's DREQ is served at the same pace.

export const BOARD = {
  // firmware/board_config.py (tests/host/test_pico.py checks these against it)
  SR_SPI_ID: 0,
  SR_LOAD: 5,
  SR_CHIPS: 46,
  BUTTONS: [17, 18, 19, 20], // black, white, pause, menu
  DISPLAY_I2C_ID: 1,
  DISPLAY_ADDR: 0x3c,
  LED_COUNT: 361,
};

const I2C_BYTE_NS = (9 * 1e9) / 400000;
const WORD_NS = (8 * 1e9) / 800000; // an LED byte on the WS2812 wire: 10 us

export class ShiftChain {
  constructor(pico, { spi, load, chips }) {
    this.raw = new Uint8Array(chips); // the switches as they are now
    this.shift = new Uint8Array(chips); // latched, being shifted out
    this.index = 0;
    this.latches = 0;
    this.bytesRead = 0;
    const port = pico.mcu.spi[spi];
    let pending = 0;
    const alarm = pico.clock.createAlarm(() => port.completeTransmit(pending));
    port.onTransmit = () => {
      pending = this.index < this.shift.length ? this.shift[this.index] : 0; // SER of the last chip: ground
      this.index++;
      this.bytesRead++;
      const bitNs = 1e9 / (port.clockFrequency || 4e6);
      alarm.schedule(8 * bitNs);
    };
    this.lastLatch = 0;
    this.gaps = []; // [emulated ms, gap ms] of every gap of 40 ms and more between two scans
    pico.mcu.gpio[load].addListener((state) => {
      if (state === 0) {
        const now = pico.clock.nanos;
        const gap = (now - this.lastLatch) / 1e6;
        if (this.latches && gap >= 40 && this.gaps.length < 1000) this.gaps.push([now / 1e6, gap]);
        this.lastLatch = now;
        // GPIOPinState.Low: SH/LD low loads every chip's inputs in parallel
        this.shift.set(this.raw);
        this.index = 0;
        this.latches++;
      }
    });
  }
}

export class Buttons {
  constructor(pico, pins) {
    this.pico = pico;
    this.pins = pins;
    for (const pin of pins) pico.pullUp(pin);
  }

  set(index, down) {
    this.pico.mcu.gpio[this.pins[index]].setInputValue(!down);
  }
}

export class Ssd1306 {
  constructor(pico, { i2c, addr }) {
    this.frames = 0;
    this.commands = 0;
    this.last = null; // the display's RAM as last written (1024 bytes, MONO_VLSB pages)
    this.args = null; // a command's bytes while its arguments come
    this.cols = [0, 127]; // the RAM window (0x21, 0x22) and the pointer in it: [column, page]
    this.pages = [0, 7];
    this.at = [0, 0];
    const port = pico.mcu.i2c[i2c];
    let mine = false;
    let bytes = [];
    let next = () => {};
    const alarm = pico.clock.createAlarm(() => next());
    const later = (fn) => {
      next = fn;
      alarm.schedule(I2C_BYTE_NS);
    };
    port.onStart = () => port.completeStart();
    port.onConnect = (address) => {
      mine = address === addr;
      bytes = [];
      later(() => port.completeConnect(mine));
    };
    port.onWriteByte = (value) => {
      bytes.push(value);
      later(() => port.completeWrite(true));
    };
    port.onReadByte = () => later(() => port.completeRead(0)); // status: not busy
    port.onStop = () => {
      if (mine && bytes.length) this.transaction(bytes);
      bytes = [];
      port.completeStop();
    };
  }

  transaction(bytes) {
    if (bytes[0] === 0x40) {
      this.last ??= new Uint8Array(1024);
      for (const b of bytes.slice(1)) this.data(b);
    } else {
      this.commands += bytes[0] === 0x80 ? 1 : bytes.length - 1;
      for (const b of bytes.slice(1)) this.command(b);
    }
  }

  // The controller's RAM pointer in horizontal addressing mode (the driver's): the column and
  // page windows set by 0x21 and 0x22, each written byte advancing the column, then the page;
  // a frame is counted each time a write reaches the end of the window.
  command(b) {
    if (this.args) {
      this.args.push(b);
      if (this.args.length === this.argc) {
        const [op, lo, hi] = this.args;
        if (op === 0x21) this.cols = [lo, hi];
        if (op === 0x22) this.pages = [lo, hi];
        if (op === 0x21 || op === 0x22) this.at = [this.cols[0], this.pages[0]];
        this.args = null;
      }
      return;
    }
    const argc = { 0x21: 3, 0x22: 3, 0x20: 2, 0x81: 2, 0x8d: 2, 0xa8: 2, 0xd3: 2, 0xd5: 2, 0xd9: 2, 0xda: 2, 0xdb: 2 }[b];
    if (argc) {
      this.args = [b];
      this.argc = argc;
    }
  }

  data(b) {
    const [col, page] = this.at;
    this.last[page * 128 + col] = b;
    if (col < this.cols[1]) {
      this.at = [col + 1, page];
    } else if (page < this.pages[1]) {
      this.at = [this.cols[0], page + 1];
    } else {
      this.at = [this.cols[0], this.pages[0]];
      this.frames++;
    }
  }

  /** The last frame as text rows ('#' lit), for a person reading a failure. */
  picture() {
    if (!this.last) return '(no frame)';
    const rows = [];
    for (let y = 0; y < 64; y += 2) {
      let row = '';
      for (let x = 0; x < 128; x++) row += (this.last[(y >> 3) * 128 + x] >> (y & 7)) & 1 ? '#' : '.';
      rows.push(row);
    }
    return rows.join('\n');
  }
}

export class LedStrip {
  constructor(pico, { leds }) {
    this.size = leds * 3;
    this.frame = new Uint8Array(this.size);
    this.at = 0;
    this.frames = 0;
    this.last = null;
    this.words = 0; // words taken from the TX FIFO since power-up
    const machine = pico.mcu.pio[0].machines[0];
    const fifo = machine.txFIFO;
    // The state machine's side of its TX FIFO, on the emulated clock: one word (8 bits at 800 kHz)
    // every WORD_NS while the FIFO holds any, so a CPU feeding it with put() waits for a 4-word
    // FIFO to drain as on a real chain, and a DMA channel paced by its DREQ is served at the wire's
    // pace (rp2040js keeps the DREQ from the FIFO's level).
    const drain = pico.clock.createAlarm(() => {
      if (fifo.empty) return;
      this.take(fifo.pull());
      machine.updateDMATx();
      if (!fifo.empty) drain.schedule(WORD_NS);
    });
    const write = machine.writeFIFO.bind(machine);
    machine.writeFIFO = (value) => {
      const idle = fifo.empty;
      write(value);
      if (idle && !fifo.empty) drain.schedule(WORD_NS);
    };
  }

  take(value) {
    this.words++;
    this.frame[this.at++] = value >>> 24;
    if (this.at === this.size) {
      this.frames++;
      this.last = this.frame.slice();
      this.at = 0;
    }
  }

  /** LEDs lit in the last frame. */
  lit() {
    if (!this.last) return 0;
    let n = 0;
    for (let i = 0; i < this.last.length; i += 3) if (this.last[i] | this.last[i + 1] | this.last[i + 2]) n++;
    return n;
  }
}

/** Every part on `pico`; returns {chain, buttons, display, strip}. */
export function attachBoard(pico, cfg = BOARD) {
  return {
    chain: new ShiftChain(pico, { spi: cfg.SR_SPI_ID, load: cfg.SR_LOAD, chips: cfg.SR_CHIPS }),
    buttons: new Buttons(pico, cfg.BUTTONS),
    display: new Ssd1306(pico, { i2c: cfg.DISPLAY_I2C_ID, addr: cfg.DISPLAY_ADDR }),
    strip: new LedStrip(pico, { leds: cfg.LED_COUNT }),
  };
}

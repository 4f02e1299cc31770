// MicroPython's raw REPL on the emulated Pico's USB serial port, as mpremote speaks it.
//
// enter() interrupts whatever runs (main.py too: the board's link gives Ctrl-C back to the REPL)
// and waits for the raw prompt; exec(code) sends the code, Ctrl-D, and returns {out, err}
// (err: the traceback, '' when none) as the device prints them, calling onOutput with stdout
// bytes as they come. Everything runs on emulated time: timeouts are emulated milliseconds.

const RAW_PROMPT = 'raw REPL; CTRL-B to exit\r\n>';

export class RawRepl {
  constructor(pico, { onOutput = () => {}, onProgress = () => {} } = {}) {
    this.pico = pico;
    this.rx = '';
    this.onOutput = onOutput;
    this.onProgress = onProgress; // called about once a wall second while waiting
    pico.usb.onBytes = (bytes) => {
      this.rx += Buffer.from(bytes).toString('latin1');
    };
  }

  /** Runs the Pico until `pred()` or `ms` emulated milliseconds; true if pred() held. */
  until(pred, ms) {
    const end = this.pico.nanos + ms * 1e6;
    let wall = Date.now();
    while (this.pico.nanos < end) {
      if (this.pico.runUntil(Math.min(end, this.pico.nanos + 50e6), pred)) return true;
      if (Date.now() - wall > 1000) {
        wall = Date.now();
        this.onProgress();
      }
    }
    return pred();
  }

  enter(ms = 20000) {
    if (!this.until(() => this.pico.usb.connected, ms)) throw new Error('the Pico never enumerated on USB');
    for (let attempt = 0; attempt < 5; attempt++) {
      this.rx = '';
      this.pico.usb.send('\r\x03\x03\x01');
      if (this.until(() => this.rx.endsWith(RAW_PROMPT), ms / 5)) return;
    }
    throw new Error(`no raw REPL; the Pico said: ${JSON.stringify(this.rx.slice(-400))}`);
  }

  exec(code, ms = 600000) {
    this.rx = '';
    this.pico.usb.send(Buffer.from(code, 'utf8'));
    this.pico.usb.send('\x04');
    if (!this.until(() => this.rx.length >= 2, 10000) || !this.rx.startsWith('OK')) {
      throw new Error(`raw REPL did not take the code: ${JSON.stringify(this.rx.slice(0, 400))}`);
    }
    let shown = 2;
    const show = () => {
      const end = this.rx.indexOf('\x04', 2);
      const upto = end < 0 ? this.rx.length : end;
      if (upto > shown) {
        this.onOutput(this.rx.slice(shown, upto));
        shown = upto;
      }
      return end >= 0 && this.rx.indexOf('\x04', end + 1) >= 0;
    };
    const done = this.until(show, ms);
    show();
    if (!done) throw new Error(`the script did not finish in ${ms} emulated ms`);
    const first = this.rx.indexOf('\x04', 2);
    const second = this.rx.indexOf('\x04', first + 1);
    return { out: this.rx.slice(2, first), err: this.rx.slice(first + 1, second) };
  }
}

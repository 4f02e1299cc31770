// The USB host at the other end of the Pico's CDC serial port (MicroPython's REPL, the board's link).
//
// rp2040js's USBCDC enumerates the device and carries bytes both ways, but it answers every OUT
// endpoint the device arms with an empty packet 10 µs later: the device re-arms at once, an
// interrupt storm that takes the CPU and skews timing. A real host NAKs until it has bytes to
// send; so does this one: an armed OUT endpoint is remembered and answered only when bytes wait.

import { USBCDC } from 'rp2040js';

export class UsbHost {
  constructor(rp2040) {
    this.cdc = new USBCDC(rp2040.usbCtrl);
    this.usb = rp2040.usbCtrl;
    this.connected = false;
    this.pending = null; // [endpoint, max bytes] the device armed and we NAK
    this.onBytes = () => {}; // device -> host bytes (a Uint8Array)
    this.cdc.onDeviceConnected = () => {
      this.connected = true;
    };
    this.cdc.onSerialData = (buffer) => this.onBytes(buffer);
    const fifo = this.cdc.txFIFO;
    this.usb.onEndpointRead = (endpoint, size) => {
      if (endpoint !== this.cdc.outEndpoint) return;
      if (fifo.empty) {
        this.pending = [endpoint, size];
      } else {
        this.answer(endpoint, size);
      }
    };
    this.queue = []; // bytes beyond the CDC's 512-byte FIFO
  }

  answer(endpoint, size) {
    const fifo = this.cdc.txFIFO;
    const buffer = new Uint8Array(Math.min(size, fifo.itemCount));
    for (let i = 0; i < buffer.length; i++) buffer[i] = fifo.pull();
    this.refill();
    this.usb.endpointReadDone(endpoint, buffer);
  }

  refill() {
    const fifo = this.cdc.txFIFO;
    while (this.queue.length && !fifo.full) fifo.push(this.queue.shift());
  }

  /** Queue host -> device bytes (a string or bytes); delivered as the device asks. */
  send(data) {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
    for (const b of bytes) this.queue.push(b);
    this.refill();
    if (this.pending && !this.cdc.txFIFO.empty) {
      const [endpoint, size] = this.pending;
      this.pending = null;
      this.answer(endpoint, size);
    }
  }

  get waiting() {
    return this.queue.length + this.cdc.txFIFO.itemCount;
  }
}

// An emulated Raspberry Pi Pico running stock MicroPython: rp2040js 1.4.1 plus what it lacks.
//
// new Pico({flash}) boots the bootrom and the flash image (the MicroPython .uf2 written into a
// blank 2 MB chip, and a filesystem image if given); run()/runUntil() execute it on the emulated
// clock (125 MHz, WFI skips to the next alarm); `usb` is the host end of its USB serial port
// (usb_host.mjs), `flashStats` what it did to the flash chip (flash.mjs). A power cut is simply
// dropping a Pico and building a new one from the same `flash` bytes.
//
// What rp2040js 1.4.1 lacks and is supplied here (docs/pico.md has the measurements):
// - flash program/erase (flash.mjs);
// - an undriven input reads 0 even with its pull-up on: pullUp() drives inputs high;
// - PIO state machines step from setTimeout, unclocked: PIO0 is not run; the LED strip model
//   (parts.mjs) takes the words written to its TX FIFO instead;
// - SPI completes a byte at once, which hangs MicroPython's DMA path for 32+ byte transfers:
//   each byte takes its bit time on the emulated clock (parts.mjs, spiTiming);
// - I2C NACKs every address: parts.mjs answers for the board's devices;
// - the demo USB host's empty-packet storm (usb_host.mjs).

import { Simulator } from 'rp2040js';
import { hookFlash } from './flash.mjs';
import { findImages, loadUf2, readBootrom } from './images.mjs';
import { UsbHost } from './usb_host.mjs';

export const FLASH_SIZE = 2 * 1024 * 1024; // the Pico's W25Q16JV
export const CYCLE_NS = 8; // 125 MHz
const MS = 1e6;

/** A blank chip with the firmware written in: the flash a freshly programmed Pico has. */
export function freshFlash(firmware = findImages().firmware) {
  const flash = new Uint8Array(FLASH_SIZE).fill(0xff);
  loadUf2(firmware, flash);
  return flash;
}

export class Pico {
  /** flash: a FLASH_SIZE array (kept: the chip's contents survive this Pico); timedFlash: add
   * the flash chip's erase/program time to the clock. */
  constructor({ flash = freshFlash(), bootrom = findImages().bootrom, timedFlash = true } = {}) {
    // (rp2040js's Simulator only for its clock and chip: this class runs the core itself)
    const sim = new Simulator();
    this.clock = sim.clock;
    const mcu = (this.mcu = sim.rp2040);
    mcu.loadBootrom(readBootrom(bootrom));
    mcu.logger = { debug() {}, info() {}, warn() {}, error: (tag, msg) => this.log(`${tag}: ${msg}`) };
    this.flash = flash;
    mcu.flash.set(flash);
    mcu.flash.fill(0xff, flash.length);
    // the chip array is the emulator's from here: flash bytes() reads it back
    this.flashStats = hookFlash(mcu, this.clock, { timed: timedFlash });
    for (const pio of mcu.pio) pio.run = () => {}; // unclocked PIO: see parts.mjs' LED strip
    this.usb = new UsbHost(mcu);
    this.instructions = 0;
    this.onBreak = null;
    this.logs = [];
    mcu.core.PC = 0x10000000;
  }

  log(text) {
    if (this.logs.length < 100) this.logs.push(text);
  }

  /** The chip's contents now (a copy: what a power cut leaves). */
  flashBytes() {
    return this.mcu.flash.slice(0, FLASH_SIZE);
  }

  get nanos() {
    return this.clock.nanos;
  }

  get ms() {
    return this.clock.nanos / MS;
  }

  /** Drives GPIO `index` as an input pulled high (a button at rest, an open switch). */
  pullUp(index) {
    this.mcu.gpio[index].setInputValue(true);
  }

  /** Runs until the emulated clock reaches `nanos`, or `stop()` returns true (checked every
   * `every` instructions); returns whether stop() ended it. */
  runUntil(nanos, stop = null, every = 20000) {
    const { mcu, clock } = this;
    const core = mcu.core;
    let n = 0;
    while (clock.nanos < nanos) {
      if (core.waiting) {
        // asleep (WFI/WFE): straight to the next alarm, or to `nanos` if none comes before
        const alarm = clock.nextAlarm; // (nanosToNextAlarm says 0 both for "now" and "none")
        if (!alarm || alarm.nanos > nanos) {
          clock.tick(nanos - clock.nanos);
          break;
        }
        clock.tick(alarm.nanos - clock.nanos);
      } else {
        clock.tick(core.executeInstruction() * CYCLE_NS);
        n++;
        if (n >= every) {
          this.instructions += n;
          n = 0;
          if (stop && stop()) return true;
        }
      }
    }
    this.instructions += n;
    return !!(stop && stop());
  }

  /** Runs for `ms` of emulated time (or until stop()). */
  run(ms, stop = null) {
    return this.runUntil(this.clock.nanos + ms * MS, stop);
  }
}

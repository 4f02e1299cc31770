#!/usr/bin/env node
// The whole board, emulated: a Pico running the deployed firmware among its parts, driven in
// lockstep by a test over stdin/stdout (tests/pico/board.py is the Python end).
//
//   node tests/pico/board.mjs
//
// One JSON request a line on stdin, one JSON reply a line on stdout. The emulated clock moves
// only on `run`, so a test decides exactly when each hand acts, in emulated milliseconds since
// the Pico's last power-up:
//   {"op":"boot","fs":IMG}          power up a blank chip with MicroPython and the littlefs image
//   {"op":"boot","flash":FILE}      ... or a saved flash dump
//   {"op":"run","to":MS}            run until MS -> {"ms", "rx": base64 of what the board wrote to USB,
//                                   "scans": the chain's latches since power-up}
//   {"op":"send","data":B64}        bytes from the USB host to the board
//   {"op":"stones","raw":HEX}       the 74HC165 chain's inputs (drivers/shift165.py's raw bytes)
//   {"op":"button","index":I,"down":B}   black, white, pause, menu (board_config's order)
//   {"op":"cut"}                    power cut: the chip's flash kept, a fresh Pico boots from it
//   {"op":"exec","code":PY}         stop main.py (Ctrl-C), run PY at the raw REPL -> {"out", "err"}
//   {"op":"save","path":FILE}       write the flash dump
//   {"op":"stats"}                  figures: emulated ms, instructions, flash counters, frames
//   {"op":"quit"}
// A reply {"error": text} says what went wrong; the process goes on.

import fs from 'node:fs';
import readline from 'node:readline';
import { findImages } from './images.mjs';
import { attachBoard } from './parts.mjs';
import { Pico, freshFlash } from './pico.mjs';
import { RawRepl } from './repl.mjs';

const FS_OFFSET = 0xa0000;
const images = findImages();
let pico = null;
let parts = null;
let rx = [];
let raw = null; // the stones stay on the board through a power cut
const boots = []; // each power-up's flash figures, closed by a cut
const t0 = Date.now();

const byException = {}; // PICO_PROFILE=1: cycles run in each exception (0: thread mode), a diagnostic
function powerUp(flash) {
  pico = new Pico({ flash, bootrom: images.bootrom });
  if (process.env.PICO_PROFILE) {
    const core = pico.mcu.core;
    const execute = core.executeInstruction.bind(core);
    let last = 0;
    core.executeInstruction = () => {
      const cycles = execute();
      const ipsr = core.IPSR;
      byException[ipsr] = (byException[ipsr] || 0) + cycles;
      if (ipsr !== last) {
        const key = 'entries' + ipsr;
        if (ipsr) byException[key] = (byException[key] || 0) + 1;
        last = ipsr;
      }
      return cycles;
    };
  }
  parts = attachBoard(pico);
  if (raw) parts.chain.raw.set(raw);
  rx = [];
  pico.usb.onBytes = (bytes) => rx.push(Buffer.from(bytes));
}

function figures() {
  return {
    ms: pico.ms,
    instructions: pico.instructions,
    wallMs: Date.now() - t0,
    flash: pico.flashStats.toJSON(),
    boots,
    latches: parts.chain.latches,
    scanGaps: parts.chain.gaps,
    displayFrames: parts.display.frames,
    display: parts.display.picture(),
    ledFrames: parts.strip.frames,
    ledsLit: parts.strip.lit(),
    logs: pico.logs,
    byException,
  };
}

const ops = {
  boot({ fs: image, flash }) {
    let bytes;
    if (flash) {
      bytes = new Uint8Array(fs.readFileSync(flash));
    } else {
      bytes = freshFlash(images.firmware);
      if (image) bytes.set(fs.readFileSync(image), FS_OFFSET);
    }
    powerUp(bytes);
    return { ok: true };
  },
  run({ to }) {
    pico.runUntil(to * 1e6);
    const data = Buffer.concat(rx);
    rx = [];
    return { ms: pico.ms, rx: data.toString('base64'), scans: parts.chain.latches };
  },
  send({ data }) {
    pico.usb.send(Buffer.from(data, 'base64'));
    return { ok: true };
  },
  stones({ raw: hex }) {
    raw = Buffer.from(hex, 'hex');
    parts.chain.raw.set(raw);
    return { ok: true };
  },
  button({ index, down }) {
    parts.buttons.set(index, down);
    return { ok: true };
  },
  cut() {
    boots.push({ ms: pico.ms, instructions: pico.instructions, flash: pico.flashStats.toJSON() });
    powerUp(pico.flashBytes());
    return { ok: true };
  },
  exec({ code }) {
    // the raw REPL (Ctrl-C stops main.py): the board's link is the REPL's from here on
    const repl = new RawRepl(pico);
    repl.enter();
    const { out, err } = repl.exec(code);
    return { out, err, ms: pico.ms };
  },
  save({ path }) {
    fs.writeFileSync(path, pico.flashBytes());
    return { ok: true };
  },
  stats() {
    return figures();
  },
  quit() {
    process.exit(0);
  },
};

if (images.missing.length) {
  process.stdout.write(JSON.stringify({ missing: images.missing }) + '\n');
  process.exit(0);
}
process.stdout.write(JSON.stringify({ ready: true }) + '\n');
for await (const line of readline.createInterface({ input: process.stdin })) {
  let reply;
  try {
    const request = JSON.parse(line);
    const op = ops[request.op];
    if (!op) throw new Error(`no op ${request.op}`);
    if (!pico && request.op !== 'boot' && request.op !== 'quit') throw new Error('boot first');
    reply = op(request);
  } catch (error) {
    reply = { error: String(error && error.stack ? error.stack : error) };
  }
  process.stdout.write(JSON.stringify(reply) + '\n');
}

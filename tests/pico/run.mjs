#!/usr/bin/env node
// Run a MicroPython script on the emulated Pico through its raw REPL; print its output.
//
//   node tests/pico/run.mjs [options] script.py
//     --flash FILE       boot from this flash dump (2 MB, from --save-flash); default: a blank chip
//                        with the MicroPython .uf2 written in (its first boot formats the filesystem)
//     --fs IMG           put this littlefs image at flash 0xA0000 (tests/pico/fs_image.py builds
//                        make deploy's layout); main.py in it runs at boot, then is interrupted
//     --save-flash FILE  write the flash as the script left it (boot again from it: --flash)
//     --stats FILE       write the run's figures as JSON (flash erases and pages programmed,
//                        chip time, emulated ms, instructions, wall ms)
//     --timeout MS       emulated milliseconds the script may take (default 600000)
//     --untimed-flash    do not add the flash chip's erase/program time to the emulated clock
//     --board            the board's parts on its pins (parts.mjs: the chain, buttons, display, LEDs)
//
// The script's stdout goes to stdout; a status line (emulated time, instructions, flash
// operations) goes to stderr about every 5 wall seconds and once at the end. Exit status: 0, 1
// when the script raised (its traceback on stderr), 2 on a harness error; 0 with a note when
// the images are missing (tests/pico/images/README.md).

import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { findImages } from './images.mjs';
import { FLASH_SIZE, Pico, freshFlash } from './pico.mjs';
import { attachBoard } from './parts.mjs';
import { RawRepl } from './repl.mjs';

const FS_OFFSET = 0xa0000;

function status(pico, t0) {
  const f = pico.flashStats;
  return (
    `pico: ${(pico.ms / 1000).toFixed(2)} s emulated, ${(pico.instructions / 1e6).toFixed(1)} M instructions, ` +
    `${f.sectorsErased} sectors erased, ${f.pagesProgrammed} pages programmed, ` +
    `${((Date.now() - t0) / 1000).toFixed(1)} s wall`
  );
}

function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      flash: { type: 'string' },
      fs: { type: 'string' },
      'save-flash': { type: 'string' },
      stats: { type: 'string' },
      timeout: { type: 'string', default: '600000' },
      'untimed-flash': { type: 'boolean', default: false },
      board: { type: 'boolean', default: false },
    },
  });
  if (positionals.length !== 1) {
    process.stderr.write('usage: node tests/pico/run.mjs [--flash F] [--fs IMG] [--save-flash F] [--stats F] script.py\n');
    return 2;
  }
  const images = findImages();
  if (images.missing.length) {
    process.stderr.write(`pico: skipped, images missing:\n  ${images.missing.join('\n  ')}\n`);
    return 0;
  }
  const flash = values.flash ? new Uint8Array(fs.readFileSync(values.flash)) : freshFlash(images.firmware);
  if (flash.length !== FLASH_SIZE) throw new Error(`${values.flash}: not a ${FLASH_SIZE}-byte flash dump`);
  if (values.fs) flash.set(fs.readFileSync(values.fs), FS_OFFSET);
  const t0 = Date.now();
  const pico = new Pico({ flash, bootrom: images.bootrom, timedFlash: !values['untimed-flash'] });
  const parts = values.board ? attachBoard(pico) : null;
  let lastStatus = Date.now();
  const repl = new RawRepl(pico, {
    onOutput: (text) => process.stdout.write(Buffer.from(text, 'latin1')),
    onProgress: () => {
      if (Date.now() - lastStatus > 5000) {
        lastStatus = Date.now();
        process.stderr.write(status(pico, t0) + '\n');
      }
    },
  });
  repl.enter();
  const { err } = repl.exec(fs.readFileSync(positionals[0], 'utf8'), Number(values.timeout));
  process.stderr.write(status(pico, t0) + '\n');
  if (values['save-flash']) fs.writeFileSync(values['save-flash'], pico.flashBytes());
  if (values.stats) {
    const figures = { emulatedMs: pico.ms, instructions: pico.instructions, wallMs: Date.now() - t0, flash: pico.flashStats };
    if (parts) figures.ledFrames = parts.strip.frames;
    fs.writeFileSync(values.stats, JSON.stringify(figures, null, 1) + '\n');
  }
  if (err) {
    process.stderr.write(Buffer.from(err, 'latin1'));
    return 1;
  }
  return 0;
}

try {
  process.exitCode = main();
} catch (error) {
  process.stderr.write(`pico: ${error.message}\n`);
  process.exitCode = 2;
}

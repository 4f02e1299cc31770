// Where the emulated Pico's two images are, and how a UF2 file lands in flash.
//
// The images are not this project's source (tests/pico/images/README.md says what they are and
// where to get them): PICO_FIRMWARE / PICO_BOOTROM override the copies in tests/pico/images, and
// findImages() says what is missing instead of failing, so the tier can skip on a machine
// without them.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const IMAGES = path.join(HERE, 'images');
export const FIRMWARE_DEFAULT = path.join(IMAGES, 'RPI_PICO-v1.27.0.uf2');
export const BOOTROM_DEFAULT = path.join(IMAGES, 'rp2040-bootrom-b1.bin');

const HOW = {
  firmware:
    'MicroPython v1.27.0 for the Raspberry Pi Pico: https://micropython.org/download/RPI_PICO/ ' +
    '(the v1.27.0 .uf2), as tests/pico/images/RPI_PICO-v1.27.0.uf2 or PICO_FIRMWARE=/path/file.uf2',
  bootrom:
    'the RP2040 bootrom B1: https://github.com/raspberrypi/pico-bootrom/releases (b1.bin), ' +
    'as tests/pico/images/rp2040-bootrom-b1.bin or PICO_BOOTROM=/path/b1.bin',
};

/** {firmware, bootrom, missing: [lines saying what is missing and how to get it]} */
export function findImages(env = process.env) {
  const firmware = env.PICO_FIRMWARE || FIRMWARE_DEFAULT;
  const bootrom = env.PICO_BOOTROM || BOOTROM_DEFAULT;
  const missing = [];
  if (!fs.existsSync(firmware)) missing.push(`missing ${firmware}: ${HOW.firmware}`);
  if (!fs.existsSync(bootrom)) missing.push(`missing ${bootrom}: ${HOW.bootrom}`);
  return { firmware, bootrom, missing };
}

/** The bootrom file as the 32-bit little-endian words rp2040js takes. */
export function readBootrom(file) {
  const bytes = fs.readFileSync(file);
  return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
}

/** Writes each 512-byte UF2 block's payload (256 bytes for RP2040 images) into `flash`
 * (an array starting at 0x10000000); returns the highest flash offset written. */
export function loadUf2(file, flash) {
  const data = fs.readFileSync(file);
  const view = new DataView(data.buffer, data.byteOffset, data.length);
  let end = 0;
  for (let off = 0; off + 512 <= data.length; off += 512) {
    if (view.getUint32(off, true) !== 0x0a324655 || view.getUint32(off + 4, true) !== 0x9e5d5157) {
      throw new Error(`${file}: not a UF2 block at byte ${off}`);
    }
    const target = view.getUint32(off + 12, true);
    const size = view.getUint32(off + 16, true);
    const at = target - 0x10000000;
    flash.set(data.subarray(off + 32, off + 32 + size), at);
    end = Math.max(end, at + size);
  }
  return end;
}

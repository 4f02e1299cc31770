// Flash writes on the emulated Pico: what rp2040js 1.4.1 lacks, supplied by hooking the bootrom.
//
// rp2040js's SSI (the flash interface) ignores program and erase commands, so a filesystem write
// on its MicroPython would change nothing. The SDK reaches the flash chip through two bootrom
// routines it looks up by code in the ROM's function table: 'RE' flash_range_erase(addr, count,
// block_size, block_cmd) and 'RP' flash_range_program(addr, data, count). Each routine's first
// instruction is replaced by a BKPT; when the core stops on it, the harness does the operation
// on the flash array itself (an erase sets bytes to 0xFF, a program ANDs bits in, as NOR flash
// does), counts it, advances the emulated clock by the chip's time, and returns to the caller.
//
// Time model (W25Q16JV datasheet, typical figures): 45 ms per 4 KB sector erase, 150 ms per
// 64 KB block erase (when the SDK asks for one), 0.4 ms per 256-byte page programmed. The time is
// added with clock.tick() while the core is stopped in the routine, as the real CPU waits for the
// chip's busy bit: timers and alarms fire, ticks_us() moves on by it; the CPU cycles the ROM code
// itself would spend (SPI commands, polling) are not added.

export const SECTOR = 4096;
export const PAGE = 256;
export const BLOCK = 65536;
export const ERASE_SECTOR_NS = 45e6;
export const ERASE_BLOCK_NS = 150e6;
export const PROGRAM_PAGE_NS = 0.4e6;

const BKPT_ERASE = 0x52; // 'R' — our own break codes, chosen to be rare in real code
const BKPT_PROGRAM = 0x50; // 'P'

/** The ROM function table's entry for a two-letter code ('RE'): its thumb address. */
export function romFunction(bootrom, code) {
  const bytes = new Uint8Array(bootrom.buffer, bootrom.byteOffset, bootrom.byteLength);
  const u16 = (a) => bytes[a] | (bytes[a + 1] << 8);
  const want = code.charCodeAt(0) | (code.charCodeAt(1) << 8);
  for (let at = u16(0x14); u16(at) !== 0; at += 4) {
    if (u16(at) === want) return u16(at + 2);
  }
  throw new Error(`bootrom: no function '${code}' in its table`);
}

/** Counters of what the firmware did to the flash chip, and the chip time it cost. */
export class FlashStats {
  constructor() {
    this.eraseCalls = 0;
    this.sectorsErased = 0; // in 4 KB sectors (a 64 KB block counts 16)
    this.programCalls = 0;
    this.pagesProgrammed = 0; // 256-byte pages touched
    this.bytesProgrammed = 0;
    this.chipNanos = 0; // time added to the emulated clock
    this.erasedSectors = new Map(); // sector index -> times erased (wear per sector)
  }

  toJSON() {
    const { erasedSectors, ...rest } = this;
    return { ...rest, chipMs: this.chipNanos / 1e6, maxSectorErases: Math.max(0, ...erasedSectors.values()) };
  }
}

/** Installs the hooks on `rp2040` (bootrom already loaded); returns the FlashStats it fills. */
export function hookFlash(rp2040, clock, { timed = true } = {}) {
  const stats = new FlashStats();
  const rom16 = new Uint16Array(rp2040.bootrom.buffer);
  const erase = romFunction(rp2040.bootrom, 'RE');
  const program = romFunction(rp2040.bootrom, 'RP');
  rom16[(erase & ~1) >> 1] = 0xbe00 | BKPT_ERASE;
  rom16[(program & ~1) >> 1] = 0xbe00 | BKPT_PROGRAM;
  const { flash, core } = rp2040;
  const previous = rp2040.onBreak;

  rp2040.onBreak = (code) => {
    const pc = (core.PC - 2) >>> 0; // the BKPT's own address
    if (code === BKPT_ERASE && pc === (erase & ~1)) {
      const [addr, count, blockSize] = core.registers;
      flash.fill(0xff, addr, addr + count);
      let nanos = 0;
      for (let at = addr; at < addr + count; ) {
        const block = blockSize === BLOCK && at % BLOCK === 0 && at + BLOCK <= addr + count;
        const size = block ? BLOCK : SECTOR;
        nanos += block ? ERASE_BLOCK_NS : ERASE_SECTOR_NS;
        for (let s = at / SECTOR; s < (at + size) / SECTOR; s++) {
          stats.erasedSectors.set(s, (stats.erasedSectors.get(s) || 0) + 1);
        }
        stats.sectorsErased += size / SECTOR;
        at += size;
      }
      stats.eraseCalls++;
      finish(nanos);
    } else if (code === BKPT_PROGRAM && pc === (program & ~1)) {
      const [addr, data, count] = core.registers;
      for (let i = 0; i < count; i++) flash[addr + i] &= rp2040.readUint8(data + i);
      const pages = count ? Math.floor((addr + count - 1) / PAGE) - Math.floor(addr / PAGE) + 1 : 0;
      stats.programCalls++;
      stats.pagesProgrammed += pages;
      stats.bytesProgrammed += count;
      finish(pages * PROGRAM_PAGE_NS);
    } else {
      previous(code);
    }
  };

  function finish(nanos) {
    core.PC = core.LR & ~1; // return as `bx lr` would
    if (timed && nanos) {
      stats.chipNanos += nanos;
      clock.tick(nanos);
    }
  }
  return stats;
}

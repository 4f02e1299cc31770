// A simulated board: the MicroPython WebAssembly REPL on stdin/stdout, byte for byte.
//
//   python tests/mp/pty_board.py      (gives it a pty: a serial port mpremote can open)
//
// The board, its filesystem included, lives until the process ends, so several mpremote runs
// see the same files. Where the port differs from a real board, the bridge makes it answer as
// one:
// - Soft reset (Ctrl-D in the raw REPL, which mpremote sends on connect): a fresh interpreter
//   on the same filesystem, "MPY: soft reboot", back to the raw REPL. /main.py is not run (a
//   real board does not run it after a raw-REPL soft reset either).
// - Raw-paste mode is broken in this port's event-driven REPL (it ends the paste at once and
//   then hangs): the bridge does it itself (window, flow control, end acknowledged) and hands
//   the pasted code to the plain raw REPL.
// - OSError numbers are Emscripten's (ENOENT is 44): a traceback's "OSError: 44" is shown as
//   "OSError: [Errno 2] ENOENT", which mpremote needs to tell "no such file" from a failure.
// There is no `machine` module, so no machine.reset().
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const SKIP = new Set(["/dev", "/proc"]);
const RAW_PASTE = [0x05, 0x41, 0x01]; // Ctrl-E "A" Ctrl-A
const ERRNO = { 20: [17, "EEXIST"], 28: [22, "EINVAL"], 31: [21, "EISDIR"], 44: [2, "ENOENT"], 54: [20, "ENOTDIR"], 55: [39, "ENOTEMPTY"] };

let out = []; // REPL output not yet sent
let raw = false; // the REPL mode, followed from the Ctrl-A / Ctrl-B bytes the host sends
let held = []; // the start of a raw-paste request, not yet given to the REPL
let paste = null; // the code of a raw paste being received
const WINDOW = 512;

async function boot() {
  const mp = await loadMicroPython({ stdout: (bytes) => out.push(...bytes), linebuffer: false });
  mp.replInit();
  return mp;
}

function copyFiles(from, to, dir = "/") {
  for (const name of from.readdir(dir)) {
    const path = (dir === "/" ? "" : dir) + "/" + name;
    if (name === "." || name === ".." || SKIP.has(path)) continue;
    if (from.isDir(from.stat(path).mode)) {
      if (!to.analyzePath(path).exists) to.mkdir(path);
      copyFiles(from, to, path);
    } else {
      to.writeFile(path, from.readFile(path));
    }
  }
}

async function softReset(old) {
  const before = out;
  out = [];
  const mp = await boot();
  copyFiles(old.FS, mp.FS);
  if (raw) mp.replProcessChar(0x01);
  out = before; // the fresh REPL's banner is not part of a soft reset's output
  out.push(...Buffer.from("MPY: soft reboot\r\n" + (raw ? "raw REPL; CTRL-B to exit\r\n>" : ">>> ")));
  return mp;
}

function flush() {
  const text = Buffer.from(out).toString("latin1");
  out = [];
  const shown = text.replace(/OSError: (\d+)\r?\n/g, (line, n) =>
    ERRNO[n] ? `OSError: [Errno ${ERRNO[n][0]}] ${ERRNO[n][1]}\r\n` : line,
  );
  process.stdout.write(Buffer.from(shown, "latin1"));
}

let mp = await boot();
out = [];

async function feed(byte) {
  if (paste !== null) {
    pasted(byte);
    return;
  }
  if (byte === 0x01 && held.length === 0) raw = true;
  if (byte === 0x02) raw = false;
  if (raw && byte === RAW_PASTE[held.length]) {
    held.push(byte);
    if (held.length === RAW_PASTE.length) {
      held = [];
      paste = [];
      out.push(...Buffer.from("R\x01"), WINDOW & 0xff, WINDOW >> 8);
    }
    return;
  }
  for (const b of [...held.splice(0), byte]) {
    if (mp.replProcessChar(b)) mp = await softReset(mp);
  }
}

function pasted(byte) {
  if (byte !== 0x04) {
    paste.push(byte);
    if (paste.length % WINDOW === 0) out.push(0x01); // room for another window
    return;
  }
  out.push(0x04); // end of data acknowledged; the raw REPL's "OK" is not part of raw paste
  const start = out.length;
  for (const b of [...paste, 0x04]) mp.replProcessChar(b);
  out.splice(start, 2);
  paste = null;
}

let queue = Promise.resolve();
process.stdin.on("data", (data) => {
  queue = queue.then(async () => {
    for (const byte of data) await feed(byte);
    flush();
  });
});

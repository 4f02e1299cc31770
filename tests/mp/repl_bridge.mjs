// A simulated board for mpremote: the MicroPython WebAssembly REPL served on a TCP port.
//
//   node tests/mp/repl_bridge.mjs [port]      (port 0 or none: any free port)
//
// Prints "socket://127.0.0.1:PORT" once listening; mpremote (pyserial) opens that URL as a
// serial device. One client at a time; the board, its filesystem included, lives until the
// process ends, so several mpremote runs see the same files. Where the port differs from a
// real board, the bridge makes it answer as one:
// - Soft reset (Ctrl-D in the raw REPL, which mpremote sends on connect): a fresh interpreter
//   on the same filesystem, "MPY: soft reboot", back to the raw REPL. /main.py is not run (a
//   real board does not run it after a raw-REPL soft reset either).
// - Raw-paste mode is broken in this port's event-driven REPL (it ends the paste at once and
//   then hangs): the request is answered "not supported", so mpremote uses the plain raw REPL.
// - OSError numbers are Emscripten's (ENOENT is 44): a traceback's "OSError: 44" is shown as
//   "OSError: [Errno 2] ENOENT", which mpremote needs to tell "no such file" from a failure.
// There is no `machine` module, so no machine.reset().
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import { createServer } from "node:net";

const SKIP = new Set(["/dev", "/proc"]);
const RAW_PASTE = [0x05, 0x41, 0x01]; // Ctrl-E "A" Ctrl-A
const ERRNO = { 20: [17, "EEXIST"], 28: [22, "EINVAL"], 31: [21, "EISDIR"], 44: [2, "ENOENT"], 54: [20, "ENOTDIR"], 55: [39, "ENOTEMPTY"] };

let client = null;
let out = []; // REPL output not yet sent
let raw = false; // the REPL mode, followed from the Ctrl-A / Ctrl-B bytes the client sends
let held = []; // the start of a raw-paste request, not yet given to the REPL

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
  client?.write(Buffer.from(shown, "latin1"));
}

let mp = await boot();
out = [];

async function feed(byte) {
  if (byte === 0x01 && held.length === 0) raw = true;
  if (byte === 0x02) raw = false;
  if (raw && byte === RAW_PASTE[held.length]) {
    held.push(byte);
    if (held.length === RAW_PASTE.length) {
      held = [];
      out.push(...Buffer.from("R\x00"));
    }
    return;
  }
  for (const b of [...held.splice(0), byte]) {
    if (mp.replProcessChar(b)) mp = await softReset(mp);
  }
}

let queue = Promise.resolve();
const server = createServer((socket) => {
  if (client) {
    socket.destroy();
    return;
  }
  client = socket;
  socket.on("data", (data) => {
    queue = queue.then(async () => {
      for (const byte of data) await feed(byte);
      flush();
    });
  });
  socket.on("close", () => {
    if (client === socket) client = null;
  });
  socket.on("error", () => {});
});
server.listen(Number(process.argv[2] ?? 0), "127.0.0.1", () => {
  console.log(`socket://127.0.0.1:${server.address().port}`);
});

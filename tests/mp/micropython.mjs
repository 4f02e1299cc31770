// Real MicroPython (the WebAssembly port from npm) with the project's files in its filesystem.
//
// firmware/ is copied to /lib/firmware (as on the device), twins/ (the simulated parts, never
// deployed) to /lib/twins, host_tools/board/ (the board's code only the host runs, which the
// tests use) to /lib/host_tools/board, tests/firmware and tests/data to /tests/firmware and
// /tests/data, bench/ to /bench. Python exceptions reach JS as
// errors with .type and .message (the traceback).
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

function copyTree(mp, from, to, keep) {
  mp.FS.mkdir(to);
  for (const name of readdirSync(from).sort()) {
    const src = join(from, name);
    const dst = to + "/" + name;
    if (statSync(src).isDirectory()) {
      if (name !== "__pycache__") copyTree(mp, src, dst, keep);
    } else if (keep(name)) {
      mp.FS.writeFile(dst, readFileSync(src));
    }
  }
}

export async function loadBoard({ heapsize = 8 * 1024 * 1024, quiet = false } = {}) {
  const out = [];
  const mp = await loadMicroPython({
    heapsize,
    stdout: (line) => (quiet ? out.push(line) : console.log(line)),
    stderr: (line) => console.error(line),
  });
  const isPy = (name) => name.endsWith(".py");
  mp.FS.mkdir("/lib");
  copyTree(mp, join(ROOT, "firmware"), "/lib/firmware", isPy);
  copyTree(mp, join(ROOT, "twins"), "/lib/twins", isPy);
  mp.FS.mkdir("/lib/host_tools");
  mp.FS.writeFile("/lib/host_tools/__init__.py", readFileSync(join(ROOT, "host_tools", "__init__.py")));
  copyTree(mp, join(ROOT, "host_tools", "board"), "/lib/host_tools/board", isPy);
  mp.FS.mkdir("/tests");
  copyTree(mp, join(ROOT, "tests", "firmware"), "/tests/firmware", isPy);
  copyTree(mp, join(ROOT, "tests", "data"), "/tests/data", (n) => !n.endsWith(".sgf"));
  copyTree(mp, join(ROOT, "bench"), "/bench", isPy);
  mp.runPython("import sys\nsys.path.append('/tests/firmware')\nsys.path.append('/bench')");
  mp.output = out;
  return mp;
}

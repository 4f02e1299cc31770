// Benchmarks under real MicroPython (WebAssembly port): every bench/mp_*.py module's STEPS,
// each snippet in its own runPython call. `make bench` prints the REPORT lines.
//
//   node bench/mp_bench.mjs [module-name-substring ...]
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { loadBoard, ROOT } from "../tests/mp/micropython.mjs";

const filters = process.argv.slice(2);
const modules = readdirSync(join(ROOT, "bench"))
  .filter((n) => /^mp_.*\.py$/.test(n))
  .map((n) => n.slice(0, -3))
  .filter((m) => filters.length === 0 || filters.some((f) => m.includes(f)))
  .sort();

for (const mod of modules) {
  const mp = await loadBoard({ quiet: true, heapsize: 2 * 1024 * 1024 });
  mp.runPython(`import ${mod}\nprint(len(${mod}.STEPS))`);
  const steps = Number(mp.output.pop());
  console.log(`BENCH ${mod}`);
  for (let i = 0; i < steps; i++) {
    mp.output.length = 0;
    if (process.env.BENCH_TRACE) console.error(`step ${i}`);
    try {
      mp.runPython(`exec(${mod}.STEPS[${i}])`);
    } catch (e) {
      console.log(`FAIL ${mod} step ${i}: ${e.message ?? e}`);  // the Python traceback
      process.exit(1);
    }
    for (const line of mp.output) console.log(line);
  }
}

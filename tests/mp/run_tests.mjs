// Run the firmware test suite (tests/firmware/test_*.py) under real MicroPython.
// Every function named test_* runs in its own runPython call; any Python exception
// is a failure. Exit status 1 if anything failed.
//
//   node tests/mp/run_tests.mjs [module-name-substring ...]
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { loadBoard, ROOT } from "./micropython.mjs";

const filters = process.argv.slice(2);
const modules = readdirSync(join(ROOT, "tests", "firmware"))
  .filter((n) => /^test_.*\.py$/.test(n))
  .map((n) => n.slice(0, -3))
  .filter((m) => filters.length === 0 || filters.some((f) => m.includes(f)))
  .sort();

const mp = await loadBoard({ quiet: true });
let passed = 0;
const failed = [];
const started = Date.now();
for (const mod of modules) {
  mp.output.length = 0;
  mp.runPython(`import ${mod}\n_names = [n for n in dir(${mod}) if n.startswith('test_')]\n_names.sort()\nprint(' '.join(_names))`);
  const names = mp.output.join("").trim().split(/\s+/).filter(Boolean);
  for (const name of names) {
    const t0 = Date.now();
    mp.output.length = 0;
    try {
      mp.runPython(`${mod}.${name}()`);
      passed += 1;
      console.log(`PASS ${mod}.${name} (${Date.now() - t0} ms)`);
    } catch (e) {
      failed.push(`${mod}.${name}`);
      console.log(`FAIL ${mod}.${name}\n${mp.output.join("\n")}\n${e.message ?? e}`);
    }
  }
}
const secs = ((Date.now() - started) / 1000).toFixed(1);
console.log(`\nMicroPython: ${passed} passed, ${failed.length} failed in ${secs} s`);
if (failed.length) {
  console.log("failed: " + failed.join(", "));
  process.exit(1);
}
if (passed === 0) {
  console.log("no tests ran");
  process.exit(1);
}

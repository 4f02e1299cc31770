// Rules-core figures under real MicroPython (WebAssembly port): speed, allocation, retained heap.
// Prints RESULT {json} lines; bench/run.py formats them.
import { loadBoard } from "../tests/mp/micropython.mjs";

const mp = await loadBoard();
mp.runPython("import rules_bench, gc");
for (const rules of ["japanese", "tromp-taylor", "op"]) {
  mp.runPython(`rules_bench.speed(${JSON.stringify(rules)})`);
  mp.runPython(`rules_bench.allocation(${JSON.stringify(rules)})`);
}
for (const rules of ["japanese", "chinese", "op"]) {
  mp.runPython(`rules_bench.scoring(${JSON.stringify(rules)})`);
}
// Retained heap: measured across runPython calls, after a collection.
mp.runPython("gc.collect(); _base = gc.mem_alloc()");
mp.runPython("_game = rules_bench.long_game(400)");
mp.runPython(
  "gc.collect(); rules_bench._emit(kind='retained', moves=_game.move_number, bytes=gc.mem_alloc() - _base)"
);
mp.runPython("from firmware.rules.position import ZOBRIST; rules_bench._emit(kind='tables', bytes=len(ZOBRIST) * 4)");

// One game between two GTP engines, driven by Sabaki's own GTP controller (@sabaki/gtp):
//   node tests/tools/gtp_match.mjs --size 9 --komi 7 --black "CMD ARGS" --white "CMD ARGS" [--sgf-from black|white]
// Each engine is told the other's moves; the game ends at two passes in a row, a resignation or
// --max-moves. Prints one JSON line: the moves, each engine's final_score and dead stones, the
// milliseconds each play took to answer per engine, (--sgf-from) that engine's printsgf, and each
// engine's stderr lines.
import {Controller} from "@sabaki/gtp";

const opts = {size: "9", komi: "7", "max-moves": "400"};
for (let i = 2; i < process.argv.length; i += 2) opts[process.argv[i].replace(/^--/, "")] = process.argv[i + 1];

function start(line) {
  // (words split as a shell would, "..." and '...' kept whole: an engine's own engine command)
  const words = line.match(/(?:[^\s"']+|"[^"]*"|'[^']*')+/g).map((w) => w.replace(/^["']|["']$/g, ""));
  const engine = new Controller(words[0], words.slice(1));
  engine.start();
  return engine;
}

async function ask(engine, name, args = []) {
  const response = await engine.sendCommand({name, args});
  if (response.error) throw new Error(`${name} ${args.join(" ")}: ${response.content}`);
  return response.content.trim();
}

const engines = {B: start(opts.black), W: start(opts.white)};
const stderr = {B: [], W: []};
for (const side of ["B", "W"]) engines[side].on("stderr", ({content}) => stderr[side].push(content));
const playMs = {B: [], W: []};
const moves = [];
let result = null;
try {
  for (const colour of ["B", "W"]) {
    await ask(engines[colour], "boardsize", [opts.size]);
    await ask(engines[colour], "clear_board");
    await ask(engines[colour], "komi", [opts.komi]);
  }
  let colour = "B";
  let passes = 0;
  while (moves.length < Number(opts["max-moves"])) {
    const move = (await ask(engines[colour], "genmove", [colour])).toUpperCase();
    if (move === "RESIGN") {
      result = (colour === "B" ? "W" : "B") + "+R";
      break;
    }
    moves.push(colour + " " + move);
    const other = colour === "B" ? "W" : "B";
    const t0 = Date.now();
    await ask(engines[other], "play", [colour, move]);
    playMs[other].push(Date.now() - t0);
    passes = move === "PASS" ? passes + 1 : 0;
    if (passes === 2) break;
    colour = other;
  }
  const out = {moves, result, playMs, score: {}, dead: {}};
  for (const side of ["B", "W"]) {
    out.score[side] = result || (await ask(engines[side], "final_score"));
    out.dead[side] = result ? [] : (await ask(engines[side], "final_status_list", ["dead"])).split(/\s+/).filter(Boolean);
  }
  if (opts["sgf-from"]) out.sgf = await ask(engines[opts["sgf-from"] === "black" ? "B" : "W"], "printsgf");
  for (const engine of Object.values(engines)) await ask(engine, "quit");
  await new Promise((done) => setTimeout(done, 300));  // (their last words on stderr)
  out.stderr = stderr;
  console.log(JSON.stringify(out));
} catch (error) {
  console.log(JSON.stringify({moves, error: String(error.message || error)}));
  process.exitCode = 1;
} finally {
  for (const engine of Object.values(engines)) {
    try { await engine.stop(); } catch (e) { /* gone already */ }
  }
}

// The simulator page: draws the board the server streams (/events) and sends hands and buttons (/api/...).
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const COLUMNS = "ABCDEFGHJKLMNOPQRST";
// The customary star points: 9 on 19x19, 5 on 13x13 and 9x9 (the 4-4 or 3-3 points and the centre).
const STARS = {
  19: [3, 9, 15].flatMap((r) => [3, 9, 15].map((c) => [r, c])),
  13: [[3, 3], [3, 9], [9, 3], [9, 9], [6, 6]],
  9: [[2, 2], [2, 6], [6, 2], [6, 6], [4, 4]],
};
const SMALL_MARKS = new Set(["territory", "dame", "seki"]);  // the count: small squares, the lines stay readable
const board = document.getElementById("board");
const points = [];  // per physical point: {group, led, stone}
let regionKey = "";
let state = null;

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function gradient(defs, id, inner, outer) {
  const g = el("radialGradient", { id, cx: "35%", cy: "30%", r: "70%" }, defs);
  el("stop", { offset: "0%", "stop-color": inner }, g);
  el("stop", { offset: "100%", "stop-color": outer }, g);
}

function buildBoard() {
  const defs = el("defs", {}, board);
  gradient(defs, "black-stone", "#555", "#000");
  gradient(defs, "white-stone", "#fff", "#c8c8c8");
  const glow = el("filter", { id: "glow", x: "-50%", y: "-50%", width: "200%", height: "200%" }, defs);
  el("feGaussianBlur", { stdDeviation: "0.12" }, glow);
  el("g", { id: "region" }, board);
  const lines = el("g", {}, board);
  for (let i = 1; i <= 19; i++) {
    el("line", { class: "line", x1: 1, y1: i, x2: 19, y2: i }, lines);
    el("line", { class: "line", x1: i, y1: 1, x2: i, y2: 19 }, lines);
  }
  el("g", { id: "stars" }, board);
  el("g", { id: "labels" }, board);
  for (let p = 0; p < 361; p++) {
    const x = (p % 19) + 1, y = Math.floor(p / 19) + 1;
    const group = el("g", { class: "point", "data-p": p }, board);
    const led = el("circle", { class: "led", cx: x, cy: y, r: 0.58, filter: "url(#glow)" }, group);
    const stone = el("circle", { cx: x, cy: y, r: 0.44, visibility: "hidden" }, group);
    el("rect", { class: "hit", x: x - 0.5, y: y - 0.5, width: 1, height: 1 }, group);
    const title = el("title", {}, group);
    group.addEventListener("click", () => chosenColour() === "look"
      ? post("/api/liberties", { p })  // a look, not a touch: the board lights the chain's liberties
      : post("/api/point", { p, colour: chosenColour() }));
    points.push({ group, led, stone, title });
  }
}

function drawRegion(top, left, size) {
  const key = `${top},${left},${size}`;
  if (key === regionKey) return;
  regionKey = key;
  for (const id of ["region", "stars", "labels"]) document.getElementById(id).replaceChildren();
  if (size < 19) {
    el("rect", { class: "region", x: left + 0.5, y: top + 0.5, width: size, height: size, rx: 0.2 },
       document.getElementById("region"));
  }
  const stars = document.getElementById("stars");
  for (const [r, c] of STARS[size] || []) el("circle", { class: "star", cx: left + c + 1, cy: top + r + 1, r: 0.1 }, stars);
  const labels = document.getElementById("labels");
  for (let i = 0; i < size; i++) {
    const x = left + i + 1, y = top + i + 1;
    const col = COLUMNS[i], row = String(size - i);
    if (size === 19) {
      el("text", { class: "label", x, y: 0.45 }, labels).textContent = col;
      el("text", { class: "label", x, y: 19.55 }, labels).textContent = col;
      el("text", { class: "label", x: 0.4, y }, labels).textContent = row;
      el("text", { class: "label", x: 19.6, y }, labels).textContent = row;
    } else {
      el("text", { class: "label edge", x, y: top + 0.4 }, labels).textContent = col;
      el("text", { class: "label edge", x: left + 0.4, y }, labels).textContent = row;
    }
  }
  for (let p = 0; p < 361; p++) {
    const r = Math.floor(p / 19) - top, c = (p % 19) - left;
    const inside = r >= 0 && c >= 0 && r < size && c < size;
    if (inside) points[p].group.setAttribute("data-vertex", COLUMNS[c] + (size - r));
    else points[p].group.removeAttribute("data-vertex");
  }
}

function render(s) {
  state = s;
  drawRegion(s.region[0], s.region[1], s.region[2]);
  for (let p = 0; p < 361; p++) {
    const pt = points[p];
    const stone = s.stones[p];
    pt.stone.setAttribute("visibility", stone === "." ? "hidden" : "visible");
    pt.stone.setAttribute("class", stone === "b" ? "black" : stone === "w" ? "white" : "");
    const led = s.leds.length ? s.leds[p] : "";
    pt.led.setAttribute("class", (led ? "led on" : "led") + (SMALL_MARKS.has(s.marks[p]) ? " small" : ""));
    pt.led.setAttribute("r", SMALL_MARKS.has(s.marks[p]) ? 0.22 : 0.58);
    // The server sends each LED as the page draws it (its hue at full strength: the LED frame is dim on
    // purpose), the legend's swatches too (host_tools/sim/legend.py drawn).
    if (led) pt.led.setAttribute("fill", "#" + led);
    pt.group.setAttribute("data-stone", stone);
    pt.group.setAttribute("data-led", led);
    pt.group.setAttribute("data-mark", s.marks[p]);
    const vertex = pt.group.getAttribute("data-vertex") || "outside the game";
    pt.title.textContent = vertex + (s.marks[p] ? " — " + s.marks[p].replace("_", " ") : "");
  }
  const message = document.getElementById("message");
  message.textContent = s.confirm || s.message;
  // Red when something must be fixed or confirmed (not for counting's calm "lift the dead stones").
  const fix = ["sync", "reject"].includes(s.state) || /^(remove|not accepted|the board is off|K?\w+\d+: not a)/.test(s.message)
    || /stuck|clear the board|dead \(never/.test(s.message);
  message.className = s.confirm || fix ? "alert" : "";
  text("info-rules", `${s.rules}, ${s.size}×${s.size}, komi ${s.komi}` + (s.handicap ? `, handicap ${s.handicap}` : ""));
  text("info-moves", s.result ? String(s.moves) : `${s.moves} (${s.to_move} to play)`);
  // After a count a side's prisoners include the dead stones it took off, as the count has them.
  const dead = ["black", "white"].map((side, i) => (s.dead_taken[i] ? `${side} ${s.dead_taken[i]}` : "")).filter(Boolean);
  text("info-captures", `black ${s.captures[0]}, white ${s.captures[1]}`
    + (dead.length ? ` (dead stones included: ${dead.join(", ")})` : ""));
  text("info-result", s.result ? `${s.result_words} (${s.result})` : "–");
  text("info-sgf", s.sgf || "–");
  document.getElementById("mode").value = s.mode;
  document.getElementById("sensing").textContent = s.polarity
    ? "polarity sensors: the board reads each stone's colour"
    : "presence sensors: the board sees stones, not colours";
  renderClock(s.clock);
  text("display-words", s.display_words ? "Clock display: " + s.display_words : "");
  renderLegend(s.legend);
  const diag = document.getElementById("diag");
  diag.textContent = s.diagnostics ? "Leave sensor check" : "Sensor check";
  diag.dataset.on = s.diagnostics ? "1" : "";
  const power = document.getElementById("power");
  power.textContent = s.powered ? "Unplug" : "Plug in";
  power.dataset.on = s.powered ? "1" : "";
  document.body.dataset.powered = s.powered ? "1" : "0";
  document.body.dataset.moves = s.moves;
  document.body.dataset.state = s.state;
  const log = document.getElementById("log");
  const atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
  log.textContent = s.log.join("\n");
  if (atEnd) log.scrollTop = log.scrollHeight;
}

function renderClock(clock) {
  for (const side of ["black", "white"]) {
    const face = document.getElementById("clock-" + side);
    if (!clock || !state.powered) {
      face.querySelector(".time").textContent = clock ? "" : "no clock";
      face.querySelector(".extra").textContent = clock ? "" : "press = pass / end of move";
      face.className = "face";
      continue;
    }
    // The device's display, as text: "B 29:58 3 ot *" (time, periods or stones, overtime, running).
    const words = clock[side].split(/\s+/).slice(1).filter((w) => w !== "*" && w !== "=");
    face.querySelector(".time").textContent = words[0] || "";
    const periods = /^(byoyomi|tv|ing)/.test(clock.spec) ? " periods" : /^canadian/.test(clock.spec) ? " stones" : "";
    face.querySelector(".extra").textContent = words.slice(1)
      .map((w) => (/^\d+$/.test(w) ? w + periods : { ot: "overtime", LAST: "last period", FLAG: "flag fell" }[w] || w))
      .join(" · ");
    face.className = "face" + (clock.running === side ? " running" : "") + (clock.paused ? " paused" : "")
      + (clock.flag === side[0].toUpperCase() ? " flag" : "");
    face.dataset.time = words[0] || "";
  }
}

let legendKey = "";
function renderLegend(rows) {
  const key = JSON.stringify(rows);
  if (key === legendKey) return;
  legendKey = key;
  const list = document.getElementById("legend-list");
  list.replaceChildren();
  for (const row of rows) {
    const item = document.createElement("li");
    item.dataset.kind = row.kind;
    item.className = row.now ? "now" : "";
    const swatch = document.createElement("span");
    swatch.className = "swatch" + (row.blinks ? " blinks" : "") + (SMALL_MARKS.has(row.kind) ? " small" : "");
    swatch.style.background = row.colour === row.colour_white ? row.colour
      : `linear-gradient(90deg, ${row.colour} 50%, ${row.colour_white} 50%)`;
    item.append(swatch, `${row.kind.replace("_", " ")}${row.blinks ? " (blinks)" : ""}: ${row.meaning}`);
    list.appendChild(item);
  }
}

function inGame() {
  return state && !state.result && (state.moves > 0 || (state.clock && state.clock.running));
}

function text(id, value) {
  document.getElementById(id).textContent = value;
}

function chosenColour() {
  const value = document.querySelector('input[name="colour"]:checked').value;
  return value === "look" ? value : Number(value);
}

let errorTimer = 0;
async function post(path, body) {
  let answer;
  try {
    const response = await fetch(path, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    answer = await response.json();
  } catch (e) {
    answer = { ok: false, error: "the simulator does not answer (stopped?)" };
  }
  const box = document.getElementById("error");
  box.textContent = answer.ok ? "" : answer.error;
  clearTimeout(errorTimer);
  if (!answer.ok) errorTimer = setTimeout(() => (box.textContent = ""), 6000);
  return answer;
}

async function setupForms() {
  const options = await (await fetch("/options")).json();
  const mode = document.getElementById("mode");
  for (const m of options.modes) mode.appendChild(new Option(m, m));
  mode.addEventListener("change", async () => {
    // During a game the mode is the players' joint decision, or a tournament referee's.
    const body = { mode: mode.value };
    if (inGame() && mode.value !== state.mode) {
      const question = state.mode === "tournament"
        ? "Only the referee changes a tournament game's mode. Change it to " + mode.value + " as the referee?"
        : "A game is in progress. Do both players agree to switch to " + mode.value + " mode?";
      if (!window.confirm(question)) { mode.value = state.mode; return; }
      body.by = state.mode === "tournament" ? "referee" : "agreed";
    }
    const answer = await post("/api/mode", body);
    if (!answer.ok) mode.value = state.mode;
  });
  const teach = document.getElementById("teach-form");
  document.getElementById("teaching").hidden = !options.lessons.length;
  options.lessons.forEach((title, i) => teach.what.appendChild(new Option(`lesson ${i + 1}: ${title}`, `lesson:${i + 1}`)));
  teach.addEventListener("submit", async (event) => {
    event.preventDefault();
    const [what, lesson] = teach.what.value.split(":");
    const body = lesson ? { what, lesson: Number(lesson) } : { what };
    if (inGame()) {
      if (!window.confirm(`Void the game in progress (move ${state.moves}) and start?`)) return;
      body.void = true;
    }
    const answer = await post("/api/teach", body);
    if (answer.ok) document.getElementById("teaching").open = false;
  });
  const form = document.getElementById("new-form");
  for (const r of options.rules) form.rules.appendChild(new Option(r, r));
  document.getElementById("opponent-fields").hidden = !options.engine;
  const presets = document.getElementById("presets");
  for (const [name, spec] of Object.entries(options.presets)) presets.appendChild(new Option(spec, name));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { rules: form.rules.value, size: Number(form.size.value), handicap: Number(form.handicap.value),
                   time: form.time.value.trim() || "none" };
    if (form.komi.value !== "") body.komi = Number(form.komi.value);
    if (form.captures.value !== "0") body.captures = Number(form.captures.value);  // capture Go
    if (form.opponent.value !== "person") {  // GNU Go plays the other side (host_tools.play on the board's port)
      Object.assign(body, { opponent: form.opponent.value, colour: form.colour.value, level: Number(form.level.value) });
    }
    if (inGame()) {
      if (!window.confirm(`Void the game in progress (move ${state.moves}) and start a new one?`)) return;
      body.void = true;
    }
    const answer = await post("/api/new", body);
    if (answer.ok) document.getElementById("new-game").open = false;
  });
  if (state) {
    mode.value = state.mode;
    form.rules.value = state.rules;
    form.size.value = String(state.size);
    form.time.value = state.clock ? state.clock.spec : "none";
  }
  for (const b of document.querySelectorAll("[data-button]")) {
    b.addEventListener("click", () => post("/api/button", { name: b.dataset.button }));
  }
  const power = document.getElementById("power");
  power.addEventListener("click", () => post("/api/power", { on: !power.dataset.on }));
  const diag = document.getElementById("diag");
  diag.addEventListener("click", () => post("/api/diag", { on: !diag.dataset.on }));
  for (const b of document.querySelectorAll("[data-control]")) {
    b.addEventListener("click", () => post("/api/control", { name: b.dataset.control }));
  }
}

function connect() {
  const badge = document.getElementById("connection");
  const events = new EventSource("/events");
  events.onopen = () => { badge.textContent = "live"; badge.className = "badge live"; };
  events.onmessage = (e) => render(JSON.parse(e.data));
  events.onerror = () => { badge.textContent = "reconnecting…"; badge.className = "badge"; };
}

buildBoard();
fetch("/state").then((r) => r.json()).then((s) => { render(s); setupForms(); connect(); });

// The venue's pages: the overview (every board), one board in full, the referee console.
// Live over Server-Sent Events (/events); each message is one board's summary.
"use strict";

const page = document.body.dataset.page;
const boards = new Map(); // board id -> summary
const STATE_ORDER = { problem: 0, counting: 1, playing: 2, waiting: 3, finished: 4 };

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v; else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const child of children) node.append(child);
  return node;
}

function clockText(summary, colour) {
  const c = summary.clock && summary.clock[colour];
  if (!c) return "--:--";
  let ms = c.ms;
  if (summary.state === "playing" && summary.to_move === colour) ms -= Date.now() - c.at * 1000;
  ms = Math.max(0, ms);
  const s = Math.ceil(ms / 1000);
  const text = Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  return c.periods ? text + " (" + c.periods + ")" : text;
}

function players(s) {
  const rank = (r) => (r ? " " + r : "");
  return (s.black || "Black") + rank(s.black_rank) + " – " + (s.white || "White") + rank(s.white_rank);
}

function drawBoard(canvas, s, upto) {
  const ctx = canvas.getContext("2d");
  const size = s.size || 19;
  const w = canvas.width;
  const cell = w / (size + 1);
  ctx.fillStyle = "#dcb35c";
  ctx.fillRect(0, 0, w, w);
  ctx.strokeStyle = "#333";
  ctx.lineWidth = Math.max(0.5, w / 600);
  for (let i = 1; i <= size; i++) {
    ctx.beginPath(); ctx.moveTo(cell, i * cell); ctx.lineTo(size * cell, i * cell); ctx.stroke();
    ctx.beginPath(); ctx.moveTo(i * cell, cell); ctx.lineTo(i * cell, size * cell); ctx.stroke();
  }
  const stones = upto === undefined ? s.stones : upto.stones;
  if (!stones) return;
  for (let i = 0; i < stones.length; i++) {
    const ch = stones[i];
    if (ch === ".") continue;
    const x = (i % size + 1) * cell, y = (Math.floor(i / size) + 1) * cell;
    ctx.beginPath(); ctx.arc(x, y, cell * 0.47, 0, 2 * Math.PI);
    ctx.fillStyle = ch === "X" ? "#111" : "#f4f4f4"; ctx.fill();
    ctx.strokeStyle = "#000"; ctx.stroke();
  }
  const last = upto === undefined ? s.last : upto.last;
  if (last && last.at) {
    const [c, r] = last.at;
    ctx.beginPath(); ctx.arc((c + 1) * cell, (r + 1) * cell, cell * 0.22, 0, 2 * Math.PI);
    ctx.fillStyle = "#d22"; ctx.fill();
  }
}

// -- the overview -------------------------------------------------------------

function tile(s) {
  let node = document.getElementById("b-" + s.board);
  if (!node) {
    node = el("a", { class: "tile", id: "b-" + s.board, href: "/board/" + encodeURIComponent(s.board) },
      el("div", { class: "head" }), el("canvas", { width: 150, height: 150 }), el("div", { class: "clocks" }),
      el("div", { class: "foot" }));
    document.getElementById("boards").append(node);
  }
  node.dataset.state = s.state;
  node.querySelector(".head").textContent = (s.table_no ? "Table " + s.table_no + " · " : "") + players(s);
  node.querySelector(".foot").textContent = s.result ? s.result : s.state + (s.moves ? " · move " + s.moves : "");
  drawBoard(node.querySelector("canvas"), s);
  tickClocks(node, s);
  return node;
}

function tickClocks(node, s) {
  const box = node.querySelector(".clocks");
  box.textContent = "";
  for (const colour of ["B", "W"]) {
    box.append(el("span", { class: "clock" + (s.state === "playing" && s.to_move === colour ? " running" : "") },
      (colour === "B" ? "● " : "○ ") + clockText(s, colour)));
  }
}

function results() {
  const body = document.querySelector("#results tbody");
  body.textContent = "";
  const rows = [...boards.values()].sort((a, b) => (a.table_no || 1e9) - (b.table_no || 1e9));
  for (const s of rows) {
    body.append(el("tr", {}, el("td", {}, String(s.table_no || s.board)), el("td", {}, s.black || ""),
      el("td", {}, s.white || ""), el("td", {}, String(s.moves || 0)), el("td", {}, s.result || "")));
  }
}

// -- one board ----------------------------------------------------------------

let full = null; // the board's summary with moves_list
let shown = -1; // the move shown (-1: the latest)

async function loadBoard(view) {
  const id = decodeURIComponent(location.pathname.split("/").pop());
  const answer = await fetch("/api/board/" + encodeURIComponent(id) + "?view=" + view);
  if (!answer.ok) { document.getElementById("state").textContent = "No such board."; return; }
  full = await answer.json();
  document.getElementById("sgf").href = "/games/" + encodeURIComponent(id) + ".sgf";
  showBoard();
}

function replayTo(n) {
  // Stones after move n, from the moves (captures by liberties).
  const size = full.size;
  const grid = Array(size * size).fill(".");
  const nbrs = (i) => { const c = i % size, r = Math.floor(i / size), out = [];
    if (c > 0) out.push(i - 1); if (c < size - 1) out.push(i + 1); if (r > 0) out.push(i - size);
    if (r < size - 1) out.push(i + size); return out; };
  const chain = (i) => { const colour = grid[i], seen = new Set([i]), todo = [i]; let libs = 0;
    while (todo.length) { const j = todo.pop(); for (const k of nbrs(j)) {
      if (grid[k] === "." ) libs++; else if (grid[k] === colour && !seen.has(k)) { seen.add(k); todo.push(k); } } }
    return { seen, libs }; };
  for (const [colour, points] of Object.entries(full.setup || {})) {
    for (const [c, r] of points) grid[r * size + c] = colour === "B" ? "X" : "O";
  }
  let last = null;
  for (const m of full.moves_list.slice(0, n)) {
    last = m;
    if (!m.at) continue;
    const i = m.at[1] * size + m.at[0];
    const me = m.colour === "B" ? "X" : "O", other = me === "X" ? "O" : "X";
    grid[i] = me;
    for (const k of nbrs(i)) if (grid[k] === other) { const g = chain(k); if (!g.libs) for (const j of g.seen) grid[j] = "."; }
  }
  return { stones: grid.join(""), last };
}

const SEALS = {  // the record's check (host_tools/records.py, docs/records.md)
  hashed: "Record: every move agrees with the board's running hash.",
  signed: "Record: signed by the board, signature checked.",
  unsigned: "Record: agrees with the board's hash; not signed (board not registered).",
  broken: "Record: does NOT agree with the board's own (see the problems).",
};

function showBoard() {
  const s = full;
  const total = s.moves_list.length;
  const n = shown < 0 ? total : Math.min(shown, total);
  document.getElementById("title").textContent = (s.table_no ? "Table " + s.table_no + ": " : "") + players(s);
  document.getElementById("players").textContent = players(s) + (s.rules ? " · " + s.rules + ", komi " + s.komi : "");
  document.getElementById("at").textContent = "move " + n + " of " + total;
  document.getElementById("captures").textContent = s.captures ? "Captures: black " + s.captures.B + ", white " + s.captures.W : "";
  document.getElementById("state").textContent = s.result ? "Result: " + s.result + (s.why ? " (" + s.why + ")" : "") : s.state;
  document.getElementById("seal").textContent = SEALS[s.seal] || "";
  const clocks = document.getElementById("clocks");
  clocks.textContent = "";
  for (const colour of ["B", "W"]) clocks.append(el("span", { class: "clock" }, (colour === "B" ? "Black " : "White ") + clockText(s, colour)));
  drawBoard(document.getElementById("goban"), s, n === total ? undefined : replayTo(n));
  const list = document.getElementById("moves");
  list.textContent = "";
  s.moves_list.forEach((m, i) => {
    const where = m.at ? "ABCDEFGHJKLMNOPQRST"[m.at[0]] + (s.size - m.at[1]) : (m.lost ? "lost turn" : "pass");
    const time = m.ms >= 0 ? " (" + Math.round(m.ms / 1000) + " s" + (m.periods ? ", " + m.periods + " left" : "") + ")" : "";
    const item = el("li", { class: i + 1 === n ? "now" : "", onclick: () => { shown = i + 1; showBoard(); } }, m.colour + " " + where + time);
    list.append(item);
  });
}

function navigate(step) {
  const total = full ? full.moves_list.length : 0;
  const n = shown < 0 ? total : shown;
  shown = step === "first" ? 0 : step === "last" ? -1 : Math.max(0, Math.min(total, n + step));
  if (shown === total) shown = -1;
  showBoard();
}

// -- the referee console -------------------------------------------------------

let acting = null;

function consoleRows() {
  const all = [...boards.values()];
  const needing = all.filter((s) => s.attention && s.attention.length)
    .sort((a, b) => STATE_ORDER[a.state] - STATE_ORDER[b.state] || (a.table_no || 0) - (b.table_no || 0));
  fill("#attention tbody", needing, (s) => [s.attention.join("; ")]);
  fill("#all tbody", all.sort((a, b) => (a.table_no || 1e9) - (b.table_no || 1e9) || a.board.localeCompare(b.board)),
    (s) => [String(s.moves || 0), s.result || s.state]);
}

function fill(selector, rows, cells) {
  // Each board's row kept and changed in place: a row made anew under the pointer between the
  // press and the release of a click (the boards change every 0.1 s) lost that click.
  const body = document.querySelector(selector);
  const old = new Map([...body.rows].map((tr) => [tr.dataset.board, tr]));
  rows.forEach((s, i) => {
    const texts = [String(s.table_no || ""), s.board, players(s), ...cells(s)];
    let tr = old.get(s.board);
    old.delete(s.board);
    if (!tr) {
      tr = el("tr", { "data-board": s.board }, ...texts.map(() => el("td")));
      tr.append(el("td", {}, el("button", { onclick: () => openAct(boards.get(s.board)) }, "Act…")));
    }
    tr.dataset.state = s.state;
    texts.forEach((text, k) => { if (tr.cells[k].textContent !== text) tr.cells[k].textContent = text; });
    if (body.rows[i] !== tr) body.insertBefore(tr, body.rows[i] || null);
  });
  for (const tr of old.values()) tr.remove();
}

function openAct(s) {
  acting = s;
  document.getElementById("act-title").textContent = "Board " + s.board + ": " + players(s);
  document.getElementById("act-error").textContent = "";
  document.getElementById("act").showModal();
}

async function post(path, body) {
  const answer = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  return answer.json();
}

async function audit() {
  const answer = await fetch("/api/actions");
  if (!answer.ok) return;
  const list = document.getElementById("audit");
  list.textContent = "";
  for (const a of await answer.json()) {
    list.append(el("li", {}, new Date(a.at * 1000).toLocaleTimeString() + " " + a.who + ": " + a.what +
      (a.board ? " on " + a.board : "") + (a.detail ? " (" + a.detail + ")" : "")));
  }
}

async function startConsole() {
  const probe = await (await fetch("/api/boards?view=live")).json();
  const logged = !!probe.referee;
  document.getElementById("login").hidden = logged;
  document.getElementById("console").hidden = !logged;
  document.getElementById("logout").hidden = !logged;
  if (!logged) return;
  audit();
  listen("live", consoleRows);
}

function setUpConsole() {
  document.getElementById("login").addEventListener("submit", async (e) => {
    e.preventDefault();
    const form = new FormData(e.target);
    const said = await post("/login", { user: form.get("user"), password: form.get("password") });
    document.getElementById("login-error").textContent = said.ok ? "" : said.error;
    if (said.ok) startConsole();
  });
  document.getElementById("logout").addEventListener("click", async () => { await post("/logout", {}); location.reload(); });
  document.getElementById("round").addEventListener("submit", async (e) => {
    e.preventDefault();
    const action = e.submitter ? e.submitter.value : "start";
    const said = await post("/api/round", { round: Number(new FormData(e.target).get("round")), action });
    const done = { start: "settings sent to ", lock: "locked: ", unlock: "unlocked: " }[action];
    document.getElementById("round-said").textContent = said.ok ? done + said.boards + " boards" : said.error;
    audit();
  });
  document.getElementById("act-send").addEventListener("click", async (e) => {
    e.preventDefault();
    const form = new FormData(document.getElementById("act-form"));
    const said = await post("/api/referee", { board: acting.board, action: form.get("action"), colour: form.get("colour"), value: form.get("value") });
    if (!said.ok) { document.getElementById("act-error").textContent = said.error; return; }
    document.getElementById("act").close();
    audit();
  });
  startConsole();
}

// -- the feed ----------------------------------------------------------------

function listen(view, redraw) {
  const source = new EventSource("/events?view=" + view);
  let due = false;
  source.onmessage = (e) => {
    const s = JSON.parse(e.data);
    boards.set(s.board, s);
    if (page === "overview") tile(s);
    if (page === "board" && full && s.board === full.board && s.version !== full.version) loadBoard(view);
    if (!due) { due = true; requestAnimationFrame(() => { due = false; redraw(); }); }
  };
}

async function start() {
  const first = await (await fetch("/api/boards")).json();
  const delay = document.getElementById("delay");
  if (delay) delay.textContent = first.delay > 0 ? "Broadcast delay: " + Math.round(first.delay / 60 * 10) / 10 + " minutes." : "";
  if (page === "overview") {
    if (first.event && first.event.name) document.getElementById("event").textContent = first.event.name;
    listen("public", results);
    setInterval(() => { for (const s of boards.values()) if (s.state === "playing") tickClocks(document.getElementById("b-" + s.board), s); }, 1000);
  } else if (page === "board") {
    await loadBoard("public");
    listen("public", () => {});
    setInterval(() => { if (full && full.state === "playing") showBoard(); }, 1000);
    for (const [id, step] of [["first", "first"], ["back", -1], ["next", 1], ["last", "last"]]) {
      document.getElementById(id).addEventListener("click", () => navigate(step));
    }
    document.addEventListener("keydown", (e) => { if (e.key === "ArrowLeft") navigate(-1); if (e.key === "ArrowRight") navigate(1); });
  }
}

if (page === "referee") setUpConsole(); else start();

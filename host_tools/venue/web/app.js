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
let csrf = ""; // the session's token, sent back with every action (the server checks it)
const SEAL_TEXT = { hashed: "hashed", signed: "signed", unsigned: "not signed", broken: "BROKEN", none: "no hash" };

function lockText(s) {
  const locked = s.console && s.console.locked;
  return locked === true ? "locked" : locked === false ? "unlocked" : "–";
}

function registeredText(s) {
  const registered = (s.console && s.console.registered) || s.seal === "signed";
  return registered ? "yes" : "no";
}

// Each column: its heading (the label a phone shows beside the value), the text, and for a
// link the address.
const ALL_COLUMNS = [
  ["Table", (s) => String(s.table_no || "")],
  ["Board", (s) => s.board, (s) => "/board/" + encodeURIComponent(s.board) + "?view=live"],
  ["Players", players],
  ["Move", (s) => String(s.moves || 0)],
  ["State", (s) => s.result || s.state],
  ["Clocks", (s) => "● " + clockText(s, "B") + " ○ " + clockText(s, "W")],
  ["Link", (s) => s.status || "offline"],
  ["Lock", lockText],
  ["Record", (s) => SEAL_TEXT[s.seal] || s.seal || "–"],
  ["Registered", registeredText],
];
const ATTENTION_COLUMNS = [
  ALL_COLUMNS[0], ALL_COLUMNS[1], ALL_COLUMNS[2],
  ["Why", (s) => s.console.needing.join("; ")],
];

function needing(s) {
  return s.console ? s.console.needing : s.attention || [];
}

function consoleRows() {
  const all = [...boards.values()];
  const waiting = all.filter((s) => needing(s).length)
    .sort((a, b) => STATE_ORDER[a.state] - STATE_ORDER[b.state] || (a.table_no || 0) - (b.table_no || 0));
  fill("#attention tbody", waiting, ATTENTION_COLUMNS, true);
  fill("#all tbody", all.sort((a, b) => (a.table_no || 1e9) - (b.table_no || 1e9) || a.board.localeCompare(b.board)),
    ALL_COLUMNS, false);
}

function fill(selector, rows, columns, acknowledge) {
  // Each board's row kept and changed in place: a row made anew under the pointer between the
  // press and the release of a click (the boards change every 0.1 s) lost that click.
  const body = document.querySelector(selector);
  const old = new Map([...body.rows].map((tr) => [tr.dataset.board, tr]));
  rows.forEach((s, i) => {
    let tr = old.get(s.board);
    old.delete(s.board);
    if (!tr) {
      tr = el("tr", { "data-board": s.board }, ...columns.map(([label, , href]) =>
        el("td", { "data-label": label }, ...(href ? [el("a", { href: href(s) })] : []))));
      const buttons = el("td", { "data-label": "Action", class: "actions" });
      if (acknowledge) {
        buttons.append(el("button", { class: "ack", title: "cleared until something new happens on this board",
          onclick: () => acknowledgeBoard(s.board) }, "Acknowledge"), " ");
      }
      buttons.append(el("button", { class: "act", onclick: () => openAct(boards.get(s.board)) }, "Act…"));
      tr.append(buttons);
    }
    tr.dataset.state = s.state;
    columns.forEach(([, text, href], k) => {
      const target = href ? tr.cells[k].firstChild : tr.cells[k];
      const value = text(s);
      if (target.textContent !== value) target.textContent = value;
    });
    if (body.rows[i] !== tr) body.insertBefore(tr, body.rows[i] || null);
  });
  for (const tr of old.values()) tr.remove();
}

async function acknowledgeBoard(board) {
  const s = boards.get(board);
  const said = await post("/api/ack", { board, items: needing(s) });
  if (said.ok) audit();
}

function openAct(s) {
  acting = s;
  document.getElementById("act-title").textContent = "Board " + s.board + ": " + players(s);
  document.getElementById("act-error").textContent = "";
  document.getElementById("act").showModal();
}

async function post(path, body) {
  const answer = await fetch(path, { method: "POST", body: JSON.stringify(body),
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf } });
  try { return await answer.json(); } catch (_e) { return { ok: false, error: "the venue answered " + answer.status }; }
}

function ask(text) {
  // The confirmation step: true when the referee says yes.
  const dialog = document.getElementById("confirm");
  document.getElementById("confirm-text").textContent = text;
  dialog.returnValue = "";
  dialog.showModal();
  return new Promise((resolve) => dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true }));
}

async function confirmedPost(path, body) {
  // An action that cannot be undone comes back asking to be confirmed (409): the referee is
  // shown what it does, and only a yes sends it again, confirmed.
  const said = await post(path, body);
  if (!said.confirm) return said;
  if (!(await ask(said.confirm))) return { ok: false, error: "not sent", cancelled: true };
  return post(path, { ...body, confirm: true });
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

const SERVICES = { intake: "MQTT intake", archive: "Archive", loggers: "Loggers", web: "Web pages" };

function serviceText(name, s) {
  const ago = (t) => (t ? Math.max(0, Math.round(Date.now() / 1000 - t)) + " s ago" : "never");
  if (name === "intake") {
    const parts = "connected" in s ? [s.connected ? "connected" : "NOT connected"] : [];
    if ("last_message" in s) parts.push("last message " + ago(s.last_message));
    if ("dropped" in s) parts.push(s.dropped + " dropped");
    return parts.join(", ");
  }
  if (name === "archive") return s.writable ? "writable" : "NOT writable" + (s.error ? ": " + s.error : "");
  if (name === "loggers") return s.status || "not heard from";
  if (name === "web") return s.answered + " answered, " + s.refused + " refused, " + s.failed + " failed";
  return s.state;
}

async function health() {
  let report;
  try { report = await (await fetch("/health")).json(); } catch (_e) { report = null; }
  const list = document.getElementById("services");
  list.textContent = "";
  if (!report) { list.append(el("li", { "data-state": "down" }, "The venue does not answer.")); return; }
  for (const [name, s] of Object.entries(report.services)) {
    list.append(el("li", { "data-state": s.state, "data-service": name },
      el("b", {}, (SERVICES[name] || name) + ": "), s.state === "unknown" ? "unknown" : s.state + " · " + serviceText(name, s)));
  }
}

let timers = [];

async function startConsole() {
  const probe = await (await fetch("/api/boards?view=live")).json();
  const logged = !!probe.referee;
  csrf = probe.csrf || "";
  document.getElementById("login").hidden = logged;
  document.getElementById("console").hidden = !logged;
  document.getElementById("logout").hidden = !logged;
  document.getElementById("who").textContent = logged ? probe.referee : "";
  for (const t of timers) clearInterval(t);
  timers = [];
  if (!logged) return;
  audit();
  health();
  timers.push(setInterval(health, 5000), setInterval(audit, 15000),
    setInterval(() => { if ([...boards.values()].some((s) => s.state === "playing")) consoleRows(); }, 1000));
  const source = listen("live", consoleRows);
  source.onerror = () => { if (source.readyState === EventSource.CLOSED) startConsole(); }; // (the session ended)
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
    const said = await confirmedPost("/api/round", { round: Number(new FormData(e.target).get("round")), action });
    const done = { start: "settings sent to ", lock: "locked: ", unlock: "unlocked: " }[action];
    document.getElementById("round-said").textContent = said.ok ? done + said.boards + " boards" : said.error;
    audit();
  });
  document.getElementById("act-send").addEventListener("click", async (e) => {
    e.preventDefault();
    const form = new FormData(document.getElementById("act-form"));
    const said = await confirmedPost("/api/referee", { board: acting.board, action: form.get("action"),
      colour: form.get("colour"), value: form.get("value") });
    if (!said.ok) { document.getElementById("act-error").textContent = said.error; return; }
    document.getElementById("act").close();
    audit();
  });
  startConsole();
}

// -- the feed ----------------------------------------------------------------

let listening = null;

function listen(view, redraw) {
  if (listening) listening.close();
  const source = listening = new EventSource("/events?view=" + view);
  let due = false;
  source.onmessage = (e) => {
    const s = JSON.parse(e.data);
    boards.set(s.board, s);
    if (page === "overview") tile(s);
    if (page === "board" && full && s.board === full.board && s.version !== full.version) loadBoard(view);
    if (!due) { due = true; requestAnimationFrame(() => { due = false; redraw(); }); }
  };
  return source;
}

async function start() {
  // A referee's link to a board (?view=live) shows it live; anyone else gets the public view.
  const want = page === "board" && new URLSearchParams(location.search).get("view") === "live" ? "live" : "public";
  const first = await (await fetch("/api/boards?view=" + want)).json();
  const view = first.view;
  const delay = document.getElementById("delay");
  if (delay) delay.textContent = view === "live" ? "Live (referees): no broadcast delay."
    : first.delay > 0 ? "Broadcast delay: " + Math.round(first.delay / 60 * 10) / 10 + " minutes." : "";
  if (page === "overview") {
    if (first.event && first.event.name) document.getElementById("event").textContent = first.event.name;
    listen("public", results);
    setInterval(() => { for (const s of boards.values()) if (s.state === "playing") tickClocks(document.getElementById("b-" + s.board), s); }, 1000);
  } else if (page === "board") {
    await loadBoard(view);
    listen(view, () => {});
    setInterval(() => { if (full && full.state === "playing") showBoard(); }, 1000);
    for (const [id, step] of [["first", "first"], ["back", -1], ["next", 1], ["last", "last"]]) {
      document.getElementById(id).addEventListener("click", () => navigate(step));
    }
    document.addEventListener("keydown", (e) => { if (e.key === "ArrowLeft") navigate(-1); if (e.key === "ArrowRight") navigate(1); });
  }
}

if (page === "referee") setUpConsole(); else start();

// app.js — the page of web/index.html: a person plays dama's engine. The
// page's own dama.wasm instance keeps the game (rules, legal moves, status,
// PDN); the engine searches in a Web Worker (worker.js) so the page never
// waits on it. docs/web.md describes the page and its figures.
import { loadDama, WHITE, BLACK, RESULT } from "./dama.js";
import { geometry, moveSquares, drawBoard } from "./board.js";
import { WeightsPanel } from "./weights.js";

const $ = (id) => document.getElementById(id);
const REASONS = {
  "no-moves": "no legal move", repetition: "threefold repetition", resign: "resignation", agreed: "draw agreed",
};
const S = {
  dama: null, game: null, geo: null, human: WHITE, over: null, sel: null, last: [], focus: null,
  busy: false, gen: 0, worker: null, calls: new Map(), nextId: 1, stop: null, drag: null,
};

// ---- the worker ----

function startWorker() {
  S.worker = new Worker("worker.js", { type: "module" });
  S.worker.onmessage = (e) => {
    const call = S.calls.get(e.data.id);
    S.calls.delete(e.data.id);
    if (call) e.data.ok ? call.resolve(e.data.result) : call.reject(new Error(e.data.error));
  };
  S.stop = typeof SharedArrayBuffer !== "undefined" && self.crossOriginIsolated ? new SharedArrayBuffer(4) : null;
  $("stop").title = S.stop ? "Stop the search and play its best move so far" : "needs a cross-origin isolated page (scripts/serve-web.sh)";
  return ask({ op: "init", wasm: "dama.wasm", stop: S.stop });
}

function ask(req) {
  const id = S.nextId++;
  return new Promise((resolve, reject) => {
    S.calls.set(id, { resolve, reject });
    S.worker.postMessage({ ...req, id });
  });
}

// The game as the worker needs it.
function engineRequest(op, extra = {}) {
  if (S.stop) Atomics.store(new Int32Array(S.stop), 0, 0);
  return ask({
    ...extra, op, game: S.game.name, start: S.game.startPosition(), moves: S.game.history(),
    level: $("level").value, movetimeMs: Number($("movetime").value), weights: S.weights.textFor(S.game.name),
    seed: S.seed,
  });
}

// ---- the game ----

// A game from the start, or from the position of the page's address
// (?game=shatra&fen=...) the first time.
function newGame() {
  S.gen++;
  if (S.game) S.game.free();
  const fen = S.startFen;
  S.startFen = null;
  try {
    S.game = S.dama.newGame($("game").value, fen || "start");
  } catch (err) {
    S.game = S.dama.newGame($("game").value);
    setTimeout(() => status("the address's position is refused: " + err.message, true));
  }
  S.geo = geometry(S.game.name);
  S.human = Number($("side").value);
  S.note = null;
  hidePromotion();
  // The levels' random choices: the address's seed, else a new one per game.
  S.seed = S.fixedSeed ?? Math.floor(Math.random() * 2 ** 31);
  S.over = null;
  S.sel = null;
  S.last = [];
  S.focus = null;
  S.busy = false;
  S.weights.showFor(S.game.name);
  if (S.engineReady) ask({ op: "warm", game: S.game.name, weights: S.weights.textFor(S.game.name) });
  update();
}

// A position a rule has ended (Turkish's lone man, Russian's D-rules, a
// captured Biy) has no move to play, as `dama moves` lists none there.
function legalMoves() {
  if (S.game.result().result !== 0) return [];
  return S.game.moves().map((m) => ({ ...m, path: moveSquares(S.geo, m.text) }));
}

function checkOver() {
  if (S.over) return;
  const r = S.game.result();
  if (r.result !== 0) S.over = { result: r.result, reason: r.reason };
}

function update() {
  checkOver();
  render();
  if (!S.over && S.engineReady && S.game.sideToMove !== S.human && !S.busy) engineMove().catch((err) => status(err.message, true));
}

async function engineMove() {
  const gen = S.gen;
  S.busy = true;
  render();
  try {
    const r = await engineRequest("search");
    if (gen !== S.gen) return;
    S.game.apply(r.move);
    S.last = moveSquares(S.geo, r.move);
    const score = Math.abs(r.score) > 29000 ? (r.score > 0 ? "wins" : "loses") : (r.score / 100).toFixed(2);
    $("engine").textContent = `dama: ${r.move} — depth ${r.depth}, score ${score}, ${r.nodes.toLocaleString("en")} nodes in ` +
      `${(r.ms / 1000).toFixed(2)} s (${Math.round(r.nodes / Math.max(r.ms, 1))} k nodes/s)`;
    $("engine").dataset.ms = Math.round(r.ms);
  } catch (err) {
    if (gen === S.gen) S.note = "engine error: " + err.message; // shown by the render below
  } finally {
    if (gen === S.gen) {
      S.busy = false;
      update();
    }
  }
}

// ---- moves by the person ----

function humanTurn() {
  return !S.over && !S.busy && S.game.sideToMove === S.human;
}

function targetsOf(sel) {
  const n = sel.path.length, out = new Set();
  for (const m of sel.cands) {
    if (m.path.length > n) out.add(m.path[n]);
    else if (m.path.length === 1 && n === 1) out.add(m.path[0]); // a promotion where it stands
  }
  return out;
}

function pressSquare(sq) {
  if (!humanTurn()) return;
  S.note = null;
  const moves = legalMoves();
  if (S.sel && targetsOf(S.sel).has(sq)) return stepTo(sq);
  const mine = moves.filter((m) => m.path[0] === sq);
  S.sel = mine.length ? { path: [sq], cands: mine } : null;
  hidePromotion();
  render();
}

function stepTo(sq) {
  const sel = S.sel;
  const inPlace = sel.path.length === 1 && sq === sel.path[0];
  const n = inPlace ? 1 : sel.path.length + 1;
  if (!inPlace) sel.path.push(sq);
  const path = sel.path;
  sel.cands = sel.cands.filter((m) => (inPlace ? m.path.length === 1 : m.path.length >= n && m.path[n - 1] === sq));
  const done = sel.cands.filter((m) => m.path.length === n);
  if (done.length === 1 && sel.cands.length === 1) return playHuman(done[0]);
  if (done.length > 0) return choose(sel.cands);
  S.sel = { path, cands: sel.cands };
  render();
}

// Moves that share their squares (a Shatra promotion to one of three
// pieces, or a capture that may stop or go on): the person picks one.
function choose(cands) {
  const box = $("promotion");
  box.replaceChildren();
  for (const m of cands) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = m.text;
    b.dataset.move = m.text;
    b.onclick = () => { hidePromotion(); playHuman(m); };
    box.appendChild(b);
  }
  box.hidden = false;
  render();
  box.firstChild.focus();
}

function hidePromotion() {
  $("promotion").hidden = true;
  $("promotion").replaceChildren();
}

function playHuman(m) {
  S.sel = null;
  hidePromotion();
  if (!humanTurn()) return render();
  try {
    S.game.apply(m.index);
  } catch (err) {
    return status(err.message, true); // the library's reason (it has none for a legal move in a live game)
  }
  S.last = m.path;
  update();
}

// ---- buttons ----

function undo() {
  S.gen++;
  S.note = null;
  if (S.busy && S.stop) Atomics.store(new Int32Array(S.stop), 0, 1);
  S.busy = false;
  S.over = null;
  S.sel = null;
  hidePromotion();
  // Back to the person's previous turn: one move, or two if the engine replied.
  let n = 0;
  while (S.game.plyCount > 0 && (n === 0 || S.game.sideToMove !== S.human)) {
    S.game.undo();
    n++;
  }
  S.last = [];
  update();
  if (n) status(`took back ${n} move${n > 1 ? "s" : ""}`);
}

async function offerDraw() {
  if (!humanTurn()) return;
  const gen = S.gen;
  S.busy = true;
  render();
  status("dama considers your draw offer…");
  let note = null;
  try {
    const r = await engineRequest("draw", { side: 1 - S.human });
    if (r.accept) S.over = { result: 3, reason: "agreed" };
    else note = "dama declines the draw: play on";
  } catch (err) {
    note = "engine error: " + err.message;
  }
  if (gen !== S.gen) return;
  S.busy = false;
  render();
  if (note) status(note, note.startsWith("engine error"));
}

function resign() {
  if (S.over) return;
  S.gen++;
  S.busy = false;
  S.over = { result: S.human === WHITE ? 2 : 1, reason: "resign" };
  render();
}

function moveNow() {
  if (S.busy && S.stop) Atomics.store(new Int32Array(S.stop), 0, 1);
}

function downloadPdn() {
  const engine = `dama (${$("level").value})`;
  let text = S.game.pdn(S.human === WHITE ? "You" : engine, S.human === WHITE ? engine : "You");
  if (S.over && (S.over.reason === "resign" || S.over.reason === "agreed")) {
    const res = ["*", "1-0", "0-1", "1/2-1/2"][S.over.result];
    text = text.replace('[Result "*"]', `[Result "${res}"]`).replace(/\*\s*$/, res + "\n");
  }
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "application/x-pdn" }));
  a.download = `dama-${S.game.name}.pdn`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  $("pdn").dataset.pdn = text;
}

// ---- drawing ----

function status(text, error = false) {
  $("status").textContent = text;
  $("status").classList.toggle("error", error);
}

function statusText() {
  const side = (c) => (c === WHITE ? "White" : "Black");
  if (S.over) {
    const res = RESULT[S.over.result];
    return `Game over: ${res} (${REASONS[S.over.reason] || S.over.reason})`;
  }
  if (S.busy) return "dama is thinking…";
  const you = S.game.sideToMove === S.human;
  return `${you ? "Your move" : "dama to move"} (${side(S.game.sideToMove)})${S.game.mustCapture ? " — capture is compulsory" : ""}`;
}

function render() {
  const g = S.game, pos = S.geo.parse(g.position());
  const threatened = new Set();
  if (g.hasRoyal) {
    for (const [sq, p] of pos.pieces) if (p.kind === "K" && g.royalAttacked(p.white ? WHITE : BLACK)) threatened.add(sq);
  }
  const pieces = new Map(pos.pieces), captured = new Set();
  if (S.sel && S.sel.path.length > 1) { // a capture entered so far: the piece where it has landed
    const from = S.sel.path[0], at = S.sel.path[S.sel.path.length - 1];
    pieces.set(at, pieces.get(from));
    pieces.delete(from);
    for (const c of S.sel.cands[0].captures) if (pieces.has(c) && jumped(S.sel.path, c)) captured.add(c);
  }
  const view = {
    pieces, captured, threatened, flipped: S.human === BLACK, selected: S.sel ? S.sel.path[S.sel.path.length - 1] : null,
    targets: S.sel ? targetsOf(S.sel) : new Set(), last: new Set(S.last), focus: S.focus ?? S.geo.cells[0].sq,
  };
  const board = $("board");
  const hadFocus = board.contains(document.activeElement);
  const svg = drawBoard(S.geo, view);
  board.replaceChildren(svg);
  board.dataset.game = g.name;
  board.dataset.position = g.position();
  board.dataset.moves = legalMoves().map((m) => m.text).join(" ");
  board.dataset.ply = g.plyCount;
  board.dataset.busy = S.busy ? "1" : "0";
  board.dataset.over = S.over ? RESULT[S.over.result] + ":" + S.over.reason : "";
  if (hadFocus) svg.querySelector(`[data-square="${view.focus}"]`)?.focus();
  renderMoves();
  status(S.note || statusText(), !!S.note);
  $("undo").disabled = g.plyCount === 0;
  $("draw").disabled = !humanTurn();
  $("resign").disabled = !!S.over;
  $("stop").disabled = !S.busy || !S.stop;
}

// Whether square c lies between two consecutive squares of path (a piece
// the landings entered so far have jumped).
function jumped(path, c) {
  const at = (sq) => S.geo.cells.find((cell) => cell.sq === sq);
  const p = at(c);
  for (let i = 0; i + 1 < path.length; i++) {
    const a = at(path[i]), b = at(path[i + 1]);
    const cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
    const dot = (p.x - a.x) * (b.x - a.x) + (p.y - a.y) * (b.y - a.y);
    const len2 = (b.x - a.x) ** 2 + (b.y - a.y) ** 2;
    if (cross === 0 && dot > 0 && dot < len2) return true;
  }
  return false;
}

function renderMoves() {
  const list = $("moves"), hist = S.game.history();
  const whiteFirst = S.geo.parse(S.game.startPosition()).whiteToMove;
  list.replaceChildren();
  let li = null;
  hist.forEach((m, i) => {
    const white = whiteFirst ? i % 2 === 0 : i % 2 === 1;
    const leads = white === S.geo.whiteFirst; // a move pair begins with the game's first mover's move
    if (!li || leads) {
      li = document.createElement("li");
      list.appendChild(li);
      if (!leads) li.append("… ");
    }
    const span = document.createElement("span");
    span.textContent = m + " ";
    span.dataset.move = m;
    li.appendChild(span);
  });
  list.scrollTop = list.scrollHeight;
}

// ---- pointer and keyboard ----

function cellAt(x, y) {
  const e = document.elementFromPoint(x, y);
  const c = e && e.closest ? e.closest(".cell") : null;
  return c ? Number(c.dataset.square) : null;
}

function onPointerDown(e) {
  const sq = cellAt(e.clientX, e.clientY);
  if (sq === null) return;
  S.focus = sq;
  const wasTarget = S.sel && targetsOf(S.sel).has(sq);
  pressSquare(sq);
  if (!wasTarget && S.sel && S.sel.path.length === 1 && S.sel.path[0] === sq) {
    const piece = $("board").querySelector(`[data-square="${sq}"] .piece`);
    if (piece) S.drag = { sq, piece, x: e.clientX, y: e.clientY, moved: false };
  }
}

function onPointerMove(e) {
  const d = S.drag;
  if (!d) return;
  const svg = $("board").querySelector("svg"), scale = svg.getScreenCTM().a;
  const dx = (e.clientX - d.x) / scale, dy = (e.clientY - d.y) / scale;
  if (Math.abs(dx) + Math.abs(dy) > 0.1) d.moved = true;
  d.piece.setAttribute("transform", `translate(${dx} ${dy})`);
  d.piece.classList.add("dragging");
}

function onPointerUp(e) {
  const d = S.drag;
  S.drag = null;
  if (!d || !d.moved) return;
  const sq = cellAt(e.clientX, e.clientY);
  if (sq !== null && sq !== d.sq && S.sel && targetsOf(S.sel).has(sq)) pressSquare(sq);
  else render();
}

function onKey(e) {
  const cell = e.target.closest ? e.target.closest(".cell") : null;
  if (!cell) return;
  const sq = Number(cell.dataset.square);
  const dirs = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
  if (dirs[e.key]) {
    e.preventDefault();
    const next = neighbour(sq, dirs[e.key]);
    if (next !== null) {
      S.focus = next;
      $("board").querySelectorAll(".cell").forEach((c) => c.setAttribute("tabindex", "-1"));
      const t = $("board").querySelector(`[data-square="${next}"]`);
      t.setAttribute("tabindex", "0");
      t.focus();
    }
  } else if (e.key === "Enter" || e.key === " ") {
    e.preventDefault();
    S.focus = sq;
    pressSquare(sq);
  } else if (e.key === "Escape") {
    S.sel = null;
    hidePromotion();
    render();
  }
}

// The nearest square in a direction on the screen (flipped boards too).
function neighbour(sq, [dx, dy]) {
  const flip = S.human === BLACK ? -1 : 1;
  const at = S.geo.cells.find((c) => c.sq === sq);
  let best = null, bestD = Infinity;
  for (const c of S.geo.cells) {
    const ax = (c.x - at.x) * flip, ay = (c.y - at.y) * flip;
    const along = ax * dx + ay * dy, across = Math.abs(ax * dy) + Math.abs(ay * dx);
    if (along <= 0) continue;
    const dist = along + 2 * across;
    if (dist < bestD) { bestD = dist; best = c.sq; }
  }
  return best;
}

// ---- start ----

async function main() {
  const t0 = performance.now();
  S.dama = await loadDama(fetch("dama.wasm"));
  for (const name of S.dama.games()) $("game").add(new Option(name[0].toUpperCase() + name.slice(1), name));
  for (let l = 1; l <= 5; l++) {
    const o = new Option(S.dama.levelName(l), S.dama.levelName(l));
    o.title = S.dama.levelDoc(l);
    $("level").add(o);
  }
  // Settings from the address: ?game=G&side=white|black&level=L&movetime=MS&fen=POSITION&seed=N
  const q = new URLSearchParams(location.search);
  $("game").value = S.dama.games().includes(q.get("game")) ? q.get("game") : "russian";
  $("side").value = q.get("side") === "black" ? "1" : "0";
  $("level").value = [...$("level").options].some((o) => o.value === q.get("level")) ? q.get("level") : "max";
  if ([...$("movetime").options].some((o) => o.value === q.get("movetime"))) $("movetime").value = q.get("movetime");
  S.startFen = q.get("fen");
  if (/^\d+$/.test(q.get("seed") || "")) S.fixedSeed = Number(q.get("seed"));
  S.weights = new WeightsPanel(S, $("weights"), $("weights-file"), $("weights-default"));
  newGame();
  document.body.dataset.firstBoardMs = Math.round(performance.now() - t0); // from this script's start
  document.body.dataset.firstBoardAt = Math.round(performance.now()); // from the page's navigation
  document.body.dataset.ready = "1";
  const board = $("board");
  board.addEventListener("pointerdown", onPointerDown);
  window.addEventListener("pointermove", onPointerMove);
  window.addEventListener("pointerup", onPointerUp);
  board.addEventListener("keydown", onKey);
  $("new").onclick = newGame;
  $("game").onchange = newGame;
  $("side").onchange = newGame;
  $("undo").onclick = undo;
  $("draw").onclick = offerDraw;
  $("resign").onclick = resign;
  $("stop").onclick = moveNow;
  $("pdn").onclick = downloadPdn;
  await startWorker();
  await ask({ op: "warm", game: S.game.name, weights: null });
  S.engineReady = true;
  document.body.dataset.engine = "1";
  update();
}

main().catch((err) => status("could not start: " + err.message, true));

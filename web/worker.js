// worker.js — the engine's thinking off the page's thread (web/app.js):
// one dama.wasm instance per worker; each request carries the game, its
// start position and moves, so the worker keeps no state the page could
// lose. A running search stops early when the page sets the shared stop
// flag (where the page is cross-origin isolated; scripts/serve-web.sh).
import { loadDama, LIMIT } from "./dama.js";

let dama = null, stopFlag = null;
const games = new Map(); // name -> {game, weights}

function gameFor(req) {
  let entry = games.get(req.game);
  if (!entry) {
    entry = { game: dama.newGame(req.game), weights: null };
    games.set(req.game, entry);
    // The first search of a game sets up its engine (about 0.2 s in
    // Chromium), which would come on top of the first move's time.
    entry.game.setLimit(LIMIT.DEPTH, 1);
    entry.game.search();
  }
  const g = entry.game;
  if (entry.weights !== req.weights) {
    if (req.weights) g.loadWeightsJson(req.weights);
    else g.weightsDefault();
    entry.weights = req.weights;
  }
  g.reset(req.start);
  for (const m of req.moves) g.apply(m);
  g.clearLimits();
  g.setLevel(req.level);
  if (req.movetimeMs) g.setLimit(LIMIT.MOVETIME_MS, req.movetimeMs);
  if (req.seed !== undefined) g.setSeed(req.seed);
  return g;
}

async function handle(req) {
  if (req.op === "init") {
    if (req.stop) stopFlag = new Int32Array(req.stop);
    dama = await loadDama(fetch(req.wasm), { stopRequested: () => stopFlag !== null && Atomics.load(stopFlag, 0) !== 0 });
    return { version: dama.version };
  }
  if (req.op === "warm") {
    gameFor({ ...req, start: "start", moves: [], level: "max" });
    return {};
  }
  const g = gameFor(req);
  const t0 = performance.now();
  if (req.op === "search") {
    const r = g.search();
    return { ...r, ms: performance.now() - t0 };
  }
  if (req.op === "draw") return { accept: g.acceptDraw(req.side), ms: performance.now() - t0 };
  throw new Error("unknown request " + req.op);
}

self.onmessage = async (e) => {
  const req = e.data;
  try {
    self.postMessage({ id: req.id, ok: true, result: await handle(req) });
  } catch (err) {
    self.postMessage({ id: req.id, ok: false, error: err.message });
  }
};

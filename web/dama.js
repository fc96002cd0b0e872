// dama.js — the engine library (include/dama/engine.h) compiled to
// WebAssembly (dama.wasm, built by scripts/build-web.sh), wrapped for
// JavaScript: games, legal moves, apply/undo, status, search within a time
// limit with a stop, levels of play, weights from `dama export --format
// json`. An ES module; works in a page and in a Web Worker.
//
//   const dama = await loadDama(fetch("dama.wasm"));
//   const g = dama.newGame("russian");
//   g.moves();            // [{index, text, from, to, kind, promotion, captures, path}]
//   g.apply("c3-d4"); g.undo();
//   g.setLevel("club"); g.setLimit(LIMIT.MOVETIME_MS, 1000); g.search();
//
// Errors of the library (bad move, bad weights, ...) throw a DamaError
// whose message is the library's (dama_last_error). The module is
// single-threaded: a search blocks its thread (run it in a Worker); a
// running search polls options.stopRequested() every 1,024 nodes.

export const LIMIT = { DEPTH: 0, NODES: 1, MOVETIME_MS: 2 };
export const RESULT = ["ongoing", "white wins", "black wins", "draw"];
const WHITE = 0, BLACK = 1;

export class DamaError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

// WASI (wasi_snapshot_preview1) as far as the library needs it: clocks,
// stderr to the console, no files (fopen fails with EBADF).
function wasiImports(getMemory) {
  const EBADF = 8, ENOSYS = 52;
  const view = () => new DataView(getMemory().buffer);
  return {
    clock_time_get(id, precision, out) {
      const ns = id === 0 ? BigInt(Date.now()) * 1000000n : BigInt(Math.round(performance.now() * 1e6));
      view().setBigUint64(out, ns, true);
      return 0;
    },
    fd_write(fd, iovs, n, written) {
      const v = view();
      let text = "", total = 0;
      for (let i = 0; i < n; i++) {
        const p = v.getUint32(iovs + 8 * i, true), len = v.getUint32(iovs + 8 * i + 4, true);
        text += new TextDecoder().decode(new Uint8Array(getMemory().buffer, p, len));
        total += len;
      }
      if (fd === 1 || fd === 2) console.log(text.trimEnd());
      v.setUint32(written, total, true);
      return 0;
    },
    fd_close: () => EBADF,
    fd_fdstat_get: () => EBADF,
    fd_fdstat_set_flags: () => EBADF,
    fd_filestat_get: () => EBADF,
    fd_prestat_get: () => EBADF,
    fd_prestat_dir_name: () => EBADF,
    fd_pread: () => EBADF,
    fd_read: () => EBADF,
    fd_seek: () => EBADF,
    path_open: () => EBADF,
    proc_exit(code) { throw new Error(`dama.wasm exited (${code})`); },
    environ_sizes_get: () => ENOSYS,
    random_get: () => ENOSYS,
  };
}

// source: a Response (or a promise of one), an ArrayBuffer or a
// WebAssembly.Module. options.stopRequested: () => boolean.
export async function loadDama(source, options = {}) {
  let memory = null;
  const imports = {
    wasi_snapshot_preview1: wasiImports(() => memory),
    dama: { stop_requested: () => (options.stopRequested && options.stopRequested() ? 1 : 0) },
  };
  source = await source;
  let instance;
  if (source instanceof WebAssembly.Module) instance = await WebAssembly.instantiate(source, imports);
  else if (typeof Response !== "undefined" && source instanceof Response) {
    if (!source.ok) throw new Error(`dama.wasm: HTTP ${source.status}`);
    // Compiled while it downloads where the server says application/wasm.
    const streaming = WebAssembly.instantiateStreaming && /application\/wasm/.test(source.headers.get("Content-Type") || "");
    instance = streaming ? (await WebAssembly.instantiateStreaming(source, imports)).instance
      : (await WebAssembly.instantiate(await source.arrayBuffer(), imports)).instance;
  } else instance = (await WebAssembly.instantiate(source, imports)).instance;
  memory = instance.exports.memory;
  instance.exports._initialize();
  return new Dama(instance.exports, () => memory);
}

class Dama {
  constructor(x, mem) {
    this.x = x;
    this.mem = mem;
    this.scratchSize = 1 << 16;
    this.scratch = x.web_alloc(this.scratchSize);
  }
  str(ptr) {
    if (!ptr) return null;
    const b = new Uint8Array(this.mem().buffer);
    let end = ptr;
    while (b[end]) end++;
    return new TextDecoder().decode(b.subarray(ptr, end));
  }
  // A NUL-terminated copy of text in the module's memory (free with web_free).
  cstr(text) {
    const bytes = new TextEncoder().encode(text);
    const p = this.x.web_alloc(bytes.length + 1);
    if (!p) throw new DamaError(9, "out of memory (text of " + bytes.length + " bytes)");
    const b = new Uint8Array(this.mem().buffer);
    b.set(bytes, p);
    b[p + bytes.length] = 0;
    return p;
  }
  get version() { return this.str(this.x.dama_version()); }
  games() {
    const out = [];
    for (let i = 0; i < this.x.dama_games_count(); i++) out.push(this.str(this.x.dama_game_name_at(i)));
    return out;
  }
  levelName(level) { return this.str(this.x.dama_level_name(level)); }
  levelDoc(level) { return this.str(this.x.dama_level_doc(level)); }
  newGame(name, position = "start") {
    const pn = this.cstr(name), pp = this.cstr(position || "start"), out = this.x.web_alloc(4), err = this.x.web_alloc(256);
    try {
      const rc = this.x.dama_game_new(pn, pp, out, err);
      if (rc !== 0) throw new DamaError(rc, this.str(err));
      return new Game(this, new DataView(this.mem().buffer).getUint32(out, true));
    } finally {
      for (const p of [pn, pp, out, err]) this.x.web_free(p);
    }
  }
}

class Game {
  constructor(dama, handle) {
    this.d = dama;
    this.x = dama.x;
    this.h = handle;
    this.x.web_watch_stop(handle);
  }
  free() {
    this.x.dama_game_free(this.h);
    this.h = 0;
  }
  check(rc) {
    if (rc !== 0) throw new DamaError(rc, this.d.str(this.x.dama_last_error(this.h)));
  }
  // A text out of fn(handle, ..., out, size).
  text(fn, ...args) {
    this.check(fn(this.h, ...args, this.d.scratch, this.d.scratchSize));
    return this.d.str(this.d.scratch);
  }
  withText(text, fn) {
    const p = this.d.cstr(text);
    try { return fn(p); } finally { this.x.web_free(p); }
  }
  get name() { return this.d.str(this.x.dama_game_name(this.h)); }
  get title() { return this.d.str(this.x.dama_game_title(this.h)); }
  position() { return this.text(this.x.dama_position); }
  startPosition() { return this.text(this.x.dama_start_position); }
  reset(position = "start") { this.withText(position || "start", (p) => this.check(this.x.dama_game_reset(this.h, p))); }

  moves() {
    const n = this.x.dama_moves_count(this.h), out = [];
    const caps = this.x.web_alloc(4 * 64);
    try {
      for (let i = 0; i < n; i++) {
        const text = this.text(this.x.dama_move_text, i);
        const k = Math.min(this.x.dama_move_captures(this.h, i, caps, 64), 64);
        const captures = Array.from(new Int32Array(this.d.mem().buffer, caps, k));
        out.push({
          index: i, text, captures,
          from: this.x.dama_move_from(this.h, i),
          to: this.x.dama_move_to(this.h, i),
          kind: this.x.dama_move_kind(this.h, i),
          promotion: this.x.dama_move_promotion(this.h, i),
        });
      }
    } finally {
      this.x.web_free(caps);
    }
    return out;
  }
  find(text) {
    const idx = this.x.web_alloc(4);
    try {
      this.withText(text, (p) => this.check(this.x.dama_move_find(this.h, p, idx)));
      return new DataView(this.d.mem().buffer).getInt32(idx, true);
    } finally {
      this.x.web_free(idx);
    }
  }
  apply(move) {
    if (typeof move === "number") this.check(this.x.dama_apply_index(this.h, move));
    else this.withText(move, (p) => this.check(this.x.dama_apply_move(this.h, p)));
  }
  undo() { this.check(this.x.dama_undo(this.h)); }
  get plyCount() { return this.x.dama_ply_count(this.h); }
  history() {
    const out = [];
    for (let i = 0; i < this.plyCount; i++) out.push(this.text(this.x.dama_history_move, i));
    return out;
  }
  pdn(white = "?", black = "?") {
    const pw = this.d.cstr(white), pb = this.d.cstr(black), len = this.x.web_alloc(4);
    try {
      let size = this.d.scratchSize, buf = this.d.scratch, own = false;
      let rc = this.x.dama_pdn(this.h, pw, pb, buf, size, len);
      if (rc === 10) {
        size = new DataView(this.d.mem().buffer).getUint32(len, true) + 1;
        buf = this.x.web_alloc(size);
        own = true;
        rc = this.x.dama_pdn(this.h, pw, pb, buf, size, len);
      }
      const text = this.d.str(buf);
      if (own) this.x.web_free(buf);
      this.check(rc);
      return text;
    } finally {
      for (const p of [pw, pb, len]) this.x.web_free(p);
    }
  }
  // {result: 0..3 (RESULT), reason: "no-moves", "repetition", ... or null}
  result() {
    const r = this.x.web_alloc(4);
    try {
      const res = this.x.dama_result(this.h, r);
      return { result: res, reason: this.d.str(new DataView(this.d.mem().buffer).getUint32(r, true)) };
    } finally {
      this.x.web_free(r);
    }
  }
  get sideToMove() { return this.x.dama_side_to_move(this.h); }
  get mustCapture() { return this.x.dama_must_capture(this.h) === 1; }
  get hasRoyal() { return this.x.dama_has_royal(this.h) === 1; }
  royalAttacked(side) { return this.x.dama_royal_attacked(this.h, side) === 1; }

  setLimit(limit, value) { this.check(this.x.dama_set_limit(this.h, limit, BigInt(value))); }
  clearLimits() { this.x.dama_clear_limits(this.h); }
  setHashMb(mb) { this.check(this.x.dama_set_hash_mb(this.h, mb)); }
  setLevel(level) {
    if (typeof level === "number") this.check(this.x.dama_set_level(this.h, level));
    else this.withText(level, (p) => this.check(this.x.dama_set_level_name(this.h, p)));
  }
  get level() { return this.x.dama_level(this.h); }
  setSeed(seed) { this.x.dama_set_seed(this.h, BigInt(seed)); }
  // The engine's move for the side to move (not applied) and what its
  // search found.
  search() {
    const move = this.text(this.x.dama_search);
    return {
      move,
      index: this.x.dama_search_index(this.h),
      score: this.x.dama_search_score(this.h),
      depth: this.x.dama_search_depth(this.h),
      nodes: Number(this.x.dama_search_nodes(this.h)),
      pv: this.text(this.x.dama_search_pv),
    };
  }
  // Would the engine, playing side (0 White, 1 Black), accept a draw now?
  acceptDraw(side) {
    const a = this.x.web_alloc(4);
    try {
      this.check(this.x.dama_accept_draw(this.h, side, a));
      return new DataView(this.d.mem().buffer).getInt32(a, true) === 1;
    } finally {
      this.x.web_free(a);
    }
  }
  evaluate() { return this.x.dama_evaluate(this.h); }
  get weightsLayout() { return this.d.str(this.x.dama_weights_layout(this.h)); }
  get weightsHash() { return this.d.str(this.x.dama_weights_hash(this.h)); }
  weightsDefault() { this.x.dama_weights_default(this.h); }
  // Weights from the text of a `dama export --format json` file.
  loadWeightsJson(text) { this.withText(text, (p) => this.check(this.x.dama_weights_parse_json(this.h, p))); }
}

export { WHITE, BLACK };

// board.js — the boards of dama's games for the page (web/app.js): where
// each square is drawn, square names, position strings read into pieces,
// move text read into its squares, and the SVG of a position: 8x8, Shatra's
// 62 squares, International's 10x10 and Canadian's 12x12. Squares are the library's indices
// (include/dama/engine.h, "Squares").

const SVG = "http://www.w3.org/2000/svg";

// Shatra (docs/rules/shatra.md, section 1): 14 ranks of 3, 3, 3, 1, 7 x 6,
// 1, 3, 3, 3 squares, numbered from the top left as White sees it.
const SHATRA_ROWS = [[2, 3], [2, 3], [2, 3], [3, 1], [0, 7], [0, 7], [0, 7], [0, 7], [0, 7], [0, 7], [3, 1], [2, 3], [2, 3], [2, 3]];

// The 8x8 games written with the book's square numbers 1-32, and how each
// book numbers them (engine/games/draughts/draughts.h, DraughtsNumbering):
// the library's board is always Russian's (a1 = 0 dark, White on ranks
// 1-3); Italian and Spanish books turn it (the dark square at each
// player's near right), so the page draws their board mirrored.
const NUMBERING = { brazilian: "english", pool: "english", english: "english", italian: "italian", spanish: "spanish" };
const TURNED = new Set(["italian", "spanish"]);
// Games whose first move is Black's (their move pairs begin with it).
const BLACK_FIRST = new Set(["english", "pool"]);

// Square index of number n (1..32) in numbering nb (draughts_square_from_number).
function squareOfNumber(nb, n) {
  const row = (n - 1) >> 2, j = (n - 1) % 4;
  if (nb === "spanish") return row * 8 + 2 * j + (row % 2); // rank by rank from rank 1
  if (nb === "italian") return squareOfNumber("english", 4 * row + (3 - j) + 1); // each row counted from the other end
  return (7 - row) * 8 + 2 * j + (row % 2 === 0 ? 1 : 0); // english: 1 = b8, 4 = h8, 5 = a7, ..., 32 = g1
}

function draughtsGeometry(name) {
  const nb = NUMBERING[name], numberOf = new Map();
  if (nb) for (let n = 1; n <= 32; n++) numberOf.set(squareOfNumber(nb, n), n);
  const cells = [];
  for (let sq = 0; sq < 64; sq++) {
    const file = sq % 8, rank = sq >> 3;
    const dark = (file + rank) % 2 === 0;
    cells.push({ sq, x: TURNED.has(name) ? 7 - file : file, y: 7 - rank, dark, playable: name === "turkish" || dark });
  }
  return {
    name, cols: 8, rows: 8, cells, numbered: !!nb, whiteFirst: !BLACK_FIRST.has(name),
    label: nb ? (sq) => String(numberOf.get(sq) ?? "") : (sq) => "abcdefgh"[sq % 8] + ((sq >> 3) + 1),
    index(token) {
      if (nb) return /^\d+$/.test(token) && Number(token) >= 1 && Number(token) <= 32 ? squareOfNumber(nb, Number(token)) : -1;
      const m = /^([a-h])([1-8])$/.exec(token);
      return m ? (Number(m[2]) - 1) * 8 + m[1].charCodeAt(0) - 97 : -1;
    },
    parse: parseDraughts,
  };
}

function shatraGeometry() {
  const cells = [];
  let sq = 0;
  SHATRA_ROWS.forEach(([first, count], y) => {
    for (let i = 0; i < count; i++, sq++) {
      const x = first + i;
      cells.push({ sq, x, y, dark: (x + y) % 2 === 1, playable: true, fortress: count !== 7 });
    }
  });
  return {
    name: "shatra", cols: 7, rows: 14, cells, moatY: 7, whiteFirst: true,
    label: (s) => String(s + 1),
    index(token) {
      const n = /^\d+$/.test(token) ? Number(token) : 0;
      return n >= 1 && n <= 62 ? n - 1 : -1;
    },
    parse: parseShatra,
  };
}

// The draughts boards beyond 8x8: International (10x10,
// docs/rules/international.md) and Canadian (12x12, docs/rules/canadian.md).
// The dark squares only, index ((n + 1) * rank + file) / 2 (a1 = 0 dark,
// rank and file 0..n-1; engine.h "Squares"), numbered as the FMJD numbers
// its 50: row by row from the far row, each from White's left (10x10:
// 1 = b10, 5 = j10, 46 = a1, 50 = i1; 12x12: 1 = b12, 67 = a1, 72 = k1).
// A light square has no index: it gets 1000 + n * rank + file, which no
// move names.
function squareOfNumberBig(size, num) {
  const half = size / 2, row = Math.floor((num - 1) / half), rank = size - 1 - row;
  const file = 2 * ((num - 1) % half) + (row % 2 === 0 ? 1 : 0);
  return ((size + 1) * rank + file) >> 1;
}

function bigBoard(name, size) {
  const count = (size * size) / 2, numberOf = new Map();
  for (let n = 1; n <= count; n++) numberOf.set(squareOfNumberBig(size, n), n);
  const cells = [];
  for (let rank = 0; rank < size; rank++) {
    for (let file = 0; file < size; file++) {
      const dark = (file + rank) % 2 === 0;
      cells.push({ sq: dark ? ((size + 1) * rank + file) >> 1 : 1000 + size * rank + file, x: file, y: size - 1 - rank, dark, playable: dark });
    }
  }
  return {
    name, cols: size, rows: size, cells, numbered: true, whiteFirst: true,
    label: (sq) => String(numberOf.get(sq) ?? ""),
    index: (token) => (/^\d+$/.test(token) && Number(token) >= 1 && Number(token) <= count ? squareOfNumberBig(size, Number(token)) : -1),
    parse: parseDraughts,
  };
}

const BIG_BOARDS = { international: 10, canadian: 12 };

export function geometry(name) {
  if (name === "shatra") return shatraGeometry();
  return BIG_BOARDS[name] ? bigBoard(name, BIG_BOARDS[name]) : draughtsGeometry(name);
}

// "W:Wa1,c3,Kd4:Bb6,f6" (PDN FEN; numbered games "W:W21,K22:B9", ranges
// "W:W21-32" too) -> Map square -> {white, kind}.
function parseDraughts(fen) {
  const pieces = new Map();
  const fields = fen.split(":");
  for (const f of fields.slice(1)) {
    const white = f[0] === "W";
    for (let item of f.slice(1).split(",")) {
      if (!item) continue;
      const king = item[0] === "K";
      if (king) item = item.slice(1);
      const range = /^(\d+)-(\d+)$/.exec(item);
      const names = range ? Array.from({ length: Math.max(0, range[2] - range[1] + 1) }, (_, i) => String(Number(range[1]) + i)) : [item];
      for (const n of names) {
        const sq = this.index(n);
        if (sq >= 0) pieces.set(sq, { white, kind: king ? "K" : "" });
      }
    }
  }
  return { pieces, whiteToMove: fields[0] === "W" };
}

// Section 8 of the Shatra rules: the board field rank by rank.
function parseShatra(position) {
  const pieces = new Map();
  const [board, side] = position.split(" ");
  let sq = 0;
  for (const c of board.replace(/\//g, "")) {
    if (/\d/.test(c)) sq += Number(c);
    else {
      pieces.set(sq, { white: c === c.toUpperCase(), kind: c.toUpperCase() === "S" ? "" : c.toUpperCase() });
      sq++;
    }
  }
  return { pieces, whiteToMove: side === "w" };
}

// The squares a move's text passes: start, then every landing square
// ("c3:e5:g3", "57*40", "13-3=R", "2=Q" -> its one square).
export function moveSquares(geo, text) {
  return text.replace(/=[A-Z]/g, "").split(/[-:*x]/).filter((t) => t).map((t) => geo.index(t));
}

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

const PIECE_NAMES = { "": "man", K: "king" };
const SHATRA_NAMES = { "": "shatra", K: "Biy", Q: "Batyr", R: "Tura", B: "Yalkyn" };

export function pieceName(geo, p) {
  const names = geo.name === "shatra" ? SHATRA_NAMES : PIECE_NAMES;
  return (p.white ? "white " : "black ") + names[p.kind];
}

// view: {pieces, flipped, selected, targets: Set, last: Set, threatened:
// Set of squares, captured: Set, focus}. Returns the <svg>.
export function drawBoard(geo, view) {
  const svg = el("svg", { viewBox: `-0.4 -0.1 ${geo.cols + 0.5} ${geo.rows + 0.5}`, role: "group", "aria-label": "Board" });
  const place = (c) => (view.flipped ? { x: geo.cols - 1 - c.x, y: geo.rows - 1 - c.y } : { x: c.x, y: c.y });
  for (const c of geo.cells) {
    const { x, y } = place(c);
    const p = view.pieces.get(c.sq);
    const label = geo.label(c.sq) + (p ? ", " + pieceName(geo, p) : "") + (view.targets.has(c.sq) ? ", target" : "");
    const g = el("g", { class: "cell", "data-square": c.sq, "data-name": c.playable ? geo.label(c.sq) : "", role: "button", "aria-label": label,
      tabindex: view.focus === c.sq ? "0" : "-1", transform: `translate(${x} ${y})` }, svg);
    if (view.selected === c.sq) g.classList.add("selected");
    if (view.last.has(c.sq)) g.classList.add("last");
    el("rect", { class: `sq ${c.dark ? "dark" : "light"}${c.fortress ? " fortress" : ""}`, width: 1, height: 1 }, g);
    el("rect", { class: "frame", x: 0.05, y: 0.05, width: 0.9, height: 0.9, fill: "none" }, g);
    if (geo.name === "shatra" || (geo.numbered && c.playable)) el("text", { class: "coord num", x: 0.05, y: 0.2 }, g).textContent = geo.label(c.sq);
    if (p) drawPiece(g, geo, p, c.sq, view);
    if (view.targets.has(c.sq)) el("circle", { class: "target-dot", cx: 0.5, cy: 0.5, r: p ? 0.14 : 0.18 }, g);
  }
  drawCoordinates(svg, geo, place);
  if (geo.moatY !== undefined) {
    const y = view.flipped ? geo.rows - geo.moatY : geo.moatY;
    el("line", { class: "moat", x1: 0, x2: geo.cols, y1: y, y2: y }, svg);
  }
  return svg;
}

function drawPiece(g, geo, p, sq, view) {
  const cls = ["piece", p.white ? "white" : "black"];
  if (view.threatened.has(sq)) cls.push("threatened");
  if (view.captured.has(sq)) cls.push("captured");
  const pg = el("g", { class: cls.join(" "), "data-piece": (p.white ? "w" : "b") + (p.kind || "S") }, g);
  el("circle", { cx: 0.5, cy: 0.5, r: 0.4 }, pg);
  if (geo.name !== "shatra" && p.kind === "K") el("circle", { cx: 0.5, cy: 0.5, r: 0.25, fill: "none" }, pg);
  const letter = geo.name === "shatra" ? p.kind : p.kind === "K" ? "K" : "";
  if (letter) el("text", { x: 0.5, y: 0.52 }, pg).textContent = letter;
}

function drawCoordinates(svg, geo, place) {
  if (geo.name === "shatra" || geo.numbered) return; // their numbers are in the squares
  for (let i = 0; i < 8; i++) {
    const file = place({ x: i, y: 7 }), rank = place({ x: 0, y: 7 - i });
    el("text", { class: "coord", x: file.x + 0.45, y: 8.3 }, svg).textContent = "abcdefgh"[i];
    el("text", { class: "coord", x: -0.3, y: rank.y + 0.55 }, svg).textContent = String(i + 1);
  }
}

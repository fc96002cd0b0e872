// perft.js DEPTH [FEN] — perft (D convention: one count per legal move the
// library lists) of the npm package `draughts` (draughts.js, International
// draughts 10x10), with its leaves per second. Used by
// scripts/perft-compare.sh; written for dama, the package is installed by it.
const Draughts = require('draughts');
function perft(g, d) {
  const moves = g.moves();
  if (d === 1) return moves.length;
  let n = 0;
  for (const m of moves) { g.move(m); n += perft(g, d - 1); g.undo(); }
  return n;
}
const d = Number(process.argv[2]);
const g = process.argv[3] ? new Draughts(process.argv[3]) : new Draughts();
const t = process.hrtime.bigint();
const n = perft(g, d);
const s = Number(process.hrtime.bigint() - t) / 1e9;
console.log(`perft ${d} ${n} ${s.toFixed(3)} s ${(n / s / 1e6).toFixed(4)} M leaves/s`);

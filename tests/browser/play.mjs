// play.mjs — the web page (web/, docs/web.md) played in headless Chromium
// as a person would, through its own pointer and keyboard events, every
// position and legal move checked against the native build (`dama moves`,
// `dama status`). Run by tests/browser/play.sh, which serves the page.
// Usage: node play.mjs URL DAMA_BINARY OUT_DIR [--figures]
// Prints "ok"/"FAIL" lines; exits 1 when a check failed.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const [url, dama, outDir, flag] = process.argv.slice(2);
const { chromium } = await import(process.env.PLAYWRIGHT_CORE || "playwright-core");
let failures = 0, passes = 0;
const ok = (cond, what) => {
  if (cond) passes++;
  else {
    failures++;
    console.log("FAIL: " + what);
  }
  return cond;
};
const eq = (got, want, what) => ok(got === want, `${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
const native = (...args) => execFileSync(dama, args, { encoding: "utf8" });
const statusOf = (game, moves, fen = "start") => {
  const args = ["status", "--game", game, "--fen", fen, "--moves", moves.join(" ")];
  return Object.fromEntries(native(...args).trim().split("\n").map((l) => [l.slice(0, l.indexOf(" ")), l.slice(l.indexOf(" ") + 1)]));
};
// the legal moves `dama moves` lists (a finished game: its "game over: ..." line, no move)
const nativeMoves = (game, fen) =>
  native("moves", "--game", game, "--fen", fen).trim().split("\n").filter((l) => l && !l.startsWith("game over: ")).sort();

// The games written with the book's square numbers 1-32 (the page names
// their squares so: data-name), and the book's corners as White sees the
// board (docs/rules sources: English 1 = b8 ... 29 = a1, 32 = g1; Italian
// 1 top left .. 32 bottom right on the turned board; Spanish 1 = h1 bottom
// right .. 32 = a8 top left): [number, column, row] from White's top left.
const NUMBERED = {
  brazilian: [[1, 1, 0], [4, 7, 0], [5, 0, 1], [29, 0, 7], [32, 6, 7]],
  pool: [[1, 1, 0], [4, 7, 0], [5, 0, 1], [29, 0, 7], [32, 6, 7]],
  english: [[1, 1, 0], [4, 7, 0], [5, 0, 1], [29, 0, 7], [32, 6, 7]],
  italian: [[1, 0, 0], [4, 6, 0], [5, 1, 1], [29, 1, 7], [32, 7, 7]],
  spanish: [[1, 7, 7], [4, 1, 7], [5, 6, 6], [29, 6, 0], [32, 0, 0]],
  // International (10x10, FMJD): 1 = b10, 5 = j10, 6 = a9, 46 = a1, 50 = i1
  international: [[1, 1, 0], [5, 9, 0], [6, 0, 1], [46, 0, 9], [50, 8, 9]],
};
const SIZE = (game) => (game === "international" ? 10 : 8);
// The squares a move's text passes (start, landings), as the library
// indexes them (engine.h "Squares"); numbered games: their names.
function squares(game, text) {
  return text.replace(/=[A-Z]/g, "").split(/[-:*x]/).filter((t) => t).map((t) =>
    NUMBERED[game] ? t : game === "shatra" ? Number(t) - 1 : (Number(t.slice(1)) - 1) * 8 + t.charCodeAt(0) - 97);
}
const cellOf = (game, sq) => (NUMBERED[game] ? `#board [data-name="${sq}"]` : `#board [data-square="${sq}"]`);

let seed = 12345;
const rand = (n) => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return Math.floor((seed / 2147483648) * n);
};

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--disable-extensions"],
});
const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
const page = await context.newPage();
const pageErrors = [];
page.on("console", (m) => { if (m.type() === "error") pageErrors.push(m.text() + " at " + JSON.stringify(m.location())); });
page.on("pageerror", (e) => pageErrors.push(e.stack));

const board = (key) => page.$eval("#board", (b, k) => b.dataset[k], key);
async function open(query) {
  await page.goto(url + query);
  await page.waitForSelector("body[data-engine='1']", { timeout: 60000 });
  await idle();
}
// Until the engine is not thinking (its move is made).
async function idle() {
  await page.waitForFunction(() => document.getElementById("board").dataset.busy === "0", null, { timeout: 120000 });
}
async function center(sel) {
  const box = await page.locator(sel).boundingBox();
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}
const history = () => page.$$eval("#moves [data-move]", (s) => s.map((e) => e.dataset.move));

// Enters a move: by clicks, by a drag of its first step, or by keyboard.
async function enter(game, text, how) {
  const path = squares(game, text);
  const steps = path.length === 1 ? [path[0], path[0]] : path;
  for (let i = 0; i < steps.length; i++) {
    const sel = cellOf(game, steps[i]);
    if (how === "drag" && i === 0 && steps[1] !== steps[0]) {
      const a = await center(sel), b = await center(cellOf(game, steps[1]));
      await page.mouse.move(a.x, a.y);
      await page.mouse.down();
      await page.mouse.move(b.x, b.y, { steps: 6 });
      await page.mouse.up();
      i++;
    } else if (how === "keyboard") {
      await page.focus(sel);
      await page.keyboard.press("Enter");
    } else await page.click(sel);
  }
  if (await page.isVisible("#promotion")) await page.click(`#promotion [data-move="${text}"]`);
}

// One position of the page against the native build: position string,
// legal moves, result, and in Shatra the threatened Biys drawn red.
async function checkPosition(game, start) {
  const moves = await history(), fen = await board("position");
  const st = statusOf(game, moves, start);
  eq(fen, st.fen, `${game} after ${moves.length} plies: position`);
  eq((await board("moves")).split(" ").filter((m) => m).sort().join(" "), nativeMoves(game, fen).join(" "),
    `${game} ${fen}: legal moves`);
  const over = await board("over");
  ok((st.result === "*") === (over === "" || /resign|agreed/.test(over)), `${game} ${fen}: result ${st.result}, page '${over}'`);
  if (NUMBERED[game]) { // every piece of the position string drawn on its numbered square, none elsewhere
    const want = [], [, w, b] = fen.split(":");
    for (const [side, list] of [["w", w.slice(1)], ["b", b.slice(1)]])
      for (const item of list.split(",").filter((x) => x)) want.push(`${item.replace("K", "")}:${side}${item[0] === "K" ? "K" : "S"}`);
    const drawn = await page.$$eval("#board .piece", (ps) => ps.map((p) => `${p.closest(".cell").dataset.name}:${p.dataset.piece}`));
    eq(drawn.sort().join(" "), want.sort().join(" "), `${game} ${fen}: pieces drawn on their numbered squares`);
  }
  if (game === "shatra") {
    for (const [side, key] of [["w", "white-royal-attacked"], ["b", "black-royal-attacked"]]) {
      const red = await page.$$eval(`#board .piece[data-piece="${side}K"].threatened`, (e) => e.length);
      eq(red, st[key] === "yes" ? 1 : 0, `${game} ${fen}: ${side} Biy drawn red`);
    }
  }
  return { moves, fen, st };
}

// The numbered squares where the book has them: the corners' numbers in
// the right columns and rows (the turned boards mirrored), only the 32
// (International: 50) playing squares named, the dark square at each
// player's near right in Italian and Spanish (at the near left elsewhere).
async function checkNumbers(game) {
  const cells = await page.$$eval("#board .cell", (cs) => cs.map((c) => {
    const r = c.getBoundingClientRect();
    return { name: c.dataset.name, x: r.x, y: r.y, dark: !!c.querySelector(".sq.dark") };
  }));
  const xs = [...new Set(cells.map((c) => Math.round(c.x)))].sort((a, b) => a - b);
  const ys = [...new Set(cells.map((c) => Math.round(c.y)))].sort((a, b) => a - b);
  const n = SIZE(game);
  eq(`${xs.length}x${ys.length}`, `${n}x${n}`, `${game}: an ${n}x${n} board`);
  eq(cells.filter((c) => c.name).map((c) => Number(c.name)).sort((a, b) => a - b).join(","),
    Array.from({ length: (n * n) / 2 }, (_, i) => i + 1).join(","), `${game}: squares 1-${(n * n) / 2} named, once each`);
  for (const [n, col, row] of NUMBERED[game]) {
    const c = cells.find((e) => e.name === String(n));
    eq(`${xs.indexOf(Math.round(c.x))},${ys.indexOf(Math.round(c.y))}`, `${col},${row}`, `${game}: square ${n} at column,row`);
  }
  const nearRight = cells.find((c) => Math.round(c.x) === xs[n - 1] && Math.round(c.y) === ys[n - 1]);
  eq(nearRight.dark, game === "italian" || game === "spanish", `${game}: a dark square at White's near right`);
}

// A whole game (bounded plies) of `game`, the person White at level
// beginner (quick replies): every position checked.
async function playGame(game, maxPlies) {
  await open(`?game=${game}&level=beginner&movetime=500`);
  // (in English and Pool Black, dama, moves first: its first move is made)
  eq(await board("position"), statusOf(game, await history()).fen, `${game}: start position`);
  eq((await history()).length, game === "english" || game === "pool" ? 1 : 0, `${game}: dama's first move when it has it`);
  if (NUMBERED[game]) await checkNumbers(game);
  await page.screenshot({ path: path.join(outDir, `${game}-start.png`) });
  const hows = ["click", "drag", "keyboard"];
  for (let turn = 0; ; turn++) {
    const { moves, fen } = await checkPosition(game, "start");
    if ((await board("over")) || moves.length >= maxPlies) break;
    const legal = nativeMoves(game, fen);
    const multi = legal.filter((m) => squares(game, m).length > 2);
    const move = multi.length ? multi[rand(multi.length)] : legal[rand(legal.length)];
    const ply = moves.length;
    await enter(game, move, hows[turn % 3]);
    const played = await page.waitForFunction((p) => Number(document.getElementById("board").dataset.ply) > p, ply,
      { timeout: 30000 }).then(() => true, () => false);
    if (!ok(played, `${game} ${fen}: the page took ${move} (${hows[turn % 3]})`)) {
      await page.screenshot({ path: path.join(outDir, `${game}-stuck.png`) });
      break;
    }
    await idle();
    eq((await history())[ply], move, `${game}: the move entered (${hows[turn % 3]})`);
  }
  await page.screenshot({ path: path.join(outDir, `${game}-game.png`) });
  return history();
}

console.log("load and first board");
await open("");
const first = await page.$eval("body", (b) => ({ at: Number(b.dataset.firstBoardAt), ms: Number(b.dataset.firstBoardMs) }));
ok(first.at > 0, "the page reports its first board");
console.log(`figure: first board ${first.at} ms after navigation (${first.ms} ms of app.js)`);
await page.focus('#board [data-square="0"]');
await page.keyboard.press("ArrowUp");
eq(await page.evaluate(() => document.activeElement.dataset.square), "8", "ArrowUp from a1 goes to a2");

// PLAY_ONLY=game plays only that game, PLAY_ROUNDS times (looking for a rare failure).
const only = process.env.PLAY_ONLY;
const rounds = only ? Number(process.env.PLAY_ROUNDS || 5) : 1;
const GAMES = [["russian", 40], ["turkish", 40], ["shatra", 30], ["brazilian", 20], ["pool", 20], ["english", 20],
  ["czech", 20], ["italian", 20], ["spanish", 20], ["international", 20]];
for (const [game, plies] of GAMES.filter(([g]) => !only || g === only)) for (let round = 0; round < rounds; round++) {
  console.log("game " + game);
  // Random moves may lose a game early: up to three games, 20 plies, at least 12.
  let moves = [], total = 0;
  for (let n = 0; n < 3 && total < 20; n++) {
    moves = await playGame(game, plies);
    total += moves.length;
  }
  ok(total >= 12, `${game}: ${total} plies played`);
  if (game !== "russian") continue;
  // Undo takes back the engine's reply and the person's move.
  if (!(await board("over"))) {
    const before = Number(await board("ply"));
    await page.click("#undo");
    await idle();
    eq(Number(await board("ply")), before - 2, "undo: two plies back");
    await checkPosition(game, "start");
  }
  // Resign, and the PDN says so.
  if (await board("over")) await open("?game=russian&level=beginner");
  await enter(game, "c3-d4", "click");
  await idle();
  await page.click("#resign");
  eq(await board("over"), "black wins:resign", "resign: Black wins");
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#pdn")]);
  const pdn = fs.readFileSync(await download.path(), "utf8");
  ok(pdn.includes('[Result "0-1"]') && pdn.trimEnd().endsWith("0-1"), "PDN of a resigned game: 0-1");
  ok(pdn.includes((await history())[0]), "PDN holds the moves");
}

if (only) {
  eq(pageErrors.join(" | "), "", "no console errors");
  console.log(`${passes} passed, ${failures} failed`);
  process.exit(failures ? 1 : 0);
}
console.log("a capture of two men, one landing at a time");
await open("?game=russian&level=beginner&fen=" + encodeURIComponent("W:Wc3,a1:Bd4,f6,h8"));
await page.click('#board [data-square="18"]'); // c3
eq(await page.$$eval("#board .target-dot", (d) => d.map((e) => e.closest(".cell").dataset.square).join(" ")), "36",
  "the first landing square (e5) is the one target");
await page.click('#board [data-square="36"]'); // e5
eq(await page.$$eval("#board .piece.captured", (d) => d.map((e) => e.closest(".cell").dataset.square).join(" ")), "27",
  "after the first landing: d4 shown captured");
eq(await board("ply"), "0", "the capture is not played before its last landing square");
await page.click('#board [data-square="54"]'); // g7
await page.waitForFunction(() => Number(document.getElementById("board").dataset.ply) >= 1, null, { timeout: 30000 });
await idle();
eq((await history())[0], "c3:e5:g7", "the capture played: c3:e5:g7");
await checkPosition("russian", "W:Wc3,a1:Bd4,f6,h8");

console.log("International: a king's captures, one landing at a time (rules E5, E4)");
await open("?game=international&level=beginner&fen=" + encodeURIComponent("W:WK6:B9,17,23,30,37"));
const targets = () => page.$$eval("#board .target-dot", (d) => d.map((e) => e.closest(".cell").dataset.name).sort().join(" "));
await page.click(cellOf("international", "6"));
eq(await targets(), "28 35 39", "E5: from 6, the end 35 or the first landings 28 and 39 of the two routes to 3");
await page.click(cellOf("international", "28"));
eq(await targets(), "14", "E5: after 28, on to 14");
eq(await page.$$eval("#board .piece.captured", (d) => d.map((e) => e.closest(".cell").dataset.name).join(" ")), "17",
  "E5: after 28, 17 shown captured");
await page.click(cellOf("international", "14"));
await page.click(cellOf("international", "3"));
await page.waitForFunction(() => Number(document.getElementById("board").dataset.ply) >= 1, null, { timeout: 30000 });
await idle();
eq((await history())[0], "6x28x14x3", "E5: the route played");
await checkPosition("international", "W:WK6:B9,17,23,30,37");
await page.screenshot({ path: path.join(outDir, "international-e5.png") });
await open("?game=international&level=beginner&fen=" + encodeURIComponent("W:W42,K46:B7,13,22,28,41,K49"));
await enter("international", "46x16", "click");
await page.waitForFunction(() => Number(document.getElementById("board").dataset.ply) >= 1, null, { timeout: 30000 });
await idle();
eq((await history())[0], "46x16", "E4: the king takes four and stops on 16");
await checkPosition("international", "W:W42,K46:B7,13,22,28,41,K49");

console.log("draw offers");
// White (the person) three kings against one man: dama (Black) accepts.
await open("?game=russian&movetime=500&fen=" + encodeURIComponent("W:WKa1,Kc1,Ke1:Bh8"));
await page.click("#draw");
await page.waitForFunction(() => document.getElementById("board").dataset.over !== "", null, { timeout: 60000 });
eq(await board("over"), "draw:agreed", "a lost position: dama accepts the draw");
// One man against three kings: dama declines and play goes on.
await open("?game=russian&movetime=500&fen=" + encodeURIComponent("W:Wa1:BKb8,Kd8,Kf8"));
await page.click("#draw");
await page.waitForFunction(() => /declines/.test(document.getElementById("status").textContent), null, { timeout: 60000 });
eq(await board("over"), "", "a won position: dama declines the draw");

console.log("a position a rule has ended");
// Turkish: White's lone man against a king and men (lone-man): the game is
// over on arrival and the page offers no move, as `dama moves` lists none.
const loneFen = "W:Wf3:BKa4,b6,c6,d6,e6,h6,a7,b7,c7,d7,e7,f7,g7,h7";
await open("?game=turkish&level=beginner&fen=" + encodeURIComponent(loneFen));
eq(await board("moves"), "", "turkish lone man: no legal move on the page");
eq(await board("over"), "black wins:lone-man", "turkish lone man: black wins on arrival");
await checkPosition("turkish", loneFen);

console.log("the red Biy");
const biyFen = "sqs/srs/br1/R/1ss3s/6k/s3s2/2S4/B4K1/SS3SS/1/2B/SRS/SQS b 1-8,56-62 - - - 0 7";
await open("?game=shatra&side=black&fen=" + encodeURIComponent(biyFen));
eq(statusOf("shatra", [], biyFen)["white-royal-attacked"], "yes", "native: White's Biy is attacked");
const fill = await page.$eval('#board .piece[data-piece="wK"] circle', (c) => getComputedStyle(c).fill).catch(() => "none");
eq(fill, "rgb(211, 47, 47)", "the threatened Biy is drawn red");
await page.screenshot({ path: path.join(outDir, "shatra-red-biy.png") });

console.log("weights");
const tmp = fs.mkdtempSync(path.join(outDir, "weights-"));
const exportJson = (game) => {
  const f = path.join(tmp, `${game}.json`);
  native("export", "--game", game, "--weights", "default", "--format", "json", "--out", f, "--force");
  return f;
};
const russian = JSON.parse(fs.readFileSync(exportJson("russian"), "utf8"));
const variant = (name, edit) => {
  const d = structuredClone(russian);
  edit(d);
  const f = path.join(tmp, name);
  fs.writeFileSync(f, JSON.stringify(d));
  return f;
};
// Men and kings worth -5 men each: dama (Black, level strong, a fixed
// seed: deterministic) answers 1.c3-d4 by hanging a man.
const neg = variant("negative.json", (d) => {
  for (const t of d.terms) if (["MAN", "KING", "MAN_EG", "KING_EG"].includes(t.name)) t.values = [-500];
  delete d.hash;
});
async function replyTo(move) {
  await enter("russian", move, "click");
  await page.waitForFunction(() => Number(document.getElementById("board").dataset.ply) >= 2, null, { timeout: 60000 });
  await idle();
  return (await history())[1];
}
await open("?game=russian&level=strong&seed=1");
const replyDefault = await replyTo("c3-d4");
await page.setInputFiles("#weights-file", neg);
await page.waitForFunction(() => document.getElementById("weights").dataset.state === "loaded", null, { timeout: 30000 });
ok(/lineage/.test(await page.textContent("#weights")), "the loaded file's provenance is shown");
await page.click("#new");
await idle();
const replyLoaded = await replyTo("c3-d4");
ok(replyLoaded !== replyDefault, `loaded weights change dama's reply to c3-d4: ${replyDefault} with the defaults, ${replyLoaded} loaded`);
eq(statusOf("russian", ["c3-d4", replyLoaded]).capture, "yes", `with men worth less than nothing dama hangs one (${replyLoaded})`);
// The engine's reply time at level max against its time per move (its
// replies with more than one legal move; one is played at once).
await open("?game=russian&side=black&movetime=1000");
const replyMs = [Number(await page.$eval("#engine", (e) => e.dataset.ms))];
for (let i = 0; i < 8 && !(await board("over")); i++) {
  const ply = Number(await board("ply"));
  const legal = (await board("moves")).split(" ");
  await enter("russian", legal[rand(legal.length)], "click");
  await page.waitForFunction((p) => Number(document.getElementById("board").dataset.ply) >= p + 2 ||
    document.getElementById("board").dataset.over !== "", ply, { timeout: 60000 });
  await idle();
  const h = await history();
  if (h.length === ply + 2 && nativeMoves("russian", statusOf("russian", h.slice(0, -1)).fen).length > 1) {
    replyMs.push(Number(await page.$eval("#engine", (e) => e.dataset.ms)));
  }
}
console.log(`figure: engine replies at level max, 1000 ms per move: ${replyMs.join(", ")} ms`);
// Refused files, each with the library's message; the page goes on.
const turkish = exportJson("turkish");
const refused = [
  [turkish, "weights JSON is for game 'turkish', not 'russian'"],
  [variant("layout.json", (d) => { d.layout_version = "0123456789abcdef"; }), "evaluation layout version 0123456789abcdef"],
  [variant("hash.json", (d) => { d.hash = "0000000000000000"; }), "does not match its values"],
  [variant("corrupt.json", () => {}), "syntax error"],
  [path.join(tmp, "empty.json"), "syntax error at line 1 (byte 0)"],
  [path.join(tmp, "huge.json"), "larger than any dama weights export"],
];
fs.writeFileSync(refused[3][0], fs.readFileSync(refused[3][0], "utf8").slice(0, 5000));
fs.writeFileSync(refused[4][0], "");
fs.closeSync(fs.openSync(refused[5][0], "w"));
fs.truncateSync(refused[5][0], 100 * 1024 * 1024);
for (const [file, message] of refused) {
  await page.setInputFiles("#weights-file", file);
  await page.waitForFunction(() => document.getElementById("weights").dataset.state === "refused", null, { timeout: 30000 });
  const text = await page.textContent("#weights");
  ok(text.includes(message), `${path.basename(file)} refused with '${message}': page says '${text}'`);
  if (!/(huge|empty)[.]json$/.test(file)) {
    // The same message as the native library's (which reads an empty
    // file as a weight file of its own format).
    let err = "";
    try { native("search", "--game", "russian", "--depth", "1", "--weights", file); } catch (e) { err = String(e.stderr); }
    ok(err.includes(message), `native dama refuses ${path.basename(file)} with '${message}' too: '${err.trim()}'`);
  }
  await page.$eval("#weights", (e) => { e.dataset.state = ""; });
}
fs.rmSync(tmp, { recursive: true, force: true });

console.log("phone");
await page.setViewportSize({ width: 390, height: 844 });
await open("?game=shatra&level=beginner");
eq(await page.evaluate(() => document.documentElement.scrollWidth <= 390), true, "no sideways scrolling at 390 px");
await page.screenshot({ path: path.join(outDir, "shatra-phone.png"), fullPage: true });

if (flag === "--figures") await figures();
eq(pageErrors.join(" | "), "", "no console errors");
await browser.close();
console.log(`${passes} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);

// Nodes/s of dama bench's search in the page and natively, side by side,
// 5 alternating runs each, medians (docs/web.md).
async function figures() {
  const loads = [];
  for (let i = 0; i < 7; i++) {
    await page.goto(url + "?game=russian");
    await page.waitForSelector("body[data-ready='1']");
    loads.push(Number(await page.$eval("body", (b) => b.dataset.firstBoardAt)));
  }
  const sorted = [...loads].sort((a, b) => a - b);
  console.log(`figure: first board after navigation, 7 loads: ${loads.join(", ")} ms (median ${sorted[3]})`);
  const depths = { russian: 17, turkish: 12, shatra: 10 };
  const med = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
  for (const [game, depth] of Object.entries(depths)) {
    const web = [], nat = [], ratios = [];
    let webNodes = 0, natNodes = 0;
    for (let i = 0; i < 7; i++) {
      const r = await page.evaluate(async ([g, d]) => {
        const { loadDama } = await import("./dama.js");
        const m = await loadDama(fetch("dama.wasm"));
        const out = m.x.web_alloc(16), name = m.cstr(g);
        m.x.web_bench(name, d, out);
        return Array.from(new Float64Array(m.mem().buffer, out, 2));
      }, [game, depth]);
      webNodes = r[0];
      web.push(r[0] / r[1]);
      const text = native("bench", "--game", game, "--depth", String(depth));
      natNodes = Number(/: (\d+) nodes/.exec(text)[1]);
      nat.push(Number(/search: ([\d.]+) M nodes\/s/.exec(text)[1]) * 1e6);
      ratios.push(web[i] / nat[i]);
    }
    eq(webNodes, natNodes, `bench ${game} depth ${depth}: the same node count in the page and natively`);
    console.log(`figure: bench ${game} depth ${depth}: ${webNodes} nodes (native ${natNodes}); medians of 7 alternating runs: ` +
      `wasm ${(med(web) / 1e6).toFixed(2)} M nodes/s, native ${(med(nat) / 1e6).toFixed(2)} M nodes/s; ` +
      `median ratio ${(100 * med(ratios)).toFixed(0)}% (runs ${ratios.map((x) => (100 * x).toFixed(0)).join(" ")})`);
  }
}

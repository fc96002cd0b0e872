// weights.js — the page's "Load weights" (web/app.js): a file written by
// `dama export --format json` is checked by the library itself (the
// page's game refuses another game, another layout version, a wrong hash
// or bad JSON with the library's message), then used by the engine of
// that game; its provenance is shown. A file larger than any export is
// refused before it is read, so the page never stalls on one.

const MAX_BYTES = 16 * 1024 * 1024; // a Shatra export is about 1 MB

export class WeightsPanel {
  constructor(S, info, input, reset) {
    this.S = S;
    this.info = info;
    this.byGame = new Map(); // game name -> {text, file, prov, hash}
    input.addEventListener("change", () => {
      const f = input.files[0];
      input.value = "";
      if (f) this.load(f);
    });
    reset.addEventListener("click", () => {
      this.byGame.delete(S.game.name);
      this.showFor(S.game.name);
    });
    this.reset = reset;
  }

  textFor(name) {
    const w = this.byGame.get(name);
    return w ? w.text : null;
  }

  async load(file) {
    const game = this.S.game;
    if (file.size > MAX_BYTES) {
      return this.error(`${file.name}: ${(file.size / 1048576).toFixed(1)} MB, larger than any dama weights export ` +
        `(at most ${MAX_BYTES / 1048576} MB): not loaded`);
    }
    let text;
    try {
      text = await file.text();
    } catch (err) {
      return this.error(`${file.name}: could not be read (${err.message})`);
    }
    try {
      game.loadWeightsJson(text); // the library's checks, on the page's own game
    } catch (err) {
      game.weightsDefault();
      return this.error(`${file.name}: ${err.message}`);
    }
    const hash = game.weightsHash;
    game.weightsDefault();
    let prov = null;
    try {
      prov = JSON.parse(text).provenance || null;
    } catch (err) {
      prov = null; // the library read it; a provenance it cannot show is no reason to refuse
    }
    this.byGame.set(game.name, { text, file: file.name, prov, hash });
    this.showFor(game.name);
  }

  error(message) {
    this.info.textContent = message;
    this.info.classList.add("error");
    this.info.dataset.state = "refused";
  }

  showFor(name) {
    const w = this.byGame.get(name);
    this.info.classList.remove("error");
    this.reset.disabled = !w;
    if (!w) {
      this.info.textContent = "Weights: dama's compiled-in defaults.";
      this.info.dataset.state = "default";
      this.info.dataset.hash = "";
      return;
    }
    this.info.textContent = `Weights: ${w.file} (hash ${w.hash})${describe(w.prov)}`;
    this.info.dataset.state = "loaded";
    this.info.dataset.hash = w.hash;
  }
}

// One line of an export's "provenance" object (docs/commands.md, export).
function describe(p) {
  if (!p) return "";
  const parts = [];
  const ws = p.weight_set;
  if (ws) parts.push(`weight set ${ws.name || "#" + ws.id} (${ws.how || "?"}, ${ws.created || "?"})`);
  if (p.lineage) parts.push(`lineage ${p.lineage}`);
  if (p.tuning) parts.push(`tuned on ${p.tuning.positions_train} positions, valid loss ${p.tuning.valid_loss}`);
  if (p.match) {
    const m = p.match;
    // no interval (null) where none could be estimated: one pair, or every pair scored the same
    const interval = m.elo_lo === null || m.elo_hi === null ? "(no interval)" : `[${m.elo_lo}, ${m.elo_hi}]`;
    parts.push(`match: ${m.games} games, +${m.wins} =${m.draws} -${m.losses}, Elo ${m.elo} ${interval}`);
  }
  if (p.database) parts.push(`from ${p.database}`);
  return parts.length ? " — " + parts.join("; ") : "";
}

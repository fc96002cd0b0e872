#!/usr/bin/env python3
"""Checks a dama report against its database.

Usage: check_report.py DOM_HTML PAGE_HTML DATABASE DAMA_BINARY [PNG...]

DOM_HTML is the page as headless Chromium parsed and serialised it
(--dump-dom, scripts disabled); PAGE_HTML is the file dama report wrote.
Every figure's data points (the data-x / data-y / data-value attributes the
SVG writer puts on each point and bar) are compared with queries on the
database; tournament ratings with `dama ratings`. PNG files are screenshots
that must be real pictures of the requested size. Prints one line per
failed check and exits 1 if any failed.
"""
import html.parser
import math
import re
import sqlite3
import struct
import subprocess
import sys
import zlib

failures = []
checks = 0


def check(cond, what):
    global checks
    checks += 1
    if not cond:
        failures.append(what)
        print("FAIL:", what)


class Page(html.parser.HTMLParser):
    """The parts of the page the checks need, by figure and table id."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.sections = {}  # id -> heading text
        self.figures = {}  # id -> {"points": [(series, attrs)], "bars": [attrs], "nodes": [attrs], "series": {}}
        self.tables = {}  # enclosing div id -> rows of cell texts
        self.svgs = 0
        self.stack = []  # open elements: (tag, attrs)
        self.figure = None
        self.series = None
        self.section = None
        self.div = None
        self.text = None  # collecting text of h2 / td / th / title
        self.row = None
        self.node = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.stack.append((tag, a))
        if tag == "section":
            self.section = a.get("id")
            self.sections[self.section] = ""
        elif tag == "h2" and self.section:
            self.text = []
        elif tag == "figure":
            self.figure = {"points": [], "bars": [], "nodes": [], "series": {}}
            self.figures[a.get("id")] = self.figure
        elif tag == "svg":
            self.svgs += 1
        elif tag == "g" and "data-series" in a and self.figure is not None:
            self.series = int(a["data-series"])
            self.figure["series"][self.series] = a
        elif tag == "g" and a.get("class") == "node" and self.figure is not None:
            self.node = dict(a)
            self.figure["nodes"].append(self.node)
        elif tag == "title" and self.node is not None:
            self.text = []
        elif tag == "circle" and a.get("class") == "pt" and self.figure is not None:
            self.figure["points"].append((self.series, a))
        elif tag == "rect" and a.get("class") == "bar" and self.figure is not None:
            self.figure["bars"].append(a)
        elif tag == "div" and a.get("id"):
            self.div = a["id"]
            self.tables[self.div] = []
        elif tag == "tr" and self.div:
            self.row = []
            self.tables[self.div].append(self.row)
        elif tag in ("td", "th") and self.row is not None:
            self.text = []

    def handle_endtag(self, tag):
        while self.stack:
            t, a = self.stack.pop()
            if t == tag:
                break
        if tag == "h2" and self.text is not None:
            self.sections[self.section] = "".join(self.text)
            self.text = None
        elif tag == "title" and self.node is not None and self.text is not None:
            self.node["title"] = "".join(self.text)
            self.text = None
        elif tag in ("td", "th") and self.text is not None and self.row is not None:
            self.row.append("".join(self.text))
            self.text = None
        elif tag == "g" and self.node is not None and not any(t == "g" and a.get("class") == "node" for t, a in self.stack):
            self.node = None
        elif tag == "g" and self.series is not None and not any("data-series" in a for t, a in self.stack):
            self.series = None
        elif tag == "figure":
            self.figure = None
        elif tag == "section":
            self.section = None
        elif tag == "div" and self.div and not any(t == "div" and a.get("id") for t, a in self.stack):
            self.div = None
            self.row = None

    def handle_data(self, data):
        if self.text is not None:
            self.text.append(data)


def fig(page, fid):
    f = page.figures.get(fid)
    check(f is not None, f"figure {fid} is on the page")
    return f or {"points": [], "bars": [], "nodes": [], "series": {}}


def bars(f):
    return [(b["data-label"], float(b["data-value"])) for b in f["bars"]]


def points(f, series=0):
    return [a for s, a in f["points"] if s == series]


def png_ok(path, width, height):
    with open(path, "rb") as fh:
        data = fh.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return "not a PNG"
    w, h = struct.unpack(">II", data[16:24])
    if (w, h) != (width, height):
        return f"{w}x{h}, expected {width}x{height}"
    # Decompress the image data: a blank page is one colour, which
    # compresses to almost nothing; a rendered report has many.
    idat = b""
    pos = 8
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos : pos + 8])
        if kind == b"IDAT":
            idat += data[pos + 8 : pos + 8 + n]
        pos += 12 + n
    raw = zlib.decompress(idat)
    distinct = len(set(raw[i : i + 3] for i in range(0, min(len(raw), 4_000_000), 997)))
    if distinct < 8:
        return f"only {distinct} distinct pixel samples: a blank page"
    return None


def main():
    dom_path, page_path, db_path, dama = sys.argv[1:5]
    pngs = sys.argv[5:]
    page = Page()
    with open(dom_path, encoding="utf-8") as fh:
        page.feed(fh.read())
    with open(page_path, encoding="utf-8") as fh:
        source = fh.read()
    db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    q = lambda sql, *p: db.execute(sql, p).fetchall()

    # ---- the page rendered whole ----
    for s in ("selfplay", "tuning", "weights", "matches", "tournaments", "generations"):
        check(s in page.sections and page.sections[s], f"section {s} with a heading")
    check(page.svgs == source.count("<svg ") and page.svgs > 0,
          f"the browser kept every SVG ({page.svgs} of {source.count('<svg ')})")
    check(len(page.figures) == source.count("<figure "), "the browser kept every figure")
    for p in pngs:
        m = re.search(r"(\d+)x(\d+)\.png$", p)
        why = png_ok(p, int(m.group(1)), int(m.group(2)))
        check(why is None, f"screenshot {p}: {why}")

    # ---- self-play runs ----
    for (run,) in q("SELECT id FROM runs WHERE kind = 'selfplay' ORDER BY id DESC LIMIT 12"):
        want = [q(f"SELECT count(*) FROM games WHERE run_id = ? AND result = ?", run, r)[0][0]
                for r in ("1-0", "1/2-1/2", "0-1")]
        got = [v for _, v in bars(fig(page, f"selfplay-{run}-results"))]
        check(got == want, f"run {run} results {got}, database {want}")
        want = {r: n for r, n in q("SELECT coalesce(reason, '(none)'), count(*) FROM games WHERE run_id = ? GROUP BY 1", run)}
        got = dict(bars(fig(page, f"selfplay-{run}-reasons")))
        check(got == want, f"run {run} end reasons {got}, database {want}")
        hist = bars(fig(page, f"selfplay-{run}-plies"))
        total = q("SELECT count(*) FROM games WHERE run_id = ? AND plies IS NOT NULL", run)[0][0]
        check(sum(v for _, v in hist) == total, f"run {run} histogram holds {total} games")
        for label, v in hist:
            lo, _, hi = label.partition("–")
            n = q("SELECT count(*) FROM games WHERE run_id = ? AND plies BETWEEN ? AND ?", run, int(lo), int(hi or lo))[0][0]
            check(v == n, f"run {run} games of {label} plies: page {v}, database {n}")
        check(f"<td class=\"num\">{run}</td>" in source, f"run {run} in the runs table")

    # ---- tuning runs ----
    for (tid,) in q("SELECT id FROM tuning_runs ORDER BY id DESC LIMIT 12"):
        f = fig(page, f"tuning-{tid}-loss")
        for series, col in ((0, "train_loss"), (1, "valid_loss")):
            want = [(float(e), v) for e, v in q(f"SELECT epoch, {col} FROM tuning_epochs WHERE tuning_run_id = ? "
                                                f"AND {col} IS NOT NULL ORDER BY epoch", tid)]
            got = [(float(a["data-x"]), float(a["data-y"])) for a in points(f, series)]
            # a tiny run may hold out no validation position: no valid losses at all
            check(got == want and (len(want) > 0 or series == 1),
                  f"tuning run {tid} {col}: page {got[:3]}..., database {want[:3]}...")

    # ---- weight sets: lineage and piece values ----
    f = fig(page, "lineage")
    nodes = {n["data-id"]: n for n in f["nodes"]}
    plain = {str(i): p for i, p in q("SELECT id, parent_id FROM weight_sets WHERE how NOT LIKE 'perturbed%'")}
    for i, parent in plain.items():
        check(i in nodes, f"weight set {i} in the lineage tree")
        if i in nodes and parent is not None and str(parent) in plain:
            check(nodes[i]["data-parent"] == str(parent), f"weight set {i} under {parent} (page: {nodes[i]['data-parent']})")
    for parent, n in q("SELECT parent_id, count(*) FROM weight_sets WHERE how LIKE 'perturbed%' GROUP BY 1"):
        node = nodes.get(f"p{parent}")
        check(node is not None and node.get("title", "").startswith(f"{n} perturbed"),
              f"{n} perturbed sets of parent {parent} drawn as one node")
    check(len(nodes) == len(plain) + len(q("SELECT DISTINCT parent_id FROM weight_sets WHERE how LIKE 'perturbed%'")),
          "no other nodes in the tree")
    for (game,) in q("SELECT DISTINCT game FROM weight_sets"):
        sets = q("SELECT id, terms, weights FROM weight_sets WHERE game = ? AND how NOT LIKE 'perturbed%' ORDER BY id", game)[-40:]
        if f"pieces-{game}" not in page.figures:
            check("No piece value differs" in source, f"{game}: no pieces plot, and the page says why")
            continue
        f = fig(page, f"pieces-{game}")
        for s, attrs in f["series"].items():
            term = attrs["data-name"]
            want = []
            for i, terms, weights in sets:
                values = dict(zip(terms.split(","), weights.split(",")))
                want.append((f"#{i}", float(values[term])))
            got = [(a["data-label"], float(a["data-y"])) for a in points(f, s)]
            check(got == want, f"{game} {term} per weight set: page {got}, database {want}")

    # ---- matches ----
    rows = q("SELECT id, run_id, ws_a, ws_b, games, wins, draws, losses, penta0, penta1, penta2, penta3, penta4, "
             "elo, elo_lo, elo_hi, llr, sprt_elo0 FROM matches ORDER BY id")
    elo = {a["data-label"]: a for a in points(fig(page, "matches-elo"))} if rows else {}
    for (mid, run, wa, wb, games, w, d, l, p0, p1, p2, p3, p4, e, lo, hi, llr, e0) in rows[-12:]:
        got = [v for _, v in bars(fig(page, f"match-{mid}-wdl"))]
        check(got == [w, d, l], f"match {mid} W/D/L {got}, database {[w, d, l]}")
        got = [v for _, v in bars(fig(page, f"match-{mid}-penta"))]
        check(got == [p0, p1, p2, p3, p4], f"match {mid} pentanomial {got}, database {[p0, p1, p2, p3, p4]}")
        if all(math.isfinite(x) for x in (e, lo, hi)):
            a = elo.get(f"#{mid}")
            check(a is not None and (float(a["data-y"]), float(a["data-lo"]), float(a["data-hi"])) == (e, lo, hi),
                  f"match {mid} Elo {e} [{lo}, {hi}] plotted")
        if e0 is not None:
            path = points(fig(page, f"match-{mid}-llr"))
            pairs = p0 + p1 + p2 + p3 + p4
            check(len(path) == pairs, f"match {mid}: LLR path of {len(path)} points, {pairs} pairs stored")
            if path and pairs * 2 == games:
                last = float(path[-1]["data-y"])
                check(abs(last - llr) <= 1e-9 * max(1, abs(llr)), f"match {mid}: path ends at {last}, stored LLR {llr}")

    # ---- tournaments ----
    for tid, run in q("SELECT id, run_id FROM tournaments ORDER BY id DESC LIMIT 12"):
        names = [n for (n,) in q("SELECT name FROM participants WHERE tournament_id = ? ORDER BY idx", tid)]
        ids = [i for (i,) in q("SELECT id FROM participants WHERE tournament_id = ? ORDER BY idx", tid)]
        table = page.tables.get(f"tournament-{tid}-crosstable", [])
        check(len(table) == len(names) + 1, f"tournament {tid}: crosstable of {len(names)} players")
        check(table and table[0][2:2 + len(names)] == names, f"tournament {tid}: crosstable header {table[:1]}")
        for a, pa in enumerate(ids):
            for b, pb in enumerate(ids):
                if a == b or a + 1 >= len(table):
                    continue
                pts, n = q("SELECT coalesce(sum(CASE WHEN (white_player = ?1 AND result = '1-0') OR "
                           "(black_player = ?1 AND result = '0-1') THEN 1.0 WHEN result = '1/2-1/2' THEN 0.5 ELSE 0 END), 0), "
                           "count(*) FROM games WHERE run_id = ?3 AND result IS NOT NULL AND "
                           "((white_player = ?1 AND black_player = ?2) OR (white_player = ?2 AND black_player = ?1))",
                           pa, pb, run)[0]
                want = f"{pts:g}/{n}" if n else "–"
                check(table[a + 1][2 + b] == want, f"tournament {tid}: {names[a]} vs {names[b]} {table[a + 1][2 + b]}, database {want}")
        out = subprocess.run([dama, "ratings", "--db", db_path, "--tournament", str(tid)], capture_output=True,
                             text=True, check=True).stdout
        want = [float(m.group(1)) for m in re.finditer(r"^\s*\d+\s+.*?\s(-?\d+\.\d)\s+\d+\.\d\s+\[", out, re.M)]
        got = [float(a["data-y"]) for a in points(fig(page, f"tournament-{tid}-ratings"))]
        check(len(got) == len(want) and all(abs(g - w) <= 0.051 for g, w in zip(got, want)),
              f"tournament {tid}: ratings {got}, dama ratings {want}")

    # ---- generations ----
    has = q("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'generations'")[0][0]
    if not has:
        check("No generations table" in source, "generations: the section says there are none")
    else:
        for (train,) in q("SELECT DISTINCT train_id FROM generations ORDER BY 1"):
            rows = q("SELECT generation, accepted, ladder_elo, ladder_elo_lo, ladder_elo_hi, gate_elo, gate_elo_lo, "
                     "gate_elo_hi FROM generations WHERE train_id = ? ORDER BY generation", train)
            want = []
            for gen, acc, e, lo, hi, *_ in rows:
                if gen == 0 and e is not None and (lo is None or hi is None):
                    lo = hi = e
                if acc == 1 and None not in (e, lo, hi) and all(map(math.isfinite, (e, lo, hi))):
                    want.append((f"gen {gen}", e, lo, hi))
            got = [(a["data-label"], float(a["data-y"]), float(a["data-lo"]), float(a["data-hi"]))
                   for a in points(fig(page, f"train-{train}-ladder"))]
            check(got == want, f"train {train} ladder {got}, database {want}")
            want = [(gen, e, lo, hi) for gen, acc, _, _, _, e, lo, hi in rows
                    if None not in (e, lo, hi) and all(map(math.isfinite, (e, lo, hi)))]
            got = [(int(a["data-label"].split()[1]), float(a["data-y"]), float(a["data-lo"]), float(a["data-hi"]))
                   for a in points(fig(page, f"train-{train}-gates"))]
            check(got == want, f"train {train} gate matches {got}, database {want}")

    print(f"check_report: {checks - len(failures)} of {checks} checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

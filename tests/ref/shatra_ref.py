#!/usr/bin/env python3
"""shatra_ref.py -- an independent reference for the Shatra rules.

Written from docs/rules/shatra.md alone, deliberately simple and slow, and
sharing nothing with the C generator (no bitboards, no shared tables): a
dictionary board keyed by (file, rank), lines walked cell by cell, a
recursive capture search over explicit sets, and the D convention of
docs/rules/README.md for duplicates.

Commands:
  moves FEN                    every legal move: route<TAB>captured squares
  play FEN MOVE...             the position string after the moves
  perft FEN DEPTH [--paths]    leaf count, D convention (or P with --paths)
  perfts FILE DEPTH            for each FEN of FILE: FEN<TAB>perft D<TAB>perft P
  gen SEED COUNT               positions, one FEN a line (random games and
                               random placements with reserve, urgent,
                               en-passant and sideways-step state)
  games SEED COUNT             FEN<TAB>move<TAB>child FEN lines of random games
  compare FILE                 check `dama moves --file` output (FEN<TAB>moves)
  selftest                     start-position perft 1-3 (shatra.txt) and a
                               few rules of shatra.md
"""
import random
import sys

START = "sqs/srs/brb/k/sssssss/7/7/7/7/SSSSSSS/K/BRB/SRS/SQS w 1-10,53-62 - - - 0 1"

# ---------------------------------------------------------------- geometry
# Section 1: files a..g = 0..6, ranks 1..14; squares numbered from rank 14
# down, left to right.
ROWS = [(14, "cde"), (13, "cde"), (12, "cde"), (11, "d")] + [(r, "abcdefg") for r in range(10, 4, -1)] + \
       [(4, "d"), (3, "cde"), (2, "cde"), (1, "cde")]
CELL = {}  # square number -> (file, rank)
SQUARE = {}  # (file, rank) -> square number
_n = 0
for _rank, _files in ROWS:
    for _f in _files:
        _n += 1
        CELL[_n] = ("abcdefg".index(_f), _rank)
        SQUARE[CELL[_n]] = _n
assert _n == 62

VECTORS = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)]
ORTHO = [(0, 1), (1, 0), (0, -1), (-1, 0)]
DIAG = [(1, 1), (1, -1), (-1, -1), (-1, 1)]


def step(sq, v):
    """The square next to sq in direction v, or None (a wall)."""
    f, r = CELL[sq]
    return SQUARE.get((f + v[0], r + v[1]))


W, B = "w", "b"


def other(c):
    return B if c == W else W


def rng(lo, hi):
    return set(range(lo, hi + 1))


OWN_HALF = {W: rng(32, 52), B: rng(11, 31)}
BANK = {W: rng(32, 38), B: rng(25, 31)}
FIRST_ROW = {W: rng(46, 52), B: rng(11, 17)}
FORT = {W: rng(54, 62), B: rng(1, 9)}
GATE = {W: 53, B: 10}
FORT_GATE = {W: rng(53, 62), B: rng(1, 10)}
PROMO_ROW = {W: {1, 2, 3}, B: {60, 61, 62}}
ROAD_FORT = {W: [55, 58, 61], B: [8, 5, 2]}
DROP_ORDER = {W: list(range(54, 63)), B: list(range(9, 0, -1))}
FWD = {W: 1, B: -1}  # rank direction of "forward"
PAST_MOAT = {W: rng(1, 31), B: rng(32, 62)}  # enemy half, gate and fortress


# ---------------------------------------------------------------- position
class Pos:
    def __init__(self):
        self.board = {}  # square -> (colour, letter)
        self.side = W
        self.reserve = set()
        self.urgent = set()
        self.ep = None
        self.sidestep = {}  # colour -> (x, y)
        self.quiet = 0
        self.move = 1

    def copy(self):
        p = Pos()
        p.board = dict(self.board)
        p.side = self.side
        p.reserve = set(self.reserve)
        p.urgent = set(self.urgent)
        p.ep = self.ep
        p.sidestep = dict(self.sidestep)
        p.quiet = self.quiet
        p.move = self.move
        return p


def squares_text(s):
    if not s:
        return "-"
    out, xs = [], sorted(s)
    i = 0
    while i < len(xs):
        j = i
        while j + 1 < len(xs) and xs[j + 1] == xs[j] + 1:
            j += 1
        out.append(str(xs[i]) if i == j else "%d-%d" % (xs[i], xs[j]))
        i = j + 1
    return ",".join(out)


def parse_squares(t):
    if t == "-":
        return set()
    s = set()
    for part in t.split(","):
        if "-" in part:
            a, b = part.split("-")
            s |= rng(int(a), int(b))
        else:
            s.add(int(part))
    return s


def parse_fen(text):
    f = text.split()
    p = Pos()
    ranks = f[0].split("/")
    assert len(ranks) == 14
    for (rank, files), row in zip(ROWS, ranks):
        cells = []
        for ch in row:
            if ch.isdigit():
                cells += [None] * int(ch)
            else:
                cells.append(ch)
        assert len(cells) == len(files), text
        for fl, ch in zip(files, cells):
            if ch:
                p.board[SQUARE[("abcdefg".index(fl), rank)]] = (W if ch.isupper() else B, ch.upper())
    p.side = f[1]
    p.reserve = parse_squares(f[2])
    p.urgent = parse_squares(f[3])
    p.ep = None if f[4] == "-" else int(f[4])
    if f[5] != "-":
        for e in f[5].split(","):
            x, y = map(int, e.split("-"))
            p.sidestep[p.board[y][0]] = (x, y)
    p.quiet = int(f[6]) if len(f) > 6 else 0
    p.move = int(f[7]) if len(f) > 7 else 1
    return p


def fen(p):
    rows = []
    for rank, files in ROWS:
        s, run = "", 0
        for fl in files:
            pc = p.board.get(SQUARE[("abcdefg".index(fl), rank)])
            if not pc:
                run += 1
                continue
            if run:
                s += str(run)
            run = 0
            s += pc[1] if pc[0] == W else pc[1].lower()
        if run:
            s += str(run)
        rows.append(s)
    entries = sorted(e for c, e in p.sidestep.items() if p.board.get(e[1]) == (c, "S"))
    side = ",".join("%d-%d" % e for e in entries) or "-"
    return "%s %s %s %s %s %s %d %d" % ("/".join(rows), p.side, squares_text(p.reserve), squares_text(p.urgent),
                                       p.ep or "-", side, p.quiet, p.move)


def pool(p, c):
    """Section 6: the types a shatra of c may promote to."""
    have = {"Q": 0, "R": 0, "B": 0}
    for col, t in p.board.values():
        if col == c and t in have:
            have[t] += 1
    return [t for t, n in (("Q", 1), ("R", 2), ("B", 2)) if have[t] < n]


def closed(p, c):
    return any(p.board.get(s, (None,))[0] == c for s in p.reserve)


# ---------------------------------------------------------------- captures
class Route:
    def __init__(self, start, path, captured, promo, promo_at):
        self.start, self.path, self.captured = start, tuple(path), frozenset(captured)
        self.promo, self.promo_at = promo, promo_at

    def key(self):
        return ("cap", self.start, self.path[-1], self.captured, self.promo)

    def text(self):
        s = str(self.start)
        for i, sq in enumerate(self.path):
            s += ":%d" % sq
            if i == self.promo_at:
                s += "=" + self.promo
        return s


def capture_routes(p, start):
    """Every capture route of the piece on start (section 4)."""
    me = p.side
    col, t0 = p.board[start]
    biy = t0 == "K"
    free_landing = biy or start in p.reserve  # may land in its own closed fortress
    shut = closed(p, me) and not free_landing
    victim_ep = None
    if p.ep is not None:
        v = step(p.ep, (0, FWD[other(me)]))
        if v is not None and p.board.get(v) == (other(me), "S"):
            victim_ep = v
    prom = pool(p, me)
    routes = []

    def empty(sq):
        return sq == start or sq not in p.board

    def landable(sq):
        return empty(sq) and not (shut and sq in FORT_GATE[me])

    def enemy(sq, captured):
        pc = p.board.get(sq)
        return pc is not None and sq != start and pc[0] != me and sq not in captured

    def jumps(sq, t, captured):
        """(victim, [landing squares]) of each jump from sq as type t."""
        out = []
        if t in ("K", "S"):
            for v in VECTORS:
                a = step(sq, v)
                if a is None:
                    continue
                victim = None
                if enemy(a, captured):
                    victim = a
                elif t == "S" and victim_ep is not None and a == p.ep and victim_ep not in captured:
                    victim = victim_ep
                if victim is None:
                    continue
                land = step(a, v)
                if land is not None and landable(land):
                    out.append((victim, [land]))
            return out
        for v in (VECTORS if t == "Q" else ORTHO if t == "R" else DIAG):
            x = step(sq, v)
            while x is not None and empty(x):
                x = step(x, v)
            if x is None or not enemy(x, captured):
                continue
            lands = []
            l = step(x, v)
            while l is not None and empty(l):
                if landable(l):
                    lands.append(l)
                l = step(l, v)
            if not lands:
                continue
            if p.board[x][1] != "K":  # must land where it can go on
                going = [l for l in lands if jumps(l, t, captured | {x})]
                if going:
                    lands = going
            out.append((x, lands))
        return out

    def search(sq, t, captured, path, promo, promo_at):
        js = jumps(sq, t, captured)
        if not js:
            if path and not biy:
                routes.append(Route(start, path, captured, promo, promo_at))
            return
        for victim, lands in js:
            for l in lands:
                cap2, path2 = captured | {victim}, path + [l]
                if p.board[victim][1] == "K":
                    routes.append(Route(start, path2, cap2, promo, promo_at))
                    continue
                if t == "S" and l in PROMO_ROW[me] and prom:
                    for nt in prom:
                        search(l, nt, cap2, path2, nt, len(path2) - 1)
                    continue
                if biy:
                    routes.append(Route(start, path2, cap2, promo, promo_at))
                search(l, t, cap2, path2, promo, promo_at)

    search(start, t0, frozenset(), [], None, None)
    return routes


# ---------------------------------------------------------------- other turns
def noncapturing(p, only_biy):
    """(key, text) of the non-capturing turns (sections 3, 5, 6)."""
    me, you = p.side, other(p.side)
    out = []
    mine = {s: t for s, (c, t) in p.board.items() if c == me}
    home = sorted(s for s in OWN_HALF[me] if s not in p.board)
    away = sorted(s for s in OWN_HALF[you] if s not in p.board)

    def drop(s, targets):
        for d in targets:
            out.append((("drop", s, d, frozenset(), None), "%d*%d" % (s, d)))

    urgent = sorted(s for s in p.urgent if s in mine)
    if urgent:
        for s in urgent:
            drop(s, home)
        return out
    is_closed = closed(p, me)
    home_drops, away_drops = set(), set()
    for s in DROP_ORDER[me]:
        if s in p.reserve and s in mine:
            home_drops.add(s)
            break
    if GATE[me] in mine and mine[GATE[me]] == "K":
        home_drops.add(GATE[me])
    if not is_closed:
        home_drops |= {s for s in mine if s in FORT_GATE[me]}
    away_drops = {s for s in mine if s in FORT[you] and mine[s] != "S"}
    prom = pool(p, me)
    for s, t in sorted(mine.items()):
        if only_biy and t != "K":
            continue
        if t == "K":
            for v in VECTORS:
                n = step(s, v)
                if n is None or n in p.board:
                    continue
                if is_closed and n in FORT[me]:
                    continue
                out.append((("step", s, n, frozenset(), None), "%d-%d" % (s, n)))
        elif t in ("Q", "R", "B") and s in p.reserve:
            if t in ("Q", "R") and s in ROAD_FORT[me]:
                n = step(s, (0, FWD[me]))
                while n is not None and n not in p.board:
                    if n not in FORT_GATE[me]:
                        out.append((("step", s, n, frozenset(), None), "%d-%d" % (s, n)))
                    n = step(n, (0, FWD[me]))
        elif t in ("Q", "R", "B"):
            for v in (VECTORS if t == "Q" else ORTHO if t == "R" else DIAG):
                n = step(s, v)
                while n is not None and n not in p.board:
                    if not (is_closed and n in FORT_GATE[me]):
                        out.append((("step", s, n, frozenset(), None), "%d-%d" % (s, n)))
                    n = step(n, v)
        elif t == "S" and s not in p.reserve:
            fw = FWD[me]
            if s in PROMO_ROW[me]:
                vs = [(1, 0), (-1, 0)]
            elif s in PAST_MOAT[me]:
                vs = [(0, fw), (1, fw), (-1, fw), (1, 0), (-1, 0)]
            elif s in BANK[me]:
                vs = [(0, fw), (1, fw), (-1, fw)]
            else:
                vs = [(0, fw)]
            for v in vs:
                n = step(s, v)
                if n is None or n in p.board or (is_closed and n in FORT_GATE[me]):
                    continue
                if me in p.sidestep and p.sidestep[me] == (n, s):
                    continue  # may not reverse its own sideways step
                if n in PROMO_ROW[me] and prom:
                    for nt in prom:
                        out.append((("step", s, n, frozenset(), nt), "%d-%d=%s" % (s, n, nt)))
                else:
                    out.append((("step", s, n, frozenset(), None), "%d-%d" % (s, n)))
            if s in FIRST_ROW[me]:
                a = step(s, (0, fw))
                b = step(a, (0, fw)) if a is not None else None
                if a is not None and b is not None and a not in p.board and b not in p.board:
                    out.append((("step", s, b, frozenset(), None), "%d-%d" % (s, b)))
            if s in PROMO_ROW[me]:
                for nt in prom:
                    out.append((("promote", s, s, frozenset(), nt), "%d=%s" % (s, nt)))
    for s in sorted(home_drops):
        if not only_biy or mine[s] == "K":
            drop(s, home)
    for s in sorted(away_drops):
        if not only_biy or mine[s] == "K":
            drop(s, away)
    return out


def legal(p, paths=False):
    """Legal turns as a list of (key, text, route or None). D convention
    unless paths: then one entry per capture route."""
    me = p.side
    if not any(c == me and t == "K" for c, t in p.board.values()):
        return []  # the Biy has been captured: no turn
    other_caps, biy_caps = [], []
    for s, (c, t) in sorted(p.board.items()):
        if c != me:
            continue
        (biy_caps if t == "K" else other_caps).extend(capture_routes(p, s))

    def entries(routes):
        seen, out = set(), []
        for r in routes:
            k = r.key()
            if not paths and k in seen:
                continue
            seen.add(k)
            out.append((k, r.text(), r))
        return out

    if other_caps:
        return entries(other_caps + biy_caps)
    if biy_caps:
        return entries(biy_caps) + [(k, t, None) for k, t in noncapturing(p, True)]
    return [(k, t, None) for k, t in noncapturing(p, False)]


def make(p, key):
    kind, s, d, captured, promo = key
    me, you = p.side, other(p.side)
    q = p.copy()
    q.ep = None
    q.sidestep.pop(me, None)
    col, t = p.board[s]
    reset = False
    if kind == "promote":
        q.board[s] = (me, promo)
        reset = True
    else:
        del q.board[s]
        for x in captured:
            del q.board[x]
            q.reserve.discard(x)
            q.urgent.discard(x)
            if you in q.sidestep and q.sidestep[you][1] == x:
                del q.sidestep[you]
        q.board[d] = (me, promo or t)
        if s in p.reserve:
            q.reserve.discard(s)
            was_urgent = s in p.urgent
            q.urgent.discard(s)
            if kind != "drop" and d in FORT_GATE[me]:
                q.reserve.add(d)
                if kind == "cap" or was_urgent:
                    q.urgent.add(d)
        if kind in ("cap", "drop") or promo:
            reset = True
        if kind == "step" and t == "S":
            reset = True
            if CELL[s][1] == CELL[d][1]:
                if not promo:
                    q.sidestep[me] = (s, d)
            elif abs(CELL[s][1] - CELL[d][1]) == 2:
                q.ep = step(s, (0, FWD[me]))
    q.quiet = 0 if reset else p.quiet + 1
    if me == B:
        q.move += 1
    q.side = you
    return q


def perft(p, depth, paths=False):
    if depth == 0:
        return 1
    ms = legal(p, paths)
    if depth == 1:
        return len(ms)
    return sum(perft(make(p, k), depth - 1, paths) for k, _, _ in ms)


def find_move(p, text):
    for k, t, _ in legal(p, True):
        if t == text:
            return k
    raise ValueError("no move %s in %s" % (text, fen(p)))


# ---------------------------------------------------------------- random positions
LETTERS = "KQRBS"


def random_placement(r):
    """A random position with plausible state: pieces anywhere (shatras not
    on their own promotion-impossible squares), random first reserve,
    urgent pieces, an en-passant right and sideways-step entries."""
    p = Pos()
    free = list(range(1, 63))
    r.shuffle(free)
    for c in (W, B):
        n = r.randint(2, 12)
        kinds = possible_kinds(["K"] + [r.choice("QRBSSSS") for _ in range(n - 1)])
        for t in kinds:
            while True:
                s = free.pop()
                if t == "S" and s in PROMO_ROW[other(c)] and r.random() < 0.7:
                    free.insert(0, s)
                    continue
                break
            p.board[s] = (c, t)
    p.side = r.choice((W, B))
    for c in (W, B):
        if r.random() < 0.5:
            for s in FORT_GATE[c]:
                if p.board.get(s, (None,))[0] == c and r.random() < 0.7:
                    p.reserve.add(s)
                    if s != GATE[c] and r.random() < 0.15:
                        p.urgent.add(s)
    # en passant: the side not to move just two-stepped
    mover = other(p.side)
    cand = []
    for s in FIRST_ROW[mover]:
        a = step(s, (0, FWD[mover]))
        b = step(a, (0, FWD[mover]))
        if s not in p.board and a not in p.board and p.board.get(b) == (mover, "S"):
            cand.append(a)
    if cand and r.random() < 0.5:
        p.ep = r.choice(cand)
    for c in (W, B):
        if r.random() < 0.4:
            opts = []
            for y, pc in p.board.items():
                if pc == (c, "S") and y in PAST_MOAT[c]:
                    for v in ((1, 0), (-1, 0)):
                        x = step(y, v)
                        if x is not None:
                            opts.append((x, y))
            if opts:
                p.sidestep[c] = r.choice(opts)
    return p


# Pieces of each kind a side starts with (section 2); promotion only brings
# back a captured kind, so no position has more.
START_COUNT = {"K": 1, "Q": 1, "R": 2, "B": 2, "S": 11}


def possible_kinds(kinds):
    """kinds with every kind beyond its start count dropped."""
    seen, out = {}, []
    for t in kinds:
        if seen.get(t, 0) < START_COUNT[t]:
            seen[t] = seen.get(t, 0) + 1
            out.append(t)
    return out


def capture_rich(r):
    """Few attackers, many scattered victims: long chains, promotions."""
    p = Pos()
    free = list(range(1, 63))
    r.shuffle(free)
    me = r.choice((W, B))
    you = other(me)
    for t in possible_kinds(["K"] + [r.choice("QRBSS") for _ in range(r.randint(1, 3))]):
        p.board[free.pop()] = (me, t)
    for t in possible_kinds(["K"] + [r.choice("QRBSSSS") for _ in range(r.randint(5, 14))]):
        p.board[free.pop()] = (you, t)
    p.side = me
    return p


def playout(r, p, plies, out):
    for _ in range(plies):
        out.append(fen(p))
        ms = legal(p)
        if not ms:
            return
        caps = [m for m in ms if m[0][0] == "cap"]
        k = r.choice(caps if caps and r.random() < 0.8 else ms)[0]
        p = make(p, k)


def generate(seed, count):
    r = random.Random(seed)
    out = []
    while len(out) < count:
        mode = r.random()
        if mode < 0.35:
            playout(r, parse_fen(START), r.randint(5, 80), out)
        elif mode < 0.75:
            playout(r, random_placement(r), r.randint(1, 6), out)
        else:
            playout(r, capture_rich(r), r.randint(1, 3), out)
    return out[:count]


def games(seed, count):
    r = random.Random(seed)
    out = []
    while len(out) < count:
        p = parse_fen(START) if r.random() < 0.5 else random_placement(r)
        for _ in range(r.randint(1, 60)):
            ms = legal(p)
            if not ms:
                break
            k, text, _ = r.choice(ms)
            q = make(p, k)
            out.append("%s\t%s\t%s" % (fen(p), text, fen(q)))
            p = q
    return out[:count]


# ---------------------------------------------------------------- compare
def finished(p, moves):
    """What `dama moves` writes for a finished game (shatra.md, section 7,
    in its order; repetition needs the game's history), or None."""
    names = {W: "white", B: "black"}
    mover, winner = names[p.side], names[B if p.side == W else W]
    result = "0-1" if p.side == W else "1-0"
    if not any(c == p.side and t == "K" for c, t in p.board.values()):
        return "game over: %s biy-captured (%s wins)" % (result, winner)
    if not moves:
        return "game over: %s no-moves (%s wins, %s to move has no legal move)" % (result, winner, mover)
    if all(t == "K" for _, t in p.board.values()):
        return "game over: 1/2-1/2 biys-only (draw)"
    if p.quiet >= 60:
        return "game over: 1/2-1/2 quiet-60 (draw)"
    return None


def compare_line(line, stats):
    fen_text, _, moves = line.rstrip("\n").partition("\t")
    p = parse_fen(fen_text)
    if fen(p) != fen_text:
        return "position string round trip: %s" % fen(p)
    want = {k: t for k, t, _ in legal(p)}
    over = finished(p, want)
    stats["ended by a rule, with moves left"] += bool(over and want)
    if over or moves.startswith("game over:"):
        if moves != over:
            return "dama gives '%s' where the reference has %s" % (
                moves, "'%s'" % over if over else "%d legal moves" % len(want))
        return None
    by_text = {t: k for k, t, _ in legal(p, True)}  # every route of every move
    got = {}
    for text in moves.split() if moves else []:
        k = by_text.get(text)
        if k is None:
            return "dama move %s is not a legal move (or route) here" % text
        if k in got:
            return "%s printed twice (as %s)" % (text, got[k])
        got[k] = text
    if set(got) != set(want):
        missing = sorted(want[k] for k in set(want) - set(got))
        extra = sorted(got[k] for k in set(got) - set(want))
        return "moves differ: missing %s, extra %s" % (missing, extra)
    stats["moves"] += len(got)
    return None


def selftest():
    p = parse_fen(START)
    assert fen(p) == START, fen(p)
    for d, n in ((1, 42), (2, 1764), (3, 62761)):
        got = perft(p, d)
        assert got == n, "perft %d: %d, shatra.txt %d" % (d, got, n)
    print("selftest ok: perft 1-3 of the start position")


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    cmd = argv[1]
    if cmd == "moves":
        p = parse_fen(argv[2])
        for k, t, _ in legal(p):
            print("%s\t%s" % (t, ",".join(map(str, sorted(k[3])))))
        return 0
    if cmd == "play":
        p = parse_fen(argv[2])
        for text in argv[3:]:
            p = make(p, find_move(p, text))
        print(fen(p))
        return 0
    if cmd == "perft":
        print(perft(parse_fen(argv[2]), int(argv[3]), "--paths" in argv))
        return 0
    if cmd == "perfts":
        for line in open(argv[2]):
            f = line.strip()
            if f:
                p = parse_fen(f)
                print("%s\t%d\t%d" % (f, perft(p, int(argv[3])), perft(p, int(argv[3]), True)))
        return 0
    if cmd == "gen":
        for f in generate(int(argv[2]), int(argv[3])):
            print(f)
        return 0
    if cmd == "games":
        for line in games(int(argv[2]), int(argv[3])):
            print(line)
        return 0
    if cmd == "compare":
        stats = {"moves": 0, "ended by a rule, with moves left": 0}
        n = 0
        for line in open(argv[2]):
            if not line.strip():
                continue
            why = compare_line(line, stats)
            n += 1
            if why:
                print("position %d: %s\n  %s" % (n, line.split("\t")[0], why))
                return 1
        print("%d positions, %d moves agree, %d ended by a rule with moves left" % (
            n, stats["moves"], stats["ended by a rule, with moves left"]))
        return 0
    if cmd == "selftest":
        selftest()
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))

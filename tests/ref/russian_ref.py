#!/usr/bin/env python3
"""russian_ref.py -- an independent reference for the Russian draughts move rules.

Written from docs/rules/russian.md alone, deliberately simple and slow, and
sharing nothing with the C generator (no bitboards, no shared tables): a
10x10 mailbox board with an off-board ring, a recursive capture search that
keeps the captured pieces on the board until the move ends, and the D
convention of docs/rules/README.md for duplicates.

Rules implemented (numbers are the clauses of russian.md "Moves"):
  1 men step one square diagonally forward;
  2 kings slide any distance along a diagonal;
  3 capturing is compulsory, any capture may be chosen (no majority);
  4 men capture forward and backward, jumping an adjacent enemy;
  5 kings capture at distance and land on any empty square behind the
    captured piece, restricted to those from which they can capture again
    when there are such squares;
  6 a capture goes on while it can; the whole chain is one move;
  7 captured pieces stay on the board (and block) until the move ends and
    cannot be jumped twice; squares may be crossed or landed on again;
  8 a man reaching the last rank during a capture goes on as a king; one
    that gets there by a quiet move stops;
  9 routes with the same start, end, captured set (and promotion) are one move.

Commands:
  moves FEN                    every legal move: route<TAB>captured squares
  perft FEN DEPTH [--paths]    leaf count, D convention (or P with --paths)
  perfts FILE DEPTH            for each FEN of FILE: FEN<TAB>perft D<TAB>perft P
  gen SEED COUNT               random positions, one FEN a line
  compare FILE                 check `dama moves --file` output (FEN<TAB>moves)
  selftest                     the reference against published perft figures
                               and the worked examples of russian.md
"""
import random
import sys

OFF, EMPTY = "#", "."
NE, NW, SE, SW = 11, 9, -9, -11  # mailbox steps, 10 squares a row
DIRS = (NE, NW, SE, SW)
START = "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"


def index(name):
    """'a1' -> mailbox index (file + 1) + 10 * (rank + 1)."""
    f, r = ord(name[0]) - ord("a"), int(name[1:]) - 1
    if not (0 <= f < 8 and 0 <= r < 8) or len(name) != 2:
        raise ValueError("bad square " + name)
    return (r + 1) * 10 + f + 1


def name(i):
    r, f = divmod(i, 10)
    return chr(ord("a") + f - 1) + str(r)


def rank(i):
    return i // 10  # 1..8


PLAYING = [index(chr(ord("a") + f) + str(r + 1)) for r in range(8) for f in range(8) if (f + r) % 2 == 0]


class Pos:
    """board: 100 cells ('#' off board, '.' empty, 'w'/'b' men, 'W'/'B' kings)."""

    def __init__(self, board, side):
        self.board = board
        self.side = side  # 'W' or 'B'

    def fen(self):
        parts = [self.side]
        for colour in "WB":
            sqs = []
            for r in range(1, 9):
                for f in range(1, 9):
                    p = self.board[r * 10 + f]
                    if p.upper() == colour:
                        sqs.append(("K" if p.isupper() else "") + name(r * 10 + f))
            parts.append(colour + ",".join(sqs))
        return ":".join(parts)


def empty_board():
    b = [OFF] * 100
    for i in PLAYING:
        b[i] = EMPTY
    return b


def parse_fen(text):
    text = text.strip()
    fields = text.split(":")
    if fields[0] not in ("W", "B"):
        raise ValueError("side to move must be W or B: " + text)
    b = empty_board()
    for field in fields[1:]:
        colour, body = field[0], field[1:]
        if colour not in "WB":
            raise ValueError("bad colour in " + text)
        for tok in filter(None, body.split(",")):
            king = tok[0] == "K"
            sq = index(tok[1:] if king else tok)
            if b[sq] != EMPTY:
                raise ValueError("bad or repeated square " + tok)
            man = colour.lower()
            b[sq] = colour if king else man
            if not king and rank(sq) == crown_rank(colour):
                raise ValueError("man on its crowning rank: " + tok)
    return Pos(b, fields[0])


def crown_rank(side):
    return 8 if side == "W" else 1


def enemy(p, side):
    return p not in (OFF, EMPTY) and p.upper() != side


def own(p, side):
    return p not in (OFF, EMPTY) and p.upper() == side


def jumps(b, side, sq, king, captured):
    """Every single jump from sq: list of (victim, [landing squares]).
    b has the moving piece lifted off its start square; the captured pieces
    still stand on b and are only blockers now."""
    out = []
    for d in DIRS:
        if not king:
            v = sq + d
            if enemy(b[v], side) and v not in captured and b[v + d] == EMPTY:
                out.append((v, [v + d]))
            continue
        v = sq + d
        while b[v] == EMPTY:
            v += d
        if not enemy(b[v], side) or v in captured:
            continue
        lands = []
        l = v + d
        while b[l] == EMPTY:
            lands.append(l)
            l += d
        if lands:
            out.append((v, lands))
    return out


def captures(pos):
    """{(start, end, captured frozenset, promoted): [paths]} for the side to move."""
    side = pos.side
    moves = {}

    def search(b, start, sq, king, was_man, captured, path):
        js = jumps(b, side, sq, king, captured)
        if not js:
            if captured:
                key = (start, sq, frozenset(captured), was_man and king)
                moves.setdefault(key, []).append(tuple(path))
            return
        for v, lands in js:
            taken = captured | {v}
            if king:  # must land where it can capture again, if it can anywhere
                goon = [l for l in lands if jumps(b, side, l, True, taken)]
                if goon:
                    lands = goon
            for l in lands:
                crowned = king or rank(l) == crown_rank(side)
                search(b, start, l, crowned, was_man, taken, path + [l])

    for s in PLAYING:
        p = pos.board[s]
        if not own(p, side):
            continue
        b = list(pos.board)
        b[s] = EMPTY  # the piece leaves its square (it may come back)
        search(b, s, s, p.isupper(), p.islower(), frozenset(), [s])
    return moves


def quiet_moves(pos):
    side = pos.side
    moves = {}
    forward = (NE, NW) if side == "W" else (SE, SW)
    for s in PLAYING:
        p = pos.board[s]
        if not own(p, side):
            continue
        if p.islower():
            for d in forward:
                if pos.board[s + d] == EMPTY:
                    moves[(s, s + d, frozenset(), rank(s + d) == crown_rank(side))] = [(s, s + d)]
        else:
            for d in DIRS:
                t = s + d
                while pos.board[t] == EMPTY:
                    moves[(s, t, frozenset(), False)] = [(s, t)]
                    t += d
    return moves


def legal_moves(pos):
    """D convention: {move key: [every route (start, landing, ...)]}."""
    caps = captures(pos)
    return caps if caps else quiet_moves(pos)


def route_text(key, path):
    sep = ":" if key[2] else "-"
    return sep.join(name(s) for s in path)


def make(pos, key):
    start, end, captured, promo = key
    b = list(pos.board)
    piece = b[start]
    b[start] = EMPTY
    for c in captured:
        b[c] = EMPTY
    b[end] = piece.upper() if promo else piece
    return Pos(b, "B" if pos.side == "W" else "W")


def perft(pos, depth, paths=False):
    if depth == 0:
        return 1
    moves = legal_moves(pos)
    if depth == 1:
        return sum(len(r) for r in moves.values()) if paths else len(moves)
    return sum(perft(make(pos, k), depth - 1, paths) * (len(r) if paths else 1) for k, r in moves.items())


# ---------------------------------------------------------------- positions


def random_placement(rng, wk, bk, wm, bm):
    sqs = rng.sample(PLAYING, wk + bk + wm + bm)
    b = empty_board()
    for i, s in enumerate(sqs):
        if i < wk:
            b[s] = "W"
        elif i < wk + bk:
            b[s] = "B"
        elif i < wk + bk + wm:
            b[s] = "w" if rank(s) != 8 else "W"
        else:
            b[s] = "b" if rank(s) != 1 else "B"
    return Pos(b, rng.choice("WB"))


def playout(rng, pos, plies, out, seen, only_captures=False):
    for _ in range(plies):
        moves = legal_moves(pos)
        f = pos.fen()
        if f not in seen and (not only_captures or any(k[2] for k in moves)):
            seen.add(f)
            out.append(f)
        if not moves:
            return
        pos = make(pos, rng.choice(sorted(moves, key=lambda k: (k[0], k[1], sorted(k[2]), k[3]))))


def generate(seed, count):
    """count positions: a third from random games from the start, a third
    king-rich random placements (and a few random plies from them), a third
    capture-rich: a few kings and men against many scattered pieces, where
    flying-king captures are long, kept only when a capture is on."""
    rng = random.Random(seed)
    out, seen = [], set()
    while len(out) < count // 3:
        playout(rng, parse_fen(START), 200, out, seen)
    while len(out) < 2 * count // 3:
        pos = random_placement(rng, rng.randint(1, 5), rng.randint(1, 5), rng.randint(0, 6), rng.randint(0, 6))
        playout(rng, pos, rng.randint(1, 12), out, seen)
    while len(out) < count:
        n_k, n_m = rng.randint(1, 3), rng.randint(0, 3)
        n_ek, n_em = rng.randint(0, 3), rng.randint(5, 11)
        n_em = min(n_em, 12 - n_ek)  # no side has more than the 12 pieces it starts with
        if rng.random() < 0.5:
            pos = random_placement(rng, n_k, n_ek, n_m, n_em)
            pos.side = "W"
        else:
            pos = random_placement(rng, n_ek, n_k, n_em, n_m)
            pos.side = "B"
        playout(rng, pos, rng.randint(1, 4), out, seen, only_captures=True)
    return out[:count]


# ---------------------------------------------------------------- compare


def finished(pos, moves):
    """What `dama moves` writes for a finished game (russian.md, "End of
    the game"), or None. A position string shows one end only: the side to
    move has no legal move and loses (D3-D8 need the game's history and
    its counters)."""
    if moves:
        return None
    mover, winner = ("white", "black") if pos.side == "W" else ("black", "white")
    return "game over: %s no-moves (%s wins, %s to move has no legal move)" % (
        "0-1" if pos.side == "W" else "1-0", winner, mover)


def compare_line(line, stats):
    """None if dama's move list for this FEN is right, else the reason.
    Adds what the position exercised to the counters in stats."""
    fen, _, rest = line.rstrip("\n").partition("\t")
    pos = parse_fen(fen)
    moves = legal_moves(pos)
    stats["positions"] += 1
    stats["moves"] += len(moves)
    stats["no legal move"] += not moves
    for (start, end, caps, promo), routes in moves.items():
        if caps:
            stats["captures"] += 1
            stats["king captures"] += pos.board[start].isupper()
            stats["captures of 4+ pieces"] += len(caps) >= 4
            stats["crowned mid-capture"] += promo and rank(end) != crown_rank(pos.side)
            stats["moves with several routes"] += len(routes) > 1
            stats["longest capture"] = max(stats["longest capture"], len(caps))
    over = finished(pos, moves)
    if over or rest.startswith("game over:"):
        if rest != over:
            return "dama gives '%s' where the reference has %s" % (
                rest, "'%s'" % over if over else "%d legal moves" % len(moves))
        return None
    by_text = {}
    for key, routes in moves.items():
        for r in routes:
            by_text[route_text(key, r)] = key
    seen = {}
    for text in rest.split():
        key = by_text.get(text)
        if key is None:
            return "dama gives %s, which is no legal move (or not a full route)" % text
        if key in seen:
            return "dama gives %s and %s, which are one move (same start, end, captures)" % (seen[key], text)
        seen[key] = text
    missing = [route_text(k, sorted(r)[0]) for k, r in moves.items() if k not in seen]
    if missing:
        return "dama lacks %s" % " ".join(sorted(missing))
    return None


def describe(fen):
    pos = parse_fen(fen)
    lines = []
    for key, routes in sorted(legal_moves(pos).items(), key=lambda kv: route_text(kv[0], sorted(kv[1])[0])):
        caps = ",".join(sorted(name(c) for c in key[2]))
        routes_text = " | ".join(route_text(key, r) for r in sorted(routes))
        lines.append("%s\t%s%s" % (routes_text, caps, "\tpromotes" if key[3] else ""))
    return lines


# ---------------------------------------------------------------- self test


def selftest():
    start = parse_fen(START)
    want = [7, 49, 302, 1469, 7482]
    got = [perft(start, d) for d in range(1, len(want) + 1)]
    assert got == want, "start perft %s, published %s" % (got, want)

    def only(fen, texts):
        got = sorted(" | ".join(route_text(k, r) for r in sorted(v)) for k, v in legal_moves(parse_fen(fen)).items())
        assert got == sorted(texts), "%s: %s, expected %s" % (fen, got, texts)

    # russian.md worked examples: Turkish strike, king must stop on d4, man crowned mid-capture.
    only("B:Wc3,d4,e3,f2,f4:BKa5,d6,e7", ["a5:e1:g3:e5"])
    only("W:Wd4,e3:BKe5,d6,e7", ["d4:f6:d8"])
    only("W:WKe1,c5:Bc3,c7,e5,e7", ["e1:a5:d8:f6:d4"])
    only("B:Wa1,a3,b2,b4,d2,d4,e3,f2,f4:Ba5,c5,c7,e7,g7", ["a5:c3:e1:g3:e5:c3 | a5:c3:e5:g3:e1:c3"])
    only("W:Wa1,a3,b2,e3:BKc3,c5,c7,e7,g7", ["b2:d4:b6:d8:f6:h8"])
    print("selftest ok: perft 1-5 %s, worked examples" % got)


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    cmd = argv[1]
    if cmd == "moves" and len(argv) == 3:
        print("\n".join(describe(argv[2])))
        return 0
    if cmd == "perft" and len(argv) >= 4:
        print(perft(parse_fen(argv[2]), int(argv[3]), "--paths" in argv[4:]))
        return 0
    if cmd == "perfts" and len(argv) == 4:
        with open(argv[2]) as f:
            for line in f:
                fen = line.strip()
                if fen:
                    pos = parse_fen(fen)
                    print("%s\t%d\t%d" % (fen, perft(pos, int(argv[3])), perft(pos, int(argv[3]), True)))
        return 0
    if cmd == "gen" and len(argv) == 4:
        for f in generate(int(argv[2]), int(argv[3])):
            print(f)
        return 0
    if cmd == "compare" and len(argv) == 3:
        n = 0
        stats = dict.fromkeys(["positions", "moves", "no legal move", "captures", "king captures",
                               "captures of 4+ pieces", "crowned mid-capture", "moves with several routes",
                               "longest capture"], 0)
        with open(argv[2]) as f:
            for line in f:
                if not line.strip():
                    continue
                n += 1
                why = compare_line(line, stats)
                if why:
                    fen = line.split("\t")[0]
                    print("first differing position (line %d): %s\n  %s" % (n, fen, why))
                    print("  reference moves:\n    " + "\n    ".join(describe(fen) or ["(none)"]))
                    return 1
        print("all positions agree: " + ", ".join("%s %d" % kv for kv in stats.items()))
        return 0
    if cmd == "selftest":
        selftest()
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""turkish_ref.py -- an independent reference for the Turkish draughts move rules.

Written from docs/rules/turkish.md alone, deliberately simple and slow, and
sharing nothing with the C generator (no bitboards, no shared tables, no
direction numbering): the board is a dict {(file, rank): piece} of the
occupied squares only, file and rank 0..7 (a1 = (0, 0)), pieces 'w'/'b' for
men and 'W'/'B' for kings. The capture search walks the board square by
square and takes each captured piece off a copy of the board at once.

Rules implemented (numbers are the clauses of turkish.md "Moves"):
  1 a man steps one square forward, left or right (White's forward is up);
  2 a king slides any distance along a rank or a file;
  3 capturing is compulsory;
  4 a man jumps an adjacent enemy piece ahead of it, left or right of it,
    onto the empty square straight behind it; never backward;
  5 a king jumps the first piece it meets along a rank or file (only empty
    squares between) when it is an enemy one with an empty square behind it,
    and lands on any of the empty squares behind it;
  6 a capture goes on while it can; the whole chain is one move;
  7 each captured piece is taken off the board as soon as it is jumped, and
    the capturing piece's start square is empty from the first jump on;
  8 two consecutive jumps may not go in opposite directions;
  9 only the chains taking the most pieces (over all pieces of the side) are
    legal; men and kings count one each;
 10 a man stays a man for the whole chain (on the last rank it can only go on
    sideways) and is crowned when the chain ends on its last rank.
A move is identified by (start, end, captured set, promotion) -- the D
convention of docs/rules/README.md; the P convention counts every list of
landing squares.

Commands:
  moves FEN                    every legal move: routes<TAB>captured squares
  perft FEN DEPTH [--paths]    leaf count, D convention (or P with --paths)
  perfts FILE DEPTH            for each FEN of FILE: FEN<TAB>perft D<TAB>perft P
  gen SEED COUNT               random positions, one FEN a line
  compare FILE                 check `dama moves --file` output (FEN<TAB>moves):
                               move sets, full routes, no move twice; every
                               line, exit status 1 if any differs
  features FILE                for each FEN of FILE: FEN<TAB>flags<TAB>moves (D)
                               <TAB>landing paths (P); flags: L a king ends on a
                               square it emptied, S a capture comes back on or
                               over its start square, R a man goes on along the
                               last rank, M a move has several routes, - none
  selftest                     the reference against the published perft
                               figures and a few hand-worked positions
"""
import random
import sys

START = ("W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3"
         ":Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7")
# Published P-convention perft of the start position (data/perft/turkish.txt).
PUBLISHED_P = [8, 64, 708, 7538, 85090]

UP, DOWN, LEFT, RIGHT = (0, 1), (0, -1), (-1, 0), (1, 0)
ALL_DIRS = (UP, DOWN, LEFT, RIGHT)
MAN_DIRS = {"W": (UP, LEFT, RIGHT), "B": (DOWN, LEFT, RIGHT)}
LAST_RANK = {"W": 7, "B": 0}
SQUARES = [(f, r) for r in range(8) for f in range(8)]


def sq_name(sq):
    return "abcdefgh"[sq[0]] + str(sq[1] + 1)


def sq_parse(text):
    if len(text) != 2 or text[0] not in "abcdefgh" or text[1] not in "12345678":
        raise ValueError("bad square " + text)
    return ("abcdefgh".index(text[0]), int(text[1]) - 1)


def on_board(sq):
    return 0 <= sq[0] < 8 and 0 <= sq[1] < 8


def step(sq, d):
    return (sq[0] + d[0], sq[1] + d[1])


def colour(piece):
    return piece.upper()


def other(side):
    return "B" if side == "W" else "W"


class Pos:
    def __init__(self, board, side):
        self.board = board  # {(file, rank): piece}
        self.side = side    # 'W' or 'B'

    def fen(self):
        parts = [self.side]
        for c in "WB":
            sqs = [("K" if p.isupper() else "") + sq_name(s)
                   for s, p in sorted(self.board.items(), key=lambda kv: (kv[0][1], kv[0][0]))
                   if colour(p) == c]
            parts.append(c + ",".join(sqs))
        return ":".join(parts)


def parse_fen(text):
    fields = text.strip().split(":")
    if fields[0] not in ("W", "B"):
        raise ValueError("side to move must be W or B: " + text)
    board = {}
    for field in fields[1:]:
        c, body = field[0], field[1:]
        if c not in "WB":
            raise ValueError("bad colour in " + text)
        for tok in filter(None, body.split(",")):
            king = tok.startswith("K")
            sq = sq_parse(tok[1:] if king else tok)
            if sq in board:
                raise ValueError("square listed twice: " + tok)
            if not king and sq[1] == LAST_RANK[c]:
                raise ValueError("man on its crowning rank: " + tok)
            board[sq] = c if king else c.lower()
    return Pos(board, fields[0])


# ---------------------------------------------------------------- moves


def capture_chains(pos, start):
    """Every complete capture chain of the piece on start, majority not yet
    applied: list of (landing squares, captured squares in order)."""
    side = pos.side
    piece = pos.board[start]
    king = piece.isupper()
    dirs = ALL_DIRS if king else MAN_DIRS[side]
    chains = []

    def search(board, sq, came, path, taken):
        went_on = False
        for d in dirs:
            if came is not None and d == (-came[0], -came[1]):
                continue  # clause 8: no reversal between two jumps
            s = step(sq, d)
            if king:
                while on_board(s) and s not in board:
                    s = step(s, d)
            if not on_board(s) or s not in board or colour(board[s]) == side:
                continue
            victim = s
            lands = []
            s = step(victim, d)
            while on_board(s) and s not in board:
                lands.append(s)
                if not king:
                    break
                s = step(s, d)
            if not lands:
                continue
            went_on = True
            after = dict(board)
            del after[victim]  # clause 7: off the board at once
            for land in lands:
                search(after, land, d, path + [land], taken + [victim])
        if not went_on and taken:
            chains.append((path, taken))

    board = dict(pos.board)
    del board[start]  # the start square is empty during the chain
    search(board, start, None, [], [])
    return chains


def legal_moves(pos):
    """D convention: {(start, end, captured frozenset, promotes): [routes]},
    a route being the tuple (start, landing 1, landing 2, ...)."""
    side = pos.side
    all_chains = []
    for sq, piece in pos.board.items():
        if colour(piece) == side:
            for path, taken in capture_chains(pos, sq):
                all_chains.append((sq, path, taken))
    moves = {}
    if all_chains:
        most = max(len(t) for _, _, t in all_chains)
        for start, path, taken in all_chains:
            if len(taken) != most:
                continue
            end = path[-1]
            promotes = pos.board[start].islower() and end[1] == LAST_RANK[side]
            key = (start, end, frozenset(taken), promotes)
            moves.setdefault(key, []).append(tuple([start] + path))
        return moves
    for sq, piece in pos.board.items():
        if colour(piece) != side:
            continue
        if piece.islower():
            for d in MAN_DIRS[side]:
                t = step(sq, d)
                if on_board(t) and t not in pos.board:
                    moves[(sq, t, frozenset(), t[1] == LAST_RANK[side])] = [(sq, t)]
        else:
            for d in ALL_DIRS:
                t = step(sq, d)
                while on_board(t) and t not in pos.board:
                    moves[(sq, t, frozenset(), False)] = [(sq, t)]
                    t = step(t, d)
    return moves


def route_text(key, route):
    return (":" if key[2] else "-").join(sq_name(s) for s in route)


def make(pos, key):
    start, end, taken, promotes = key
    board = dict(pos.board)
    piece = board.pop(start)
    for s in taken:
        del board[s]
    board[end] = piece.upper() if promotes else piece
    return Pos(board, other(pos.side))


def perft(pos, depth, paths=False):
    if depth == 0:
        return 1
    moves = legal_moves(pos)
    if depth == 1:
        return sum(len(r) for r in moves.values()) if paths else len(moves)
    total = 0
    for key, routes in moves.items():
        total += perft(make(pos, key), depth - 1, paths) * (len(routes) if paths else 1)
    return total


# ---------------------------------------------------------------- positions


def random_placement(rng, wk, bk, wm, bm, side=None, man_squares=None, enemy_squares=None):
    """wk/bk kings and wm/bm men on random squares; a man drawn on its
    crowning rank becomes a king. man_squares, if given, is where the side to
    move's men go, enemy_squares where the other side's men go (as many as
    fit)."""
    board = {}
    side = side or rng.choice("WB")

    def place(piece, squares):
        free = [s for s in squares if s not in board]
        if free:
            s = rng.choice(free)
            board[s] = piece.upper() if s[1] == LAST_RANK[piece.upper()] else piece

    for c, kings, men in (("W", wk, wm), ("B", bk, bm)):
        for _ in range(kings):
            place(c, SQUARES)
        for _ in range(men):
            where = man_squares if c == side else enemy_squares
            place(c.lower(), where or SQUARES)
    return Pos(board, side)


def sorted_keys(moves):
    return sorted(moves, key=lambda k: (k[0], k[1], sorted(k[2]), k[3]))


def playout(rng, pos, plies, out, seen, only_captures=False):
    for _ in range(plies):
        moves = legal_moves(pos)
        f = pos.fen()
        if f not in seen and (not only_captures or any(k[2] for k in moves)):
            seen.add(f)
            out.append(f)
        if not moves:
            return
        pos = make(pos, rng.choice(sorted_keys(moves)))


def generate(seed, count):
    """count positions: a quarter from random games from the start, a
    quarter king-rich random placements (and a few random plies from them),
    a quarter capture-rich ones (a few kings and men against many scattered
    pieces, kept only when a capture is on), and a quarter with the side to
    move's men next to the last rank among enemy pieces (captures that reach
    the last rank and go on along it)."""
    rng = random.Random(seed)
    out, seen = [], set()
    while len(out) < count // 4:
        playout(rng, parse_fen(START), 200, out, seen)
    while len(out) < count // 2:
        pos = random_placement(rng, rng.randint(1, 5), rng.randint(1, 5), rng.randint(0, 7), rng.randint(0, 7))
        playout(rng, pos, rng.randint(1, 12), out, seen)
    while len(out) < 3 * count // 4:
        k, m, ek, em = rng.randint(1, 3), rng.randint(0, 3), rng.randint(0, 3), rng.randint(5, 14)
        em = min(em, 16 - ek)  # no side has more than the 16 pieces it starts with
        if rng.random() < 0.5:
            pos = random_placement(rng, k, ek, m, em, side="W")
        else:
            pos = random_placement(rng, ek, k, em, m, side="B")
        playout(rng, pos, rng.randint(1, 4), out, seen, only_captures=True)
    while len(out) < count:
        side = rng.choice("WB")
        near = [s for s in SQUARES if s[1] in ((5, 6) if side == "W" else (1, 2))]
        far = [s for s in SQUARES if s[1] in ((6, 7) if side == "W" else (0, 1))]
        k, m, ek, em = rng.randint(0, 2), rng.randint(1, 4), rng.randint(0, 2), rng.randint(4, 12)
        if side == "W":
            pos = random_placement(rng, k, ek, m, em, side=side, man_squares=near, enemy_squares=far)
        else:
            pos = random_placement(rng, ek, k, em, m, side=side, man_squares=near, enemy_squares=far)
        playout(rng, pos, rng.randint(1, 3), out, seen, only_captures=True)
    return out[:count]


# ---------------------------------------------------------------- compare


def finished(pos, moves):
    """What `dama moves` writes for a finished game (turkish.md, "End of the
    game", checks 1-3 in their order; repetition needs the game's history),
    or None."""
    count = {c: sum(1 for p in pos.board.values() if colour(p) == c) for c in "WB"}
    if count["W"] and count["B"]:
        if count["W"] == 1 and count["B"] == 1 and not any(k[2] for k in moves):
            return "game over: 1/2-1/2 one-each (draw)"
        for weak in "WB":  # lone-man, the rule switch on (dama's default)
            strong = other(weak)
            men = [p for p in pos.board.values() if colour(p) == weak]
            if (count[weak] == 1 and men[0].islower() and count[strong] >= 2
                    and any(p == strong for p in pos.board.values())):
                return "game over: %s lone-man (%s wins)" % ("1-0" if strong == "W" else "0-1",
                                                             "white" if strong == "W" else "black")
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
    stats["with kings"] += any(p.isupper() for p in pos.board.values())
    stats["moves"] += len(moves)
    stats["no legal move"] += not moves
    for (start, end, caps, promo), routes in moves.items():
        if not caps:
            continue
        stats["captures"] += 1
        stats["king captures"] += pos.board[start].isupper()
        stats["captures of 4+ pieces"] += len(caps) >= 4
        stats["moves with several routes"] += len(routes) > 1
        stats["longest capture"] = max(stats["longest capture"], len(caps))
        last = LAST_RANK[pos.side]
        if pos.board[start].islower() and any(s[1] == last for s in routes[0][1:-1]):
            stats["men going on along the last rank"] += 1
        if any(start in r[1:] for r in routes):
            stats["back on or over the start square"] += 1
    over = finished(pos, moves)
    stats["ended by a rule, with moves left"] += bool(over and moves)
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
    notation = None
    for text in rest.split():
        key = by_text.get(text)
        if key is None:
            # not a full route: still identify the move by its ends when only
            # one move has them, so that a wrong move set is told apart from
            # wrong notation
            try:
                ends = [sq_parse(t) for t in text.replace("-", ":").split(":")]
            except ValueError:
                return "dama gives %s, which is no move text" % text
            cands = [k for k in moves if k[0] == ends[0] and k[1] == ends[-1] and k not in seen]
            if len(cands) != 1:
                return "dama gives %s, which is no legal move (or not a full route)" % text
            key = cands[0]
            notation = notation or "dama writes %s, which is not a full route of its move (%s)" % (
                text, route_text(key, sorted(moves[key])[0]))
        if key in seen:
            return "dama gives %s and %s, which are one move (same start, end, captures)" % (seen[key], text)
        seen[key] = text
    missing = [route_text(k, sorted(r)[0]) for k, r in moves.items() if k not in seen]
    if missing:
        return "dama lacks %s" % " ".join(sorted(missing))
    return notation


def features(fen):
    """(flags, D count, P count) of a position, for picking positions that
    exercise a rule (see the docstring's `features`)."""
    pos = parse_fen(fen)
    moves = legal_moves(pos)
    flags = set()
    for (start, end, caps, promo), routes in moves.items():
        if end in caps:
            flags.add("L")
        if any(start in r[1:] for r in routes):
            flags.add("S")
        if pos.board[start].islower() and any(s[1] == LAST_RANK[pos.side] for s in routes[0][1:-1]):
            flags.add("R")
        if len(routes) > 1:
            flags.add("M")
    return "".join(sorted(flags)) or "-", len(moves), sum(len(r) for r in moves.values())


def describe(fen):
    pos = parse_fen(fen)
    lines = []
    for key, routes in sorted(legal_moves(pos).items(), key=lambda kv: route_text(kv[0], sorted(kv[1])[0])):
        caps = ",".join(sorted(sq_name(c) for c in key[2]))
        routes_text = " | ".join(route_text(key, r) for r in sorted(routes))
        lines.append("%s\t%s%s" % (routes_text, caps, "\tpromotes" if key[3] else ""))
    return lines


# ---------------------------------------------------------------- self test


def selftest():
    start = parse_fen(START)
    got_p = [perft(start, d, True) for d in range(1, len(PUBLISHED_P) + 1)]
    assert got_p == PUBLISHED_P, "start perft (P) %s, published %s" % (got_p, PUBLISHED_P)
    got_d = [perft(start, d) for d in range(1, len(PUBLISHED_P) + 1)]
    assert got_d == PUBLISHED_P, "start perft (D) %s, expected the P figures %s" % (got_d, PUBLISHED_P)

    def only(fen, texts):
        got = sorted(" | ".join(route_text(k, r) for r in sorted(v)) for k, v in legal_moves(parse_fen(fen)).items())
        assert got == sorted(texts), "%s: %s, expected %s" % (fen, got, sorted(texts))

    only("W:Wd3:Bh7", ["d3-c3", "d3-d4", "d3-e3"])
    only("W:Wd4:Bc5,e5,c3,e3,d3", ["d4-c4", "d4-d5", "d4-e4"])  # no diagonal, no backward capture
    only("W:WKd4:Bf4,b4", ["d4:a4", "d4:g4", "d4:h4"])           # no 180-degree turn
    only("W:Wc6:Bc7,d8,f8,e5", ["c6:c8:e8:g8"])                   # a man on the last rank goes on as a man
    only("W:WKd1:Bd3,f6,g4,b3", ["d1:d6:g6:g3:a3"])               # re-crossing an emptied square
    only("W:WKa1:Ba3,a6", ["a1:a4:a7 | a1:a5:a7", "a1:a4:a8 | a1:a5:a8"])
    print("selftest ok: perft 1-%d P and D %s, hand-worked positions" % (len(got_p), got_p))


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
    if cmd == "features" and len(argv) == 3:
        with open(argv[2]) as f:
            for line in f:
                fen = line.strip()
                if fen:
                    print("%s\t%s\t%d\t%d" % ((fen,) + features(fen)))
        return 0
    if cmd == "gen" and len(argv) == 4:
        for f in generate(int(argv[2]), int(argv[3])):
            print(f)
        return 0
    if cmd == "compare" and len(argv) == 3:
        n = bad = 0
        stats = dict.fromkeys(["positions", "with kings", "moves", "no legal move", "captures", "king captures",
                               "captures of 4+ pieces", "moves with several routes",
                               "men going on along the last rank", "back on or over the start square",
                               "longest capture", "ended by a rule, with moves left"], 0)
        with open(argv[2]) as f:
            for line in f:
                if not line.strip():
                    continue
                n += 1
                why = compare_line(line, stats)
                if why:
                    bad += 1
                    fen = line.split("\t")[0]
                    print("position %d differs: %s\n  %s" % (n, fen, why))
                    if bad <= 3:
                        ref = describe(fen) or ["(none)"]
                        more = ["... %d more" % (len(ref) - 40)] if len(ref) > 40 else []
                        print("  reference moves:\n    " + "\n    ".join(ref[:40] + more))
        print("%s: " % ("all positions agree" if not bad else "%d of %d positions differ" % (bad, n))
              + ", ".join("%s %d" % kv for kv in stats.items()))
        return 1 if bad else 0
    if cmd == "selftest":
        selftest()
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))

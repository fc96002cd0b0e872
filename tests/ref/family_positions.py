"""family_positions.py -- random positions for the independent reference
tests/ref/family_ref.py (its `gen` command): games from the start, king-rich
sparse placements, capture-rich ones and men near the last row, sized by
board (GEN). The same seed gives the same positions, in the same order.
"""
import random

from family_rules import (CELLS, EMPTY, NE, NW, OFF, SE, SW, Pos, empty_board, file_of, legal_moves, make,
                          parse_fen, rank_of)

def random_placement(game, rng, wk, bk, wm, bm, side, man_rows=None, enemy_rows=None):
    """wk/bk kings and wm/bm men on random squares; a man drawn on its
    crowning row becomes a king. man_rows, if given, are the ranks where the
    side to move's men go, enemy_rows those of the other side's men."""
    b = empty_board(game)

    def place(piece, rows):
        free = [s for s in game.playing if b[s] == EMPTY and (rows is None or rank_of(s) in rows)]
        if free:
            s = rng.choice(free)
            b[s] = piece.upper() if rank_of(s) == game.crown[piece.upper()] else piece

    for c, kings, men in (("W", wk, wm), ("B", bk, bm)):
        for _ in range(kings):
            place(c, None)
        for _ in range(men):
            place(c.lower(), man_rows if c == side else enemy_rows)
    return Pos(game, b, side)


def cluster_placement(game, rng, side):
    """A king of side with up to 10 enemy pieces (a third of them kings)
    within three squares of it, half the time four of them round a square
    loop of jumps from it (english.md E3), and up to two more own men."""
    b = empty_board(game)
    king = rng.choice(game.playing)
    b[king] = side
    other = "B" if side == "W" else "W"
    d1, d2 = rng.choice(((NE, NW), (NE, SE), (SW, NW), (SW, SE)))
    ring = [king + d1, king + 2 * d1 + d2, king + d1 + 2 * d2, king + d2]  # round a loop of jumps
    lands = [king + 2 * d1, king + 2 * d1 + 2 * d2, king + 2 * d2]
    if rng.random() < 0.5 and all(0 <= s < CELLS and b[s] == EMPTY for s in ring + lands):
        for s in ring:
            b[s] = other if rng.random() < 0.4 or rank_of(s) == game.crown[other] else other.lower()
    near = [s for s in game.playing if s != king and abs(file_of(s) - file_of(king)) <= 3
            and abs(rank_of(s) - rank_of(king)) <= 3]
    for s in rng.sample(near, min(len(near), rng.randint(4, GEN[game.size]["cluster"]))):
        if b[s] != EMPTY or sum(p.upper() == other for p in b) >= game.men:
            continue
        b[s] = other if rng.random() < 0.33 or rank_of(s) == game.crown[other] else other.lower()
    pos = Pos(game, b, side)
    scatter(game, rng, pos, side, rng.randint(0, 2))
    return pos


def scatter(game, rng, pos, colour, n):
    """n more men of colour on random empty squares (off their crowning
    row), while colour has fewer pieces than at the start."""
    for _ in range(n):
        free = [s for s in game.playing if pos.board[s] == EMPTY and rank_of(s) != game.crown[colour]]
        if free and sum(p.upper() == colour for p in pos.board) < game.men:
            pos.board[rng.choice(free)] = colour.lower()


def sorted_keys(moves):
    return sorted(moves, key=lambda k: (k[0], k[1], sorted(k[2]), k[3]))


def playout(rng, pos, plies, out, seen, only_captures=False):
    for _ in range(plies):
        moves = legal_moves(pos)
        f = pos.fen()
        just_moved = "B" if pos.side == "W" else "W"
        if not any(p.upper() == just_moved for p in pos.board if p not in (OFF, EMPTY)):
            pass  # the side that has just moved has no piece: not a position of a game
        elif f not in seen and (not only_captures or any(k[2] for k in moves)):
            seen.add(f)
            out.append(f)
        if not moves:
            return
        pos = make(pos, rng.choice(sorted_keys(moves)))


# Sizes of the random positions by board size: longest playout from the start;
# most kings and men of each side in sparse placements; (lo, hi) of own kings,
# own men, enemy kings, enemy men in the capture-rich and the last-row ones;
# most enemy pieces round a king in a cluster.
GEN = {8: {"plies": 150, "sparse": (5, 7), "capture": ((1, 3), (0, 3), (0, 3), (5, 11)),
           "last row": ((0, 2), (1, 4), (0, 2), (3, 8)), "cluster": 10},
       10: {"plies": 200, "sparse": (6, 10), "capture": ((1, 3), (0, 5), (0, 4), (7, 18)),
            "last row": ((0, 2), (1, 6), (0, 2), (4, 12)), "cluster": 12},
       12: {"plies": 250, "sparse": (7, 12), "capture": ((1, 3), (0, 6), (0, 5), (9, 25)),
            "last row": ((0, 2), (1, 8), (0, 2), (5, 16)), "cluster": 14}}


def generate(game, seed, count):
    """count positions: 30 % from random games from the start (stopped at a
    random ply), 20 % sparse king-rich placements (and a few random plies
    from them), 30 % capture-rich ones (a few kings and men against many
    scattered pieces, or clustered round a king -- long and looping captures
    of short kings --, kept only when a capture is on), 20 % with the side to
    move's men one to three rows from crowning among enemy pieces near the
    last row (captures that reach it, or cross it and go on backward), kept
    only when a capture is on. The side that has just moved always has a
    piece (a position without is no position of a game)."""
    rng = random.Random(seed)
    out, seen = [], set()
    start = parse_fen(game, game.start)
    g = GEN[game.size]
    while len(out) < 3 * count // 10:
        playout(rng, start, rng.randint(10, g["plies"]), out, seen)
    while len(out) < count // 2:
        side = rng.choice("WB")
        kings, men = g["sparse"]
        pos = random_placement(game, rng, rng.randint(0, kings), rng.randint(0, kings), rng.randint(0, men),
                               rng.randint(0, men), side)
        playout(rng, pos, rng.randint(1, 12), out, seen)
    while len(out) < 8 * count // 10:
        k, m, ek, em = (rng.randint(lo, hi) for lo, hi in g["capture"])
        em = min(em, game.men - ek)  # no side has more pieces than at the start
        side = rng.choice("WB")
        if rng.random() < 0.3:
            pos = cluster_placement(game, rng, side)
        elif side == "W":
            pos = random_placement(game, rng, k, ek, m, em, side)
        else:
            pos = random_placement(game, rng, ek, k, em, m, side)
        playout(rng, pos, rng.randint(1, 4), out, seen, only_captures=True)
    while len(out) < count:
        side = rng.choice("WB")
        k, m, ek, em = (rng.randint(lo, hi) for lo, hi in g["last row"])
        top = game.size
        if rng.random() < 0.5:  # men two rows from the last, enemy men on the row between
            near, far = ((top - 2,), (top - 1,)) if side == "W" else ((3,), (2,))
        else:
            near, far = ((top - 3, top - 2, top - 1), (top - 2, top - 1, top)) if side == "W" else ((2, 3, 4), (1, 2, 3))
        if side == "W":
            pos = random_placement(game, rng, k, ek, m, em, side, near, far)
        else:
            pos = random_placement(game, rng, ek, k, em, m, side, near, far)
        scatter(game, rng, pos, "B" if side == "W" else "W", rng.randint(0, 4))
        playout(rng, pos, rng.randint(1, 3), out, seen, only_captures=True)
    return out[:count]


#!/usr/bin/env python3
"""Draw learned pattern weights as boards (docs/eval.md).

Reads a weight set exported as JSON (`dama export --format json --out F`)
and prints, for each region asked for, the states with the highest and the
lowest weight, each as a small board in the owner's view (own pieces move up
the page): 'o' own piece, 'x' opponent's piece, '.' empty square of the
region, ' ' a light square (Russian). Weights are centi-men, opening and
endgame (the PATTERN and PATTERN_EG tables); a state is ranked by its
opening weight, or by its endgame weight with --endgame.

    python3 scripts/pattern-boards.py tuned.json --region 4 --top 3
"""
import argparse
import json
import sys

STATES = 6561


def region_squares(game, k):
    """(row, file) of digits 0..7 of region k, in the owner's view, and the
    region's height and width (the layout of eval_terms.def PATTERN)."""
    if game == "russian":  # 4x4 window k = 3a + b
        a, b = divmod(k, 3)
        squares = []
        for i in range(8):
            j = i % 4
            squares.append((2 * a + 2 * (i // 4) + (j & 1), 2 * b + j))
        return squares, (2 * a, 2 * b, 4, 4)
    if game == "turkish":
        if k < 8:  # 2x4 block 2p + h
            p, h = divmod(k, 2)
            return [(2 * p + i // 4, 4 * h + i % 4) for i in range(8)], (2 * p, 4 * h, 2, 4)
        q, m = divmod(k - 8, 4)  # 4x2 block 8 + 4q + m
        return [(4 * q + i // 2, 2 * m + i % 2) for i in range(8)], (4 * q, 2 * m, 4, 2)
    raise SystemExit(f"pattern-boards: no pattern regions for game '{game}'")


def digits(state):
    out = []
    for _ in range(8):
        state, d = divmod(state, 3)
        out.append(d)
    return out


def board_lines(game, k, state):
    squares, (r0, f0, h, w) = region_squares(game, k)
    cell = {sq: ".ox"[d] for sq, d in zip(squares, digits(state))}
    lines = []
    for r in range(r0 + h - 1, r0 - 1, -1):  # far rank first
        row = "".join(cell.get((r, f), " ") for f in range(f0, f0 + w))
        lines.append(f"{r + 1} {row}")
    lines.append("  " + "".join("abcdefgh"[f] for f in range(f0, f0 + w)))
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    ap.add_argument("json", help="weight set exported with dama export --format json")
    ap.add_argument("--region", type=int, action="append", help="region index (repeatable; default: all)")
    ap.add_argument("--top", type=int, default=3, help="states shown at each end (default 3)")
    ap.add_argument("--endgame", action="store_true", help="rank by the endgame weight")
    args = ap.parse_args()
    with open(args.json) as f:
        ws = json.load(f)
    terms = {t["name"]: t["values"] for t in ws["terms"]}
    if "PATTERN" not in terms:
        sys.exit("pattern-boards: the weight set has no PATTERN term")
    op, eg = terms["PATTERN"], terms["PATTERN_EG"]
    regions = args.region or list(range(len(op) // STATES))
    for k in regions:
        if not 0 <= k < len(op) // STATES:
            sys.exit(f"pattern-boards: region {k} out of range 0..{len(op) // STATES - 1}")
        key = eg if args.endgame else op
        states = sorted(range(STATES), key=lambda s: (key[k * STATES + s], s))
        for title, chosen in (("best", states[::-1][: args.top]), ("worst", states[: args.top])):
            print(f"region {k}, {title} {len(chosen)} states (opening / endgame weight, centi-men):")
            boards = [board_lines(ws["game"], k, s) for s in chosen]
            heads = [f"s={s}: {op[k * STATES + s]:+d}/{eg[k * STATES + s]:+d}" for s in chosen]
            width = max(len(h) for h in heads) + 3
            print("".join(h.ljust(width) for h in heads))
            for row in zip(*boards):
                print("".join(line.ljust(width) for line in row))
            print()


if __name__ == "__main__":
    main()

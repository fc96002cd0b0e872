#!/usr/bin/env python3
"""family_ref.py -- an independent reference for the move rules of six 8x8
draughts variants: brazilian, pool, english, czech, italian, spanish, of
international draughts (10x10) and of canadian draughts (12x12).

Written from the rule books docs/rules/<game>.md alone and sharing nothing
with the C generator. The rules are in family_rules.py (board, numbering,
moves, notation; its docstring lists them clause by clause), the random
positions in family_positions.py, the books' examples and published perft
in family_books.py; this file compares dama's move lists with them.

The variant is named first: `family_ref.py GAME COMMAND ...` or
`family_ref.py --game GAME COMMAND ...`.

Commands:
  moves FEN                    every legal move: routes<TAB>captured squares
  perft FEN DEPTH [--paths]    leaf count, D convention (or P with --paths)
  perfts FILE DEPTH            for each FEN of FILE: FEN<TAB>perft D<TAB>perft P
  gen SEED COUNT               random positions, one FEN a line
  compare FILE                 check `dama moves --file` output (FEN<TAB>moves):
                               same move set, each printed route a legal route
                               of its move in the book's notation, no move
                               twice; stops at the first differing position
  selftest [DEPTH]             the book's numbering and worked examples (E1-E4,
                               international E1-E5; and a few hand-worked
                               positions of our own), the published start perft
                               to DEPTH (default 6, canadian 5; `selftest 9`
                               reproduces depth 9 of all six 8x8 games, about a
                               minute or two each; canadian 6 about ten seconds,
                               7 about a minute of CPU), international's second
                               published position to DEPTH + 2
"""
import sys

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree

from family_books import SELFTEST_DEPTH, selftest  # noqa: E402 (after the line above)
from family_positions import generate  # noqa: E402
from family_rules import (GAMES, accepted_texts, capture_routes, describe, legal_moves,  # noqa: E402
                          move_key, parse_fen, perft, rank_of, writer_text)


# ------------------------------------------------------------ compare


def explain_text(pos, moves, text):
    """Why a printed move text is not accepted (for an unknown text)."""
    game = pos.game
    sep = "-" if "-" in text else game.cap_sep
    try:
        sqs = [game.index(t) for t in text.split(sep)]
    except ValueError:
        return "dama gives %s, which is no move text" % text
    same_ends = [k for k in moves if k[0] == sqs[0] and k[1] == sqs[-1] and bool(k[2]) == (sep != "-")]
    for k in same_ends:
        if tuple(sqs) in moves[k]:
            return ("dama writes %s in full where the short form %sx%s is unambiguous"
                    % (text, game.name_of(k[0]), game.name_of(k[1])))
    if len(sqs) == 2 and len(same_ends) > 1:
        return "dama writes %s, which is ambiguous: %s" % (
            text, " ".join(writer_text(pos, moves, k) for k in same_ends))
    if len(sqs) == 2 and len(same_ends) == 1 and same_ends[0][0] == same_ends[0][1]:
        return "dama writes %s, short where start == end needs the full form" % text
    if len(sqs) == 2 and len(same_ends) == 1 and not game.numeric:
        return "dama writes %s, short where %s writes every landing square (%s)" % (
            text, game.name, writer_text(pos, moves, same_ends[0]))
    if game.choice != "free" and sep != "-":
        for start, path, captured in capture_routes(pos):
            if path == tuple(sqs):
                return ("dama gives %s, a capture route that the %s choice rule (%s) excludes"
                        % (text, game.name, game.choice))
    return "dama gives %s, which is no legal move (or not a route of one)" % text


def finished(pos, moves):
    """What `dama moves` writes for a finished game, or None. A position
    string shows one end only (the rule books' move-count draws need the
    game's history): the side to move has no legal move and loses."""
    if moves:
        return None
    mover, winner = ("white", "black") if pos.side == "W" else ("black", "white")
    return "game over: %s no-moves (%s wins, %s to move has no legal move)" % (
        "0-1" if pos.side == "W" else "1-0", winner, mover)


def compare_line(game, line, stats):
    """None if dama's move list for this FEN is right, else the reason."""
    fen, _, rest = line.rstrip("\n").partition("\t")
    pos = parse_fen(game, fen)
    moves = legal_moves(pos)
    stats["positions"] += 1
    stats["with kings"] += any(p in "WB" for p in pos.board)
    stats["moves"] += len(moves)
    stats["no legal move"] += not moves
    all_routes = capture_routes(pos) if moves and next(iter(moves))[2] else []
    stats["choice rule excludes routes"] += len(all_routes) > sum(len(r) for r in moves.values())
    for start, path, captured in all_routes:
        key = move_key(pos, start, path[-1], captured)
        if key in moves and path not in moves[key]:
            stats["a move's route excluded"] += 1  # italian.md 11: written with a passing route
            break
    for (start, end, caps, promo), routes in moves.items():
        if not caps:
            continue
        stats["captures"] += 1
        stats["king captures"] += pos.board[start].isupper()
        stats["captures of 4+ pieces"] += len(caps) >= 4
        stats["kings captured"] += any(pos.board[c].isupper() for c in caps)
        stats["promoting captures"] += promo
        stats["men crossing the last row"] += (pos.board[start].islower()
                                               and any(rank_of(s) == game.crown[pos.side] for s in routes[0][1:-1]))
        stats["moves with several routes"] += len(routes) > 1
        stats["full form needed"] += any(k[0] == start and k[1] == end and k != (start, end, caps, promo)
                                         for k in moves) or start == end
        stats["longest capture"] = max(stats["longest capture"], len(caps))
    over = finished(pos, moves)
    if over or rest.startswith("game over:"):
        if rest != over:
            return "dama gives '%s' where the reference has %s" % (
                rest, "'%s'" % over if over else "%d legal moves" % len(moves))
        return None
    texts = accepted_texts(pos, moves)
    seen = {}
    for text in rest.split():
        key = texts.get(text)
        if key is None:
            return explain_text(pos, moves, text)
        if key in seen:
            return "dama gives %s and %s, which are one move (same start, end, captures)" % (seen[key], text)
        seen[key] = text
    missing = [writer_text(pos, moves, k) for k in moves if k not in seen]
    if missing:
        return "dama lacks %s" % " ".join(sorted(missing))
    return None


# ------------------------------------------------------------ main


def run(game, args):
    cmd = args[0] if args else ""
    if cmd == "moves" and len(args) == 2:
        print("\n".join(describe(game, args[1])))
        return 0
    if cmd == "perft" and len(args) >= 3:
        print(perft(parse_fen(game, args[1]), int(args[2]), "--paths" in args[3:]))
        return 0
    if cmd == "perfts" and len(args) == 3:
        with open(args[1]) as f:
            for line in f:
                fen = line.strip()
                if fen:
                    pos = parse_fen(game, fen)
                    print("%s\t%d\t%d" % (fen, perft(pos, int(args[2])), perft(pos, int(args[2]), True)))
        return 0
    if cmd == "gen" and len(args) == 3:
        for f in generate(game, int(args[1]), int(args[2])):
            print(f)
        return 0
    if cmd == "compare" and len(args) == 2:
        return compare_file(game, args[1])
    if cmd == "selftest" and len(args) <= 2:
        selftest(game, int(args[1]) if len(args) == 2 else SELFTEST_DEPTH.get(game.name, 6))
        return 0
    sys.stderr.write(__doc__)
    return 2


def compare_file(game, path):
    n = 0
    stats = dict.fromkeys(["positions", "with kings", "moves", "no legal move", "captures", "king captures",
                           "captures of 4+ pieces", "kings captured", "promoting captures",
                           "men crossing the last row", "moves with several routes", "full form needed",
                           "choice rule excludes routes", "a move's route excluded", "longest capture"], 0)
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            n += 1
            why = compare_line(game, line, stats)
            if why:
                fen = line.split("\t")[0]
                print("%s: first differing position (line %d): %s\n  %s" % (game.name, n, fen, why))
                print("  dama moves: %s" % line.rstrip("\n").partition("\t")[2])
                print("  reference moves (written, routes, captured):\n    "
                      + "\n    ".join(describe(game, fen) or ["(none)"]))
                return 1
    if n == 0:
        print("%s: no positions in %s" % (game.name, path))
        return 1
    print("%s: all positions agree: %s" % (game.name, ", ".join("%s %d" % kv for kv in stats.items())))
    return 0


def main(argv):
    args = argv[1:]
    if args[:1] == ["--game"]:
        args = args[1:]
    if not args or args[0] not in GAMES:
        sys.stderr.write("family_ref.py: name the game first (%s)\n\n%s" % (", ".join(GAMES), __doc__))
        return 2
    try:
        return run(GAMES[args[0]], args[1:])
    except (ValueError, OSError) as e:
        sys.stderr.write("family_ref.py %s: %s\n" % (args[0], e))
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))

"""family_books.py -- what the independent reference tests/ref/family_ref.py
checks itself against (its `selftest` command): each book's numbering
anchors (in family_rules.GAMES), its worked examples, a few hand-worked
positions of our own, and the published perft.
"""
from family_rules import (accepted_texts, alg, describe, legal_moves, parse_fen, perft, RUSSIAN_START,
                          writer_text)

# Published D-convention perft from the start (data/perft/other_variants.txt;
# english: the K list, equal to D below depth 12 per english.md).
PUBLISHED = {
    "brazilian": [7, 49, 302, 1469, 7473, 37628, 187302, 907830, 4431766],
    "pool": [7, 49, 302, 1469, 7482, 37986, 190146, 929896, 4570534],
    "english": [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680],
    "czech": [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963671],
    "italian": [7, 49, 302, 1469, 7361, 36473, 177532, 828783, 3860875],
    "spanish": [7, 49, 302, 1469, 7361, 36473, 177532, 828783, 3860866],
    "international": [9, 81, 658, 4265, 27117, 167140, 1049442, 6483961, 41022423],
    "canadian": [11, 121, 1222, 10053, 79049, 584100, 4369366, 31839056, 237209258, 1761652936],
}

# The start perft depth `selftest` checks unless told (6 for the others): the
# reference's 12x12 depth 6 takes several seconds.
SELFTEST_DEPTH = {"canadian": 5}

# Published perft of other positions (international.md, "Reference figures"),
# checked to two plies deeper than the start.
PUBLISHED_MORE = {
    "international": [("W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38",
                       [6, 12, 30, 73, 215, 590, 1944, 6269, 22369, 88050, 377436])],
}


# Each book's worked examples: (FEN, the moves as the book writes them,
# the book's promotion statements {move text: crowned?}).
EXAMPLES = {
    "brazilian": [
        ("W:W21-32:B1-12", "21-17 22-17 22-18 23-18 23-19 24-19 24-20", {}),
        ("W:W11:B6,7,18", "11x9", {"11x9": False}),
        ("W:WK1:B8,K10,22,27", "1x13 1x17", {}),
        ("W:W10,22:B7,8,18", "10x12", {"10x12": False}),
    ],
    "pool": [
        ("B:W21-32:B1-12", "9-13 9-14 10-14 10-15 11-15 11-16 12-16", {}),
        ("W:W10,22:B7,8,18", "10x12 22x15", {"10x12": False}),
        ("W:W27,K29:B10,22,23", "27x25 29x1 29x6", {}),
        ("W:WK22:B4,9,17,18,24", "22x13x6x28 22x15x28", {}),
    ],
    "english": [
        ("B:W21-32:B1-12", "9-13 9-14 10-14 10-15 11-15 11-16 12-16", {}),
        ("B:W18,25,26,27:B14,21", "14x30 14x32 21x30", {"14x30": True, "14x32": True, "21x30": True}),
        ("W:WK22:B9,10,17,18", "22x15x6x13x22", {}),
        ("W:W22:B10,17,18,26", "22x13 22x6", {}),
    ],
    "czech": [
        (RUSSIAN_START, "a3-b4 c3-b4 c3-d4 e3-d4 e3-f4 g3-f4 g3-h4", {}),
        ("W:Wc3,Ka7:Bb2,d4,f6", "a7:e3 a7:f2 a7:g1", {}),
        ("W:WKa1,Kh6:Bc3,d6,g5", "a1:e5:b8 a1:e5:c7 a1:f6:h4 h6:f4:b8 h6:f4:c7 h6:d2:b4:e7 h6:d2:b4:f8", {}),
        ("W:Wd4,f4:Ba5,c3,e5,g5", "d4:f6 f4:d6 f4:h6", {}),
    ],
    "italian": [
        ("W:W21-32:B1-12", "21-17 21-18 22-18 22-19 23-19 23-20 24-20", {}),
        ("W:W22:BK18,19,28", "22x15", {}),
        ("W:W22,K31:BK18,19,28", "31x24", {}),
        ("W:WK22:B18,K10,K19,12,27,28", "22x8", {}),
    ],
    "spanish": [
        ("W:W1-12:B21-32", "9-13 10-13 10-14 11-14 11-15 12-15 12-16", {}),
        ("W:WK11,24:BK6,21,30,31", "11x2", {}),
        ("W:W11:BK15,14,21", "11x25", {}),
        ("W:WK14:BK10,11,19,25", "14x1 14x5", {}),
    ],
    "international": [
        ("W:W31-50:B1-20", "31-26 31-27 32-27 32-28 33-28 33-29 34-29 34-30 35-30", {}),
        ("W:W12,13:B8,9,17", "12x14", {"12x14": False}),
        ("W:W32:BK27,28,19", "32x14", {}),
        ("W:W42,K46:B7,13,22,28,41,K49", "46x11 46x16", {}),
        ("W:WK6:B9,17,23,30,37", "6x35 6x28x14x3 6x39x25x3", {}),
    ],
    "canadian": [
        ("W:W43-72:B1-30", "43-37 44-37 44-38 45-38 45-39 46-39 46-40 47-40 47-41 48-41 48-42", {}),
        ("W:W14:B9,K10", "14x16", {"14x16": False}),
        ("W:W37,K45:B34,50,61", "45x67", {}),
        ("W:W50:BK44,45,34", "50x28", {}),
    ],
}

# Hand-worked positions of our own for rules the books state but their
# examples leave open (each checked by hand from the clause named):
# pool 12: brazilian.md E2's position, where a man crossing the back row goes
# on as a man (over 6 to 9) and is not crowned; pool 10 and czech 9: the
# king's route a5-e1-g3-e5 (c3, f2, f4 taken) cannot go on over d4, because
# the captured c3 still stands behind it; spanish 10: a man's capture and a
# king's of one piece each are both legal (no "with a king" test);
# international.md 6, 9, 10: a man ending a capture on the last row is
# crowned (White on 1-5, Black on 46-50), a black man captures backward (up
# the board), and a flying king taking two kings chooses its last landing
# (two routes each, via 33 or 28, one move). International's E1-E5 are the
# five examples of its book, in order. canadian.md 3 and 4 (International's
# 6, 9 and 10 on 12x12): a man ending a capture on the last row is crowned
# (White d10 over e11 to f12 = 3, Black c3 over d2 to e1 = 69), a black man
# captures backward (e3 over f4 to g5), and a king in the corner l12 = 6
# takes k11 and i9 down the long diagonal with a landing square between them
# (j10 = 17) and may stop on any of the eight empty squares after i9.
OWN = {
    "brazilian": [],
    "pool": [("W:W11:B6,7,18", "11x9", {"11x9": False}),
             ("B:W18,19,22,23,27:BK13,7,10", "13x15", {})],
    "english": [],
    "czech": [("B:Wc3,d4,e3,f2,f4:BKa5,d6,e7", "a5:e1:g3:e5", {})],
    "italian": [],
    "spanish": [("W:W3,K1:B7,23", "1x28 1x32 3x12", {})],
    "international": [("W:W12:B8", "12x3", {"12x3": True}),
                      ("B:W43:B38", "38x49", {"38x49": True}),
                      ("B:W22:B27", "27x18", {"27x18": False}),
                      ("B:WK39,K22:BK50,1", "50x17 50x11 50x6", {})],
    "canadian": [("W:W14:B9", "14x3", {"14x3": True}),
                 ("B:W62:B56", "56x69", {"56x69": True}),
                 ("B:W51:B57", "57x46", {"57x46": False}),
                 ("W:WK6:B12,23", "6x28 6x34 6x39 6x45 6x50 6x56 6x61 6x67", {})],
}

# Alternatives the books name, which the example must tell apart: english E3
# accepts either route of the loop.
EXTRA_ACCEPTED = {("english", 2): ["22x13x6x15x22"]}


def check_example(game, n, fen, book, promos):
    """n: 0.. the book's E1, E2, .., then our own positions (named 'own N')."""
    nbook = len(EXAMPLES[game.name])
    label = "E%d" % (n + 1) if n < nbook else "own %d" % (n - nbook + 1)
    pos = parse_fen(game, fen)
    moves = legal_moves(pos)
    texts = accepted_texts(pos, moves)
    want = book.split()
    keys = []
    for t in want + EXTRA_ACCEPTED.get((game.name, n), []):
        assert t in texts, "%s %s %s: the book's %s is not a legal move here; reference: %s" % (
            game.name, label, fen, t, describe(game, fen))
        keys.append(texts[t])
    assert len(set(keys[:len(want)])) == len(want) == len(moves), "%s %s %s: book %s, reference %s" % (
        game.name, label, fen, want, describe(game, fen))
    for t, crowned in promos.items():
        assert texts[t][3] == crowned, "%s %s: %s crowned %s, the book says %s" % (
            game.name, label, t, texts[t][3], crowned)
    assert sorted(writer_text(pos, moves, k) for k in moves) == sorted(want) or (game.name, n) in EXTRA_ACCEPTED, \
        "%s %s: written %s, the book writes %s" % (game.name, label,
                                                     sorted(writer_text(pos, moves, k) for k in moves), want)


def selftest(game, depth):
    for num, square in game.anchors.items():
        assert alg(game.index(num)) == square, "%s: square %s is %s, the book says %s" % (
            game.name, num, alg(game.index(num)), square)
    start = parse_fen(game, game.start)
    assert parse_fen(game, start.fen()).board == start.board
    for n, (fen, book, promos) in enumerate(EXAMPLES[game.name] + OWN[game.name]):
        check_example(game, n, fen, book, promos)
    want = PUBLISHED[game.name][:depth]
    got = [perft(start, d) for d in range(1, len(want) + 1)]
    assert got == want, "%s start perft %s, published %s" % (game.name, got, want)
    more = ""
    for fen, published in PUBLISHED_MORE.get(game.name, []):
        pos = parse_fen(game, fen)
        want_more = published[:depth + 2]
        got_more = [perft(pos, d) for d in range(1, len(want_more) + 1)]
        assert got_more == want_more, "%s %s perft %s, published %s" % (game.name, fen, got_more, want_more)
        more += ", %s perft 1-%d %s" % (fen, len(got_more), got_more)
    print("%s selftest ok: numbering, examples E1-E%d (and %d of our own), start perft 1-%d %s%s"
          % (game.name, len(EXAMPLES[game.name]), len(OWN[game.name]), len(got), got, more))


#!/usr/bin/env python3
"""make_corpus.py — (re)writes the seed corpora fuzz/corpus/<target>/ from
the repository's own data: the perft tables and the 1950 PDN of data/, the
ballots of data/openings/, the position strings of the rule tests, the
configuration and weight files of configs/, and the legal moves of those
positions as `dama moves` lists them.

Only the folders of the targets it writes are emptied and rewritten; the
others (web_json and book, kept by hand) are left as they are.

usage: python3 fuzz/make_corpus.py DAMA_BINARY   (from the repository root)
"""
import hashlib
import os
import re
import shutil
import subprocess
import sys

GAMES = ("russian", "turkish", "shatra")
# The 8x8 variants fuzzed: one of each numbering with its own rules
# (English: short kings; Italian: the turned board, men that spare kings).
VARIANTS = ("english", "italian")
# International (10x10, squares 1-50): its own board and numbering.
BOARD10 = ("international",)
PER_GAME = 24  # positions per game: the corpus stays small
# Hub's strings for International (fuzz_hub): the start as Hub's letters,
# rules examples E5 and E4 as Hub's letters and as FEN, and moves in Hub's
# forms (captures with their captured squares, in any order, some left out).
HUB_START = "W" + "b" * 20 + "e" * 10 + "w" * 20
HUB_E5 = "W" + "".join({6: "W", 9: "b", 17: "b", 23: "b", 30: "b", 37: "b"}.get(n, "e") for n in range(1, 51))
HUB_SEEDS = [
    (HUB_START, ["32-28", "31-26", "35x24"]),
    ("", ["34-29", "32x28"]),
    (HUB_E5, ["6x3x9x17x23", "6x3x30", "6x35x17x23x30", "6x3", "6x28x14x3"]),
    ("W:W42,K46:B7,13,22,28,41,K49", ["46x11x7x13x28x41", "46x16", "46x11x41x7"]),
    ("Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww", ["32-28"]),
]


CORPUS = {}  # target -> {file name: bytes}, written out by save()


def write(target, data):
    data = data.encode() if isinstance(data, str) else data
    CORPUS.setdefault(target, {})[hashlib.sha1(data).hexdigest()[:16]] = data


def save():
    """Each target written replaces its folder; other folders stay."""
    for target, files in CORPUS.items():
        folder = os.path.join("fuzz", "corpus", target)
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        for name, data in files.items():
            with open(os.path.join(folder, name), "wb") as f:
                f.write(data)


def spread(items, n):
    """n items spread evenly over the list (all of them when fewer)."""
    items = list(dict.fromkeys(items))
    if len(items) <= n:
        return items
    return [items[i * len(items) // n] for i in range(n)]


def positions(game):
    found = []
    with open(f"data/perft/{game}.txt") as f:
        found += [line.split(";")[0].strip() for line in f if line.strip() and not line.startswith("#")]
    if game == "russian":
        with open("data/openings/russian_ballots_745.tsv") as f:
            found += [line.rstrip("\n").split("\t")[1] for line in f if "\t" in line and not line.startswith("#")]
    with open(f"tests/test_{game}.c") as f:
        text = f.read()
    if game == "shatra":
        found += re.findall(r'"([^"\\]*/[^"\\]* [wb] [^"\\]*)"', text)
    else:
        found += re.findall(r'"([WB]:[^"\\]*)"', text)
    return spread(found, PER_GAME)


def variant_positions(game):
    """The variant's start and the positions of its cases in test_variants.c."""
    with open("tests/test_variants.c") as f:
        text = f.read()
    found = re.findall(r'\{"%s", "([WB]:[^"\\]*)"' % game, text)
    return ["start"] + spread(found, PER_GAME - 1)


def board10_positions(game):
    """The published perft positions (data/perft/other_variants.txt) and
    the position strings of tests/test_big_boards.c (its other board's
    are refused by the game: seeds of bad input)."""
    found = []
    with open("data/perft/other_variants.txt") as f:
        for line in f:
            if line.startswith(game + " "):
                fen = line.split(";")[0].split(None, 1)[1].strip()
                found.append("start" if fen == "startpos" else fen)
    with open("tests/test_big_boards.c") as f:
        found += re.findall(r'"([WB]:[^"\\]*)"', f.read())
    return spread(found, PER_GAME)


def legal_moves(dama, game, fen):
    out = subprocess.run([dama, "moves", "--game", game, "--fen", fen], capture_output=True, text=True)
    return out.stdout.split() if out.returncode == 0 else []


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    dama = os.path.abspath(sys.argv[1])
    for game in GAMES:
        fens = positions(game)
        for fen in fens:
            write(f"position_{game}", fen)
            for move in spread(legal_moves(dama, game, fen), 3):
                write(f"move_{game}", f"{fen}\n{move}")
    for game in VARIANTS + BOARD10:
        for fen in variant_positions(game) if game in VARIANTS else board10_positions(game):
            if fen != "start":
                write(f"position_{game}", fen)
            for move in spread(legal_moves(dama, game, fen), 3):
                write(f"move_{game}", f"{'' if fen == 'start' else fen}\n{move}")
    # Russian game records write moves in short forms too.
    for move in ("ed4", "b:d6", "22-18", "c3xe5", "c3:g3"):
        write("move_russian", f"\n{move}")
    # Hub's strings (International): positions as Hub's letters or as FEN, Hub's moves
    for pos, moves in HUB_SEEDS:
        for move in moves:
            write("hub", f"{pos}\n{move}")
    with open("data/games/russian_ussr_ch10_1950.pdn", "rb") as f:
        games = f.read().split(b"\r\n\r\n[")
    for i in (0, 1, 2, 50, 100):
        write("pdn", (b"[" if i else b"") + games[i].strip() + b"\r\n")
    write("pdn", '[GameType "30"]\n\n1. a3-a4 h6-h5 *\n')
    write("pdn", '[GameType "20,W,10,10,N2,0"]\n[FEN "W:W31-50:B1-20"]\n\n1. 32-28 19-23 2. 28x19 14x23 *\n')
    write("pdn", '[Event "x"] {comment} 1. c3-d4 (1. e3-f4) d6-e5 $1 2. d4:f6 g7:e5 1/2-1/2\n')
    with open("configs/dama.cfg") as f:
        write("config", f.read())
    write("config", 'game = "turkish";\nselfplay = { games = 10; nodes = 2000; };\n')
    for game in GAMES:
        with open(f"configs/weights/{game}-start.cfg") as f:
            write("weights", f.read())
    # DXP: one message of each type (protocol/dxp.h), a board, a capture.
    name = "Seed".ljust(32)
    board = "z" * 20 + "e" * 10 + "w" * 20
    for msg in (f"R01{name}Z005000A", f"R01{name}W001075BZ{board}", f"A{name}0", "M0012322800",
                "M001205250422122320", "E21", "B005Z", "K1", "Ca chat", "garbage"):
        write("dxp", msg)
    save()


if __name__ == "__main__":
    main()

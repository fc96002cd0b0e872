#!/usr/bin/env python3
"""elo_match.py — play two dama binaries against each other, one process per move.

Each side is driven exactly as an outside referee would drive it: for every
move, `BIN search --game G --fen FEN (--movetime MS | --depth D | --nodes N)
--quiet`, from the bare position string (no game history, no tables kept
between moves). The referee is the NEW binary's `dama status --fen OPENING
--moves "..."`: it replays the whole game, so threefold repetition and the
draw rules' counters are judged over the full history.

Openings are paired: every opening is played twice, colours swapped.
Russian: the 745 ballots (data/openings/russian_ballots_745.tsv); English:
the 156 three-move ballots (data/openings/english_3move_156.tsv); other
games: random balanced lines (RANDOM_PLIES uniformly random plies from the
start, redrawn while a 2000-node search of the new binary scores the line
beyond +-BALANCE centi-men), seeded.

Prints W/D/L from the new binary's view, the pentanomial counts of the game
pairs (pair score 0, 1/2, 1, 3/2, 2) and the Elo with its 95% interval from
the pentanomial variance; every game is appended to the log.

Equal settings are not equal time: two engines given the same --movetime
use different amounts of it. So every search is timed as the referee sees
it: wall time from process start to exit, and CPU time (user + system) of
that process (os.wait4). The summary prints each side's mean wall and CPU
milliseconds per move and their ratio, and says whether they are within 5%
(a strength claim needs that). --old-movetime MS gives the old binary its
own movetime; --calibrate finds one before the match: it times both
binaries on positions of the match's openings and adjusts the old
binary's movetime until its mean wall time per move is within 2% of the
new binary's (--calibrate-only prints it and stops).

A long match can be played in parts: `--first-pair K --pairs N` plays pairs
K .. K+N-1 of the same opening sequence a single run of K+N pairs would
play (same seed), so two halves on two machines are one match; `--combine
LOG...` reads the parts' logs and prints the combined W/D/L, pentanomial and
Elo (a pair index found in two logs, or logs of different games or limits,
are refused; a pair with only one game logged is left out and counted).
"""
import argparse
import math
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed

# Set when the match stops early (Ctrl-C, or a game that failed): each game
# still playing ends at its next move.
STOP = threading.Event()


class Stopped(Exception):
    pass


def run_timed(cmd):
    """Run cmd; returns (stdout, wall seconds, CPU seconds of that process)."""
    with tempfile.TemporaryFile() as err:
        t0 = time.monotonic()
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err)
        out = p.stdout.read()
        p.stdout.close()
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.monotonic() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        if p.returncode != 0:
            err.seek(0)
            msg = err.read().decode(errors="replace").strip()[:300]
            raise RuntimeError("%s: exit %d: %s" % (" ".join(cmd), p.returncode, msg))
    return out.decode(), wall, ru.ru_utime + ru.ru_stime


def run(cmd):
    return run_timed(cmd)[0]


def status(binary, game, fen, moves):
    out = run([binary, "status", "--game", game, "--fen", fen, "--moves", " ".join(moves)])
    st = {}
    for line in out.splitlines():
        k, _, v = line.partition(" ")
        st[k] = v
    return st


def search(binary, game, fen, limit, clock=None):
    """Best move, score and depth; clock (a dict) gets the wall and CPU seconds added."""
    out, wall, cpu = run_timed([binary, "search", "--game", game, "--fen", fen, "--quiet"] + limit)
    if clock is not None:
        clock["moves"] += 1
        clock["wall"] += wall
        clock["cpu"] += cpu
    best, score, depth = None, 0, 0
    for line in out.splitlines():
        if line.startswith("bestmove "):
            best = line.split()[1]
        elif line.startswith("score "):
            score = int(line.split()[1])
        elif line.startswith("depth "):
            depth = int(line.split()[1])
    if best is None or best == "(none)":
        raise RuntimeError("no best move from %s for %s" % (binary, fen))
    return best, score, depth


def random_openings(new, game, count, plies, balance, seed):
    rng = random.Random(seed)
    start = status(new, game, "start", [])["fen"]
    books = []
    while len(books) < count:
        moves = []
        fen = start
        ok = True
        for _ in range(plies):
            legal = run([new, "moves", "--game", game, "--fen", fen]).split()
            if not legal:
                ok = False
                break
            moves.append(rng.choice(legal))
            st = status(new, game, start, moves)
            if st["result"] != "*":
                ok = False
                break
            fen = st["fen"]
        if not ok:
            continue
        if balance > 0:
            _, score, _ = search(new, game, fen, ["--nodes", "2000"])
            if abs(score) > balance:
                continue
        books.append((" ".join(moves), fen))
    return books


# The games whose own opening book (data/openings/) the match deals, as dama does.
GAME_BOOKS = {"russian": "russian_ballots_745.tsv", "english": "english_3move_156.tsv"}


def ballots(path):
    """The book's (label, position) lines; ValueError naming the file and line of a bad one."""
    items = []
    try:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                line = line.rstrip("\r\n")
                if not line or line.startswith("#"):
                    continue
                label, tab, fen = line.partition("\t")
                if not tab or not fen.strip():
                    raise ValueError("%s line %d: expected label<TAB>position" % (path, n))
                items.append((label, fen))
    except UnicodeDecodeError as err:
        raise ValueError("%s: not UTF-8 text (byte %d)" % (path, err.start))
    if not items:
        raise ValueError("%s: no opening in it" % path)
    return items


def new_clock():
    return {"moves": 0, "wall": 0.0, "cpu": 0.0}


def add_clock(into, c):
    for k in into:
        into[k] += c[k]


def side_limit(args, who):
    base = args.old_limit if who == "old" else args.limit
    return base + (args.new_args.split() if who == "new" else args.old_args.split())


def play(args, opening_fen, new_is_white):
    """One game; returns (score for new in half points 0/1/2, reason, plies, depths dict, moves, clocks)."""
    moves = []
    fen = opening_fen
    depths = {"new": [], "old": []}
    clocks = {"new": new_clock(), "old": new_clock()}
    while True:
        if STOP.is_set():
            raise Stopped()
        st = status(args.new, args.game, opening_fen, moves)
        if st["result"] != "*":
            res, _, reason = st["result"].partition(" ")
            break
        if len(moves) >= args.max_plies:
            res, reason = "1/2-1/2", "move-cap"
            break
        fen = st["fen"]
        white = st["side"] == "white"
        who = "new" if white == new_is_white else "old"
        best, _, depth = search(args.new if who == "new" else args.old, args.game, fen, side_limit(args, who),
                                clocks[who])
        depths[who].append(depth)
        moves.append(best)
    if res == "1/2-1/2":
        s = 1
    elif (res == "1-0") == new_is_white:
        s = 2
    else:
        s = 0
    return s, reason, len(moves), depths, moves, clocks


def elo(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400.0 * math.log10(1.0 / score - 1.0)


def shown(x):
    """x to one decimal, signed, never "-0.0"."""
    x = round(x, 1)
    return "%+.1f" % (x if x != 0 else 0.0)


def summary(ptnml, wdl):
    n = sum(ptnml)
    if n == 0:
        return "no pairs"
    vals = [0.0, 0.25, 0.5, 0.75, 1.0]
    mu = sum(p * v for p, v in zip(ptnml, vals)) / n
    var = sum(p * (v - mu) ** 2 for p, v in zip(ptnml, vals)) / n
    head = "W %d D %d L %d | pentanomial %s | score %.3f | Elo %s" % (
        wdl[0], wdl[1], wdl[2], " ".join(str(x) for x in ptnml), mu, shown(elo(mu)))
    if n < 2 or var == 0:  # as dama's stats line: no interval from one pair, or pairs that all scored the same
        return "%s (interval not estimable: %s) | %d pairs" % (
            head, "1 pair" if n < 2 else "all %d pairs scored the same" % n, n)
    se = math.sqrt(var / n)
    lo, hi = elo(mu - 1.96 * se), elo(mu + 1.96 * se)
    return "%s +- %.1f (95%%: %s .. %s) | %d pairs" % (head, (hi - lo) / 2, shown(lo), shown(hi), n)


def time_line(clocks):
    """Each side's mean wall and CPU ms per move, their ratio, and whether they are within 5%."""
    n, o = clocks["new"], clocks["old"]
    if not n["moves"] or not o["moves"]:
        return "time per move: no moves"
    nw, nc = 1000 * n["wall"] / n["moves"], 1000 * n["cpu"] / n["moves"]
    ow, oc = 1000 * o["wall"] / o["moves"], 1000 * o["cpu"] / o["moves"]
    rw = nw / ow if ow > 0 else float("inf")
    rc = nc / oc if oc > 0 else float("inf")
    # util/time_use.h's rule: the side that used more, at most 5.0% more (in 0.1%, bound included)
    equal = all(r > 0 and round(100 * (max(r, 1 / r) - 1), 1) <= 5.0 for r in (rw, rc))
    return ("time per move: new wall %.1f ms cpu %.1f ms (%d moves), old wall %.1f ms cpu %.1f ms (%d moves), "
            "new/old wall %.3f cpu %.3f: %s" % (nw, nc, n["moves"], ow, oc, o["moves"], rw, rc,
                                                "equal time (within 5%)" if equal else "NOT equal time"))


def clock_log(i, colour, clocks):
    return "# time pair %d new %s: new %d %.6f %.6f old %d %.6f %.6f" % (
        i, colour, clocks["new"]["moves"], clocks["new"]["wall"], clocks["new"]["cpu"],
        clocks["old"]["moves"], clocks["old"]["wall"], clocks["old"]["cpu"])


def calibrate(args, pairs):
    """The old binary's movetime at which its mean wall time per move is within 2% of the new one's at
    args.movetime, timed on positions a few plies into the match's openings. Returns milliseconds."""
    rng = random.Random(args.seed + 7)
    fens = []
    for i in sorted(pairs)[: max(1, args.calibrate_positions // 2)]:
        fens.append(pairs[i][1])
        st = status(args.new, args.game, pairs[i][1], [])
        moves = run([args.new, "moves", "--game", args.game, "--fen", st["fen"]]).split()
        if moves:
            st2 = status(args.new, args.game, pairs[i][1], [rng.choice(moves)])
            if st2["result"] == "*":
                fens.append(st2["fen"])

    def mean_wall(binary, limit, extra):
        c = new_clock()
        jobs = [(fen, r) for r in range(args.calibrate_repeat) for fen in fens]
        with ThreadPoolExecutor(max_workers=args.concurrency) as ex:
            for f in [ex.submit(search, binary, args.game, fen, limit + extra.split(), c) for fen, _ in jobs]:
                f.result()
        return 1000 * c["wall"] / c["moves"], 1000 * c["cpu"] / c["moves"]

    target, tcpu = mean_wall(args.new, ["--movetime", str(args.movetime)], args.new_args)
    print("calibrate: new at --movetime %d: wall %.1f ms cpu %.1f ms per move (%d positions x %d)"
          % (args.movetime, target, tcpu, len(fens), args.calibrate_repeat), flush=True)
    mt = args.old_movetime or args.movetime
    for step in range(args.calibrate_steps):
        w, c = mean_wall(args.old, ["--movetime", str(mt)], args.old_args)
        print("calibrate: old at --movetime %d: wall %.1f ms cpu %.1f ms per move (new/old %.3f)"
              % (mt, w, c, target / w), flush=True)
        if abs(target / w - 1) <= 0.02:
            break
        # wall = fixed overhead + a share of the movetime: move the movetime by the gap
        mt = max(1, int(round(mt + (target - w))))
    return mt


def combine(paths):
    """Pentanomial of the finished pairs in the logs; returns an exit code."""
    import re
    head = re.compile(r"^# \S+ \S+ new=\S+ old=\S+ game=(\S+) limit=(.+?) pairs=\d+(?: first-pair=\d+)?(.*)$")
    line_re = re.compile(r"^game pair (\d+) opening '(.*)' new (white|black): (0|1/2|1) ")
    games = {}  # pair index -> {colour: half points}
    where = {}
    setting = None
    clock_re = re.compile(r"^# time pair (\d+) new (white|black): new (\d+) (\S+) (\S+) old (\d+) (\S+) (\S+)$")
    clocks = {"new": new_clock(), "old": new_clock()}
    for path in paths:
        if paths.count(path) > 1:
            print("elo_match.py: --combine: %s given twice" % path, file=sys.stderr)
            return 2
        try:
            f = open(path, encoding="utf-8", errors="strict")
        except OSError as err:
            print("elo_match.py: --combine: cannot read %s: %s" % (path, err.strerror), file=sys.stderr)
            return 2
        try:
            with f:
                lines = f.read().splitlines()
        except UnicodeDecodeError as err:
            print("elo_match.py: --combine: %s: not UTF-8 text (byte %d)" % (path, err.start), file=sys.stderr)
            return 2
        for n, line in enumerate(lines, 1):
            m = head.match(line)
            if m:
                # the rest: new-args, old-args and seed (absent in older logs: none, seed 1)
                rest = m.group(3).strip() or "new-args='' old-args='' seed=1"
                if setting is None:
                    setting = (m.group(1), m.group(2), rest, path)
                elif (m.group(1), m.group(2), rest) != setting[:3]:
                    print("elo_match.py: --combine: %s line %d is game=%s limit=%s %s, but %s is game=%s limit=%s %s"
                          % (path, n, m.group(1), m.group(2), rest, setting[3], setting[0], setting[1], setting[2]),
                          file=sys.stderr)
                    return 2
                continue
            m = clock_re.match(line)
            if m:
                for k, at in (("new", 3), ("old", 6)):
                    add_clock(clocks[k], {"moves": int(m.group(at)), "wall": float(m.group(at + 1)),
                                          "cpu": float(m.group(at + 2))})
                continue
            m = line_re.match(line)
            if not m:
                continue
            i, colour = int(m.group(1)), m.group(3)
            if i in where and where[i] != path:
                print("elo_match.py: --combine: pair %d is in both %s and %s (overlapping --first-pair ranges)"
                      % (i, where[i], path), file=sys.stderr)
                return 2
            where[i] = path
            g = games.setdefault(i, {})
            if colour in g:
                print("elo_match.py: --combine: %s line %d: pair %d, new as %s, logged twice" % (path, n, i, colour),
                      file=sys.stderr)
                return 2
            g[colour] = {"0": 0, "1/2": 1, "1": 2}[m.group(4)]
    if setting is None:
        print("elo_match.py: --combine: no match header ('# ... game=... limit=...') in %s" % " ".join(paths),
              file=sys.stderr)
        return 2
    ptnml = [0] * 5
    wdl = [0, 0, 0]
    partial = 0
    for g in games.values():
        if len(g) < 2:
            partial += 1
            continue
        for s in g.values():
            wdl[0 if s == 2 else 1 if s == 1 else 2] += 1
        ptnml[g["white"] + g["black"]] += 1
    print("combined %d logs (game %s, limit %s): %s%s" % (len(paths), setting[0], setting[1], summary(ptnml, wdl),
                                                        "; %d unfinished pairs left out" % partial if partial else ""))
    if clocks["new"]["moves"]:
        print(time_line(clocks))
    return 0


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--combine":
        if len(sys.argv) < 3:
            print("usage: elo_match.py --combine LOG [LOG...]", file=sys.stderr)
            sys.exit(2)
        sys.exit(combine(sys.argv[2:]))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
                                 allow_abbrev=False,
                                 usage="%(prog)s --new BIN --old BIN (--movetime MS | --depth D | --nodes N) "
                                       "[options]\n       %(prog)s --combine LOG [LOG...]")
    ap.add_argument("--new", required=True, help="binary under test")
    ap.add_argument("--old", required=True, help="reference binary")
    ap.add_argument("--game", default="russian")
    ap.add_argument("--movetime", type=int, default=0, help="ms per move (the new binary's; the old one's too "
                    "unless --old-movetime or --calibrate)")
    ap.add_argument("--old-movetime", type=int, default=0, help="ms per move of the old binary (with --movetime)")
    ap.add_argument("--calibrate", action="store_true",
                    help="before the match, find the old binary's movetime at which it uses the new one's wall time "
                         "per move (within 2%%), starting from --old-movetime or --movetime")
    ap.add_argument("--calibrate-only", action="store_true", help="--calibrate, print the movetime and stop")
    ap.add_argument("--calibrate-positions", type=int, default=40, help="positions --calibrate times (default 40)")
    ap.add_argument("--calibrate-repeat", type=int, default=2, help="searches of each position per step (default 2)")
    ap.add_argument("--calibrate-steps", type=int, default=6, help="most adjustments of --calibrate (default 6)")
    ap.add_argument("--depth", type=int, default=0, help="fixed depth per move instead")
    ap.add_argument("--nodes", type=int, default=0, help="fixed nodes per move instead")
    ap.add_argument("--pairs", type=int, default=100)
    ap.add_argument("--first-pair", type=int, default=0,
                    help="play pairs FIRST .. FIRST+PAIRS-1 of the opening sequence (a match in parts; --combine)")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--openings", default="", help="book file label<TAB>FEN (default: Russian ballots, else random)")
    ap.add_argument("--random-plies", type=int, default=4)
    ap.add_argument("--balance", type=int, default=60)
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--log", default="")
    ap.add_argument("--new-args", default="", help="extra arguments for the new binary's search")
    ap.add_argument("--old-args", default="", help="extra arguments for the old binary's search")
    args = ap.parse_args()
    # bad input: one line naming it, exit 2 (argparse's error), before anything runs
    for name in ("new", "old"):
        b = getattr(args, name)
        if not (os.path.isfile(b) and os.access(b, os.X_OK)):
            ap.error("--%s %s: no such executable file" % (name, b))
        setattr(args, name, os.path.abspath(b))  # "dama" is this folder's, not one on PATH
    if args.openings and not os.path.isfile(args.openings):
        ap.error("--openings %s: no such file" % args.openings)
    if args.log and (os.path.isdir(args.log) or not os.path.isdir(os.path.dirname(os.path.abspath(args.log)))):
        ap.error("--log %s: %s" % (args.log, "a folder, not a file" if os.path.isdir(args.log) else "no such folder"))
    for name in ("movetime", "old_movetime", "depth", "nodes", "first_pair", "calibrate_steps"):
        if getattr(args, name) < 0:
            ap.error("--%s must be >= 0 (got %d)" % (name.replace("_", "-"), getattr(args, name)))
    for name in ("pairs", "concurrency", "calibrate_positions", "calibrate_repeat"):
        if getattr(args, name) < 1:
            ap.error("--%s must be >= 1 (got %d)" % (name.replace("_", "-"), getattr(args, name)))
    limits = [k for k in ("movetime", "depth", "nodes") if getattr(args, k) > 0]
    if not limits:
        ap.error("give --movetime, --depth or --nodes")
    if len(limits) > 1:
        ap.error("give one of --movetime, --depth and --nodes, not %s" % " and ".join("--" + k for k in limits))
    if args.calibrate_only:
        args.calibrate = True
    if (args.old_movetime or args.calibrate) and args.movetime <= 0:
        ap.error("--old-movetime and --calibrate need --movetime")
    if subprocess.run([args.new, "moves", "--game", args.game], stdout=subprocess.DEVNULL,
                      stderr=subprocess.DEVNULL).returncode != 0:
        ap.error("--game %s: %s does not play it (dama help lists the games)" % (args.game, args.new))
    args.limit = ["--" + limits[0], str(getattr(args, limits[0]))]
    first = args.first_pair

    try:
        if args.openings:
            book = ballots(args.openings)
        elif args.game in GAME_BOOKS:
            book = ballots(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "openings",
                                        GAME_BOOKS[args.game]))
    except (OSError, ValueError) as err:
        ap.error("--openings %s" % err)
    if not (args.openings or args.game in GAME_BOOKS):
        book = random_openings(args.new, args.game, first + args.pairs, args.random_plies, args.balance, args.seed)
    if args.openings or args.game in GAME_BOOKS:
        # the ballots: one shuffle of the whole book, pair i takes entry i (cycling)
        rng = random.Random(args.seed)
        order = list(range(len(book)))
        rng.shuffle(order)
    else:
        # random lines are drawn in sequence: pair i is the i-th line drawn,
        # whatever the number of pairs (so parts of a match are disjoint)
        order = list(range(len(book)))
    pairs = {i: book[order[i % len(order)]] for i in range(first, first + args.pairs)}
    # every opening the match plays, and the extra arguments, tried once before any game: a bad one
    # is one line naming it, not a traceback after every other pair was played
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as tmp:
        for i in sorted(pairs):
            tmp.write(pairs[i][1] + "\n")
        tmp.flush()
        p = subprocess.run([args.new, "moves", "--game", args.game, "--file", tmp.name], stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE)
        if p.returncode != 0:
            import re
            msg = p.stderr.decode(errors="replace").strip()
            m = re.search(re.escape(tmp.name) + r" line (\d+): (.*)", msg)
            if m and 1 <= int(m.group(1)) <= len(pairs):
                i = sorted(pairs)[int(m.group(1)) - 1]
                msg = "pair %d's opening '%s': %s" % (i, pairs[i][0], m.group(2))
            ap.error("an opening of the match: %s" % msg)
    for name in ("new", "old"):
        extra = getattr(args, name + "_args").split()
        lim = ["--movetime", "1"] if args.limit[0] == "--movetime" else args.limit
        p = subprocess.run([getattr(args, name), "search", "--game", args.game, "--quiet"] + lim + extra,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if p.returncode != 0:
            ap.error("--%s-args %r: %s" % (name, getattr(args, name + "_args"),
                                           p.stderr.decode(errors="replace").strip()[:300]))
    if args.calibrate:
        args.old_movetime = calibrate(args, pairs)
        print("calibrate: old --movetime %d" % args.old_movetime, flush=True)
        if args.calibrate_only:
            return
    args.old_limit = ["--movetime", str(args.old_movetime)] if args.old_movetime else args.limit

    lock = threading.Lock()
    ptnml = [0] * 5
    wdl = [0, 0, 0]
    depth_all = {"new": [], "old": []}
    logf = open(args.log, "a") if args.log else None
    t0 = time.time()
    done = [0]

    def log(line):
        if logf:
            logf.write(line + "\n")
            logf.flush()

    # The old binary's own movetime is part of its arguments in the header, so that --combine
    # refuses parts played at different settings.
    old_args = args.old_args + (" --movetime %d" % args.old_movetime if args.old_movetime else "")
    log("# %s new=%s old=%s game=%s limit=%s pairs=%d first-pair=%d new-args=%r old-args=%r seed=%d" % (
        time.strftime("%Y-%m-%d %H:%M:%S"), args.new, args.old, args.game, " ".join(args.limit), args.pairs, first,
        args.new_args, old_args.strip(), args.seed))
    clocks = {"new": new_clock(), "old": new_clock()}

    def one_pair(i):
        label, fen = pairs[i]
        res = []
        for new_white in (True, False):
            s, reason, plies, depths, moves, game_clocks = play(args, fen, new_white)
            res.append(s)
            with lock:
                wdl[0 if s == 2 else 1 if s == 1 else 2] += 1
                for k in depths:
                    depth_all[k].extend(depths[k])
                    add_clock(clocks[k], game_clocks[k])
                log(clock_log(i, "white" if new_white else "black", game_clocks))
                log("game pair %d opening '%s' new %s: %s %s %d plies | %s" % (
                    i, label, "white" if new_white else "black", ["0", "1/2", "1"][s], reason, plies,
                    " ".join(moves)))
        with lock:
            ptnml[res[0] + res[1]] += 1
            done[0] += 1
            if done[0] % 10 == 0 or done[0] == args.pairs:
                print("[%5.0fs] %s | %s" % (time.time() - t0, summary(ptnml, wdl), time_line(clocks)), flush=True)

    # The first failure (a game an engine could not play, or Ctrl-C) stops the match: the pairs not
    # begun are dropped, those playing end at their next move, and the result so far is printed.
    failure = None
    ex = ThreadPoolExecutor(max_workers=args.concurrency)
    futures = {ex.submit(one_pair, i): i for i in sorted(pairs)}
    try:
        for f in as_completed(futures):
            try:
                f.result()
            except Stopped:
                pass
            except Exception as err:  # an engine's failure: said with its pair
                failure = "pair %d: %s" % (futures[f], err)
                STOP.set()
                break
    except KeyboardInterrupt:
        failure = "interrupted (Ctrl-C)"
        STOP.set()
    for f in futures:  # (shutdown's cancel_futures would leave as_completed waiting on them)
        f.cancel()
    ex.shutdown(wait=True)

    def med(v):
        v = sorted(v)
        return v[len(v) // 2] if v else 0

    final = "%s | median depth new %d old %d | %.0f s" % (summary(ptnml, wdl), med(depth_all["new"]),
                                                          med(depth_all["old"]), time.time() - t0)
    if failure:
        final += " | stopped after %d of %d pairs: %s" % (done[0], args.pairs, failure)
    print(final)
    print(time_line(clocks))
    log("# result " + final)
    log("# result " + time_line(clocks))
    if failure:
        print("elo_match.py: %s" % failure, file=sys.stderr)
        sys.exit(130 if failure.startswith("interrupted") else 1)


def on_stop_signal(signum, frame):
    raise KeyboardInterrupt()


if __name__ == "__main__":
    # SIGINT and SIGTERM stop the match (its result so far printed), even where the signal was
    # ignored at start (a script's background job ignores SIGINT)
    signal.signal(signal.SIGINT, on_stop_signal)
    signal.signal(signal.SIGTERM, on_stop_signal)
    try:
        main()
    except KeyboardInterrupt:  # before the games (the match itself prints its result so far)
        print("elo_match.py: interrupted", file=sys.stderr)
        sys.exit(130)

#!/usr/bin/env python3
"""gauntlet.py — the helpers of scripts/gauntlet.sh.

    gauntlet.py calibrate --referee REF --game G --movetime MS --new BIN [--new-args A]
                          --cand BIN [--cand-args A] [--positions N] [--repeat R] [--steps S] [--seed S]
    gauntlet.py summary --log FILE --new NAME --ref NAME --players NAME... [--calibrated NAME...]

calibrate: the candidate's --movetime at which its `search` processes use
the same CPU time per move (user + system, os.wait4) as the new binary's at
--movetime MS, within 2%. Both are timed on the same positions (random
plies from the start, seeded), interleaved, one process per search as the
gauntlet's players run; the last two lines printed are `ratio R` (the
candidate's CPU time per move over the new binary's at that movetime) and
`movetime N`.

summary: reads the tournament's output (--log) and prints the gauntlet's
summary: each player's rating (anchored at --ref) and its measured wall and
CPU ms per move with its CPU ratio to the new engine; whether every
calibrated player used equal CPU time (within 5%); the new engine's rating
relative to --ref with its 95% interval. Exit 1 if a line is missing.
"""
import argparse
import os
import random
import re
import subprocess
import sys


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(cmd), p.returncode, p.stderr.decode(errors="replace")[:300]))
    return p.stdout.decode(errors="replace")


def cpu_ms(cmd):
    """CPU ms (user + system) of one process running cmd."""
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.read()
    _, st, ru = os.wait4(p.pid, 0)
    if os.waitstatus_to_exitcode(st) != 0:
        raise RuntimeError("%s: %s" % (" ".join(cmd), err.decode(errors="replace")[:300]))
    return 1000.0 * (ru.ru_utime + ru.ru_stime)


def positions(ref, game, count, seed):
    rng = random.Random(seed)
    out = []
    tries = 0
    while len(out) < count and tries < 50 * count:
        tries += 1
        moves = []
        fen = None
        for _ in range(rng.randint(4, 14)):
            st = dict(l.partition(" ")[::2] for l in run([ref, "status", "--game", game, "--moves", " ".join(moves)]).splitlines())
            if st.get("result", "*") != "*":
                break
            fen = st["fen"]
            legal = run([ref, "moves", "--game", game, "--fen", fen]).split()
            if not legal:
                break
            moves.append(rng.choice(legal))
        st = dict(l.partition(" ")[::2] for l in run([ref, "status", "--game", game, "--moves", " ".join(moves)]).splitlines())
        if st.get("result", "*") == "*":
            out.append(st["fen"])
    if len(out) < count:
        raise RuntimeError("could not draw %d positions" % count)
    return out


def search_cmd(binary, game, fen, movetime, extra):
    return [binary, "search", "--game", game, "--fen", fen, "--quiet", "--movetime", str(movetime)] + extra.split()


def measure(a, fens, mt):
    """Mean CPU ms per search of the new binary (at a.movetime) and the candidate (at mt), interleaved."""
    new = cand = 0.0
    n = 0
    for r in range(a.repeat):
        for i, fen in enumerate(fens):
            pair = [(True, search_cmd(a.new, a.game, fen, a.movetime, a.new_args)),
                    (False, search_cmd(a.cand, a.game, fen, mt, a.cand_args))]
            if (i + r) % 2:
                pair.reverse()
            for is_new, cmd in pair:
                if is_new:
                    new += cpu_ms(cmd)
                else:
                    cand += cpu_ms(cmd)
            n += 1
    return new / n, cand / n


def calibrate(a):
    fens = positions(a.referee, a.game, a.positions, a.seed)
    mt = a.movetime
    seen = []  # (movetime, candidate CPU - new CPU, candidate CPU / new CPU)
    for step in range(a.steps):
        tn, tc = measure(a, fens, mt)
        print("calibrate: new %.1f ms CPU per move at --movetime %d, candidate %.1f ms at --movetime %d (ratio %.3f)"
              % (tn, a.movetime, tc, mt, tc / tn), flush=True)
        seen.append((mt, tc - tn, tc / tn))
        if abs(tc / tn - 1) <= 0.02:
            chosen = seen[-1]
            break
        if len(seen) >= 2 and seen[-1][1] != seen[-2][1] and seen[-1][0] != seen[-2][0]:
            slope = (seen[-1][1] - seen[-2][1]) / (seen[-1][0] - seen[-2][0])
            slope = min(max(slope, 0.2), 2.0)
        else:
            slope = 1.0
        mt = int(round(mt - (tc - tn) / slope))
        mt = min(max(mt, 1), 20 * a.movetime)
    else:
        # no step within 2%: the movetime whose gap was smallest
        chosen = min(seen, key=lambda s: abs(s[1]))
    mt, ratio = chosen[0], chosen[2]
    print("ratio %.3f" % ratio)
    print("movetime %d" % mt)
    return 0


RATING = re.compile(r"^\s*\d+\s+(\S+)\s+(-?[\d.]+)\s+[\d.]+\s+\[(-?[\d.]+),\s*(-?[\d.]+)\]\s+(\d+)\s+([\d.]+)%")
TIME = re.compile(r"^\s+(\S+)\s+wall ([\d.]+) ms, CPU ([\d.]+) ms per move \((\d+) moves\)")


def summary(a):
    # every player the summary names: --players, and --new, --ref and --calibrated among them (a
    # calibrated player that is in no line was said to have used equal time)
    outside = [n for n in [a.new, a.ref] + a.calibrated if n not in a.players]
    if outside:
        print("gauntlet: %s not among --players (%s)" % (", ".join(sorted(set(outside))), " ".join(a.players)),
              file=sys.stderr)
        return 2
    ratings, times = {}, {}
    try:
        with open(a.log, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except UnicodeDecodeError as err:
        raise RuntimeError("%s: not UTF-8 text (byte %d): give the tournament's output" % (a.log, err.start))
    # the last ratings table and time block of the output
    for line in lines:
        m = TIME.match(line)
        if m:
            times[m.group(1)] = (float(m.group(2)), float(m.group(3)), int(m.group(4)))
        m = RATING.match(line)
        if m:
            ratings[m.group(1)] = (float(m.group(2)), float(m.group(3)), float(m.group(4)), int(m.group(5)),
                                   float(m.group(6)))
    missing = [n for n in a.players if n not in ratings or n not in times]
    if missing:
        print("gauntlet: no rating or time line for %s in %s" % (", ".join(missing), a.log), file=sys.stderr)
        return 1
    new_cpu = times[a.new][1]
    print("gauntlet summary (ratings anchored at %s = 0; time used per move over all stored games):" % a.ref)
    print("  %-22s %8s  %-20s %6s %7s  %10s %10s %9s" % ("player", "Elo", "95% interval", "games", "score",
                                                          "wall ms", "CPU ms", "CPU/new"))
    unequal = []
    for n in sorted(a.players, key=lambda n: -ratings[n][0]):
        e, lo, hi, g, s = ratings[n]
        w, c, _ = times[n]
        ratio = c / new_cpu if new_cpu > 0 else float("inf")
        mark = ""
        if n in a.calibrated and n != a.new:
            # util/time_use.h's rule: the one that used more, at most 5.0% more than the other
            # (in percent rounded to 0.1, the bound included)
            ok = ratio > 0 and round(100 * (max(ratio, 1 / ratio) - 1), 1) <= 5.0
            mark = " equal" if ok else " NOT equal"
            if not ok:
                unequal.append(n)
        print("  %-22s %+8.1f  [%+7.1f, %+7.1f]  %6d %6.1f%%  %10.2f %10.2f %8.3f%s" % (n, e, lo, hi, g, s, w, c, ratio,
                                                                                     mark))
    if unequal:
        print("  unequal CPU time: %s and %s (one used more than 5%% more CPU per move than the other)"
              % (a.new, ", ".join(unequal)))
    else:
        print("  equal CPU time (within 5%%): %s and every calibrated player (%s)" % (a.new, ", ".join(
            n for n in a.calibrated if n != a.new)))
    e, lo, hi, g, _ = ratings[a.new]
    print("%s relative to %s: %+.1f Elo, 95%% interval [%+.1f, %+.1f] (%d games of %s; %.1f vs %.1f ms CPU per move)"
          % (a.new, a.ref, e, lo, hi, g, a.new, new_cpu, times[a.ref][1]))
    return 0


def positive(text):
    """An integer >= 1 (argparse type): a count of 0 divided by zero."""
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("'%s' is not an integer" % text)
    if v < 1:
        raise argparse.ArgumentTypeError("'%s' must be at least 1" % text)
    return v


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, allow_abbrev=False)
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("calibrate", allow_abbrev=False)
    c.add_argument("--referee", required=True)
    c.add_argument("--game", default="russian")
    c.add_argument("--movetime", type=positive, required=True)
    c.add_argument("--new", required=True)
    c.add_argument("--new-args", default="")
    c.add_argument("--cand", required=True)
    c.add_argument("--cand-args", default="")
    c.add_argument("--positions", type=positive, default=12)
    c.add_argument("--repeat", type=positive, default=2)
    c.add_argument("--steps", type=positive, default=5)
    c.add_argument("--seed", type=int, default=1)
    s = sub.add_parser("summary", allow_abbrev=False)
    s.add_argument("--log", required=True)
    s.add_argument("--new", required=True)
    s.add_argument("--ref", required=True)
    s.add_argument("--players", nargs="+", required=True)
    s.add_argument("--calibrated", nargs="*", default=[])
    a = ap.parse_args()
    try:
        return calibrate(a) if a.cmd == "calibrate" else summary(a)
    except (RuntimeError, OSError) as err:
        print("gauntlet.py: %s" % err, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())

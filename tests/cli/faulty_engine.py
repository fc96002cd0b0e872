#!/usr/bin/env python3
"""A deliberately faulty Hub engine for the tournament tests.

Usage: faulty_engine.py MODE N DAMA [ARGS...]

It passes every line between the tournament and `DAMA hub ARGS...` unchanged,
except that at the N-th "go" of the process it fails instead (and in mode
between, at the N-th "new-game"):
  crash    exits with status 3 (after printing a last line with an ESC
           byte and UTF-8, which a fault detail must hold escaped, and
           "faulty_engine: crash at go N" on its standard error)
  hang     stops answering (and ignores "stop")
  closeout closes its standard output and lives on (an end of file for the
           manager from a process that has not ended)
  illegal  answers "done move=a1-h8" and two bytes that are no text (not a
           legal move anywhere; the fault detail must hold them escaped)
  garbage  answers "done move=???" after some noise
  slow     waits 600 ms before passing the "go" on (a late but legal move)
  error    answers 'error message="go: confused"', then passes the "go" on
           (a legal move follows: the error alone is the fault)
  between  at the N-th "new-game" (N >= 2: after the last move of game N-1,
           before game N) answers 'error message="between games: confused"',
           then passes it on: a stale line no game should be charged with
  wildscore  from the N-th go on writes every score of the engine's info lines
           as 1e30, nan or -1e30 in turn (no score a search gives: read as
           one, a huge loss would adjudicate the game)
  none     never fails (a plain proxy)
"""
import os
import re
import select
import subprocess
import sys
import time


def main():
    mode, at, dama = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    child = subprocess.Popen([dama, "hub"] + sys.argv[4:], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             bufsize=0)
    gos = 0
    new_games = 0
    hung = False
    ours, theirs = sys.stdin.buffer.raw, child.stdout
    buf_in, buf_out = b"", b""
    out = sys.stdout.buffer

    def say(line):
        out.write(line + b"\n")
        out.flush()

    while True:
        r, _, _ = select.select([ours, theirs], [], [])
        if ours in r:
            data = os.read(ours.fileno(), 65536)
            if not data:
                child.kill()
                return 0
            buf_in += data
            while b"\n" in buf_in:
                line, buf_in = buf_in.split(b"\n", 1)
                if hung:
                    continue
                if line.startswith(b"new-game"):
                    new_games += 1
                    if new_games == at and mode == "between":
                        say(b'error message="between games: confused"')
                if line.startswith(b"go") and mode != "between":
                    gos += 1
                    if gos == at and mode not in ("none", "wildscore"):
                        if mode == "crash":
                            say(b"info string about to crash \x1b[31m\xc3\xa9")
                            sys.stderr.write("faulty_engine: crash at go %d\n" % gos)
                            sys.stderr.flush()
                            child.kill()
                            sys.exit(3)
                        if mode == "hang":
                            hung = True
                            continue
                        if mode == "closeout":
                            out.close()
                            os.close(1)
                            hung = True
                            continue
                        if mode == "illegal":
                            say(b"done move=a1-h8\x01\xff")
                            continue
                        if mode == "slow":
                            time.sleep(0.6)
                        if mode == "error":
                            say(b'error message="go: confused"')
                        if mode == "garbage":
                            say(b"info score=banana")
                            say(b"done move=???")
                            continue
                child.stdin.write(line + b"\n")
        if theirs in r:
            data = os.read(theirs.fileno(), 65536)
            if not data:
                return 1
            buf_out += data
            while b"\n" in buf_out:
                line, buf_out = buf_out.split(b"\n", 1)
                if mode == "wildscore" and gos >= at and line.startswith(b"info"):
                    wild = (b"1e30", b"nan", b"-1e30")[gos % 3]
                    line = re.sub(rb"score=[^ ]*", b"score=" + wild, line)
                if not hung:
                    say(line)
            if hung:
                time.sleep(0.01)


if __name__ == "__main__":
    sys.exit(main())

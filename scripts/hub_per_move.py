#!/usr/bin/env python3
"""hub_per_move.py — a Hub engine that runs a fresh `dama search` process per move.

    hub_per_move.py --bin BIN --referee REF [--game G] [--weights W] [--hash MIB] [--search-args=ARGS]
                    [--positions SOCKET]
    hub_per_move.py --serve SOCKET --referee REF

Speaks enough of the Hub protocol (docs/hub.md) for `dama tournament` and
`dama match`: hub, set-param (variant), init, new-game, pos, level
(move-time, nodes, depth), go think, ping, stop, quit. For every `go think`
it asks REF (a dama binary with `status`) for the position string after the
game's moves, then runs

    BIN search --game G --fen FEN --quiet (--movetime MS | --nodes N | --depth D) [--weights W]

from that bare position (no history, no table kept between moves), as an
outside referee drives an engine (scripts/elo_match.py), and answers its
best move. So any dama binary with `search`, old ones without `dama hub`
too, can play in a tournament. Both child processes end before `done`: the
tournament counts their CPU time with this process's (the children's time of
/proc/PID/stat). A failing child is reported on standard error and the
adapter exits 1: the tournament scores a crash.

The position string is the referee's bookkeeping, not the engine's thinking,
but a `dama status` process costs about 20 ms of CPU time: with `--positions
SOCKET` the adapter asks a position server (`--serve SOCKET`, one long-lived
process that is no child of any adapter, started by scripts/gauntlet.sh) to
run it, so that only the search is counted as the engine's time (the
environment's DAMA_GAUNTLET_POSITIONS, when set, is the default SOCKET). The server
answers one request per connection: a line of JSON {"game", "start",
"moves"}, answered by the position string or a line starting "error ".
"""
import argparse
import json
import os
import shlex
import socket
import socketserver
import subprocess
import sys


def parse(line):
    """A Hub line: (command, {key: value}); values may be double-quoted."""
    lex = shlex.shlex(line, posix=True)
    lex.whitespace_split = True
    lex.escape = ""
    lex.commenters = ""
    words = list(lex)
    if not words:
        return "", {}
    args = {}
    for w in words[1:]:
        k, eq, v = w.partition("=")
        args[k] = v if eq else ""
    return words[0], args


def run(cmd):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as err:
        sys.stderr.write("%s: %s\n" % (cmd[0], err.strerror))
        sys.exit(1)
    if p.returncode != 0:
        sys.stderr.write("%s: exit %d: %s\n" % (" ".join(cmd), p.returncode, p.stderr.decode(errors="replace")[:300]))
        sys.exit(1)
    return p.stdout.decode(errors="replace")


def referee_games(referee, game):
    """The games the referee plays (the "games:" line of its help); just
    `game` when it cannot tell (a position server answers for it)."""
    try:
        p = subprocess.run([referee, "help"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    except OSError:
        return [game]
    for line in p.stdout.decode(errors="replace").splitlines():
        if line.startswith("games: "):
            return line[len("games: "):].split()
    return [game]


def status_fen(referee, game, start, moves):
    """The position string after moves, or raises RuntimeError."""
    p = subprocess.run([referee, "status", "--game", game, "--fen", start or "start", "--moves", moves],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        raise RuntimeError("%s status: exit %d: %s" % (referee, p.returncode, p.stderr.decode(errors="replace")[:300]))
    for line in p.stdout.decode(errors="replace").splitlines():
        k, _, v = line.partition(" ")
        if k == "fen":
            return v
    raise RuntimeError("no fen line from %s status" % referee)


def fen_after(a, start, moves):
    try:
        if not a.positions:
            return status_fen(a.referee, a.game, start, moves)
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.connect(a.positions)
            s.sendall((json.dumps({"game": a.game, "start": start, "moves": moves}) + "\n").encode())
            with s.makefile("r") as f:
                line = f.readline().rstrip("\n")
        if not line or line.startswith("error "):
            raise RuntimeError("position server %s: %s" % (a.positions, line or "no answer"))
        return line
    except (OSError, RuntimeError) as err:
        sys.stderr.write("hub_per_move.py: %s\n" % err)
        sys.exit(1)


def serve(path, referee):
    """The position server: runs until killed."""
    class Handler(socketserver.StreamRequestHandler):
        def handle(self):
            try:
                req = json.loads(self.rfile.readline())
                ans = status_fen(referee, req["game"], req["start"], req["moves"])
            except (ValueError, KeyError, TypeError, RuntimeError, OSError) as err:
                ans = "error %s" % str(err).replace("\n", " ")
            self.wfile.write((ans + "\n").encode())

    class Server(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
        daemon_threads = True

    if os.path.exists(path):
        os.unlink(path)
    with Server(path, Handler) as srv:
        srv.serve_forever()


def best_move(a, fen, limit):
    cmd = [a.bin, "search", "--game", a.game, "--fen", fen, "--quiet"] + limit
    if a.weights:
        cmd += ["--weights", a.weights]
    if a.hash:
        cmd += ["--hash", str(a.hash)]
    cmd += a.search_args.split()
    for line in run(cmd).splitlines():
        if line.startswith("bestmove "):
            return line.split()[1]
    sys.stderr.write("hub_per_move.py: no bestmove from %s\n" % " ".join(cmd))
    sys.exit(1)


def say(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0], allow_abbrev=False)
    ap.add_argument("--bin", help="the dama binary that searches")
    ap.add_argument("--serve", metavar="SOCKET", help="run the position server on this Unix socket")
    ap.add_argument("--positions", metavar="SOCKET", default=os.environ.get("DAMA_GAUNTLET_POSITIONS", ""),
                    help="ask this position server for position strings (default: $DAMA_GAUNTLET_POSITIONS)")
    ap.add_argument("--referee", required=True, help="a dama binary with `status` (position after the moves)")
    ap.add_argument("--game", default="russian")
    ap.add_argument("--weights", default="", help="passed to search as --weights")
    ap.add_argument("--hash", type=int, default=0, help="passed to search as --hash MIB (0: its default)")
    ap.add_argument("--search-args", default="", help="more arguments of search (one string, split at spaces)")
    ap.add_argument("--name", default="dama-per-move")
    a = ap.parse_args()
    if a.serve:
        serve(a.serve, a.referee)
        return 0
    if not a.bin:
        ap.error("--bin is required (or --serve)")
    start, moves, limit = "start", "", ["--movetime", "1000"]
    for raw in sys.stdin:
        cmd, args = parse(raw.strip())
        if cmd == "hub":
            say("id name=%s version=1 author=\"\" country=\"\"" % a.name)
            say("param name=variant value=%s type=enum values=\"%s\"" % (a.game, " ".join(referee_games(a.referee, a.game))))
            say("wait")
        elif cmd == "set-param" and args.get("name") == "variant":
            a.game = args.get("value", a.game)
        elif cmd == "init":
            say("ready")
        elif cmd == "pos":
            start, moves = args.get("pos", "start"), args.get("moves", "")
        elif cmd == "level":
            if "move-time" in args:
                limit = ["--movetime", str(max(1, int(round(float(args["move-time"]) * 1000))))]
            elif "nodes" in args:
                limit = ["--nodes", args["nodes"]]
            elif "depth" in args:
                limit = ["--depth", args["depth"]]
        elif cmd == "go":
            say("done move=%s" % best_move(a, fen_after(a, start, moves), limit))
        elif cmd == "ping":
            say("pong")
        elif cmd == "quit":
            return 0
        # new-game, stop and anything else: nothing to do (no state is kept between moves)
    return 0


if __name__ == "__main__":
    sys.exit(main())

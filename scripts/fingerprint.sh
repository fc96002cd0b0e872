#!/usr/bin/env bash
# fingerprint.sh — what a refactor must not change, in one run of a dama
# binary: bench node counts, and a hash of everything a fixed-seed
# selfplay, tune, match, tournament and train store (movetexts, results,
# weights; ids and timestamps aside). Run it on the binary of the commit
# before and after a change that claims no change in behaviour, and diff.
# The games are those DAMA lists (the "games:" line of `dama help`), or
# GAMES="russian turkish" for some of them.
# Usage: bash scripts/fingerprint.sh DAMA WORKDIR     (about 20 s a game)
set -euo pipefail
DAMA=$(realpath "$1"); W=$2
games=${GAMES:-$("$DAMA" help | sed -n 's/^games: //p')}
[ -n "$games" ] || { echo "fingerprint.sh: $DAMA help lists no games (no 'games:' line)" >&2; exit 2; }
mkdir -p "$W"; W=$(realpath "$W"); rm -f "$W"/*.sqlite*
cd "$W"
q() { sqlite3 -batch -noheader "$@"; }
h() { sha256sum | cut -c1-16; }
for g in $games; do
  echo "bench $g: $("$DAMA" bench --game "$g" 2>&1 | grep -oE '[0-9]+ nodes$')"
  db=sp-$g.sqlite
  "$DAMA" selfplay --game "$g" --db "$db" --games 24 --nodes 300 --seed 7 --threads 2 --progress 0 >/dev/null 2>&1
  echo "selfplay $g: $(q "$db" "SELECT game_index, result, reason, plies, movetext FROM games ORDER BY game_index" | h)" \
       "positions $(q "$db" "SELECT count(*) FROM positions")"
  "$DAMA" match --game "$g" --db "$db" --a default --b default --pairs 6 --nodes 200 --seed 3 --threads 2 >/dev/null 2>&1 || true
  echo "match $g: $(q "$db" "SELECT result, reason, movetext FROM games WHERE run_id = (SELECT max(run_id) FROM games) ORDER BY game_index" | h)"
done
db=tune.sqlite
"$DAMA" selfplay --game russian --db "$db" --games 200 --nodes 200 --seed 9 --threads 2 --progress 0 >/dev/null 2>&1
"$DAMA" tune --game russian --db "$db" --epochs 5 --threads 2 --seed 1 >/dev/null 2>&1 || true
echo "tune: $(q "$db" "SELECT hex(weights) FROM weight_sets ORDER BY id" 2>/dev/null | h)"
db=tn.sqlite
"$DAMA" tournament --game turkish --db "$db" --rounds 2 --nodes 150 --concurrency 2 name=A,weights=default name=B,weights=default,nodes=300 name=C,weights=default,depth=3 >/dev/null 2>&1 || true
echo "tournament: $(q "$db" "SELECT result, reason, movetext FROM games ORDER BY run_id, game_index" 2>/dev/null | h)"
db=tr.sqlite
"$DAMA" train --game russian --db "$db" --generations 1 --games-per-gen 200 --nodes 200 --gate-pairs 4 --seed 5 --threads 2 >/dev/null 2>&1 || true
echo "train: $(q "$db" "SELECT result, movetext FROM games ORDER BY run_id, game_index" 2>/dev/null | h) $(q "$db" "SELECT hex(weights) FROM weight_sets ORDER BY id" 2>/dev/null | h)"
# Every command's --help (kept in WORKDIR/help/ for a diff) and `dama --help`.
mkdir -p help
"$DAMA" --help >help/dama.txt 2>&1 || true
for c in $(awk '/^commands:/{f=1;next} f&&NF{print $1}' help/dama.txt); do
  "$DAMA" "$c" --help >"help/$c.txt" 2>&1 || true
done
echo "help: $(cat help/*.txt | h) ($(ls help | wc -l) files)"

#!/usr/bin/env bash
# Benchmarks: every figure the issues ask for, with medians. Not a test:
# rates depend on the machine and its load (run it on an idle machine).
# Usage: bash scripts/bench.sh [GAME] [repeat]   (GAME: one of `dama help`'s games; default russian)
# Builds its own tree, build-bench/, tuned for this machine (-DDAMA_NATIVE=ON;
# NATIVE=0 measures the portable build that build/ and the main job use).
set -euo pipefail
GAME="${1:-russian}"
REPEAT="${2:-3}"
cd "$(dirname "$0")/.."
if [ "${NATIVE:-1}" = 1 ]; then native=ON; else native=OFF; fi
cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DDAMA_NATIVE="$native" -DDAMA_WEB=OFF >/dev/null
cmake --build build-bench -j"$(nproc)" --target dama >/dev/null
DAMA="$PWD/build-bench/dama"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
echo "== search, perft, database, tuner ($GAME, median of $REPEAT)"
"$DAMA" bench --game "$GAME" --all --repeat "$REPEAT"
echo "== self-play scaling (200 games, 4000 nodes/move, same seed)"
rate() {
  rm -f "$T"/s.sqlite*
  "$DAMA" selfplay --game "$GAME" --db "$T/s.sqlite" --games 200 --nodes 4000 --threads "$1" --progress 0 2>/dev/null |
    sed -n 's/.*, \([0-9.]*\) games\/s.*/\1/p'
}
r1=(); r2=()
for _ in $(seq "$REPEAT"); do r1+=("$(rate 1)"); r2+=("$(rate 2)"); done
m1=$(printf '%s\n' "${r1[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
m2=$(printf '%s\n' "${r2[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
echo "selfplay: 1 thread $m1 games/s, 2 threads $m2 games/s, ratio $(awk -v a="$m1" -v b="$m2" 'BEGIN {printf "%.2f", b / a}')"

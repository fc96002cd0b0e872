#!/usr/bin/env bash
# Each Shatra relation table's worth (docs/eval.md, "Shatra: fortress,
# safety and pairs"): for each CMake DAMA_SHATRA_RELATIONS value given, a
# build of this checkout with it, a tune of the same self-play positions
# (the same split and settings for all: what the build computes is all that
# differs) and its held-out loss, then `dama bench --game shatra` nodes per
# CPU second, the builds in turn for ROUNDS rounds (medians; the machine is
# shared, so the builds are interleaved and the ratios are what to quote).
# The tuned weights are left as WORK/w-VALUE.cfg (VALUE without its spaces)
# for equal-time matches:
#   dama match --game shatra --a-cmd 'WORK/b-VALUE/dama hub --game shatra
#     --weights WORK/w-VALUE.cfg' --b-cmd 'build/dama hub --game shatra'
#     --movetime 40 --pairs 500
# Usage: scripts/shatra-relations.sh DB WORK [VALUE...]
#   DB: a database of Shatra self-play (dama selfplay --game shatra); it is
#   copied, never written. VALUE: OFF, ON, or a comma-separated list of
#   FORTRESS_STATE, PIECE_SAFETY, PIECE_PAIR, PIECE_SET (default: OFF, each
#   table alone, ON). ROUNDS (default 5) bench rounds; TUNE_ARGS replaces the
#   tune settings below.
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 2 ] || { echo "usage: $0 DB WORK [VALUE...]" >&2; exit 2; }
DB=$(realpath "$1")
W=$2
shift 2
[ -f "$DB" ] || { echo "$0: no database file '$DB'" >&2; exit 1; }
if [ $# -gt 0 ]; then VALUES=("$@"); else VALUES=(OFF FORTRESS_STATE PIECE_SAFETY PIECE_PAIR PIECE_SET ON); fi
ROUNDS=${ROUNDS:-5}
TUNE_ARGS=${TUNE_ARGS:---patterns --score-weight 0.5 --batch 16384 --epochs 40 --patience 3 --seed 1}
mkdir -p "$W"
W=$(realpath "$W")
dir() { printf '%s' "$1" | tr -d ' '; } # a value's folder and file names: its spaces left out
# every value configured first: a bad one stops before any build or tune
for v in "${VALUES[@]}"; do
  cmake -S "$SRC" -B "$W/b-$(dir "$v")" -DCMAKE_BUILD_TYPE=Release -DDAMA_TESTS=OFF -DDAMA_WEB=OFF -DDAMA_SHATRA_RELATIONS="$v" >/dev/null \
    || { echo "$0: DAMA_SHATRA_RELATIONS='$v' does not configure (above)" >&2; exit 1; }
done
for v in "${VALUES[@]}"; do
  d=$(dir "$v")
  cmake --build "$W/b-$d" -j"$(nproc)" --target dama >/dev/null
  if [ ! -s "$W/tune-$d.log" ]; then
    rm -f "$W"/x.sqlite*
    cp "$DB" "$W/x.sqlite"
    # shellcheck disable=SC2086 # TUNE_ARGS is a list of options
    if ! "$W/b-$d/dama" tune --config /dev/null --game shatra --db "$W/x.sqlite" --weights default $TUNE_ARGS \
      --out "$W/w-$d.cfg" --force >"$W/tune-$d.log.part" 2>&1; then
      echo "$0: the tune of '$v' failed:" >&2
      tail -3 "$W/tune-$d.log.part" >&2
      rm -f "$W"/x.sqlite*
      exit 1
    fi
    mv "$W/tune-$d.log.part" "$W/tune-$d.log"
    rm -f "$W"/x.sqlite*
  fi
  echo "$v: $(grep -h '^tuning run' "$W/tune-$d.log" | sed 's/^tuning run [0-9]*: //')"
done
for r in $(seq "$ROUNDS"); do
  for v in "${VALUES[@]}"; do
    d=$(dir "$v")
    "$W/b-$d/dama" bench --game shatra --repeat 3 | sed -n "s/.* \([0-9.]*\) M nodes per CPU second.*/$d \1/p"
  done
done >"$W/bench.txt"
echo "dama bench --game shatra, M nodes per CPU second (median of $ROUNDS rounds), ratio to the first value:"
first=""
for v in "${VALUES[@]}"; do
  v=$(dir "$v")
  m=$(awk -v v="$v" '$1 == v { print $2 }' "$W/bench.txt" | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }')
  [ -n "$first" ] || first=$m
  echo "$v $m $(awk -v a="$m" -v b="$first" 'BEGIN { printf "x%.3f", a / b }')"
done

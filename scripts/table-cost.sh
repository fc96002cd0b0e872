#!/usr/bin/env bash
# The learned pattern tables' cost in nodes per second (docs/eval.md,
# "Cost"; docs/results/2026-12-05-learned-table-cost.md). Three builds of
# this checkout (Release, -g so that callgrind names the lines):
#   shipped  the source as it is, compiled-in weights (learned tables)
#   zero     HEAD with the Russian, Turkish and International weight headers
#            re-exported with PATTERN = 0 and PATTERN_EG = 0: the shipped
#            code on the scalar model's tree (dama bench has no --weights)
#   none     -DDAMA_RU_PATTERNS=0 -DDAMA_TU_PATTERNS=0 -DDAMA_IN_PATTERNS=0
# For each GAME:DEPTH, `dama bench --game GAME --depth DEPTH` under valgrind
# callgrind counted from search_root (exact instructions, not disturbed by
# the machine's load) in each build, and the evaluation's calls and
# inclusive instructions; zero and none must search the same tree. Then
# ROUNDS interleaved timing rounds of `bench --repeat 3` (noisy on a shared
# machine: the instruction ratios are the figures to quote).
# Usage: scripts/table-cost.sh WORK [GAME:DEPTH...]
#   GAME: russian, turkish or international; default russian:11 turkish:10
#   international:9 russian:15 turkish:11 international:14.
#   ROUNDS (default 7; 0: no timing), JOBS (build jobs, default 2).
#   Builds found in WORK are reused (delete WORK to rebuild).
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 WORK [GAME:DEPTH...]" >&2; exit 2; }
W=$1
shift
if [ $# -gt 0 ]; then RUNS=("$@"); else RUNS=(russian:11 turkish:10 international:9 russian:15 turkish:11 international:14); fi
ROUNDS=${ROUNDS:-7}
JOBS=${JOBS:-2}
GAMES=(russian turkish international)
evalfn() { case $1 in russian) echo russian_evaluate ;; turkish) echo turkish_evaluate ;; international) echo international_evaluate ;; *) return 1 ;; esac; }
for r in "${RUNS[@]}"; do
  g=${r%%:*} d=${r#*:}
  evalfn "$g" >/dev/null || { echo "$0: '$r': the game must be russian, turkish or international" >&2; exit 2; }
  [[ $d =~ ^[0-9]+$ && $d -ge 1 && $d -le 64 ]] || { echo "$0: '$r': the depth must be 1..64" >&2; exit 2; }
done
command -v valgrind >/dev/null || { echo "$0: valgrind not found (apt-get install valgrind)" >&2; exit 1; }
git -C "$SRC" diff --quiet HEAD -- engine include CMakeLists.txt \
  || { echo "$0: engine/, include/ or CMakeLists.txt differ from HEAD: commit first (the zero build is made from HEAD)" >&2; exit 1; }
mkdir -p "$W"
W=$(realpath "$W")

build() { # DIR SOURCE EXTRA_C_FLAGS
  [ -x "$1/dama" ] && return 0
  cmake -S "$2" -B "$1" -DCMAKE_BUILD_TYPE=Release -DDAMA_TESTS=OFF -DDAMA_WEB=OFF -DCMAKE_C_FLAGS="-g $3" >/dev/null
  cmake --build "$1" -j"$JOBS" --target dama >/dev/null
}
build "$W/b-shipped" "$SRC" ""
if [ ! -x "$W/b-zero/dama" ]; then
  rm -rf "$W/src-zero"
  mkdir -p "$W/src-zero"
  git -C "$SRC" archive HEAD | tar -x -C "$W/src-zero"
  for g in "${GAMES[@]}"; do
    "$W/b-shipped/dama" export --game "$g" --weights default --format cfg --out "$W/$g.cfg" --force >/dev/null
    awk '/^  PATTERN(_EG)? = \[/ { sub(/ = \[.*/, " = 0;"); print; skip = 1; next }
         skip && /^  \];/ { skip = 0; next }
         !skip' "$W/$g.cfg" >"$W/$g-zero.cfg"
    [ "$(grep -c '^  PATTERN\(_EG\)\? = 0;$' "$W/$g-zero.cfg")" = 2 ] \
      || { echo "$0: $W/$g.cfg: PATTERN and PATTERN_EG not found as tables" >&2; exit 1; }
    "$W/b-shipped/dama" export --game "$g" --weights "$W/$g-zero.cfg" --format c \
      --out "$W/src-zero/engine/games/$g/weights.h" --force >/dev/null
  done
fi
build "$W/b-zero" "$W/src-zero" ""
build "$W/b-none" "$SRC" "-DDAMA_RU_PATTERNS=0 -DDAMA_TU_PATTERNS=0 -DDAMA_IN_PATTERNS=0"

nodes() { sed -n 's/^bench .* depth [0-9]*: \([0-9]*\) nodes$/\1/p' "$1"; }
echo "callgrind from search_root: build, game, depth, nodes, Ir, Ir/node, evaluation calls, Ir/call"
: >"$W/callgrind.txt"
for r in "${RUNS[@]}"; do
  g=${r%%:*} d=${r#*:}
  for b in shipped zero none; do
    out="$W/cg.$g.$d.$b"
    valgrind --tool=callgrind --toggle-collect=search_root --callgrind-out-file="$out.cg" \
      "$W/b-$b/dama" bench --game "$g" --depth "$d" >"$out.txt" 2>"$out.err"
    read -r total _ calls _ incl < <(python3 "$SRC/scripts/callgrind-fn.py" "$out.cg" "$(evalfn "$g")")
    n=$(nodes "$out.txt")
    echo "$b $g $d $n $total $calls $incl" | tee -a "$W/callgrind.txt" \
      | awk '{ printf "%-8s %-13s %2d %10d %14d %6.0f %9d %6.0f\n", $1, $2, $3, $4, $5, $5 / $4, $6, $7 / $6 }'
  done
  [ "$(nodes "$W/cg.$g.$d.zero.txt")" = "$(nodes "$W/cg.$g.$d.none.txt")" ] \
    || { echo "$0: $g depth $d: the zero and none builds searched different trees" >&2; exit 1; }
done
echo
echo "same tree (zero against none): game, depth, search Ir ratio, implied nodes/s, evaluation Ir/call zero / none"
awk '{ k = $2 " " $3; tot[$1, k] = $5; n[$1, k] = $4; c[$1, k] = $6; i[$1, k] = $7; if (!(k in seen)) { seen[k] = 1; ks[++m] = k } }
     END { for (j = 1; j <= m; j++) { k = ks[j]; r = tot["zero", k] / tot["none", k]
       printf "%-16s %6.3f %6.3f  %5.0f / %5.0f   shipped tree: %5.0f Ir/node against %5.0f\n", k, r, 1 / r,
         i["zero", k] / c["zero", k], i["none", k] / c["none", k], tot["shipped", k] / n["shipped", k], tot["none", k] / n["none", k] } }' \
  "$W/callgrind.txt"

[ "$ROUNDS" -gt 0 ] || exit 0
echo
echo "timing (noisy): $ROUNDS interleaved rounds of bench --repeat 3, M nodes per CPU second"
: >"$W/timing.txt"
for r in "${RUNS[@]}"; do
  g=${r%%:*} d=${r#*:}
  for ((k = 1; k <= ROUNDS; k++)); do
    for b in zero none shipped; do
      rate=$("$W/b-$b/dama" bench --game "$g" --depth "$d" --repeat 3 | sed -n 's/.*; \([0-9.]*\) M nodes per CPU second$/\1/p')
      echo "$g $d $k $b $rate" >>"$W/timing.txt"
    done
  done
done
python3 - "$W/timing.txt" <<'EOF'
import statistics as st, sys
runs = {}
for line in open(sys.argv[1]):
    g, d, k, b, rate = line.split()
    runs.setdefault((g, d), {}).setdefault(k, {})[b] = float(rate)
for (g, d), rounds in runs.items():
    rs = list(rounds.values())
    med = {b: st.median(x[b] for x in rs) for b in ('zero', 'none', 'shipped')}
    rz = [x['zero'] / x['none'] for x in rs]
    rt = [x['shipped'] / x['none'] for x in rs]
    print(f"{g} {d}: zero {med['zero']:.2f} none {med['none']:.2f} shipped {med['shipped']:.2f}; "
          f"zero/none median {st.median(rz):.3f} ({min(rz):.2f}-{max(rz):.2f}), "
          f"shipped/none median {st.median(rt):.3f} ({min(rt):.2f}-{max(rt):.2f})")
EOF

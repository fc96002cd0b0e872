#!/usr/bin/env bash
# Held-out losses of dama tune's data options (README "Tuning at scale and
# tuning data"): for each game, self-play a training database (3,000 games)
# and a test database (1,000 other games), tune with each option, and
# measure the tuned weights on the test database's quiet positions with K
# fixed at the plain run's. CPU-heavy: runs under nice, one thread.
# Usage: scripts/tune-data-exp.sh [DAMA_BINARY [WORK_DIR [GAMES...]]]
set -eu
DAMA=$(realpath "${1:-build/dama}")
W=${2:-tune-data-exp}
shift $(( $# > 2 ? 2 : $# )) || true
GAMES=${*:-russian turkish shatra}
mkdir -p "$W"
cd "$W"
N="nice -n 10"
for G in $GAMES; do
  [ -e "$G.sqlite" ] || $N "$DAMA" selfplay --config /dev/null --game "$G" --db "$G.sqlite" --games 3000 --nodes 600 --threads 1 --seed 7 --progress 0 >/dev/null
  [ -e "test-$G.sqlite" ] || $N "$DAMA" selfplay --config /dev/null --game "$G" --db "test-$G.sqlite" --games 1000 --nodes 600 --threads 1 --seed 99 --progress 0 >/dev/null
  K=0
  # the test loss: train and valid parts of the test database (both held out)
  held_out() { cp "test-$G.sqlite" t.sqlite; $N "$DAMA" tune --config /dev/null --game "$G" --db t.sqlite --weights "$1" --epochs 0 --k "$K" --threads 1 2>&1 \
                 | sed -n 's/.*loss train \([0-9.]*\) .*valid \([0-9.]*\) ->.*/\1 \2/p'; rm -f t.sqlite*; }
  one() {
    local name=$1; shift
    cp "$G.sqlite" x.sqlite
    $N "$DAMA" tune --config /dev/null --game "$G" --db x.sqlite --epochs 60 --batch 8192 --patience 10 --threads 1 --seed 1 \
      --out "$G-$name.cfg" --force "$@" >"$G-$name.log" 2>&1
    rm -f x.sqlite*
    [ "$K" != 0 ] || K=$(sed -n 's/^tuning run [0-9]*: K \([0-9.]*\);.*/\1/p' "$G-$name.log")
    echo "$G $name: test loss $(held_out "$G-$name.cfg") | $(grep -h 'training set\|^resolve:' "$G-$name.log" | tr '\n' ' ')"
  }
  one plain
  echo "$G compiled-in: test loss $(held_out default) (K $K)"
  one resolve --resolve
  one dedupe --dedupe
  one per-game-10 --per-game 10
  one per-game-30 --per-game 30
  one share-0.25 --share 0.25
  one share-0.5 --share 0.5
  one score-weight-0.3 --score-weight 0.3
  one resolve-dedupe-per-game-30 --resolve --dedupe --per-game 30
done

#!/usr/bin/env bash
# perft-compare.sh [DAMA] — International draughts perft of dama beside the
# open generators that install here: the npm package `draughts` (draughts.js
# 0.2.1, the only International generator on Debian or npm; no Debian package
# plays 10x10). For each position and depth: both counts, the published count
# (data/perft/other_variants.txt) and leaves per second, run one after the
# other on this machine. Needs node and npm (Debian: nodejs, npm); the package
# goes into a temporary folder.
set -euo pipefail
cd "$(dirname "$0")/.."
dama=${1:-build/dama}
[ -x "$dama" ] || { echo "perft-compare.sh: no dama binary at $dama (build first)" >&2; exit 2; }
command -v npm >/dev/null || { echo "perft-compare.sh: npm is missing (apt-get install npm)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp scripts/perft-js/perft.js "$tmp/"
(cd "$tmp" && npm install --silent --no-audit --no-fund draughts@0.2.1 >/dev/null) ||
    { echo "perft-compare.sh: npm install draughts@0.2.1 failed" >&2; exit 1; }
second="W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38"
published() { # published count of position $1 (startpos or FEN) at depth $2
    grep "^international $1 " data/perft/other_variants.txt | tr ';' '\n' | awk -v d="D$2" '$1 == d {print $2}'
}
printf '%-10s %5s %12s %12s %14s %12s %14s\n' position depth published dama "dama leaves/s" draughts.js "js leaves/s"
for row in "startpos 5" "startpos 6" "second 5" "second 7"; do
    set -- $row
    fen=""; key=startpos
    [ "$1" = second ] && fen=$second && key=$second
    d=$(LC_ALL=C "$dama" perft --game international ${fen:+--fen "$fen"} --depth "$2" 2>&1)
    dn=$(echo "$d" | awk '/^perft/ {print $3}'); drate=$(echo "$d" | awk '/leaves\/s/ {print $(NF-2)}')
    j=$(cd "$tmp" && timeout 600 node perft.js "$2" ${fen:+"$fen"})
    jn=$(echo "$j" | awk '{print $3}'); jrate=$(echo "$j" | awk '{print $(NF-2)}')
    printf '%-10s %5s %12s %12s %12s M %12s %12s M\n' "$1" "$2" "$(published "$key" "$2")" "$dn" "$drate" "$jn" "$jrate"
done
# dama alone, deep enough for its rate to mean something (draughts.js would
# take days here)
for row in "startpos 9" "second 12"; do
    set -- $row
    fen=""; key=startpos
    [ "$1" = second ] && fen=$second && key=$second
    d=$(LC_ALL=C "$dama" perft --game international ${fen:+--fen "$fen"} --depth "$2" 2>&1)
    dn=$(echo "$d" | awk '/^perft/ {print $3}'); drate=$(echo "$d" | awk '/leaves\/s/ {print $(NF-2)}')
    printf '%-10s %5s %12s %12s %12s M %12s %12s\n' "$1" "$2" "$(published "$key" "$2")" "$dn" "$drate" - -
done

#!/usr/bin/env bash
# fresh-search.sh [--game G] [--movetime MS] [--rounds N] BIN [BIN...]
# What an outside referee sees when it starts a `dama search --movetime MS` process for every
# move: for each binary, the mean nodes, depth, CPU and wall time of one whole process over the
# game's bench positions (`dama bench --print-fens`), each binary in turn on each position,
# --rounds times (default 3), --no-egtb (for a binary that has the option). Compare binaries of one run only: the machine's load
# moves every figure. The CPU time is the process's user + system time (bash's `times` of the
# finished child), the wall time a monotonic clock around it.
# Exit status: 0 done, 1 a search failed, 2 bad input. -h, --help prints this text.
set -euo pipefail
me=fresh-search.sh
die() { echo "$me: $*" >&2; exit 2; }
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
game=russian movetime=100 rounds=3 bins=()
while [ $# -gt 0 ]; do
    case "$1" in
    -h|--help) usage; exit 0 ;;
    --game|--movetime|--rounds)
        [ $# -ge 2 ] || die "$1 needs a value"
        case "$1" in
        --game) game="$2" ;;
        --movetime) [[ "$2" =~ ^[1-9][0-9]{0,6}$ ]] || die "--movetime '$2' is not a whole number of 1..9999999 ms"; movetime="$2" ;;
        --rounds) [[ "$2" =~ ^[1-9][0-9]{0,3}$ ]] || die "--rounds '$2' is not a whole number of 1..9999"; rounds="$2" ;;
        esac
        shift 2 ;;
    -*) die "unknown option '$1' (see --help)" ;;
    *) [ -f "$1" ] && [ -x "$1" ] || die "$1: no such executable file"; bins+=("$1"); shift ;;
    esac
done
[ ${#bins[@]} -ge 1 ] || die "give at least one dama binary (see --help)"
mapfile -t fens < <("${bins[0]}" bench --game "$game" --print-fens) || die "${bins[0]} bench --game $game --print-fens failed"
[ ${#fens[@]} -ge 1 ] || die "no bench positions for game '$game'"
declare -A nodes depth cpu wall noegtb
for i in "${!bins[@]}"; do
    noegtb[$i]=""
    if "${bins[$i]}" help search 2>/dev/null | grep -q -- '--no-egtb'; then noegtb[$i]=--no-egtb; fi
done
now_ns() { date +%s%N; }
for _ in $(seq "$rounds"); do
    for fen in "${fens[@]}"; do
        for i in "${!bins[@]}"; do
            t0=$(now_ns)
            out=$(bash -c '"$@" || exit; times' _ "${bins[$i]}" search --game "$game" --fen "$fen" --movetime "$movetime" \
                  ${noegtb[$i]} --quiet 2>&1) || { echo "$me: ${bins[$i]} search failed on '$fen': $out" >&2; exit 1; }
            t1=$(now_ns)
            n=$(awk '$1 == "nodes" {print $2}' <<<"$out"); d=$(awk '$1 == "depth" {print $2}' <<<"$out")
            # `times` prints the shell's then its children's user and system time (XmY.YYYs)
            c=$(tail -1 <<<"$out" | awk '{ s = 0; for (k = 1; k <= 2; k++) { split($k, a, "m"); s += a[1] * 60 + a[2] } print s }')
            [ -n "$n" ] && [ -n "$d" ] || { echo "$me: ${bins[$i]}: no nodes/depth in its output: $out" >&2; exit 1; }
            nodes[$i]=$(( ${nodes[$i]:-0} + n )); depth[$i]=$(( ${depth[$i]:-0} + d ))
            cpu[$i]=$(awk -v a="${cpu[$i]:-0}" -v b="$c" 'BEGIN { print a + b }')
            wall[$i]=$(( ${wall[$i]:-0} + (t1 - t0) / 1000 ))
        done
    done
done
runs=$(( rounds * ${#fens[@]} ))
printf '%s, --movetime %s, %d processes each (%d positions x %d rounds)\n' "$game" "$movetime" "$runs" "${#fens[@]}" "$rounds"
printf '%-40s %12s %7s %12s %13s\n' binary "mean nodes" depth "CPU ms" "wall ms"
for i in "${!bins[@]}"; do
    awk -v b="${bins[$i]}" -v n="${nodes[$i]}" -v d="${depth[$i]}" -v c="${cpu[$i]}" -v w="${wall[$i]}" -v r="$runs" \
        'BEGIN { printf "%-40s %12.0f %7.2f %12.1f %13.1f\n", b, n / r, d / r, 1000 * c / r, w / 1000 / r }'
done

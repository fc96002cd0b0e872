#!/usr/bin/env bash
# search-figures.sh OLD_BINARY [NEW_BINARY] — the search figures, side by side:
#   1. nodes to complete depth 15 from the Russian start;
#   2. `dama bench` node totals per game (each game's bench depth);
#   3. depth completed in MOVETIME ms (default 100) from each bench position,
#      median per game (one fresh process per search, as a referee runs it);
#   4. lazy SMP (NEW only): time to depth on 1 and 2 search threads.
# The games of parts 2-4 are those the new binary lists (the "games:" line
#   of `dama help`; an old binary that lacks one shows "-"), or GAMES="...".
# search-figures.sh --smp [BINARY...] — part 4 alone (about two minutes per
#   binary and three games on an idle 2-core machine; default build/dama): per game, `dama
#   bench --depth D` over the bench positions (Russian 19, Turkish 14, Shatra
#   13 plies, any other game its bench depth; SMP_DEPTHS="russian=19
#   turkish=14 shatra=13" sets them), 1 and 2 threads interleaved, REPEAT
#   runs each; the medians of the wall time, of the node totals and of the
#   CPU time (nodes / nodes per CPU second, as bench prints them), the
#   speed-up (wall 1 thread / wall 2 threads), the node ratio (2 threads /
#   1) and the CPU ratio. The wall speed-up needs two free cores; the node
#   and CPU ratios are meaningful under load too, and 2 x CPU(1) / CPU(2) is
#   the speed-up two free cores would give if both threads ran the whole
#   search. The depths: at the bench depths (17 / 14 / 11 before) a Russian
#   search took 70 ms idle, so the fixed costs of each search (the table's
#   page faults; thread start; the table clear, timed apart since 1dbab50)
#   and the shallow iterations, where the two
#   threads mostly race on the same small tree, weighed on the ratio; the
#   deeper limits give each 1-thread search 0.2-0.35 s idle, as in a real
#   move. Then the same over 63 Russian ballots (every 12th of
#   data/openings/russian_ballots_745.tsv) at depth 17 (SMP_BALLOT_DEPTH;
#   SMP_BALLOTS=0: left out; about a minute more). SMP_PARAMS="NAME=V,..."
#   adds search parameters to both.
# Environment: MOVETIME (100), REPEAT (3; --smp: 5), SKIP_SMP=1 to leave out 4.
set -euo pipefail
cd "$(dirname "$0")/.."
for pair in ${SMP_DEPTHS:-}; do
    [[ $pair =~ ^[a-z]+=[0-9]+$ ]] || { echo "search-figures.sh: SMP_DEPTHS entry '$pair' is not GAME=DEPTH" >&2; exit 2; }
done
med() { sort -n | awk '{v[NR]=$1} END {if (NR % 2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}'; }
# smp_line BINARY REPEAT LABEL GAME DEPTH [BENCH ARGS...]: one line of part 4.
smp_line() {
    local bin=$1 rep=$2 label=$3 g=$4 d=$5 t1=() t2=() n1=() n2=() c1=() c2=() out
    shift 5
    local extra=("$@")
    [ -n "${SMP_PARAMS:-}" ] && extra+=(--search-param "$SMP_PARAMS")
    for i in $(seq "$rep"); do
        for th in 1 2; do
            out=$("$bin" bench --game "$g" --depth "$d" --search-threads $th "${extra[@]}")
            local t n c
            t=$(echo "$out" | awk '/^search/ {print $5}')
            n=$(echo "$out" | awk 'NR==1 {print $5}')
            # CPU seconds = nodes / (M nodes per CPU second)
            c=$(echo "$out" | awk -v n="$n" '/^search/ {for (f = 1; f < NF; f++) if ($(f+1) == "M" && $(f+2) == "nodes" && $(f+3) == "per") r = $f; printf "%.3f", n / (r * 1e6)}')
            if [ $th = 1 ]; then t1+=("$t"); n1+=("$n"); c1+=("$c"); else t2+=("$t"); n2+=("$n"); c2+=("$c"); fi
        done
    done
    local m1 m2 k1 k2 u1 u2
    m1=$(printf '%s\n' "${t1[@]}" | med); m2=$(printf '%s\n' "${t2[@]}" | med)
    k1=$(printf '%s\n' "${n1[@]}" | med); k2=$(printf '%s\n' "${n2[@]}" | med)
    u1=$(printf '%s\n' "${c1[@]}" | med); u2=$(printf '%s\n' "${c2[@]}" | med)
    echo "smp $label depth $d: 1 thread $m1 s ($k1 nodes, $u1 s CPU), 2 threads $m2 s ($k2 nodes, $u2 s CPU; ${n2[*]}), speed-up $(awk -v a="$m1" -v b="$m2" 'BEGIN {printf "%.2f", a / b}'), nodes 2/1 $(awk -v a="$k2" -v b="$k1" 'BEGIN {printf "%.2f", a / b}'), CPU 2/1 $(awk -v a="$u2" -v b="$u1" 'BEGIN {printf "%.2f", a / b}'), two free cores 2 x CPU 1/2 $(awk -v a="$u1" -v b="$u2" 'BEGIN {printf "%.2f", 2 * a / b}')"
}
# games_of BINARY: the games it lists (`dama help`, its "games:" line), or $GAMES when set.
games_of() {
    local g=${GAMES:-$("$1" help | sed -n 's/^games: //p')}
    [ -n "$g" ] || { echo "search-figures.sh: $1 help lists no games (no 'games:' line)" >&2; exit 2; }
    echo "$g"
}
# knows BINARY GAME: BINARY plays GAME (an older binary may not).
knows() { "$1" help | sed -n 's/^games: //p' | tr ' ' '\n' | grep -qx "$2"; }
# smp_depth BINARY GAME: GAME's depth in SMP_DEPTHS ("russian=19 ..."), else its bench depth.
smp_depth() {
    local pair
    for pair in ${SMP_DEPTHS:-russian=19 turkish=14 shatra=13}; do
        [ "${pair%%=*}" = "$2" ] && { echo "${pair#*=}"; return; }
    done
    "$1" bench --game "$2" | awk 'NR==1 {print $4}' | tr -d : # "bench GAME depth D: N nodes"
}
smp() {
    local bin=$1 rep=$2 g
    echo "lazy SMP, time to depth: $bin, $rep runs each, interleaved; load $(cut -d' ' -f1-3 /proc/loadavg)"
    for g in $(games_of "$bin"); do smp_line "$bin" "$rep" "$g" "$g" "$(smp_depth "$bin" "$g")"; done
    # The 7 Russian bench positions alone swing by +-25% from run to run
    # (one position's 2-thread search takes 0.55x to 4.2x the 1-thread
    # nodes, by when a best-move change comes): 63 ballots (every 12th of
    # the 745) at depth 17 average that out. SMP_BALLOTS=0 leaves them out.
    [ "${SMP_BALLOTS:-1}" = 0 ] ||
        smp_line "$bin" "$rep" "russian 63 ballots" russian "${SMP_BALLOT_DEPTH:-17}" --book data/openings/russian_ballots_745.tsv --book-every 12
    echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
}
if [ "${1:-}" = --smp ]; then
    shift
    [ $# -gt 0 ] || set -- build/dama
    for b in "$@"; do smp "$b" "${REPEAT:-5}"; done
    exit 0
fi
old=${1:?usage: $0 OLD_BINARY [NEW_BINARY] | $0 --smp [NEW_BINARY]}
new=${2:-build/dama}
mt=${MOVETIME:-100}
rep=${REPEAT:-3}
echo "old: $old   new: $new"
d15() { "$1" search --game russian --depth 15 --quiet | awk '/^nodes/ {print $2}'; }
a=$(d15 "$old"); b=$(d15 "$new")
echo "russian start depth 15 nodes: old $a new $b ratio $(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.2f", a / b}')"
games=$(games_of "$new")
for g in $games; do
    b=$("$new" bench --game $g | awk 'NR==1 {print $5}')
    if knows "$old" $g; then
        a=$("$old" bench --game $g | awk 'NR==1 {print $5}')
        echo "bench $g: old $a new $b ratio $(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.2f", a / b}')"
    else
        echo "bench $g: old - new $b (the old binary has no $g)"
    fi
done
for g in $games; do
    do=(); dn=()
    while IFS= read -r fen; do
        knows "$old" $g && do+=("$("$old" search --game $g --fen "$fen" --movetime "$mt" --quiet | awk '/^depth/ {print $2}')")
        dn+=("$("$new" search --game $g --fen "$fen" --movetime "$mt" --quiet | awk '/^depth/ {print $2}')")
    done < <("$new" bench --game $g --print-fens)
    if [ ${#do[@]} -gt 0 ]; then om="$(printf '%s\n' "${do[@]}" | med) (${do[*]})"; else om="- (the old binary has no $g)"; fi
    echo "depth in $mt ms $g: old median $om new median $(printf '%s\n' "${dn[@]}" | med) (${dn[*]})"
done
[ "${SKIP_SMP:-0}" = 1 ] || smp "$new" "${REPEAT:-5}"

#!/usr/bin/env bash
# search-figures.sh OLD_BINARY [NEW_BINARY] — the search figures, side by side:
#   1. nodes to complete depth 15 from the Russian start;
#   2. `dama bench` node totals per game (each game's bench depth);
#   3. depth completed in MOVETIME ms (default 100) from each bench position,
#      median per game (one fresh process per search, as a referee runs it);
#   4. lazy SMP: time of `dama bench` with 1 and 2 search threads (NEW only;
#      median of REPEAT runs each, interleaved) and the ratio.
# Environment: MOVETIME (100), REPEAT (3), SKIP_SMP=1 to leave out 4.
set -euo pipefail
cd "$(dirname "$0")/.."
old=${1:?usage: $0 OLD_BINARY [NEW_BINARY]}
new=${2:-build/dama}
mt=${MOVETIME:-100}
rep=${REPEAT:-3}
med() { sort -n | awk '{v[NR]=$1} END {if (NR % 2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}'; }
echo "old: $old   new: $new"
d15() { "$1" search --game russian --depth 15 --quiet | awk '/^nodes/ {print $2}'; }
a=$(d15 "$old"); b=$(d15 "$new")
echo "russian start depth 15 nodes: old $a new $b ratio $(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.2f", a / b}')"
for g in russian turkish shatra; do
    a=$("$old" bench --game $g | awk 'NR==1 {print $5}'); b=$("$new" bench --game $g | awk 'NR==1 {print $5}')
    echo "bench $g: old $a new $b ratio $(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.2f", a / b}')"
done
for g in russian turkish shatra; do
    do=(); dn=()
    while IFS= read -r fen; do
        do+=("$("$old" search --game $g --fen "$fen" --movetime "$mt" --quiet | awk '/^depth/ {print $2}')")
        dn+=("$("$new" search --game $g --fen "$fen" --movetime "$mt" --quiet | awk '/^depth/ {print $2}')")
    done < <("$new" bench --game $g --print-fens)
    echo "depth in $mt ms $g: old median $(printf '%s\n' "${do[@]}" | med) (${do[*]}) new median $(printf '%s\n' "${dn[@]}" | med) (${dn[*]})"
done
if [ "${SKIP_SMP:-0}" != 1 ]; then
    for g in russian turkish shatra; do
        t1=(); t2=()
        for i in $(seq "$rep"); do
            t1+=("$("$new" bench --game $g --search-threads 1 | awk '/^search/ {print $5}')")
            t2+=("$("$new" bench --game $g --search-threads 2 | awk '/^search/ {print $5}')")
        done
        m1=$(printf '%s\n' "${t1[@]}" | med); m2=$(printf '%s\n' "${t2[@]}" | med)
        echo "smp $g bench time: 1 thread $m1 s, 2 threads $m2 s, speed-up $(awk -v a="$m1" -v b="$m2" 'BEGIN {printf "%.2f", a / b}')"
    done
fi

#!/usr/bin/env bash
# mpi-scaling.sh [MPI_BINARY] — self-play throughput over MPI, side by side
# (about 5 minutes on an idle 2-core machine; wall-clock figures mean
# something only there, CPU figures also under load):
#   A. one process x 1 thread                       (dama selfplay --threads 1)
#   B. two plain processes at once x 1 thread each  (--shard 0/2 and 1/2, no MPI)
#   C. two MPI ranks x 1 thread                     (mpirun -np 2 dama selfplay --mpi)
# the same GAMES games each time (Russian, NODES nodes a move, seed 3), the
# three interleaved REPEAT times; prints each run and then the medians:
# wall s, games/s, CPU s a game (user+system of every process), and the
# ratios C/A and B/A of games/s (the target is 1.8 for 2 ranks) and of CPU a
# game (1.00: the second core costs nothing extra). B against A is what the
# second core gives without MPI; C against B is MPI's own cost.
# Environment: GAMES (400: at 100 a 2-rank run lasts 7 s and the fixed start-up
# of mpirun and the database costs a tenth of it, 1.69x where 400 give 1.89x), NODES (4000), REPEAT (3), MPIRUN (mpirun
# --oversubscribe, plus --allow-run-as-root as root).
set -euo pipefail
cd "$(dirname "$0")/.."
MPI=1 bash scripts/install-deps.sh # mpirun
dama=$(realpath "${1:-build-mpi/dama}")
games=${GAMES:-400}
nodes=${NODES:-4000}
rep=${REPEAT:-3}
mpirun_cmd=${MPIRUN:-mpirun --oversubscribe $([ "$(id -u)" = 0 ] && echo --allow-run-as-root)}
grep -q '^mpi: yes' <("$dama" --version) || { echo "mpi-scaling.sh: $dama is not an MPI build (-DDAMA_MPI=ON)"; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sp=(selfplay --games "$games" --nodes "$nodes" --threads 1 --seed 3 --progress 0)
now() { date +%s.%N; }
# timed FILE COMMAND...: runs COMMAND (its output dropped) and writes its user and system CPU
# seconds, its children's included, to FILE (bash's time: the package time is not in a minimal Debian)
timed() {
    local f=$1 TIMEFORMAT='%U %S'
    shift
    { time "$@" >/dev/null 2>&1; } 2>"$f"
}
# cpu FILE: user+system seconds that timed wrote
cpu() { tail -1 "$1" | awk '{print $1 + $2}'; }
calc() { awk "BEGIN {printf \"%.6f\", $*}"; }
med() { sort -g | awk '{v[NR]=$1} END {if (NR % 2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}'; }
echo "binary $dama; $games games at $nodes nodes a move, $rep rounds; load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-5s %-20s %8s %8s %10s\n' round variant wall_s games/s cpu_s/game
: >"$tmp/A" >"$tmp/B" >"$tmp/C"
for r in $(seq 1 "$rep"); do
    rm -f "$tmp"/*.sqlite*
    t0=$(now)
    timed "$tmp/ta" "$dama" "${sp[@]}" --db "$tmp/a.sqlite"
    t1=$(now)
    wa=$(calc "$t1 - $t0"); ca=$(cpu "$tmp/ta")
    t0=$(now)
    timed "$tmp/tb0" "$dama" "${sp[@]}" --shard 0/2 --db "$tmp/b0.sqlite" &
    p0=$!
    timed "$tmp/tb1" "$dama" "${sp[@]}" --shard 1/2 --db "$tmp/b1.sqlite"
    wait $p0
    t1=$(now)
    wb=$(calc "$t1 - $t0"); cb=$(calc "$(cpu "$tmp/tb0") + $(cpu "$tmp/tb1")")
    t0=$(now)
    # mpirun starts the local ranks itself: its children's CPU is the ranks'
    timed "$tmp/tc" $mpirun_cmd -np 2 "$dama" "${sp[@]}" --mpi --db "$tmp/c.sqlite"
    t1=$(now)
    wc_=$(calc "$t1 - $t0"); cc=$(cpu "$tmp/tc")
    for v in "A 1 process x 1 thread:$wa:$ca" "B 2 processes x 1:$wb:$cb" "C 2 MPI ranks x 1:$wc_:$cc"; do
        IFS=: read -r name w c <<<"$v"
        gps=$(calc "$games / $w"); cpg=$(calc "$c / $games")
        printf '%-5s %-20s %8.2f %8.2f %10.4f\n' "$r" "${name#? }" "$w" "$gps" "$cpg"
        echo "$gps $cpg" >>"$tmp/${name%% *}"
    done
    # the 2-rank run stored the one-process games
    qa=$(sqlite3 "$tmp/a.sqlite" "SELECT group_concat(movetext, '|') FROM (SELECT movetext FROM games ORDER BY game_index)" | md5sum)
    qc=$(sqlite3 "$tmp/c.sqlite" "SELECT group_concat(movetext, '|') FROM (SELECT movetext FROM games ORDER BY game_index)" | md5sum)
    [ "$qa" = "$qc" ] || echo "round $r: the 2-rank games differ from the one-process games"
done
for v in A B C; do
    eval "g$v=$(cut -d' ' -f1 "$tmp/$v" | med)"
    eval "c$v=$(cut -d' ' -f2 "$tmp/$v" | med)"
done
echo "medians: games/s A $gA, B $gB, C $gC; CPU s a game A $cA, B $cB, C $cC"
printf 'games/s  C/A %.2f (target 1.80)   B/A %.2f   C/B %.2f\n' "$(calc "$gC / $gA")" "$(calc "$gB / $gA")" \
    "$(calc "$gC / $gB")"
printf 'CPU/game C/A %.3f   B/A %.3f   C/B %.3f\n' "$(calc "$cC / $cA")" "$(calc "$cB / $cA")" "$(calc "$cC / $cB")"
echo "load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"

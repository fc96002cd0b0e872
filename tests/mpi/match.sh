#!/usr/bin/env bash
# Matches over MPI: `mpirun -np 3 dama match --mpi` plays pair p on rank
# p mod 3 and stores on rank 0 exactly the games of one process (a
# canonical dump of every game and position by game index) and the same
# matches row; an SPRT decides on the pairs in index order, so the decision
# (H0/H1, pairs, LLR) is the one of one process, and every rank stops
# starting pairs; a stop (SIGINT to mpirun) ends every rank cleanly.
# Usage: match.sh DAMA_BINARY SOURCE_DIR   (DAMA_MPIRUN: the mpirun command)
set -u
set -o pipefail
. "$(dirname "$0")/../cli/lib.sh"
cd "$T"
MPIRUN=${DAMA_MPIRUN:-mpirun --oversubscribe}
grep -q '^mpi: yes' <("$DAMA" --version) || { echo "match.sh: $DAMA is not an MPI build"; exit 1; }
DUMP="SELECT g.game_index, g.game, g.opening, g.start_fen, g.seed, g.result, g.reason, g.plies, g.movetext,
  g.detail, w.hash, b.hash, (SELECT group_concat(p.ply || ':' || p.fen || ':' || p.stm || ':' || ifnull(p.score, '-')
  || ':' || p.result || ':' || p.quiet, ';') FROM (SELECT * FROM positions p WHERE p.game_id = g.id ORDER BY p.ply) p)
  FROM games g LEFT JOIN weight_sets w ON w.id = g.white_ws LEFT JOIN weight_sets b ON b.id = g.black_ws
  ORDER BY g.game_index"
ROW="SELECT games, wins, draws, losses, penta0, penta1, penta2, penta3, penta4, printf('%.6f', elo),
  printf('%.6f', llr), sprt_result, sprt_pairs, printf('%.6f', sprt_llr) FROM matches"
printf 'game = "russian";\nbase = "default";\nweights = { KING = 100; };\n' >other.cfg
M="match --a default --b other.cfg --pairs 15 --nodes 300 --seed 5 --progress 0"

"$DAMA" $M --db one.sqlite --threads 2 >one.out 2>&1 || bad "one process: $(tail -3 one.out)"
sqlite3 one.sqlite "$DUMP" >one.txt
sqlite3 one.sqlite "$ROW" >one.row
[ "$(wc -l <one.txt)" = 30 ] && ok || bad "one process stored $(wc -l <one.txt) games, not 30"
[ "$(cut -d'|' -f1 one.row)" = 30 ] && ok || bad "one process: matches row '$(cat one.row)'"
for t in 1 2; do
  $MPIRUN -np 3 "$DAMA" $M --mpi --db three-$t.sqlite --threads $t >three-$t.out 2>&1 \
    || bad "3 ranks x $t threads: $(tail -3 three-$t.out)"
  sqlite3 three-$t.sqlite "$DUMP" >three-$t.txt
  cmp -s one.txt three-$t.txt && ok || bad "3 ranks x $t threads stored other games than one process"
  sqlite3 three-$t.sqlite "$ROW" >three-$t.row
  cmp -s one.row three-$t.row && ok || bad "3 ranks x $t threads: matches row $(cat three-$t.row) vs $(cat one.row)"
  grep -q "3 ranks over MPI" three-$t.out && ok || bad "3 ranks x $t: banner $(head -1 three-$t.out)"
done
[ "$(sqlite3 three-1.sqlite "SELECT status FROM runs")" = done ] && ok || bad "3-rank match run not done"
# the summary line is the same
[ "$(grep '^Games' one.out)" = "$(grep '^Games' three-1.out)" ] && ok || bad "summary: $(grep '^Games' three-1.out)"
# the time each side used, measured on every rank, is the stored sums of all the games (rank 0 prints it)
check_match_times three-1.out three-1.sqlite 1 AB
# under a launcher of several ranks --mpi is implied
$MPIRUN -np 2 "$DAMA" $M --db implied.sqlite --threads 1 >implied.out 2>&1 || bad "2 ranks, no --mpi: $(tail -3 implied.out)"
sqlite3 implied.sqlite "$DUMP" >implied.txt
cmp -s one.txt implied.txt && ok || bad "2 ranks without --mpi stored other games"

# --- SPRT: rank 0 decides on the pairs in index order, every rank stops -------
S="match --a default --b other.cfg --sprt --elo0 0 --elo1 50 --pairs 200 --nodes 300 --seed 5 --progress 0"
"$DAMA" $S --db s1.sqlite --threads 2 >s1.out 2>&1 || bad "SPRT, one process: $(tail -3 s1.out)"
$MPIRUN -np 3 "$DAMA" $S --mpi --db s3.sqlite --threads 1 >s3.out 2>&1 || bad "SPRT, 3 ranks: $(tail -3 s3.out)"
D="SELECT sprt_result, sprt_pairs, printf('%.6f', sprt_llr) FROM matches"
d1=$(sqlite3 s1.sqlite "$D")
d3=$(sqlite3 s3.sqlite "$D")
[ -n "$(sqlite3 s1.sqlite "SELECT sprt_result FROM matches")" ] && ok || bad "the SPRT did not decide: $(cat s1.out)"
[ "$d1" = "$d3" ] && ok || bad "SPRT decision: one process '$d1', 3 ranks '$d3'"
n=$(sqlite3 s3.sqlite "SELECT games / 2 FROM matches")
dp=$(sqlite3 s3.sqlite "SELECT sprt_pairs FROM matches")
[ "$n" -ge "$dp" ] && [ "$n" -lt 200 ] && ok || bad "3 ranks went on after the decision: $n pairs of 200 (decided at $dp)"
# the pairs both runs played are the same games
q="SELECT game_index, movetext FROM games WHERE game_index < 2 * $dp ORDER BY 1"
[ "$(sqlite3 s1.sqlite "$q" | md5sum)" = "$(sqlite3 s3.sqlite "$q" | md5sum)" ] && ok || bad "SPRT: the deciding pairs differ"
grep -q "H0 accepted\|H1 accepted" s3.out && ok || bad "SPRT line on rank 0: $(grep SPRT s3.out)"

# --- a stop (SIGINT to mpirun) reaches every rank -----------------------------
$MPIRUN -np 3 "$DAMA" match --a default --b other.cfg --pairs 150 --nodes 2000 --progress 0 --mpi --db i.sqlite --threads 1 >i.out 2>&1 &
pid=$!
wait_until -p $pid "3 games stored" at_least i.sqlite "SELECT count(*) FROM games" 3
kill -INT $pid
wait $pid
rc=$?
[ "$rc" = 3 ] || [ "$rc" = 1 ] && ok || bad "SIGINT: exit $rc (expected 3 or 1): $(tail -3 i.out)"
grep -q "^interrupted after" i.out && ok || bad "SIGINT: no clean stop: $(tail -3 i.out)"
[ "$(sqlite3 i.sqlite "SELECT status FROM runs")" = "interrupted" ] && ok || bad "stopped match not interrupted"
# a refusal on rank 0 (a weight set that is not there) fails every rank once
$MPIRUN -np 3 "$DAMA" match --mpi --db i.sqlite --a db:999 --b default --pairs 3 --nodes 100 --progress 0 >bad.out 2>&1
rc=$?
[ "$rc" != 0 ] && ok || bad "a missing weight set over MPI: exit 0"
[ "$(grep -c "999" bad.out)" = 1 ] && ok || bad "a missing weight set over MPI: $(cat bad.out)"

finish "mpi match"

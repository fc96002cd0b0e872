#!/usr/bin/env bash
# Self-play over MPI: the games of `mpirun -np 3 dama selfplay --mpi` are
# those of one process on the same seed, byte for byte (a canonical dump of
# every game and position by game index); a 3-rank run killed midway
# (kill -9 of mpirun) resumes with every game stored exactly once and the
# same games as the uninterrupted run; a stop (SIGINT to mpirun) ends every
# rank cleanly (the run is marked interrupted); two jobs of one run started
# together store it once (rank 0 of the second is refused, exit 4).
# Usage: selfplay.sh DAMA_BINARY SOURCE_DIR   (DAMA_MPIRUN: the mpirun command)
set -u
. "$(dirname "$0")/../cli/lib.sh"
cd "$T"
MPIRUN=${DAMA_MPIRUN:-mpirun --oversubscribe}
grep -q '^mpi: yes' <("$DAMA" --version) || { echo "selfplay.sh: $DAMA is not an MPI build"; exit 1; }
DUMP="SELECT g.game_index, g.game, g.opening, g.start_fen, g.seed, g.result, g.reason, g.plies, g.movetext,
  g.detail, w.hash, b.hash, (SELECT group_concat(p.ply || ':' || p.fen || ':' || p.stm || ':' || ifnull(p.score, '-')
  || ':' || p.result || ':' || p.quiet, ';') FROM (SELECT * FROM positions p WHERE p.game_id = g.id ORDER BY p.ply) p)
  FROM games g LEFT JOIN weight_sets w ON w.id = g.white_ws LEFT JOIN weight_sets b ON b.id = g.black_ws
  ORDER BY g.game_index"
dump() { sqlite3 "$1" "$DUMP" >"$2"; }
SP="selfplay --games 24 --nodes 400 --seed 11 --progress 0"

"$DAMA" $SP --db one.sqlite --threads 2 >one.out 2>&1 || bad "one process: $(tail -3 one.out)"
dump one.sqlite one.txt
[ "$(wc -l <one.txt)" -ge 24 ] && ok || bad "one process stored $(wc -l <one.txt) dump lines"

# --- 3 ranks (1 and 2 threads each), 1 rank: the same games ------------------
for t in 1 2; do
  $MPIRUN -np 3 "$DAMA" $SP --mpi --db three-$t.sqlite --threads $t >three-$t.out 2>&1 \
    || bad "3 ranks x $t threads: $(tail -3 three-$t.out)"
  dump three-$t.sqlite three-$t.txt
  cmp -s one.txt three-$t.txt && ok || bad "3 ranks x $t threads stored other games than one process"
  grep -q "^  by rank: 0: 8 1: 8 2: 8 games$" three-$t.out && ok || bad "3 ranks x $t: by rank: $(grep 'by rank' three-$t.out)"
done
grep -q "^selfplay: 24/24 games, .*, by rank 8/8/8$" three-1.out && ok || bad "final progress line: $(cat three-1.out)"
# the games sent to rank 0 keep the time each side used (measured, so not in the dump)
[ "$(sqlite3 three-1.sqlite "SELECT count(*) FROM games WHERE white_moves + black_moves = plies AND white_wall_s > 0
  AND black_wall_s >= 0 AND white_cpu_s >= 0 AND black_cpu_s >= 0")" = 24 ] && ok || bad "3 ranks: games without their times"
# Under mpirun with several ranks --mpi is implied (3 copies of a one-process
# run would each play every game).
$MPIRUN -np 3 "$DAMA" $SP --db implied.sqlite --threads 1 >implied.out 2>&1 || bad "3 ranks, no --mpi: $(tail -3 implied.out)"
dump implied.sqlite implied.txt
cmp -s one.txt implied.txt && ok || bad "3 ranks without --mpi stored other games"
grep -q "3 ranks over MPI" implied.out && ok || bad "3 ranks without --mpi: $(head -1 implied.out)"
# Two shards of the run, each an MPI job of 2 ranks, merged: the same games.
for r in 0 1; do
  $MPIRUN -np 2 "$DAMA" $SP --mpi --db sh$r.sqlite --shard $r/2 --threads 1 >sh$r.out 2>&1 \
    || bad "shard $r/2 over 2 ranks: $(tail -3 sh$r.out)"
done
grep -q "shard 1/2, 2 ranks over MPI" sh1.out && ok || bad "shard over MPI banner: $(head -1 sh1.out)"
[ "$(sqlite3 sh1.sqlite "SELECT group_concat(game_index) FROM (SELECT game_index FROM games ORDER BY 1)")" \
  = "1,3,5,7,9,11,13,15,17,19,21,23" ] && ok || bad "shard 1/2 over 2 ranks holds the wrong games"
[ "$(sqlite3 sh1.sqlite "SELECT status FROM runs")" = "done" ] && ok || bad "a complete shard over MPI is not done"
"$DAMA" db merge sh0.sqlite sh1.sqlite --into merged.sqlite >merged.out 2>&1 || bad "merge: $(cat merged.out)"
dump merged.sqlite merged.txt
cmp -s one.txt merged.txt && ok || bad "two MPI shards merged are not the one-process run"
$MPIRUN -np 1 "$DAMA" $SP --mpi --db np1.sqlite --threads 2 >np1.out 2>&1 || bad "1 rank: $(tail -3 np1.out)"
dump np1.sqlite np1.txt
cmp -s one.txt np1.txt && ok || bad "mpirun -np 1 stored other games"
# Resuming a finished run plays nothing, on every rank.
$MPIRUN -np 3 "$DAMA" $SP --mpi --db three-1.sqlite --threads 1 >again.out 2>&1 && ok || bad "finished run again: $(cat again.out)"
grep -q "already holds these 24 games" again.out && ok || bad "finished run again: $(cat again.out)"

# --- kill -9 of mpirun midway, then resume --------------------------------------
# enough games that the kill lands midway even on an idle machine
NK=300
SK="selfplay --games $NK --nodes 2000 --seed 12 --progress 0"
"$DAMA" $SK --db full.sqlite --threads 2 >full.out 2>&1 || bad "uninterrupted: $(tail -3 full.out)"
dump full.sqlite full.txt
$MPIRUN -np 3 "$DAMA" $SK --mpi --db k.sqlite --threads 1 >k1.out 2>&1 &
pid=$!
wait_until -p $pid "10 games stored" at_least k.sqlite "SELECT count(*) FROM games" 10
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
no_rank() { [ -z "$(proc_find "dama $SK --mpi --db k.sqlite")" ]; }
wait_until "the ranks end when mpirun is gone" no_rank && ok
stored=$(sqlite3 k.sqlite "SELECT count(*) FROM games")
[ "$stored" -ge 10 ] && [ "$stored" -lt $NK ] && ok || bad "killed run stored $stored of $NK games (want some, not all)"
$MPIRUN -np 3 "$DAMA" $SK --mpi --db k.sqlite --threads 1 >k2.out 2>&1 || bad "resume: $(tail -3 k2.out)"
grep -q "run 1 resumed, $NK games ($stored stored)" k2.out && ok || bad "resume banner: $(head -2 k2.out)"
row=$(sqlite3 k.sqlite "SELECT count(*), count(DISTINCT game_index), min(game_index), max(game_index) FROM games")
[ "$row" = "$NK|$NK|0|$((NK - 1))" ] && ok || bad "after the resume: games, distinct indices, min, max = $row"
[ "$(sqlite3 k.sqlite "SELECT status FROM runs")" = "done" ] && ok || bad "resumed run not done"
dump k.sqlite k.txt
cmp -s full.txt k.txt && ok || bad "killed and resumed run differs from the uninterrupted one"

# --- a stop (SIGINT to mpirun) reaches every rank -----------------------------
$MPIRUN -np 3 "$DAMA" selfplay --games 200 --nodes 2000 --seed 13 --progress 0 --mpi --db s.sqlite --threads 1 >s.out 2>&1 &
pid=$!
wait_until -p $pid "3 games stored" at_least s.sqlite "SELECT count(*) FROM games" 3
kill -INT $pid
wait $pid
rc=$?
# Every rank ends with 3 (interrupted); mpirun itself reports a job it
# signalled with 1.
[ "$rc" = 3 ] || [ "$rc" = 1 ] && ok || bad "SIGINT: exit $rc (expected 3 or 1): $(tail -3 s.out)"
grep -q " — interrupted; run the same command again to resume$" s.out && ok || bad "SIGINT: no clean stop: $(tail -3 s.out)"
[ "$(sqlite3 s.sqlite "SELECT status FROM runs")" = "interrupted" ] && ok || bad "stopped run not interrupted"

# --- two MPI jobs of one run at once: rank 0 of one writes, the other is refused --
$MPIRUN -np 2 "$DAMA" $SP --mpi --db two.sqlite --threads 1 >two1.out 2>&1 &
p1=$!
$MPIRUN -np 2 "$DAMA" $SP --mpi --db two.sqlite --threads 1 >two2.out 2>&1 &
p2=$!
wait $p1; r1=$?
wait $p2; r2=$?
case "$(printf '%s\n' $r1 $r2 | sort | tr '\n' ' ')" in
  "0 4 ") grep -q "is being written by process" two1.out two2.out && ok || bad "two jobs: no refusal message" ;;
  "0 0 ") grep -q "already holds these 24 games" two1.out two2.out && ok || bad "two jobs: both played" ;;
  *) bad "two jobs at once: exit $r1 and $r2: $(tail -2 two1.out) / $(tail -2 two2.out)" ;;
esac
[ "$(sqlite3 two.sqlite "SELECT count(*) || ' ' || max(status) FROM runs")" = "1 done" ] && ok || bad "two jobs: runs"
[ "$(sqlite3 two.sqlite "SELECT count(*) || ' ' || count(DISTINCT game_index) FROM games")" = "24 24" ] && ok \
  || bad "two jobs: not each game once"

finish "mpi selfplay"

#!/usr/bin/env bash
# Tournaments over MPI: `mpirun -np 3 dama tournament --mpi` plays game j of
# those to play on rank j mod 3 and stores on rank 0 exactly the games of
# one process (by game index), with the same crosstable and ratings and
# every game in the --pdn-out file; a Hub engine works on every rank; a
# 3-rank tournament killed with kill -9 resumes (over 2 ranks) with every
# game stored once and the games of the uninterrupted one.
# Usage: tournament.sh DAMA_BINARY SOURCE_DIR   (DAMA_MPIRUN: the mpirun command)
set -u
set -o pipefail
. "$(dirname "$0")/../cli/lib.sh"
cd "$T"
MPIRUN=${DAMA_MPIRUN:-mpirun --oversubscribe}
grep -q '^mpi: yes' <("$DAMA" --version) || { echo "tournament.sh: $DAMA is not an MPI build"; exit 1; }
Q="SELECT g.game_index, g.round, g.opening, g.start_fen, g.result, g.reason, g.plies, g.movetext, g.detail,
  pw.name, pb.name, (SELECT count(*) FROM positions p WHERE p.game_id = g.id) FROM games g
  JOIN participants pw ON pw.id = g.white_player JOIN participants pb ON pb.id = g.black_player ORDER BY g.game_index"
printf 'game = "russian";\nbase = "default";\nweights = { KING = 100; };\n' >other.cfg
E=(name=A name=B,weights=other.cfg name=C,nodes=500 "name=H,nodes=300,cmd=$DAMA hub")
TO="tournament --nodes 300 --rounds 2 --seed 4 --progress 0"

"$DAMA" $TO --db one.sqlite --concurrency 2 "${E[@]}" >one.out 2>&1 || bad "one process: $(tail -3 one.out)"
sqlite3 one.sqlite "$Q" >one.txt
[ "$(wc -l <one.txt)" = 24 ] && ok || bad "one process stored $(wc -l <one.txt) games, not 24"
$MPIRUN -np 3 "$DAMA" $TO --mpi --db three.sqlite --concurrency 1 --pdn-out three.pdn "${E[@]}" >three.out 2>&1 \
  || bad "3 ranks: $(tail -3 three.out)"
sqlite3 three.sqlite "$Q" >three.txt
cmp -s one.txt three.txt && ok || bad "3 ranks stored other games than one process"
grep -q "3 ranks over MPI" three.out && ok || bad "banner: $(head -1 three.out)"
# the same crosstable, pairings and ratings (everything after the timing line but the time used per move, which is
# measured; it is there, with every engine's moves)
tables() { sed 1,2d "$1" | grep -vE '^time used per move|^  [A-Z][^ ]* +(wall [0-9.]+ ms, CPU|no timed moves)|^  (equal time used|unequal time:|time used: not measured)'; }
diff <(tables one.out) <(tables three.out) >/dev/null && ok || bad "tables differ: $(diff <(tables one.out) <(tables three.out) | head -5)"
expect_eq "$(grep -cE '^  [A-Z][^ ]* +wall [0-9.]+ ms, CPU [0-9.]+ ms per move \([1-9][0-9]* moves\)$' three.out)" \
  "$(grep -cE '^  [A-Z][^ ]* +wall [0-9.]+ ms, CPU [0-9.]+ ms per move \([1-9][0-9]* moves\)$' one.out)" \
  "3 ranks print every engine's time used"
expect_eq "$(grep -oE '\([0-9]+ moves\)' three.out | tr -dc '0-9\n' | awk '{ s += $1 } END { print s }')" \
  "$(sqlite3 three.sqlite "SELECT sum(plies) FROM games")" "3 ranks: the engines' moves are the stored games' plies"
[ "$(grep -c '^\[Event ' three.pdn)" = 24 ] && ok || bad "PDN file holds $(grep -c '^\[Event ' three.pdn) games, not 24"
"$DAMA" pdn check three.pdn >/dev/null 2>&1 && ok || bad "the PDN file of 3 ranks does not check"
[ "$(sqlite3 three.sqlite "SELECT status FROM runs")" = done ] && ok || bad "3-rank tournament not done"
# --resume without the engines needs the database on every rank: refused
$MPIRUN -np 2 "$DAMA" tournament --mpi --resume --db three.sqlite >r.out 2>&1
rc=$?
[ "$rc" != 0 ] && grep -q "resume over MPI needs the engines" r.out && ok || bad "--resume alone over MPI: exit $rc: $(cat r.out)"

# --- kill -9 of a 3-rank tournament, resumed over 2 ranks -------------------------
K=(name=A name=B,weights=other.cfg name=C,nodes=2500)
TK="tournament --nodes 2000 --rounds 25 --seed 6 --progress 0"
"$DAMA" $TK --db full.sqlite --concurrency 2 "${K[@]}" >full.out 2>&1 || bad "uninterrupted: $(tail -3 full.out)"
sqlite3 full.sqlite "$Q" >full.txt
NK=$(wc -l <full.txt)
$MPIRUN -np 3 "$DAMA" $TK --mpi --db k.sqlite --concurrency 1 "${K[@]}" >k1.out 2>&1 &
pid=$!
wait_until -p $pid "10 games stored" at_least k.sqlite "SELECT count(*) FROM games" 10
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
no_rank() { [ -z "$(proc_find "dama $TK --mpi --db k.sqlite")" ]; }
wait_until "the ranks end when mpirun is gone" no_rank && ok
stored=$(sqlite3 k.sqlite "SELECT count(*) FROM games")
[ "$stored" -ge 10 ] && [ "$stored" -lt "$NK" ] && ok || bad "killed tournament stored $stored of $NK games (want some, not all)"
$MPIRUN -np 2 "$DAMA" $TK --mpi --db k.sqlite --concurrency 1 "${K[@]}" >k2.out 2>&1 || bad "resume: $(tail -3 k2.out)"
grep -q "($stored already played)" k2.out && ok || bad "resume banner: $(head -1 k2.out)"
row=$(sqlite3 k.sqlite "SELECT count(*), count(DISTINCT game_index) FROM games")
[ "$row" = "$NK|$NK" ] && ok || bad "after the resume: games, distinct indices = $row (want $NK)"
sqlite3 k.sqlite "$Q" >k.txt
cmp -s full.txt k.txt && ok || bad "killed and resumed tournament differs from the uninterrupted one"
[ "$(sqlite3 k.sqlite "SELECT status FROM runs")" = done ] && ok || bad "resumed tournament not done"

finish "mpi tournament"

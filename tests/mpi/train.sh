#!/usr/bin/env bash
# Gated generations over MPI: `mpirun -np 3 dama train --mpi` (rank 0
# decides and writes; every generation's self-play, tuning and gate and
# ladder matches are shared by the ranks) gives the ladder of one process:
# the same candidate and best weight sets (by content hash), the same gate
# decisions (SPRT verdict, deciding pairs and LLR), the same ladder Elo;
# killed with kill -9 during generation 2 and resumed over 2 ranks, the same
# ladder again.
# Usage: train.sh DAMA_BINARY SOURCE_DIR   (DAMA_MPIRUN: the mpirun command)
set -u
set -o pipefail
. "$(dirname "$0")/../cli/lib.sh"
cd "$T"
MPIRUN=${DAMA_MPIRUN:-mpirun --oversubscribe}
grep -q '^mpi: yes' <("$DAMA" --version) || { echo "train.sh: $DAMA is not an MPI build"; exit 1; }
# The gate SPRT [-400, -200] passes any candidate about as strong as its
# parent, so the generations are accepted and the ladder has rows; the start
# is the deliberately poor set (tests/cli/russian-poor.cfg), which a tuning
# on 40 games betters in both generations (the learned compiled-in set it
# does not; on 20 the first held-out half did not improve).
TINY=(--game russian --weights "$SRC/tests/cli/russian-poor.cfg" --games-per-gen 40 --nodes 200 --epochs 40 --lr 5 --gate-pairs 24 --ladder-pairs 8 --progress 0
  --elo0 -400 --elo1 -200 --generations 2)
LADDER="SELECT g.generation, g.parent_generation, g.accepted, c.hash, b.hash, m.sprt_result, m.sprt_pairs,
  printf('%.6f', m.sprt_llr), printf('%.6f', g.ladder_elo), g.ladder_games FROM generations g
  LEFT JOIN weight_sets c ON c.id = g.candidate_ws LEFT JOIN weight_sets b ON b.id = g.best_ws
  LEFT JOIN matches m ON m.id = g.gate_match ORDER BY g.generation"

"$DAMA" train --db one.sqlite "${TINY[@]}" --threads 2 >one.out 2>one.err || bad "one process: $(tail -3 one.err)"
sqlite3 one.sqlite "$LADDER" >one.txt
[ "$(wc -l <one.txt)" = 3 ] && ok || bad "one process: $(wc -l <one.txt) generations"
[ "$(sqlite3 one.sqlite "SELECT count(*) FROM generations WHERE accepted = 1 AND generation > 0")" = 2 ] && ok \
  || bad "one process: the generations were not accepted: $(cat one.out)"
$MPIRUN -np 3 "$DAMA" train --mpi --db three.sqlite "${TINY[@]}" --threads 1 >three.out 2>three.err \
  || bad "3 ranks: $(tail -3 three.err)"
sqlite3 three.sqlite "$LADDER" >three.txt
cmp -s one.txt three.txt && ok || bad "3 ranks: another ladder: $(diff one.txt three.txt | head -6)"
grep -q "over MPI" three.err && ok || bad "3 ranks: banner $(head -1 three.err)"
# rank 0 alone prints train's lines
[ "$(grep -c '^generation 2 ladder:' three.out)" = 1 ] && ok || bad "3 ranks: train's lines: $(cat three.out)"
# the self-play games of every generation are those of one process
G="SELECT r.seed, g.game_index, g.movetext FROM games g JOIN runs r ON r.id = g.run_id WHERE r.kind = 'selfplay'
  ORDER BY 1, 2"
[ "$(sqlite3 one.sqlite "$G" | md5sum)" = "$(sqlite3 three.sqlite "$G" | md5sum)" ] && ok || bad "3 ranks: other self-play games"

# --- kill -9 during generation 2, resumed over 2 ranks ---------------------------
$MPIRUN -np 3 "$DAMA" train --mpi --db k.sqlite "${TINY[@]}" --threads 1 >k1.out 2>k1.err &
pid=$!
wait_until -p $pid -i 0.02 "generation 2's self-play running" \
  at_least k.sqlite "SELECT count(*) = 2 AND sum(status = 'running') = 1 FROM runs WHERE kind = 'selfplay'" 1
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
no_rank() { [ -z "$(proc_find "dama train --mpi --db k.sqlite")" ]; }
wait_until "the ranks end when mpirun is gone" no_rank && ok
[ "$(sqlite3 k.sqlite "SELECT stage FROM generations WHERE generation = 2")" = selfplay ] && ok \
  || bad "the kill did not land in generation 2's self-play: $(sqlite3 k.sqlite 'SELECT generation, stage FROM generations')"
$MPIRUN -np 2 "$DAMA" train --mpi --db k.sqlite "${TINY[@]}" --threads 1 >k2.out 2>k2.err || bad "resume: $(tail -3 k2.err)"
grep -q "resumed" k2.out && ok || bad "resume not reported: $(head -2 k2.out)"
sqlite3 k.sqlite "$LADDER" >k.txt
cmp -s one.txt k.txt && ok || bad "killed and resumed over 2 ranks: another ladder: $(diff one.txt k.txt | head -6)"
[ "$(sqlite3 k.sqlite "SELECT count(*) FROM trains")" = 1 ] && ok || bad "the resume made a second train"

finish "mpi train"

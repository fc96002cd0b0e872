#!/usr/bin/env bash
# chaos.sh — every long-running dama command killed at random moments,
# restarted until it finishes, and compared with an uninterrupted run.
#
#     bash scripts/chaos.sh [--kills N] [--seed S] [--quick] [--only CMD,...]
#                           [--skip CASE,...] [--dama PATH] [--keep DIR]
#
# For each command (selfplay; train with a gate and a ladder; tune; match
# --sprt; tournament with a Hub engine; spsa; egtb build; db merge; and,
# when dama is an MPI build and mpirun is there, selfplay, match,
# tournament, train and tune under `mpirun -np 2 --oversubscribe`) at a
# small size:
#   1. the reference: the command once, uninterrupted, into a fresh folder;
#   2. kills: the same command into another fresh folder, killed with
#      SIGKILL (the whole process tree: mpirun, its ranks, Hub engines) at
#      a moment drawn from the seed, and restarted each time until it exits
#      0. The moments, each a quarter of the kills: during start-up (the
#      first 50 ms, 1.5 s under mpirun, at most half the reference's time);
#      on a write (the database's -wal file changed once or twice — once
#      for db merge, whose one commit writes it — or the egtb folder once);
#      on a row change (a count of the command's rows, polled with sqlite3,
#      changed); at a random time (up to twice the reference's time over the
#      kills still to make, at most 3/4 of it). A command that finishes
#      before --kills kills is run and killed again, finished (but tune,
#      whose rerun is a new tune by design); the line says how many kills
#      were so. After each kill the database must pass PRAGMA quick_check;
#      at the end it is compared with the reference;
#   3. two copies: two copies of the command started at once into one
#      fresh folder (rerun once more if neither exited 0), then compared
#      with the reference: one run, each game once;
#   4. disk full: the command in a tmpfs (mounted here; needs root, else
#      skipped with a message) about half the size it needs: it must fail
#      with a message saying the disk is full and leave a database that
#      passes PRAGMA integrity_check; then the tmpfs is remounted larger
#      and the command rerun until it exits 0, and compared.
# It prints one line per command (kills survived, differences found) and
# exits 0 when nothing differed, 1 otherwise (2: bad usage).
#
# The comparison (dump() below, one section per table family) is by
# content: runs by kind, game, seed and configuration; weight sets by their
# content hash; games by their run and game index (movetext, result,
# reason, plies, opening, start position, seed, both weight sets, players,
# round, detail); positions; run members; tuning runs and epochs (K,
# losses, positions, data, weights); matches (counts, pentanomial, Elo,
# LLR, SPRT decision); SPSA runs and iterations (theta); tournaments and
# participants; trains and generations (every stage's runs, matches and
# weight sets by content); the egtb folder's files byte for byte (and
# nothing else left in it); a tournament's PDN file (its games, in any
# order). Left out, because they depend on the wall clock or the process:
#   - ids (rows are matched by content; ids inside text — a weight set's
#     name 'selfplay-3-m1', 'tuned by tuning run 2', a match's 'a = db:22' —
#     are compared as they are);
#   - every created and finished timestamp, runs.owner_pid, owner_host and
#     owner_start;
#   - a tournament's pdn_out folder (its file name is compared);
#   - under mpirun, the SPRT's pairs that were under way when it decided
#     (mpi-match, mpi-train's gates), whose number depends on timing,
#     killed or not: the games of pairs at or after matches.sprt_pairs and
#     the counts that include them (matches.games, wins, draws, losses,
#     penta0-4, elo, elo_lo, elo_hi, llr; generations.gate_elo,
#     gate_elo_lo, gate_elo_hi, gate_games). The decision itself
#     (sprt_result, sprt_llr, sprt_pairs) is compared, and one process plays
#     these matches with one thread, where everything is compared.
#
# Needs bash, coreutils, sqlite3 (and mount, as root, for the disk-full
# case); processes are found through /proc (tests/cli/lib.sh). The quick
# form (--quick: 3 kills a command, smaller runs) is the ctest cli_chaos.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
KILLS="" SEED=1 QUICK=0 ONLY="" SKIP="" KEEP="" DAMA_BIN="$ROOT/build/dama"
usage() { sed -n '5,6p' "$0" | sed 's/^# \{0,4\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --kills) KILLS=${2:-}; shift ;;
    --seed) SEED=${2:-}; shift ;;
    --quick) QUICK=1 ;;
    --only) ONLY=${2:-}; shift ;;
    --skip) SKIP=${2:-}; shift ;; # cases: kills, two-copies, disk-full
    --dama) DAMA_BIN=${2:-}; shift ;;
    --keep) KEEP=${2:-}; shift ;;
    -h | --help) usage ;;
    *) echo "chaos.sh: unknown argument '$1'" >&2; usage ;;
  esac
  shift
done
[ -z "$KILLS" ] && { [ "$QUICK" = 1 ] && KILLS=3 || KILLS=20; }
case "$KILLS" in *[!0-9]* | "") echo "chaos.sh: --kills takes a number" >&2; exit 2 ;; esac
case "$SEED" in *[!0-9]* | "") echo "chaos.sh: --seed takes a number" >&2; exit 2 ;; esac
[ -x "$DAMA_BIN" ] || { echo "chaos.sh: no dama at $DAMA_BIN (build it, or give --dama)" >&2; exit 2; }
command -v sqlite3 >/dev/null || { echo "chaos.sh: sqlite3 is needed" >&2; exit 2; }
DAMA=$(cd "$(dirname "$DAMA_BIN")" && pwd)/$(basename "$DAMA_BIN")

# lib.sh: the scratch folder T and the /proc helpers.
. "$ROOT/tests/cli/lib.sh" "$DAMA" "$ROOT"
SCRATCH=$T # lib.sh's folder: Open MPI's shared-memory files go there (OMPI_MCA_btl_vader_backing_directory)
[ -n "$KEEP" ] && { mkdir -p "$KEEP" && T=$(cd "$KEEP" && pwd) || exit 2; }
MOUNTS=()
cleanup() {
  local m
  for m in "${MOUNTS[@]}"; do umount "$m" 2>/dev/null; done
  [ -z "$KEEP" ] && rm -rf "${T:?}"
  if [ "$SCRATCH" != "$T" ]; then rm -rf "${SCRATCH:?}"; fi
}
trap cleanup EXIT
exec {SLEEP_FD}<> <(:) # read -t on it: a sleep without a process
nap() { read -r -t "$1" -u "$SLEEP_FD" _; return 0; }

MPI=0
if grep -q '^mpi: yes' <("$DAMA" --version 2>/dev/null) && command -v mpirun >/dev/null; then
  MPI=1
  MPIRUN=(mpirun --oversubscribe -np 2)
  [ "$(id -u)" = 0 ] && MPIRUN+=(--allow-run-as-root)
fi
START_CFG="$ROOT/configs/weights/russian-start.cfg"

# ---- the commands -----------------------------------------------------------
# Each runs in its own folder with the database db.sqlite (how its path is
# written is no part of any run's identity). setup NAME DIR puts what
# the command reads into the folder; argv_NAME sets CMD.
# The long form's sizes leave room for 20 kills that each cost the run a
# little of its work (a commit or two: 200 games in batches of 4, 60
# tournament games, 30 SPSA iterations, 23 egtb tables; a match whose SPRT
# decides after about 100 pairs).
if [ "$QUICK" = 1 ]; then
  SP_GAMES=16 TR_GENS=1 TU_EPOCHS=30 M_PAIRS=24 M_ELO=(-60 60) T_ROUNDS=1 S_ITERS=6 EG_PIECES=3 MG_GAMES=60
else
  SP_GAMES=200 TR_GENS=2 TU_EPOCHS=80 M_PAIRS=160 M_ELO=(60 140) T_ROUNDS=10 S_ITERS=30 EG_PIECES=4 MG_GAMES=900
fi
COMMANDS=(selfplay train tune match tournament spsa egtb merge)
[ "$MPI" = 1 ] && COMMANDS+=(mpi-selfplay mpi-match mpi-tournament mpi-train mpi-tune)

sp_args() { CMD+=(selfplay --db db.sqlite --games "$SP_GAMES" --nodes 200 --seed 11 --batch 4 --progress 0); }
tr_args() {
  # the gate's SPRT [-400, -200] passes a candidate about as strong as its
  # parent after 20 pairs: accepted, then a ladder match
  CMD+=(train --db db.sqlite --generations "$TR_GENS" --games-per-gen 20 --nodes 200 --epochs 40 --lr 5
    --gate-pairs 24 --ladder-pairs 8 --elo0 -400 --elo1 -200 --seed 5 --progress 0)
}
tu_args() { CMD+=(tune --db db.sqlite --epochs "$TU_EPOCHS" --seed 3 --name chaos); }
m_args() {
  CMD+=(match --db db.sqlite --a default --b "$START_CFG" --sprt --elo0 "${M_ELO[0]}" --elo1 "${M_ELO[1]}" --pairs "$M_PAIRS"
    --nodes 200 --seed 4 --progress 0)
}
t_args() {
  CMD+=(tournament --db db.sqlite --rounds "$T_ROUNDS" --nodes 200 --seed 6 --progress 0 --pdn-out games.pdn
    name=A,weights=default "name=C,weights=$START_CFG" "name=H,cmd=$DAMA hub --hash 8")
}
argv_selfplay() { CMD=("$DAMA"); sp_args; CMD+=(--threads 2); }
argv_train() { CMD=("$DAMA"); tr_args; CMD+=(--threads 1); }
argv_tune() { CMD=("$DAMA"); tu_args; CMD+=(--threads 2); }
argv_match() { CMD=("$DAMA"); m_args; CMD+=(--threads 1); }
argv_tournament() { CMD=("$DAMA"); t_args; CMD+=(--concurrency 2); }
argv_spsa() {
  CMD=("$DAMA" spsa --db db.sqlite --iterations "$S_ITERS" --pairs 2 --nodes 300 --params KING,TEMPO --seed 8
    --threads 2 --progress 0)
}
argv_egtb() { CMD=("$DAMA" egtb build --game russian --pieces "$EG_PIECES" --dir eg --threads 2); }
argv_merge() { CMD=("$DAMA" db merge s0.sqlite s1.sqlite s2.sqlite --into db.sqlite); }
argv_mpi-selfplay() { CMD=("${MPIRUN[@]}" "$DAMA"); sp_args; CMD+=(--mpi --threads 1); }
argv_mpi-match() { CMD=("${MPIRUN[@]}" "$DAMA"); m_args; CMD+=(--mpi --threads 1); }
argv_mpi-tournament() { CMD=("${MPIRUN[@]}" "$DAMA"); t_args; CMD+=(--mpi --concurrency 1); }
argv_mpi-train() { CMD=("${MPIRUN[@]}" "$DAMA"); tr_args; CMD+=(--mpi --threads 1); }
argv_mpi-tune() { CMD=("${MPIRUN[@]}" "$DAMA"); tu_args; CMD+=(--mpi --threads 1); }

# What a command reads, made once (DATA) and copied into each folder.
DATA="$T/data"
make_data() {
  mkdir -p "$DATA"
  "$DAMA" selfplay --db "$DATA/tune.sqlite" --games 120 --nodes 300 --seed 21 --progress 0 --threads 2 \
    >/dev/null 2>"$DATA/tune.err" || { echo "chaos.sh: making the tuning data failed: $(tail -2 "$DATA/tune.err")"; exit 1; }
  local r
  for r in 0 1 2; do
    "$DAMA" selfplay --db "$DATA/s$r.sqlite" --shard $r/3 --games "$MG_GAMES" --nodes 200 --seed 31 --progress 0 \
      --threads 2 >/dev/null 2>"$DATA/s$r.err" || { echo "chaos.sh: shard $r failed: $(tail -2 "$DATA/s$r.err")"; exit 1; }
  done
}
setup() { # NAME DIR
  case "$1" in
    tune | mpi-tune) cp "$DATA/tune.sqlite" "$2/db.sqlite" ;;
    merge) cp "$DATA"/s[012].sqlite "$2/" ;;
  esac
}
# A count that grows as the command stores its work (the row-change kills).
ROWS_SQL="SELECT (SELECT count(*) FROM games) + (SELECT count(*) FROM weight_sets) + (SELECT count(*) FROM runs)
  + (SELECT count(*) FROM tuning_epochs) + (SELECT count(*) FROM spsa_iterations)
  + (SELECT count(*) FROM generations) + (SELECT count(*) FROM matches)"

# ---- the comparison ---------------------------------------------------------
# dump DIR NAME: the folder's result as text, one "== section" per table
# family, every row by content (see the head of this file).
dump() {
  local dir=$1 name=$2 mpi_sprt=0
  case "$name" in mpi-match | mpi-train) mpi_sprt=1 ;; esac
  if [ "$name" = egtb ]; then
    echo "== egtb files"
    (cd "$dir/eg" 2>/dev/null && for f in *; do [ -e "$f" ] && echo "$f $(cksum <"$f")"; done)
    return
  fi
  if [ -f "$dir/games.pdn" ]; then
    echo "== pdn games (sorted)"
    awk 'BEGIN { RS = "" } { gsub(/\n/, " ") }
         /^\[Event/ { if (h != "") print h " | (no movetext)"; h = $0; next }
         { print h " | " $0; h = "" } END { if (h != "") print h " | (no movetext)" }' "$dir/games.pdn" | LC_ALL=C sort
  fi
  [ -f "$dir/db.sqlite" ] || { echo "== no database"; return; }
  sqlite3 -batch -readonly "$dir/db.sqlite" <<SQL
.headers off
.mode list
.separator " | "
.nullvalue NULL
CREATE TEMP VIEW rk AS SELECT id, kind || ':' || dense_rank() OVER (ORDER BY kind, game, seed, config)
  || '.' || row_number() OVER (PARTITION BY kind, game, seed, config ORDER BY id) AS k FROM runs;
CREATE TEMP VIEW wk AS SELECT id, game || ':' || ifnull(hash, 'nohash') AS k FROM weight_sets;
CREATE TEMP VIEW tk AS SELECT t.id, (SELECT k FROM rk WHERE rk.id = t.run_id) || '/' || row_number()
  OVER (PARTITION BY t.run_id ORDER BY t.id) AS k FROM tuning_runs t;
CREATE TEMP VIEW mk AS SELECT m.id, (SELECT k FROM rk WHERE rk.id = m.run_id) || '/' || row_number()
  OVER (PARTITION BY m.run_id ORDER BY m.id) AS k FROM matches m;
CREATE TEMP VIEW sk AS SELECT id, dense_rank() OVER (ORDER BY game, seed, config) || '.'
  || row_number() OVER (PARTITION BY game, seed, config ORDER BY id) AS k FROM spsa_runs;
CREATE TEMP VIEW trk AS SELECT id, dense_rank() OVER (ORDER BY game, seed, config) || '.'
  || row_number() OVER (PARTITION BY game, seed, config ORDER BY id) AS k FROM trains;
-- the games of an SPRT match that depend on timing (see the head): none unless mpi_sprt
CREATE TEMP VIEW late AS SELECT g.id FROM games g JOIN matches m ON m.run_id = g.run_id
  WHERE $mpi_sprt AND m.sprt_pairs > 0 AND g.game_index >= 2 * m.sprt_pairs;
SELECT '== runs';
SELECT * FROM (SELECT (SELECT k FROM rk WHERE rk.id = r.id), kind, game, seed, replace(config, char(10), '; '), note,
  status FROM runs r) ORDER BY 1;
SELECT '== weight sets';
SELECT * FROM (SELECT w.k, s.name, s.how, (SELECT k FROM wk WHERE wk.id = s.parent_id), s.delta,
  (SELECT k FROM rk WHERE rk.id = s.run_id) FROM weight_sets s JOIN wk w ON w.id = s.id) ORDER BY 1, 2;
SELECT '== run members';
SELECT * FROM (SELECT (SELECT k FROM rk WHERE rk.id = m.run_id), member, (SELECT k FROM wk WHERE wk.id = m.ws_id)
  FROM run_weight_sets m) ORDER BY 1, 2;
SELECT '== games';
SELECT * FROM (SELECT (SELECT k FROM rk WHERE rk.id = g.run_id), game_index, game, opening, start_fen,
  (SELECT k FROM wk WHERE wk.id = white_ws), (SELECT k FROM wk WHERE wk.id = black_ws), seed, result, reason, plies,
  movetext, (SELECT name FROM participants WHERE id = white_player),
  (SELECT name FROM participants WHERE id = black_player), round, detail, white_moves, black_moves FROM games g
  WHERE g.id NOT IN (SELECT id FROM late)) ORDER BY 1, 2;
SELECT '== positions';
SELECT * FROM (SELECT (SELECT k FROM rk WHERE rk.id = g.run_id), g.game_index, p.ply, p.fen, p.stm, p.score,
  p.result, p.quiet FROM positions p JOIN games g ON g.id = p.game_id WHERE g.id NOT IN (SELECT id FROM late))
  ORDER BY 1, 2, 3;
SELECT '== tuning runs';
SELECT * FROM (SELECT (SELECT k FROM tk WHERE tk.id = t.id), game, (SELECT k FROM wk WHERE wk.id = base_ws),
  (SELECT k FROM wk WHERE wk.id = result_ws), k, positions_train, positions_valid, train_loss, valid_loss, data
  FROM tuning_runs t) ORDER BY 1;
SELECT '== tuning epochs';
SELECT * FROM (SELECT (SELECT k FROM tk WHERE tk.id = e.tuning_run_id), epoch, train_loss, valid_loss
  FROM tuning_epochs e) ORDER BY 1, 2;
SELECT '== matches';
SELECT * FROM (SELECT (SELECT k FROM mk WHERE mk.id = m.id), game, (SELECT k FROM wk WHERE wk.id = ws_a),
  (SELECT k FROM wk WHERE wk.id = ws_b), CASE WHEN $mpi_sprt AND sprt_pairs > 0 THEN '-' ELSE games || ' ' || wins
  || ' ' || draws || ' ' || losses || ' ' || penta0 || ' ' || penta1 || ' ' || penta2 || ' ' || penta3 || ' '
  || penta4 || ' ' || elo || ' ' || ifnull(elo_lo, 'NULL') || ' ' || ifnull(elo_hi, 'NULL') || ' ' || llr END, sprt_elo0, sprt_elo1, sprt_alpha,
  sprt_beta, sprt_result, sprt_llr, sprt_pairs FROM matches m) ORDER BY 1;
SELECT '== spsa runs';
SELECT * FROM (SELECT (SELECT k FROM sk WHERE sk.id = s.id), game, (SELECT k FROM wk WHERE wk.id = base_ws),
  (SELECT k FROM wk WHERE wk.id = result_ws), seed, replace(config, char(10), '; '), replace(params, char(10), '; '),
  iterations, pairs, a_const, alpha, gamma, status FROM spsa_runs s) ORDER BY 1;
SELECT '== spsa iterations';
SELECT * FROM (SELECT (SELECT k FROM sk WHERE sk.id = i.spsa_run_id), iter, wins, draws, losses, result, theta
  FROM spsa_iterations i) ORDER BY 1, 2;
SELECT '== tournaments';
SELECT * FROM (SELECT (SELECT k FROM rk WHERE rk.id = t.run_id), name, format, rounds, games_total,
  replace(pdn_out, rtrim(pdn_out, replace(pdn_out, '/', '')), '') FROM tournaments t) ORDER BY 1;
SELECT '== participants';
SELECT * FROM (SELECT (SELECT k FROM rk WHERE rk.id = t.run_id), p.idx, p.name, p.kind, p.spec, p.limits,
  (SELECT k FROM wk WHERE wk.id = p.weight_set) FROM participants p JOIN tournaments t ON t.id = p.tournament_id)
  ORDER BY 1, 2;
SELECT '== trains';
SELECT * FROM (SELECT (SELECT k FROM trk WHERE trk.id = t.id), game, seed, replace(config, char(10), '; '),
  (SELECT k FROM wk WHERE wk.id = start_ws), generations, status FROM trains t) ORDER BY 1;
SELECT '== generations';
SELECT * FROM (SELECT (SELECT k FROM trk WHERE trk.id = g.train_id), generation, stage, parent_generation,
  (SELECT k FROM wk WHERE wk.id = parent_ws), (SELECT k FROM rk WHERE rk.id = selfplay_run),
  (SELECT group_concat(k, ',') FROM (SELECT rk.k FROM rk WHERE ',' || g.data_runs || ',' LIKE '%,' || rk.id || ',%'
  ORDER BY rk.k)), (SELECT k FROM tk WHERE tk.id = tuning_run), (SELECT k FROM wk WHERE wk.id = candidate_ws),
  (SELECT k FROM mk WHERE mk.id = gate_match), CASE WHEN $mpi_sprt THEN '-' ELSE gate_elo || ' ' || ifnull(gate_elo_lo, 'NULL')
  || ' ' || ifnull(gate_elo_hi, 'NULL') || ' ' || gate_games END, accepted, reason, (SELECT k FROM wk WHERE wk.id = best_ws),
  (SELECT k FROM mk WHERE mk.id = ladder_match), ladder_elo, ladder_elo_lo, ladder_elo_hi, ladder_games
  FROM generations g) ORDER BY 1, 2;
SQL
}

# compare REF_DUMP DUMP: sets DIFFS (lines that differ) and DIFF_WHERE (the
# sections they are in, with the first difference).
compare() {
  local d
  d=$(diff "$1" "$2")
  DIFFS=$(grep -c '^[<>]' <<<"$d")
  DIFF_WHERE=""
  [ "$DIFFS" = 0 ] && return
  DIFF_WHERE=$(diff <(awk '/^== /{s=$0} {print s " :: " $0}' "$1") <(awk '/^== /{s=$0} {print s " :: " $0}' "$2") \
    | sed -n 's/^\([<>]\) == \([^:]*\) :: .*/\2/p' | LC_ALL=C sort | uniq -c | awk '{c=$1; $1=""; printf "%s%s %d", (NR>1?",":""), $0, c}')
  FIRST_DIFF=$(grep -m2 '^[<>]' <<<"$d" | cut -c1-220)
}

# ---- processes --------------------------------------------------------------
# Every command runs with CHAOS_TAG in its environment, which mpirun's ranks
# and Hub engines inherit: tagged() finds them all, even one started after
# the kill began.
tagged() {
  local d e
  for d in /proc/[0-9]*; do
    { mapfile -d '' e <"$d/environ"; } 2>/dev/null || continue
    case " ${e[*]} " in *" CHAOS_TAG=$1 "*) echo "${d#/proc/}" ;; esac
  done
  return 0
}
# kill_all PID TAG: SIGKILL to everything tagged, until none is left; then
# PID (the subshell around the command) ends.
kill_all() {
  local pid=$1 tag=$2 p left i
  for ((i = 0; i < 200; i++)); do
    left=$(tagged "$tag")
    [ -z "$left" ] && break
    # shellcheck disable=SC2086
    kill -9 $left 2>/dev/null
    nap 0.02
  done
  wait "$pid" 2>/dev/null
  for p in $left; do proc_alive "$p" && echo "chaos.sh: process $p of tag $tag survives SIGKILL" >&2; done
}

# watch_file FILE N PID: true after FILE's size or time changed N times,
# false when PID ended first.
watch_file() {
  local f=$1 n=$2 pid=$3 last cur seen=0
  last=$(stat -c '%s %y' "$f" 2>/dev/null)
  while proc_alive "$pid"; do
    cur=$(stat -c '%s %y' "$f" 2>/dev/null)
    if [ "$cur" != "$last" ]; then
      last=$cur
      seen=$((seen + 1))
      [ "$seen" -ge "$n" ] && return 0
    fi
    nap 0.005
  done
  return 1
}
# watch_rows DB PID: true once ROWS_SQL's count changed, false when PID ended first.
watch_rows() {
  local db=$1 pid=$2 last cur
  last=$(db_value "$db" "$ROWS_SQL")
  while proc_alive "$pid"; do
    cur=$(db_value "$db" "$ROWS_SQL")
    [ -n "$cur" ] && [ "$cur" != "$last" ] && return 0
    [ -n "$cur" ] && last=$cur
    nap 0.02
  done
  return 1
}

# rnd N: a number in 0..N-1 from the seeded sequence.
rnd() { echo $((RANDOM * 32768 + RANDOM)) | awk -v n="$1" '{ print $1 % n }'; }
ms_text() { printf '%d.%03d' $(($1 / 1000)) $(($1 % 1000)); }

# start NAME DIR TAG: the command in the background (PID), its output in
# $T/NAME/log/out.N and err.N (LOG_ERR), outside DIR (which may be a tmpfs).
RUN_N=0
start() {
  local name=$1 dir=$2 tag=$3
  "argv_$name"
  RUN_N=$((RUN_N + 1))
  mkdir -p "$T/$name/log"
  LOG_ERR="$T/$name/log/err.$RUN_N"
  echo "$dir: ${CMD[*]}" >"$T/$name/log/cmd.$RUN_N"
  # PID is a subshell that waits for the command (so that a kill is reported
  # by it, to /dev/null, not by this script); CHAOS_TAG marks the command.
  (
    cd "$dir" || exit 1
    CHAOS_TAG="$tag" "${CMD[@]}" </dev/null >"$T/$name/log/out.$RUN_N" 2>"$LOG_ERR"
    exit $?
  ) 2>/dev/null &
  PID=$!
}

# run_once NAME DIR: the command to its end; RC its exit status, secs in SECS_MS.
run_once() {
  local t0 t1
  t0=$(date +%s%N)
  start "$1" "$2" "run-$1-$RUN_N-$$"
  wait "$PID"
  RC=$?
  t1=$(date +%s%N)
  SECS_MS=$(((t1 - t0) / 1000000))
}

# ---- the cases --------------------------------------------------------------
FAILED=0
STARTUP_MS=50

# kills NAME REF_DUMP: the command killed KILLS times, then finished; sets K_LINE.
# A command whose rerun, once finished, adds nothing (all but tune: the
# same tune run again after it finished is a new tune, by design). When it
# finishes before KILLS kills, kills() goes on killing reruns of it.
rerunnable() { case "$1" in tune | mpi-tune) return 1 ;; esac; return 0; }

kills() {
  local name=$1 dir="$T/$1/kills" kills=0 starts=0 mode tag n why errors=0 restarts_max finished=0 after=0 note=""
  local t0 last_ms=0
  local -A by=([start]=0 [write]=0 [rows]=0 [time]=0)
  mkdir -p "$dir" && setup "$name" "$dir"
  restarts_max=$((KILLS * 4 + 20))
  local startup=$STARTUP_MS
  case "$name" in mpi-*) startup=1500 ;; esac
  [ "$startup" -gt $((REF_MS / 2 + 1)) ] && startup=$((REF_MS / 2 + 1)) # a kill, not the end
  while :; do
    starts=$((starts + 1))
    if [ "$starts" -gt "$restarts_max" ]; then
      note=", gave up after $restarts_max starts"
      [ "$finished" = 0 ] && errors=$((errors + 1))
      break
    fi
    tag="chaos-$name-$starts-$$"
    t0=$(date +%s%N)
    start "$name" "$dir" "$tag"
    mode=none
    if [ "$kills" -lt "$KILLS" ]; then
      case $(rnd 4) in 0) mode=start ;; 1) mode=write ;; 2) mode=rows ;; 3) mode=time ;; esac
      [ "$name" = egtb ] && [ "$mode" = rows ] && mode=write
      # a rerun of the finished command writes little: kill it within the
      # time the last one took
      [ "$finished" = 1 ] && mode=start && startup=$((last_ms * 3 / 4 + 1))
    fi
    why=""
    case "$mode" in
      start) nap "$(ms_text "$(rnd "$startup")")" && why=start ;;
      time)
        n=$((REF_MS * 2 / (KILLS - kills + 1) + 20))
        [ "$n" -gt $((REF_MS * 3 / 4 + 1)) ] && n=$((REF_MS * 3 / 4 + 1)) # before the end
        nap "$(ms_text "$(rnd "$n")")" && why=time
        ;;
      write)
        n=$(($(rnd 2) + 1))
        # egtb: each change is a table; merge: its one commit writes the log
        case "$name" in egtb | merge) n=1 ;; esac
        if [ "$name" = egtb ]; then watch_file "$dir/eg" "$n" "$PID" && why=write
        else
          # the -wal file appears with the database; wait for it first
          wait_until -p "$PID" -i 0.005 "$name: the -wal file" test -e "$dir/db.sqlite-wal" >/dev/null \
            && watch_file "$dir/db.sqlite-wal" "$n" "$PID" && why=write
        fi
        ;;
      rows) watch_rows "$dir/db.sqlite" "$PID" && why=rows ;;
    esac
    if [ -n "$why" ] && proc_alive "$PID"; then
      kill_all "$PID" "$tag"
      kills=$((kills + 1))
      after=$((after + finished))
      by[$why]=$((by[$why] + 1))
      if [ -f "$dir/db.sqlite" ] && [ "$(sqlite3 "$dir/db.sqlite" 'PRAGMA quick_check' 2>&1)" != ok ]; then
        errors=$((errors + 1))
        echo "  $name: quick_check failed after kill $kills" >&2
      fi
      continue
    fi
    wait "$PID"
    RC=$?
    last_ms=$((($(date +%s%N) - t0) / 1000000))
    if [ "$RC" = 0 ]; then
      finished=1
      if [ "$kills" -ge "$KILLS" ] || ! rerunnable "$name"; then break; fi
      continue
    fi
    errors=$((errors + 1))
    echo "  $name: start $starts exited $RC: $(tail -c 300 "$LOG_ERR")" >&2
  done
  dump "$dir" "$name" >"$dir.dump"
  compare "$T/$name/ref.dump" "$dir.dump"
  K_LINE="$kills kills survived (${by[start]} at start-up, ${by[write]} on a write, ${by[rows]} on a row change, ${by[time]} at a random time"
  [ "$after" -gt 0 ] && K_LINE+="; $after of them on reruns after it had finished"
  K_LINE+="), $DIFFS differences$note"
  [ "$errors" -gt 0 ] && K_LINE+=", $errors failed starts"
  [ "$DIFFS" -gt 0 ] && K_LINE+=" [$DIFF_WHERE ] first: $FIRST_DIFF"
  [ "$DIFFS" = 0 ] && [ "$errors" = 0 ]
}

# two_copies NAME: two copies at once into one folder; sets C_LINE.
two_copies() {
  local name=$1 dir="$T/$1/two" p1 p2 r1 r2
  mkdir -p "$dir" && setup "$name" "$dir"
  start "$name" "$dir" "two-$name-a-$$"
  p1=$PID
  start "$name" "$dir" "two-$name-b-$$"
  p2=$PID
  wait "$p1"
  r1=$?
  wait "$p2"
  r2=$?
  local extra=""
  if [ "$r1" != 0 ] && [ "$r2" != 0 ]; then
    run_once "$name" "$dir"
    extra=", then $RC"
  fi
  dump "$dir" "$name" >"$dir.dump"
  compare "$T/$name/ref.dump" "$dir.dump"
  C_LINE="two copies (exit $r1 and $r2$extra): $DIFFS differences"
  [ "$DIFFS" -gt 0 ] && C_LINE+=" [$DIFF_WHERE ]"
  [ "$DIFFS" = 0 ]
}

# disk_full NAME: the command on a tmpfs too small for it, then on a larger
# one; sets F_LINE.
disk_full() {
  local name=$1 dir="$T/$1/full" need have size msg rc_full
  F_LINE=""
  if [ "$(id -u)" != 0 ]; then F_LINE="disk full: skipped (not root: cannot mount a tmpfs)"; return 0; fi
  mkdir -p "$dir" && setup "$name" "$dir"
  have=$(du -sk "$dir" | cut -f1)
  need=$(du -sk "$T/$name/ref" | cut -f1)
  size=$((have + (need - have) / 2))
  [ "$name" != egtb ] && size=$((size + 48)) # KiB: SQLite's -shm file takes 32
  local stash="$T/$name/full-input"
  rm -rf "$stash" && mv "$dir" "$stash" && mkdir -p "$dir"
  if ! mount -t tmpfs -o "size=${size}k" tmpfs "$dir" 2>"$T/mount.err"; then
    F_LINE="disk full: skipped (mount refused: $(head -c 120 "$T/mount.err"))"
    rm -rf "$dir" && mv "$stash" "$dir"
    return 0
  fi
  MOUNTS+=("$dir")
  cp -a "$stash/." "$dir/" 2>/dev/null
  run_once "$name" "$dir"
  rc_full=$RC
  msg=$(grep -m1 -i -E 'disk full|disk is full|no space' "$LOG_ERR" | cut -c1-160)
  local bad=0 what
  if [ "$rc_full" = 0 ]; then
    what="did not fill (${size} KiB were enough)"
  elif [ -z "$msg" ]; then
    what="exit $rc_full without saying the disk is full: $(tail -c 200 "$LOG_ERR")"
    bad=1
  else
    what="exit $rc_full: $msg"
  fi
  # the files as the full disk holds them, checked on another disk (SQLite
  # could not make its -shm file on the full one)
  if [ -f "$dir/db.sqlite" ]; then
    rm -rf "$T/$name/full-check" && mkdir -p "$T/$name/full-check"
    cp "$dir"/db.sqlite* "$T/$name/full-check/" && rm -f "$T/$name/full-check/db.sqlite-shm"
    if [ "$(sqlite3 "$T/$name/full-check/db.sqlite" 'PRAGMA integrity_check' 2>&1)" != ok ]; then
      what+="; integrity_check failed"
      bad=1
    fi
  fi
  mount -o remount,size=$((need * 4 + 4096))k "$dir" || { F_LINE="disk full: remount failed"; return 1; }
  local tries=0
  RC=1
  while [ "$RC" != 0 ] && [ "$tries" -lt 3 ]; do
    run_once "$name" "$dir"
    tries=$((tries + 1))
  done
  [ "$RC" != 0 ] && { what+="; the resume exited $RC: $(tail -c 200 "$LOG_ERR")"; bad=1; }
  dump "$dir" "$name" >"$dir.dump"
  compare "$T/$name/ref.dump" "$dir.dump"
  F_LINE="disk full ($what), resumed: $DIFFS differences"
  [ "$DIFFS" -gt 0 ] && F_LINE+=" [$DIFF_WHERE ]"
  [ "$DIFFS" = 0 ] && [ "$bad" = 0 ]
}

skipped() { case ",$SKIP," in *",$1,"*) return 0 ;; esac; return 1; }

# The whole run is one function, read before it starts: the script can be
# edited while it runs.
main() {
  echo "chaos: $DAMA, seed $SEED, $KILLS kills a command$([ "$QUICK" = 1 ] && echo ' (quick)')$([ "$MPI" = 1 ] && echo ', MPI runs with mpirun -np 2')"
  make_data
  idx=0
  for name in "${COMMANDS[@]}"; do
    idx=$((idx + 1))
    if [ -n "$ONLY" ]; then case ",$ONLY," in *",$name,"*) ;; *) continue ;; esac; fi
    RANDOM=$((SEED * 1000 + idx))
    mkdir -p "$T/$name/ref"
    setup "$name" "$T/$name/ref"
    run_once "$name" "$T/$name/ref"
    REF_MS=$SECS_MS
    if [ "$RC" != 0 ]; then
      printf '%-15s the reference run failed (exit %s): %s\n' "$name" "$RC" "$(tail -c 300 "$LOG_ERR")"
      FAILED=$((FAILED + 1))
      continue
    fi
    dump "$T/$name/ref" "$name" >"$T/$name/ref.dump"
    line="" ok_cmd=1
    if ! skipped kills; then kills "$name" || ok_cmd=0; line+="$K_LINE"; fi
    if ! skipped two-copies; then two_copies "$name" || ok_cmd=0; line+="; $C_LINE"; fi
    if ! skipped disk-full; then disk_full "$name" || ok_cmd=0; line+="; $F_LINE"; fi
    printf '%-15s %s (reference %d ms)\n' "$name" "${line#; }" "$REF_MS"
    [ "$ok_cmd" = 1 ] || FAILED=$((FAILED + 1))
  done
  [ -n "$KEEP" ] && echo "chaos: folders kept in $T"
  echo "chaos: $FAILED command(s) with differences or failures"
  [ "$FAILED" = 0 ]
}
main; exit

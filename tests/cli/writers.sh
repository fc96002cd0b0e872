#!/usr/bin/env bash
# One writer a run (issue 31). Two copies of each long-running command
# started together (selfplay, match, tune, tournament, spsa, train, egtb
# build, db merge) end with one run and each game once: the second copy is
# refused (exit 4, naming the process that writes the run) or, when it
# started after the first ended, finds the work done and says so. A run
# whose owner lives (a process of this host with the owner's pid and start
# time) is refused for every kind of run; once that process is gone the
# next command takes the run over: a selfplay killed with SIGKILL is
# resumed by the next one, game for game. An owner on another host is
# refused with the way to take over (dama db release). A tune whose result
# equals a stored weight set says so, and never "stored".
# Usage: writers.sh DAMA_BINARY SOURCE_DIR
set -u
. "$(dirname "$0")/lib.sh"
cd "$T"
q() { sqlite3 -cmd '.timeout 30000' "$1" "$2"; }
ONCE="SELECT count(*) = count(DISTINCT run_id || '/' || game_index) FROM games"

# together NAME COMMAND...: two copies started at once; their exit codes in
# rc1 and rc2, their output in NAME.1.out/err and NAME.2.out/err.
together() {
  local n=$1 p1 p2
  shift
  "$@" </dev/null >"$n.1.out" 2>"$n.1.err" &
  p1=$!
  "$@" </dev/null >"$n.2.out" 2>"$n.2.err" &
  p2=$!
  wait "$p1"; rc1=$?
  wait "$p2"; rc2=$?
}

# pair_ok NAME REFUSAL: one copy did the work (exit 0); the other exited 0
# (it came after: checked by the caller) or 4 with REFUSAL and a pid on its
# standard error. Sets second to the copy that did not do the work ("" if
# both exited 0).
pair_ok() {
  local n=$1 want=$2 codes
  second=""
  codes=$(printf '%s\n' "$rc1" "$rc2" | sort | tr '\n' ' ')
  case "$codes" in
    "0 0 ") ok ;;
    "0 4 ")
      ok
      second=2
      [ "$rc1" = 4 ] && second=1
      grep -qE "$want" "$n.$second.err" && ok || bad "$n: the refused copy says: $(head -c 300 "$n.$second.err")"
      ;;
    *) bad "$n: exit codes $rc1 and $rc2 (one 0, the other 0 or 4): $(head -c 300 "$n.1.err") / $(head -c 300 "$n.2.err")" ;;
  esac
}
BUSY_RUN="is being written by process [0-9]+ on this host since 20[0-9-]+T[0-9:]+Z"

# --- selfplay ----------------------------------------------------------------
SP="selfplay --games 60 --seed 5 --nodes 300 --threads 1 --progress 0"
together sp "$DAMA" $SP --db sp.sqlite
pair_ok sp "run 1 $BUSY_RUN"
expect_eq "$(q sp.sqlite "SELECT count(*) || ' ' || status FROM runs")" "1 done" "selfplay twice: runs"
expect_eq "$(q sp.sqlite "SELECT count(*) FROM games")" 60 "selfplay twice: games"
expect_eq "$(q sp.sqlite "$ONCE")" 1 "selfplay twice: each game once"
if [ "$rc1" = 0 ] && [ "$rc2" = 0 ]; then # the later one found them stored
  cat sp.1.out sp.2.out | grep -q "selfplay run 1 already holds these 60 games" && ok || bad "selfplay twice: no second copy said so"
fi
# the same once more: nothing to play, the run stays done
expect_rc 0 "selfplay a third time" "$DAMA" $SP --db sp.sqlite
expect_line out "selfplay run 1 already holds these 60 games (same game, seed and configuration); use another --seed or a larger --games for more"
expect_eq "$(q sp.sqlite "SELECT status FROM runs")" done "a finished run taken and given back"

# --- match (resumes its run: one after the other the second finds it done) ----------
MA="match --db sp.sqlite --a default --b default --pairs 30 --nodes 400 --threads 1 --seed 3 --progress 0"
together ma "$DAMA" $MA
pair_ok ma "run 2 $BUSY_RUN"
expect_eq "$(q sp.sqlite "SELECT count(*) FROM runs WHERE kind = 'match'")" 1 "match twice: match runs"
expect_eq "$(q sp.sqlite "SELECT count(*) FROM matches")" 1 "match twice: matches"
expect_eq "$(q sp.sqlite "SELECT count(*) FROM games WHERE run_id = 2")" 60 "match twice: every game of the match"
expect_eq "$(q sp.sqlite "$ONCE")" 1 "match twice: each game once"

# --- tune (the run is taken before the positions are loaded) ---------------------
# from a deliberately poor set (tests/cli/russian-poor.cfg): 60 small games
# cannot better the compiled-in set on the 6 they hold out, and a tuning that
# betters nothing stores nothing. The file's own weight set is not counted.
cp "$SRC/tests/cli/russian-poor.cfg" poor.cfg
TU="tune --db sp.sqlite --weights poor.cfg --epochs 60 --threads 1 --seed 1"
NWS="SELECT count(*) FROM weight_sets WHERE how NOT LIKE 'file %'"
n_ws=$(q sp.sqlite "$NWS")
together tu "$DAMA" $TU
pair_ok tu "$BUSY_RUN"
tunes=$(q sp.sqlite "SELECT count(*) FROM tuning_runs")
if [ -z "$second" ] && [ "$tunes" = 2 ]; then
  q sp.sqlite "SELECT (SELECT max(created) FROM runs WHERE kind = 'tune') >= (SELECT min(finished) FROM runs WHERE kind = 'tune')" \
    | grep -qx 1 && ok || bad "two tunes at once stored two tuning runs"
else
  expect_eq "$tunes" 1 "tune twice: tuning runs"
  expect_eq "$(q sp.sqlite "SELECT count(*) FROM runs WHERE kind = 'tune'")" 1 "tune twice: tune runs (the refused one left none)"
fi
expect_eq "$(q sp.sqlite "$NWS")" $((n_ws + 1)) "tune twice: one new weight set"

# --- a tune whose result is a stored weight set -------------------------------------
expect_rc 0 "tune again, named" "$DAMA" $TU --name again
ws=$(q sp.sqlite "SELECT max(id) FROM weight_sets")
name=$(q sp.sqlite "SELECT name FROM weight_sets WHERE id = $ws")
parent=$(q sp.sqlite "SELECT parent_id FROM weight_sets WHERE id = $ws")
expect_line out "same weights as weight set $ws '$name' (parent $parent), stored before: no new weight set stored; the name 'again' is not stored (a weight set keeps the name it was first stored with)"
grep -q "stored (parent" "$T/out" && bad "a stored weight set reported as stored: $(cat "$T/out")" || ok
expect_eq "$(q sp.sqlite "$NWS")" $((n_ws + 1)) "tune again: no new weight set"
expect_eq "$(q sp.sqlite "SELECT count(*) FROM weight_sets WHERE name = 'again'")" 0 "tune again: its name was not given to another set"
expect_eq "$(q sp.sqlite "SELECT result_ws FROM tuning_runs ORDER BY id DESC LIMIT 1")" "$ws" "tune again: its result is the stored set"

# --- tournament -------------------------------------------------------------------
TN="tournament --db tn.sqlite --rounds 2 --nodes 300 --concurrency 1 name=A,weights=default name=B,weights=default,nodes=500"
together tn "$DAMA" $TN
pair_ok tn "run 1 $BUSY_RUN"
expect_eq "$(q tn.sqlite "SELECT count(*) FROM runs") $(q tn.sqlite "SELECT count(*) FROM tournaments")" "1 1" "tournament twice: runs and tournaments"
expect_eq "$(q tn.sqlite "SELECT count(*) FROM games")" 4 "tournament twice: games"
expect_eq "$(q tn.sqlite "$ONCE")" 1 "tournament twice: each game once"
expect_eq "$(q tn.sqlite "SELECT status FROM runs")" done "tournament twice: run done"

# --- spsa ---------------------------------------------------------------------------
PS="spsa --db ps.sqlite --iterations 6 --pairs 2 --nodes 200 --threads 1 --seed 4"
together ps "$DAMA" $PS
pair_ok ps "SPSA run 1 $BUSY_RUN"
expect_eq "$(q ps.sqlite "SELECT count(*) || ' ' || max(status) FROM spsa_runs")" "1 done" "spsa twice: runs"
expect_eq "$(q ps.sqlite "SELECT count(*) || ' ' || count(DISTINCT iter) FROM spsa_iterations")" "6 6" "spsa twice: iterations"

# --- train --------------------------------------------------------------------------
TR="train --db tr.sqlite --generations 1 --games-per-gen 40 --nodes 150 --gate-pairs 2 --seed 5 --threads 1"
together tr "$DAMA" $TR
pair_ok tr "train 1 $BUSY_RUN"
expect_eq "$(q tr.sqlite "SELECT count(*) || ' ' || max(status) FROM trains")" "1 done" "train twice: trains"
expect_eq "$(q tr.sqlite "SELECT count(*) FROM runs WHERE kind = 'selfplay'")" 1 "train twice: self-play runs"
expect_eq "$(q tr.sqlite "SELECT count(*) FROM generations")" 2 "train twice: generations"
expect_eq "$(q tr.sqlite "$ONCE")" 1 "train twice: each game once"

# --- egtb build (a lock on the table directory) ---------------------------------------
together eg "$DAMA" egtb build --material 2k-1k --dir eg
pair_ok eg "the tables in eg are being built by process [0-9]+ on host .* since "
expect_rc 0 "the tables built twice at once verify" "$DAMA" egtb verify --dir eg
ls eg/*.tmp >/dev/null 2>&1 && bad "a half-written table was left: $(ls eg)" || ok

# --- db merge: one transaction each, the second adds nothing ----------------------------
for r in 0 1 2; do
  "$DAMA" selfplay --games 12 --nodes 200 --seed 5 --progress 0 --threads 1 --db s$r.sqlite --shard $r/3 >/dev/null 2>&1 \
    || bad "shard $r"
done
together mg "$DAMA" db merge s0.sqlite s1.sqlite s2.sqlite --into m.sqlite
expect_eq "$rc1 $rc2" "0 0" "two merges at once"
expect_eq "$(q m.sqlite "SELECT count(*) FROM runs") $(q m.sqlite "SELECT count(*) FROM games")" "1 12" "merged twice: runs and games"
expect_eq "$(q m.sqlite "$ONCE")" 1 "merged twice: each game once"
cat mg.1.out mg.2.out | grep -q "12 new games (0 already there)" && cat mg.1.out mg.2.out | grep -q "0 new games (12 already there)" \
  && ok || bad "the merges' summaries: $(cat mg.1.out mg.2.out)"

# --- a live owner refuses every kind of run; once it is gone, it is taken over -------------
sleep 600 &
holder=$!
read -r line </proc/$holder/stat
f=(${line##*) })
start=${f[19]}
host=$(hostname)
own() { # DB TABLE ID: the holder writes that row now
  q "$1" "UPDATE $2 SET status = 'running', owner_pid = $holder, owner_host = '$host', owner_start = $start WHERE id = $3"
}
own sp.sqlite runs 1
expect_err 4 "run 1 is being written by process $holder on this host" "$DAMA" $SP --games 80 --db sp.sqlite
expect_eq "$(q sp.sqlite "SELECT count(*) FROM games WHERE run_id = 1")" 60 "refused selfplay played nothing"
own tn.sqlite runs 1
expect_err 4 "run 1 is being written by process $holder" "$DAMA" $TN
own ps.sqlite spsa_runs 1
expect_err 4 "SPSA run 1 is being written by process $holder" "$DAMA" $PS
own tr.sqlite trains 1
expect_err 4 "train 1 is being written by process $holder" "$DAMA" $TR --generations 2
expect_err 4 "alive on this host: stop that process instead" "$DAMA" db release tr.sqlite train:1
own m.sqlite runs 1
expect_err 4 "shard s0.sqlite: target run 1 is being written by process $holder" "$DAMA" db merge s0.sqlite --into m.sqlite
kill -9 $holder
wait $holder 2>/dev/null
expect_rc 0 "selfplay after its owner died" "$DAMA" $SP --games 80 --db sp.sqlite
expect_eq "$(q sp.sqlite "SELECT count(*) || ' ' || status FROM games JOIN runs r ON r.id = run_id WHERE run_id = 1")" "80 done" "taken-over selfplay"
expect_rc 0 "tournament after its owner died" "$DAMA" $TN
expect_eq "$(q tn.sqlite "SELECT count(*) || ' ' || max(status) FROM runs") $(q tn.sqlite "SELECT count(*) FROM games")" "1 done 4" "taken-over tournament"
expect_rc 0 "spsa after its owner died" "$DAMA" $PS
expect_eq "$(q ps.sqlite "SELECT count(*) || ' ' || max(status) FROM spsa_runs")" "1 done" "taken-over spsa"
expect_rc 0 "train after its owner died" "$DAMA" $TR --generations 2
expect_eq "$(q tr.sqlite "SELECT count(*) || ' ' || max(status) FROM trains")" "1 done" "taken-over train"
expect_eq "$(q tr.sqlite "$ONCE")" 1 "taken-over train: each game once"
expect_rc 0 "merge after the owner died" "$DAMA" db merge s0.sqlite --into m.sqlite

# --- an owner on another host: refused, released, taken over -----------------------------
q sp.sqlite "UPDATE runs SET status = 'running', owner_host = 'elsewhere.example' WHERE id = 1"
expect_err 4 "on host elsewhere.example since " "$DAMA" $SP --games 90 --db sp.sqlite
grep -qF "take over with: dama db release sp.sqlite run:1" "$T/err" && ok || bad "no way to take over: $(cat "$T/err")"
expect_rc 0 "db release" "$DAMA" db release sp.sqlite run:1
expect_line out "sp.sqlite: run:1 released (its owner was process $(q sp.sqlite "SELECT owner_pid FROM runs WHERE id = 1") on elsewhere.example since $(q sp.sqlite "SELECT owner_since FROM runs WHERE id = 1")); the same command takes it over"
expect_rc 0 "db release again" "$DAMA" db release sp.sqlite run:1
expect_line out "sp.sqlite: run:1 is not running: nothing to release"
expect_rc 2 "db release of a bad name" "$DAMA" db release sp.sqlite run:x
expect_err 2 "dama db release: 'foo:1': expected run:ID, train:ID or spsa:ID" "$DAMA" db release sp.sqlite foo:1
expect_rc 1 "db release of no such run" "$DAMA" db release sp.sqlite run:99
# one that fails does not stop the others: each is tried, the exit status is the first failure's
q sp.sqlite "UPDATE runs SET status = 'running', owner_host = 'elsewhere.example' WHERE id = 1"
expect_rc 1 "db release: no such run, then one to release" "$DAMA" db release sp.sqlite run:99 run:1
grep -q "^sp.sqlite: run:1 released" "$T/out" && ok || bad "db release stopped at the first failure: $(cat "$T/out" "$T/err")"
expect_rc 0 "selfplay after the release" "$DAMA" $SP --games 90 --db sp.sqlite
expect_eq "$(q sp.sqlite "SELECT count(*) FROM games WHERE run_id = 1") $(q sp.sqlite "$ONCE")" "90 1" "released run resumed"

# --- SIGKILL: the next copy takes the run over, game for game ------------------------------
KP="selfplay --games 400 --seed 8 --nodes 300 --threads 1 --batch 4 --progress 0"
"$DAMA" $KP --db k.sqlite >k1.out 2>&1 &
first=$!
wait_until -p $first "the first copy stored games" at_least k.sqlite "SELECT count(*) FROM games" 8
kill -9 $first
wait $first 2>/dev/null
had=$(q k.sqlite "SELECT count(*) FROM games")
expect_rc 0 "the second copy after a SIGKILL" "$DAMA" $KP --db k.sqlite
grep -q "^selfplay russian: run 1 resumed, 400 games ($had stored)" "$T/err" "$T/out" && ok || bad "not resumed: $(head -c 300 "$T/err")"
expect_eq "$(q k.sqlite "SELECT count(*) || ' ' || max(status) || ' ' || max(owner_pid) FROM runs")" "1 done $(q k.sqlite "SELECT owner_pid FROM runs")" "taken over"
"$DAMA" $KP --db k2.sqlite >/dev/null 2>&1 || bad "an uninterrupted run"
G="SELECT group_concat(game_index || result || movetext, ';') FROM (SELECT * FROM games ORDER BY game_index)"
[ "$(q k.sqlite "$G")" = "$(q k2.sqlite "$G")" ] && ok || bad "the killed and resumed run differs from an uninterrupted one"

# a header that already holds the bytes is left alone (rewritten, its new time rebuilt all that includes
# it); other weights rewrite it
"$DAMA" export --weights default --out "$T/same.h" >/dev/null 2>&1 || bad "export to same.h"
touch -d '2001-01-01 00:00:00' "$T/same.h"
old=$(stat -c %Y "$T/same.h")
"$DAMA" export --weights default --out "$T/same.h" --force >/dev/null 2>&1 || bad "export again"
[ "$(stat -c %Y "$T/same.h")" = "$old" ] && ok || bad "an identical header was rewritten"
"$DAMA" export --weights "$SRC/configs/weights/russian-start.cfg" --out "$T/same.h" --force >/dev/null 2>&1 || bad "export other weights"
[ "$(stat -c %Y "$T/same.h")" != "$old" ] && ok || bad "a header of other weights was not written"

finish writers

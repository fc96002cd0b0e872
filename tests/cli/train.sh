#!/usr/bin/env bash
# dama train on a tiny scale: gated generations killed midway and resumed
# (completed stages not redone), the generations table checked with sqlite3,
# a gate that fails leaving the best unchanged, a candidate equal to its
# parent rejected without a match, the ladder, and export --weights best.
# Usage: train.sh DAMA_BINARY SOURCE_DIR
set -u
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1
q() { sqlite3 "$T/$1" "$2"; }

# Tiny generations; the gate SPRT [-400, -200] passes any candidate about
# as strong as its parent (H1 after the first 20 pairs), so this train
# accepts and climbs the ladder. Generation 0 is a deliberately poor set
# (tests/cli/russian-poor.cfg): from the compiled-in one, whether a tuning
# on 20 games betters it on the two it holds out is their chance.
TINY=(--game russian --weights "$SRC/tests/cli/russian-poor.cfg" --games-per-gen 20 --nodes 200 --epochs 40 --lr 5
  --gate-pairs 24 --ladder-pairs 8 --threads 1 --progress 0)
PASS=(--elo0 -400 --elo1 -200)

# ---- killed midway (kill -9 while generation 2 plays its self-play games,
# generation 1 complete), then resumed ----
"$DAMA" train --db "$T/a.sqlite" --generations 2 "${TINY[@]}" "${PASS[@]}" >"$T/a1.out" 2>"$T/a1.err" &
pid=$!
wait_until -p "$pid" -i 0.02 "generation 2's self-play running" \
  at_least "$T/a.sqlite" "SELECT count(*) = 2 AND sum(status = 'running') = 1 FROM runs WHERE kind = 'selfplay'" 1
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
[ "$(q a.sqlite 'PRAGMA integrity_check')" = ok ] && ok || bad "integrity after kill -9"
sp1=$(q a.sqlite "SELECT selfplay_run FROM generations WHERE generation = 1")
tr1=$(q a.sqlite "SELECT tuning_run FROM generations WHERE generation = 1")
sp2=$(q a.sqlite "SELECT max(id) FROM runs WHERE kind = 'selfplay'")
n2=$(q a.sqlite "SELECT count(*) FROM games WHERE run_id = $sp2")
[ -n "$sp1" ] && [ -n "$tr1" ] && ok || bad "generation 1 not recorded before the kill: $(tail -3 "$T/a1.err")"
[ "$(q a.sqlite "SELECT stage FROM generations WHERE generation = 2")" = selfplay ] && [ "$n2" -lt 20 ] && ok || bad "the kill did not land in generation 2's self-play ($n2 games): $(cat "$T/a1.out")"
"$DAMA" train --db "$T/a.sqlite" --generations 2 "${TINY[@]}" "${PASS[@]}" >"$T/a2.out" 2>"$T/a2.err"
rc=$?
[ "$rc" = 0 ] && ok || bad "resumed train exited $rc: $(tail -3 "$T/a2.err")"
grep -q "resumed" "$T/a2.out" && ok || bad "resume not reported: $(head -2 "$T/a2.out")"
grep -q '^note: --gate-pairs' "$T/a2.err" && bad "a note on gates of 24 pairs: $(grep '^note' "$T/a2.err")" || ok
# gates below the SPRT's first decision (20 pairs) can accept nothing: said at once
"$DAMA" train --db "$T/small.sqlite" --generations 1 --games-per-gen 2 --nodes 50 --gate-pairs 4 --ladder-pairs 1 \
  --threads 1 --progress 0 >/dev/null 2>"$T/small.err"
expect_eq "$(head -1 "$T/small.err")" "note: --gate-pairs 4 is below 20: the gate's SPRT decides no sooner than 20 pairs, so no generation can pass its gate (nothing is exported)" "small gates said"
[ "$(q a.sqlite "SELECT count(*) FROM trains")" = 1 ] && ok || bad "the rerun made a second train"
[ "$(q a.sqlite "SELECT status FROM trains")" = done ] && ok || bad "train not done"
[ "$(q a.sqlite "SELECT count(*) FROM generations")" = 3 ] && ok || bad "expected generations 0..2"
[ "$(q a.sqlite "SELECT count(*) FROM generations WHERE stage != 'done'")" = 0 ] && ok || bad "unfinished generations"
# completed stages are not redone: one self-play run per generation, gen 1's
# self-play run and tuning run kept
[ "$(q a.sqlite "SELECT count(*) FROM runs WHERE kind = 'selfplay'")" = 2 ] && ok || bad "self-play redone: $(q a.sqlite "SELECT count(*) FROM runs WHERE kind = 'selfplay'") runs"
[ "$(q a.sqlite "SELECT selfplay_run FROM generations WHERE generation = 1")" = "$sp1" ] && ok || bad "generation 1's self-play run changed"
[ "$(q a.sqlite "SELECT selfplay_run FROM generations WHERE generation = 2")" = "$sp2" ] && ok || bad "generation 2's self-play run was not resumed"
grep -q "run $sp2 resumed" "$T/a2.err" && ok || bad "self-play resume not reported: $(grep selfplay "$T/a2.err" | head -2)"
[ "$(q a.sqlite "SELECT tuning_run FROM generations WHERE generation = 1")" = "$tr1" ] && ok || bad "generation 1 re-tuned"
[ "$(q a.sqlite "SELECT count(*) FROM runs WHERE kind = 'tune'")" = 2 ] && ok || bad "tuning redone: $(q a.sqlite "SELECT count(*) FROM runs WHERE kind = 'tune'") tune runs"
[ "$(q a.sqlite "SELECT count(*) FROM runs WHERE status = 'running'")" = 0 ] && ok || bad "runs left running"
# lineage: every generation after 0 names its parent, data, tuning run; a
# candidate's weight set descends from the parent it was tuned from
[ "$(q a.sqlite "SELECT count(*) FROM generations WHERE generation > 0 AND (parent_ws IS NULL OR selfplay_run IS NULL OR data_runs IS NULL OR tuning_run IS NULL OR candidate_ws IS NULL OR accepted IS NULL OR reason IS NULL OR best_ws IS NULL)")" = 0 ] && ok || bad "generation rows with missing lineage"
[ "$(q a.sqlite "SELECT data_runs FROM generations WHERE generation = 2")" = "$(q a.sqlite "SELECT group_concat(selfplay_run, ',') FROM (SELECT selfplay_run FROM generations WHERE generation IN (1, 2) ORDER BY generation)")" ] && ok || bad "generation 2 not tuned on the window of generations 1-2"
[ "$(q a.sqlite "SELECT count(*) FROM generations g JOIN weight_sets w ON w.id = g.candidate_ws WHERE g.generation > 0 AND g.candidate_ws != g.parent_ws AND w.parent_id != g.parent_ws")" = 0 ] && ok || bad "candidate weight set without its parent as lineage"
# a gated, accepted generation: SPRT H1 in its gate match, a ladder match
# against generation 0, and it is the best from then on
acc=$(q a.sqlite "SELECT count(*) FROM generations WHERE generation > 0 AND accepted = 1")
[ "$acc" -ge 1 ] && ok || bad "no generation passed the easy gate: $(cat "$T/a2.out")"
[ "$(q a.sqlite "SELECT count(*) FROM generations g JOIN matches m ON m.id = g.gate_match WHERE g.accepted = 1 AND g.generation > 0 AND (m.sprt_result IS NOT 'H1' OR m.ws_a != g.candidate_ws OR m.ws_b != g.parent_ws)")" = 0 ] && ok || bad "an accepted generation without an H1 gate match of candidate vs parent"
[ "$(q a.sqlite "SELECT count(*) FROM generations g JOIN matches m ON m.id = g.ladder_match WHERE g.accepted = 1 AND g.generation > 0 AND m.ws_b = (SELECT candidate_ws FROM generations WHERE generation = 0) AND m.games = 16 AND g.ladder_elo IS NOT NULL")" = "$acc" ] && ok || bad "accepted generations without a ladder match of 8 pairs against generation 0"
[ "$(q a.sqlite "SELECT count(*) FROM generations g WHERE generation > 0 AND best_ws != CASE WHEN accepted = 1 THEN candidate_ws ELSE parent_ws END")" = 0 ] && ok || bad "best_ws is not the accepted candidate or the parent"
[ "$(q a.sqlite "SELECT count(*) FROM generations g JOIN generations p ON p.train_id = g.train_id AND p.generation = g.generation - 1 WHERE g.parent_ws != p.best_ws")" = 0 ] && ok || bad "a generation did not start from the best weights so far"
best=$(q a.sqlite "SELECT candidate_ws FROM generations WHERE accepted = 1 ORDER BY generation DESC LIMIT 1")
grep -q "best: generation .* (weight set $best)" "$T/a2.out" && ok || bad "ladder table does not name the best: $(tail -4 "$T/a2.out")"
"$DAMA" train --db "$T/a.sqlite" --game russian --ladder >"$T/ladder.out" 2>&1 && ok || bad "--ladder failed: $(cat "$T/ladder.out")"
[ "$(grep -c '^ *[0-9]' "$T/ladder.out")" = 3 ] && ok || bad "--ladder prints 3 generation rows: $(cat "$T/ladder.out")"
# a generation not finished (as a Ctrl-C in its tuning leaves it): no candidate ('-', not 0), and its
# stage in parentheses where its verdict will be
cp "$T/a.sqlite" "$T/open.sqlite"
q open.sqlite "UPDATE generations SET accepted = NULL, stage = 'tune', candidate_ws = NULL, reason = NULL
  WHERE generation = (SELECT max(generation) FROM generations)" >/dev/null
"$DAMA" train --db "$T/open.sqlite" --game russian --ladder >"$T/ladder2.out" 2>&1 && ok || bad "--ladder of an open train failed"
grep -q '^ *2 *[0-9]* *- .* (tune) ' "$T/ladder2.out" && ok || bad "an open generation's row: $(tail -1 "$T/ladder2.out")"
# a train of another game than the --game given is named as what it is, not printed as if of that game
expect_err 1 "dama train: train 1 is a russian train, not turkish" "$DAMA" train --db "$T/a.sqlite" --game turkish --ladder --train 1
expect_err 2 "dama train: --generations does nothing with --ladder (it prints a stored train)" \
  "$DAMA" train --db "$T/a.sqlite" --ladder --generations 5
expect_err 1 "train 1 is a russian train, not turkish (give --game russian)" \
  "$DAMA" export --db "$T/a.sqlite" --game turkish --weights train:1 --out -
# a gate or ladder won (or lost) by every game: its Elo is not estimable,
# said so in --ladder and the report, never "inf" (a copy of the database)
cp "$T/a.sqlite" "$T/inf.sqlite"
sqlite3 "$T/inf.sqlite" "UPDATE generations SET gate_elo = 9e999, gate_elo_lo = 50, gate_elo_hi = 9e999, \
  ladder_elo = -9e999, ladder_elo_lo = -9e999, ladder_elo_hi = -9e999 WHERE generation = 1"
"$DAMA" train --db "$T/inf.sqlite" --game russian --ladder >"$T/inf.out" 2>&1 && ok || bad "--ladder (inf): $(cat "$T/inf.out")"
grep -qi "inf\b" "$T/inf.out" && bad "--ladder prints inf: $(cat "$T/inf.out")" || ok
grep -q "^ *1 .*not estimable (100%) .*not estimable (0%)" "$T/inf.out" && ok || bad "--ladder (inf): $(cat "$T/inf.out")"
"$DAMA" report --db "$T/inf.sqlite" -o "$T/inf.html" >/dev/null 2>&1 && ok || bad "report (inf)"
grep -q "not estimable (score 100%)</td><td[^>]*>&gt; 50.0, upper end not estimable" "$T/inf.html" && ok ||
  bad "report (inf): $(grep -o '.\{80\}estimable.\{80\}' "$T/inf.html" | head -3)"
grep -q ">[+-]inf<" "$T/inf.html" && bad "the report prints inf" || ok
# export --weights best: the best accepted generation's weights
"$DAMA" export --db "$T/a.sqlite" --game russian --weights best --format json --out best.json >/dev/null 2>&1 && ok || bad "export --weights best failed"
"$DAMA" export --db "$T/a.sqlite" --game russian --weights "db:$best" --format json --out ws.json >/dev/null 2>&1
cmp -s best.json ws.json && ok || bad "export --weights best is not weight set $best"
"$DAMA" export --db "$T/a.sqlite" --game russian --weights train:1 --format json --out t1.json >/dev/null 2>&1
cmp -s best.json t1.json && ok || bad "export --weights train:1 differs from best"
"$DAMA" export --db "$T/a.sqlite" --game russian --weights train:9 --format json --out t9.json 2>"$T/t9.err"
[ $? = 1 ] && grep -q "no russian train 9" "$T/t9.err" && ok || bad "train:9: $(cat "$T/t9.err")"
# rerunning a finished train does nothing new; a larger --generations extends it
runs_before=$(q a.sqlite "SELECT count(*) FROM runs")
"$DAMA" train --db "$T/a.sqlite" --generations 2 "${TINY[@]}" "${PASS[@]}" >"$T/a3.out" 2>&1
[ "$(q a.sqlite "SELECT count(*) FROM runs")" = "$runs_before" ] && [ "$(grep -c '^generation' "$T/a3.out")" = 0 ] && ok || bad "a finished train ran stages again: $(grep '^generation' "$T/a3.out")"

# ---- a gate that fails: SPRT [200, 400] cannot pass; the best never moves ----
"$DAMA" train --db "$T/b.sqlite" --generations 2 "${TINY[@]}" --elo0 200 --elo1 400 >"$T/b.out" 2>"$T/b.err"
rc=$?
[ "$rc" = 0 ] && ok || bad "failing-gate train exited $rc: $(tail -3 "$T/b.err")"
g0=$(q b.sqlite "SELECT candidate_ws FROM generations WHERE generation = 0")
[ "$(q b.sqlite "SELECT count(*) FROM generations WHERE generation > 0 AND accepted = 0 AND best_ws = $g0 AND parent_ws = $g0")" = 2 ] && ok || bad "a failed gate moved the best: $(q b.sqlite 'SELECT generation, accepted, parent_ws, best_ws FROM generations')"
[ "$(q b.sqlite "SELECT count(*) FROM generations WHERE ladder_match IS NOT NULL")" = 0 ] && ok || bad "a rejected generation was laddered"
[ "$(q b.sqlite "SELECT count(*) FROM generations g JOIN matches m ON m.id = g.gate_match WHERE m.sprt_result = 'H1'")" = 0 ] && ok || bad "an H1 gate in the failing train"
"$DAMA" export --db "$T/b.sqlite" --game russian --weights best --format json --out b.json >/dev/null 2>&1
"$DAMA" export --db "$T/b.sqlite" --game russian --weights "db:$g0" --format json --out b0.json >/dev/null 2>&1
cmp -s b.json b0.json && ok || bad "export --weights best after failed gates is not generation 0"
# the default --weights tuned is the newest candidate, gated or not: exported as asked, with a warning naming the gate
"$DAMA" export --db "$T/b.sqlite" --game russian --format json --out bt.json >/dev/null 2>"$T/bt.err"
cand=$(q b.sqlite "SELECT candidate_ws FROM generations WHERE generation = 2")
grep -q "^dama export: warning: weight set $cand is train 1's generation 2 candidate, which failed its gate (Elo [-+][0-9.]* against its parent): exported as asked; --weights best takes the best accepted generation$" "$T/bt.err" \
  && ok || bad "export of a rejected candidate: $(cat "$T/bt.err")"
"$DAMA" export --db "$T/b.sqlite" --game russian --weights best --format json --out bb.json >/dev/null 2>"$T/bb.err"
grep -q warning "$T/bb.err" && bad "export --weights best warned: $(cat "$T/bb.err")" || ok

# ---- a candidate equal to its parent (no epochs): rejected without a match;
# self-play from a fixed population (for models of many weights: pairs mode
# stores two weight sets per game pair) ----
"$DAMA" train --db "$T/c.sqlite" --generations 1 "${TINY[@]}" "${PASS[@]}" --epochs 0 --perturb population --population 4 >"$T/c.out" 2>"$T/c.err"
[ "$(q c.sqlite "SELECT count(*) FROM run_weight_sets WHERE run_id = (SELECT selfplay_run FROM generations WHERE generation = 1)")" = 4 ] && ok || bad "--perturb population --population 4: $(q c.sqlite "SELECT count(*) FROM run_weight_sets") members; $(tail -2 "$T/c.err")"
[ "$(q c.sqlite "SELECT accepted || ' ' || (gate_match IS NULL) || ' ' || (candidate_ws = parent_ws) FROM generations WHERE generation = 1")" = "0 1 1" ] && ok || bad "equal candidate: $(q c.sqlite 'SELECT * FROM generations')"
grep -q "equals its parent" "$T/c.out" && ok || bad "equal candidate not reported: $(cat "$T/c.out")"
# a tuning whose first epoch overshoots and --patience 1 ends: the generation's reason says what to change
"$DAMA" train --db "$T/d.sqlite" --generations 1 "${TINY[@]}" "${PASS[@]}" --lr 500 --patience 1 >"$T/d.out" 2>"$T/d.err"
expect_eq "$(q d.sqlite "SELECT accepted || ' ' || (gate_match IS NULL) || ' ' || reason FROM generations WHERE generation = 1")" \
  "0 1 the candidate equals its parent (no epoch's held-out loss fell below the start's within --patience 1: give smaller steps, --lr and --pattern-lr, a larger --patience, or more games, --games-per-gen)" \
  "an overshooting tuning's reason"

# ---- bad input ----
"$DAMA" train --db "$T/a.sqlite" --games-per-gen 21 >/dev/null 2>"$T/e.err"
[ $? = 2 ] && [ "$(cat "$T/e.err")" = "dama train: --games-per-gen 21: must be an even number (pairs with colours swapped)" ] && ok || bad "odd --games-per-gen: $(cat "$T/e.err")"
"$DAMA" train --db "$T/a.sqlite" --perturb each >/dev/null 2>"$T/e.err"
[ $? = 2 ] && grep -q "perturb must be 'pairs' or 'population', not 'each'" "$T/e.err" && ok || bad "bad --perturb: $(cat "$T/e.err")"
"$DAMA" train --db "$T/a.sqlite" --elo0 5 --elo1 5 >/dev/null 2>"$T/e.err"
[ $? = 2 ] && [ "$(cat "$T/e.err")" = "dama train: --elo1 5: must be above --elo0 (5)" ] && ok || bad "elo1 <= elo0: $(cat "$T/e.err")"
"$DAMA" train --db "$T/a.sqlite" --game turkish --ladder >/dev/null 2>"$T/e.err"
[ $? = 1 ] && grep -q "no turkish train" "$T/e.err" && ok || bad "--ladder without a train: $(cat "$T/e.err")"
"$DAMA" train --db "$T/missing.sqlite" --ladder >/dev/null 2>"$T/e.err"
[ $? = 1 ] && ok || bad "--ladder on a missing database: $(cat "$T/e.err")"
[ ! -e "$T/missing.sqlite" ] && ok || bad "--ladder created a database"

# ---- killed after generation 2's tuning and matches stored their results,
# before the generation row moved on (its stage back to 'tune'): the rerun
# takes the stored tuning run and matches, and stores no second run ----
runs=$(q a.sqlite "SELECT count(*) FROM runs")
before=$(q a.sqlite "SELECT tuning_run, candidate_ws, gate_match, ladder_match, accepted, best_ws FROM generations WHERE generation = 2")
q a.sqlite "UPDATE generations SET stage = 'tune', tuning_run = NULL, candidate_ws = NULL, gate_match = NULL,
  ladder_match = NULL, accepted = NULL, best_ws = NULL WHERE generation = 2; UPDATE trains SET status = 'running'"
"$DAMA" train --db "$T/a.sqlite" --generations 2 "${TINY[@]}" "${PASS[@]}" >"$T/a4.out" 2>"$T/a4.err"
[ $? = 0 ] && ok || bad "rerun after the stages stored: $(tail -3 "$T/a4.err")"
expect_eq "$(q a.sqlite "SELECT count(*) FROM runs")" "$runs" "runs after the rerun"
expect_eq "$(q a.sqlite "SELECT tuning_run, candidate_ws, gate_match, ladder_match, accepted, best_ws FROM generations
  WHERE generation = 2")" "$before" "generation 2 after the rerun"

# two trains of one database share a self-play run (same game, seed, search and weights): each
# generation tunes on its own games only (the 4-game train tuned on the 12 the other had stored)
SHARE=(--db "$T/share.sqlite" --generations 1 --nodes 200 --threads 1 --gate-pairs 2 --ladder-pairs 1 --epochs 2 --progress 0)
"$DAMA" train "${SHARE[@]}" --games-per-gen 12 >"$T/share12.out" 2>&1
"$DAMA" train "${SHARE[@]}" --games-per-gen 4 >"$T/share4.out" 2>&1
expect_eq "$(q share.sqlite "SELECT count(DISTINCT selfplay_run) || ' ' || count(*) FROM generations WHERE generation = 1")" "1 2" \
  "two trains, one self-play run"
expect_eq "$(q share.sqlite "SELECT group_concat(substr(data, instr(data, 'g.game_index')), ' | ') FROM
  (SELECT data FROM tuning_runs ORDER BY id)")" "g.game_index < 12 | g.game_index < 4" "each train's tuning names its games"
expect_eq "$(q share.sqlite "SELECT (SELECT positions_train FROM tuning_runs ORDER BY id LIMIT 1) >
  (SELECT positions_train FROM tuning_runs ORDER BY id DESC LIMIT 1)")" 1 "the 4-game train tuned on fewer positions"

# a train interrupted, then one with other options: a new train, and the note names the one left
TI=(--db "$T/ti.sqlite" --generations 1 --nodes 300 --threads 1 --gate-pairs 2 --ladder-pairs 1 --epochs 2 --progress 0)
"$DAMA" train "${TI[@]}" --games-per-gen 400 >"$T/ti1.out" 2>&1 &
pid=$!
wait_until -p "$pid" -i 0.05 "the train's self-play running" \
  at_least "$T/ti.sqlite" "SELECT count(*) FROM games" 1
kill -INT "$pid"
wait "$pid"
expect_eq "$?" 3 "train interrupted: exit 3"
"$DAMA" train "${TI[@]}" --games-per-gen 4 >"$T/ti2.out" 2>&1
grep -qxF "note: train 1 of russian, interrupted, was started with other options: this is a new train (train 2); the options of train 1 resume that one" \
  "$T/ti2.out" && ok || bad "no note on the interrupted train: $(head -3 "$T/ti2.out")"
grep -q "^note: train" "$T/share4.out" && bad "a note beside a done train: $(grep '^note' "$T/share4.out")" || ok

finish "train.sh"

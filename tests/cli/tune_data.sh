#!/usr/bin/env bash
# dama tune's data options (README "Tuning data"): --resolve replaces
# positions with a capture pending by their capture line's quiet leaf,
# --dedupe merges equal training positions, --per-game and --share sample
# the training set; each says how many it touched, the validation set stays
# whole, and every result is the same run to run.
# Usage: tune_data.sh DAMA_BINARY SOURCE_DIR
set -u
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1
num() { sed -n "s/.*$1.*/\1/p" "$2" | head -1; }

"$DAMA" selfplay --db a.sqlite --games 40 --nodes 300 --threads 2 --progress 0 >/dev/null 2>&1 || bad "selfplay"
tune() { "$DAMA" tune --db a.sqlite --epochs 3 --batch 512 --threads 2 "$@"; }

# The first tuning starts from a deliberately poor set (tests/cli/russian-poor.cfg,
# stored as a weight set): a fit on these 40 games always betters it, however
# good the compiled-in set the games were played with.
tune --weights "$SRC/tests/cli/russian-poor.cfg" >base.err 2>&1 || bad "plain tune: $(tail -2 base.err)"
poor=$(sqlite3 a.sqlite "SELECT base_ws FROM tuning_runs WHERE id = 1")
expect_eq "$(sqlite3 a.sqlite "SELECT name FROM weight_sets WHERE id = ${poor:-0}")" from-file "the poor start's weight set"
# the log has epoch 0 and the last (3: not a multiple of 25), no other
expect_eq "$(grep -o '^epoch *[0-9]*' base.err | tr -s ' ' | tr '\n' ,)" "epoch 0,epoch 3," "epochs in the log"
valid=$(num 'tuning run [0-9]*: .*valid \([0-9.]*\) ->.*' base.err)
train=$(num 'train \([0-9]*\) ->' base.err)

# --resolve: some positions were resolved, and more positions load
tune --resolve >r.err 2>&1 || bad "--resolve: $(tail -2 r.err)"
resolved=$(num 'resolve: \([0-9]*\) positions' r.err)
[ -n "$resolved" ] && [ "$resolved" -gt 0 ] && ok || bad "--resolve resolved '$resolved' positions: $(cat r.err)"
n0=$(num 'tune russian: \([0-9]*\) positions' base.err)
n1=$(num 'tune russian: \([0-9]*\) positions' r.err)
[ "$n1" = $((n0 + resolved)) ] && ok || bad "--resolve loaded $n1 positions, expected $n0 + $resolved"

# --dedupe: equal positions (openings) merged; with K given, the validation
# loss at the start is the plain one (the validation set is whole)
tune --k 0.8 >base.err 2>&1 || bad "plain tune, K given: $(tail -2 base.err)"
tune --k 0.8 --dedupe >d.err 2>&1 || bad "--dedupe: $(tail -2 d.err)"
merged=$(num 'training set: .*(\([0-9]*\) merged' d.err)
[ -n "$merged" ] && [ "$merged" -gt 0 ] && ok || bad "--dedupe merged '$merged': $(grep 'training set' d.err)"
v0=$(num 'valid \([0-9.]*\) ->' base.err)
v1=$(num 'valid \([0-9.]*\) ->' d.err)
[ -n "$v0" ] && [ "$v0" = "$v1" ] && ok || bad "--dedupe changed the validation start loss: $v0 vs $v1"

# --per-game 5: at most 5 a game (40 games)
tune --per-game 5 >p.err 2>&1 || bad "--per-game: $(tail -2 p.err)"
left=$(num 'training set: [0-9]* -> \([0-9]*\) positions' p.err)
[ -n "$left" ] && [ "$left" -le 200 ] && [ "$left" -gt 50 ] && ok || bad "--per-game 5 left '$left' positions"

# --share 0.5: about half, the same half twice
tune --share 0.5 >s.err 2>&1 || bad "--share: $(tail -2 s.err)"
tune --share 0.5 >s2.err 2>&1 || bad "--share again"
before=$(num 'training set: \([0-9]*\) ->' s.err)
after=$(num 'training set: [0-9]* -> \([0-9]*\) positions' s.err)
[ -n "$after" ] && [ $((after * 3)) -gt "$before" ] && [ $((after * 3)) -lt $((before * 2)) ] && ok \
  || bad "--share 0.5 kept $after of $before"
[ "$(grep 'tuning run' s.err | sed 's/tuning run [0-9]*//; s/;.*s,.*//')" = \
  "$(grep 'tuning run' s2.err | sed 's/tuning run [0-9]*//; s/;.*s,.*//')" ] && ok || bad "--share is not repeatable"

# out of range values are refused with the option's name
tune --share 0 >/dev/null 2>e.err && bad "--share 0 accepted" || { grep -q -- '--share' e.err && ok || bad "--share 0: $(cat e.err)"; }
tune --per-game -1 >/dev/null 2>e.err && bad "--per-game -1 accepted" || { grep -q -- '--per-game' e.err && ok || bad "--per-game -1: $(cat e.err)"; }

# --epochs 0 changes no weight: no new weight set, and the tuning run names
# no result (it named the start as its own result: a set tuned from itself)
sets=$(sqlite3 a.sqlite "SELECT count(*) FROM weight_sets")
tune --epochs 0 >e0.out 2>e0.err || bad "--epochs 0: $(tail -2 e0.err)"
expect_eq "$(grep '^no weight changed' e0.out)" "no weight changed (best epoch 0 of 0): no new weight set stored; the start is weight set 1" \
  "--epochs 0 result line"
expect_eq "$(sqlite3 a.sqlite "SELECT count(*) FROM weight_sets")" "$sets" "--epochs 0 stored a weight set"
expect_eq "$(grep -c 'within --patience' e0.out)" 0 "--epochs 0: no patience hint"
# steps so large that the first epoch overshoots, and --patience 1 ends it: no weight changed, and
# the way out is said (docs/results/2026-12-06-shatra-hub-turkish-stall.md)
tune --lr 500 --patience 1 >p1.out 2>p1.err || bad "--lr 500: $(tail -2 p1.err)"
expect_eq "$(grep '^no weight changed' p1.out)" "no weight changed (best epoch 0 of 1): no new weight set stored; the start is weight set 1" \
  "overshooting tuning result line"
expect_eq "$(grep 'within --patience' p1.out)" \
  "no epoch's held-out loss fell below the start's within --patience 1: give smaller steps (--lr, --pattern-lr), a larger --patience, or more games" \
  "overshooting tuning: the hint"
expect_eq "$(sqlite3 a.sqlite "SELECT base_ws || ' ' || quote(result_ws) FROM tuning_runs ORDER BY id DESC LIMIT 1")" "1 NULL" \
  "--epochs 0 tuning row: base 1, no result"
expect_eq "$(sqlite3 a.sqlite "SELECT count(*) FROM weight_sets WHERE parent_id = id")" 0 "a weight set that is its own parent"
expect_eq "$(sqlite3 a.sqlite "SELECT count(*) FROM tuning_runs WHERE result_ws = base_ws")" 0 "a tuning run whose result is its start"
e0=$(sqlite3 a.sqlite "SELECT max(id) FROM tuning_runs")
"$DAMA" report --db a.sqlite -o a.html >/dev/null 2>&1 || bad "report"
grep -q "<tr><td class=\"num\">$e0</td><td class=\"num\">[0-9]*</td><td>russian</td><td>done</td><td class=\"num\">1</td><td>–</td>" a.html &&
  ok || bad "report: the --epochs 0 run's result is not –"
# a tuned set's parent is its start set, named db:ID: the poor start, with no
# games held out (a hold-out of these few games decides by its chance whether
# an epoch betters even a poor start; the training loss does not)
tune --epochs 2 --weights "db:$poor" --valid 0.001 >e2.out 2>e2.err || bad "--weights db:$poor: $(tail -2 e2.err)"
new=$(sed -n "s/^weight set \([0-9]*\) stored (parent $poor)\$/\1/p" e2.out)
[ -n "$new" ] && ok || bad "tuned from db:$poor: $(cat e2.out)"
expect_eq "$(sqlite3 a.sqlite "SELECT parent_id FROM weight_sets WHERE id = ${new:-0}")" "$poor" "the tuned set's parent"
expect_eq "$(sqlite3 a.sqlite "SELECT base_ws || ' ' || result_ws FROM tuning_runs ORDER BY id DESC LIMIT 1")" "$poor $new" \
  "the tuning row: its start and result"

# an empty hold-out (4 games: --valid 0.001 holds none out) has no validation loss: "-", stored NULL, not nan
"$DAMA" selfplay --db few.sqlite --games 4 --nodes 200 --threads 1 --progress 0 >/dev/null 2>&1 || bad "selfplay of 4 games"
"$DAMA" tune --db few.sqlite --epochs 2 --valid 0.001 --threads 1 >few.out 2>few.err || bad "tune, empty hold-out: $(tail -2 few.err)"
grep -q '^epoch    0: train [0-9.]*  valid -  \*$' few.err && ok || bad "epoch line of an empty hold-out: $(grep '^epoch' few.err)"
grep -q '^tuning run 1: K [0-9.]*; loss train [0-9.]* -> [0-9.]*, valid - -> - (best epoch' few.out && ok || bad "result line of an empty hold-out: $(head -1 few.out)"
grep -qi 'nan' few.out few.err && bad "nan printed for an empty hold-out" || ok
grep -qx 'note: --valid 0.001 held out no game of these: the best epoch is chosen by the training loss plus the L2 term, and the start is not compared with the result' few.err \
  && ok || bad "an empty hold-out is not said: $(head -3 few.err)"
grep -q '^note: ' base.err && bad "a note without an empty hold-out: $(grep '^note' base.err)" || ok
expect_eq "$(sqlite3 few.sqlite "SELECT positions_valid || ' ' || quote(valid_loss) FROM tuning_runs")" "0 NULL" "empty hold-out stored"
"$DAMA" export --db few.sqlite --weights tuned --format json --out - 2>/dev/null | grep -q '"valid_loss": null' && ok ||
  bad "export of a set tuned without hold-out: valid_loss not null"

# Ctrl-C while a slow --filter has no row to give yet: the query is interrupted at once, exit 3
# (the stop was polled only when a row came back: a selective filter over a large database ran on)
SLOW='(WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000) SELECT count(*) FROM c) > 0'
"$DAMA" tune --db few.sqlite --epochs 1 --threads 1 --filter "$SLOW" >slow.out 2>&1 &
tpid=$!
sleep 1
expect_prompt_stop $tpid "tune stopped in a slow query"
grep -q "interrupted while loading positions; nothing stored" slow.out && ok || bad "tune stopped: $(cat slow.out)"
expect_eq "$(sqlite3 few.sqlite "SELECT count(*) FROM runs WHERE kind = 'tune' AND status <> 'done'")" 0 "the stopped tune left no run"

finish "tune_data.sh"

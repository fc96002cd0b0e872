#!/usr/bin/env bash
# Killed with kill -9 at a defined point and run again, tune and match end
# as one uninterrupted run (scripts/chaos.sh does the same at random
# moments): a tune killed after its first epochs is tuned again in the same
# run and tuning run (no second run, the epochs of the uninterrupted one);
# a match killed after its first games plays only the missing pairs (the
# same games, counts and SPRT decision), says it resumed and prints the
# time used over all its games; the same match finished and run again
# plays nothing and prints the same; weights that changed make a new
# match; another --threads, --hash, --progress or the database's path
# written another way resumes the match (they are not its identity), and
# so does a match stored under the identity of an older dama; the same for
# a train's gate match interrupted (SIGINT) and the train run again.
# Usage: resume.sh DAMA_BINARY SOURCE_DIR
set -u
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1
q() { sqlite3 "$@"; }

# ---- tune ----
"$DAMA" selfplay --db data.sqlite --games 60 --nodes 200 --seed 3 --threads 2 --progress 0 >/dev/null 2>&1 \
  || bad "selfplay for the tuning data"
cp data.sqlite one.sqlite
cp data.sqlite killed.sqlite
TUNE=(tune --epochs 200 --patience 1000 --seed 4 --threads 1 --name resumed)
"$DAMA" "${TUNE[@]}" --db one.sqlite >/dev/null 2>&1 || bad "uninterrupted tune"
"$DAMA" "${TUNE[@]}" --db killed.sqlite >/dev/null 2>&1 &
p=$!
wait_until -p $p "a few epochs stored" at_least killed.sqlite "SELECT count(*) FROM tuning_epochs" 3
kill -9 $p 2>/dev/null
wait $p 2>/dev/null
expect_eq "$(q killed.sqlite "SELECT count(*) FROM tuning_runs WHERE k IS NULL")" 1 "the killed tune left its unfinished row"
expect_rc 0 "the tune run again" "$DAMA" "${TUNE[@]}" --db killed.sqlite
ROWS="SELECT r.kind, r.status, r.seed, t.k, t.train_loss, t.valid_loss, t.positions_train, w.name, w.hash
  FROM runs r LEFT JOIN tuning_runs t ON t.run_id = r.id LEFT JOIN weight_sets w ON w.id = t.result_ws ORDER BY r.id"
EPOCHS="SELECT tuning_run_id, epoch, train_loss, valid_loss FROM tuning_epochs ORDER BY 1, 2"
expect_eq "$(q killed.sqlite "$ROWS")" "$(q one.sqlite "$ROWS")" "runs and tuning runs after the rerun"
expect_eq "$(q killed.sqlite "$EPOCHS" | md5sum)" "$(q one.sqlite "$EPOCHS" | md5sum)" "epochs after the rerun"
# finished, the same tune again is a new tune (as before)
expect_rc 0 "a finished tune again" "$DAMA" "${TUNE[@]}" --db killed.sqlite
expect_eq "$(q killed.sqlite "SELECT count(*) FROM runs WHERE kind = 'tune'")" 2 "a finished tune run again"

# ---- a train from --weights tuned (what the train itself changes), interrupted (SIGINT) in its tuning
# and run again: the same train resumes from its own generation 0 (it was a new train from the set the
# interrupted one had just stored), the generation is tuned again in the same tuning run, and the
# database ends as after the uninterrupted train (the interrupted tuning stored its best epoch so far,
# which was then gated, labelled "interrupted") ----
cp one.sqlite tr1.sqlite
cp one.sqlite tr2.sqlite
TR=(train --weights tuned --generations 1 --games-per-gen 40 --nodes 200 --epochs 1500 --patience 1500 --lr 0.05
  --gate-pairs 20 --ladder-pairs 0 --elo0 -400 --elo1 -200 --seed 6 --threads 1 --progress 0)
"$DAMA" "${TR[@]}" --db tr1.sqlite >/dev/null 2>&1 || bad "the uninterrupted train from the tuned set"
"$DAMA" "${TR[@]}" --db tr2.sqlite >/dev/null 2>"$T/tr2.err" &
p=$!
wait_until -p $p -i 0.02 "the train's first epochs" at_least tr2.sqlite "SELECT count(*) FROM tuning_epochs e
  JOIN tuning_runs t ON t.id = e.tuning_run_id WHERE t.k IS NULL" 3
kill -INT $p 2>/dev/null
wait $p
expect_eq "$?" 3 "the train interrupted in its tuning: exit"
grep -q "nothing stored" "$T/tr2.err" && ok || bad "the interrupted tuning: $(tail -3 "$T/tr2.err")"
expect_rc 0 "the train from the tuned set again" "$DAMA" "${TR[@]}" --db tr2.sqlite
TRAIN_ROWS="SELECT id, status, start_ws FROM trains; $ROWS; SELECT id, name, how, hash FROM weight_sets ORDER BY id"
expect_eq "$(q tr2.sqlite "$TRAIN_ROWS")" "$(q tr1.sqlite "$TRAIN_ROWS")" "trains, runs and weight sets after the rerun"

# ---- match ----
# an SPRT that decides after about 140 pairs: the kill comes before (the
# first games are stored after a second). A plays 7ad9123's weights, a fixed
# file: the compiled-in set of today is so far ahead of the hand-set one at
# 200 nodes (+200) that the SPRT ends after 20 pairs
MATCH=(match --a "$SRC/configs/weights/russian-7ad9123.cfg" --b "$SRC/configs/weights/russian-start.cfg" --sprt --elo0 60 --elo1 140 --pairs 150 --nodes 200
  --threads 1 --seed 4 --progress 0)
"$DAMA" "${MATCH[@]}" --db m1.sqlite >/dev/null 2>&1 || bad "uninterrupted match"
"$DAMA" "${MATCH[@]}" --db m2.sqlite >/dev/null 2>&1 &
p=$!
# the game writer commits every second: wait for the first games
wait_until -p $p "games stored" at_least m2.sqlite "SELECT count(*) FROM games" 1
kill -9 $p 2>/dev/null
wait $p 2>/dev/null
stored=$(q m2.sqlite "SELECT count(*) FROM games")
[ "$stored" -lt "$(q m1.sqlite "SELECT count(*) FROM games")" ] && ok || bad "the kill came after the last game"
expect_rc 0 "the match run again" "$DAMA" "${MATCH[@]}" --db m2.sqlite
# the time used printed by the resumed match is that of all its games, the killed process's too
check_match_times "$T/out" m2.sqlite 1 AB
expect_eq "$(grep -o '([0-9]* moves)' "$T/out" | tr -dc '0-9\n' | awk '{ s += $1 } END { print s }')" "$(q m2.sqlite "SELECT sum(plies) FROM games")" \
  "the resumed match's moves are those of every stored game"
grep "^time " "$T/out" >"$T/resumed-times"
grep -q "^match russian: run 1 (resumed: $((stored / 2)) pairs stored)" "$T/err" && ok \
  || bad "the resumed match does not say so ($stored games were stored): $(head -1 "$T/err")"
G="SELECT game_index, result, reason, movetext FROM games ORDER BY game_index"
M="SELECT games, wins, draws, losses, penta0, penta1, penta2, penta3, penta4, elo, llr, sprt_result, sprt_llr, sprt_pairs
  FROM matches"
expect_eq "$(q m2.sqlite "$G" | md5sum)" "$(q m1.sqlite "$G" | md5sum)" "the games after the rerun"
expect_eq "$(q m2.sqlite "$M")" "$(q m1.sqlite "$M")" "the match after the rerun"
expect_eq "$(q m2.sqlite "SELECT count(*) || ' ' || min(status) FROM runs")" "1 done" "one run, done"
# finished: the same match again plays nothing and prints its result again
expect_rc 0 "a finished match again" "$DAMA" "${MATCH[@]}" --db m2.sqlite
expect_eq "$(q m2.sqlite "SELECT count(*) FROM games")" "$(q m1.sqlite "SELECT count(*) FROM games")" "games after a rerun"
grep -q "^SPRT \[60, 140\] .*: H0 accepted" "$T/out" && ok || bad "a finished match again: $(cat "$T/out")"
expect_eq "$(grep "^time " "$T/out")" "$(cat "$T/resumed-times")" "a finished match again prints the same time used"
# games stored without times (before schema 11) are left out of the sums, and the output says how many
q m2.sqlite "UPDATE games SET white_moves = NULL, black_moves = NULL, white_wall_s = NULL, black_wall_s = NULL,
  white_cpu_s = NULL, black_cpu_s = NULL WHERE game_index < 3"
expect_rc 0 "a finished match with untimed games again" "$DAMA" "${MATCH[@]}" --db m2.sqlite
expect_line out "(3 games stored without their times are left out)"
check_match_times "$T/out" m2.sqlite 1 AB
# other weights under the same configuration text ('tuned' after a new tune): a new match
cp "$SRC/configs/weights/russian-start.cfg" b.cfg
"$DAMA" match --a default --b b.cfg --pairs 2 --nodes 200 --threads 1 --progress 0 --db m3.sqlite >/dev/null 2>&1 \
  || bad "match with b.cfg"
sed -i 's/^  TEMPO = .*/  TEMPO = 77;/' b.cfg
expect_rc 0 "the same match with other weights in b.cfg" \
  "$DAMA" match --a default --b b.cfg --pairs 2 --nodes 200 --threads 1 --progress 0 --db m3.sqlite
expect_eq "$(q m3.sqlite "SELECT count(*) || ' ' || count(DISTINCT ws_b) FROM matches")" "2 2" "a new match for new weights"

# what identifies a match is what decides its games: a rerun with another --threads, --hash or --progress, or
# with the same database named another way (./m4.sqlite, an absolute path), resumes it; it is not played again
SMALL=(match --a default --b "$SRC/configs/weights/russian-start.cfg" --pairs 200 --nodes 200 --seed 5)
"$DAMA" "${SMALL[@]}" --threads 1 --hash 16 --progress 0 --db m4.sqlite >/dev/null 2>&1 &
p=$!
wait_until -p $p "games stored" at_least m4.sqlite "SELECT count(*) FROM games" 1
kill -9 $p 2>/dev/null
wait $p 2>/dev/null
stored=$(q m4.sqlite "SELECT count(*) FROM games")
[ "$stored" -lt 400 ] && ok || bad "the kill came after the last game"
expect_rc 0 "the match resumed with other --threads, --hash, --progress and ./ before --db" \
  "$DAMA" "${SMALL[@]}" --threads 2 --hash 8 --progress 1 --db ./m4.sqlite
grep -q "^match russian: run 1 (resumed: $((stored / 2)) pairs stored)" "$T/err" && ok \
  || bad "the match was not resumed ($stored games were stored): $(head -1 "$T/err")"
expect_eq "$(q m4.sqlite "SELECT count(*) || ' ' || count(DISTINCT run_id) || ' ' || count(DISTINCT game_index) FROM games")" \
  "400 1 400" "games of the resumed match: each once, in one run"
expect_eq "$(q m4.sqlite "SELECT count(*) || ' ' || min(status) FROM runs")" "1 done" "one run, done"
expect_eq "$(q m4.sqlite "SELECT count(*) || ' ' || sum(games) FROM matches")" "1 400" "one match of 400 games"
# the identity stored leaves those options out; the engines, limit, pairs and seed are in it
cfg=$(q m4.sqlite "SELECT config FROM runs")
for k in db threads hash progress; do
  grep -q "^$k = " <<<"$cfg" && bad "--$k is in the match's identity: $cfg" || ok
done
for k in a b pairs nodes seed; do
  grep -q "^$k = " <<<"$cfg" && ok || bad "--$k is not in the match's identity: $cfg"
done
# finished, run again by its absolute path: it plays nothing
expect_rc 0 "the finished match by its absolute path" "$DAMA" "${SMALL[@]}" --threads 1 --progress 0 --db "$T/m4.sqlite"
expect_line err "match russian: run 1 (resumed: 200 pairs stored), A = weight set 1, B = weight set 2, 200 pairs, limit nodes=200, 1 thread"
expect_eq "$(q m4.sqlite "SELECT count(*) FROM games") $(q m4.sqlite "SELECT count(*) FROM runs")" "400 1" \
  "the finished match again: no game played, no run made"
# an option that decides the games is another match: --pairs, --seed
expect_rc 0 "the match with --pairs 2" "$DAMA" "${SMALL[@]}" --pairs 2 --threads 1 --progress 0 --db m4.sqlite
expect_eq "$(q m4.sqlite "SELECT count(*) || ' ' || sum(games) FROM matches")" "2 404" "another --pairs: another match"
# a match stored by an older dama, under every option but --mpi (db, threads, hash, progress included), is
# resumed when run again with the same options
"$DAMA" "${SMALL[@]}" --pairs 2 --threads 1 --progress 0 --db m5.sqlite >/dev/null 2>&1 || bad "match for the old identity"
cfg=$(q m5.sqlite "SELECT config FROM runs")
# (and without the game's own book's content, which it did not hash)
old=$(awk '/^openings-content = / { next } { print } /^game = / { print "db = m5.sqlite" }
  /^depth = / { print "threads = 1"; print "hash = 16" } /^beta = / { print "progress = 0" }' <<<"$cfg")
[ "$(grep -c '' <<<"$old")" -eq $(($(grep -c '' <<<"$cfg") + 3)) ] && ok || bad "the old identity: $old"
q m5.sqlite "UPDATE runs SET config = '$old' || char(10)"
expect_rc 0 "the match of the old identity again" "$DAMA" "${SMALL[@]}" --pairs 2 --threads 1 --progress 0 --db m5.sqlite
expect_line err "match russian: run 1 (resumed: 2 pairs stored), A = weight set 1, B = weight set 2, 2 pairs, limit nodes=200, 1 thread"
expect_eq "$(q m5.sqlite "SELECT count(*) FROM runs") $(q m5.sqlite "SELECT count(*) FROM games")" "1 4" \
  "the match of the old identity: resumed, not played again"

# ---- train's gate match: interrupted (SIGINT) and the train run again with another --threads, --hash,
# --progress and ./ before --db resumes the same match run (they were in its identity: a new run played
# every pair again and left the interrupted one behind); the SPRT cannot decide (alpha, beta 1e-6), so
# the match plays its 150 pairs. The train starts from a poor fixed set (tests/cli/russian-poor.cfg) and
# plays 40 games: a few games cannot better the compiled-in set on the games they hold out, and then no
# candidate is gated (with 40, each of seeds 1 to 8 made a candidate; with 20, three did not) ----
GATE=(train --game russian --weights "$SRC/tests/cli/russian-poor.cfg" --generations 1 --games-per-gen 40
  --nodes 200 --epochs 40 --lr 5 --gate-pairs 150 --ladder-pairs 0 --alpha 1e-6 --beta 1e-6 --seed 3)
MGAMES="SELECT count(*) FROM games g JOIN runs r ON r.id = g.run_id WHERE r.kind = 'match'"
"$DAMA" "${GATE[@]}" --threads 1 --hash 16 --progress 0 --db g.sqlite >/dev/null 2>"$T/g1.err" &
p=$!
wait_until -p $p -i 0.02 "the gate match's first games" at_least g.sqlite "$MGAMES" 2
kill -INT $p 2>/dev/null
wait $p
expect_eq "$?" 3 "the train interrupted in its gate match: exit"
stored=$(q g.sqlite "$MGAMES")
[ "$stored" -lt 300 ] && ok || bad "the interrupt came after the gate match's last game: $(tail -2 "$T/g1.err")"
expect_eq "$(q g.sqlite "SELECT count(*) || ' ' || min(status) FROM runs WHERE kind = 'match'")" "1 interrupted" \
  "the interrupted gate match's run"
cp g.sqlite g_old.sqlite
expect_rc 0 "the train again with other --threads, --hash, --progress and ./ before --db" \
  "$DAMA" "${GATE[@]}" --threads 2 --hash 8 --progress 1 --db ./g.sqlite
expect_eq "$(q g.sqlite "SELECT count(*) || ' ' || min(status) FROM runs WHERE kind = 'match'")" "1 done" \
  "the gate match resumed: one match run, done"
expect_eq "$(q g.sqlite "SELECT count(*) || ' ' || count(DISTINCT game_index) FROM games g JOIN runs r ON r.id = g.run_id
  WHERE r.kind = 'match'") $(q g.sqlite "SELECT count(*) || ' ' || sum(games) FROM matches")" "300 300 1 300" \
  "the gate match's games: each once, in one run and one matches row"
expect_eq "$(q g.sqlite "SELECT count(*) FROM generations g JOIN matches m ON m.id = g.gate_match
  WHERE g.generation = 1 AND m.games = 300")" 1 "generation 1's gate match is the resumed one"
expect_eq "$(q g.sqlite "SELECT status FROM trains")" done "the train done"
cfg=$(q g.sqlite "SELECT config FROM runs WHERE kind = 'match'")
for k in db threads hash progress; do
  grep -q "^$k = " <<<"$cfg" && bad "$k is in the gate match's identity: $cfg" || ok
done
for k in a b pairs nodes seed sprt; do
  grep -q "^$k = " <<<"$cfg" && ok || bad "$k is not in the gate match's identity: $cfg"
done
# a gate match stored by an older dama (db, threads, hash and progress in its identity) is resumed by the
# train run again with the same options
old=$(awk '{ print } /^game = / { print "db = g_old.sqlite" } /^depth = / { print "threads = 1"; print "hash = 16" }
  END { print "progress = 0" }' <<<"$cfg")
[ "$(grep -c '' <<<"$old")" -eq $(($(grep -c '' <<<"$cfg") + 4)) ] && ok || bad "the old identity: $old"
q g_old.sqlite "UPDATE runs SET config = '$old' || char(10) WHERE kind = 'match'"
expect_rc 0 "the train of the old gate match identity again" \
  "$DAMA" "${GATE[@]}" --threads 1 --hash 16 --progress 0 --db g_old.sqlite
expect_eq "$(q g_old.sqlite "SELECT count(*) || ' ' || min(status) FROM runs WHERE kind = 'match'") $(q g_old.sqlite "$MGAMES")" \
  "1 done 300" "the gate match of the old identity: resumed, not played again"

finish "resume.sh"

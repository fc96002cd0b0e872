#!/usr/bin/env bash
# dama selfplay --shard R/K and dama db merge: three shards of a run merged
# are the one-process run, game for game and position for position (a
# canonical dump by game index), and keep the time each side used; merging them again adds nothing (same row
# counts, same dump); a bad shard (missing, not a database, another schema
# version, a contradicting configuration or game, the target itself) is
# refused with a message naming it, exit 1, and the target unchanged.
# Usage: merge.sh DAMA_BINARY SOURCE_DIR
set -u
. "$(dirname "$0")/lib.sh"
cd "$T"
DUMP="SELECT g.game_index, g.game, g.opening, g.start_fen, g.seed, g.result, g.reason, g.plies, g.movetext,
  g.detail, w.hash, b.hash, (SELECT group_concat(p.ply || ':' || p.fen || ':' || p.stm || ':' || ifnull(p.score, '-')
  || ':' || p.result || ':' || p.quiet, ';') FROM (SELECT * FROM positions p WHERE p.game_id = g.id ORDER BY p.ply) p)
  FROM games g JOIN runs r ON r.id = g.run_id LEFT JOIN weight_sets w ON w.id = g.white_ws
  LEFT JOIN weight_sets b ON b.id = g.black_ws ORDER BY r.seed, g.game_index"
COUNTS="SELECT (SELECT count(*) FROM runs), (SELECT count(*) FROM weight_sets), (SELECT count(*) FROM run_weight_sets),
  (SELECT count(*) FROM games), (SELECT count(*) FROM positions)"
SP="selfplay --games 12 --nodes 300 --seed 5 --progress 0 --threads 1"

"$DAMA" $SP --db one.sqlite >one.out 2>&1 || bad "one process: $(tail -2 one.out)"
for r in 0 1 2; do
  "$DAMA" $SP --db s$r.sqlite --shard $r/3 >s$r.out 2>&1 || bad "shard $r: $(tail -2 s$r.out)"
done
[ "$(sqlite3 s1.sqlite "SELECT group_concat(game_index) FROM (SELECT game_index FROM games ORDER BY 1)")" = "1,4,7,10" ] \
  && ok || bad "shard 1/3 holds games $(sqlite3 s1.sqlite "SELECT group_concat(game_index) FROM games")"
[ "$(sqlite3 s1.sqlite "SELECT status FROM runs")" = "done" ] && ok || bad "a complete shard's run is not done"
expect_rc 0 "a finished shard again" "$DAMA" $SP --db s1.sqlite --shard 1/3
grep -q "already holds the 4 games of shard 1/3" "$T/out" && ok || bad "finished shard again: $(cat "$T/out")"

"$DAMA" db merge s0.sqlite s1.sqlite s2.sqlite --into m.sqlite >m1.out 2>&1 && ok || bad "merge: $(cat m1.out)"
grep -q "^merged 3 shards into m.sqlite: 1 new runs (2 already there), 13 new weight sets, 12 new games (0 already there), " m1.out \
  && ok || bad "merge summary: $(cat m1.out)"
sqlite3 one.sqlite "$DUMP" >one.txt
sqlite3 m.sqlite "$DUMP" >m.txt
[ -s one.txt ] && cmp -s one.txt m.txt && ok || bad "the merged shards are not the one-process run"
[ "$(sqlite3 m.sqlite "$COUNTS")" = "$(sqlite3 one.sqlite "$COUNTS")" ] && ok \
  || bad "row counts: merged $(sqlite3 m.sqlite "$COUNTS"), one process $(sqlite3 one.sqlite "$COUNTS")"
[ "$(sqlite3 m.sqlite "SELECT status FROM runs")" = "done" ] && ok || bad "merged run not done"
# the time each side used comes along (it differs from the one-process run's: it is measured)
TIMES="SELECT game_index, white_moves, black_moves, quote(white_wall_s), quote(black_wall_s), quote(white_cpu_s),
  quote(black_cpu_s) FROM games"
for r in 0 1 2; do sqlite3 s$r.sqlite "$TIMES"; done | sort -n >shards.times
sqlite3 m.sqlite "$TIMES" | sort -n >m.times
[ "$(wc -l <m.times)" = 12 ] && cmp -s shards.times m.times && ok || bad "merged games lost their times: $(diff shards.times m.times | head -3)"
expect_eq "$(sqlite3 m.sqlite "SELECT count(*) FROM games WHERE white_moves + black_moves = plies AND white_wall_s > 0")" 12 \
  "merged games keep their moves and times"
[ "$(sqlite3 m.sqlite 'PRAGMA foreign_key_check')" = "" ] && ok || bad "merged database fails its foreign keys"

# the target run is done when its games are whole: shard 0/3 alone (done, games 0, 3, 6, 9) is not,
# and merging the rest completes it (a shard's done run made its target done: half a run read as done)
"$DAMA" db merge s0.sqlite --into part.sqlite >part.out 2>&1 && ok || bad "merge of one shard: $(cat part.out)"
expect_eq "$(sqlite3 part.sqlite "SELECT status FROM runs")" "interrupted" "one shard of three merged: the run is not done"
"$DAMA" db merge s1.sqlite s2.sqlite --into part.sqlite >part2.out 2>&1 && ok || bad "merge of the rest: $(cat part2.out)"
expect_eq "$(sqlite3 part.sqlite "SELECT status || ' ' || (finished IS NOT NULL) FROM runs")" "done 1" \
  "the other shards merged: the run is done, with its end"
# a shard merged while unfinished, then merged again once done: the target is done (it stayed interrupted)
sqlite3 s2.sqlite "UPDATE runs SET status = 'interrupted'" && cp s2.sqlite s2i.sqlite && sqlite3 s2.sqlite "UPDATE runs SET status = 'done'"
"$DAMA" db merge s0.sqlite s1.sqlite s2i.sqlite --into late.sqlite >late.out 2>&1 && ok || bad "merge with an unfinished shard: $(cat late.out)"
expect_eq "$(sqlite3 late.sqlite "SELECT status FROM runs")" "interrupted" "a shard unfinished: the run is not done"
"$DAMA" db merge s2.sqlite --into late.sqlite >late2.out 2>&1 && ok || bad "merge of the finished shard: $(cat late2.out)"
expect_eq "$(sqlite3 late.sqlite "SELECT status FROM runs")" "done" "the shard merged again once done: the run is done"

# --- twice: nothing added ------------------------------------------------------
before=$(sqlite3 m.sqlite "$COUNTS")
"$DAMA" db merge s0.sqlite s1.sqlite s2.sqlite --into m.sqlite >m2.out 2>&1 && ok || bad "merge again: $(cat m2.out)"
grep -q "0 new runs (3 already there), 0 new weight sets, 0 new games (12 already there), 0 new positions" m2.out \
  && ok || bad "merge again: $(cat m2.out)"
[ "$(sqlite3 m.sqlite "$COUNTS")" = "$before" ] && ok || bad "merging twice changed the row counts"
sqlite3 m.sqlite "$DUMP" | cmp -s - m.txt && ok || bad "merging twice changed the games"
# A tuner run on the merged database reads the same data as on the one-process run.
"$DAMA" db merge one.sqlite --into m.sqlite >m3.out 2>&1 && ok || bad "merge the one-process run: $(cat m3.out)"
[ "$(sqlite3 m.sqlite "$COUNTS")" = "$before" ] && ok || bad "merging the same run from another file added rows"

# --- bad shards: refused, target unchanged -------------------------------------
snap() { sqlite3 m.sqlite .dump | md5sum; }
s0=$(snap)
refused() { # description, expected message part, shards...
  local what=$1 want=$2
  shift 2
  expect_rc 1 "$what" "$DAMA" db merge "$@" --into m.sqlite
  grep -qF -- "$want" "$T/err" && ok || bad "$what: message: $(cat "$T/err")"
  grep -qF "m.sqlite is unchanged" "$T/err" && ok || bad "$what: message does not say the target is unchanged"
  [ "$(snap)" = "$s0" ] && ok || bad "$what: the target changed"
}
refused "missing shard" "shard nope.sqlite: No such file or directory" s0.sqlite nope.sqlite
echo "not a database at all, but long enough to be read as a header of something" >junk.sqlite
refused "not a database" "shard junk.sqlite" s0.sqlite junk.sqlite
cp s2.sqlite old.sqlite
sqlite3 old.sqlite "PRAGMA user_version = 6"
refused "an older schema version" "shard old.sqlite: database schema version 6 is older than this dama's" s0.sqlite old.sqlite
grep -qF "upgrade it with 'dama db upgrade old.sqlite'" "$T/err" && ok || bad "older shard: no upgrade hint: $(cat "$T/err")"
"$DAMA" selfplay --games 4 --nodes 200 --seed 5 --progress 0 --threads 1 --db other.sqlite >/dev/null 2>&1 || bad "other run"
refused "contradicting configuration" "contradicts run 1 of the target, same kind, game and seed but another configuration: 'nodes = 200' vs 'nodes = 300'" other.sqlite
cp s2.sqlite edited.sqlite
sqlite3 edited.sqlite "UPDATE games SET movetext = movetext || ' 1-0' WHERE game_index = 5"
refused "contradicting game" "shard edited.sqlite: run 1 (selfplay russian, seed 5) game 5 differs from game 5 of run 1 in the target (its movetext)" s0.sqlite edited.sqlite
refused "the target as a shard" "shard m.sqlite is the target database itself" s0.sqlite m.sqlite
expect_rc 2 "no --into" "$DAMA" db merge s0.sqlite
grep -q "\-\-into FILE is required" "$T/err" && ok || bad "no --into: $(cat "$T/err")"
rm -f none.sqlite
expect_rc 2 "no shard" "$DAMA" db merge --into none.sqlite
grep -q "no shard given" "$T/err" && [ ! -e none.sqlite ] && ok || bad "merge without a shard created its target"
expect_rc 2 "unknown subcommand" "$DAMA" db split s0.sqlite
# A failed merge into a new file leaves no file behind.
expect_rc 1 "merge of a bad shard into a new file" "$DAMA" db merge junk.sqlite --into new.sqlite
[ ! -e new.sqlite ] && ok || bad "a failed merge left new.sqlite"

finish "merge"

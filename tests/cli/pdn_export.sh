#!/usr/bin/env bash
# PDN export and ratings of stored games: every game of the three games
# exported and replayed by `dama pdn check`; tags; selections; a filter
# that tries to leave its WHERE clause is refused; a version-1 database is
# migrated; `dama ratings` on a match.
# Usage: pdn_export.sh DAMA_BINARY SOURCE_DIR
set -u
. "$(dirname "$0")/lib.sh"
q() { sqlite3 "$T/d.sqlite" "$1"; }

DB="$T/d.sqlite"
for g in russian turkish shatra; do
  "$DAMA" selfplay --game "$g" --games 4 --nodes 300 --threads 1 --db "$DB" --progress 0 >/dev/null 2>&1 || bad "selfplay $g"
done
"$DAMA" match --db "$DB" --a default --b "$2/configs/weights/russian-start.cfg" --pairs 2 --nodes 200 --threads 1 --progress 0 >/dev/null 2>&1
total=$(q "SELECT count(*) FROM games")
expect_eq "$total" 16 "games stored (12 self-play, 4 match)"

# everything: one file, every game replays, the counts agree
expect_rc 0 "export all" "$DAMA" pdn export --db "$DB" -o "$T/all.pdn"
expect_eq "$(grep -c '^\[Event ' "$T/all.pdn")" "$total" "one Event per game"
expect_rc 0 "check export" "$DAMA" pdn check "$T/all.pdn"
expect_eq "$(tail -1 "$T/out")" "$total games, $total ok, 0 failed" "every exported game replays"
# plies replayed = plies stored, per game (game order = id order)
expect_eq "$(grep -o 'ok, [0-9]* pl' "$T/out" | grep -o '[0-9]*' | tr '\n' ' ')" \
  "$(q "SELECT plies FROM games ORDER BY id" | tr '\n' ' ')" "replayed plies = stored plies"
# the seven-tag roster, game type, termination
for tag in Event Site Date Round White Black Result Termination Variant; do
  expect_eq "$(grep -c "^\[$tag " "$T/all.pdn")" "$total" "tag $tag on every game"
done
expect_eq "$(grep -c '^\[GameType "25"\]' "$T/all.pdn")" 8 "GameType 25 (Russian: 4 self-play + 4 match games)"
expect_eq "$(grep -c '^\[GameType "30"\]' "$T/all.pdn")" 4 "GameType 30 (Turkish)"
expect_eq "$(grep -c '^\[Variant "shatra"\]' "$T/all.pdn")" 4 "Shatra named by Variant"
expect_eq "$(grep -c '^\[SetUp "1"\]' "$T/all.pdn")" "$(grep -c '^\[FEN ' "$T/all.pdn")" "SetUp with every FEN"
first_reason=$(q "SELECT reason FROM games ORDER BY id LIMIT 1")
expect_eq "$(grep -m1 '^\[Termination ' "$T/all.pdn")" "[Termination \"$first_reason\"]" "Termination = stored reason"
# Shatra alone, through a pipe; the match by its id
"$DAMA" pdn export --db "$DB" --filter "g.game = 'shatra'" | "$DAMA" pdn check - >"$T/out" 2>&1
expect_eq "$(tail -1 "$T/out")" "4 games, 4 ok, 0 failed" "Shatra round trip"
"$DAMA" pdn export --db "$DB" --match 1 >"$T/m.pdn"
expect_eq "$(grep -c '^\[Event "dama match 1"\]' "$T/m.pdn")" 4 "match export"
# -o - is standard output too (no file named '-')
(cd "$T" && "$DAMA" pdn export --db "$DB" --match 1 -o - >"$T/m2.pdn" 2>"$T/m2.err")
cmp -s "$T/m.pdn" "$T/m2.pdn" && [ ! -e "$T/-" ] && ok || bad "-o - is not standard output: $(head -c 200 "$T/m2.err")"
expect_eq "$(grep -c '^\[Event "dama selfplay run 2"\]' <("$DAMA" pdn export --db "$DB" --run 2))" 4 "run export"
expect_rc 1 "missing match" "$DAMA" pdn export --db "$DB" --match 99
grep -q "no match 99" "$T/err" && ok || bad "missing match message: $(cat "$T/err")"
expect_rc 2 "two selections" "$DAMA" pdn export --db "$DB" --match 1 --run 1
# an option of the other subcommand is refused: export --game turkish wrote all 16 games, Russian and Shatra too
expect_err 2 "dama pdn export: --game is for check, not export (export writes the stored games of every game in the selection; --filter \"g.game = 'NAME'\" picks one game's)" "$DAMA" pdn export --db "$DB" --game turkish -o "$T/tk.pdn"
[ ! -e "$T/tk.pdn" ] && ok || bad "export --game wrote a file"
expect_err 2 "dama pdn check: --db is for export, not check" "$DAMA" pdn check "$T/all.pdn" --db "$DB"
expect_err 2 "dama pdn check: --run is for export, not check" "$DAMA" pdn --run 1 check "$T/all.pdn"
expect_err 2 "dama pdn check: --out is for export, not check" "$DAMA" pdn check -o "$T/x.pdn" "$T/all.pdn"
expect_rc 1 "no database" "$DAMA" pdn export --db "$T/none.sqlite"
# a damaged row is no game to write: export replays each, names the one that does not replay, and writes no file
cp "$DB" "$T/dmg.sqlite"
sqlite3 "$T/dmg.sqlite" "UPDATE games SET movetext = 'zz-zz ' || movetext WHERE id = 2"
expect_err 1 "dama pdn export: game 2 does not replay: ply 1: move 'zz-zz'" "$DAMA" pdn export --db "$T/dmg.sqlite" -o "$T/dmg.pdn"
[ ! -e "$T/dmg.pdn" ] && ok || bad "a refused export left its file"
cp "$DB" "$T/dmg2.sqlite"
sqlite3 "$T/dmg2.sqlite" "UPDATE games SET movetext = NULL, plies = 5 WHERE id = 1"
expect_err 1 "dama pdn export: game 1 does not replay: its movetext holds 0 plies, the row says 5" "$DAMA" pdn export --db "$T/dmg2.sqlite"
cp "$DB" "$T/dmg3.sqlite"
sqlite3 "$T/dmg3.sqlite" "UPDATE games SET start_fen = 'W:W:B' WHERE id = 1"
expect_err 1 "dama pdn export: game 1 does not replay: start position: " "$DAMA" pdn export --db "$T/dmg3.sqlite"
cp "$DB" "$T/dmg4.sqlite"
sqlite3 "$T/dmg4.sqlite" "UPDATE games SET movetext = movetext || ' 1-0 c3-d4' WHERE id = 1"
expect_err 1 "dama pdn export: game 1 does not replay: 'c3-d4' after the result '1-0' (line 1)" "$DAMA" pdn export --db "$T/dmg4.sqlite"
# a tag value over two lines, a result the rules contradict: damaged rows too (dama stores neither)
cp "$DB" "$T/dmg5.sqlite"
sqlite3 "$T/dmg5.sqlite" "UPDATE games SET opening = 'evil \"q\" ]' || char(10) || 'newline' WHERE id = 1"
expect_err 1 "dama pdn export: game 1: its opening holds the control byte 0x0a (a PDN tag is one line): a damaged row" \
  "$DAMA" pdn export --db "$T/dmg5.sqlite" -o "$T/dmg5.pdn"
[ ! -e "$T/dmg5.pdn" ] && ok || bad "a refused export left its file"
cp "$DB" "$T/dmg7.sqlite"
sqlite3 "$T/dmg7.sqlite" "UPDATE games SET start_fen = start_fen || char(10) WHERE id = 1"
expect_err 1 "dama pdn export: game 1: its start position holds the control byte 0x0a" "$DAMA" pdn export --db "$T/dmg7.sqlite"
cp "$DB" "$T/dmg6.sqlite"
id=$(sqlite3 "$T/dmg6.sqlite" "SELECT min(id) FROM games WHERE reason = 'no-moves' AND result = '1-0'")
sqlite3 "$T/dmg6.sqlite" "UPDATE games SET result = '0-1' WHERE id = $id"
expect_err 1 "dama pdn export: game $id: its result 0-1 is not the one the rules gave, 1-0 (no-moves): a damaged row" \
  "$DAMA" pdn export --db "$T/dmg6.sqlite"
# a file that cannot be written: the failing step and its errno, the path named
expect_rc 1 "-o in a missing folder" "$DAMA" pdn export --db "$DB" -o "$T/none/x.pdn"
grep -q "cannot write '$T/none/x.pdn': its folder '$T/none': No such file or directory" "$T/err" && ok || bad "missing folder message: $(cat "$T/err")"
if [ -f /proc/version ]; then
  expect_rc 1 "-o in /proc" "$DAMA" pdn export --db "$DB" -o /proc/version --force
  grep -q "cannot write '/proc/version': creating the temporary file '/proc/version.tmp.[^']*' failed: No such file or directory (the folder takes no new files)" "$T/err" \
    && ok || bad "/proc message: $(cat "$T/err")"
fi
# filters: one read-only condition over games, nothing else (not one
# condition: a bad value, exit 2, before the database is read; a function
# that is not reading: refused when the database reads it, exit 1)
for f in "1) UNION SELECT 1 --" "1; DELETE FROM games" "g.id = 1 /* c */" "(1" "1) OR (1" "" " " "load_extension('x')"; do
  want=2
  case "$f" in load_extension*) want=1 ;; esac
  expect_rc "$want" "filter refused: '$f'" "$DAMA" pdn export --db "$DB" --filter "$f" -o "$T/x.pdn"
  [ ! -e "$T/x.pdn" ] && ok || bad "refused filter left a file: $f"
done
expect_rc 2 "tune's filter breaking out of its parentheses" "$DAMA" tune --db "$DB" --filter "1=1) OR (1=1" --epochs 1
grep -qF "dama tune: --filter: filter '1=1) OR (1=1': unbalanced ')'" "$T/err" && ok || bad "tune --filter: $(cat "$T/err")"
# SQLite's complaint names the user's filter, not the tuner's own conditions it is joined to
expect_err 1 "dama tune: --filter 'garbage sql': near \"sql\": syntax error" "$DAMA" tune --db "$DB" --filter "garbage sql" --epochs 1
expect_err 1 "dama tune: --filter 'no_such_col = 1': no such column: no_such_col" "$DAMA" tune --db "$DB" \
  --filter "no_such_col = 1" --epochs 1
expect_eq "$(q "SELECT count(*) FROM games")" "$total" "games intact after refused filters"
expect_eq "$("$DAMA" pdn export --db "$DB" --filter "g.plies > 0 AND g.id IN (SELECT game_id FROM positions WHERE ply = 0) AND ';' = ';'" | grep -c '^\[Event ')" "$total" "a filter with a subquery and a quoted ';'"

# ratings of the match: two players, 4 games, mean 0
"$DAMA" ratings --db "$DB" --match 1 >"$T/r" 2>&1
expect_eq "$(head -1 "$T/r")" "4 russian games, 2 players" "ratings header"
# draw_elo: fitted when a game was drawn, else said to be 0 by definition (it printed "0.0 +/- 0.0")
draws=$(q "SELECT count(*) FROM games WHERE result = '1/2-1/2' AND run_id = (SELECT run_id FROM matches WHERE id = 1)")
"$DAMA" ratings --db "$DB" --match 1 >"$T/r0" 2>&1
if [ "$draws" -gt 0 ]; then want='draw_elo -?[0-9]+\.[0-9] \+/- [0-9]+\.[0-9];'; else want='draw_elo 0 \(no draws\);'; fi
grep -qE "^White advantage .*, $want mean 0, prior 2 virtual games per pair$" "$T/r0" && ok || bad "draw_elo ($draws draws): $(tail -1 "$T/r0")"
expect_rc 1 "ratings of disconnected self-play populations" "$DAMA" ratings --db "$DB" --run 1
grep -q "^dama ratings: players 'weight set [0-9]*' and 'weight set [0-9]*' are in groups that never met" "$T/err" && ok || bad "disconnected message names the players: $(cat "$T/err")"
expect_rc 2 "anchor unknown" "$DAMA" ratings --db "$DB" --match 1 --anchor nobody
grep -q "no player named 'nobody'" "$T/err" && ok || bad "anchor message"
# the anchor's rating is a decimal number: '0x10' was read as 16, ' 100' as 100
expect_rc 0 "anchor" "$DAMA" ratings --db "$DB" --match 1 --anchor "weight set 1=100"
grep -q "^ *[12]  weight set 1 *100\.0 *0\.0  \[100\.0, 100\.0\]" "$T/out" && ok || bad "anchored at 100: $(cat "$T/out")"
for v in 0x10 " 100" 1e400 nan ""; do
  expect_err 2 "--anchor 'weight set 1=$v': '$v' is not a rating" "$DAMA" ratings --db "$DB" --match 1 --anchor "weight set 1=$v"
done
# a finite number beyond any rating (1e308 printed 300 digits)
for v in 1e308 -100001; do
  expect_err 2 "--anchor 'weight set 1=$v': rating $v is beyond +-100000 Elo" "$DAMA" ratings --db "$DB" --match 1 --anchor "weight set 1=$v"
done
expect_rc 0 "anchor at the limit" "$DAMA" ratings --db "$DB" --match 1 --anchor "weight set 1=-100000"

# a version-1 database (as dama wrote it before tournaments) is migrated
sqlite3 "$T/v1.sqlite" <"$2/db/migrations/001_initial.sql"
sqlite3 "$T/v1.sqlite" "PRAGMA user_version = 1; PRAGMA application_id = 1145130305;
  INSERT INTO runs(kind, game) VALUES ('selfplay', 'russian');
  INSERT INTO games(run_id, game_index, game, result, movetext, plies) VALUES (1, 0, 'russian', '1-0', '', 0);"
expect_rc 0 "export migrates v1" "$DAMA" pdn export --db "$T/v1.sqlite"
newest=$(sed -n 's/.*DB_SCHEMA_VERSION = \([0-9]*\),.*/\1/p' "$2/db/db.h")
expect_eq "$(sqlite3 "$T/v1.sqlite" "PRAGMA user_version")" "$newest" "migrated to the newest version"
expect_eq "$(sqlite3 "$T/v1.sqlite" "PRAGMA foreign_key_check")" "" "foreign keys intact after the migrations"
expect_eq "$(sqlite3 "$T/v1.sqlite" "SELECT kind || ':' || count(*) FROM runs JOIN games ON games.run_id = runs.id")" "selfplay:1" "runs kept"

# a command that only reads through a read-only connection (report) refuses
# an older schema, naming the upgrade; dama db upgrade migrates it in place
sqlite3 "$T/v1b.sqlite" <"$2/db/migrations/001_initial.sql"
sqlite3 "$T/v1b.sqlite" "PRAGMA user_version = 1; PRAGMA application_id = 1145130305;
  INSERT INTO runs(kind, game) VALUES ('selfplay', 'russian');"
expect_rc 1 "report of a v1 database" "$DAMA" report --db "$T/v1b.sqlite" -o "$T/v1b.html"
grep -qF "$T/v1b.sqlite: database schema version 1 is older than this dama's ($newest): upgrade it with 'dama db upgrade $T/v1b.sqlite'" "$T/err" \
  && [ ! -e "$T/v1b.html" ] && ok || bad "report of v1: $(cat "$T/err")"
expect_rc 0 "db upgrade v1" "$DAMA" db upgrade "$T/v1b.sqlite"
expect_eq "$(cat "$T/out")" "$T/v1b.sqlite: upgraded to schema version $newest" "db upgrade says so"
expect_eq "$(sqlite3 "$T/v1b.sqlite" "PRAGMA user_version")" "$newest" "db upgrade migrated it"
expect_rc 0 "db upgrade again" "$DAMA" db upgrade "$T/v1b.sqlite"
expect_eq "$(cat "$T/out")" "$T/v1b.sqlite: already at schema version $newest" "db upgrade of a current database"
expect_rc 1 "db upgrade of a missing file" "$DAMA" db upgrade "$T/none.sqlite"
grep -q "no such database file" "$T/err" && [ ! -e "$T/none.sqlite" ] && ok || bad "db upgrade created a file: $(cat "$T/err")"
: >"$T/empty.txt"
expect_err 1 "dama db upgrade: $T/empty.txt: an empty file, not a dama database (nothing to upgrade)" "$DAMA" db upgrade "$T/empty.txt"
[ ! -s "$T/empty.txt" ] && ok || bad "db upgrade made an empty file a database"
# a file that fails does not stop the others: each is tried, the exit status says one failed
expect_rc 1 "db upgrade: a missing file, then a current one" "$DAMA" db upgrade "$T/none.sqlite" "$T/v1b.sqlite"
expect_eq "$(cat "$T/out")" "$T/v1b.sqlite: already at schema version $newest" "db upgrade goes on past a failed file"
expect_rc 2 "db upgrade without a file" "$DAMA" db upgrade

# more players than one fit takes (a self-play run: a fresh weight set per game pair): a message saying so
"$DAMA" selfplay --db "$T/many.sqlite" --games 130 --nodes 30 --max-plies 20 --threads 1 --progress 0 >/dev/null 2>&1 || bad "selfplay of 130 games"
expect_rc 1 "ratings of 131 players" "$DAMA" ratings --db "$T/many.sqlite" --all
grep -q "dama ratings: more than 128 players (the most one fit takes; a self-play run has a weight set for every perturbed pair): rate a match or a tournament" "$T/err" && ok || bad "too many players: '$(cat "$T/err")'"

# a reader that ends first (`| head`): the message names the closed output, exit 1
{ sleep 0.3; "$DAMA" pdn export --db "$T/many.sqlite" 2>"$T/pipe.err"; echo $? >"$T/pipe.rc"; } | true
expect_eq "$(cat "$T/pipe.rc")" "1" "export into a closed pipe fails"
grep -q "^dama pdn export: writing game [0-9]*: output closed (its reader ended)$" "$T/pipe.err" && ok || bad "closed pipe: '$(cat "$T/pipe.err")'"

finish "pdn_export.sh"

#!/usr/bin/env bash
# A damaged page and a closed standard output.
#
# The commands read only the pages their queries reach: a broken page of
# the games table that a self-play run, a match or an export never reads
# goes unnoticed by them (docs/database.md), and `dama db check` reads the
# whole file and says it is damaged (exit 1, the file named, nothing left
# beside it). A page they do read fails them with the file named and exit 1,
# `pdn export --match N` included (its look-up of the match took a failed
# read for a match that exists). A reader that closes the pipe
# (`dama export --out - | head -1`) ends dama with "output closed", exit 1,
# and the database closed: no -wal or -shm left beside it.
# Usage: db_damage.sh DAMA_BINARY SOURCE_DIR
set -u
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1 # no configs/dama.cfg here: built-in defaults

"$DAMA" selfplay --db good.sqlite --games 20 --nodes 200 --threads 1 --progress 0 >/dev/null 2>&1 || bad "selfplay of the good database"
"$DAMA" match --db good.sqlite --a default --b default --pairs 1 --nodes 50 --threads 1 --progress 0 >/dev/null 2>&1 ||
  bad "match of the good database"
expect_rc 0 "db check of a sound database" "$DAMA" db check good.sqlite
expect_line out "good.sqlite: ok"
[ -z "$(ls good.sqlite-* 2>/dev/null)" ] && ok || bad "db check left $(ls good.sqlite-*)"

# The page of a table or index, from SQLite's dbstat: the first leaf page of
# `games` (self-play inserts at the right end of the tree, the first leaf is
# not read), and the leaf of `matches`.
page_of() { sqlite3 good.sqlite "SELECT min(pageno) FROM dbstat WHERE name = '$1' AND pagetype = 'leaf'"; }
games_page=$(page_of games)
matches_page=$(page_of matches)
[ "$games_page" -gt 1 ] && [ "$matches_page" -gt 1 ] && ok || bad "no pages found: games $games_page, matches $matches_page"
[ "$(sqlite3 good.sqlite "SELECT count(*) FROM dbstat WHERE name = 'games' AND pagetype = 'leaf'")" -gt 1 ] && ok ||
  bad "the games table has one leaf page: the test needs more games"
head -c 4096 /dev/urandom >garbage
damage() { # damage FILE PAGE: PAGE (1-based) overwritten with random bytes
  dd if=garbage of="$1" bs=4096 seek=$(($2 - 1)) count=1 conv=notrunc status=none
}

# a directory: said as every other command says it, not as SQLite's "disk I/O error"
mkdir adir
expect_err 1 "dama db check: adir: not a dama database (not a regular file)" "$DAMA" db check adir
# an empty file: SQLite reads it as a sound empty database, but it holds no dama schema
: >empty.sqlite
expect_err 1 "dama db check: empty.sqlite: not a dama database (an empty file)" "$DAMA" db check empty.sqlite
# a sound SQLite file of another application is no sound dama database
python3 -c "import sqlite3; c = sqlite3.connect('foreign.sqlite'); c.execute('CREATE TABLE x(a)'); c.commit()"
expect_err 1 "dama db check: foreign.sqlite: not a dama database (an SQLite database with 1 schema object and no dama application_id)" \
  "$DAMA" db check foreign.sqlite
python3 -c "import sqlite3; c = sqlite3.connect('other.sqlite'); c.execute('PRAGMA application_id = 7'); c.execute('CREATE TABLE x(a)'); c.commit()"
expect_err 1 "dama db check: other.sqlite: not a dama database (SQLite application_id 0x00000007, dama's is 0x44414D41)" \
  "$DAMA" db check other.sqlite
# A page no writing command reads: they succeed; db check finds it.
cp good.sqlite games.sqlite && damage games.sqlite "$games_page"
for c in "selfplay --db games.sqlite --games 2 --nodes 50 --threads 1 --progress 0 --seed 9" \
  "match --db games.sqlite --a default --b default --pairs 1 --nodes 50 --threads 1 --progress 0 --seed 9" \
  "export --db games.sqlite --weights db:1 --format json --out w.json --force"; do
  cp games.sqlite work.sqlite
  expect_rc 0 "dama ${c%% *} on a page it never reads" $DAMA ${c//games.sqlite/work.sqlite}
done
expect_err 1 "dama db check: games.sqlite: not a readable dama database: database disk image is malformed" \
  "$DAMA" db check games.sqlite
[ -z "$(ls games.sqlite-* 2>/dev/null)" ] && ok || bad "db check of a damaged file left $(ls games.sqlite-*)"

# A damaged page that integrity_check lists (an overflow page of weight set
# 1): the first problem is said, with the count.
ovf=$(sqlite3 good.sqlite "SELECT max(pageno) FROM dbstat WHERE name = 'weight_sets' AND pagetype = 'overflow'")
cp good.sqlite ovf.sqlite && damage ovf.sqlite "$ovf"
expect_rc 1 "db check of a damaged overflow page" "$DAMA" db check ovf.sqlite
grep -q "^dama db check: ovf.sqlite: \(damaged: .* ([0-9]* problems\? found)\|not a readable dama database: database disk image is malformed\)$" "$T/err" &&
  ok || bad "db check of a damaged overflow page: $(cat "$T/err")"
expect_err 1 "dama export: ovf.sqlite: " "$DAMA" export --db ovf.sqlite --weights db:1 --format json --out w.json --force

# Bytes of a games leaf page overwritten: SQLite lists several problems, some in one result row; the count is
# of the problems (a line each), as sqlite3 prints them, not of the rows (it said 2 for 4)
leaf=$(sqlite3 good.sqlite "SELECT pageno FROM dbstat WHERE name = 'games' AND pagetype = 'leaf' LIMIT 1 OFFSET 1")
cp good.sqlite rows.sqlite
python3 -c "import random,sys; p=int(sys.argv[1]); f=open('rows.sqlite','r+b'); f.seek((p-1)*4096+200); random.seed(1); f.write(bytes(random.randrange(256) for _ in range(1500)))" "$leaf"
want=$(sqlite3 rows.sqlite "PRAGMA integrity_check(100)" 2>/dev/null | grep -v '^\*\*\* in database ' | grep -vc '^ok$')
"$DAMA" db check rows.sqlite >/dev/null 2>"$T/err"
if grep -q "damaged: " "$T/err"; then
  grep -q "($want problems\? found)\$" "$T/err" && ok || bad "db check's count: $(cat "$T/err"), sqlite3 lists $want"
  grep -q "damaged: .*\*\*\*" "$T/err" && bad "db check's first problem holds the head: $(cat "$T/err")" || ok
fi

# Several files: each said, exit 1 when one is damaged or missing.
expect_rc 1 "db check of a sound, a damaged and a missing file" "$DAMA" db check good.sqlite games.sqlite none.sqlite
expect_line out "good.sqlite: ok"
expect_line err "dama db check: none.sqlite: cannot check: No such file or directory"
expect_err 2 "dama db check: no database given (dama db check FILE...)" "$DAMA" db check

# The page of the matches table: pdn export --match 1 reads it and fails,
# with the damaged file said as every command says it.
cp good.sqlite m.sqlite && damage m.sqlite "$matches_page"
expect_err 1 "dama pdn export: m.sqlite: not a readable dama database: database disk image is malformed" \
  "$DAMA" pdn export --db m.sqlite --match 1 -o g.pdn
[ ! -e g.pdn ] && ok || bad "pdn export failed and wrote g.pdn"
[ -z "$(ls m.sqlite-* 2>/dev/null)" ] && ok || bad "pdn export left $(ls m.sqlite-*)"

# A closed standard output: the JSON of weight set 1 (over a megabyte, more
# than a pipe holds) read by head -1. Bounded: timeout.
cp good.sqlite pipe.sqlite
for f in json c; do
  timeout 120 "$DAMA" export --db pipe.sqlite --weights db:1 --format $f --out - 2>pipe.err | head -1 >pipe.out
  rc=${PIPESTATUS[0]}
  expect_eq "$rc" 1 "export --format $f --out - | head -1: exit status"
  expect_eq "$(cat pipe.err)" "dama export: writing standard output: output closed (its reader ended)" \
    "export --format $f --out - | head -1: the message"
  [ -s pipe.out ] && ok || bad "export --format $f: head got nothing"
  [ -z "$(ls pipe.sqlite-* 2>/dev/null)" ] && ok || bad "export --format $f | head -1 left $(ls pipe.sqlite-*)"
done
# a command that does not check its own writes: main's close says it
timeout 60 "$DAMA" help --markdown 2>pipe.err | head -1 >/dev/null
expect_eq "${PIPESTATUS[0]}" 1 "help --markdown | head -1: exit status"
expect_eq "$(cat pipe.err)" "dama help: writing standard output: output closed (its reader ended)" "help --markdown | head -1: the message"

finish "db_damage"

#!/usr/bin/env bash
# A command that opens a database and fails leaves nothing behind: no new
# file beside it (SQLite's -wal and -shm), the file itself unchanged, a
# message naming it and exit code 1. Each command that opens a database is
# run on a corrupt file (4 KiB of random bytes; a real database cut short;
# a real database with one page overwritten), on a file that is no database
# at all, and — reading only — on a good one, which it must not leave -wal
# or -shm beside either. A reader's tidying must not touch the log of a
# writer that is still running.
# Usage: bad_db.sh DAMA_BINARY SOURCE_DIR
set -u
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1 # no configs/dama.cfg here: built-in defaults

"$DAMA" selfplay --db good.sqlite --games 4 --nodes 100 --threads 1 --progress 0 >/dev/null 2>&1 || bad "selfplay of the good database"
[ "$(ls good.sqlite*)" = good.sqlite ] && ok || bad "a closed database has no -wal or -shm: $(ls good.sqlite*)"
size=$(stat -c %s good.sqlite)
[ "$size" -ge 12288 ] && ok || bad "the good database is only $size bytes"
head -c 4096 /dev/urandom >random.sqlite
head -c 100 good.sqlite >cut100.sqlite      # the header alone
head -c 4096 good.sqlite >cut4k.sqlite      # the first page
head -c $((size / 2)) good.sqlite >half.sqlite
{ head -c 4096 good.sqlite; head -c 4096 /dev/urandom; tail -c +8193 good.sqlite; } >page2.sqlite
printf 'these are no dama data\n' >text.sqlite

# The commands, with F for the database. db merge and export only read it.
cmds=(
  "tune --db F --epochs 1 --threads 1"
  "selfplay --db F --games 2 --nodes 50 --threads 1 --progress 0"
  "match --db F --pairs 1 --nodes 50 --threads 1 --progress 0"
  "report --db F -o r.html --force"
  "db merge F --into merged.sqlite"
  "export --db F --weights db:1 --format json --out w.json --force"
  "pdn export --db F -o g.pdn --force"
  "ratings --db F --all"
  "train --db F --generations 1 --games-per-gen 2 --nodes 50 --threads 1"
  "spsa --db F --iterations 1 --pairs 1 --nodes 50 --threads 1"
  "tournament --db F --rounds 1 --nodes 50 --concurrency 1 name=A,weights=default name=B,weights=default"
  "search --db F --weights db:1 --depth 2"
  "egtb draws --db F --match 1"
)
for f in random cut100 cut4k half page2 text; do
  for c in "${cmds[@]}"; do
    rm -rf w && mkdir w && cp "$f.sqlite" w/F
    sum=$(md5sum <w/F)
    (cd w && $DAMA $c >out 2>err)
    rc=$?
    # page2: a command may succeed when the broken page holds nothing it
    # reads, or fail on what it read there, in its own words
    if [ "$f" = page2 ]; then [ "$rc" = 0 ] || [ "$rc" = 1 ] && ok || bad "page2: dama $c: exit $rc"; else
      [ "$rc" = 1 ] && ok || bad "$f: dama $c: exit $rc (expected 1): $(head -c 300 w/err)"
      grep -q "F: " w/err && ok || bad "$f: dama $c: the message does not name the file: $(head -c 300 w/err)"
    fi
    [ "$(md5sum <w/F)" = "$sum" ] && ok || bad "$f: dama $c: the file was changed"
    grep -q "F: F:" w/err && bad "$f: dama $c: the file named twice: $(head -c 300 w/err)" || ok
    # a damaged file is said so, never with the SQL that found it
    grep -qi "select \|pragma\|insert " w/err && bad "$f: dama $c: the message quotes SQL: $(head -c 300 w/err)" || ok
    if grep -q "malformed" w/err; then
      grep -q "F: not a readable dama database: database disk image is malformed" w/err && ok ||
        bad "$f: dama $c: a damaged file not said so: $(head -c 300 w/err)"
    fi
    left=$(cd w && ls | grep -vx 'F\|out\|err\|r.html\|w.json\|g.pdn')
    [ -z "$left" ] && ok || bad "$f: dama $c: left $(echo $left) beside the file"
    [ "$rc" = 0 ] || [ -z "$(cd w && ls | grep -x 'merged.sqlite\|r.html\|w.json\|g.pdn')" ] && ok ||
      bad "$f: dama $c failed and wrote its output anyway"
  done
done
expect_eq "$(cd w && cat err)" "dama egtb draws: F: not a dama database (not an SQLite file)" "a text file: the message"

# Readers of a good database: no -wal or -shm left beside it, nothing changed.
for c in "report --db F -o r.html --force" "db merge F --into merged.sqlite" \
  "export --db F --weights db:1 --format json --out w.json --force" "pdn export --db F -o g.pdn --force"; do
  rm -rf w && mkdir w && cp good.sqlite w/F
  sum=$(md5sum <w/F)
  (cd w && $DAMA $c >out 2>err) && ok || bad "good: dama $c: exit $?: $(head -c 300 w/err)"
  [ "$(md5sum <w/F)" = "$sum" ] && ok || bad "good: dama $c: the file was changed"
  [ -z "$(cd w && ls F-wal F-shm 2>/dev/null)" ] && ok || bad "good: dama $c: left $(cd w && ls F-*)"
done

# Readers of an empty file: refused ("no dama data"), the file left empty
# (a reader that opened it for writing made the whole schema in it).
for c in "report --db F -o r.html --force" "export --db F --format json --out w.json --force" \
  "pdn export --db F -o g.pdn --force" "ratings --db F --all" "egtb draws --db F --match 1" "train --db F --ladder"; do
  rm -rf w && mkdir w && : >w/F
  (cd w && $DAMA $c >out 2>err)
  rc=$?
  [ "$rc" = 1 ] && ok || bad "empty: dama $c: exit $rc (expected 1): $(head -c 300 w/err)"
  grep -q "F: empty file: no dama data" w/err && ok || bad "empty: dama $c: $(head -c 300 w/err)"
  [ ! -s w/F ] && ok || bad "empty: dama $c wrote $(stat -c %s w/F) bytes into the empty file"
done

# A writer still running keeps its log: a reader that ends meanwhile must not
# remove the -wal and -shm it uses.
cp good.sqlite live.sqlite
"$DAMA" selfplay --db live.sqlite --games 4000 --nodes 400 --threads 1 --progress 0 --seed 7 >sp.out 2>&1 &
sp=$!
wait_until -p "$sp" "the writer's -wal" test -e live.sqlite-wal
[ -e live.sqlite-wal ] && ok || bad "the writer has no -wal"
"$DAMA" report --db live.sqlite -o live.html --force >/dev/null 2>&1 && ok || bad "report beside a writer"
[ -e live.sqlite-wal ] && [ -e live.sqlite-shm ] && ok || bad "a reader removed a running writer's -wal or -shm"
kill -0 "$sp" 2>/dev/null && ok || bad "the writer ended before the reader did: the check proves nothing"
# the writer stores a batch at least every second
wait_until -p "$sp" "5 games stored beside the reader" at_least live.sqlite "SELECT count(*) FROM games" 5
kill -INT "$sp" 2>/dev/null
wait "$sp"
[ "$(sqlite3 live.sqlite 'PRAGMA integrity_check')" = ok ] && ok || bad "the writer's database after a reader: $(sqlite3 live.sqlite 'PRAGMA integrity_check' | head -3)"
n=$(sqlite3 live.sqlite 'SELECT count(*) FROM games')
[ "$n" -gt 4 ] && ok || bad "the writer stored no games beside the reader ($n)"
[ -z "$(ls live.sqlite-wal live.sqlite-shm 2>/dev/null)" ] && ok || bad "the writer left $(ls live.sqlite-*)"

finish "bad_db"

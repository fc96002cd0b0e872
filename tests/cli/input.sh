#!/usr/bin/env bash
# CLI contract tests of bad input: numbers out of range or malformed (command
# line and config files), database paths that would lose data, files that
# export and tune may or may not replace.
# Usage: input.sh DAMA_BINARY SOURCE_DIR
set -u
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1 # no configs/dama.cfg here: built-in defaults

# ---- numbers: one checked parser, a range per option ----
expect_err 2 "--depth: '4294967297' is out of range 1..100" "$DAMA" search --depth 4294967297
# a zero limit is not "no limit" (which searched to depth 10 without a word)
expect_err 2 "--depth: '0' is out of range 1..100" "$DAMA" search --depth 0
expect_err 2 "--nodes: '0' is out of range 1.." "$DAMA" search --nodes 0
expect_err 2 "--movetime: '0' is out of range 1..86400000" "$DAMA" search --movetime 0
expect_err 2 "--time: '0' is out of range 1..864000000" "$DAMA" search --time 0 --inc 10
# a folder where a file is wanted: the read error, not an empty file
# (every file a command reads says so: util/atomic_file.h file_read_error)
expect_err 2 "dama: '$T' is a directory, not a config file" "$DAMA" moves --config "$T"
expect_err 1 "dama search: --weights: '$T' is a directory, not a weight file" "$DAMA" search --weights "$T" --depth 1
expect_err 1 "dama moves: '$T' is a directory, not a position file" "$DAMA" moves --file "$T"
expect_err 1 "dama book probe: '$T' is a directory, not a book" "$DAMA" book probe --book "$T"
expect_err 1 "dama bench: '$T' is a directory, not an opening book" "$DAMA" bench --book "$T"
expect_err 1 "cannot read weight file 'nothere.cfg': No such file or directory" "$DAMA" search --weights nothere.cfg --depth 1
if [ "$(id -u)" != 0 ]; then # root reads any file
  printf 'game = "russian";\n' >locked.cfg && chmod 000 locked.cfg
  expect_err 1 "cannot read weight file 'locked.cfg': Permission denied" "$DAMA" search --weights locked.cfg --depth 1
fi
expect_err 1 "dama search: '$T' is a directory, not a search parameter file" "$DAMA" search --search-params "$T" --depth 1
expect_err 1 "cannot read search parameter file 'nothere.txt': No such file or directory" "$DAMA" search --search-params nothere.txt --depth 1
expect_err 2 "--depth: '99999999999999999999' is out of range" "$DAMA" perft --depth 99999999999999999999
expect_err 2 "--epochs: '4294967298' is out of range 0..1000000" "$DAMA" tune --epochs 4294967298
expect_err 2 "--max-plies: '4294967306' is out of range 1..1024" "$DAMA" selfplay --max-plies 4294967306
expect_err 2 "--random-plies: '-1' is out of range 0..40" "$DAMA" selfplay --random-plies -1
# --depth replaces --nodes: both on the command line is one limit too many (the nodes were dropped unsaid)
for c in selfplay spsa; do
  expect_err 2 "dama $c: give --depth or --nodes, not both (--depth 1 and --nodes 200000)" "$DAMA" $c --db dn.sqlite \
    --depth 1 --nodes 200000
done
[ ! -e dn.sqlite ] && ok || bad "--depth and --nodes: a database was made"
expect_err 2 "--threads: '-1' is out of range 0..256" "$DAMA" tune --threads -1
expect_err 2 "--progress: '-1' is out of range 0..86400" "$DAMA" match --progress -1
expect_err 2 "--nodes: '12abc' is not an integer" "$DAMA" search --nodes 12abc
expect_err 2 "--lr: 'nan' is not a number" "$DAMA" tune --lr nan
expect_err 2 "--depth: ' 5' is not an integer" "$DAMA" perft --depth ' 5'
expect_err 2 "--alpha: '0.9' is out of range 1e-06..0.5" "$DAMA" match --alpha 0.9
# options that do nothing without another: refused (a match would otherwise start anew instead of resuming)
expect_err 2 "dama match: --elo0 does nothing without --sprt" "$DAMA" match --db req.sqlite --elo0 1 --pairs 1
expect_err 2 "dama match: --beta does nothing without --sprt" "$DAMA" match --db req.sqlite --beta 0.1 --pairs 1
expect_err 2 "dama match: --repeat-plies does nothing without --repeat-book" "$DAMA" match --db req.sqlite --repeat-plies 7
[ ! -e req.sqlite ] && ok || bad "a refused match made its database"
expect_err 2 "dama bench: --model does nothing without --tuner, --tuner-only or --all" "$DAMA" bench --depth 1 --model patterns
expect_err 2 "dama bench: --threads does nothing without --tuner, --tuner-only or --all" "$DAMA" bench --depth 1 --threads 2
expect_err 2 "dama bench: --perft-depth does nothing without --perft or --all" "$DAMA" bench --depth 1 --perft-depth 3
expect_err 2 "dama bench: --book-every does nothing without --book" "$DAMA" bench --depth 1 --book-every 2
expect_rc 0 "bench --perft --perft-depth" "$DAMA" bench --depth 1 --perft --perft-depth 2
# config files: libconfig's own int wrap is caught before it reads the file
printf 'selfplay = { games = 4294967298; };\n' >g.cfg
expect_err 2 "g.cfg:1: integer '4294967298' is out of range" "$DAMA" selfplay --config g.cfg
printf 'selfplay = {\n  games = 3000000000L;\n};\n' >g64.cfg
expect_err 2 "games (g64.cfg:2): '3000000000' is out of range 2..100000000" "$DAMA" selfplay --config g64.cfg
printf 'tune = { threads = -1; };\n' >t.cfg
expect_err 2 "threads (t.cfg:1): '-1' is out of range 0..256" "$DAMA" tune --config t.cfg
printf 'tune = { epochs = 1.5; };\n' >e.cfg
expect_err 2 "epochs must be an integer" "$DAMA" tune --config e.cfg
printf 'tune = { lr = true; };\n' >b.cfg
expect_err 2 "lr must be a number" "$DAMA" tune --config b.cfg
# a flag from a config file is true or false: a misspelt or empty word is
# refused (it was read as true: any string but 0/false/no/off was)
printf 'search = { quiet = "fasle"; };\n' >q.cfg
expect_err 2 "dama: q.cfg:1: quiet must be true or false, not 'fasle'" "$DAMA" search --config q.cfg --depth 1
printf 'search = {\n  quiet = "";\n};\n' >q0.cfg
expect_err 2 "dama: q0.cfg:2: quiet must be true or false, not ''" "$DAMA" search --config q0.cfg --depth 1
printf 'search = { quiet = 2; };\n' >q2.cfg
expect_err 2 "dama: q2.cfg:1: quiet must be true or false, not 2" "$DAMA" search --config q2.cfg --depth 1
# a list or array in place of a command's group (it crashed: a list's
# elements have no names), or of a value
for l in 'perft = (1);' 'perft: ( 1, 2 );' 'perft = [ 1, 2 ];' 'perft = ({depth=1;});'; do
  printf '%s\n' "$l" >l.cfg
  expect_err 2 "dama: l.cfg:1: 'perft' is a list: a setting is one value" "$DAMA" perft --depth 1 --config l.cfg
done
printf 'depth = [3];\n' >l.cfg
expect_err 2 "dama: l.cfg:1: depth must be a scalar value" "$DAMA" perft --config l.cfg
for w in No OFF false 0; do
  printf 'search = { quiet = "%s"; };\n' "$w" >q1.cfg
  expect_rc 0 "quiet = \"$w\"" "$DAMA" search --config q1.cfg --depth 1
  grep -q '^info depth 1 ' out && ok || bad "quiet = \"$w\" is false: the iteration lines are printed: $(cat out)"
done
for w in yes ON true 1; do
  printf 'search = { quiet = "%s"; };\n' "$w" >q1.cfg
  expect_rc 0 "quiet = \"$w\"" "$DAMA" search --config q1.cfg --depth 1
  grep -q '^info ' out && bad "quiet = \"$w\" is true: no iteration lines: $(cat out)" || ok
done
# a constraint beyond the range: one line naming the option, its value and
# the constraint that failed (not the list of every option's constraints)
expect_err 2 "dama selfplay: --games 3: must be an even number (pairs with colours swapped)" "$DAMA" selfplay --games 3
expect_eq "$(wc -l <err)" 1 "selfplay --games 3: one line"
printf 'selfplay = { games = 5; };\n' >g5.cfg
expect_err 2 "dama selfplay: games = 5 (g5.cfg:1): must be an even number (pairs with colours swapped)" "$DAMA" selfplay --config g5.cfg
# a config file's bad game names the file and line; a config file that cannot be read says why
printf '# a comment\ngame = "nope";\n' >c5.cfg
expect_err 2 "dama moves: game = \"nope\" (c5.cfg:2): unknown game 'nope' (choices: russian" "$DAMA" moves --config c5.cfg
expect_err 2 "dama: cannot read config file '$T/nonexist.cfg': No such file or directory" "$DAMA" moves --config "$T/nonexist.cfg"
expect_err 2 "dama train: --games-per-gen 3: must be an even number (pairs with colours swapped)" "$DAMA" train --games-per-gen 3
expect_err 2 "dama train: --elo1 2: must be above --elo0 (5)" "$DAMA" train --elo0 5 --elo1 2
expect_err 2 "dama search: --inc 10: needs --time (the clock)" "$DAMA" search --inc 10
expect_rc 2 "search --movestogo without --time" "$DAMA" search --movestogo 10
expect_eq "$(cat err)" "dama search: --movestogo 10: needs --time (the clock)" "search --movestogo: the one message"
# two limits at once: refused naming both (the search stopped at whichever came first)
expect_err 2 "dama search: --depth 5 and --movetime 100 are two search limits: give one of --depth, --nodes, --movetime and --time" \
  "$DAMA" search --depth 5 --movetime 100
expect_err 2 "dama search: --depth 3 and --nodes 500 are two search limits" "$DAMA" search --nodes 500 --depth 3
expect_err 2 "dama search: --movetime 100 and --time 2000 are two search limits" "$DAMA" search --time 2000 --inc 10 --movetime 100
expect_err 2 "dama search: --depth 4 and --time 2000 are two search limits" "$DAMA" search --depth 4 --time 2000 --movestogo 5
expect_eq "$(wc -l <err)" 1 "search: two limits, one line"
expect_err 2 "dama egtb draws: --reasons 'D7,,D8': reason 2 is empty" "$DAMA" egtb draws --reasons 'D7,,D8' --db none.sqlite --match 1
# --help: every numeric option shows its range; reals as written (%g)
# every command dama lists (a new command is covered without editing this)
cmds=$("$DAMA" --help | sed -n '/^commands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }')
[ "$(echo "$cmds" | wc -w)" -ge 10 ] && ok || bad "command list: $cmds"
for c in $cmds; do
  "$DAMA" $c --help >h.txt 2>&1
  n=$(grep -cE -- '^  --[a-z0-9-]+ [NX] ' h.txt)
  r=$(grep -cE -- '^  --[a-z0-9-]+ [NX] .*\[-?[0-9.e+-]+\.\.' h.txt)
  [ "$n" = "$r" ] && ok || bad "$c --help: $n numeric options, $r with a range"
done
printf 'match = { alpha = 0.05; beta = 0.1; };\n' >m.cfg
# every --weights (match's --a and --b, tournament's weights=) lists the same accepted forms
forms="'default' (compiled in), 'tuned' (newest tuned set in --db), 'best' (best accepted generation of the newest dama train), 'train:ID', db:ID or ID, or a weight file (.cfg, or the JSON of export --format json)"
nw=0
for c in $cmds; do
  "$DAMA" $c --help >h.txt 2>&1
  for o in --weights --a; do
    line=$(grep -E -- "^  $o " h.txt) || continue
    nw=$((nw + 1))
    case "$line" in *"$forms"*) ok ;; *) bad "$c --help, $o: not the shared forms: $line" ;; esac
  done
done
expect_eq "$nw" 10 "commands with a --weights or --a option"
"$DAMA" tournament --help | grep -qF "W: $forms" && ok || bad "tournament --help: weights=W forms"
"$DAMA" match --config m.cfg --help >h.txt
grep -q 'm.cfg: 0.1)' h.txt && ok || bad "help shows config reals with %g: $(grep beta h.txt)"
grep -q '0.05000000' h.txt && bad "help prints 0.05000000...: $(grep alpha h.txt)" || ok

# ---- database paths that would store nothing on disk ----
expect_err 2 "--db: '': an empty path" "$DAMA" selfplay --db '' --games 2 --nodes 50
expect_err 2 "--db: ':memory:'" "$DAMA" selfplay --db ':memory:' --games 2 --nodes 50
expect_err 2 "SQLite URIs are not accepted" "$DAMA" match --db 'file:m.sqlite?mode=memory' --pairs 1
expect_err 2 "SQLite URIs are not accepted" "$DAMA" tune --db 'FILE:x.sqlite'
expect_err 2 "dama export: --db: '': an empty path" "$DAMA" export --db '' --weights 1
expect_err 1 "no.db: cannot create the database: folder 'missing-folder' does not exist" \
  "$DAMA" selfplay --db missing-folder/no.db --games 2 --nodes 50
[ ! -e missing-folder ] && ok || bad "selfplay made the missing folder"
expect_err 1 "dama search: --egtb: an empty path: name a directory, or give --no-egtb" "$DAMA" search --egtb '' --depth 1
expect_err 2 "dama egtb: --dir: an empty path" "$DAMA" egtb probe --dir '' --fen W:WK1:B5
expect_err 2 "dama search: --search-param: '' names nothing" "$DAMA" search --search-param '' --depth 1
# ratings --all (the default) of self-play: its pairs never met; said with what to rate instead
"$DAMA" selfplay --db pairs.sqlite --games 4 --nodes 50 --threads 1 --progress 0 >/dev/null 2>&1 || bad "selfplay pairs.sqlite"
expect_err 1 "are in groups that never met" "$DAMA" ratings --db pairs.sqlite
grep -q "self-play's perturbed pairs play only each other: rate a match or tournament (--match N, --tournament N)" \
  "$T/err" && ok || bad "ratings of self-play: $(cat "$T/err")"
rm -f pairs.sqlite
expect_err 2 "dama search: --weights: an empty weight set" "$DAMA" search --weights '' --depth 1
# an empty output or parameter file path is a bad value, exit 2, for every command
expect_err 2 "dama report: --out: an empty path names no file" "$DAMA" report -o ''
expect_err 2 "dama book build: --out: an empty path names no file" "$DAMA" book build --out ''
expect_err 2 "dama export: --file: an empty path names no file" "$DAMA" export --weights default --no-header --file ''
expect_err 2 "dama search: --search-params: an empty path names no file" "$DAMA" search --search-params '' --depth 1
expect_err 2 "dama tournament: --pdn-out: an empty path names no file" "$DAMA" tournament --pdn-out '' name=A name=B
expect_err 2 "dama hub: --search-param: ' , ' names nothing" "$DAMA" hub --search-param ' , '
printf 'db = "";\n' >db.cfg
expect_err 2 "db (db.cfg:1): '': an empty path" "$DAMA" selfplay --config db.cfg --games 2
[ -z "$(ls -A | grep -v '\.cfg$\|h.txt\|out\|err')" ] && ok || bad "no database file made: $(ls -A)"

# ---- export / tune --out: --force to replace, never the database ----
"$DAMA" selfplay --db d.sqlite --games 2 --nodes 50 --threads 1 --progress 0 >/dev/null 2>&1 || bad "tiny selfplay"
cp d.sqlite d.before
expect_err 1 "is the database" "$DAMA" export --db d.sqlite --weights default --no-header --file d.sqlite --force
expect_err 1 "is the database" "$DAMA" export --db d.sqlite --weights default --no-header --file ./d.sqlite --force
ln -s d.sqlite sym.sqlite
expect_err 1 "is the database" "$DAMA" export --db sym.sqlite --weights default --no-header --file "$T/d.sqlite" --force
ln d.sqlite hard.cfg
expect_err 1 "is the database" "$DAMA" export --db d.sqlite --weights default --no-header --file hard.cfg --force
expect_err 1 "is the database" "$DAMA" export --db d.sqlite --weights default --header d.sqlite --force
expect_err 1 "is the database" "$DAMA" tune --db d.sqlite --out d.sqlite --force
cmp -s d.sqlite d.before && ok || bad "the database was changed"
echo keep >w.cfg
expect_err 1 "'w.cfg' exists (--force replaces it)" "$DAMA" export --db d.sqlite --weights default --no-header --file w.cfg
expect_err 1 "'h.h' exists" sh -c "echo keep >h.h; '$DAMA' export --db d.sqlite --weights default --header h.h"
[ "$(cat w.cfg)" = keep ] && ok || bad "w.cfg replaced without --force"
expect_err 1 "'w.cfg' exists" "$DAMA" tune --db d.sqlite --out w.cfg
"$DAMA" export --db d.sqlite --weights default --no-header --file w.cfg --force >/dev/null 2>"$T/err" && ok || bad "export --force: $(cat "$T/err")"
grep -q '^game = "russian";' w.cfg && ok || bad "w.cfg not written"
ls -A | grep -q '\.tmp\.' && bad "temporary file left: $(ls -A)" || ok
# one path for two outputs: the second would replace the first
expect_err 2 "dama export: --out best.json and --file best.json name the same file: give two paths" \
  "$DAMA" export --weights default --format json --out best.json --file best.json --force
[ ! -e best.json ] && ok || bad "export to one path twice wrote it"
expect_err 2 "dama export: --format cfg needs --out PATH" "$DAMA" export --weights default --format cfg
grep -q "standard output" "$T/err" && bad "cfg's message offers standard output: $(cat "$T/err")" || ok
mkdir -p sub
expect_err 2 "dama export: --out ./sub/../new.h and --file new.h name the same file" \
  "$DAMA" export --weights default --format c --out ./sub/../new.h --file new.h --force
[ ! -e new.h ] && ok || bad "export to one file spelt two ways (neither there) wrote it"
expect_err 2 "dama export: --out ./w.cfg and --file w.cfg name the same file" \
  "$DAMA" export --weights default --format json --out ./w.cfg --file w.cfg --force
expect_err 2 "dama export: --header ./w.cfg and --file w.cfg name the same file" \
  "$DAMA" export --weights default --header ./w.cfg --file w.cfg --force
grep -q '^game = "russian";' w.cfg && ok || bad "w.cfg changed by a refused export"
# --out - : standard output for c (the bytes of the file) and json; cfg refused with exit 2
"$DAMA" export --weights default --format c --out - >stdout.h 2>"$T/err" && ok || bad "c to stdout: $(cat "$T/err")"
expect_line err "wrote standard output (weights default)"
"$DAMA" export --weights default --format c --out file.h >/dev/null 2>&1
cmp -s stdout.h file.h && ok || bad "the header on stdout differs from the file"
[ ! -e ./- ] && ok || bad "--out - wrote a file named -"
expect_err 2 "dama export: --format cfg writes a file (atomically): give --out PATH" \
  "$DAMA" export --weights default --format cfg --out -
# --file - : refused (it wrote a file named -)
expect_err 2 "dama export: --file writes a weight file (atomically): give a path, not '-'" \
  "$DAMA" export --weights default --format json --out j.json --file -
[ ! -e ./- ] && [ ! -e j.json ] && ok || bad "export --file - wrote a file"

# pdn export -o and tournament --pdn-out: never the database either
cp d.sqlite d.before
expect_err 1 "is the database" "$DAMA" pdn export --db d.sqlite -o d.sqlite --force
expect_err 1 "is the database" "$DAMA" pdn export --db d.sqlite --out hard.cfg --force
[ ! -e d.sqlite-wal ] && ok || bad "d.sqlite-wal is there: the next check proves nothing"
expect_err 1 "refusing to write './d.sqlite-wal': it is the database d.sqlite-wal" \
  "$DAMA" pdn export --db d.sqlite -o ./d.sqlite-wal --force
[ ! -e d.sqlite-wal ] && ok || bad "pdn export wrote the database's -wal name"
echo keep >e.pdn
expect_err 1 "'e.pdn' exists (--force replaces it)" "$DAMA" pdn export --db d.sqlite -o e.pdn
"$DAMA" pdn export --db d.sqlite -o e.pdn --force 2>/dev/null && grep -q '^\[Event ' e.pdn && ok || bad "pdn export --force"
cmp -s d.sqlite d.before && ok || bad "pdn export changed the database"
expect_err 1 "--pdn-out: refusing to write 'd.sqlite': it is the database" "$DAMA" tournament --db d.sqlite --pdn-out d.sqlite --nodes 50 name=A name=B
[ "$(sqlite3 d.sqlite 'SELECT count(*) FROM tournaments')" = 0 ] && ok || bad "a refused tournament was stored"
[ "$(sqlite3 d.sqlite 'PRAGMA integrity_check')" = ok ] && ok || bad "database damaged by --pdn-out"
# neither there yet: the names are compared (the database's -wal spelled another way too)
expect_err 1 "--pdn-out: refusing to write 'new.sqlite': it is the database new.sqlite" "$DAMA" tournament --db new.sqlite --pdn-out new.sqlite --nodes 50 name=A name=B
expect_err 1 "--pdn-out: refusing to write './new.sqlite-wal': it is the database new.sqlite-wal" "$DAMA" tournament --db new.sqlite --pdn-out ./new.sqlite-wal --nodes 50 name=A name=B
[ ! -e new.sqlite ] && ok || bad "a refused tournament left its database new.sqlite"

# ---- a database in a folder this user cannot write (an archive, a read-only
# mount): the commands that only read it work, writing ones say why not, and a
# pending write-ahead log is never skipped. Root writes anywhere, so as root
# the commands run as nobody (setpriv); without setpriv the checks are skipped.
RUN_AS=()
[ "$(id -u)" = 0 ] && RUN_AS=(setpriv --reuid=65534 --regid=65534 --clear-groups)
if [ "$(id -u)" != 0 ] || command -v setpriv >/dev/null; then
  sqlite3 d.sqlite "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
  mkdir ro ro-wal rw
  chmod 711 "$T" && chmod 777 rw
  cp "$DAMA" ro-bin && chmod 755 ro-bin
  cp d.sqlite ro/d.sqlite
  # a copy taken while a writer's log was not yet checkpointed: d.sqlite-wal holds a change
  sqlite3 d.sqlite "PRAGMA wal_autocheckpoint = 0; UPDATE runs SET note = 'in the log'" ".system cp d.sqlite d.sqlite-wal ro-wal/" >/dev/null
  [ -s ro-wal/d.sqlite-wal ] && ok || bad "no pending log in the copy"
  chmod 444 ro/d.sqlite ro-wal/d.sqlite ro-wal/d.sqlite-wal && chmod 555 ro ro-wal
  R=("${RUN_AS[@]}" "$T/ro-bin")
  "${R[@]}" pdn export --db "$T/ro/d.sqlite" -o "$T/rw/ro.pdn" 2>"$T/err" && grep -q '^\[Event ' rw/ro.pdn && ok || bad "pdn export of a read-only folder: $(cat "$T/err")"
  "${R[@]}" ratings --db "$T/ro/d.sqlite" --all >"$T/rw/r.txt" 2>"$T/err" && grep -q '^2 russian games, 2 players' rw/r.txt && ok || bad "ratings of a read-only folder: $(cat "$T/err")"
  "${R[@]}" search --db "$T/ro/d.sqlite" --weights db:1 --depth 1 --quiet >/dev/null 2>"$T/err" && ok || bad "search --weights db:1 of a read-only folder: $(cat "$T/err")"
  "${R[@]}" export --db "$T/ro/d.sqlite" --weights db:1 --format cfg --out "$T/rw/w.cfg" >/dev/null 2>"$T/err" && grep -q '^weights = {' rw/w.cfg && ok || bad "export of a read-only folder: $(cat "$T/err")"
  expect_err 1 "cannot write the database: no write permission on the file, or on its folder" "${R[@]}" selfplay --db "$T/ro/d.sqlite" --games 4 --nodes 50 --progress 0
  expect_err 1 "its write-ahead log $T/ro-wal/d.sqlite-wal is pending" "${R[@]}" pdn export --db "$T/ro-wal/d.sqlite"
  expect_err 1 "is pending" "${R[@]}" export --db "$T/ro-wal/d.sqlite" --weights db:1 --format cfg --out "$T/rw/w2.cfg"
  [ ! -e ro/d.sqlite-shm ] && [ ! -e ro-wal/d.sqlite-shm ] && ok || bad "files made in a read-only folder"
  chmod 755 ro ro-wal
fi

# ---- positions: empty strings, NUL bytes ----
expect_err 1 "an empty position string" "$DAMA" moves --fen ''
expect_err 1 "an empty position string" "$DAMA" perft --fen '' --depth 1
expect_err 1 "an empty position string" "$DAMA" search --fen '' --depth 1
expect_err 1 "an empty position string" "$DAMA" status --fen ''
"$DAMA" moves --fen start >/dev/null 2>&1 && ok || bad "--fen start"
printf 'W:Wc3:Bd4\nW:Wc3\000:Bd4,e5\nW:Wc3:Bd4\n' >nul.txt
expect_err 1 "nul.txt line 2: a NUL byte at column 6" "$DAMA" moves --file nul.txt
[ "$(grep -c . out)" = 2 ] && ok || bad "lines 1 and 3 still answered: $(cat out)"
# no position at all, or input that cannot be read, is no empty answer
expect_err 1 "dama moves: /dev/null holds no position (one position per line)" "$DAMA" moves --file /dev/null
"$DAMA" moves --file - <"$T" >out 2>err
expect_eq "$?:$(cat err)" "1:dama moves: cannot read stdin (after line 0): Is a directory" "moves --file - from a folder"
# opening books: the file, the line and the real reason, the bytes escaped (never echoed, never cutting the line)
printf '# a comment may hold \001 anything\nok\tW:Wc3:Bd4\nbad\tW:Wc3,e3\000,g3:Bd4\n' >nulbook.tsv
expect_err 1 "dama match: nulbook.tsv line 3: a NUL byte at column 13" "$DAMA" match --db nb.sqlite --openings nulbook.tsv --pairs 1
[ ! -e nb.sqlite ] && ok || bad "a bad book still created the database"
{ printf 'label\t'; for i in $(seq 40); do printf '\002\003\004\005\006\007\010\013\014\016\017\020\033\037\001'; done; printf '\n'; } >ctlbook.tsv
expect_err 1 "dama selfplay: ctlbook.tsv line 1: non-printable byte 0x" "$DAMA" selfplay --db nb.sqlite --openings ctlbook.tsv --games 2
grep -qx 'dama selfplay: ctlbook.tsv line 1: non-printable byte 0x02 at column 7' err && ok || bad "book of control bytes: $(cat -v err)"
printf 'label\tW:Wc3\377:Bd4\n' >ffbook.tsv
expect_err 1 "dama bench: ffbook.tsv line 1: byte 0xFF at column 12, not UTF-8" "$DAMA" bench --book ffbook.tsv
expect_err 1 "dama selfplay: cannot read opening book 'nobook.tsv': No such file or directory" "$DAMA" selfplay --db nb.sqlite --openings nobook.tsv --games 2
expect_err 1 "dama selfplay: '$T' is a directory, not an opening book" "$DAMA" selfplay --db nb.sqlite --openings "$T" --games 2
# a long bad line: the reason, which comes last, is kept whole (it was cut off)
{ printf 'lbl\t'; for i in $(seq 30); do printf 'W:Wzz,'; done; printf '\n'; } >longbook.tsv
expect_err 1 "...': bad square at character 4" "$DAMA" bench --book longbook.tsv
grep -q '^dama bench: longbook.tsv line 1: bad position string .W:Wzz,W:Wzz,' err && ok || bad "long book line: $(cat err)"
printf 'ok\tW:Wc3:Bd4\n\xd0\x98\xd0\xb3\xd1\x80\xd0\xb0\tW:Wc3:Bd4,e5\n' >utf8book.tsv
"$DAMA" bench --book utf8book.tsv --depth 2 >/dev/null 2>"$T/err" && ok || bad "a UTF-8 label: $(cat "$T/err")"
# a last line without its end of line: the file was cut short, and a cut position can read as
# another valid one ("W:Wc3:Bd4,e5" cut to "W:Wc3:Bd4"): refused with the file and line, as move books
# are, not dealt
printf '# game: russian\nok\tW:Wc3:Bd4,e5\ncut\tW:Wc3:Bd4' >cutbook.tsv
expect_err 1 "dama selfplay: cutbook.tsv line 3: the last line has no end of line: the file is truncated" \
  "$DAMA" selfplay --db cb.sqlite --openings cutbook.tsv --games 2
[ ! -e cb.sqlite ] && ok || bad "a cut-off book still created the database"
expect_err 1 "dama match: cutbook.tsv line 3: the last line has no end of line: the file is truncated" \
  "$DAMA" match --db cb.sqlite --openings cutbook.tsv --pairs 1
expect_err 1 "dama bench: cutbook.tsv line 3: the last line has no end of line: the file is truncated" \
  "$DAMA" bench --book cutbook.tsv --depth 1
printf '# game: russian\nok\tW:Wc3:Bd4,e5\r\ncut\tW:Wc3:Bd4\n' >wholebook.tsv
expect_rc 0 "the same book with its last end of line (and a CRLF)" "$DAMA" bench --book wholebook.tsv --depth 1
# position files and search parameter files alike
printf 'W:Wc3:Bd4\nW:Wc3:Bd4,e5' >cutfens.txt
expect_err 1 "dama moves: cutfens.txt line 2: the last line has no end of line: the file is truncated" \
  "$DAMA" moves --file cutfens.txt
expect_eq "$(cat out)" "$(printf 'W:Wc3:Bd4\tc3:e5')" "moves --file: the whole lines before the cut one answered"
printf 'start' | "$DAMA" moves --file - >out 2>err
expect_eq "$?:$(cat err)" "1:dama moves: - line 1: the last line has no end of line: the file is truncated" \
  "moves --file -: standard input cut short"
printf 'ASP_WINDOW=30\nLMR_BASE=5' >cutsp.txt
expect_err 1 "dama search: cutsp.txt line 2: the last line has no end of line: the file is truncated" \
  "$DAMA" search --depth 1 --search-params cutsp.txt
# a ballot's "# game: NAME" line: another game's ballot is refused (the English deck was dealt to
# Russian); the shipped ballots carry theirs; a file without one is read as the game asked for
E3="$SRC/data/openings/english_3move_156.tsv"
expect_err 1 "dama bench: $E3 line 1: a ballot of english ('# game: english'), not of russian" \
  "$DAMA" bench --game russian --book "$E3" --depth 1
expect_eq "$(head -1 "$E3")" "# game: english" "the English deck's game line"
expect_eq "$(head -1 "$SRC/data/openings/russian_ballots_745.tsv")" "# game: russian" "the Russian ballots' game line"
printf '# mine
# game: turkish
ok	W:Wc3:Bd6
' >turkbook.tsv
expect_err 1 "dama match: turkbook.tsv line 2: a ballot of turkish ('# game: turkish'), not of russian" \
  "$DAMA" match --db tb.sqlite --openings turkbook.tsv --pairs 1
[ ! -e tb.sqlite ] && ok || bad "another game's ballot still created the database"
printf '# game: chess
ok	W:Wc3:Bd6
' >chessbook.tsv
expect_err 1 "chessbook.tsv line 1: a ballot of chess ('# game: chess'), not of russian" "$DAMA" bench --book chessbook.tsv
printf '# game:  Russian 
ok	W:Wc3:Bd6
none	W:Wc3:Bf6
' >rusbook.tsv
expect_rc 0 "a ballot of its own game" "$DAMA" bench --game russian --book rusbook.tsv --depth 1
# a third field is named as one (it was read as part of the position)
printf 'ok	W:Wc3:Bd6
lbl	W:Wc3:Bd6	extra field
' >threebook.tsv
expect_err 1 "dama bench: threebook.tsv line 2: a third field 'extra field' after the position (a line is label<TAB>position)" \
  "$DAMA" bench --book threebook.tsv --depth 1
# a position already over (White to move has none) is refused, not dealt
printf 'ok	W:Wc3:Bd6
over	W:Wa1:Bb2,c3
' >overbook.tsv
expect_err 1 "dama match: overbook.tsv line 2: the position is already over (no-moves): a ballot needs a move to play" \
  "$DAMA" match --db ob.sqlite --openings overbook.tsv --pairs 1
expect_err 1 "longer than 255 bytes" "$DAMA" moves --fen "$(head -c 100000 /dev/zero | tr '\0' 'W' | sed 's/W/W:/g' | head -c 100000)"
expect_err 1 "White has 14 pieces" "$DAMA" moves --fen 'W:W5-18:B1'
expect_err 1 "Black has 9 Batyrs" "$DAMA" moves --game shatra --fen 'qqq/qqq/qqq/1/6k/7/7/7/7/K6/1/3/3/3 w - - - - 0 1'
# the side that just moved has no pieces: no turn follows a side's loss by
# no-moves, so every command refuses it; the side without pieces to move is
# a finished game
NP="bad position string 'W:Wa1:B': Black, who just moved, has no pieces (it had no move: the game was over before this turn)"
expect_err 1 "dama moves: --fen: $NP" "$DAMA" moves --fen 'W:Wa1:B'
expect_err 1 "dama perft: --fen: $NP" "$DAMA" perft --fen 'W:Wa1:B' --depth 1
expect_err 1 "dama search: --fen: $NP" "$DAMA" search --fen 'W:Wa1:B' --depth 1
expect_err 1 "dama status: --fen: $NP" "$DAMA" status --fen 'W:Wa1:B'
# from a config file: the file and line, not an option never typed
printf 'perft: { fen = "W:Wa1:B"; };\n' >fen.cfg
expect_err 1 "dama perft: fen (fen.cfg:1): $NP" "$DAMA" perft --config fen.cfg --depth 1
printf 'search: {\n  depth = 1;\n  weights = "nothere.cfg";\n};\nhub: { weights = "nothere.cfg"; };\n' >w.cfg
expect_err 1 "dama search: weights (w.cfg:3): cannot read weight file 'nothere.cfg'" "$DAMA" search --config w.cfg
expect_err 1 "dama search: --weights: cannot read weight file 'x.cfg'" "$DAMA" search --config w.cfg --weights x.cfg
expect_err 1 "dama hub: weights (w.cfg:5): cannot read weight file 'nothere.cfg'" "$DAMA" hub --config w.cfg
expect_err 1 "dama egtb probe: $NP" "$DAMA" egtb probe --fen 'W:Wa1:B'
printf 'W:Wa1:B\n' >np.txt
expect_err 1 "np.txt line 1: $NP" "$DAMA" moves --file np.txt
expect_err 1 "'W:Wa2:B': Black, who just moved, has no pieces" "$DAMA" status --game turkish --fen 'W:Wa2:B'
expect_err 1 "'B:W:Bb6': White, who just moved, has no pieces" "$DAMA" search --fen 'B:W:Bb6' --depth 1
expect_err 1 "board: Black, who just moved, has no Biy" "$DAMA" status --game shatra --fen '3/3/3/1/7/7/7/7/7/7/K/3/3/3 w - - - - 0 1'
expect_rc 0 "status of a finished game" "$DAMA" status --fen 'B:Wa1:B'
expect_eq "$(head -1 out)" "result 1-0 no-moves" "Black to move without pieces has lost"
expect_rc 0 "status of a finished Turkish game" "$DAMA" status --game turkish --fen 'W:W:Ba6'
expect_eq "$(head -1 out)" "result 0-1 no-moves" "White to move without pieces has lost"
# moves of a finished game: its result, not an empty output (each game)
expect_rc 0 "moves of a finished game" "$DAMA" moves --fen 'W:WKa1:Bb2,c3'
expect_eq "$(cat out)" "game over: 0-1 no-moves (black wins, white to move has no legal move)" "moves: russian, blocked"
expect_rc 0 "moves of a finished game, no pieces" "$DAMA" moves --fen 'B:Wa1:B'
expect_eq "$(cat out)" "game over: 1-0 no-moves (white wins, black to move has no legal move)" "moves: russian, no pieces"
expect_rc 0 "moves of a finished Turkish game" "$DAMA" moves --game turkish --fen 'W:W:Ba6'
expect_eq "$(cat out)" "game over: 0-1 no-moves (black wins, white to move has no legal move)" "moves: turkish"
SH='3/3/3/1/7/7/7/S1S4/SS5/kSS4/1/3/3/2K b - - - - 0 1'
expect_rc 0 "moves of a finished Shatra game" "$DAMA" moves --game shatra --fen "$SH"
expect_eq "$(cat out)" "game over: 1-0 no-moves (white wins, black to move has no legal move)" "moves: shatra"
expect_eq "$("$DAMA" status --game shatra --fen "$SH" | head -1)" "result 1-0 no-moves" "status agrees"
# ... and in a file, each line's second field as --fen prints it (it was empty)
printf 'W:WKa1:Bb2,c3\nW:Wc3:Bd4\nB:Wa1:B\n' >over.txt
expect_rc 0 "moves --file with finished games" "$DAMA" moves --file over.txt
expect_eq "$(cat out)" "$(printf 'W:WKa1:Bb2,c3\tgame over: 0-1 no-moves (black wins, white to move has no legal move)\nW:Wc3:Bd4\tc3:e5\nB:Wa1:B\tgame over: 1-0 no-moves (white wins, black to move has no legal move)')" \
  "moves --file: a finished game's result"
printf '%s\n' "$SH" | "$DAMA" moves --game shatra --file - >out 2>&1
expect_eq "$(cut -f2 out)" "$("$DAMA" moves --game shatra --fen "$SH")" "moves --file: Shatra, as --fen"
# a game a rule ends although moves remain has none either (they were listed): game_outcome, as status
for c in "shatra|k2/3/3/1/7/7/7/7/7/7/1/3/3/2K w - - - - 0 1|game over: 1/2-1/2 biys-only (draw)" \
  "turkish|W:WKa1:BKh8|game over: 1/2-1/2 one-each (draw)" "turkish|B:WKa1,b2:Bh7|game over: 1-0 lone-man (white wins)"; do
  IFS='|' read -r g fen want <<<"$c"
  expect_rc 0 "moves of a $g game a rule ended" "$DAMA" moves --game "$g" --fen "$fen"
  expect_eq "$(cat out)" "$want" "moves: $g, $fen"
  r=${want#game over: }
  expect_eq "$("$DAMA" status --game "$g" --fen "$fen" | head -1)" "result ${r% (*}" "status agrees"
  printf '%s\n' "$fen" | "$DAMA" moves --game "$g" --file - >out 2>&1
  expect_eq "$(cat out)" "$(printf '%s\t%s' "$fen" "$want")" "moves --file: $g, $fen"
done
# ... and status counts none and no capture there, as for a position without a legal move (it
# counted the moves the rule left, 24, 25, 14, 1 and 7, and 'capture yes' for the lone man that can take)
for c in "shatra|k2/3/3/1/7/7/7/7/7/7/1/3/3/2K w - - - - 0 1|1/2-1/2 biys-only" \
  "shatra|k2/3/3/1/7/7/7/S6/7/7/1/3/3/2K w - - - - 60 1|1/2-1/2 quiet-60" \
  "turkish|W:WKa1:BKh8|1/2-1/2 one-each" "turkish|B:WKa1,h6:Bh7|1-0 lone-man" "russian|W:WKa1:Bb2,c3|0-1 no-moves"; do
  IFS='|' read -r g fen want <<<"$c"
  expect_eq "$("$DAMA" status --game "$g" --fen "$fen" | sed -n '1p;3,4p' | tr '\n' ' ')" "result $want moves 0 capture no " \
    "status: $g, $fen"
done
expect_eq "$("$DAMA" status --fen 'W:WKa1:BKb8' --moves 'a1-b2 b8-a7 b2-a1 a7-b8 a1-b2 b8-a7 b2-a1 a7-b8' | sed -n '3p;5,6p' | tr '\n' ' ')" \
  "result 1/2-1/2 D3 moves 0 capture no " "status: threefold repetition, no moves"
expect_eq "$("$DAMA" status --game turkish --fen 'B:WKa1,h6:Bh7,a7' | sed -n '1p;3,4p' | tr '\n' ' ')" "result * moves 1 capture yes " \
  "status: a game going on counts its moves"

# ---- binary bytes in positions and moves are quoted as \xNN, the move once ----
expect_err 1 "dama status: --moves: move 1: move 'c3\x1B[2J': unexpected '\x1B'" "$DAMA" status --fen start --moves "c3$(printf '\033')[2J"
expect_err 1 "bad position string 'W:Wc3\x01:Bd4'" "$DAMA" moves --fen "$(printf 'W:Wc3\001:Bd4')"
expect_err 1 "dama status: --moves: move 2: illegal move 'c3-d4'" "$DAMA" status --fen start --moves "c3-d4 c3-d4"
head -c 2000 /dev/urandom | tr -d '\000' >rand.txt
"$DAMA" moves --file rand.txt >out 2>err
LC_ALL=C grep -q '[[:cntrl:]]' err && bad "moves --file of random bytes: control bytes in the messages" || ok
expect_err 1 "dama moves: cannot read position file 'nothere.txt': No such file or directory" "$DAMA" moves --file nothere.txt

# ---- weight files: every term, or an explicit base ----
printf 'game = "russian";\nweights = { };\n' >empty.cfg
expect_err 1 "weight file empty.cfg: 26 of 26 terms missing: MAN, KING, MAN_PST," "$DAMA" search --weights empty.cfg --depth 1
grep -qF '; name every term or add base = "default";' err && ok || bad "missing terms hint: $(cat err)"
# a long path is named whole, the names listed whole
mkdir -p "$T/a-folder-with-a-rather-long-name-for-the-weights/and-another-one"
LONGW="$T/a-folder-with-a-rather-long-name-for-the-weights/and-another-one/partial.cfg"
printf 'game = "russian";\nweights = { MAN = 100; KING = 300; };\n' >"$LONGW"
expect_err 1 "weight file $LONGW: 24 of 26 terms missing: MAN_PST, KING_MAIN_ROAD" "$DAMA" search --weights "$LONGW" --depth 1
grep -qE 'missing: ([A-Z_]+, )*[A-Z_]+ and [0-9]+ more; name every term or add base = "default";$' err && ok || bad "names cut whole: $(cat err)"
printf 'game = "russian";\nbase = "default";\nweights = { KING = 320; };\n' >based.cfg
"$DAMA" search --weights based.cfg --depth 1 --quiet >/dev/null 2>"$T/err" && ok || bad "base = default: $(cat "$T/err")"
# a UTF-8 byte-order mark (Notepad's): read before JSON, as the engine library reads it; refused in libconfig text
"$DAMA" export --weights based.cfg --format json --out based.json --force 2>"$T/err" || bad "export based.json: $(cat "$T/err")"
printf '\357\273\277' >bom.json && cat based.json >>bom.json
"$DAMA" search --weights bom.json --depth 1 --quiet >/dev/null 2>"$T/err" && ok || bad "JSON weights after a BOM: $(cat "$T/err")"
printf '\357\273\277' >bom.cfg && cat based.cfg >>bom.cfg
expect_err 1 "weight file bom.cfg:1: a byte-order mark (U+FEFF) at column 1" "$DAMA" search --weights bom.cfg --depth 1
# JSON numbers as RFC 8259 writes them: a leading zero, a '+' or a bare '.' is refused with its line (cJSON read
# "0100" as 100); the hash line is left out, as a hand-edited file may
"$DAMA" export --weights default --format json --out plain.json --force 2>/dev/null
for n in 0100 +100 100. .5 -01; do
  grep -v '"hash"' plain.json | sed "0,/\"values\": \[100\]/s//\"values\": [$n]/" >num.json
  line=$(grep -n "\"values\": \[$n\]" num.json | cut -d: -f1)
  expect_err 1 "weight file num.json: weights JSON: line $line: '$n' is not a JSON number" "$DAMA" search --weights num.json --depth 1
done
grep -v '"hash"' plain.json | sed '0,/"values": \[100\]/s//"values": [1.0e2]/' >num.json
expect_rc 0 "a JSON number with a fraction and an exponent" "$DAMA" search --weights num.json --depth 1 --quiet
# a JSON array at the top level is JSON, not a truncated libconfig file
printf '[{"game": "russian"}]' >arr.json
expect_err 1 "weight file arr.json: weights JSON: the top level is an array, not an object" "$DAMA" search --weights arr.json --depth 1
# a NUL escaped in a name: cJSON's string ended there, "KING\u0000X" read as KING
grep -v '"hash"' plain.json | sed '0,/"name": "KING"/s//"name": "KING\\u0000X"/' >nul.json
line=$(grep -n 'KING\\u0000X' nul.json | cut -d: -f1)
expect_err 1 "weight file nul.json: weights JSON: line $line: a string holds \\u0000 (a NUL byte)" "$DAMA" search --weights nul.json --depth 1
# @include: libconfig would read the other file past the checks (a big literal read as another value)
# and name this file in its errors; refused in weight and config files alike
printf 'weights = { MAN = 4294967396; };\n' >incw.cfg
printf 'game = "russian";\nbase = "default";\n  @include "incw.cfg"\n' >incl.cfg
expect_err 1 "weight file incl.cfg:3: @include is not supported: put the included settings in this file" \
  "$DAMA" export --weights incl.cfg --format json --out -
printf 'selfplay = { seed = 4294967298; nodes = 4294967396; };\n' >incsp.cfg
printf '# the settings\n@include "incsp.cfg"\n' >inccfg.cfg
expect_err 2 "dama: inccfg.cfg:2: @include is not supported: put the included settings in this file" \
  "$DAMA" selfplay --config inccfg.cfg --db inc.sqlite --games 2 --threads 1 --progress 0
[ -e inc.sqlite ] && bad "a config file with @include made a database" || ok
printf 'base = "default";\ngame = 5;\nweights = { KING = 320; };\n' >gamenum.cfg
expect_err 1 'weight file gamenum.cfg:2: game must be a quoted name, e.g. game = "russian";' "$DAMA" search --weights gamenum.cfg --depth 1
printf 'game = "russian";\nbase = "tuned";\nweights = { KING = 320; };\n' >badbase.cfg
expect_err 1 'base must be "default" or "db:ID"' "$DAMA" search --weights badbase.cfg --depth 1
printf 'game = "russian";\nbase = "default";\nweights = { KING = 4294967396; };\n' >wrap.cfg
expect_err 1 "integer '4294967396' is out of range" "$DAMA" search --weights wrap.cfg --depth 1
printf 'game = "russian";\nbase = "default";\nweights = { KING = 99999999999999999999; };\n' >wrap2.cfg
expect_err 1 "out of range" "$DAMA" search --weights wrap2.cfg --depth 1
# a table given as one integer: every weight of it (pattern tables not yet learned)
printf 'game = "russian";\nbase = "default";\nweights = { PATTERN = 3; MAN_PST = 5; };\n' >fill.cfg
"$DAMA" export --weights fill.cfg --format json --out fill.json 2>"$T/err" && ok || bad "table as one integer: $(cat "$T/err")"
"$DAMA" export --weights default --format json --out default.json 2>"$T/err" || bad "export default: $(cat "$T/err")"
python3 -c 'import json,sys; t, d=({x["name"]:x["values"] for x in json.load(open(f))["terms"]} for f in ("fill.json", "default.json")); sys.exit(0 if set(t["PATTERN"])=={3} and len(t["PATTERN"])==59049 and set(t["MAN_PST"])=={5} and t["PATTERN_EG"]==d["PATTERN_EG"] else 1)' \
  && ok || bad "one integer did not fill the whole table"
printf 'game = "russian";\nbase = "default";\nweights = { PATTERN = 6000; };\n' >fill2.cfg
expect_err 1 "term PATTERN needs 59049 integers in -5000..5000 (or one for all)" "$DAMA" search --weights fill2.cfg --depth 1
# a learned pattern table is written in full (27 a line) and reads back the same
printf 'game = "russian";\nbase = "default";\nweights = { PATTERN = 2; };\n' >fill3.cfg
"$DAMA" export --weights fill3.cfg --format cfg --out f3.cfg 2>/dev/null && grep -q '^  PATTERN = 2; # all 59049' f3.cfg && ok || bad "an even table is written as one integer"
python3 - <<'PY' || bad "could not write a varied pattern table"
lines = open("f3.cfg").read().replace("PATTERN = 2; #", "PATTERN = [ " + ", ".join(str(i % 7 - 3) for i in range(59049)) + " ]; #", 1)
open("vary.cfg", "w").write(lines)
PY
"$DAMA" export --weights vary.cfg --format cfg --out v2.cfg 2>"$T/err" && grep -q '# region 8: PATTERN\[52488..59048\]' v2.cfg && ok || bad "pattern table export: $(cat "$T/err")"
"$DAMA" export --weights v2.cfg --format cfg --out v3.cfg 2>/dev/null && diff <(tail -n +2 v2.cfg) <(tail -n +2 v3.cfg) >/dev/null && ok || bad "pattern table round trip differs"
# the JSON of export --format json is a weight file too, read strictly
"$DAMA" export --weights fill.json --format cfg --out fill-from-json.cfg 2>"$T/err" && ok || bad "JSON weight file: $(cat "$T/err")"
"$DAMA" export --weights fill.cfg --format cfg --out fill-from-cfg.cfg 2>/dev/null
diff <(tail -n +2 fill-from-json.cfg) <(tail -n +2 fill-from-cfg.cfg) >/dev/null && ok || bad "JSON weight file reads other weights than its source"
"$DAMA" search --weights fill.json --depth 3 --quiet >json.out 2>"$T/err" && ok || bad "search --weights FILE.json: $(cat "$T/err")"
"$DAMA" search --weights fill.cfg --depth 3 --quiet >cfg.out 2>/dev/null
expect_eq "$(grep -v nps json.out)" "$(grep -v nps cfg.out)" "search with the JSON and the .cfg of one weight set"
jedit() { # jedit OUT PYTHON: default.json changed by PYTHON (d is the parsed JSON, t its terms by name)
  python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open("default.json"))
t = {x["name"]: x for x in d["terms"]}
exec(sys.argv[2])
open(sys.argv[1], "w").write(json.dumps(d))
PY
}
jedit jgame.json 'd["game"] = "turkish"'
expect_err 1 "weight file jgame.json: weights JSON is for game 'turkish', not 'russian'" "$DAMA" search --weights jgame.json --depth 1
jedit jterm.json 't["KING"]["name"] = "NOPE"'
expect_err 1 "weight file jterm.json: weights JSON: unknown term 'NOPE' for russian" "$DAMA" search --weights jterm.json --depth 1
jedit jlen.json 't["MAN_PST"]["values"].pop()'
expect_err 1 "weight file jlen.json: weights JSON: term MAN_PST has 31 values, needs 32" "$DAMA" search --weights jlen.json --depth 1
jedit jnum.json 't["MAN_PST"]["values"][31] = 1.5'
expect_err 1 "weight file jnum.json: weights JSON: term MAN_PST[31] (element 32 of 32) is not an integer in -5000..5000" \
  "$DAMA" search --weights jnum.json --depth 1
jedit jhash.json 't["KING"]["values"][0] += 1'
expect_err 1 "weight file jhash.json: weights JSON: \"hash\"" "$DAMA" search --weights jhash.json --depth 1
grep -qF 'does not match its values' err && ok || bad "edited JSON with its hash: $(cat err)"
jedit jnohash.json 't["KING"]["values"][0] += 1; del d["hash"]'
"$DAMA" search --weights jnohash.json --depth 1 --quiet >/dev/null 2>"$T/err" && ok || bad "edited JSON without hash: $(cat "$T/err")"
# a key the export does not write: a misspelt "hahs" would skip the hash check unseen
jedit jkey.json 't["KING"]["values"][0] += 1; d["hahs"] = d.pop("hash")'
expect_err 1 "weight file jkey.json: weights JSON: unknown key \"hahs\" at the top level" "$DAMA" search --weights jkey.json --depth 1
jedit jtkey.json 't["KING"]["vaules"] = t["KING"]["values"]'
expect_err 1 "weights JSON: term 2 has an unknown key \"vaules\"" "$DAMA" search --weights jtkey.json --depth 1
# a key twice: a JSON reader would keep one and ignore the other unseen
python3 -c 'import sys; t = open("default.json").read(); open("jdup.json", "w").write("{\"hash\": null, " + t.lstrip()[1:])'
expect_err 1 "weight file jdup.json: weights JSON: the key \"hash\" appears twice at the top level" "$DAMA" search --weights jdup.json --depth 1
python3 -c 'import sys; t = open("default.json").read(); i = t.index("\"name\""); open("jdup2.json", "w").write(t[:i] + "\"values\": [], " + t[i:])'
expect_err 1 "weight file jdup2.json: weights JSON: term 1 has the key \"values\" twice" "$DAMA" search --weights jdup2.json --depth 1
head -c 40 default.json >jnul.json && printf '\000' >>jnul.json && tail -c +41 default.json >>jnul.json
expect_err 1 "weight file jnul.json: a NUL byte at byte 41 (JSON text has none)" "$DAMA" search --weights jnul.json --depth 1
printf '{ "format": "dama-weights", \n "game": ' >jsyntax.json
expect_err 1 "weight file jsyntax.json: weights JSON: syntax error at line 2" "$DAMA" search --weights jsyntax.json --depth 1
# a .cfg value libconfig cannot parse: the line is quoted with what a term looks like
printf 'game = "russian";\nweights = {\n  KING = abc;\n};\n' >wsyntax.cfg
expect_err 1 "weight file wsyntax.cfg:3: syntax error in 'KING = abc;' (in weights = { }, a term is NAME = integer;" \
  "$DAMA" search --weights wsyntax.cfg --depth 1
# a NUL byte (a binary file given as weights): named, not blamed on the text before it
printf 'game = "russian";\000\001\n' >wnul.cfg
expect_err 1 "weight file wnul.cfg:1: a NUL byte at column 18" "$DAMA" search --weights wnul.cfg --depth 1
# the same check for --config (one reader of libconfig files)
printf 'nodes = 100;\n\001\n' >cnul.cfg
expect_err 2 "cnul.cfg:2: non-printable byte 0x01 at column 1" "$DAMA" search --config cnul.cfg --depth 1
# a .cfg value that is not an integer: named by its index and element
printf 'game = "russian";\nbase = "default";\nweights = { MAN_PST = (%s 1.5); };\n' "$(printf '0, %.0s' $(seq 31))" >elem.cfg
expect_err 1 "weight file elem.cfg:3: term MAN_PST[31] (element 32 of 32) is not an integer in -5000..5000" "$DAMA" search --weights elem.cfg --depth 1
# base = "db:ID" and search --weights db:ID: the one resolver, with --db
printf 'game = "russian";\nbase = "db:1";\nweights = { KING = 320; };\n' >dbbase.cfg
"$DAMA" search --db d.sqlite --weights dbbase.cfg --depth 1 --quiet >/dev/null 2>"$T/err" && ok || bad "base = db:1: $(cat "$T/err")"
"$DAMA" search --db d.sqlite --weights db:1 --depth 1 --quiet >/dev/null 2>"$T/err" && ok || bad "search --weights db:1: $(cat "$T/err")"
# ... without the database: the weight file is named with it (the message named only the database)
expect_err 1 "dama search: --weights: weight file dbbase.cfg: base \"db:1\": nobase.sqlite: no such database file" \
  "$DAMA" search --db nobase.sqlite --weights dbbase.cfg --depth 1
expect_err 2 "search: --weights: weight set id: '99999999999999999999' is out of range" "$DAMA" search --db d.sqlite --weights db:99999999999999999999 --depth 1
# a malformed or out-of-range weight set or train id is a usage error (exit 2) in every command that takes
# weights, found before a database is opened or made
for cmd in search play hub dxp selfplay tune spsa train export; do
  expect_err 2 "dama $cmd: --weights: weight set id: 'abc' is not an integer" "$DAMA" $cmd --db none.sqlite --weights db:abc
  expect_err 2 "dama $cmd: --weights: train id: '0' is out of range 1.." "$DAMA" $cmd --db none.sqlite --weights train:0
  expect_err 2 "dama $cmd: --weights: weight set id: '-3' is out of range 1.." "$DAMA" $cmd --db none.sqlite --weights db:-3
done
[ -e none.sqlite ] && bad "a bad --weights id made none.sqlite" || ok
expect_err 2 "dama match: --a: weight set id: '0' is out of range 1.." "$DAMA" match --db none.sqlite --a 0
expect_err 2 "dama match: --b: weight set id: 'x1' is not an integer" "$DAMA" match --db none.sqlite --b db:x1
expect_err 2 "dama tournament: engine 'name=A,weights=train:x': weights: train id: 'x' is not an integer" \
  "$DAMA" tournament --db none.sqlite name=A,weights=train:x name=B
printf 'search: { weights = "db:abc"; };\n' >badid.cfg
expect_err 2 "dama search: weights (badid.cfg:1): weight set id: 'abc' is not an integer" "$DAMA" search --config badid.cfg --depth 1
[ -e none.sqlite ] && bad "a bad weights id made none.sqlite" || ok
expect_err 1 "no such database file" "$DAMA" search --db nope.sqlite --weights db:1 --depth 1
[ -e nope.sqlite ] && bad "search made nope.sqlite" || ok
# tune --out into a folder that is not there: refused before any tuning, nothing stored
runs0=$(sqlite3 d.sqlite 'SELECT count(*) FROM runs')
expect_err 1 "tune: --out: cannot write 'nodir/t.cfg': its folder 'nodir'" "$DAMA" tune --db d.sqlite --out nodir/t.cfg
[ "$(sqlite3 d.sqlite 'SELECT count(*) FROM runs')" = "$runs0" ] && ok || bad "tune --out nodir/t.cfg stored a run"
# a weight file that cannot be read: no database left behind by the commands that would create one
for cmd in "train --generations 1" "selfplay --games 2"; do
  expect_err 1 "cannot read weight file 'nope.cfg'" "$DAMA" $cmd --db fresh.sqlite --weights nope.cfg
  ls fresh.sqlite* >/dev/null 2>&1 && bad "$cmd --weights nope.cfg left $(ls fresh.sqlite*)" || ok
  : >empty.sqlite # an empty file given: empty again after the failure
  expect_err 1 "cannot read weight file 'nope.cfg'" "$DAMA" $cmd --db empty.sqlite --weights nope.cfg
  [ -f empty.sqlite ] && [ ! -s empty.sqlite ] && ! ls empty.sqlite-* >/dev/null 2>&1 && ok || bad "$cmd: empty.sqlite is now $(ls -l empty.sqlite*)"
done
# weights in tables this build leaves out: named in a warning, once
if grep -q '^evaluation terms left out: shatra .*PIECE_SAFETY' <("$DAMA" --version); then
  "$DAMA" search --game shatra --weights "$SRC/configs/weights/shatra-relations.cfg" --depth 1 --quiet >/dev/null 2>"$T/err" && ok || bad "search with shatra-relations.cfg: $(cat "$T/err")"
  [ "$(grep -c 'PIECE_SAFETY.*which this build' "$T/err")" = 1 ] && ok || bad "the left-out tables' warning: $(cat "$T/err")"
fi
# the shipped starting weights (and 7ad9123's, generation 0 of README's ladders) name every term
for g in russian turkish shatra; do
  for f in $g-start $g-7ad9123; do
    "$DAMA" search --game $g --weights "$SRC/configs/weights/$f.cfg" --depth 1 --quiet >/dev/null 2>"$T/err" && ok || bad "$f.cfg: $(cat "$T/err")"
  done
done
for g in brazilian pool english czech italian spanish international; do # the variants: their hand-set start only
  "$DAMA" search --game $g --weights "$SRC/configs/weights/$g-start.cfg" --depth 1 --quiet >/dev/null 2>"$T/err" && ok || bad "$g-start.cfg: $(cat "$T/err")"
done

# ---- tune: --runs that do not exist, --name limits ----
expect_err 1 "--runs: run 99 does not exist" "$DAMA" tune --db d.sqlite --runs 99
expect_err 1 "--runs: run 99999999999999999999 does not exist" "$DAMA" tune --db d.sqlite --runs 1,99999999999999999999
"$DAMA" match --db d.sqlite --a default --b default --pairs 1 --nodes 50 --threads 1 --openings random --progress 0 >/dev/null 2>&1
expect_err 1 "is a russian match run, not a russian self-play run" "$DAMA" tune --db d.sqlite --runs 2
expect_err 2 "--name: too long (at most 200 bytes" "$DAMA" tune --db d.sqlite --name "$(printf 'é%.0s' $(seq 1 101))"

# ---- pdn check: a summary on stderr too ----
printf '[Event "a"]\n1. c3-d4 *\n\n[Event "b"]\n1. c3-c5 *\n' >bad.pdn
expect_err 1 "bad.pdn: 1 of 2 games failed (game 2;" "$DAMA" pdn check bad.pdn
grep -q "^game 2" out && ok || bad "report on stdout: $(cat out)"

# ---- match: pairs beyond the book, the SPRT's deciding LLR ----
printf 'a\tW:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8\nb\tB:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,h4:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8\n' >book.tsv
expect_err 2 "--pairs 6: the opening book has 2 lines" "$DAMA" match --db m.sqlite --a default --b default --openings book.tsv --pairs 6 --nodes 100 --threads 1 --progress 0
[ -e m.sqlite ] && bad "a refused match made m.sqlite" || ok
"$DAMA" match --db m.sqlite --a default --b default --openings book.tsv --pairs 6 --repeat-book --nodes 100 --threads 1 --progress 0 >out 2>"$T/err" && ok || bad "--repeat-book: $(cat "$T/err")"
grep -q "pairs 3 to 6 repeat them, each with 4 distinct random plies" out && ok || bad "summary names the repeats: $(cat out)"
n=$(sqlite3 m.sqlite "SELECT count(DISTINCT start_fen) FROM games")
[ "$n" = 6 ] && ok || bad "6 pairs from 6 distinct positions, got $n"
n=$(sqlite3 m.sqlite "SELECT count(*) FROM games WHERE opening LIKE 'a + %' OR opening LIKE 'b + %'")
[ "$n" = 8 ] && ok || bad "8 games of repeated lines, got $n"
# one pair: no interval to give (not "+/- 0.0"), and no LLR without --sprt
"$DAMA" match --db p1.sqlite --a default --b default --openings book.tsv --pairs 1 --nodes 100 --threads 1 --progress 0 >out 2>"$T/err" && ok || bad "--pairs 1: $(cat "$T/err")"
grep -q "^Games 2: .* | Elo \(-\{0,1\}[0-9.]* (interval not estimable from 1 pair)\|not estimable (score \(0\|100\)%)\) | Ptnml " out && ok || bad "--pairs 1: $(cat out)"
grep -q -e '+/- ' -e 'LLR' -e '^SPRT' out && bad "--pairs 1 without --sprt: $(cat out)" || ok
# ... and none stored: NULL (it was elo_lo = elo_hi), which the report says (it showed "[0.0, 0.0]")
expect_eq "$(sqlite3 p1.sqlite "SELECT quote(elo_lo) || ' ' || quote(elo_hi) || ' ' || (elo IS NOT NULL) FROM matches")" \
  "NULL NULL 1" "--pairs 1: no interval stored"
"$DAMA" report --db p1.sqlite -o p1.html >/dev/null 2>"$T/err" && ok || bad "report of p1.sqlite: $(cat "$T/err")"
grep -q "<td>not estimable</td>" p1.html && ok || bad "the report's matches table says there is no interval"
grep -q "interval not estimable)" p1.html && ok || bad "the match's caption says there is no interval"
grep -q -e '\[0\.0, 0\.0\]' -e '\[inf, inf\]' -e '\[-inf, -inf\]' -e 'nan' p1.html && bad "a zero-width or NaN interval in the report" || ok
"$DAMA" export --db p1.sqlite --weights db:1 --format json --out p1.json >/dev/null 2>"$T/err" && ok || bad "export of p1.sqlite: $(cat "$T/err")"
expect_eq "$(python3 -c 'import json, sys; m = json.load(open(sys.argv[1]))["provenance"]["match"]; print(m["elo_lo"], m["elo_hi"], m["elo"] is not None)' p1.json)" \
  "None None True" "export: no interval is null (a NULL was read as 0)"
printf 'game = "russian";\nbase = "default";\nweights = { KING = 100; };\n' >other.cfg
"$DAMA" match --db s.sqlite --a default --b other.cfg --sprt --elo0 0 --elo1 50 --nodes 300 --threads 2 --progress 0 --pairs 200 >out 2>"$T/err"
line=$(grep '^SPRT' out)
dec=$(echo "$line" | sed -n 's/.* after \([0-9]*\) pairs at LLR \(-\{0,1\}[0-9.]*\); .*final LLR \(-\{0,1\}[0-9.]*\) after \([0-9]*\) pairs$/\1 \2 \3 \4/p')
[ -n "$dec" ] && ok || bad "SPRT line: $line"
row=$(sqlite3 s.sqlite "SELECT sprt_pairs, printf('%.2f', sprt_llr), printf('%.2f', llr), games / 2 FROM matches" | tr '|' ' ')
[ "$row" = "$dec" ] && ok || bad "stored decision and final LLR '$row', printed '$dec'"

# ---- --hash beyond the memory: named, exit 1, nothing stored ----
# (2 GB of address space: deterministic on any machine; a sanitizer build,
# which reserves far more, cannot start under it and skips these)
if (ulimit -v 2000000 && "$DAMA" version >/dev/null 2>&1); then
  for c in "selfplay --games 2 --nodes 50 --threads 1" "match --a default --b default --pairs 1 --nodes 50 --threads 1" \
    "spsa --iterations 1 --pairs 1 --nodes 50 --threads 1" "tournament --nodes 50 --concurrency 1 name=A name=B" \
    "train --generations 1 --games-per-gen 2 --nodes 50 --threads 1"; do
    cmd=${c%% *}
    (ulimit -v 2000000 && exec "$DAMA" $c --db "hash-$cmd.sqlite" --hash 8192 --progress 0) >out 2>err
    expect_eq "$?" 1 "$cmd --hash 8192 under 2 GB exits 1"
    want="2 transposition tables of 4096 MiB (8192 MiB in all; out of memory)" # a worker's two engines
    [ "$cmd" = tournament ] && want="a transposition table of 8192 MiB (out of memory)" # one per engine
    grep -qF "dama $cmd: --hash 8192: cannot allocate $want" err \
      && ok || bad "$cmd --hash message: $(cat err)"
    grep -q "resume\|interrupted" out err && bad "$cmd --hash: speaks of resuming: $(cat out err)" || ok
    [ ! -e "hash-$cmd.sqlite" ] && ok || bad "$cmd --hash left a database"
  done
  (ulimit -v 2000000 && exec "$DAMA" tournament --db hash-t2.sqlite --nodes 50 --concurrency 1 name=A "name=B,hash=4096") >out 2>err
  grep -q "^dama tournament: engine 'B': hash=4096: cannot allocate a transposition table of 4096 MiB" err && ok || bad "engine hash= message: $(cat err)"
  for c in "search --depth 1" "play"; do
    (ulimit -v 2000000 && exec "$DAMA" $c --hash 4096 </dev/null) >out 2>err
    expect_eq "$?" 1 "${c%% *} --hash 4096 under 2 GB exits 1"
    grep -q "^dama ${c%% *}: --hash 4096: cannot allocate a transposition table of 4096 MiB" err && ok || bad "${c%% *} --hash message: $(cat err)"
  done
  # dama hub: its --hash is what a session falls back on, so a table the machine cannot give ends it at
  # once, as --weights does (the session started, and every go answered an error and a bare done)
  printf 'hub\ninit\nquit\n' | (ulimit -v 2000000 && exec "$DAMA" hub --hash 4096) >out 2>err
  expect_eq "$?" 1 "hub --hash 4096 under 2 GB exits 1"
  grep -qx 'dama hub: --hash 4096: cannot allocate a transposition table of 4096 MiB (out of memory); give a smaller value' err \
    && ok || bad "hub --hash message: $(cat err)"
  [ ! -s out ] && ok || bad "hub --hash: a session started: $(head -c 300 out)"
  # a set-param hash the machine cannot give, before init: init names it and falls back on the hash that loaded
  printf 'set-param name=hash value=4096\ninit\nhub\nlevel depth=2\ngo think\n' | (ulimit -v 2000000 && exec "$DAMA" hub) >out 2>err
  grep -qx 'error message="init: hash 4096 does not load; the engine plays with hash 64 instead: hash 4096: cannot allocate a transposition table of 4096 MiB (out of memory); set a smaller hash"' out \
    && ok || bad "hub hash 4096 at init: $(cat out)"
  grep -q '^done move=[a-h][1-8]-[a-h][1-8]' out && ok || bad "hub hash 4096 at init: no move: $(cat out)"
  grep -qx 'param name=hash value=64 type=int min=1 max=65536' out && ok || bad "hub hash 4096 at init: the param is not 64"
  # ... with a variant the session's weight file is not of: the hash is named too, and the engine plays
  # the variant asked for with its compiled-in weights (it went back to the whole last set, Russian)
  "$DAMA" export --weights default --file hub-r.cfg --no-header >/dev/null 2>&1 # never the source tree's header
  printf 'set-param name=variant value=turkish\nset-param name=hash value=4096\ninit\nhub\nlevel depth=2\ngo think\n' \
    | (ulimit -v 2000000 && exec "$DAMA" hub --weights hub-r.cfg) >out 2>err
  grep -qx "error message=\"init: weights 'hub-r.cfg', hash 4096 does not load; the engine plays with weights 'default', hash 64 instead: weight file hub-r.cfg is for game 'russian', not 'turkish'; hash 4096: cannot allocate a transposition table of 4096 MiB (out of memory)\"" out \
    && ok || bad "hub weights and hash at init: $(cat out)"
  grep -qx 'param name=variant value=turkish type=enum .*' out && ok || bad "hub weights and hash at init: the variant is not turkish"
  grep -q '^done move=\([a-h]\)[1-8]-\1[1-8]\|^done move=[a-h]\([1-8]\)-[a-h]\2' out \
    && ok || bad "hub weights and hash at init: not a Turkish move (along a file or a rank): $(grep '^done' out)"
  # after init, a table that fits once but not twice (2 GiB under 3.2 GB): a set-param rebuilds the engine
  # with the old table freed first (every set-param was refused, out of memory for the same hash), and a
  # hash that does not fit alone is refused with the old engine made again
  printf 'init\nset-param name=variant value=turkish\nset-param name=hash value=4096\nhub\nlevel depth=2\ngo think\n' \
    | (ulimit -v 3200000 && exec "$DAMA" hub --hash 2048) >out 2>err
  expect_eq "$(grep -c '^error' out)" 1 "hub hash 2048 under 3.2 GB: one error"
  grep -qx "error message=\"set-param hash: hash 4096: cannot allocate a transposition table of 4096 MiB (out of memory); set a smaller hash (the value stays '2048')\"" out \
    && ok || bad "hub hash 2048 under 3.2 GB: hash 4096 refused: $(cat out)"
  grep -qx 'param name=variant value=turkish type=enum .*' out && grep -qx 'param name=hash value=2048 type=int min=1 max=65536' out \
    && ok || bad "hub hash 2048 under 3.2 GB: not turkish with hash 2048: $(grep '^param name=\(variant\|hash\)' out)"
  grep -q '^done move=\([a-h]\)[1-8]-\1[1-8]\|^done move=[a-h]\([1-8]\)-[a-h]\2' out \
    && ok || bad "hub hash 2048 under 3.2 GB: not a Turkish move: $(grep '^done' out)"
fi

# ---- version ----
"$DAMA" --version >v1.txt && "$DAMA" version >v2.txt && ok || bad "--version exit code"
cmp -s v1.txt v2.txt && ok || bad "--version and version differ"
grep -qE '^dama [0-9]+\.[0-9]+\.[0-9]+$' v1.txt && ok || bad "version line: $(head -1 v1.txt)"
grep -qE '^commit ([0-9a-f]{40}(-dirty)?|unknown)$' v1.txt && ok || bad "commit line: $(sed -n 2p v1.txt)"
# --mpi: in a build without MPI a usage error naming the build option
# (tests/mpi/ check the MPI build itself).
if grep -q '^mpi: no (configure with -DDAMA_MPI=ON)$' v1.txt; then
  expect_rc 2 "selfplay --mpi without MPI" "$DAMA" selfplay --mpi --db mpi.sqlite --games 2 --progress 0
  grep -qF "dama selfplay: --mpi: built without MPI; configure with -DDAMA_MPI=ON" "$T/err" && ok \
    || bad "--mpi message: $(cat "$T/err")"
  [ ! -e mpi.sqlite ] && ok || bad "selfplay --mpi without MPI left a database"
  expect_rc 2 "tune --mpi without MPI" "$DAMA" tune --mpi --db mpi.sqlite
  grep -qF "dama tune: --mpi: built without MPI; configure with -DDAMA_MPI=ON" "$T/err" && ok \
    || bad "tune --mpi message: $(cat "$T/err")"
  for c in "match --a default --b default --pairs 1 --nodes 50" "tournament --nodes 50 name=A name=B" \
    "train --generations 1 --games-per-gen 2 --nodes 50"; do
    cmd=${c%% *}
    expect_rc 2 "$cmd --mpi without MPI" "$DAMA" $c --mpi --db mpi-$cmd.sqlite --progress 0
    grep -qF "dama $cmd: --mpi: built without MPI; configure with -DDAMA_MPI=ON" "$T/err" && ok \
      || bad "$cmd --mpi message: $(cat "$T/err")"
    [ ! -e mpi-$cmd.sqlite ] && ok || bad "$cmd --mpi without MPI left a database"
  done
else
  grep -q '^mpi: yes' v1.txt && ok || bad "mpi line: $(sed -n 3p v1.txt)"
fi
for g in russian turkish shatra brazilian pool english czech italian spanish international; do
  grep -q "^  $g: weight set: " v1.txt && ok || bad "$g provenance missing: $(cat v1.txt)"
done

# ---- tournament engine specs: params, limits, empty ----
TA=(tournament --db tspec.sqlite --rounds 1 --concurrency 1 --nodes 50 --progress 0)
expect_err 2 "dama tournament: engine 'name=a,weights=default,param.NOPE=140': param.NOPE: unknown search parameter" \
  "$DAMA" "${TA[@]}" name=a,weights=default,param.NOPE=140 name=b
expect_err 2 "dama tournament: engine 'name=b,param.LMR_DIV=9999': param.LMR_DIV=9999: need an integer 100..600" \
  "$DAMA" "${TA[@]}" name=a name=b,param.LMR_DIV=9999
expect_err 2 "dama tournament: engine 'name=c,param.LMR_DIV=abc': param.LMR_DIV=abc: need an integer" \
  "$DAMA" "${TA[@]}" name=a name=c,param.LMR_DIV=abc
expect_err 2 "dama tournament: engine 'name=a,depth=3,nodes=5': give one limit, not depth= and nodes=" \
  "$DAMA" "${TA[@]}" name=a,depth=3,nodes=5 name=b
expect_err 2 "dama tournament: engine 1 is empty" "$DAMA" "${TA[@]}" '' name=b
# an option given twice with two values: the last is used, and said; the same value twice is quiet
expect_rc 0 "--depth twice" "$DAMA" perft --game russian --depth 3 --depth 2
expect_line out "perft 2 49"
expect_line err "dama perft: warning: --depth given twice ('3', then '2'): the last is used"
expect_rc 0 "the same value twice" "$DAMA" perft --game russian --depth 2 --depth 2
grep -q warning "$T/err" && bad "the same value twice: $(cat "$T/err")" || ok
expect_err 2 "dama perft: warning: --config given twice ('twice-a.cfg', then 'twice-b.cfg'): the last is used" \
  "$DAMA" perft --config twice-a.cfg --config twice-b.cfg
expect_line err "dama: cannot read config file 'twice-b.cfg': No such file or directory"
# a key given twice, and names that are not text on one line (stored, and PDN tags), are refused
expect_err 2 "dama tournament: engine 'name=a,name=c': name= given twice" "$DAMA" "${TA[@]}" name=a,name=c name=b
expect_err 2 "dama tournament: engine 'name=a,nodes=50,nodes=60': nodes= given twice" "$DAMA" "${TA[@]}" name=a,nodes=50,nodes=60 name=b
expect_err 2 "dama tournament: engine name 'x\x0Ay': non-printable byte 0x0A at column 2" "$DAMA" "${TA[@]}" $'name=x\ny' name=b
expect_err 2 "dama tournament: engine name 'p\xFFq': byte 0xFF at column 2, not UTF-8" "$DAMA" "${TA[@]}" $'name=p\xffq' name=b
expect_err 2 "dama tournament: engine name 'a\x09b': a tab at column 2 (it breaks the tables' columns)" "$DAMA" "${TA[@]}" $'name=a\tb' name=b
# a tournament whose games would not fit in memory is refused before anything is stored (it filled GBs first)
expect_err 2 "dama tournament: 1000000 rounds of 6 pairings are 12000000 games: at most 10000000 (give fewer rounds)" \
  "$DAMA" tournament --db "$T/huge.sqlite" --rounds 1000000 --depth 1 name=a name=b name=c name=d
[ ! -e "$T/huge.sqlite" ] && ok || bad "a refused tournament made its database"
# times at most a day (a larger one held the tournament for good); --tc's errors name --tc
expect_err 2 "movetime=99999999999999: need a positive integer <= 86400000 (a day)" "$DAMA" "${TA[@]}" \
  name=a,movetime=99999999999999 name=b
expect_err 2 "dama tournament: --tc: time=100+99999999999: need MS or MS+INC" "$DAMA" "${TA[@]}" --tc 100+99999999999 name=a name=b
expect_err 2 "dama match: --tc 100+: time=100+: need MS or MS+INC" "$DAMA" match --db tspec.sqlite --tc 100+ --pairs 1
expect_err 2 "dama match: --tc  100+1: time= 100+1: need MS or MS+INC" "$DAMA" match --db tspec.sqlite --tc ' 100+1' --pairs 1
expect_err 2 "dama tournament: engine 'name=a,time=100+ 5': time=100+ 5: need MS or MS+INC" "$DAMA" "${TA[@]}" \
  'name=a,time=100+ 5' name=b
# a config file's limit replaced by a bad one: the error only, not first a note that the bad one wins
printf 'match: { nodes = 500; };\n' >lim.cfg
"$DAMA" match --config lim.cfg --db tspec.sqlite --tc abc --pairs 1 2>lim.err
expect_eq "$(cat lim.err)" "dama match: --tc abc: time=abc: need MS or MS+INC (milliseconds, each at most 86400000, e.g. 10000+100)" \
  "a bad --tc over a config file's limit: one message"
# a value from a config file is named there, with its file and line, not as an option never typed
printf 'tournament: { format = "swiss"; };\nreport: { game = "chess"; };\nplay: { side = "red"; };\nmatch: { tc = "abc"; };\n' >cf.cfg
expect_err 2 "dama tournament: format = swiss (cf.cfg:1): must be round-robin or gauntlet" "$DAMA" tournament --config cf.cfg name=a name=b
expect_err 2 "dama report: game = chess (cf.cfg:2): unknown game" "$DAMA" report --config cf.cfg
expect_err 2 "dama play: side = red (cf.cfg:3): expected white or black" "$DAMA" play --config cf.cfg
expect_err 2 "dama match: tc = abc (cf.cfg:4): time=abc: need MS or MS+INC" "$DAMA" match --config cf.cfg --db tspec.sqlite
expect_err 2 "dama tournament: --name 'multi\x0Aline': non-printable byte 0x0A at column 6" "$DAMA" "${TA[@]}" \
  --name $'multi\nline' name=a name=b
[ ! -e tspec.sqlite ] && ok || bad "a refused engine spec left a database"
# a Hub engine's param is its set-param; its error answer stops the tournament before a game
expect_err 1 "dama tournament: engine 'h': cannot start '$DAMA hub': it answered error message=\"set-param: unknown parameter 'NOPE'\"" \
  "$DAMA" "${TA[@]}" name=a "name=h,param.NOPE=1,cmd=$DAMA hub"
[ ! -e tspec.sqlite ] && ok || bad "a Hub engine refusing its param left a database"
# accepted params are part of the player: stored with it
expect_rc 0 "tournament with params" "$DAMA" "${TA[@]}" name=a name=c,param.LMR_DIV=200 \
  "name=h,param.level=casual,cmd=$DAMA hub"
expect_eq "$(sqlite3 tspec.sqlite "SELECT spec FROM participants WHERE name = 'c'")" "default with param.LMR_DIV=200" \
  "in-process params stored with the participant"
expect_eq "$(sqlite3 tspec.sqlite "SELECT spec FROM participants WHERE name = 'h'")" "$DAMA hub with param.level=casual" \
  "Hub params stored with the participant"

# options that would do nothing are refused (a config file may still set them for the runs that use them)
expect_err 2 "dama selfplay: --population does nothing without --perturb population" \
  "$DAMA" selfplay --db noop.sqlite --population 4 --games 2
expect_err 2 "dama train: --population does nothing without --perturb population" "$DAMA" train --db noop.sqlite --population 4
expect_err 2 "dama tune: --pattern-lr does nothing without --patterns" "$DAMA" tune --db noop.sqlite --pattern-lr 5
expect_err 2 "dama train: --pattern-lambda does nothing without --patterns" "$DAMA" train --db noop.sqlite --pattern-lambda 1e-6
[ ! -e noop.sqlite ] && ok || bad "a refused command made its database"
# a weight set's name with a control byte (an escape sequence reached terminals and generated headers)
expect_err 2 "dama tune: --name: a control character" "$DAMA" tune --db noop.sqlite --name $'a\x1b[31mb'
# a run is known by its values, not their spelling: --nodes 050, --spread .25 or 0.250 and --spread-min 6.0
# resume run 1 (each made a new run that played the same games again)
expect_rc 0 "self-play run 1" "$DAMA" selfplay --db spell.sqlite --games 2 --nodes 50 --threads 1 --progress 0
for o in "--nodes 050" "--spread .25" "--spread 0.250" "--spread-min 6.0" "--spread 2.5e-1"; do
  "$DAMA" selfplay --db spell.sqlite --games 2 --nodes 50 --threads 1 --progress 0 $o >/dev/null 2>&1 || bad "selfplay $o"
done
expect_eq "$(sqlite3 spell.sqlite "SELECT count(*) || ' ' || count(DISTINCT id) FROM runs")" "1 1" "respelled values: one run"
# a book edited under the same path is another run's (its openings were mixed into the old run's games)
printf 'a\tW:Wc3,e3:Bf6\nb\tW:Wa3,g3:Bd6\n' >edited.tsv
expect_rc 0 "self-play from a book" "$DAMA" selfplay --db edited.sqlite --openings edited.tsv --games 4 --nodes 50 --threads 1 --progress 0
expect_rc 0 "the same book again" "$DAMA" selfplay --db edited.sqlite --openings edited.tsv --games 4 --nodes 50 --threads 1 --progress 0
grep -q "run 1 already holds these 4 games" "$T/out" "$T/err" && ok || bad "the same book: $(cat "$T/out")"
printf 'c\tW:Wa3:Bh6\n' >>edited.tsv
expect_rc 0 "the book edited" "$DAMA" selfplay --db edited.sqlite --openings edited.tsv --games 4 --nodes 50 --threads 1 --progress 0
expect_eq "$(sqlite3 edited.sqlite "SELECT count(*) FROM runs")" 2 "an edited book: a new run"
expect_rc 0 "a match from the edited book" "$DAMA" match --db edited.sqlite --a default --b default --openings edited.tsv --pairs 2 --nodes 50 --threads 1 --progress 0
printf 'd\tW:Wc3:Bh6\n' >>edited.tsv
expect_rc 0 "the match's book edited" "$DAMA" match --db edited.sqlite --a default --b default --openings edited.tsv --pairs 2 --nodes 50 --threads 1 --progress 0
expect_eq "$(sqlite3 edited.sqlite "SELECT count(*) FROM runs WHERE kind = 'match'")" 2 "a match from an edited book: a new run"
# so is the game's own book (read from the working folder first): another version's book makes a new run
mkdir -p own/data/openings
printf 'a\tW:Wc3,e3:Bf6\n' >own/data/openings/russian_ballots_745.tsv
(cd own && "$DAMA" selfplay --db own.sqlite --games 2 --nodes 50 --threads 1 --progress 0 >/dev/null 2>&1) || bad "selfplay from the own book"
printf 'b\tW:Wa3,g3:Bd6\n' >>own/data/openings/russian_ballots_745.tsv
(cd own && "$DAMA" selfplay --db own.sqlite --games 2 --nodes 50 --threads 1 --progress 0 >/dev/null 2>&1) || bad "the own book edited"
expect_eq "$(sqlite3 own/own.sqlite "SELECT count(*) || ' ' || sum(config LIKE '%openings-content = %') FROM runs")" "2 2" \
  "the game's own book edited: a new run"
# an SPRT match shorter than the SPRT's first decision says so at once (it ended "undecided" without a word)
expect_rc 0 "an SPRT match of 2 pairs" "$DAMA" match --db sprt2.sqlite --a default --b default --pairs 2 --nodes 50 \
  --threads 1 --progress 0 --sprt
expect_line err "note: --pairs 2 is below 20: the SPRT decides no sooner than 20 pairs, so this match ends undecided"
# a book read from a pipe is read once, by the loading (hashing it first drained it: "has no positions")
"$DAMA" selfplay --db piped.sqlite --openings <(cat edited.tsv) --games 2 --nodes 50 --threads 1 --progress 0 >/dev/null 2>"$T/err" \
  && ok || bad "a book from a pipe: $(cat "$T/err")"

finish "input"

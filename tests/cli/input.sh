#!/usr/bin/env bash
# CLI contract tests of bad input: numbers out of range or malformed (command
# line and config files), database paths that would lose data, files that
# export and tune may or may not replace.
# Usage: input.sh DAMA_BINARY SOURCE_DIR
set -u
DAMA="$1"
SRC="$2"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
# expect_err RC 'message part' command...: exit code and a message on stderr
expect_err() {
  local want="$1" msg="$2"
  shift 2
  "$@" >"$T/out" 2>"$T/err"
  local rc=$?
  if [ "$rc" != "$want" ]; then bad "$*: exit $rc (expected $want): $(head -c 300 "$T/err")"; return; fi
  if ! grep -qF -- "$msg" "$T/err"; then bad "$*: stderr lacks '$msg': $(head -c 300 "$T/err")"; return; fi
  ok
}
cd "$T" || exit 1 # no configs/dama.cfg here: built-in defaults

# ---- numbers: one checked parser, a range per option ----
expect_err 2 "--depth: '4294967297' is out of range 0..100" "$DAMA" search --depth 4294967297
expect_err 2 "--depth: '99999999999999999999' is out of range" "$DAMA" perft --depth 99999999999999999999
expect_err 2 "--epochs: '4294967298' is out of range 0..1000000" "$DAMA" tune --epochs 4294967298
expect_err 2 "--max-plies: '4294967306' is out of range 1..1024" "$DAMA" selfplay --max-plies 4294967306
expect_err 2 "--random-plies: '-1' is out of range 0..40" "$DAMA" selfplay --random-plies -1
expect_err 2 "--threads: '-1' is out of range 0..256" "$DAMA" tune --threads -1
expect_err 2 "--progress: '-1' is out of range 0..86400" "$DAMA" match --progress -1
expect_err 2 "--nodes: '12abc' is not an integer" "$DAMA" search --nodes 12abc
expect_err 2 "--lr: 'nan' is not a number" "$DAMA" tune --lr nan
expect_err 2 "--depth: ' 5' is not an integer" "$DAMA" perft --depth ' 5'
expect_err 2 "--alpha: '0.9' is out of range 1e-06..0.5" "$DAMA" match --alpha 0.9
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
"$DAMA" match --config m.cfg --help >h.txt
grep -q 'm.cfg: 0.1)' h.txt && ok || bad "help shows config reals with %g: $(grep beta h.txt)"
grep -q '0.05000000' h.txt && bad "help prints 0.05000000...: $(grep alpha h.txt)" || ok

# ---- database paths that would store nothing on disk ----
expect_err 2 "--db: '': an empty path" "$DAMA" selfplay --db '' --games 2 --nodes 50
expect_err 2 "--db: ':memory:'" "$DAMA" selfplay --db ':memory:' --games 2 --nodes 50
expect_err 2 "SQLite URIs are not accepted" "$DAMA" match --db 'file:m.sqlite?mode=memory' --pairs 1
expect_err 2 "SQLite URIs are not accepted" "$DAMA" tune --db 'FILE:x.sqlite'
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

echo "input: $pass passed, $fail failed"
[ "$fail" = 0 ]

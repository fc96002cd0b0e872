#!/usr/bin/env bash
# dama report as a command: the page is written atomically and only with
# --force over an existing file (never over the database), the database is
# opened read-only (its bytes do not change, a missing one is not created),
# bad options are errors naming them, the page is well-formed XML with
# every section, and its numbers are the database's (sqlite3). The browser
# test (tests/browser/report.sh) renders it in headless Chromium.
# Usage: report.sh DAMA_BINARY SOURCE_DIR
set -u
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1
q() { sqlite3 t.sqlite "$1"; }

# A small database with every kind of row: self-play, tuning, a match with
# the SPRT, a tournament (a name with markup in it).
"$DAMA" selfplay --db t.sqlite --games 40 --nodes 300 --threads 2 --progress 0 >/dev/null 2>&1 || bad "selfplay"
# Tuned from a deliberately poor start (tests/cli/russian-poor.cfg): a run in
# which no epoch beats its start stores no weight set (and "tuned" below would
# be missing), which from the compiled-in set is these few games' chance.
"$DAMA" tune --db t.sqlite --seed 3 --epochs 20 --lr 5 --batch 256 --weights "$SRC/tests/cli/russian-poor.cfg" >/dev/null 2>&1 || bad "tune"
"$DAMA" match --db t.sqlite --a tuned --b default --pairs 4 --nodes 300 --sprt --elo0 0 --elo1 10 --progress 0 \
  >/dev/null 2>&1 || bad "match"
"$DAMA" tournament --db t.sqlite --rounds 1 --concurrency 1 --nodes 200 --progress 0 \
  'name=tuned <b>&amp;,weights=tuned' name=start,weights=default >/dev/null 2>&1 || bad "tournament"
# matches 2 and 3, without --sprt: a Hub engine as B (a command longer than the page shows), and a DXP
# program as A that nobody listens to (each game lost by its fault: exit 1)
PAD=$(printf 'x%.0s' {1..70})
"$DAMA" match --db t.sqlite --a default --b-cmd "DAMA_PAD=$PAD $DAMA hub" --pairs 1 --nodes 100 --progress 0 \
  >/dev/null 2>&1 || bad "match with a Hub engine"
expect_rc 1 "match with an unreachable DXP program" "$DAMA" match --db t.sqlite --game international \
  --a-dxp 127.0.0.1:9 --b default --pairs 1 --nodes 100 --progress 0
expect_line out "Games 2: +0 =0 -2 | Elo not estimable (score 0%) | Ptnml 1,0,0,0,0"

sum() { cat t.sqlite t.sqlite-wal 2>/dev/null | cksum; }
before=$(sum)
"$DAMA" report --db t.sqlite -o r.html >out 2>err && ok || bad "report: $(cat err)"
grep -q "^wrote r.html (" out && ok || bad "report says what it wrote: $(cat out)"
[ "$(sum)" = "$before" ] && ok || bad "report changed the database"

# ---- files: refuse to overwrite without --force, never the database ----
cp r.html keep.html
expect_err 1 "exists (--force replaces it)" "$DAMA" report --db t.sqlite -o r.html
cmp -s r.html keep.html && ok || bad "a refused report touched the file"
"$DAMA" report --db t.sqlite -o r.html --force >/dev/null 2>&1 && ok || bad "--force"
expect_err 1 "t.sqlite" "$DAMA" report --db t.sqlite -o t.sqlite --force
ln -s t.sqlite link.sqlite
expect_err 1 "" "$DAMA" report --db t.sqlite -o ./link.sqlite --force
[ "$(sum)" = "$before" ] && ok || bad "the database was replaced"
ls ./*.tmp* .*.tmp* 2>/dev/null | grep -q . && bad "temporary files left: $(ls -a)" || ok
"$DAMA" report --db t.sqlite -o - >stdout.html 2>err && ok || bad "-o -: $(cat err)"
grep -q '</html>' stdout.html && ok || bad "-o - writes the page to standard output"

# ---- bad input ----
expect_err 1 "no such database file" "$DAMA" report --db missing.sqlite -o m.html
[ ! -e missing.sqlite ] && [ ! -e m.html ] && ok || bad "a missing database was created or a page written"
expect_err 2 "dama report: --game chess: unknown game" "$DAMA" report --db t.sqlite --game chess -o g.html
expect_err 2 "--db" "$DAMA" report --db ':memory:' -o g.html
expect_err 2 "--watch" "$DAMA" report --db t.sqlite --watch -1 -o g.html
expect_err 2 "--watch rewrites a file" "$DAMA" report --db t.sqlite --watch 5 -o -
printf 'not a database' >junk.sqlite
expect_err 1 "junk.sqlite" "$DAMA" report --db junk.sqlite -o j.html
[ ! -e j.html ] && ok || bad "a failed report wrote a page"

# ---- the page: well-formed, every section, no script, no network ----
python3 - r.html <<'PY' && ok || bad "the page is not well-formed XML"
import sys, xml.etree.ElementTree as ET
ET.parse(sys.argv[1])
PY
for s in selfplay tuning weights matches tournaments generations; do
  grep -q "<section id=\"$s\">" r.html && ok || bad "section $s missing"
done
grep -qi '<script\|src=\|https\?://[a-z]' <(sed 's|http://www.w3.org/2000/svg||g' r.html) \
  && bad "the page has a script or loads something" || ok
grep -q "tuned &lt;b&gt;&amp;amp;" r.html && ok || bad "participant names are escaped"
grep -q "tuned <b>" r.html && bad "a raw name from the database in the page" || ok

# ---- numbers against sqlite3 ----
w=$(q "SELECT count(*) FROM games WHERE run_id = 1 AND result = '1-0'")
grep -q "data-label=\"White wins\" data-value=\"$w\"" r.html && ok || bad "self-play White wins ($w)"
e=$(q "SELECT count(*) FROM tuning_epochs WHERE tuning_run_id = 1")
n=$(grep -o '<figure class="plot" id="tuning-1-loss">.*</figure>' r.html | grep -o 'data-series="0"[^>]*data-points="[0-9]*"' | grep -o '[0-9]*"$' | tr -d '"')
[ "$n" = "$e" ] && ok || bad "tuning run 1: $n training-loss points, $e epochs stored"
gm=$(q "SELECT games FROM matches WHERE id = 1")
grep -q "The $gm games of match 1" r.html && ok || bad "match 1 games ($gm)"
grep -q '<figure class="plot" id="match-1-llr">' r.html && ok || bad "match 1 LLR path"
# an engine without a weight set is named by its command or address (it showed "#"), cut to 60 bytes
grep -qF "<td>#1 compiled-in</td><td>Hub &#39;DAMA_PAD=${PAD:0:51}…&#39;</td>" r.html && ok || bad "match 2: the Hub engine's command"
grep -q "<td>DXP 127\.0\.0\.1:9</td><td>#[0-9]* compiled-in</td>" r.html && ok || bad "match 3: the DXP program's address"
grep -q "<h3>Match 3: DXP 127\.0\.0\.1:9 vs #[0-9]* compiled-in</h3>" r.html && ok || bad "match 3's heading names the program"
grep -q '<td># </td>\|#0 ' r.html && bad "an engine shown as '#'" || ok
# the SPRT only where one ran: match 1 (--sprt) has its bounds and LLR, match 2 none stored and "–" shown
expect_eq "$(q "SELECT id || ':' || (sprt_elo0 IS NULL) || (sprt_alpha IS NULL) || (llr IS NULL) FROM matches WHERE id <= 2")" \
  "$(printf '1:000\n2:111')" "SPRT bounds and LLR stored only for the --sprt match"
row() { grep -o "<tr><td class=\"num\">$2</td>.*" "$1" | sed 's|</tr>.*||'; }
row r.html 1 | grep -q '<td class="num">-\?[0-9.]*</td><td>\[0, 10\] [^<]*</td>' && ok || bad "match 1's SPRT: $(row r.html 1)"
row r.html 2 | grep -q '<td>not estimable</td><td>–</td><td>–</td>' && ok || bad "match 2 without SPRT: $(row r.html 2)"
grep -q 'id="match-2-llr"' r.html && bad "an LLR path for match 2" || ok
# no "inf": match 3's DXP program lost every game (score 0% for A)
row r.html 3 | grep -q '<td>not estimable (score 0%)</td><td>not estimable</td>' && ok || bad "match 3's Elo: $(row r.html 3)"
grep -q 'Elo not estimable (score 0%)\.' r.html && ok || bad "match 3's pair plot caption"
grep -qi '[-+ >]inf\b' <(sed 's/<[^>]*>/ /g' r.html) && bad "an infinite value printed: $(sed 's/<[^>]*>/ /g' r.html | grep -oi '.\{30\}[-+ ]inf\b.\{10\}' | head -2)" || ok
# an older database stored a match without --sprt with the default bounds: its run's configuration says no SPRT ran
cp t.sqlite old.sqlite
sqlite3 old.sqlite "UPDATE matches SET sprt_elo0 = 0, sprt_elo1 = 10, sprt_alpha = 0.05, sprt_beta = 0.05, llr = -0.2 WHERE id = 2"
"$DAMA" report --db old.sqlite -o old.html >/dev/null 2>&1 && ok || bad "report of the older rows"
row old.html 2 | grep -q '<td>not estimable</td><td>–</td><td>–</td>' && ok || bad "older match 2 without SPRT: $(row old.html 2)"
grep -q 'id="match-2-llr"' old.html && bad "an LLR path for the older match 2" || ok
# no match ran an SPRT: no LLR and SPRT columns at all
sqlite3 old.sqlite "DELETE FROM matches WHERE id = 1"
"$DAMA" report --db old.sqlite -o none.html >/dev/null 2>&1 && ok || bad "report without an SPRT match"
grep -q '<th scope="col">\(LLR\|SPRT\)</th>' none.html && bad "SPRT columns without an SPRT match" || ok
grep -q '<th scope="col">95% interval</th><th scope="col">A ms/move (wall, CPU)</th>' none.html && ok || bad "the matches table's columns"
# each side's time per move in the matches table: the stored sums' means (A White in the even games)
cells=$(grep -o '<td>[0-9.]*, [0-9.]*</td><td>[0-9.]*, [0-9.]*</td><td>[0-9.]*, [0-9.]*: [^<]*</td></tr>' r.html | head -1)
sums=$(q "SELECT total(CASE WHEN game_index % 2 = 0 THEN white_moves ELSE black_moves END),
  total(CASE WHEN game_index % 2 = 0 THEN white_wall_s ELSE black_wall_s END),
  total(CASE WHEN game_index % 2 = 0 THEN white_cpu_s ELSE black_cpu_s END),
  total(CASE WHEN game_index % 2 = 0 THEN black_moves ELSE white_moves END),
  total(CASE WHEN game_index % 2 = 0 THEN black_wall_s ELSE white_wall_s END),
  total(CASE WHEN game_index % 2 = 0 THEN black_cpu_s ELSE white_cpu_s END)
  FROM games WHERE run_id = (SELECT run_id FROM matches WHERE id = 1)" | tr '|' ' ')
awk -v c="$cells" -v s="$sums" 'function abs(x) { return x < 0 ? -x : x }
  BEGIN {
    n = split(c, f, /(<\/?t[dr]>|, |: )+/); split(s, v, " ")
    if (n < 8 || v[1] <= 0 || v[4] <= 0) exit 1
    exit !(abs(f[2] - 1000 * v[2] / v[1]) <= 0.006 && abs(f[3] - 1000 * v[3] / v[1]) <= 0.006 &&
           abs(f[4] - 1000 * v[5] / v[4]) <= 0.006 && abs(f[5] - 1000 * v[6] / v[4]) <= 0.006 &&
           f[8] ~ /^(equal time used \(within 5%\)|unequal time)$/)
  }' && ok || bad "match 1 time per move in the table: '$cells' against the stored sums $sums"

# each tournament player's time per move in the crosstable: its stored sums over its games, either colour
cell=$(grep -o '<div id="tournament-1-crosstable">.*' r.html | sed 's|</tr>|\n|g' | grep '<td>start</td>' \
  | sed 's|.*<td>\([0-9.]*, [0-9.]*\)</td>$|\1|')
sums=$(q "SELECT total(CASE WHEN g.white_player = p.id THEN g.white_moves ELSE g.black_moves END),
  total(CASE WHEN g.white_player = p.id THEN g.white_wall_s ELSE g.black_wall_s END),
  total(CASE WHEN g.white_player = p.id THEN g.white_cpu_s ELSE g.black_cpu_s END)
  FROM games g JOIN participants p ON p.id IN (g.white_player, g.black_player) WHERE p.name = 'start'" | tr '|' ' ')
awk -v c="$cell" -v s="$sums" 'function abs(x) { return x < 0 ? -x : x }
  BEGIN { split(c, f, ", "); split(s, v, " ")
          exit !(v[1] > 0 && f[2] != "" && abs(f[1] - 1000 * v[2] / v[1]) <= 0.006 && abs(f[2] - 1000 * v[3] / v[1]) <= 0.006) }' \
  && ok || bad "tournament player start: time cell '$cell' against the stored sums $sums"

# ---- --game: only that game's rows ----
"$DAMA" report --db t.sqlite --game turkish -o tk.html >/dev/null 2>&1 && ok || bad "--game turkish"
grep -q "No self-play runs in this database." tk.html && ok || bad "--game turkish shows Russian runs"
grep -q 'id="selfplay-1-results"' tk.html && bad "--game turkish plots run 1" || ok

"$DAMA" report --db t.sqlite --game all -o all.html >/dev/null 2>&1 && ok || bad "--game all"
grep -q 'id="selfplay-1-results"' all.html && ok || bad "--game all shows run 1"

# ---- --watch: rewrites until stopped, the page reloads itself ----
"$DAMA" report --db t.sqlite --watch 1 -o w.html >wout 2>&1 &
pid=$!
two_writes() { [ "$(grep -c '^wrote' wout 2>/dev/null)" -ge 2 ]; }
wait_until -p $pid "--watch 1: two pages written" two_writes
kill -INT $pid
wait $pid
rc=$?
[ "$rc" = 0 ] && ok || bad "--watch stopped by SIGINT: exit $rc"
[ "$(grep -c '^wrote w.html' wout)" -ge 2 ] && ok || bad "--watch rewrote the page: $(cat wout)"
grep -q '<meta http-equiv="refresh" content="1"/>' w.html && ok || bad "--watch page reloads itself"

finish "report"

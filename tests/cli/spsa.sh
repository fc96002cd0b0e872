#!/usr/bin/env bash
# dama spsa: thread-independent iterations, resume after SIGINT and after
# kill -9 with the same result as an uninterrupted run, stored iterations
# and result weight set, bad parameter names.
# Usage: spsa.sh DAMA_BINARY SOURCE_DIR
set -u
. "$(dirname "$0")/lib.sh"
cd "$T"
ARGS=(--game russian --iterations 8 --pairs 2 --nodes 300 --params KING,MAN_PST[5],TEMPO --progress 0)
theta() { sqlite3 "$1" "SELECT theta FROM spsa_iterations ORDER BY iter DESC LIMIT 1"; }

"$DAMA" spsa --db a.sqlite --threads 1 "${ARGS[@]}" >a.out 2>&1 && ok || bad "spsa failed: $(tail -3 a.out)"
"$DAMA" spsa --db b.sqlite --threads 2 "${ARGS[@]}" >b.out 2>&1 && ok || bad "spsa (2 threads) failed"
A=$(theta a.sqlite)
[ -n "$A" ] && [ "$A" = "$(theta b.sqlite)" ] && ok || bad "SPSA depends on the thread count: '$A' vs '$(theta b.sqlite)'"
[ "$(sqlite3 a.sqlite 'SELECT count(*) FROM spsa_iterations')" = 8 ] && ok || bad "not 8 iterations stored"
[ "$(sqlite3 a.sqlite 'SELECT sum(wins + draws + losses) FROM spsa_iterations')" = 32 ] && ok || bad "not 32 games counted"
[ "$(sqlite3 a.sqlite "SELECT status FROM spsa_runs")" = done ] && ok || bad "run not done"
ws=$(sqlite3 a.sqlite "SELECT result_ws FROM spsa_runs")
how=$(sqlite3 a.sqlite "SELECT how FROM weight_sets WHERE id = $ws")
# A weight set is its content: when the rounded result equals the base set,
# the result is that row; otherwise a new row with the SPSA lineage.
if [ "$(sqlite3 a.sqlite "SELECT r.weights = b.weights FROM spsa_runs s JOIN weight_sets r ON r.id = s.result_ws JOIN weight_sets b ON b.id = s.base_ws")" = 1 ]; then
  [ "$(sqlite3 a.sqlite "SELECT result_ws = base_ws FROM spsa_runs")" = 1 ] && ok || bad "equal result stored as a new row"
else
  case "$how" in "spsa run 1, 8 of 8 iterations"*) ok ;; *) bad "result lineage: '$how'" ;; esac
  [ "$(sqlite3 a.sqlite "SELECT parent_id IS NOT NULL FROM weight_sets WHERE id = $ws")" = 1 ] && ok || bad "result has no parent"
fi
# the stored result equals the last iteration's values, rounded
king=$(sqlite3 a.sqlite "SELECT weights FROM weight_sets WHERE id = $ws" | tr ',' '\n' | sed -n 2p)
first=$(echo "$A" | awk '{printf "%d", ($1 >= 0) ? int($1 + 0.5) : -int(-$1 + 0.5)}')
[ "$king" = "$first" ] && ok || bad "stored KING $king, last theta $first"

# interrupted with SIGINT after two iterations, then resumed by the same command (--out included: the
# interrupted run writes no file that would stop it, and --force is no part of the run): same result
"$DAMA" spsa --db c.sqlite --threads 2 "${ARGS[@]}" --out c.cfg >c.out 2>&1 &
pid=$!
wait_until -p "$pid" "2 iterations stored" at_least c.sqlite "SELECT count(*) FROM spsa_iterations" 2
kill -INT "$pid" 2>/dev/null
wait "$pid"
rc=$?
n=$(sqlite3 c.sqlite "SELECT count(*) FROM spsa_iterations")
if [ "$n" -lt 8 ]; then
  [ "$rc" = 3 ] && ok || bad "interrupted spsa exit $rc (want 3)"
  grep -q "run the same command again to resume" c.out && ok || bad "interrupted spsa does not say how to resume: $(tail -2 c.out)"
  [ "$(sqlite3 c.sqlite "SELECT status FROM spsa_runs")" = interrupted ] && ok || bad "run not marked interrupted"
  [ ! -e c.cfg ] && ok || bad "an interrupted spsa wrote its --out"
  grep -q "^--out c.cfg is written when the run completes (these weights now: dama export" c.out && ok ||
    bad "interrupted spsa does not say where its weights are: $(tail -3 c.out)"
fi
"$DAMA" spsa --db c.sqlite --threads 1 "${ARGS[@]}" --out c.cfg --force >c2.out 2>&1 && ok || bad "resume failed: $(tail -2 c2.out)"
[ -s c.cfg ] && ok || bad "the completed run wrote no --out"
[ "$n" -ge 8 ] || { grep -q "resuming run 1" c2.out && ok || bad "resume not reported"; }
[ "$(theta c.sqlite)" = "$A" ] && ok || bad "resumed run differs from the uninterrupted one"
[ "$(sqlite3 c.sqlite 'SELECT count(*) FROM spsa_runs')" = 1 ] && ok || bad "resume made a second run"

# the same command with another option does not resume an interrupted run: a new run, and a note names
# the one left (it started afresh without a word)
cp a.sqlite n.sqlite
sqlite3 n.sqlite "UPDATE spsa_runs SET status = 'interrupted'"
"$DAMA" spsa --db n.sqlite --threads 1 "${ARGS[@]}" --hash 8 >n.out 2>&1 && ok || bad "spsa with another option: $(tail -2 n.out)"
grep -qxF "note: SPSA run 1 of russian, interrupted, was started with other options: this is a new run (run 2); the options of run 1 resume that one" n.out \
  && ok || bad "no note of the interrupted run: $(head -3 n.out)"
# no note where no run was left interrupted: a done run with other options, or the same options resumed
cp a.sqlite dn.sqlite
"$DAMA" spsa --db dn.sqlite --threads 1 "${ARGS[@]}" --hash 8 >dn.out 2>&1 && ok || bad "spsa beside a done run: $(tail -2 dn.out)"
grep -q "^note: SPSA run" dn.out && bad "a note beside a done run: $(grep '^note' dn.out)" || ok
grep -q "^note: SPSA run" c2.out && bad "a note on a resume: $(grep '^note' c2.out)" || ok

# kill -9 midway, then resume
"$DAMA" spsa --db d.sqlite --threads 2 "${ARGS[@]}" >/dev/null 2>&1 &
pid=$!
wait_until -p "$pid" "3 iterations stored" at_least d.sqlite "SELECT count(*) FROM spsa_iterations" 3
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
[ "$(sqlite3 d.sqlite 'PRAGMA integrity_check')" = ok ] && ok || bad "integrity after kill -9"
"$DAMA" spsa --db d.sqlite --threads 2 "${ARGS[@]}" >/dev/null 2>&1 && ok || bad "resume after kill -9 failed"
[ "$(theta d.sqlite)" = "$A" ] && ok || bad "run resumed after kill -9 differs"

# search constants: they reach both engines (with the same settings on both
# sides a pair's two games are the same game with colours swapped, every
# result 0 and theta still), the same values at any thread count, stored as
# search:NAME, printed as --search-param, kept in the table's range
SARGS=(--game russian --iterations 6 --pairs 2 --nodes 400 --tune-search LMR_DIV,ASP_WINDOW --r-end 0.2 --progress 0)
"$DAMA" spsa --db s1.sqlite --threads 1 "${SARGS[@]}" >s1.out 2>&1 && ok || bad "spsa --tune-search failed: $(tail -3 s1.out)"
"$DAMA" spsa --db s2.sqlite --threads 2 "${SARGS[@]}" >s2.out 2>&1 && ok || bad "spsa --tune-search (2 threads) failed"
S=$(theta s1.sqlite)
[ -n "$S" ] && [ "$S" = "$(theta s2.sqlite)" ] && ok || bad "search SPSA depends on the thread count: '$S' vs '$(theta s2.sqlite)'"
[ "$S" != "20 150" ] && ok || bad "search constants never moved: theta '$S' (they did not reach the engines)"
[ "$(sqlite3 s1.sqlite 'SELECT sum(abs(result)) FROM spsa_iterations')" != 0 ] && ok || bad "every pair scored 0"
sqlite3 s1.sqlite "SELECT params FROM spsa_runs" | grep -q "^search:LMR_DIV 100 600 20 " && ok || bad "stored params: $(sqlite3 s1.sqlite 'SELECT params FROM spsa_runs')"
grep -q "search constants: --search-param ASP_WINDOW=[0-9]* --search-param LMR_DIV=[0-9]*" s1.out && ok || bad "no --search-param line: $(cat s1.out)"
echo "$S" | awk '{exit !($1 >= 5 && $1 <= 200 && $2 >= 100 && $2 <= 600)}' && ok || bad "theta '$S' outside the ranges"
# the names' order is not the run's identity: the other order finds run 1 done
"$DAMA" spsa --db s1.sqlite --threads 1 "${SARGS[@]/LMR_DIV,ASP_WINDOW/ASP_WINDOW, LMR_DIV}" >s1b.out 2>&1 && ok || bad "spsa, names reordered: $(tail -2 s1b.out)"
[ "$(sqlite3 s1.sqlite 'SELECT count(*) FROM spsa_runs')" = 1 ] && ok || bad "reordered names made a second run"
[ "$(theta s1.sqlite)" = "$S" ] && ok || bad "reordered names changed the result"
"$DAMA" spsa --db e.sqlite --tune-search LMR_DIV,NO_SUCH --iterations 2 >e.out 2>&1
rc=$?
[ "$rc" = 2 ] && grep -q "'NO_SUCH' is not a search parameter" e.out && ok || bad "unknown search parameter: rc $rc $(cat e.out)"
"$DAMA" spsa --db e.sqlite --tune-search LMR_DIV,LMR_DIV --iterations 2 >e.out 2>&1
rc=$?
[ "$rc" = 2 ] && grep -q "LMR_DIV is named twice" e.out && ok || bad "a name twice: rc $rc $(cat e.out)"
# --params as --tune-search: a name twice, or an empty one, refused (it took KING,KING as one parameter)
expect_err 2 "dama spsa: --params: KING is named twice" "$DAMA" spsa --db e.sqlite --params KING,KING --iterations 2
expect_err 2 "dama spsa: --params: an empty name in 'TEMPO,,KING'" "$DAMA" spsa --db e.sqlite --params TEMPO,,KING --iterations 2
expect_err 2 "dama spsa: --params: an empty name in 'TEMPO,'" "$DAMA" spsa --db e.sqlite --params TEMPO, --iterations 2
"$DAMA" spsa --db e.sqlite --game turkish --tune-search LMR_DIV,ROYAL_EXT --iterations 2 >e.out 2>&1
rc=$?
[ "$rc" = 2 ] && grep -qF "dama spsa: --tune-search: search parameter ROYAL_EXT does nothing in turkish: it applies only to games with a royal piece" e.out \
  && ok || bad "ROYAL_EXT in Turkish: rc $rc $(cat e.out)"
# the clock's and lazy SMP's constants act in no game SPSA plays (nodes or depth, one thread): refused
expect_err 2 "dama spsa: --tune-search: TM_CHANGE_PCT acts only in a search on a clock or a movetime, and SPSA's games search to a node count or a depth: it would tune noise" \
  "$DAMA" spsa --db e.sqlite --tune-search LMR_DIV,TM_CHANGE_PCT --iterations 2
expect_err 2 "dama spsa: --tune-search: SMP_AHEAD acts only in a search of several threads, and SPSA's games search one thread each: it would tune noise" \
  "$DAMA" spsa --db e.sqlite --tune-search SMP_AHEAD --iterations 2
for spec in "LMR_DIV," "" ",LMR_DIV" "LMR_DIV,,ASP_WINDOW"; do
  "$DAMA" spsa --db e.sqlite --tune-search "$spec" --iterations 2 >e.out 2>&1
  rc=$?
  [ "$rc" = 2 ] && grep -q "empty name" e.out && ok || bad "--tune-search '$spec': rc $rc $(cat e.out)"
done
[ ! -e e.sqlite ] && ok || bad "a refused spsa left a database"
# --out: a weight file holds weights; the tuned constants are named in its comment
"$DAMA" spsa --db s3.sqlite "${SARGS[@]}" --iterations 2 --out s3.cfg >s3.out 2>&1 && ok || bad "spsa --out failed: $(tail -2 s3.out)"
grep -q "search constants, not in this file: --search-param ASP_WINDOW=[0-9]* --search-param LMR_DIV=[0-9]*" s3.cfg && ok || bad "--out comment lacks the search constants: $(head -3 s3.cfg)"
grep -q "^wrote s3.cfg (weight set [0-9]*)$" s3.out && ok || bad "spsa --out does not say it wrote the file: $(tail -2 s3.out)"

# bad input
"$DAMA" spsa --db e.sqlite --params NO_SUCH_TERM --iterations 2 >e.out 2>&1
rc=$?
[ "$rc" -ne 0 ] && [ "$rc" -lt 128 ] && grep -q "NO_SUCH_TERM" e.out && ok || bad "unknown parameter: rc $rc $(cat e.out)"
# the hint names a command that lists the names (it named export --help, which does not)
grep -qF "(the names: dama export --game russian --weights default --format cfg --out FILE)" e.out && ok || bad "names hint: $(cat e.out)"
"$DAMA" export --game russian --weights default --format cfg --out names.cfg >/dev/null 2>&1 && grep -q "^  TEMPO = " names.cfg && ok || bad "the hinted command lists no names"
"$DAMA" spsa --db e.sqlite --params MAN --iterations 2 >e.out 2>&1
[ $? -ne 0 ] && grep -q "scale weight" e.out && ok || bad "the scale weight was accepted"
"$DAMA" spsa --db e.sqlite --params 'MAN_PST[32]' --iterations 2 >e.out 2>&1
[ $? -ne 0 ] && grep -q "MAN_PST\[32\]" e.out && ok || bad "an index past the table was accepted"
"$DAMA" spsa --db e.sqlite --iterations 0 >e.out 2>&1
[ $? = 2 ] && ok || bad "--iterations 0 accepted"

# a wide --range and large steps keep every weight within a weight file's -5000..5000: the result
# written is a file dama reads again (KING went to 16968, a file no command could load)
"$DAMA" spsa --db wide.sqlite --iterations 2 --pairs 2 --nodes 200 --threads 1 --progress 0 --params KING,TEMPO \
  --range 100 --c-min 1000 --r-end 10 --seed 1 --out wide.cfg >wide.out 2>&1 && ok || bad "spsa, wide range: $(tail -3 wide.out)"
king=$(sed -n 's/^ *KING = \(-\?[0-9]*\);$/\1/p' wide.cfg)
[ -n "$king" ] && [ "${king#-}" -le 5000 ] && ok || bad "spsa wrote KING = '$king'"
expect_rc 0 "the result of a wide range read again" "$DAMA" export --weights wide.cfg --format json --out wide.json

# --params and --tune-search: blanks around a name and the order are not another run
"$DAMA" spsa --db names.sqlite --iterations 1 --pairs 1 --nodes 200 --threads 1 --progress 0 \
  --params 'TEMPO ,KING' --tune-search 'RFP_MARGIN, LMR_BASE ' >names1.out 2>&1 && ok || bad "spsa --params 'TEMPO ,KING': $(tail -2 names1.out)"
"$DAMA" spsa --db names.sqlite --iterations 1 --pairs 1 --nodes 200 --threads 1 --progress 0 \
  --params 'KING,TEMPO' --tune-search 'LMR_BASE,RFP_MARGIN' >names2.out 2>&1 && ok || bad "spsa --params KING,TEMPO: $(tail -2 names2.out)"
grep -q "^spsa russian: resuming run 1 (done)" names2.out && ok || bad "the same names in another order made another run: $(head -2 names2.out)"

finish "spsa"

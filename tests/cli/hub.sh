#!/usr/bin/env bash
# `dama hub`: scripted Hub protocol sessions — every command, bad input,
# stop and ping during a search, ponder and ponder-hit, the game history
# (repetition, the draw rules' counters), all three variants.
# Usage: hub.sh DAMA_BINARY SOURCE_DIR
set -u
. "$(dirname "$0")/lib.sh"
has() { grep -q -- "$2" "$1" && ok || bad "$3: no '$2' in: $(head -c 600 "$1")"; }
hasnt() { grep -q -- "$2" "$1" && bad "$3: unexpected '$2' in: $(head -c 600 "$1")" || ok; }
count() { local n; n=$(grep -c -- "$2" "$1"); [ "$n" = "$3" ] && ok || bad "$4: $n lines '$2' (expected $3)"; }
# LIMIT: the seconds after which a hub that has not ended is killed (it hangs:
# far beyond what any session here needs, even on a loaded machine)
LIMIT=300
# session NAME: stdin from $T/NAME.in, stdout to $T/NAME.out; must exit 0
session() { timeout $LIMIT "$DAMA" hub "${@:2}" <"$T/$1.in" >"$T/$1.out" 2>"$T/$1.err"; rc=$?; [ "$rc" = 0 ] && ok || bad "session $1 exit $rc: $(head -c 300 "$T/$1.err")"; }

# 1. initialisation: id, params, wait; set-param; init -> ready
printf 'hub\nset-param name=variant value=turkish\nset-param name=hash value=8\ninit\nping\nquit\n' >"$T/init.in"
session init
has "$T/init.out" "^id name=dama version=$("$DAMA" --version | sed -n '1s/^dama //p') author=" "id line: dama --version's version"
for p in variant hash threads weights db level seed egtb-path egtb-pieces; do has "$T/init.out" "^param name=$p value=" "param $p"; done
has "$T/init.out" 'param name=variant value=russian type=enum values="russian turkish shatra brazilian pool english czech italian spanish international canadian"' "variant values"
[ "$(sed -n '/^wait$/=' "$T/init.out")" -gt "$(grep -n '^param' "$T/init.out" | tail -1 | cut -d: -f1)" ] && ok || bad "wait after params"
has "$T/init.out" '^ready$' "ready"
has "$T/init.out" '^pong$' "pong"
hasnt "$T/init.out" '^error' "clean init"

# 2. a search in each variant: info lines, done with a legal move
for g in russian turkish shatra; do
  printf 'hub\nset-param name=variant value=%s\ninit\nnew-game\npos\nlevel depth=4\ngo think\n' "$g" >"$T/go_$g.in"
  session "go_$g"
  has "$T/go_$g.out" '^info depth=4 score=-\?[0-9]*\.[0-9][0-9] nodes=[0-9]* time=[0-9.]* nps=[0-9.]* pv="' "info $g"
  move=$(sed -n 's/^done move=\([^ ]*\).*/\1/p' "$T/go_$g.out")
  [ -n "$move" ] && "$DAMA" moves --game "$g" | grep -qxF -- "$move" && ok || bad "$g: done move '$move' is not a legal start move"
  has "$T/go_$g.out" '^done move=[^ ]* ponder=' "ponder move $g"
done
# the same depth-limited search twice gives the same move (deterministic)
printf 'level depth=5\ngo think\n' >"$T/det.in"
session det
cp "$T/det.out" "$T/det1.out"
session det
[ "$(grep ^done "$T/det.out")" = "$(grep ^done "$T/det1.out")" ] && ok || bad "depth search deterministic"

# 3. positions and moves in each game's notation, quoted when they hold spaces
printf 'set-param name=variant value=shatra\npos pos="3/3/3/1/6k/7/7/7/7/K6/Q/3/3/3 w - - - - 0 1" moves="46-39 17-23"\nlevel nodes=3000\ngo think\n' >"$T/shatra_pos.in"
session shatra_pos
hasnt "$T/shatra_pos.out" '^error' "shatra pos"
has "$T/shatra_pos.out" '^done move=' "shatra done"
printf 'pos pos=W:Wc3:Bd4,f6,d6\nlevel depth=3\ngo think\n' >"$T/cap.in"
session cap
has "$T/cap.out" '^done move=c3:e5:[cg]7' "capture written with every landing square"
printf 'set-param name=variant value=turkish\npos moves="d3-d4 e6-e5 d4-d5"\nlevel depth=3\ngo think\n' >"$T/tk.in"
session tk
has "$T/tk.out" '^done move=[a-h][1-8]:[a-h][1-8] ' "turkish capture is compulsory after the moves"

#    a won game scores as Scan writes it: 100 less a hundredth per ply
printf 'pos pos=W:Wc3:Bd4\nlevel depth=3\ngo think\n' >"$T/win.in"
session win
has "$T/win.out" '^info depth=3 score=99.99 ' "win in one ply"
printf 'pos pos=B:WKa1,Kc1,Ke1,Kg1:Bh8\nlevel depth=5\ngo think\n' >"$T/loss.in"
session loss
has "$T/loss.out" '^info depth=5 score=-99.98 ' "loss in two plies"

# 4. the history counts: a threefold repetition is a draw the engine sees
#    (Black's three kings against one: without the history White is lost)
R='B:WKd2:BKe7,Kh8,Kb8'
printf 'pos pos=%s moves="e7-f8 d2-c1 f8-e7 c1-d2 e7-f8 d2-c1 f8-e7"\nlevel depth=6\ngo think\n' "$R" >"$T/rep.in"
session rep
has "$T/rep.out" '^info depth=6 score=0.00 ' "repetition scores 0"
has "$T/rep.out" '^done move=c1-d2' "repeats for the draw"
printf 'pos pos=W:WKc1:BKe7,Kh8,Kb8\nlevel depth=6\ngo think\n' >"$T/norep.in"
session norep
hasnt "$T/norep.out" 'score=0.00 ' "no history: lost"
printf 'pos pos=%s moves="e7-f8 d2-c1 f8-e7 c1-d2 e7-f8 d2-c1 f8-e7 c1-d2"\ngo think\n' "$R" >"$T/over.in"
session over
has "$T/over.out" '^error message="go: the game is over (1/2-1/2 D3)' "game over by repetition"
has "$T/over.out" '^done$' "done after a finished game"
#    a side without pieces has lost: it is to move (a finished game), never
#    the side that just moved (refused, the previous game stays)
printf 'pos pos=B:Wa1:B\ngo think\npos pos=W:Wa1:B\ngo think\n' >"$T/nopieces.in"
session nopieces
count "$T/nopieces.out" '^error message="go: the game is over (1-0 no-moves)"$' 2 "Black without pieces to move: over, twice"
has "$T/nopieces.out" "^error message=\"pos: bad position string 'W:Wa1:B': Black, who just moved, has no pieces" "the side that just moved without pieces: refused"
count "$T/nopieces.out" '^done$' 2 "a bare done after each finished game"
#    the Shatra 60-ply counter as the position string carries it
printf 'set-param name=variant value=shatra\npos pos="3/3/3/1/6k/7/7/7/7/K6/Q/3/3/3 w - - - - 58 40" moves="46-39 17-23"\ngo think\n' >"$T/q60.in"
session q60
has "$T/q60.out" 'game is over (1/2-1/2 quiet-60)' "quiet-60 after two plies"

# 5. stop and ping during an infinite search; ponder and ponder-hit
{ printf 'init\nlevel infinite\ngo think\n'; sleep 0.5; printf 'ping\n'; sleep 0.3; printf 'stop\nping\nquit\n'; } | timeout $LIMIT "$DAMA" hub >"$T/stop.out" 2>&1
rc=$?
[ "$rc" = 0 ] && ok || bad "stop session exit $rc"
count "$T/stop.out" '^done move=' 1 "one done after stop"
count "$T/stop.out" '^pong$' 2 "pong during and after the search"
[ "$(grep -n '^pong$' "$T/stop.out" | head -1 | cut -d: -f1)" -lt "$(grep -n '^done' "$T/stop.out" | cut -d: -f1)" ] && ok || bad "pong while thinking"
stamp() { while IFS= read -r l; do echo "$(date +%s%N) $l"; done; }
# seen FILE PATTERN: a line of FILE matches (for wait_until: events, not sleeps)
seen() { grep -q -- "$2" "$1"; }
mkfifo "$T/ponder.fifo"
timeout $LIMIT "$DAMA" hub <"$T/ponder.fifo" 2>&1 | stamp >"$T/ponder.out" &
ppid=$!
exec 7>"$T/ponder.fifo"
printf 'init\nlevel time=20 inc=1\ngo ponder\nping\n' >&7
wait_until "ponder: a pong while pondering" seen "$T/ponder.out" ' pong$'
sleep 0.3 # pondering for a while: the clock must start at ponder-hit, not at go
hit=$(date +%s%N)
printf 'ponder-hit\n' >&7
# after ponder-hit the clock budget (20 s / 30 + 0.9 s = 1.57 s) ends the search: without it the
# ponder search would go on, and the wait fail
wait_until "ponder-hit: the budget ends the search" seen "$T/ponder.out" ' done move='
printf 'quit\n' >&7
exec 7>&-
wait "$ppid"
count "$T/ponder.out" ' done move=' 1 "ponder then ponder-hit: one done"
# after ponder-hit the time manager's soft limit (20 s / 30 + 3/4 of 1 s = 1.42 s) ends the search: the
# hub stops it at that deadline, never before it, so the done comes at least 1.42 s after ponder-hit
# (1.12 s if the clock had started at go) however loaded the machine is (a load only makes it later)
done_ms=$(( ($(grep ' done move=' "$T/ponder.out" | cut -d' ' -f1) - hit) / 1000000 ))
[ "$done_ms" -gt 1300 ] && ok || bad "ponder-hit budget: done $done_ms ms after ponder-hit (expected 1420 or more)"
{ printf 'init\nlevel infinite\ngo ponder\n'; sleep 0.3; printf 'stop\n'; sleep 0.2; printf 'quit\n'; } | timeout $LIMIT "$DAMA" hub >"$T/pstop.out" 2>&1
count "$T/pstop.out" '^done move=' 1 "ponder stopped: done"
#    move-time: a 300 ms search answers in about that time. The end of input does not stop a bounded
#    search, so a move-time the engine ignored would search until the limit; measured in CPU time
#    (user + system of the hub), which a loaded machine does not stretch: 0.3 s and the start-up,
#    far below 3 s
TIMEFORMAT='%U %S'
{ time printf 'level move-time=0.3\ngo think\n' | timeout $LIMIT "$DAMA" hub >"$T/mt.out" 2>&1; } 2>"$T/mt.time"
unset TIMEFORMAT
grep -q '^done move=' "$T/mt.out" && ok || bad "move-time done"
awk '{ exit !($1 + $2 < 3) }' "$T/mt.time" && ok || bad "move-time 0.3 s: the hub used $(cat "$T/mt.time") s of CPU (user, system)"
#    short clocks: the drop of the clock between two of our moves shows the time lost outside our search
#    (pipes, a loaded manager); twice that (at most 2 s each) is kept back, and a clock that leaves
#    nothing then gets a depth-1 move. Here the manager "charged" 6 s for a move we made in a third of
#    a second (a loaded machine makes it longer, never 4 s longer); without that lag the same 4 s
#    clock gives a search of 133 ms, which reaches depth 2 within microseconds of CPU.
mkfifo "$T/lag.fifo"
timeout $LIMIT "$DAMA" hub <"$T/lag.fifo" >"$T/lag.out" 2>&1 &
lpid=$!
exec 7>"$T/lag.fifo"
printf 'init\npos\nlevel time=10 inc=0\ngo think\n' >&7
wait_until "lag: the first move" seen "$T/lag.out" '^done move='
printf 'pos moves="c3-d4 f6-g5"\nlevel time=4 inc=0\ngo think\nquit\n' >&7
exec 7>&-
wait "$lpid"
count "$T/lag.out" '^done move=' 2 "lag: two moves"
expect_depth=$(sed -n '/^done/,$p' "$T/lag.out" | grep '^info' | tail -1 | sed 's/^info depth=\([0-9]*\).*/\1/')
[ "$expect_depth" = 1 ] && ok || bad "lag: a clock of 4 s after 6 s of lag: depth $expect_depth (expected 1)"
printf 'init\npos moves="c3-d4 f6-g5"\nlevel time=4 inc=0\ngo think\n' | timeout $LIMIT "$DAMA" hub >"$T/nolag.out" 2>&1
d=$(grep '^info' "$T/nolag.out" | tail -1 | sed 's/^info depth=\([0-9]*\).*/\1/')
[ "${d:-0}" -gt 1 ] && ok || bad "no lag: 4 s on the clock searched only to depth $d"
#    end of input during an infinite search stops it cleanly; a bounded
#    search finishes first (a piped script gets its result)
{ printf 'level infinite\ngo think\n'; sleep 0.3; } | timeout $LIMIT "$DAMA" hub >"$T/eof.out" 2>&1
rc=$?
[ "$rc" = 0 ] && ok || bad "eof during search: exit $rc"
count "$T/eof.out" '^done move=' 1 "eof during infinite search: done"
printf 'level depth=9\ngo think\n' | timeout $LIMIT "$DAMA" hub >"$T/eof9.out" 2>&1
has "$T/eof9.out" '^info depth=9 ' "eof: bounded search finishes"
#    a command other than ping/stop/ponder-hit/quit during a search is refused
{ printf 'level infinite\ngo think\n'; sleep 0.2; printf 'pos\ngo think\nstop\nquit\n'; } | timeout $LIMIT "$DAMA" hub >"$T/busy.out" 2>&1
count "$T/busy.out" "during a search" 2 "busy refusals"
count "$T/busy.out" '^done' 1 "one done when busy"

# 6. weakened levels: seeded, legal, varied
for s in 1 2 3 4 5 6 7 8; do
  printf 'set-param name=level value=beginner\nset-param name=seed value=%s\ngo think\n' "$s" >"$T/lv.in"
  session lv
  sed -n 's/^done move=\([^ ]*\).*/\1/p' "$T/lv.out" >>"$T/lv.moves"
done
[ "$(sort -u "$T/lv.moves" | wc -l)" -ge 2 ] && ok || bad "beginner varies with the seed: $(tr '\n' ' ' <"$T/lv.moves")"
while read -r m; do "$DAMA" moves | grep -qx -- "$m" && ok || bad "beginner move '$m' illegal"; done <"$T/lv.moves"
session lv --level beginner --seed 8
[ "$(sed -n 's/^done move=\([^ ]*\).*/\1/p' "$T/lv.out")" = "$(tail -1 "$T/lv.moves")" ] && ok || bad "same seed, same move"

# 7. weights: a weight file and a database set
"$DAMA" export --weights default --no-header --file "$T/w.cfg" >/dev/null 2>&1 || true
if [ -f "$T/w.cfg" ]; then
  printf 'set-param name=weights value="%s"\ninit\nlevel depth=3\ngo think\n' "$T/w.cfg" >"$T/wf.in"
  session wf
  has "$T/wf.out" '^ready$' "weight file accepted"
  hasnt "$T/wf.out" '^error' "weight file"
fi
# before init, a set-param checks only the value's own faults (a missing file, a bad db:ID): refused,
# the old value stays; init loads the combination and, when it does not load, names it and plays with
# the last that loaded (here the command line's), so that go plays (init used to fail, and every go)
printf 'set-param name=weights value=db:x\nset-param name=weights value=db:7\nset-param name=db value="%s/none.sqlite"\ninit\nlevel depth=3\ngo think\n' "$T" >"$T/wdb.in"
session wdb
count "$T/wdb.out" '^error message=' 3 "bad weights: one error each"
has "$T/wdb.out" "^error message=\"set-param weights: weight set id: 'x' .* (the value stays 'default')\"$" "weights db:x: refused by its form"
has "$T/wdb.out" "^error message=\"set-param db: database file '$T/none.sqlite' does not exist (the value stays 'dama.sqlite')\"$" "a missing db: refused"
has "$T/wdb.out" "^error message=\"init: weights 'db:7' does not load; the engine plays with weights 'default' instead: .*dama.sqlite" "weights db:7 without a database: init falls back"
has "$T/wdb.out" '^ready$' "ready after weights that do not load"
has "$T/wdb.out" '^done move=[a-h][1-8]-[a-h][1-8]' "a move after weights that do not load"
for when in before after; do
  pre=""; [ $when = after ] && pre='init\n'
  printf "hub\n${pre}set-param name=weights value=\"%s/no-such.cfg\"\ninit\nlevel depth=3\ngo think\n" "$T" >"$T/wbad.in"
  session wbad
  count "$T/wbad.out" '^error message=' 1 "bad weight file $when init: one error"
  has "$T/wbad.out" "^error message=\"set-param weights: .*no-such.cfg.* (the value stays 'default')\"$" "bad weight file $when init: named"
  has "$T/wbad.out" '^ready$' "bad weight file $when init: ready"
  has "$T/wbad.out" '^done move=[a-h][1-8]-[a-h][1-8]' "bad weight file $when init: a move"
done
# the variant a weight file is not of, before init: init names the weights and plays the variant with
# the last weights that loaded; after init the variant is refused and stays (with a hint of the order)
if [ -f "$T/w.cfg" ]; then
  printf 'set-param name=weights value="%s"\nset-param name=variant value=shatra\nlevel depth=3\ngo think\n' "$T/w.cfg" >"$T/wvar.in"
  session wvar
  count "$T/wvar.out" '^error message=' 1 "weight file of another variant: one error"
  has "$T/wvar.out" "^error message=\"init: weights '$T/w.cfg' does not load; the engine plays with weights 'default' instead: .*not 'shatra'\"$" "weight file of another variant: init falls back"
  has "$T/wvar.out" '^done move=[0-9]' "weight file of another variant: a Shatra move"
  printf 'set-param name=weights value="%s"\ninit\nset-param name=variant value=shatra\nlevel depth=3\ngo think\n' "$T/w.cfg" >"$T/wvar.in"
  session wvar
  count "$T/wvar.out" '^error message=' 1 "weight file of another variant after init: one error"
  has "$T/wvar.out" "^error message=\"set-param variant: .* (the value stays 'russian'; to switch the variant with weights or egtb-path of its own, set weights=default and egtb-path empty first)\"$" "weight file of another variant after init: refused"
  has "$T/wvar.out" '^done move=[a-h][1-8]-[a-h][1-8]' "weight file of another variant after init: a Russian move"
fi
# what init plays with is what was asked, whatever the order of the set-params: the score of a fixed
# depth is that of dama search with the same weights (and not that of the compiled-in ones)
P='W:WKa1,c3:Bf8,h8,g7'
printf 'game = "russian";\nbase = "default";\nweights = { KING = 150; };\n' >"$T/k.cfg"
printf 'game = "turkish";\nbase = "default";\nweights = { KING = 150; };\n' >"$T/tk.cfg"
"$DAMA" export --weights default --file "$T/r.cfg" --no-header >/dev/null 2>&1 # never the source tree's header
"$DAMA" selfplay --db "$T/x.sqlite" --weights "$T/k.cfg" --games 2 --nodes 50 --threads 1 --progress 0 >/dev/null 2>&1
search_score() { "$DAMA" search --fen "$P" --depth 4 "$@" 2>/dev/null | sed -n 's/^score \(-\?[0-9]*\)$/\1/p'; }
hub_score() { sed -n 's/^info depth=4 score=\(-\?[0-9.]*\) .*/\1/p' "$1" | tr -d . | sed 's/^\(-\?\)0*\([0-9]\)/\1\2/'; }
want=$(search_score --weights db:1 --db "$T/x.sqlite")
[ -n "$want" ] && [ "$want" != "$(search_score)" ] && ok || bad "db:1 of x.sqlite scores $want, as the compiled-in weights"
# case A: weights before db, as GUIs send them (declaration order)
printf 'set-param name=weights value=db:1\nset-param name=db value="%s"\ninit\npos pos=%s\nlevel depth=4\ngo think\n' "$T/x.sqlite" "$P" >"$T/ordA.in"
session ordA
hasnt "$T/ordA.out" '^error' "weights db:1, then its db"
expect_eq "$(hub_score "$T/ordA.out")" "$want" "weights db:1, then its db: the score of db:1"
# case B: a Turkish weight file for a session started with a Russian one, the variant first or last
want=$(search_score --game turkish --weights "$T/tk.cfg")
[ -n "$want" ] && [ "$want" != "$(search_score --game turkish)" ] && ok || bad "tk.cfg scores $want, as the compiled-in weights"
for order in "variant weights" "weights variant"; do
  : >"$T/ordB.in"
  for p in $order; do
    [ $p = variant ] && echo 'set-param name=variant value=turkish' >>"$T/ordB.in"
    [ $p = weights ] && printf 'set-param name=weights value="%s"\n' "$T/tk.cfg" >>"$T/ordB.in"
  done
  printf 'init\npos pos=%s\nlevel depth=4\ngo think\n' "$P" >>"$T/ordB.in"
  session ordB --weights "$T/r.cfg"
  hasnt "$T/ordB.out" '^error' "$order, from a Russian weight file"
  expect_eq "$(hub_score "$T/ordB.out")" "$want" "$order, from a Russian weight file: the score of tk.cfg"
done
# after init: weights=default first, then the variant and its weights
printf 'init\nset-param name=weights value=default\nset-param name=variant value=turkish\nset-param name=weights value="%s"\npos pos=%s\nlevel depth=4\ngo think\n' "$T/tk.cfg" "$P" >"$T/ordC.in"
session ordC --weights "$T/r.cfg"
hasnt "$T/ordC.out" '^error' "after init: default, variant, weights"
expect_eq "$(hub_score "$T/ordC.out")" "$want" "after init: default, variant, weights: the score of tk.cfg"
# the variant alone with the Russian weight file: init names it and plays Turkish, with Turkish's
# compiled-in weights (never Russian moves for a GUI that asked for Turkish)
printf 'set-param name=variant value=turkish\ninit\nlevel depth=2\ngo think\n' >"$T/ordD.in"
session ordD --weights "$T/r.cfg"
has "$T/ordD.out" "^error message=\"init: weights '$T/r.cfg' does not load; the engine plays with weights 'default' instead: .*not 'turkish'\"$" "variant alone: init falls back"
has "$T/ordD.out" '^ready$' "variant alone: ready"
has "$T/ordD.out" '^done move=\([a-h]\)[1-8]-\1[1-8]\|^done move=[a-h]\([1-8]\)-[a-h]\2' "variant alone: a Turkish move (along a file or a rank)"
# after init, a value is checked by itself as before init (a db that is not there was taken without a
# word), and the hint to switch the variant one parameter at a time comes only with a value of another
# game (it came with every weights that failed, db:3 without a database too)
printf 'init\nset-param name=db value="%s/none.sqlite"\nset-param name=weights value=db:3\nset-param name=weights value="%s"\nhub\n' \
  "$T" "$T/tk.cfg" >"$T/after.in"
session after
count "$T/after.out" '^error message=' 3 "after init: one error per bad value"
has "$T/after.out" "^error message=\"set-param db: database file '$T/none.sqlite' does not exist (the value stays 'dama.sqlite')\"$" "after init: a missing db refused"
has "$T/after.out" "^error message=\"set-param weights: dama.sqlite: no such database file (the value stays 'default')\"$" "after init: db:3 without a database, no hint"
has "$T/after.out" "^error message=\"set-param weights: weight file $T/tk.cfg is for game 'turkish', not 'russian' (the value stays 'default'; to switch the variant with weights or egtb-path of its own, set weights=default and egtb-path empty first)\"$" "after init: another game's weights, the hint"
has "$T/after.out" '^param name=db value="dama.sqlite" type=string$' "after init: the db stays"
# `dama hub --weights` that does not load: exit 1 at once, naming it
timeout $LIMIT "$DAMA" hub --weights "$T/no-such.cfg" </dev/null >"$T/wopt.out" 2>"$T/wopt.err"
expect_eq "$?" 1 "hub --weights missing: exit 1"
has "$T/wopt.err" "^dama hub: --weights: .*no-such.cfg" "hub --weights missing: named"
# a weight file at a path of more than 512 bytes is the one played (it was cut there at init: the
# compiled-in weights played after an error line)
long="$T/$(printf 'd%.0s' $(seq 200))/$(printf 'e%.0s' $(seq 200))/$(printf 'f%.0s' $(seq 150))"
mkdir -p "$long" && cp "$T/r.cfg" "$long/w.cfg"
printf 'hub\ninit\nquit\n' >"$T/longw.in"
session longw --no-egtb --weights "$long/w.cfg"
hasnt "$T/longw.out" "^error" "a weight file at a long path loads"
has "$T/longw.out" "^param name=weights value=\"$long/w.cfg\"" "a weight file at a long path kept whole"

# 8. bad input: an error line each, never a crash, the session goes on
cat >"$T/badin.in" <<'EOF'
frobnicate
level depth=x
level depth=0
level move-time=-1
level
pos pos=W:Wz9:Bd4
pos pos=W:Wc3:Bd4 moves="c3-b4"
pos moves="c3-d4 c3-d4"
pos moves="c3-d4 zz"
set-param name=hash value=0
set-param name=threads value=4
set-param name=variant value=chess
set-param name=level value=grandmaster
set-param name=nope value=1
set-param name=hash
set-param name=seed value=9223372036854775808
set-param name=db value=""
level move-time=0
level move-time=0.0004
go think x="unterminated
=x
pos pos="W:Wc3:Bd4"extra
ping
EOF
printf '%070000d\n' 0 >>"$T/badin.in"
printf 'ping\n' >>"$T/badin.in"
session badin
count "$T/badin.out" '^error message=' 23 "one error per bad line"
count "$T/badin.out" '^pong$' 2 "session goes on after bad input"
has "$T/badin.out" "unknown command 'frobnicate'" "unknown command named"
has "$T/badin.out" "level depth: bad value 'x' (an integer 1..120)" "bad level value named, with its range"
has "$T/badin.out" "level move-time: bad value '0' (seconds, at least 0.0005 (1 ms))" "level move-time 0"
has "$T/badin.out" "level move-time: bad value '0.0004' (seconds, at least 0.0005 (1 ms))" "level move-time 0.0004: rounds to 0 ms"
has "$T/badin.out" "set-param seed: '9223372036854775808' is not an integer 0..9223372036854775807" "seed past 2^63 - 1"
has "$T/badin.out" "set-param db: value empty (the value stays 'dama.sqlite')" "empty db"
has "$T/badin.out" "W:Wz9:Bd4" "bad position named"
has "$T/badin.out" "move 2" "bad move index named"
has "$T/badin.out" "unterminated" "unterminated quote"
has "$T/badin.out" "longer than" "long line"
# a binary and empty stream
head -c 3000 /dev/urandom >"$T/rand.in"
session rand
LC_ALL=C grep -q '[^ -~]' "$T/rand.out" && bad "binary input echoed raw: $(LC_ALL=C grep -m1 '[^ -~]' "$T/rand.out" | od -c | head -3)" || ok
# errors quote binary bytes as \xNN, cut a long input, and name a bad move once
printf 'foo\001\377"bar\\\npos moves="c3-d4 c3-d4"\nunknown%0400d\npos pos=%0400d\n' 0 0 >"$T/esc.in"
session esc
has "$T/esc.out" "^error message=\"unknown command 'foo\\\\x01\\\\xFF'bar\\\\'\"$" "binary bytes escaped"
has "$T/esc.out" "^error message=\"pos moves: move 2: illegal move 'c3-d4'\"$" "the bad move named once"
expect_eq "$(grep -c "^error message=\".*\.\.\.'" "$T/esc.out")" 2 "long inputs cut, marked"
[ "$(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$T/esc.out")" -le 330 ] && ok || bad "an error line over 330 bytes"
# a byte the game's parser already wrote \xNN is not escaped again; bytes escaped still keep the
# message within 300 bytes; a line of 65,535 bytes is one line, one of 65,536 is refused
printf 'pos pos=W:Wa1:Bh8 moves="a1-b2 \001"\nset-param name=db value=%s\n' "$(head -c 300 /dev/zero | tr '\0' '\377')" >"$T/esc2.in"
{ printf 'ping %065530d\n' 0; printf 'ping %065531d\n' 0; printf 'quit\n'; } >>"$T/esc2.in"
session esc2
has "$T/esc2.out" "move 2: move '\\\\x01': bad square '\\\\x01'" "a parser's \\xNN not escaped twice"
expect_eq "$(sed -n 's/^error message="\(.*\)"$/\1/p' "$T/esc2.out" | awk '{ if (length($0) > m) m = length($0) } END { print m }')" 300 \
  "a message of escaped bytes cut at 300 bytes"
expect_eq "$(grep -c '^pong' "$T/esc2.out")" 1 "a line of 65,535 bytes read"
expect_eq "$(grep -c '^error message="line longer than 65535 bytes' "$T/esc2.out")" 1 "a line of 65,536 bytes refused"
# a search on the clock finishes at end of input, as one bounded by depth, nodes or movetime (it was
# stopped at once: a move within some 15 ms). level time=30: a soft limit of 1,000 ms, and no new
# iteration starts past half of it (engine/timeman.h), so the move comes after 500 ms at the least
printf 'level time=30\ngo think\n' >"$T/clockeof.in"
t0=$(date +%s%N)
session clockeof --no-egtb
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
has "$T/clockeof.out" '^done move=' "a clock search at end of input answers"
[ "$ms" -ge 450 ] && ok || bad "a clock search at end of input stopped after $ms ms"
# a list of moves unquoted (moves=c3-d4 f6-e5): the second move would be an unknown flag and the
# engine would think in another game; refused, naming the move; a flag that is no move stays ignored
# a move in any form a parser takes counts (a short form, capitals, Shatra's drop and promotion,
# which the line reads as key=value)
printf 'init\npos pos=start moves=c3-d4 f6-e5\npos pos=start moves=32-28 19x23\npos pos=start moves="c3-d4 f6-e5" ext\npos moves=c3-d4 fe5\npos moves=c3-d4 F6-E5\npos moves=c3-d4 57*40\npos moves=c3-d4 13-3=R\nping\nquit\n' >"$T/unq.in"
session unq
has "$T/unq.out" "^error message=\"pos: 'f6-e5' reads as a move outside moves=: a list of moves is quoted, in double quotes after moves= " "unquoted list refused"
has "$T/unq.out" "^error message=\"pos: '19x23' reads as a move outside moves=" "unquoted numeric list refused"
has "$T/unq.out" "^error message=\"pos: 'fe5' reads as a move outside moves=" "an unquoted short form refused"
has "$T/unq.out" "^error message=\"pos: 'F6-E5' reads as a move outside moves=" "an unquoted move in capitals refused"
has "$T/unq.out" "^error message=\"pos: '57\*40' reads as a move outside moves=" "an unquoted drop refused"
has "$T/unq.out" "^error message=\"pos: '13-3=R' reads as a move outside moves=" "an unquoted promotion (key=value) refused"
expect_eq "$(grep -c '^error' "$T/unq.out")" 6 "an extension flag on pos is ignored"
# go's mode is one of Hub's three (think, ponder, analyze; none is think): another is an error naming
# it, and a bare done (every go is answered by one), not a search; an argument with a value is ignored
printf 'init\npos pos=start\nlevel depth=2\ngo fly\ngo think ponder\nping\nquit\n' >"$T/gomode.in"
session gomode
expect_eq "$(cat "$T/gomode.out")" "$(printf '%s\n' ready \
  "error message=\"go: unknown mode 'fly' (think, ponder or analyze): no search\"" done \
  "error message=\"go: two modes, 'think' and 'ponder': no search\"" done pong)" \
  "go fly and go think ponder: an error and a bare done each, no search"
# inc= or moves= without time= limit nothing: an error naming it, and the previous limit stays (the next
# go searched until a stop)
printf 'init\nlevel depth=2\nlevel inc=1\nlevel moves=40\ngo think\n' >"$T/lvinc.in"
session lvinc
expect_eq "$(grep -v '^info' "$T/lvinc.out")" "$(printf '%s\n' ready \
  'error message="level inc= without time=: give the clock, time=S [inc=S] [moves=N]"' \
  'error message="level moves= without time=: give the clock, time=S [inc=S] [moves=N]"' \
  "$(grep '^done' "$T/lvinc.out")")" "level inc= and moves= without time=: refused"
expect_eq "$(grep -c '^info depth=' "$T/lvinc.out"):$(grep -c '^done move=' "$T/lvinc.out")" "2:1" "level inc= without time=: depth=2 stays"
# (a command sent during a search is dropped: each search in a session of its own, ended by the end of input)
for go in 'go think speed=9' 'go'; do
  printf 'init\npos pos=start\nlevel depth=2\n%s\n' "$go" >"$T/gomode2.in"
  session gomode2
  expect_eq "$(grep -c '^info depth=' "$T/gomode2.out"):$(grep -c '^done move=' "$T/gomode2.out"):$(grep -c '^error' "$T/gomode2.out")" \
    "2:1:0" "'$go': a search to depth 2"
done
# a NUL byte anywhere in a line: an error naming its column, the session goes on (a line starting
# with one was ignored unanswered, one after a command ran the command)
printf '\000ping\nping\000 x\nping\n\000' >"$T/nul.in"
session nul
expect_eq "$(cat "$T/nul.out")" "$(printf 'error message="a NUL byte at column 1: line ignored"\nerror message="a NUL byte at column 5: line ignored"\npong\nerror message="a NUL byte at column 1: line ignored"')" \
  "a NUL byte answered with an error, the session going on"
: >"$T/empty.in"
session empty
[ ! -s "$T/empty.out" ] && ok || bad "empty input: no output"

# 10. International speaks Hub's own strings: pos = the side to move and one letter per square 1-50,
#     a capture = start x end x the captured squares (docs/hub.md)
# hubpos SIDE SPEC...: a Hub position string, SPEC = SQUARE:LETTER (the others empty)
hubpos() {
  local side=$1 b i; shift
  b=$(printf 'e%.0s' $(seq 50))
  for i in "$@"; do b=$(echo "$b" | sed "s/./${i#*:}/${i%%:*}"); done
  echo "$side$b"
}
START=W$(printf 'b%.0s' $(seq 20))$(printf 'e%.0s' $(seq 10))$(printf 'w%.0s' $(seq 20))
I='set-param name=variant value=international\n'
#    the start and four plies with captures, against the position they reach given three ways: as a
#    Hub string, as a FEN, and from the start with the moves: the same search (same nodes, same moves)
AFTER=W$(printf "b%.0s" $(seq 13))ebbbbebeebeeeeeeewe$(printf "w%.0s" $(seq 18))
printf "${I}pos pos=%s moves=\"32-28 19-23 28x19x23 14x23x19\"\nlevel depth=5\ngo think\n" "$START" >"$T/i_moves.in"
printf "${I}pos pos=%s\nlevel depth=5\ngo think\n" "$AFTER" >"$T/i_hubpos.in"
printf "${I}pos pos=W:W31,33-50:B1-13,15-18,20,23\nlevel depth=5\ngo think\n" >"$T/i_fen.in"
for s in i_moves i_hubpos i_fen; do session $s; hasnt "$T/$s.out" '^error' "international $s"; done
has "$T/i_moves.out" '^done move=[0-9]*[-x][0-9]*\(x[0-9]*\)* ponder=' "international: done in Hub's form"
expect_eq "$(grep -v '^info.*time=' "$T/i_moves.out"; grep '^info' "$T/i_moves.out" | sed 's/ time=.*pv=/ pv=/')" \
  "$(grep -v '^info.*time=' "$T/i_hubpos.out"; grep '^info' "$T/i_hubpos.out" | sed 's/ time=.*pv=/ pv=/')" \
  "international: the moves reach the Hub string's position"
expect_eq "$(grep '^done' "$T/i_fen.out")" "$(grep '^done' "$T/i_hubpos.out")" "international: the FEN form is read too"
#    rules E5: a king on 6 has three captures of three pieces, two of them from 6 to 3: Hub tells them
#    apart by the pieces taken (any order, all or enough of them); a start and end alone that fit two is
#    ambiguous, and dama's own route 6x28x14x3 (landing squares) is not Hub's
E5=$(hubpos W 6:W 9:b 17:b 23:b 30:b 37:b)
printf "${I}pos pos=%s\nlevel depth=3\ngo think\n" "$E5" >"$T/e5.in"
session e5
has "$T/e5.out" '^info depth=3 .* pv="6x\(35x17x23x30\|3x9x17x23\|3x9x17x30\)[ "]' "E5: pv in Hub's form"
has "$T/e5.out" '^done move=6x\(35x17x23x30\|3x9x17x23\|3x9x17x30\)\( \|$\)' "E5: done in Hub's form"
#    each form applies the move it names: Black's reply comes from the men left (none can capture)
for c in 6x3x9x17x23:30,37 6x3x23x9x17:30,37 6x3x9x17x30:23,37 6x3x30:23,37 6x35x17x23x30:9,37 6x35:9,37; do
  printf "${I}pos pos=%s moves=\"%s\"\nlevel depth=1\ngo think\n" "$E5" "${c%%:*}" >"$T/e5m.in"
  session e5m
  hasnt "$T/e5m.out" '^error' "E5 ${c%%:*} accepted"
  from=$(sed -n 's/^done move=\([0-9]*\)-.*/\1/p' "$T/e5m.out")
  case ",${c#*:}," in *",$from,"*) ok ;; *) bad "E5 ${c%%:*}: Black answered from '$from' (its men: ${c#*:})" ;; esac
done
printf "${I}" >"$T/e5bad.in"
for m in 6x3 6x28x14x3 6x3x9 6x3x9x17x23x 6x3x51 6-35 6x35x17x23x30x9 6x3x9x17x23x23; do
  printf "pos pos=%s moves=\"%s\"\n" "$E5" "$m" >>"$T/e5bad.in"
done
session e5bad
count "$T/e5bad.out" '^error message="pos moves: move 1: ' 8 "E5: one error per bad move"
has "$T/e5bad.out" "ambiguous move '6x3': 6x3x9x17x23 or 6x3x9x17x30\"" "E5: start and end alone are ambiguous"
has "$T/e5bad.out" "ambiguous move '6x3x9': 6x3x9x17x23 or 6x3x9x17x30\"" "E5: a captured square both take"
has "$T/e5bad.out" "illegal move '6x28x14x3' (a capture is compulsory: 6x35x17x23x30, 6x3x9x17x23, 6x3x9x17x30)" "E5: landing squares are not Hub's"
has "$T/e5bad.out" "move '6x3x51': Hub writes a step 32-28 and a capture 28x19" "E5: square 51"
has "$T/e5bad.out" "move '6x3x9x17x23x': Hub writes" "E5: a trailing x"
has "$T/e5bad.out" "illegal move '6-35'" "E5: a capture written as a step"
has "$T/e5bad.out" "illegal move '6x35x17x23x30x9'" "E5: a square it does not take"
has "$T/e5bad.out" "move '6x3x9x17x23x23': square 23 is named twice among the captured squares" "E5: a captured square twice"
#    rules E4: the king takes four (41, 28, 13, 7) and stops on 11 or 16
printf "${I}pos pos=%s\nlevel depth=3\ngo think\n" "$(hubpos W 42:w 46:W 7:b 13:b 22:b 28:b 41:b 49:B)" >"$T/e4.in"
session e4
has "$T/e4.out" '^done move=46x1[16]x7x13x28x41\( \|$\)' "E4: the four captured squares, in increasing order"
#    a Hub string of the wrong length, or given to another game: refused, naming the variant and the length
printf "${I}pos pos=W%s\npos pos=%s\nset-param name=variant value=brazilian\npos pos=%s\nset-param name=variant value=russian\npos pos=%s\nset-param name=variant value=brazilian\npos pos=B:W18:B14 moves=\"14x23\"\n" \
  "$(printf 'e%.0s' $(seq 32))" "$(hubpos W 1:w 50:b)" "$START" "$START" >"$T/ilen.in"
session ilen
has "$T/ilen.out" "^error message=\"pos: a Hub position string for variant international is the side to move (W or B) and one letter per square 1-50 (w b W B e), 51 letters; 'Weeeeeeeeeeeeeeeeeee...' has 33 letters, too few\"$" "32 squares to international"
count "$T/ilen.out" "^error message=\"pos: a Hub position string ('Wbbbbbbbbbbbbbbbbbbb...', 51 characters) is read for variant international only (51 characters: the side to move and squares 1-50); variant \(brazilian\|russian\) takes" 2 "50 squares to an 8x8 game"
has "$T/ilen.out" "^error message=\"pos: Hub's 'Wweeeeeeeeeeeeeeeeee...' is the bad position string 'W:W1:B50': a man on 1 stands on its crowning rank" "a Hub string the game refuses: both forms named"
count "$T/ilen.out" '^error' 4 "the 8x8 games keep their own strings"
#    a letter too many, the side to move in lower case, a bad square letter: what was expected and where
printf "${I}pos pos=%s\npos pos=%s\npos pos=%s\npos pos=%s\n" "${START}e" "w${START#W}" "$(hubpos W 12:x)" "$START" >"$T/iletters.in"
session iletters
has "$T/iletters.out" "^error message=\"pos: a Hub position string for variant international is the side to move (W or B) and one letter per square 1-50 (w b W B e), 51 letters; 'Wbbbbbbbbbbbbbbbbbbb...' has 52 letters, too many\"$" "52 letters"
has "$T/iletters.out" "^error message=\"pos: .*, 51 letters; 'wbbbbbbbbbbbbbbbbbbb...' has 'w' at letter 1 (the side to move), not W or B\"$" "side to move in lower case"
has "$T/iletters.out" "^error message=\"pos: .*, 51 letters; 'Weeeeeeeeeeexeeeeeee...' has 'x' at letter 13 (square 12), not w b W B or e\"$" "a bad square letter"
count "$T/iletters.out" '^error' 3 "the start after them is read"
#    full games through the arena's Hub player: dama hub (Hub's strings both ways) against the same engine
#    in-process, each opening with both colours: both games of a pair are the same moves, move for move
"$DAMA" match --game international --a-cmd "$DAMA hub --game international --hash 8 --no-egtb" --no-egtb --hash 16 \
  --pairs 2 --nodes 400 --threads 2 --db "$T/i.sqlite" --progress 0 >"$T/imatch.out" 2>&1 && ok || bad "international match: $(tail -3 "$T/imatch.out")"
has "$T/imatch.out" '^Games 4:' "international match: 4 games"
expect_eq "$(sqlite3 "$T/i.sqlite" "SELECT count(*) FROM games WHERE detail IS NOT NULL OR reason NOT IN ('no-moves', 'I-D1', 'I-D2', 'I-D3', 'I-D4', 'move-cap')")" 0 "international match: no faults"
expect_eq "$(sqlite3 "$T/i.sqlite" "SELECT count(DISTINCT movetext) FROM games")" 2 "international match: each pair's games the same"
expect_eq "$(sqlite3 "$T/i.sqlite" "SELECT count(*) FROM games WHERE movetext LIKE '%x%'")" 4 "international match: games with captures"
# the Hub side is named by its command in ratings and PDN (not "?", which every Hub engine of every match shared)
"$DAMA" ratings --db "$T/i.sqlite" --match 1 >"$T/irat.out" 2>&1 && ok || bad "ratings of the Hub match: $(cat "$T/irat.out")"
has "$T/irat.out" "^ *[12]  Hub '" "ratings name the Hub engine by its command (the table cuts long names)"
has "$T/irat.out" "^ *[12]  weight set [0-9]* " "ratings name the in-process side by its weight set"
"$DAMA" pdn export --db "$T/i.sqlite" --out "$T/i.pdn" >/dev/null 2>&1 && ok || bad "pdn export of the Hub match"
expect_eq "$(grep -c "^\[White \"Hub '$DAMA hub --game international --hash 8 --no-egtb'\"\]$" "$T/i.pdn")" 2 \
  "PDN names the Hub engine as White in the games it had White"

# 9. dama hub options
"$DAMA" hub --level nope </dev/null >/dev/null 2>"$T/opt.err"
[ $? = 2 ] && ok || bad "bad --level exit"
grep -q "unknown --level 'nope'" "$T/opt.err" && ok || bad "bad --level message"
printf 'hub\n' | "$DAMA" hub --game shatra --hash 4 >"$T/opt.out" 2>&1
has "$T/opt.out" 'param name=variant value=shatra' "--game sets the variant param"
has "$T/opt.out" 'param name=hash value=4 ' "--hash sets the hash param"

# --search-param: set in the session's engines (another tree at the same depth),
# a bad name or value refused at once
printf 'level depth=7\ngo think\n' >"$T/sp.in"
session sp
cp "$T/sp.out" "$T/sp0.out"
session sp --search-param LMR_DIV=600 --search-param ASP_WINDOW=5
n0=$(sed -n 's/^info depth=7 .*nodes=\([0-9]*\).*/\1/p' "$T/sp0.out"); n1=$(sed -n 's/^info depth=7 .*nodes=\([0-9]*\).*/\1/p' "$T/sp.out")
[ -n "$n0" ] && [ -n "$n1" ] && [ "$n0" != "$n1" ] && ok || bad "--search-param did not reach the search: nodes '$n0' and '$n1'"
"$DAMA" hub --search-param NO_SUCH=1 </dev/null >"$T/spbad.out" 2>&1; rc=$?
[ "$rc" = 2 ] && grep -q "unknown search parameter 'NO_SUCH'" "$T/spbad.out" && ok || bad "bad --search-param: rc $rc $(cat "$T/spbad.out")"
"$DAMA" hub --search-param LMR_DIV=5 </dev/null >"$T/spbad.out" 2>&1; rc=$?
[ "$rc" = 2 ] && grep -q "LMR_DIV=5 outside its range" "$T/spbad.out" && ok || bad "out-of-range --search-param: rc $rc"
# a constant that does nothing in the game: refused as well, naming it and the game
"$DAMA" hub --game turkish --search-param ROYAL_EXT=1 </dev/null >"$T/spbad.out" 2>&1; rc=$?
[ "$rc" = 2 ] && grep -qF "dama hub: --search-param: search parameter ROYAL_EXT does nothing in turkish: it applies only to games with a royal piece" "$T/spbad.out" \
  && ok || bad "ROYAL_EXT in Turkish: rc $rc $(cat "$T/spbad.out")"
printf 'hub\n' | "$DAMA" hub --game shatra --search-param ROYAL_EXT=0 >"$T/spok.out" 2>&1 && ok || bad "ROYAL_EXT in Shatra: $(cat "$T/spok.out")"
# a session whose variant changes keeps its constants where they do something: Shatra's ROYAL_EXT is
# left out in Russian, said in an info line (the engine build failed with an error), LMR_DIV applies
# (the tree of --game russian with LMR_DIV alone); before init and after it
printf 'level depth=7\ngo think\n' >"$T/spr.in"
session spr --game russian --search-param LMR_DIV=600
printf 'hub\nset-param name=variant value=russian\ninit\nlevel depth=7\ngo think\n' >"$T/spv.in"
session spv --game shatra --search-param ROYAL_EXT=1 --search-param LMR_DIV=600
printf 'hub\ninit\nset-param name=variant value=russian\nset-param name=hash value=8\nset-param name=variant value=shatra\nset-param name=variant value=russian\nlevel depth=7\ngo think\n' >"$T/spv2.in"
session spv2 --game shatra --search-param ROYAL_EXT=1 --search-param LMR_DIV=600
nr=$(sed -n 's/^info depth=7 .*nodes=\([0-9]*\).*/\1/p' "$T/spr.out")
for s in spv spv2; do
  hasnt "$T/$s.out" '^error' "$s: a variant without a royal piece"
  count "$T/$s.out" '^info message="search constants not applied in russian, where they do nothing: ROYAL_EXT"$' "$([ $s = spv ] && echo 1 || echo 2)" \
    "$s: said once per change to Russian (not for hash, not in Shatra)"
  has "$T/$s.out" '^done move=' "$s: a move"
  n=$(sed -n 's/^info depth=7 .*nodes=\([0-9]*\).*/\1/p' "$T/$s.out")
  [ -n "$nr" ] && [ "$n" = "$nr" ] && [ "$n" != "$n0" ] && ok || bad "$s: LMR_DIV=600 not applied in Russian: nodes '$n', with it alone '$nr', without '$n0'"
done
[ "$(sed -n '/^info message=/=' "$T/spv.out")" -lt "$(sed -n '/^ready$/=' "$T/spv.out")" ] && ok || bad "spv: the info line before ready"

finish "hub"

#!/usr/bin/env bash
# `dama match` with a program over DXP as engine B, on 127.0.0.1: a match
# against `dama dxp --listen` (results stored, no fault, the follower's
# counts); on clocks; a follower dama starts itself (--b-cmd with --b-dxp);
# the follower killed during the match (the game going and the later ones
# lost by B as crashes, named on stderr, nothing else breaks); a started
# follower killed (started again: the next games are played); a match
# stopped and resumed (only the missing pair played); the same start in a
# tournament (dxp=...,cmd=...); bad options (weights for a side that is a
# program among them).
# Usage: dxp_match.sh DAMA_BINARY SOURCE_DIR
set -u
. "$(dirname "$0")/lib.sh"
has() { grep -q -- "$2" "$1" && ok || bad "$3: no '$2' in: $(head -c 600 "$1")"; }
LIMIT=300 # seconds after which a dama that has not ended is killed (it hangs)
MATCH=(match --game international --a default --hash 8 --progress 0)

# follower NAME ARGS...: `dama dxp --listen` in the background on a free
# port; sets PORT (from its "listening on" line) and FPID
follower() {
  local name=$1
  shift
  dxp_follower "$name" --hash 8 --timeout 120 "$@"
}
faults() { db_value "$1" "SELECT count(*) FROM games WHERE reason IN ('crash','timeout','illegal-move','time-forfeit')"; }
fault_details() { db_value "$1" "SELECT group_concat(game_index || ' ' || reason || ': ' || coalesce(detail, ''), '; ') FROM games WHERE reason IN ('crash','timeout','illegal-move','time-forfeit')"; }

# 1. two pairs against a follower on its own node limit
follower plain --nodes 300
expect_rc 0 "match against the follower" timeout $LIMIT "$DAMA" "${MATCH[@]}" --db "$T/m1.sqlite" \
  --b-dxp "127.0.0.1:$PORT" --pairs 2 --nodes 300
wait "$FPID"
expect_eq "$?" 0 "the follower ended with the match"
has "$T/out" "^match 1 (run 1): A = weight set [0-9]* vs B = DXP 127.0.0.1:$PORT$" "the result names B"
has "$T/out" '^Games 4: +[0-4] =[0-4] -[0-4] |' "four games counted"
has "$T/err" ", B = DXP 127.0.0.1:$PORT, 2 pairs, limit nodes=300, 1 thread$" "the start line"
expect_eq "$(db_value "$T/m1.sqlite" "SELECT count(*) FROM games")" 4 "4 games stored"
expect_eq "$(faults "$T/m1.sqlite")" 0 "no game lost by a fault"
# B has no weight set: its colour's column is empty in every game
expect_eq "$(db_value "$T/m1.sqlite" "SELECT count(*) FROM games WHERE (white_ws IS NULL) = (black_ws IS NULL)")" 0 \
  "one side of each game has no weight set"
# ... and is named by its address in ratings and PDN: Black in game 0, White in game 1
"$DAMA" pdn export --db "$T/m1.sqlite" --out "$T/m1.pdn" >/dev/null 2>&1 && ok || bad "pdn export of the DXP match"
expect_eq "$(grep -c "^\[Black \"DXP 127.0.0.1:$PORT\"\]$" "$T/m1.pdn") $(grep -c "^\[White \"DXP 127.0.0.1:$PORT\"\]$" "$T/m1.pdn")" \
  "2 2" "PDN names the DXP side by its address with both colours"
# each game's end is told (the last move when the rules ended it, then
# GAMEEND with the result): the follower finishes every game, with the
# referee's results
has "$T/plain.fout" '^dxp: 4 games: .* 0 unfinished; 0 refused; received 0 bad messages, 0 chats;' "the follower's summary"
[ "$(grep -c '^[0-9-]* [0-9:.]* < R01dama' "$T/plain.flog")" = 4 ] && ok || bad "4 game requests in the follower's log"
[ "$(grep -c '^[0-9-]* [0-9:.]* < E[123]0$' "$T/plain.flog")" = 4 ] && ok || bad "a GAMEEND with the result each game"
# B's points by the follower (its game lines: B is Black in odd games) and by the stored games
fpoints=$(awk '/^game [0-9]*: /{ n = $2 + 0; r = $0; sub(/.*\): /, "", r); sub(/ .*/, "", r)
  w = (r == "1-0") ? 2 : (r == "0-1") ? 0 : 1; s += (n % 2 == 1) ? 2 - w : w } END { print s + 0 }' "$T/plain.fout")
dpoints=$(db_value "$T/m1.sqlite" "SELECT sum(CASE WHEN game_index % 2 = 0 THEN (CASE result WHEN '0-1' THEN 2 WHEN '1-0' THEN 0 ELSE 1 END)
  ELSE (CASE result WHEN '1-0' THEN 2 WHEN '0-1' THEN 0 ELSE 1 END) END) FROM games")
expect_eq "$fpoints" "$dpoints" "the follower's results are the match's (B's half points)"
FREE=$PORT # the follower is gone: its port is free for the started ones below

# 2. clocks: the match's clock for both; the follower on a smaller one of its own
follower clock --tc 400+4
expect_rc 0 "match on clocks" timeout $LIMIT "$DAMA" "${MATCH[@]}" --db "$T/m2.sqlite" --b-dxp "127.0.0.1:$PORT" \
  --pairs 1 --tc 3000+30
wait "$FPID"
has "$T/err" "limit time=3000+30, 1 thread$" "the clock named"
has "$T/out" '^time used by B: wall [0-9.]* ms, CPU 0.00 ms per move ([1-9][0-9]* moves)$' "B's time measured (wall only)"
# its CPU time is not measured, not "infinitely less": the wall means alone compared (it said "inf% more")
has "$T/out" '^time ratio A/B: wall [0-9.]*, CPU -: \(equal wall time used (within 5%)\|unequal time: [AB] used [0-9.]*% more wall time than [AB]\); CPU time not measured (a mean of 0: none taken, or less than the clock.s tick)$' \
  "the ratio line: wall only, the CPU named unmeasured"
expect_eq "$(faults "$T/m2.sqlite")" 0 "no game lost by a fault on clocks ($(fault_details "$T/m2.sqlite"))"
has "$T/clock.fout" '^dxp: 2 games: .* received 0 bad messages, 0 chats;' "the follower on its clock"

# 3. a follower dama starts: --b-cmd with --b-dxp
START="$DAMA dxp --listen 127.0.0.1:$FREE --nodes 300 --hash 8 --timeout 60 --log $T/started.flog"
expect_rc 0 "match against a started follower" timeout $LIMIT "$DAMA" "${MATCH[@]}" --db "$T/m3.sqlite" \
  --b-dxp "127.0.0.1:$FREE" --b-cmd "$START" --pairs 2 --nodes 300
has "$T/out" "^match 1 (run 1): A = weight set [0-9]* vs B = DXP 127.0.0.1:$FREE started by '" "the result names the command"
expect_eq "$(db_value "$T/m3.sqlite" "SELECT count(*) FROM games")" 4 "4 games against the started follower"
expect_eq "$(faults "$T/m3.sqlite")" 0 "no fault against the started follower"
[ "$(grep -c '^[0-9-]* [0-9:.]* < R01dama' "$T/started.flog")" = 4 ] && ok || bad "the started follower played 4 games"
expect_eq "$(proc_find "dxp --listen 127.0.0.1:$FREE ")" "" "the started follower is gone after the match"

# 4. the follower killed during game 2 (slow moves: --movetime): the game
# going is lost by B (the connection closed), every later one too (nothing
# listens), each named on stderr; the match ends normally
follower killed --movetime 40
timeout $LIMIT "$DAMA" "${MATCH[@]}" --db "$T/m4.sqlite" --b-dxp "127.0.0.1:$PORT" --pairs 2 --nodes 300 \
  </dev/null >"$T/kill.out" 2>"$T/kill.err" &
MPID=$!
wait_until -p "$FPID" "the follower's game 2" grep -q '# game 2:' "$T/killed.flog"
victim=$(proc_children "$FPID") # the follower under `timeout`
[ -n "$victim" ] && kill -KILL $victim
wait "$FPID"
wait "$MPID"
expect_eq "$?" 0 "the match ends normally after the follower died"
has "$T/kill.out" '^Games 4: ' "all 4 games counted"
expect_eq "$(db_value "$T/m4.sqlite" "SELECT count(*) FROM games WHERE game_index = 0 AND reason = 'crash'")" 0 \
  "game 1 (before the kill) is not a fault"
first=$(db_value "$T/m4.sqlite" "SELECT min(game_index) FROM games WHERE reason = 'crash'")
[ -n "$first" ] && [ "$first" -ge 1 ] && ok || bad "a game from game 2 on lost by a crash (first: '$first')"
expect_eq "$(db_value "$T/m4.sqlite" "SELECT count(*) FROM games WHERE game_index >= ${first:-9} AND reason = 'crash'
  AND ((game_index % 2 = 0 AND result = '1-0') OR (game_index % 2 = 1 AND result = '0-1'))")" $((4 - ${first:-0})) \
  "B lost every game from the kill on (A White in even games)"
detail=$(db_value "$T/m4.sqlite" "SELECT detail FROM games WHERE game_index = ${first:-9}")
grep -Eq 'connection closed|reset|cannot send' <<<"$detail" && ok || bad "the game going lost because the connection closed: '$detail'"
expect_eq "$(db_value "$T/m4.sqlite" "SELECT count(*) FROM games WHERE game_index > ${first:-9} AND detail LIKE 'cannot connect to 127.0.0.1:$PORT:%'")" \
  $((3 - ${first:-0})) "the later games: nothing to connect to"
has "$T/kill.err" "^game $((first + 1)): B loses by crash: " "the fault named on stderr"
has "$T/kill.out" "^games lost by an engine fault (crash, error answer, timeout, illegal or late move): A 0, B $((4 - ${first:-0}))$" "the faults counted"

# 5. a started follower killed during game 2 is started again for the next game
START="$DAMA dxp --listen 127.0.0.1:$FREE --movetime 40 --hash 8 --timeout 60 --log $T/restart.flog"
timeout $LIMIT "$DAMA" "${MATCH[@]}" --db "$T/m5.sqlite" --b-dxp "127.0.0.1:$FREE" --b-cmd "$START" --pairs 2 \
  --nodes 300 </dev/null >"$T/restart.out" 2>"$T/restart.err" &
MPID=$!
wait_until -p "$MPID" "the started follower's game 2" grep -qs '# game 2:' "$T/restart.flog"
victim=$(proc_children "$(proc_children "$MPID")") # timeout > match > the follower it started
[ -n "$victim" ] && kill -KILL $victim
[ -n "$victim" ] && ok || bad "no follower started by the match"
wait "$MPID"
expect_eq "$?" 0 "the match ends normally after the started follower died"
first=$(db_value "$T/m5.sqlite" "SELECT min(game_index) FROM games WHERE reason = 'crash'")
expect_eq "$(db_value "$T/m5.sqlite" "SELECT count(*) FROM games WHERE reason = 'crash'")" 1 "one game lost: the one going"
[ -n "$first" ] && [ "$first" -ge 1 ] && ok || bad "the game lost is from game 2 on (first: '$first')"
expect_eq "$(db_value "$T/m5.sqlite" "SELECT count(*) FROM games")" 4 "the later games played against the restarted follower"
expect_eq "$(proc_find "dxp --listen 127.0.0.1:$FREE ")" "" "the restarted follower is gone after the match"

# 5b. resume: a match stopped (Ctrl-C) during its second pair, run again,
# plays only that pair against a newly started follower
START="$DAMA dxp --listen 127.0.0.1:$FREE --movetime 40 --hash 8 --timeout 60 --log $T/resume.flog"
RESUME=("${MATCH[@]}" --db "$T/m6.sqlite" --b-dxp "127.0.0.1:$FREE" --b-cmd "$START" --pairs 2 --nodes 300)
timeout $LIMIT "$DAMA" "${RESUME[@]}" </dev/null >"$T/resume1.out" 2>"$T/resume1.err" &
MPID=$!
wait_until -p "$MPID" "the started follower's game 3" grep -qs '# game 3:' "$T/resume.flog"
mpid=$(proc_children "$MPID") # the match under `timeout`
[ -n "$mpid" ] && kill -INT $mpid
wait "$MPID"
expect_eq "$?" 3 "a stopped match exits 3"
has "$T/resume1.out" '^interrupted after 1 of 2 pairs$' "stopped after the first pair"
expect_eq "$(faults "$T/m6.sqlite")" 0 "the stop is no fault"
expect_rc 0 "the match resumed" timeout $LIMIT "$DAMA" "${RESUME[@]}"
has "$T/err" "(resumed: 1 pair stored), A = weight set [0-9]*, B = DXP 127.0.0.1:$FREE started by" "resumed"
has "$T/out" '^Games 4: ' "the resumed match counts 4 games"
expect_eq "$(db_value "$T/m6.sqlite" "SELECT count(*) FROM games")" 4 "4 games stored in all"
expect_eq "$(faults "$T/m6.sqlite")" 0 "no fault in the resumed match"
[ "$(grep -c '^[0-9-]* [0-9:.]* < R01dama' "$T/resume.flog")" = 2 ] && ok || bad "the new follower played the second pair only"

# 6. a tournament player started by dama: dxp=HOST:PORT,cmd=...; one that never listens loses each game, named
# with its exit status and its standard error
expect_rc 0 "tournament with a started DXP player" timeout $LIMIT "$DAMA" tournament --game international \
  --db "$T/t.sqlite" --concurrency 1 --rounds 1 --nodes 300 --hash 8 --progress 0 name=local,weights=default \
  "name=remote,dxp=127.0.0.1:$FREE,cmd=$DAMA dxp --listen 127.0.0.1:$FREE --nodes 300 --hash 8 --timeout 60"
expect_eq "$(faults "$T/t.sqlite")" 0 "no fault against the started tournament player"
expect_eq "$(db_value "$T/t.sqlite" "SELECT spec FROM participants WHERE name = 'remote'")" \
  "dxp=127.0.0.1:$FREE,cmd=$DAMA dxp --listen 127.0.0.1:$FREE --nodes 300 --hash 8 --timeout 60" "its spec stored with the command"
expect_rc 1 "tournament with a DXP player whose command fails (every game lost by its fault)" timeout $LIMIT "$DAMA" tournament --game international \
  --db "$T/t2.sqlite" --concurrency 1 --rounds 1 --nodes 300 --hash 8 --progress 0 name=local,weights=default \
  "name=remote,dxp=127.0.0.1:$FREE,cmd=echo 'cannot bind: no licence' >&2; false"
has "$T/err" "loses by crash: 'echo 'cannot bind: no licence' >&2; false' ended (exit status 1) before its port $FREE \
opened; stderr: cannot bind: no licence$" "the failed start named"
expect_eq "$(faults "$T/t2.sqlite")" 2 "both games lost by the player that never listened"

# 6b. a program nobody can reach: every game lost by its fault, so the match fails (nothing to rate)
expect_err 1 "every game was lost by an engine fault (A 0, B 2)" timeout $LIMIT "$DAMA" "${MATCH[@]}" \
  --db "$T/none.sqlite" --b-dxp 127.0.0.1:9 --pairs 1 --nodes 100

# 7. bad options
expect_err 2 "--b-dxp: need HOST:PORT (port 1..65535, or 0 with --b-cmd): nowhere" "$DAMA" "${MATCH[@]}" \
  --db "$T/bad.sqlite" --b-dxp nowhere
expect_err 2 "--a-dxp: need HOST:PORT (port 1..65535, or 0 with --a-cmd): address '127.0.0.1:65536': port '65536'" \
  "$DAMA" "${MATCH[@]}" --db "$T/bad.sqlite" --a-dxp 127.0.0.1:65536
expect_err 2 "--b-dxp: DXP numbers the squares 1..50, and russian does not" "$DAMA" match --game russian \
  --db "$T/bad.sqlite" --a default --b-dxp 127.0.0.1:1
expect_err 2 "engine B is reached over DXP and plays one game at a time: give --threads 1" "$DAMA" "${MATCH[@]}" \
  --db "$T/bad.sqlite" --b-dxp 127.0.0.1:1 --threads 2
expect_err 2 "--b-book: a DXP program plays its own moves" "$DAMA" "${MATCH[@]}" --db "$T/bad.sqlite" \
  --b-dxp 127.0.0.1:9 --b-book "$T/none.book"
# weights for a side that is an external program are refused, not ignored
expect_err 2 "dama match: --b default with --b-dxp: engine B is the program, which plays with its own weights (leave out --b)" \
  "$DAMA" "${MATCH[@]}" --db "$T/bad.sqlite" --pairs 1 --nodes 50 --b default --b-dxp 127.0.0.1:9
expect_err 2 "dama match: --b tuned with --b-cmd: engine B is the program, which plays with its own weights (leave out --b)" \
  "$DAMA" "${MATCH[@]}" --db "$T/bad.sqlite" --pairs 1 --nodes 50 --b tuned --b-cmd "$DAMA hub"
expect_err 2 "dama match: --a default with --a-cmd: engine A is the program, which plays with its own weights (leave out --a)" \
  "$DAMA" "${MATCH[@]}" --db "$T/bad.sqlite" --pairs 1 --nodes 50 --a-cmd "$DAMA hub" --b default
expect_err 2 "dama match: --a default with --a-dxp: engine A is the program" "$DAMA" "${MATCH[@]}" \
  --db "$T/bad.sqlite" --pairs 1 --nodes 50 --a-dxp 127.0.0.1:9 --a-cmd "$DAMA dxp --listen 127.0.0.1:9"
expect_err 2 "give one of --nodes, --depth, --movetime, --tc" "$DAMA" dxp --listen 0 --nodes 5 --tc 1000+10
expect_err 2 "--tc" "$DAMA" dxp --listen 0 --tc fast
expect_err 1 "cannot write --log $T/no/x.log: No such file or directory" "$DAMA" dxp --listen 0 --log "$T/no/x.log"
[ ! -e "$T/bad.sqlite" ] && ok || bad "a refused match stored nothing"

finish dxp_match

#!/usr/bin/env bash
# `dama dxp`: the DamExchange Protocol over TCP on 127.0.0.1 — a follower
# and an initiator playing each other (the normal start and a position,
# colours alternating, the number of moves asked), every message logged
# with its time and the two logs telling the same story; a hand-driven
# session (bash's /dev/tcp) with garbage, misplaced messages, refused game
# requests, a take-back request and an illegal move, each answered as
# docs/dxp.md says; bad options; waits that end.
# Usage: dxp.sh DAMA_BINARY SOURCE_DIR
set -u
. "$(dirname "$0")/lib.sh"
has() { grep -q -- "$2" "$1" && ok || bad "$3: no '$2' in: $(head -c 600 "$1")"; }
# LIMIT: seconds after which a dama that has not ended is killed (it hangs:
# far beyond what these short games need, even on a loaded machine)
LIMIT=300
ENGINE=(--hash 8 --timeout 120)

# follower NAME ARGS...: a follower in the background on a free port; sets
# PORT (from its "listening on" line) and FPID
follower() {
  local name=$1
  shift
  dxp_follower "$name" "${ENGINE[@]}" "$@"
}
# follower_done NAME RC: the follower ended with RC
follower_done() {
  wait "$FPID"
  local rc=$?
  [ "$rc" = "$2" ] && ok || bad "$1: follower exit $rc (expected $2): $(head -c 400 "$T/$1.ferr")"
}
# logged NAME SIDE MARK: the messages of a log with that mark, one a line, without the time
logged() { sed -n "s/^[0-9-]* [0-9:.]* $3 //p" "$T/$1.$2log"; }
# same_story NAME: every line of both logs is "DATE TIME.mmm MARK TEXT"; what
# one sent is what the other received, in order; the counts are the summaries'
same_story() {
  local name=$1 side
  for side in f i; do
    grep -Ev '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3} [<>#] ' "$T/$name.${side}log" | head -3 >"$T/badlines"
    [ -s "$T/badlines" ] && bad "$name: log lines without their time: $(cat "$T/badlines")" || ok
  done
  [ "$(logged "$name" i '>')" = "$(logged "$name" f '<')" ] && ok || bad "$name: what the initiator sent is not what the follower read"
  [ "$(logged "$name" f '>')" = "$(logged "$name" i '<')" ] && ok || bad "$name: what the follower sent is not what the initiator read"
  local sent recv
  sent=$(logged "$name" i '>' | wc -l)
  recv=$(logged "$name" i '<' | wc -l)
  has "$T/$name.iout" "; $sent messages sent, $recv received$" "$name: the initiator's counts are its log's"
  has "$T/$name.fout" "; $recv messages sent, $sent received$" "$name: the follower's counts are its log's"
}

# 1. four games from the start, dama against dama (two strengths), colours alternating
follower play --nodes 600 --name Follower
expect_rc 0 "initiator plays 4 games" timeout $LIMIT "$DAMA" dxp --connect "127.0.0.1:$PORT" --games 4 --nodes 2000 \
  "${ENGINE[@]}" --name Initiator --log "$T/play.ilog"
cp "$T/out" "$T/play.iout"
follower_done play 0
expect_line out "dxp: connected to 127.0.0.1:$PORT as initiator"
has "$T/play.iout" '^dxp: 4 games: [0-4] won, [0-4] drawn, [0-4] lost, 0 unfinished; 0 refused; received 0 bad messages, 0 chats;' "initiator summary"
has "$T/play.fout" '^dxp: 4 games: [0-4] won, [0-4] drawn, [0-4] lost, 0 unfinished; 0 refused; received 0 bad messages, 0 chats;' "follower summary"
# the two sides report the same games, with the same results
[ "$(grep '^game ' "$T/play.iout")" = "$(grep '^game ' "$T/play.fout")" ] && ok || bad "game lines differ: $(grep '^game ' "$T/play.iout" "$T/play.fout")"
for g in 1 3; do has "$T/play.iout" "^game $g: Initiator (White) - Follower (Black): \(1-0\|0-1\|1/2-1/2\) [a-zA-Z0-9-]*, [0-9]* plies$" "game $g"; done
for g in 2 4; do has "$T/play.iout" "^game $g: Follower (White) - Initiator (Black): \(1-0\|0-1\|1/2-1/2\) [a-zA-Z0-9-]*, [0-9]* plies$" "game $g"; done
same_story play
grep -Eq '^[0-9-]{10} [0-9:.]{12} # listening on 127\.0\.0\.1:'"$PORT"'$' "$T/play.flog" && ok || bad "the follower's log names its port: $(head -2 "$T/play.flog")"
# the game requests: version 01, the names padded to 32, the colour the follower plays, 5 minutes, the normal start
[ "$(logged play i '>' | grep '^R')" = "$(printf '%s\n' "R01Initiator                       Z005000A" "R01Initiator                       W005000A" \
  "R01Initiator                       Z005000A" "R01Initiator                       W005000A")" ] && ok || bad "game requests: $(logged play i '>' | grep '^R')"
[ "$(logged play f '>' | grep -c '^AFollower                        0$')" = 4 ] && ok || bad "4 acceptances"
# moves alternate and are well formed; every game ends with a GAMEEND and its answer
bad_moves=$(logged play i '[<>]' | grep '^M' | grep -Evc '^M[0-9]{4}(0[1-9]|[1-4][0-9]|50){2}([01][0-9]|20)([0-9]{2})*$')
[ "$bad_moves" = 0 ] && ok || bad "$bad_moves malformed moves"
[ "$(logged play i '[<>]' | grep -c '^E')" = 8 ] && ok || bad "two GAMEENDs a game"
# the last GAMEEND of the initiator asks for no further game
[ "$(logged play i '>' | grep '^E' | tail -1 | cut -c3)" = 1 ] && ok || bad "the initiator's last GAMEEND has stop code 1"

# 2. a start position (B), Black to move, and a number of moves that ends the games
FEN="B:W27,28,32,33,37,38,42,43,K49:B8,12,13,17,18,19,22,23,24"
follower pos --movetime 20 --name Follower
expect_rc 0 "initiator from a position" timeout $LIMIT "$DAMA" dxp --connect "127.0.0.1:$PORT" --games 2 --fen "$FEN" \
  --moves 6 --time 1 --color black "${ENGINE[@]}" --name Initiator --log "$T/pos.ilog"
cp "$T/out" "$T/pos.iout"
follower_done pos 0
req=$(logged pos i '>' | grep '^R' | head -1)
expect_eq "$req" "R01Initiator                       W001006BZeeeeeeezeeezzeeezzzeezzzeewweeewweeewweeewweeeeeWe" "game request with a position"
has "$T/pos.iout" '^dxp: 2 games: ' "2 games from a position"
has "$T/pos.iout" 'received 0 bad messages' "no bad message"
has "$T/pos.fout" 'received 0 bad messages' "no bad message (follower)"
has "$T/pos.iout" '^game 1: Follower (White) - Initiator (Black): ' "dama Black in game 1 (--color black)"
has "$T/pos.iout" '^game 2: Follower (White) - Initiator (Black): ' "dama Black in game 2"
same_story pos
# 6 moves of each side at most: a game not over then ends as a draw 'move-cap'
plies=$(sed -n 's/^game 1: .*, \([0-9]*\) plies$/\1/p' "$T/pos.iout")
[ -n "$plies" ] && [ "$plies" -le 12 ] && ok || bad "game 1 longer than 6 moves a side: $plies plies"

# 3. by hand: garbage, misplaced messages, refused requests, a take-back request, an illegal move
follower hand --nodes 300 --name Follower
exec 3<>"/dev/tcp/127.0.0.1/$PORT"
send() { printf '%s\0' "$1" >&3; }
reply() { local r=""; IFS= read -r -d '' -t 60 r <&3; printf '%s' "$r"; }
send "garbage"
expect_eq "$(reply)" "Cdama: malformed message: unknown message type 'g' in 'garbage' (expected C, R, A, M, E, B or K) (ignored)" "garbage answered"
send "M00120611"
expect_eq "$(reply)" "Cdama: malformed message: MOVE: 9 characters, expected 11 (M, time 4, from 2, to 2, number captured 2, captured squares 2 each)" "short MOVE answered"
send "M0012322800"
expect_eq "$(reply)" "Cdama: MOVE has no place outside a game (ignored)" "MOVE outside a game"
printf 'R01%-32sZ00500A\0' "hand" >&3 # a digit short: 42 characters
expect_eq "$(reply)" "Cdama: malformed message: GAMEREQ: 42 characters, expected 43 (start position A) or 94 (position B) (ignored)" "short GAMEREQ"
printf 'R02%-32sZ005000A\0' "hand" >&3
expect_eq "$(reply)" "Cdama: game refused: dama speaks DXP version 01, the request is version 02" "version 02 refused"
expect_eq "$(reply)" "AFollower                        1" "GAMEACC 1"
Z19=zzzzzzzzzzzzzzzzzzz E10=eeeeeeeeee W20=wwwwwwwwwwwwwwwwwwww
printf 'R01%-32sZ005000BWw%s%s%s\0' "hand" "$Z19" "$E10" "$W20" >&3 # a White man on square 1
r=$(reply)
case "$r" in "Cdama: game refused: "*"crowning"*) ok ;; *) bad "a man on its crowning row: '$r'" ;; esac
expect_eq "$(reply)" "AFollower                        2" "GAMEACC 2"
printf 'R01%-32sZ005000A\0' "hand" >&3 # dama plays Black: White (this script) moves first
expect_eq "$(reply)" "AFollower                        0" "GAMEACC 0"
send "Chello"
send "M0003322800"
r=$(reply)
[[ "$r" =~ ^M[0-9]{4}(1[6-9]|20)(2[1-5])00$ ]] && ok || bad "dama's first move as Black: '$r'"
send "B001W"
expect_eq "$(reply)" "K1" "BACKREQ answered: not supported"
send "M0003332800" # 28 is White's own
r=$(reply)
case "$r" in "Cdama: illegal move: move 33-28 is not legal here"*"; the game ends") ok ;; *) bad "illegal move: '$r'" ;; esac
expect_eq "$(reply)" "E00" "dama ends the game"
send "E01"
exec 3<&-
follower_done hand 0
has "$T/hand.fout" '^game 1: hand (White) - Follower (Black): 0-1 illegal-move, 2 plies$' "the game, lost by the illegal move"
has "$T/hand.fout" '^dxp: 1 game: 1 won, 0 drawn, 0 lost, 0 unfinished; 2 refused; received 5 bad messages, 1 chat; ' "hand summary"
has "$T/hand.flog" ' < garbage$' "garbage logged"
has "$T/hand.flog" ' # illegal move in ' "the illegal move's position logged"

# 4. a DXP program as a tournament player: dama's follower against dama in-process, two rounds
follower tour --nodes 400 --name Follower
expect_rc 0 "tournament with a DXP player" timeout $LIMIT "$DAMA" tournament --game international --db "$T/tour.sqlite" \
  --rounds 2 --nodes 400 --hash 8 --concurrency 1 name=local,weights=default "name=remote,dxp=127.0.0.1:$PORT"
cp "$T/out" "$T/tour.out"
follower_done tour 0
has "$T/tour.out" '^local  *- *[0-9.]* (4, [0-4]) *[0-9.]*/4$' "crosstable row of local"
expect_eq "$(db_value "$T/tour.sqlite" "SELECT count(*) FROM games")" 4 "4 games stored"
expect_eq "$(db_value "$T/tour.sqlite" "SELECT count(*) FROM games WHERE reason IN ('crash','timeout','illegal-move','time-forfeit')")" 0 "no game lost by a fault"
expect_eq "$(db_value "$T/tour.sqlite" "SELECT kind || ' ' || spec FROM participants WHERE name = 'remote'")" "hub dxp=127.0.0.1:$PORT" "the DXP player stored"
has "$T/tour.fout" '^dxp: 4 games: .* received 0 bad messages, 0 chats;' "the follower played the 4 games"
# every game request is of the position the game began from there; each
# game's end is told with its result (GAMEEND 1, 2 or 3, stop code 0), so
# the follower finishes every game; the connection's close ends it
[ "$(logged tour f '<' | grep -c '^R01dama                            [WZ]001000[AB]')" = 4 ] && ok || bad "4 game requests: $(logged tour f '<' | grep '^R')"
[ "$(logged tour f '<' | grep -c '^E[123]0$')" = 4 ] && ok || bad "a GAMEEND with the result each game: $(logged tour f '<' | grep '^E')"
has "$T/tour.fout" '^dxp: 4 games: .* 0 unfinished;' "the follower saw each game's end"
expect_err 2 "engine 'remote' is reached over DXP and plays one game at a time: give --concurrency 1" \
  "$DAMA" tournament --game international --db "$T/tour2.sqlite" --concurrency 2 name=a,weights=default "name=remote,dxp=127.0.0.1:1"
expect_err 2 "dxp=nowhere: need HOST:PORT" "$DAMA" tournament --game international --db "$T/tour2.sqlite" name=a,weights=default name=b,dxp=nowhere
# a game DXP cannot play: refused before any game (they would all be lost by faults, the run ending 0)
for g in russian canadian; do
  expect_err 2 "engine 'remote' is reached over DXP, which numbers the squares 1..50, and $g does not: give --game international" \
    "$DAMA" tournament --game $g --db "$T/tour3.sqlite" --concurrency 1 name=a,weights=default "name=remote,dxp=127.0.0.1:1"
done
[ ! -e "$T/tour3.sqlite" ] && ok || bad "a game DXP cannot play: the database was made"

# 5. waits end: no connection; a connection that says nothing
expect_err 1 "no connection within 1 s" timeout $LIMIT "$DAMA" dxp --listen 127.0.0.1:0 --timeout 1 --hash 8
# Ctrl-C and SIGTERM end the wait at once (exit 3), not after --timeout
for sig in INT TERM; do
  "$DAMA" dxp --listen 127.0.0.1:0 --timeout 100 --hash 8 >"$T/sig.out" 2>"$T/sig.err" &
  spid=$!
  for _ in $(seq 1 100); do grep -q "listening on" "$T/sig.out" && break; sleep 0.1; done
  t0=$(date +%s)
  kill -$sig $spid
  wait $spid
  expect_eq "$?" 3 "SIG$sig while waiting for a connection: exit 3"
  [ $(($(date +%s) - t0)) -lt 30 ] && ok || bad "SIG$sig: the wait went on"
  has "$T/sig.err" "stopped while waiting for a connection" "SIG$sig: said"
done
follower quiet --timeout 1
exec 3<>"/dev/tcp/127.0.0.1/$PORT"
follower_done quiet 1
exec 3<&-
has "$T/quiet.ferr" "dama dxp: no GAMEREQ within 1 s" "silent initiator"
# --timeout is a deadline for the awaited message: chats do not put it off (a chat every 0.1 s
# kept the wait open as long as it went on; 30 chats here, 3 s, against --timeout 1)
follower chatty --timeout 1
exec 3<>"/dev/tcp/127.0.0.1/$PORT"
t0=$(date +%s%N)
(trap '' PIPE; for _ in $(seq 1 30); do printf 'Chello\0' >&3 2>/dev/null || break; sleep 0.1; done) &
CPID=$!
follower_done chatty 1
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
kill $CPID 2>/dev/null; wait $CPID 2>/dev/null
exec 3<&-
has "$T/chatty.ferr" "dama dxp: no GAMEREQ within 1 s" "a chatting initiator timed out as a silent one"
[ "$ms" -lt 2500 ] && ok || bad "a chatting initiator was closed after $ms ms, not about 1 s"
# a message cut off by the close (bytes without their NUL) is a bad message received, said in the summary
follower cut --timeout 5
exec 3<>"/dev/tcp/127.0.0.1/$PORT"
printf 'R01tes' >&3
exec 3<&-
wait "$FPID"
has "$T/cut.fout" "received 1 bad message," "a message cut off by the close: counted"

# 6. bad options
expect_err 2 "give --listen [HOST:]PORT (follower) or --connect HOST:PORT (initiator)" "$DAMA" dxp
expect_err 2 "give --listen" "$DAMA" dxp --listen 0 --connect 127.0.0.1:1
expect_err 2 "--game russian: DXP numbers the squares 1..50 and russian does not; the games that do are international" "$DAMA" dxp --game russian --listen 0
# --game's default is the game dxp plays: international, whatever a configuration file's top-level game
# (made for the other commands); the dxp group's game applies, and must fit
printf 'game = "russian";\n' >"$T/top.cfg"
printf 'dxp = { game = "russian"; };\n' >"$T/grp.cfg"
"$DAMA" dxp --help >"$T/help" 2>&1
grep -q -- '--game TEXT .*numbered 1\.\.50 (default: international; .*does not apply)$' "$T/help" && ok || bad "dxp --help: --game's default: $(grep -- --game "$T/help")"
"$DAMA" dxp --help --config "$T/top.cfg" >"$T/help" 2>&1
grep -q -- '--game TEXT .*numbered 1\.\.50 (default: international; .*does not apply)$' "$T/help" && ok || bad "dxp --help, top-level game russian: $(grep -- --game "$T/help")"
expect_err 1 "no connection within 1 s" timeout $LIMIT "$DAMA" dxp --config "$T/top.cfg" --listen 127.0.0.1:0 --timeout 1 --hash 8
expect_err 2 "game = russian ($T/grp.cfg:1): DXP numbers the squares 1..50 and russian does not" "$DAMA" dxp --config "$T/grp.cfg" --listen 0
expect_err 2 "give one of --nodes, --depth, --movetime" "$DAMA" dxp --listen 0 --nodes 5 --depth 3
expect_err 2 "--time 0: must be 1 or more unless --nodes" "$DAMA" dxp --connect 127.0.0.1:1 --time 0
expect_err 2 "--color purple: must be alternate, white or black" "$DAMA" dxp --connect 127.0.0.1:1 --color purple
expect_err 2 "--name" "$DAMA" dxp --listen 0 --name "a name that is longer than thirty-two characters"
expect_err 2 "--name" "$DAMA" dxp --listen 0 --name " leading blank"
expect_err 2 "dama dxp: --fen: " "$DAMA" dxp --connect 127.0.0.1:1 --fen "W:W51:B1"
expect_err 2 "--connect 127.0.0.1: needs HOST:PORT" "$DAMA" dxp --connect 127.0.0.1
expect_err 2 "port 'x' must be a number 1..65535" "$DAMA" dxp --connect 127.0.0.1:x
expect_err 2 "port '70000' must be a number 0..65535" "$DAMA" dxp --listen 70000
expect_err 1 "cannot connect to 127.0.0.1:" "$DAMA" dxp --connect "127.0.0.1:$PORT" --timeout 5

finish dxp

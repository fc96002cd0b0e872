#!/usr/bin/env bash
# A DXP program that dama starts on a port it picks (--b-dxp HOST:0 with
# --b-cmd, dxp=HOST:0,cmd=...): dama reads the port from the program's
# output. A match against `dama dxp --listen 127.0.0.1:0` (and `--listen
# 0`, in a tournament); its output drained after the port and its standard
# error all along (a program that floods both finishes); the program killed
# during a game and started again on a new port (the game's detail names
# what it wrote on its standard error); a program that prints no port within
# the 20 s start window (the game lost, named with the last of its standard
# error and its last line; the match stopped while the next start waits);
# one that exits at once (its exit status, its standard error); port 0
# without a command refused.
# Usage: dxp_port.sh DAMA_BINARY SOURCE_DIR
set -u
. "$(dirname "$0")/lib.sh"
has() { grep -q -- "$2" "$1" && ok || bad "$3: no '$2' in: $(head -c 600 "$1")"; }
LIMIT=300 # seconds after which a dama that has not ended is killed (it hangs)
MATCH=(match --game international --a default --hash 8 --progress 0)
FOLLOWER="$DAMA dxp --listen 127.0.0.1:0 --hash 8 --timeout 60"
faults() { db_value "$1" "SELECT count(*) FROM games WHERE reason IN ('crash','timeout','illegal-move','time-forfeit')"; }
# the port of a follower's log ("DATE TIME.mmm # listening on 127.0.0.1:PORT")
log_port() { sed -n 's/^[0-9-]* [0-9:.]* # listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$1"; }

# 1. two pairs against a follower started on a port it picks: its line
# "dxp: listening on 127.0.0.1:PORT" names the port
expect_rc 0 "match against a follower on port 0" timeout $LIMIT "$DAMA" "${MATCH[@]}" --db "$T/m1.sqlite" \
  --b-dxp 127.0.0.1:0 --b-cmd "$FOLLOWER --nodes 300 --log $T/m1.flog" --pairs 2 --nodes 300
has "$T/out" "^match 1 (run 1): A = weight set [0-9]* vs B = DXP 127.0.0.1:0 started by '" "the result names B"
has "$T/out" '^Games 4: +[0-4] =[0-4] -[0-4] |' "four games counted"
expect_eq "$(db_value "$T/m1.sqlite" "SELECT count(*) FROM games")" 4 "4 games stored"
expect_eq "$(faults "$T/m1.sqlite")" 0 "no game lost by a fault"
port=$(log_port "$T/m1.flog")
[ -n "$port" ] && [ "$port" -gt 0 ] && ok || bad "the follower picked a port: '$port'"
[ "$(grep -c '^[0-9-]* [0-9:.]* < R01dama' "$T/m1.flog")" = 4 ] && ok || bad "the follower played the 4 games"
expect_eq "$(proc_find "$T/m1.flog")" "" "the started follower is gone after the match"

# 2. output after the port is drained, and standard error all along: a
# program that writes 300 KB on its standard error before it starts (more
# than a pipe holds) and prints 300 KB after its port line gets to the end
# of both and plays on
FLOOD="yes 'warning: filler' | head -c 300000 >&2; $FOLLOWER --nodes 300 | { IFS= read -r line; echo \"\$line\"; \
yes 'filler line' | head -c 300000; echo done >$T/flood.done; cat; }"
expect_rc 0 "match against a program that floods its output" timeout $LIMIT "$DAMA" "${MATCH[@]}" \
  --db "$T/m2.sqlite" --b-dxp 127.0.0.1:0 --b-cmd "$FLOOD" --pairs 1 --nodes 300
expect_eq "$(db_value "$T/m2.sqlite" "SELECT count(*) FROM games")" 2 "2 games stored"
expect_eq "$(faults "$T/m2.sqlite")" 0 "no fault against the flooding program"
expect_eq "$(cat "$T/flood.done" 2>/dev/null)" done "its whole output was read"

# 3. the started follower killed during game 2: the game going is lost,
# named with what it wrote on its standard error; the next game starts it
# again, and its new port is read (each start logs to its own file: $$ is
# the started shell's id, which execs the follower)
timeout $LIMIT "$DAMA" "${MATCH[@]}" --db "$T/m3.sqlite" --b-dxp 127.0.0.1:0 \
  --b-cmd "echo 'follower: starting' >&2; exec $FOLLOWER --movetime 40 --log $T/re.\$\$.flog" --pairs 2 --nodes 300 \
  </dev/null >"$T/re.out" 2>"$T/re.err" &
MPID=$!
wait_until -p "$MPID" "the started follower's game 2" sh -c "cat $T/re.*.flog 2>/dev/null | grep -q '# game 2:'"
victim=$(proc_children "$(proc_children "$MPID")") # timeout > match > the follower it started
[ -n "$victim" ] && kill -KILL $victim
[ -n "$victim" ] && ok || bad "no follower started by the match"
wait "$MPID"
expect_eq "$?" 0 "the match ends normally after the started follower died"
expect_eq "$(db_value "$T/m3.sqlite" "SELECT count(*) FROM games")" 4 "4 games stored"
expect_eq "$(db_value "$T/m3.sqlite" "SELECT count(*) FROM games WHERE reason = 'crash'")" 1 "one game lost: the one going"
expect_eq "$(db_value "$T/m3.sqlite" "SELECT count(*) FROM games WHERE reason = 'crash' AND detail LIKE \
'%; stderr: follower: starting; last message: %'")" 1 "its detail names the follower's standard error"
logs=("$T"/re.*.flog)
expect_eq "${#logs[@]}" 2 "the follower was started twice"
p1=$(log_port "${logs[0]}")
p2=$(log_port "${logs[1]}")
[ -n "$p1" ] && [ -n "$p2" ] && [ "$p1" != "$p2" ] && ok || bad "each start picked its own port: '$p1' '$p2'"
games=$(cat "${logs[@]}" | grep -c '^[0-9-]* [0-9:.]* < R01dama')
[ "$games" -ge 4 ] && ok || bad "both followers played (game requests: $games)"

# 4. a tournament player on port 0: `dama dxp --listen 0` (host 127.0.0.1)
SPEC="dxp=127.0.0.1:0,cmd=$DAMA dxp --listen 0 --nodes 300 --hash 8 --timeout 60"
expect_rc 0 "tournament with a player on port 0" timeout $LIMIT "$DAMA" tournament --game international \
  --db "$T/t.sqlite" --concurrency 1 --rounds 1 --nodes 300 --hash 8 --progress 0 name=local,weights=default \
  "name=remote,$SPEC"
expect_eq "$(db_value "$T/t.sqlite" "SELECT count(*) FROM games")" 2 "2 tournament games"
expect_eq "$(faults "$T/t.sqlite")" 0 "no fault against the tournament player"
expect_eq "$(db_value "$T/t.sqlite" "SELECT spec FROM participants WHERE name = 'remote'")" "$SPEC" \
  "its spec stored with port 0 and the command"

# 5. a program that exits at once: each game lost, named with its exit status and last line
expect_err 1 "every game was lost by an engine fault (A 0, B 2)" timeout $LIMIT "$DAMA" "${MATCH[@]}" \
  --db "$T/m5.sqlite" --b-dxp 127.0.0.1:0 --b-cmd "echo starting; echo 'bad news'; exit 3" --pairs 1 --nodes 300
has "$T/err" "^game 1: B loses by crash: 'echo starting; echo 'bad news'; exit 3' ended (exit status 3) before it printed 127.0.0.1:PORT (its last line: \"bad news\")$" \
  "the exit named"
expect_eq "$(db_value "$T/m5.sqlite" "SELECT detail FROM games WHERE game_index = 1")" \
  "'echo starting; echo 'bad news'; exit 3' ended (exit status 3) before it printed 127.0.0.1:PORT (its last line: \"bad news\")" \
  "the second game's start failed the same way"
expect_rc 1 "a program that prints nothing" timeout $LIMIT "$DAMA" "${MATCH[@]}" --db "$T/m5b.sqlite" \
  --b-dxp 127.0.0.1:0 --b-cmd true --pairs 1 --nodes 300
has "$T/err" "^game 1: B loses by crash: 'true' ended (exit status 0) before it printed 127.0.0.1:PORT (it printed nothing)$" \
  "the silent exit named"
# its standard error named, its lines escaped and joined (a blank one and a final CR dropped)
FAIL="echo 'loading book' >&2; echo >&2; printf 'fatal: \\033[1mno network\\r\\n' >&2; echo starting; exit 4"
expect_rc 1 "a program that writes on its standard error and exits" timeout $LIMIT "$DAMA" "${MATCH[@]}" \
  --db "$T/m5c.sqlite" --b-dxp 127.0.0.1:0 --b-cmd "$FAIL" --pairs 1 --nodes 300
expect_eq "$(db_value "$T/m5c.sqlite" "SELECT detail FROM games WHERE game_index = 0")" \
  "'$FAIL' ended (exit status 4) before it printed 127.0.0.1:PORT (stderr: loading book | fatal: \\x1B[1mno network; its last line: \"starting\")" \
  "its standard error named before its last line"

# 6. a program that prints no port of 127.0.0.1 (another address, port 0,
# a bare host) and runs on: the first game is lost after the 20 s start
# window, named with the last of its standard error and its last line;
# the match, stopped while the second
# game's start waits, ends at once and the program is gone
# (sleep 300.PID: a command line of this run's own, not another run's copy of this test)
QUIET="printf 'starting\nlistening on 127.0.0.10:4000 and 127.0.0.1:0\nwaiting\n'; echo 'no licence yet' >&2; \
exec sleep 300.$$"
timeout $LIMIT "$DAMA" "${MATCH[@]}" --db "$T/m6.sqlite" --b-dxp 127.0.0.1:0 --b-cmd "$QUIET" --pairs 1 \
  --nodes 300 </dev/null >"$T/quiet.out" 2>"$T/quiet.err" &
MPID=$!
SECONDS=0
wait_until -p "$MPID" "the first game lost" at_least "$T/m6.sqlite" "SELECT count(*) FROM games" 1
[ "$SECONDS" -ge 19 ] && ok || bad "the first game was lost after the 20 s window, not after $SECONDS s"
expect_eq "$(db_value "$T/m6.sqlite" "SELECT reason || ': ' || detail FROM games")" \
  "crash: '$QUIET' printed no 127.0.0.1:PORT in 20 s (stderr: no licence yet; its last line: \"waiting\")" \
  "the silence named"
mpid=$(proc_children "$MPID") # the match under `timeout`
[ -n "$mpid" ] && kill -INT $mpid
SECONDS=0
wait "$MPID"
expect_eq "$?" 3 "a stopped match exits 3"
[ "$SECONDS" -le 10 ] && ok || bad "the stop ended the wait for the port: $SECONDS s"
has "$T/quiet.out" '^interrupted after 0 of 1 pair$' "stopped in the first pair"
expect_eq "$(db_value "$T/m6.sqlite" "SELECT count(*) FROM games")" 1 "the stop is no game"
expect_eq "$(proc_find "sleep 300.$$")" "" "the program is gone after the match"

# 7. port 0 without a command to start the program
expect_err 2 "dama match: --b-dxp 127.0.0.1:0: port 0 is the port the program picks, read from its output: give --b-cmd CMD to start it" \
  "$DAMA" "${MATCH[@]}" --db "$T/bad.sqlite" --b-dxp 127.0.0.1:0
expect_err 2 "dxp=127.0.0.1:0: port 0 is the port the program picks, read from its output: give cmd= to start it" \
  "$DAMA" tournament --game international --db "$T/bad.sqlite" name=a,weights=default name=b,dxp=127.0.0.1:0,nodes=5
[ ! -e "$T/bad.sqlite" ] && ok || bad "a refused run stored nothing"

finish dxp_port

#!/usr/bin/env bash
# `dama match` against a DXP follower that plays no draughts
# (tests/cli/fake_dxp.py), on 127.0.0.1: its resignation (GAMEEND reason 1
# instead of a move) is a game lost by resignation ('resign'), not an
# engine fault; the bytes of a message it sends that are not printable
# ASCII (an escape sequence, UTF-8) are escaped as \xNN in the fault line
# on stderr and in the stored games.detail, never passed on raw.
# Usage: dxp_peer.sh DAMA_BINARY SOURCE_DIR
set -u
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "python3 missing: skipped"; exit 77; }
LIMIT=300 # seconds after which a dama that has not ended is killed (it hangs)
MATCH=(match --game international --a default --hash 8 --progress 0 --pairs 1 --nodes 100)
FAKE="$SRC/tests/cli/fake_dxp.py"

# fake MODE: the fake follower in the background; sets PORT and FPID
fake() {
  python3 "$FAKE" "$1" "$T/$1.port" &
  FPID=$!
  wait_until -p "$FPID" "the fake follower's port ($1)" test -s "$T/$1.port"
  PORT=$(cat "$T/$1.port")
}
done_fake() { kill "$FPID" 2>/dev/null; wait "$FPID" 2>/dev/null; }

# 1. the program resigns every game: B loses each by resignation, a normal
# result (no fault named or counted; the match rates it)
fake resign
expect_rc 0 "a match against a program that resigns" timeout $LIMIT "$DAMA" "${MATCH[@]}" --db "$T/r.sqlite" \
  --b-dxp "127.0.0.1:$PORT"
done_fake
expect_eq "$(db_value "$T/r.sqlite" "SELECT group_concat(game_index || ':' || result || ':' || reason, ' ') FROM games")" \
  "0:1-0:resign 1:0-1:resign" "both games lost by B by resignation (A White in game 0)"
expect_eq "$(db_value "$T/r.sqlite" "SELECT count(*) FROM games WHERE detail IS NOT NULL")" 0 "no fault detail stored"
grep -q "loses by\|lost by an engine fault" "$T/err" "$T/out" && bad "a resignation named as a fault: $(cat "$T/err")" || ok
grep -q '^Games 2: +2 =0 -0 |' "$T/out" && ok || bad "A's two wins counted: $(head -c 600 "$T/out")"

# 2. the program sends an escape sequence and UTF-8 bytes: escaped where
# they are printed and stored
fake garbage
expect_rc 1 "a match against a program that sends garbage" timeout $LIMIT "$DAMA" "${MATCH[@]}" --db "$T/g.sqlite" \
  --b-dxp "127.0.0.1:$PORT"
done_fake
want='byte \xC3 at character 6 is outside ASCII 1..127; last message: M\x1B[2J\xC3\xA9'
expect_line err "game 1: B loses by crash: $want"
expect_eq "$(db_value "$T/g.sqlite" "SELECT DISTINCT detail FROM games")" "$want" "the stored detail, escaped"
LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f-\xff]' "$T/err" && bad "raw bytes of the peer on stderr: $(cat -v "$T/err")" || ok
expect_eq "$(db_value "$T/g.sqlite" "SELECT count(*) FROM games WHERE detail GLOB '*[^ -~]*'")" 0 \
  "no stored detail holds a byte outside printable ASCII"

finish dxp_peer

#!/usr/bin/env bash
# pdn.sh — `dama pdn check`: one line per game, the summary line, exit codes
# (0 every game replayed, 1 some game failed, 2 unreadable input).
# usage: bash pdn.sh DAMA_BINARY SOURCE_DIR
set -u
dama=$1
src=$2
file_1950="$src/data/games/russian_ussr_ch10_1950.pdn"
if [ ! -r "$file_1950" ]; then
    echo "FAIL: cannot read $file_1950 (data/games/ of the repository)"
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# run NAME ARGS...: runs dama, keeps stdout/stderr/exit code in $tmp/NAME.*
run() {
    local name=$1
    shift
    "$dama" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    echo $? >"$tmp/$name.rc"
}

expect_rc() { # NAME CODE
    local got
    got=$(cat "$tmp/$1.rc")
    [ "$got" = "$2" ] || fail "$1: exit code $got, expected $2 (stderr: $(cat "$tmp/$1.err"))"
}

expect_line() { # NAME out|err EXACT-LINE
    grep -qxF -- "$3" "$tmp/$1.$2" || fail "$1: no line '$3' in std$2:
$(cat "$tmp/$1.$2")"
}

# --- a good file: the 1950 USSR championship, 153 games -------------------
run good pdn check "$file_1950"
expect_rc good 0
expect_line good out "153 games, 153 ok, 0 failed"
expect_line good out "game 1 (Блиндер Б. - Миротин Б., X чемпионат СССР): ok, 61 plies"
n=$(grep -c ': ok, [0-9]* plies$' "$tmp/good.out")
[ "$n" = 153 ] || fail "good: $n 'ok' lines, expected 153"
[ ! -s "$tmp/good.err" ] || fail "good: unexpected stderr: $(cat "$tmp/good.err")"

# options may come after FILE, and before "check"
run good_opt pdn check "$file_1950" --game russian
expect_rc good_opt 0
run good_opt2 pdn --game russian check "$file_1950"
expect_rc good_opt2 0

# --- a bad file: game 2 plays a man that is not there ----------------------
printf '%s\r\n' \
    '[Event "good"]' '[GameType "25"]' '[FEN "W:Wc3,e1:Bd4,f6,b6"]' '[Result "1-0"]' '' \
    '1. c3xg7 b6-a5 2. g7-h8 a5-b4 3. 31-26 bc3 4. d:b4 1-0' '' \
    '[Event "bad"]' '[FEN "W:Wc3,e1:Bd4,f6,b6"]' '' \
    '1. c3:g7 b6-a5 2. g7-h8 {comment} a5-b4' '3. c1-d2 b4-a3 1-0' '' \
    '[Event "warn"]' '[Result "1-0"]' '1. c3-d4 0-1' >"$tmp/bad.pdn"
run bad pdn check "$tmp/bad.pdn"
expect_rc bad 1
expect_line bad out "game 1 (good): ok, 7 plies"
expect_line bad out "game 2 (bad): cannot play 3. c1-d2 (ply 5, line 12) in position W:We1,Kh8:Bb4: illegal move 'c1-d2'"
expect_line bad out 'game 3 (warn): ok, 1 ply; warning: Result tag "1-0" (line 15) differs from the movetext result "0-1" (line 16)'
expect_line bad out "3 games, 2 ok, 1 failed, 1 warning"

# --- unreadable input -----------------------------------------------------
run missing pdn check "$tmp/no-such-file.pdn"
expect_rc missing 2
expect_line missing err "dama pdn check: cannot open '$tmp/no-such-file.pdn': No such file or directory"
[ ! -s "$tmp/missing.out" ] || fail "missing: unexpected stdout: $(cat "$tmp/missing.out")"

printf '[Event "x"]\n1. c3-d4 *\n\n[Event "y"]\n1. c3-d4 {not closed\n' >"$tmp/open.pdn"
run open pdn check "$tmp/open.pdn"
expect_rc open 2
expect_line open out "game 1 (x): ok, 1 ply"
expect_line open err "dama pdn check: $tmp/open.pdn:5 (game 2): comment '{' opened here is not closed by '}'"

printf '[Event "x]\n1. c3-d4 *\n' >"$tmp/tag.pdn"
run tag pdn check "$tmp/tag.pdn"
expect_rc tag 2
expect_line tag err "dama pdn check: $tmp/tag.pdn:1 (game 1): tag [Event \"x]: the value has no closing '\"' on its line"

printf '\x7fELF\x02\x01\x01\x00' >"$tmp/binary.pdn"
run binary pdn check "$tmp/binary.pdn"
expect_rc binary 2
expect_line binary err "dama pdn check: $tmp/binary.pdn:1 (game 1): byte 0x02 is not PDN text (is this a PDN file?)"

: >"$tmp/empty.pdn"
run empty pdn check "$tmp/empty.pdn"
expect_rc empty 2
expect_line empty err "dama pdn check: $tmp/empty.pdn: no PDN games found"

# --- moves after the rules ended the game: a warning, not a failure ------
printf '[FEN "W:WKc1,Ke1:BKh8"]\n1. c1-d2 h8-g7 2. d2-c1 g7-h8 3. c1-d2 h8-g7 4. d2-c1 g7-h8 5. c1-d2 h8-g7 6. d2-c1 *\n' >"$tmp/over.pdn"
run over pdn check "$tmp/over.pdn"
expect_rc over 0
expect_line over out "game 1: ok, 11 plies; warning: the rules ended the game after ply 10 (D8); 1 more plies replayed"

# --- usage errors ---------------------------------------------------------
run nogame pdn check "$file_1950" --game nosuchgame
expect_rc nogame 2
run nosub pdn
expect_rc nosub 2
run twofiles pdn check "$file_1950" "$file_1950"
expect_rc twofiles 2

if [ "$failures" -gt 0 ]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "pdn.sh: all checks passed"

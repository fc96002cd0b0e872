#!/usr/bin/env bash
# pdn.sh — `dama pdn check`: one line per game, the summary line, exit codes
# (0 every game replayed, 1 some game failed, 2 unreadable input).
# usage: bash pdn.sh DAMA_BINARY SOURCE_DIR
set -u
. "$(dirname "$0")/lib.sh"
file_1950="$SRC/data/games/russian_ussr_ch10_1950.pdn"
if [ ! -r "$file_1950" ]; then
    bad "cannot read $file_1950 (data/games/ of the repository)"
    finish pdn
    exit
fi

# --- a good file: the 1950 USSR championship, 153 games -------------------
expect_rc 0 good "$DAMA" pdn check "$file_1950"
expect_line out "153 games, 153 ok, 0 failed"
expect_line out "game 1 (Блиндер Б. - Миротин Б., X чемпионат СССР): ok, 61 plies"
n=$(grep -c ': ok, [0-9]* plies$' "$T/out")
[ "$n" = 153 ] && ok || bad "good: $n 'ok' lines, expected 153"
[ ! -s "$T/err" ] && ok || bad "good: unexpected stderr: $(cat "$T/err")"

# options may come after FILE, and before "check"
expect_rc 0 good_opt "$DAMA" pdn check "$file_1950" --game russian
expect_rc 0 good_opt2 "$DAMA" pdn --game russian check "$file_1950"

# --- a bad file: game 2 plays a man that is not there ----------------------
printf '%s\r\n' \
    '[Event "good"]' '[GameType "25"]' '[FEN "W:Wc3,e1:Bd4,f6,b6"]' '[Result "1-0"]' '' \
    '1. c3xg7 b6-a5 2. g7-h8 a5-b4 3. 31-26 bc3 4. d:b4 1-0' '' \
    '[Event "bad"]' '[FEN "W:Wc3,e1:Bd4,f6,b6"]' '' \
    '1. c3:g7 b6-a5 2. g7-h8 {comment} a5-b4' '3. c1-d2 b4-a3 1-0' '' \
    '[Event "warn"]' '[Result "1-0"]' '1. c3-d4 0-1' >"$T/bad.pdn"
expect_rc 1 bad "$DAMA" pdn check "$T/bad.pdn"
expect_line out "game 1 (good): ok, 7 plies"
expect_line out "game 2 (bad): cannot play 3. c1-d2 (ply 5, line 12) in position W:We1,Kh8:Bb4: illegal move 'c1-d2'"
expect_line out 'game 3 (warn): ok, 1 ply; warning: Result tag "1-0" (line 15) differs from the movetext result "0-1" (line 16)'
expect_line out "3 games, 2 ok, 1 failed, 1 warning"

# --- unreadable input -----------------------------------------------------
expect_rc 2 missing "$DAMA" pdn check "$T/no-such-file.pdn"
expect_line err "dama pdn check: cannot read PDN file '$T/no-such-file.pdn': No such file or directory"
[ ! -s "$T/out" ] && ok || bad "missing: unexpected stdout: $(cat "$T/out")"
# a folder: said as such (it was a read error "at line 1" of game 1)
mkdir -p "$T/folder.pdn"
expect_rc 2 folder "$DAMA" pdn check "$T/folder.pdn"
expect_eq "$(cat "$T/err")" "dama pdn check: '$T/folder.pdn' is a directory, not a PDN file" "pdn check of a folder"
[ ! -s "$T/out" ] && ok || bad "folder: unexpected stdout: $(cat "$T/out")"

printf '[Event "x"]\n1. c3-d4 *\n\n[Event "y"]\n1. c3-d4 {not closed\n' >"$T/open.pdn"
expect_rc 2 open "$DAMA" pdn check "$T/open.pdn"
expect_line out "game 1 (x): ok, 1 ply"
expect_line err "dama pdn check: $T/open.pdn:5 (game 2): comment '{' opened here is not closed by '}'"
expect_line out "1 game, 1 ok, 0 failed; the file could not be read past game 1 (see stderr)"

printf '[Event "x]\n1. c3-d4 *\n' >"$T/tag.pdn"
expect_rc 2 tag "$DAMA" pdn check "$T/tag.pdn"
expect_line err "dama pdn check: $T/tag.pdn:1 (game 1): tag [Event \"x]: the value has no closing '\"' on its line"

printf '\x7fELF\x02\x01\x01\x00' >"$T/binary.pdn"
expect_rc 2 binary "$DAMA" pdn check "$T/binary.pdn"
expect_line err "dama pdn check: $T/binary.pdn:1 (game 1): byte 0x02 is not PDN text (is this a PDN file?)"
# inside a comment or a variation too (a tab is text)
printf '[Result "*"]\n\n1. c3-d4 {x \000 y} f6-e5 *\n' >"$T/ctl1.pdn"
expect_err 2 "dama pdn check: $T/ctl1.pdn:3 (game 1): byte 0x00 is not PDN text" "$DAMA" pdn check "$T/ctl1.pdn"
printf '[Result "*"]\n\n1. c3-d4 (1... b6-a5 \001) f6-e5 *\n' >"$T/ctl2.pdn"
expect_err 2 "dama pdn check: $T/ctl2.pdn:3 (game 1): byte 0x01 is not PDN text" "$DAMA" pdn check "$T/ctl2.pdn"
printf '[Result "*"]\n\n1. c3-d4 ; x \001 y\nf6-e5 *\n' >"$T/ctl4.pdn"
expect_err 2 "dama pdn check: $T/ctl4.pdn:3 (game 1): byte 0x01 is not PDN text" "$DAMA" pdn check "$T/ctl4.pdn"
printf '[Result "*"]\n\n1. c3-d4 (1... b6-a5 ; \001\n) f6-e5 *\n' >"$T/ctl5.pdn"
expect_err 2 "byte 0x01 is not PDN text" "$DAMA" pdn check "$T/ctl5.pdn"
printf '[Result "*"]\n\n1. c3-d4 {a\tb} f6-e5 *\n' >"$T/ctl3.pdn"
expect_rc 0 "a tab in a comment" "$DAMA" pdn check "$T/ctl3.pdn"

: >"$T/empty.pdn"
expect_rc 2 empty "$DAMA" pdn check "$T/empty.pdn"
expect_line err "dama pdn check: $T/empty.pdn: no PDN games found"

# --- moves after the rules ended the game: a warning, not a failure ------
printf '[FEN "W:WKc1,Ke1:BKh8"]\n1. c1-d2 h8-g7 2. d2-c1 g7-h8 3. c1-d2 h8-g7 4. d2-c1 g7-h8 5. c1-d2 h8-g7 6. d2-c1 *\n' >"$T/over.pdn"
expect_rc 0 over "$DAMA" pdn check "$T/over.pdn"
expect_line out "game 1: ok, 11 plies; warning: the rules ended the game after ply 8 (D3); 3 more plies replayed"
# the result written against the one the rules gave: the last piece taken (1-0, not 0-1), D8 after ten
# plies of kings that never repeat a position three times, no piece left to move; the repetition of a
# Turkish game (its rule ends it too); the right result and "*" say nothing
printf '%s\n' '[FEN "W:Wc1:Bb2"]' '[Result "0-1"]' '' '1. c1:a3 0-1' '' \
  '[FEN "W:WKa1:BKb8"]' '[Result "1-0"]' '' '1. a1-b2 b8-a7 2. b2-c1 a7-b8 3. c1-d2 b8-a7 4. d2-e1 a7-b8 5. e1-f2 b8-a7 1-0' '' \
  '[FEN "B:Wa1:B"]' '[Result "0-1"]' '' '0-1' '' \
  '[FEN "W:Wc1:Bb2"]' '' '1. c1:a3 1-0' '' '[FEN "W:Wc1:Bb2"]' '' '1. c1:a3 *' >"$T/results.pdn"
expect_rc 0 "results against the rules" "$DAMA" pdn check "$T/results.pdn"
expect_line out 'game 1: ok, 1 ply; warning: the result "0-1" (line 4) is not the one the rules gave: 1-0 (no-moves) after ply 1'
expect_line out 'game 2: ok, 10 plies; warning: the result "1-0" (line 9) is not the one the rules gave: 1/2-1/2 (D8) after ply 10'
expect_line out 'game 3: ok, 0 plies; warning: the result "0-1" (line 14) is not the one the rules gave: 1-0 (no-moves) after ply 0'
expect_line out 'game 4: ok, 1 ply'
expect_line out 'game 5: ok, 1 ply'
printf '%s\n' '[GameType "30"]' '[FEN "W:WKa1,b2:BKh8,g7"]' '' '1. a1-a2 h8-h7 2. a2-a1 h7-h8 3. a1-a2 h8-h7 4. a2-a1 h7-h8 5. a1-a2 1-0' >"$T/turkrep.pdn"
expect_rc 0 "a Turkish repetition" "$DAMA" pdn check "$T/turkrep.pdn"
grep -q '^game 1: ok, 9 plies; warning: the rules ended the game after ply 8 (.*); 1 more ply replayed; the result "1-0" (line 4) is not the one the rules gave: 1/2-1/2' "$T/out" && ok || bad "a Turkish repetition: $(cat "$T/out")"

# --- a movetext without its result (a file cut off): a warning, on stderr too --
printf '%s\n' '[Event "whole"]' '[Result "1-0"]' '' '1. c3-d4 d6-c5 1-0' '' \
    '[Event "cut"]' '[White "a"]' '[Black "b"]' '[Result "1/2-1/2"]' '' '1. c3-d4 d6-c5 2. b2-c3 c7-d6' >"$T/cut.pdn"
expect_rc 0 cut "$DAMA" pdn check "$T/cut.pdn"
expect_line out "game 1 (whole): ok, 2 plies"
expect_line out 'game 2 (a - b, cut): ok, 4 plies; warning: no result after the last move (line 11): the game may be cut off (PDN ends every game with 1-0, 0-1, 1/2-1/2 or *; the Result tag (line 9) says "1/2-1/2")'
expect_line out "2 games, 2 ok, 0 failed, 1 warning"
expect_eq "$(cat "$T/err")" "dama pdn check: $T/cut.pdn: game 2: no result at the end of its movetext (line 11): the game may be cut off" "cut: stderr"
# one cut off before the next game's tags; "*" (unknown) is a result
printf '%s\n' '[Event "a"]' '1. c3-d4' '[Event "b"]' '1. c3-d4 *' >"$T/cut2.pdn"
expect_rc 0 cut2 "$DAMA" pdn check "$T/cut2.pdn"
expect_line out "game 1 (a): ok, 1 ply; warning: no result after the last move (line 2): the game may be cut off (PDN ends every game with 1-0, 0-1, 1/2-1/2 or *)"
expect_line out "game 2 (b): ok, 1 ply"
# many: the first three on stderr, then a count
for i in 1 2 3 4 5; do printf '[Event "e%d"]\n\n1. c3-d4\n\n' "$i"; done >"$T/cut5.pdn"
expect_rc 0 cut5 "$DAMA" pdn check "$T/cut5.pdn"
expect_eq "$(grep -c ': game [0-9]*: no result' "$T/err")" "3" "cut5: the first three on stderr"
expect_line err "dama pdn check: $T/cut5.pdn: 2 more games without a result at the end of their movetext (see the report on stdout)"
expect_line out "5 games, 5 ok, 0 failed, 5 warnings"

# a tag written twice: the first is read, a warning names both lines (once per name, any case)
printf '%s\n' '[GameType "25"]' '[FEN "W:W21:B10"]' '[White "a"]' '[FEN "W:W22:B11"]' '[white "b"]' '[WHITE "c"]' '' '1. a3-b4 *' >"$T/dup.pdn"
expect_rc 0 dup "$DAMA" pdn check "$T/dup.pdn"
expect_line out "game 1 (a - ?): ok, 1 ply; warning: FEN tag written again (line 4; first at line 2, which is read); white tag written again (line 5; first at line 3, which is read)"
expect_line out "1 game, 1 ok, 0 failed, 1 warning"

# --- the game a game's tags choose: GameType and Variant that disagree, or --game -----------
printf '%s\n' '[Event "both"]' '[GameType "25"]' '[Variant "turkish"]' '' '1. c3-d4 *' '' \
    '[Event "tagged"]' '[GameType "25"]' '' '1. c3-d4 *' >"$T/tags.pdn"
expect_rc 0 tags "$DAMA" pdn check "$T/tags.pdn"
w1='GameType tag "25" (line 2, russian) and Variant tag "turkish" (line 3, turkish) name different games: read as russian, by the GameType'
expect_line out "game 1 (both): ok, 1 ply; warning: $w1"
expect_line out "game 2 (tagged): ok, 1 ply"
expect_line out "2 games, 2 ok, 0 failed, 1 warning"
expect_line err "dama pdn check: $T/tags.pdn: game 1: $w1"
w2='GameType tag "25" (line 8) names russian, not --game turkish (which is for games without a GameType or Variant tag): read as russian'
expect_rc 0 tags_game "$DAMA" pdn check "$T/tags.pdn" --game turkish
expect_line err "dama pdn check: $T/tags.pdn: game 2: $w2"
expect_line out "game 2 (tagged): ok, 1 ply; warning: $w2"
expect_rc 0 tags_same_game "$DAMA" pdn check "$T/tags.pdn" --game russian
expect_eq "$(grep -c 'not --game' "$T/out")" "0" "--game naming the tags' game: no warning"
# a file of many: the first three on stderr, then a count
for i in 1 2 3 4 5; do printf '[GameType "25"]\n\n1. c3-d4 *\n\n'; done >"$T/five.pdn"
expect_rc 0 five "$DAMA" pdn check "$T/five.pdn" --game turkish
expect_eq "$(grep -c ': game [0-9]*: GameType' "$T/err")" "3" "the first three warnings on stderr"
expect_line err "dama pdn check: $T/five.pdn: 2 more games whose tags and --game name different games (see the report on stdout)"

# --- usage errors ---------------------------------------------------------
expect_rc 2 nogame "$DAMA" pdn check "$file_1950" --game nosuchgame
expect_rc 2 nosub "$DAMA" pdn
expect_rc 2 twofiles "$DAMA" pdn check "$file_1950" "$file_1950"

# bytes of the file that are not text reach the report escaped, never raw;
# UTF-8 names as they are
printf '[Event "x\xff\xfe"]\n[White "\xc4\x8cech"]\n[Result "*"]\n1. c3-d4 f6-e5 \xe9 *\n' >"$T/raw.pdn"
"$DAMA" pdn check "$T/raw.pdn" >"$T/raw.out" 2>/dev/null
[ $? = 1 ] && ok || bad "pdn check of a bad move: exit not 1"
sed 's/Čech//g' "$T/raw.out" | LC_ALL=C grep -q $'[\x80-\xff]' && bad "raw bytes in the report: $(od -c "$T/raw.out" | head -3)" || ok
grep -qF 'game 1 (Čech - ?, x\xFF\xFE): cannot play 2. \xE9 (ply 3, line 4)' "$T/raw.out" && ok || bad "escaped report: $(cat "$T/raw.out")"

# tags and move numbers that disagree with the game: read, and said
printf '[GameType "25"]\n[Result "*"]\n5. c3-d4 f6-e5 9. d4xf6 g7xe5 *\n' >"$T/num.pdn"
expect_eq "$("$DAMA" pdn check "$T/num.pdn" 2>/dev/null | head -1)" "game 1: ok, 4 plies; warning: move number 5 (line 3) where move 1 is due (the start position); move number 9 (line 3) where move 6 is due" "a wrong move number"
# a first mover's move under the number of the move before is said ("1... f6-e5" is its move's number again)
for mt in "1. c3-d4 f6-e5 1. d4xf6 *:move number 1 (line 3) where move 2 is due" \
  "1. c3-d4 f6-e5 2. d4xf6 g7xe5 2. a3-b4 *:move number 2 (line 3) where move 3 is due" "1. c3-d4 1... f6-e5 2. d4xf6 *:" \
  "1. c3-d4 f6-e5 2. d4xf6 2... g7xe5 *:" \
  "1. c3-d4 f6-e5 d4xf6 g7xe5 *:" "1. c3-d4 f6-e5 d4xf6 g7xe5 3. a3-b4 *:" \
  "1. c3-d4 f6-e5 d4xf6 g7xe5 2. a3-b4 *:move number 2 (line 3) where move 3 is due"; do
  printf '[GameType "25"]\n[Result "*"]\n%s\n' "${mt%%:*}" >"$T/num2.pdn"
  got=$("$DAMA" pdn check "$T/num2.pdn" 2>/dev/null | head -1)
  case "${mt#*:}" in "") [[ "$got" != *warning* ]] ;; *) [[ "$got" == *"warning: ${mt#*:}" ]] ;; esac && ok || bad "${mt%%:*}: $got"
done
# a tag section with no movetext, then an empty line and the next game's tags: a game cut off after
# its tags, said, not joined to the next (whose moves were read under the first one's tags); tags
# without an empty line between stay one game's (a tag written again is said)
printf '[Event "one"]\n[GameType "30"]\n[Result "1-0"]\n\n[Event "two"]\n[Result "0-1"]\n1. c3-d4 f6-g5 0-1\n' >"$T/cut.pdn"
"$DAMA" pdn check "$T/cut.pdn" >"$T/cut.out" 2>/dev/null
expect_eq "$(head -1 "$T/cut.out")" 'game 1 (one): ok, 0 plies; warning: no moves and no result (the game starts at line 1): the game may be cut off (PDN ends every game with 1-0, 0-1, 1/2-1/2 or *; the Result tag (line 3) says "1-0")' "a game cut off after its tags"
expect_eq "$(sed -n 2p "$T/cut.out")" "game 2 (two): ok, 2 plies" "the game after it, read as Russian under its own tags"
printf '[Event "one"]\n[Event "two"]\n1. c3-d4 *\n' >"$T/twice.pdn"
expect_eq "$("$DAMA" pdn check "$T/twice.pdn" 2>/dev/null | head -1)" "game 1 (one): ok, 1 ply; warning: Event tag written again (line 2; first at line 1, which is read)" "a tag written again in one section"
# a result after a game's result is no game of its own: said
printf '[Event "x"]\n1. c3-d4 f6-g5 1/2-1/2 0-1\n' >"$T/res2.pdn"
expect_eq "$("$DAMA" pdn check "$T/res2.pdn" 2>/dev/null | sed -n 2p)" 'game 2: ok, 0 plies; warning: a result alone ("0-1", line 2), with no tags and no moves: one written twice?' "a result written twice"
# "N..." marks the second mover's move: before the first mover's it is said; before Black's (after a FEN) it is right
printf '1... c3-d4 *\n' >"$T/dots.pdn"
expect_eq "$("$DAMA" pdn check "$T/dots.pdn" 2>/dev/null | head -1)" "game 1: ok, 1 ply; warning: '1...' (line 1) before a move of White, which moves first ('1.')" "N... before White's move"
printf '[SetUp "1"]\n[FEN "B:Wc3:Bd4"]\n1... d4:b2 *\n' >"$T/dots2.pdn"
expect_eq "$("$DAMA" pdn check "$T/dots2.pdn" 2>/dev/null | head -1)" "game 1: ok, 1 ply" "N... before Black's move"
# from a FEN any first number is the text's (a FEN carries none)
printf '[GameType "25"]\n[SetUp "1"]\n[FEN "W:Wc3:Bf6"]\n7. c3-d4 f6-e5 *\n' >"$T/numfen.pdn"
expect_eq "$("$DAMA" pdn check "$T/numfen.pdn" 2>/dev/null | head -1)" "game 1: ok, 2 plies" "a first move number after a FEN"
printf '[GameType "25"]\n[SetUp "1"]\n[Result "*"]\n1. c3-d4 *\n' >"$T/su1.pdn"
expect_eq "$("$DAMA" pdn check "$T/su1.pdn" 2>/dev/null | head -1)" 'game 1: ok, 1 ply; warning: SetUp tag "1" (line 2) and no FEN tag: read from the start position' "SetUp 1 without FEN"
printf '[GameType "25"]\n[SetUp "0"]\n[FEN "W:Wc3:Bf6"]\n[Result "*"]\n1. c3-d4 *\n' >"$T/su0.pdn"
expect_eq "$("$DAMA" pdn check "$T/su0.pdn" 2>/dev/null | head -1)" 'game 1: ok, 1 ply; warning: SetUp tag "0" (line 2) and a FEN tag (line 3): the FEN is read' "SetUp 0 with a FEN"
expect_eq "$("$DAMA" pdn check "$file_1950" 2>/dev/null | tail -1)" "153 games, 153 ok, 0 failed" "the 1950 championship: no warning"

finish pdn

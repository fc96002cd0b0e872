#!/usr/bin/env bash
# `dama play` with scripted input: moves (full and short forms), bad moves,
# takeback, resign, draw offers accepted and declined, the end of a game,
# the engine playing first, Shatra's threatened Biy in red, International's
# 10x10 board, bad options.
# Usage: play.sh DAMA_BINARY SOURCE_DIR
set -u
. "$(dirname "$0")/lib.sh"
has() { grep -q -- "$2" "$1" && ok || bad "$3: no '$2' in: $(tail -c 800 "$1")"; }
hasnt() { grep -q -- "$2" "$1" && bad "$3: unexpected '$2'" || ok; }
# play NAME INPUT ARGS...: stdin INPUT, output in $T/NAME.out, exit status must be 0 (killed after
# 300 s: a hang, far beyond what any game here needs on a loaded machine)
play() {
  printf '%b' "$2" | timeout 300 "$DAMA" play "${@:3}" >"$T/$1.out" 2>"$T/$1.err"
  rc=$?
  want=0
  case "$1" in eof*) want=3 ;; esac # the input ran out mid-game: exit 3
  [ "$rc" = "$want" ] && ok || bad "play $1 exit $rc (want $want): $(head -c 300 "$T/$1.err")"
}

# 1. a Russian game: list, a short form, a bad move, takeback, resign
play ru 'moves\ncd4\nzz\nundo\nundo\nc3-d4\nresign\n' --level beginner --seed 3
has "$T/ru.out" 'you play White, dama plays Black at level beginner' "banner"
has "$T/ru.out" '^  a3-b4 c3-d4 e3-f4 g3-h4 c3-b4 e3-d4 g3-f4$' "moves listed"
has "$T/ru.out" "^ 8    ●   ●   ●   ●" "board top rank (Black's men)"
has "$T/ru.out" "^ 1  ○   ○   ○   ○" "board bottom rank (White's men)"
has "$T/ru.out" '^    a b c d e f g h$' "files"
has "$T/ru.out" "'zz' is no command and no move (type 'help'" "a word that is no command named"
has "$T/ru.out" '^took back 2 plies$' "takeback"
has "$T/ru.out" '^nothing of yours to take back$' "nothing to take back at the start"
has "$T/ru.out" '^you resign: 0-1 (dama wins)$' "resign"
[ "$(grep -c '^dama plays ' "$T/ru.out")" = 2 ] && ok || bad "two engine moves: $(grep '^dama plays' "$T/ru.out")"
has "$T/ru.out" '^moves: 1\. c3-d4 [a-h][1-8]-[a-h][1-8]$' "movetext after takeback"
# same seed, same game; the engine's replies are legal moves
play ru2 'moves\ncd4\nzz\nundo\nundo\nc3-d4\nresign\n' --level beginner --seed 3
[ "$(grep '^dama plays' "$T/ru.out")" = "$(grep '^dama plays' "$T/ru2.out")" ] && ok || bad "seeded level not deterministic"
reply=$(grep '^dama plays' "$T/ru.out" | tail -1 | cut -d' ' -f3)
"$DAMA" moves --fen 'B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,d4:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8' | grep -qx -- "$reply" && ok || bad "reply '$reply' legal"

# a line with a NUL byte is said and ignored, not cut at the NUL and played
play nul 'c3-d4\0x\nquit\n' --level beginner --seed 3
has "$T/nul.out" '^that line has a NUL byte at column 6: ignored$' "a NUL byte named"
hasnt "$T/nul.out" '^dama plays' "nothing played from a line with a NUL byte"
has "$T/nul.out" '^moves:$' "no move stored"

# 2. draw offers: accepted when the engine is lost, declined when it wins
play drawlost 'draw\n' --fen 'W:WKa1,Kc1,Ke1,Kg1:Bh8' --level depth=6
has "$T/drawlost.out" '^dama accepts the draw (its score -' "lost engine accepts"
play drawwon 'draw\nquit\n' --fen 'W:Wa1:BKh8,Kf8,Kd8,Kb8' --level depth=6
has "$T/drawwon.out" '^dama declines the draw (its score +' "winning engine declines"
has "$T/drawwon.out" '^game left unfinished$' "quit"
play drawshatra 'draw\nquit\n' --game shatra --side black --fen '3/3/3/1/6k/7/7/7/7/K6/Q/3/3/3 b - - - - 0 1' --level club
has "$T/drawshatra.out" '^dama declines the draw' "shatra: Batyr up declines"

#    the engine resigns a game its search sees lost, and offers a draw after
#    three moves scored 0 (here: the kings can only repeat or run into D8)
play resign 'quit\n' --fen 'B:WKa1,Kc1,Ke1,Kg1:Bh8' --level depth=6
has "$T/resign.out" '^dama resigns: 1-0 (you win)$' "engine resigns"
play offer 'a1-b2\nb2-a1\na1-b2\nyes\n' --fen 'W:WKa1:BKh2' --level depth=12
has "$T/offer.out" '^dama offers a draw: accept? (yes/no) yes$' "engine offers a draw"
has "$T/offer.out" '^draw agreed: 1/2-1/2$' "draw agreed"
play offer2 'a1-b2\nb2-a1\na1-b2\nno\nb2-a1\n' --fen 'W:WKa1:BKh2' --level depth=12
has "$T/offer2.out" '^you decline the draw$' "draw declined"
has "$T/offer2.out" '^game over: 1/2-1/2 D3 (draw)$' "then the repetition ends it"

# 3. the game ends by play: the capture leaves Black without a move
play win 'c3:e5\n' --fen 'W:Wc3:Bd4'
has "$T/win.out" '^game over: 1-0 no-moves (you win)$' "win by play"
has "$T/win.out" '^moves: 1\. c3:e5$' "final movetext"
play lose 'h2-g3\n' --fen 'W:Wh2:Bf4,Kd8' --level depth=4
has "$T/lose.out" '^game over: 0-1' "loss by play"

# 4. the engine moves first when you take Black; Turkish notation
play tk 'moves\nquit\n' --game turkish --side black --level depth=3
head -c 600 "$T/tk.out" | grep -q 'you play Black' && ok || bad "side black"
first=$(grep -m1 '^dama plays' "$T/tk.out" | cut -d' ' -f3)
"$DAMA" moves --game turkish | grep -qx -- "$first" && ok || bad "engine's first Turkish move '$first'"
has "$T/tk.out" '^ 1  ● ● ● ● ● ● ● ●$\|^ 1 ' "Black's view: rank 1 at the top"
[ "$(grep -n '^ 1 ' "$T/tk.out" | head -1 | cut -d: -f1)" -lt "$(grep -n '^ 8 ' "$T/tk.out" | head -1 | cut -d: -f1)" ] && ok || bad "flipped board"

# 5. Shatra: a threatened Biy in red with colour, plain without
F='3/3/3/1/4Qk1/7/7/7/7/K6/1/3/3/3 b - - - - 0 1'
play red 'quit\n' --game shatra --fen "$F" --side black --color always
grep -q $'\e\[1;31m♚\e\[0m' "$T/red.out" && ok || bad "red Biy with --color always"
has "$T/red.out" "Black's Biy can be captured" "threat line"
play plain 'quit\n' --game shatra --fen "$F" --side black
grep -q $'\e' "$T/plain.out" && bad "escape codes when not a terminal" || ok
has "$T/plain.out" "Black's Biy can be captured" "threat line without colour"
play nocolor 'quit\n' --game shatra --fen "$F" --side black --color always --no-color
grep -q $'\e' "$T/nocolor.out" && bad "--no-color" || ok
play shmove '49-42\nquit\n' --game shatra --level beginner
has "$T/shmove.out" '^moves: 1\. 49-42 [0-9]' "shatra move and reply"
has "$T/shmove.out" '^  state: w 1-10,53-62 ' "shatra state line"

# 6. the moves numbered in pairs from the game's first mover: a Russian
# game from a position with Black to move, an English game (Black first,
# dama's move: the person plays White)
play ru_black 'b6-a5\nquit\n' --side black --fen 'B:Wa1,c3:Bb6,h8' --level depth=1
has "$T/ru_black.out" '^moves: 1\.\.\. b6-a5 2\. [a-h][1-8]-[a-h][1-8]$' "a game from a Black-to-move position"
play en '22-18\nquit\n' --game english --level depth=1
has "$T/en.out" '^dama plays [0-9]*-[0-9]*$' "English: dama (Black) moves first"
has "$T/en.out" '^moves: 1\. [0-9]*-[0-9]* 22-18 2\. [0-9]*[-x][0-9]*$' "English moves numbered from Black's"

# 7. International: the 10x10 board with the numbers 1-50 beside it (turned for Black), the king's
#    captures of rules example E5 (two share start and end: the route names one)
play in_e5 'moves\n6x3\n6x28x14x3\nquit\n' --game international --fen 'W:WK6:B9,17,23,30,37' --level depth=1
has "$T/in_e5.out" '^     ·   ·   ·   ·   ·     1  2  3  4  5$' "International: the top row, 1-5"
has "$T/in_e5.out" '^   ◎   ·   ·   ●   ·       6  7  8  9 10$' "International: the king on 6, a man on 9"
has "$T/in_e5.out" '^   ·   ·   ·   ·   ·      46 47 48 49 50$' "International: the bottom row, 46-50"
has "$T/in_e5.out" '^  6x35 6x28x14x3 6x39x25x3$' "International: E5's three captures"
has "$T/in_e5.out" "ambiguous move '6x3': 6x28x14x3 or 6x39x25x3" "International: start and end name two"
has "$T/in_e5.out" '^     ·   ·   ◎   ·   ·     1  2  3  4  5$' "International: the king ends on 3"
has "$T/in_e5.out" '^moves: 1\. 6x28x14x3 \(30\|37\)-[0-9]*$' "International: the route played, Black's man answers"
play in_black 'quit\n' --game international --side black --level depth=1
has "$T/in_black.out" '^     ○   ○   ○   ○   ○    50 49 48 47 46$' "International for Black: 50 at the top left"

# 8. end of input and bad options
play eof 'c3-d4\n' --level depth=2
has "$T/eof.out" 'end of input: game left unfinished' "eof"
play eof_empty '' --level depth=2
has "$T/eof_empty.out" 'end of input: game left unfinished' "eof before a move"
# squares written without their separator, a square that is no square
play badmoves 'c3d4\nc3-z4\nfoo3\nquit\n' --level depth=1
has "$T/badmoves.out" "move 'c3d4': unexpected 'd' at character 3 (a move joins its squares with '-', a capture" "squares without a separator"
has "$T/badmoves.out" "move 'c3-z4': bad square 'z4' at character 4" "a square off the board"
has "$T/badmoves.out" "move 'foo3': bad square 'oo3' at character 2" "a word with a digit is read as a move"
# input that cannot be read (a folder) is an error, not the end of input
"$DAMA" play --no-color --level depth=1 <"$T" >"$T/out" 2>"$T/err"
expect_eq "$?" 1 "play with a folder as input: exit 1"
expect_eq "$(cat "$T/err")" "dama play: cannot read the input: Is a directory" "play with a folder as input: the message"
expect_rc 2 "bad side" "$DAMA" play --side green
grep -q "dama play: --side green: expected white or black" "$T/err" && ok || bad "bad side message"
expect_rc 2 "bad level" "$DAMA" play --level wizard
grep -q "level 'wizard'" "$T/err" && ok || bad "bad level message"
expect_rc 2 "bad level number" "$DAMA" play --level depth=x
expect_rc 2 "bad colour" "$DAMA" play --color sometimes
expect_rc 1 "bad fen" "$DAMA" play --fen 'W:Wz9:Bb8'
grep -q "z9" "$T/err" && ok || bad "bad fen message"
expect_rc 1 "bad weights" "$DAMA" play --weights /nonexistent
expect_rc 0 "help" "$DAMA" play --help
# --level N: a value out of range named with the range of search's --depth, --nodes and --movetime
for lv in "depth=101:depth: '101' is out of range 1..100" "nodes=0:nodes: '0' is out of range 1..1000000000000000" \
  "time=86400001:time: '86400001' is out of range 1..86400000" "depth=x:depth: 'x' is not an integer" \
  "speed=3:expected beginner, casual, club, strong, max, depth=N, nodes=N or time=MS"; do
  "$DAMA" play --level "${lv%%:*}" </dev/null >/dev/null 2>"$T/err"
  expect_eq "$?:$(cat "$T/err")" "2:dama play: --level '${lv%%:*}': ${lv#*:}" "play --level ${lv%%:*}"
done

finish "play"

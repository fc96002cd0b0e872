#!/usr/bin/env bash
# CLI contract tests: moves, perft, search, bench, and bad input handling
# (options: abbreviations and typos refused with dama's own messages).
# Usage: commands.sh DAMA_BINARY SOURCE_DIR
set -u
. "$(dirname "$0")/lib.sh"

START='W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8'
# moves: the start position has 7 quiet moves.
expect_eq "$("$DAMA" moves --game russian --fen "$START" | sort | tr '\n' ' ')" "a3-b4 c3-b4 c3-d4 e3-d4 e3-f4 g3-f4 g3-h4 " "start moves"
# a capture chain with every landing square
expect_eq "$("$DAMA" moves --fen 'W:Wc3:Bd4,f6,d6' | sort | tr '\n' ' ')" "c3:e5:c7 c3:e5:g7 " "capture chain"
# --file: FEN TAB moves
printf '%s\nW:Wc3:Bd4,f6,d6\n' "$START" >"$T/fens"
expect_eq "$("$DAMA" moves --file "$T/fens" | tail -1)" "$(printf 'W:Wc3:Bd4,f6,d6\tc3:e5:g7 c3:e5:c7')" "moves --file"
# a line 'start' is read as --fen start is (the start position, its FEN printed)
printf 'start\nW:Wc3:Bd4\n' >"$T/startfens"
expect_rc 0 "moves --file with a line 'start'" "$DAMA" moves --file "$T/startfens"
expect_eq "$(head -1 "$T/out")" "$(printf 'W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8\t%s' "$("$DAMA" moves --fen start | tr '\n' ' ' | sed 's/ $//')")" "moves --file: start"
expect_eq "$(tail -1 "$T/out")" "$(printf 'W:Wc3:Bd4\tc3:e5')" "moves --file: the line after start"
expect_err 2 "dama moves: give --fen or --file, not both" "$DAMA" moves --file "$T/startfens" --fen start
expect_eq "$("$DAMA" moves --game international --file "$T/startfens" 2>/dev/null | head -1 | cut -f1)" "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20" "moves --file: the game's start"
# perft
expect_eq "$("$DAMA" perft --depth 6 2>/dev/null)" "perft 6 37986" "perft 6"
expect_eq "$("$DAMA" perft --depth 3 --divide 2>/dev/null | tail -1)" "perft 3 302" "perft divide total"
expect_eq "$("$DAMA" perft --depth 3 --divide 2>/dev/null | grep -c '^[a-h]')" "7" "perft divide lines"
# search: node-limited searches are deterministic; bench count is stable
s1=$("$DAMA" search --nodes 20000 --quiet)
s2=$("$DAMA" search --nodes 20000 --quiet)
expect_eq "$s1" "$s2" "node-limited search deterministic"
echo "$s1" | grep -q '^bestmove [a-h][1-8]-[a-h][1-8]$' && ok || bad "search prints bestmove: $s1"
b1=$("$DAMA" bench --depth 7 | head -1)
b2=$("$DAMA" bench --depth 7 | head -1)
expect_eq "$b1" "$b2" "bench node count stable"
# the TT clear before each position is timed apart from the searches
"$DAMA" bench --depth 3 --repeat 3 >"$T/bench.out"
grep -qE '^tt clear: [0-9]+\.[0-9]{2} ms per position, 7 positions \(median of 3; 16 MiB table, not in the search time\)$' "$T/bench.out" && ok ||
  bad "bench: no tt clear line: $(cat "$T/bench.out")"
[ "$(grep -c . "$T/bench.out")" = 3 ] && ok || bad "bench: 3 lines expected: $(cat "$T/bench.out")"
#   at depth 1 the searches take microseconds of CPU, the 7 clears of 16 MiB
#   milliseconds: the searches' CPU time (nodes / nodes per CPU second; a
#   loaded machine stretches wall time, not CPU time) must be below the
#   clears' by far (a search that held them would take as long)
"$DAMA" bench --depth 1 --repeat 5 >"$T/bench.out"
awk '/^bench / {n = $5} /^search:/ {r = $(NF - 5) * 1e6} /^tt clear:/ {c = $3 * 7 / 1000}
  END {exit !(r > 0 && n / r < c / 4)}' "$T/bench.out" && ok ||
  bad "bench --depth 1: the search time is not below the TT clears': $(cat "$T/bench.out")"
# a won position: no legal move for the side to move
expect_eq "$("$DAMA" search --fen 'W:WKa1:Bb2,c3' --depth 3 | head -1)" "bestmove (none)" "no move"
# a limit that ends the search within its first iteration (20 kings a side, 10 nodes): the move
# is the first iteration's best so far, said on stderr; the PV line still starts with it
F20="W:W$(seq -s, -f K%g 31 50):B$(seq -s, -f K%g 1 20)"
expect_rc 0 "search ended within its first iteration" "$DAMA" search --game international --fen "$F20" --nodes 10 --quiet
expect_eq "$(sed -n '3p;5p' "$T/out" | tr '\n' '|')" "depth 0|pv $(sed -n 's/^bestmove //p' "$T/out")|" \
  "no iteration completed: depth 0, the PV is the move"
expect_line err "note: the limit ended the search within its first iteration: the move is the best of those searched so far, and its score is no measure (give more time or nodes)"
# help on every command
for c in moves perft search bench selfplay tune export match pdn status; do
  expect_rc 0 "$c --help" "$DAMA" "$c" --help
done
expect_rc 2 "unknown command" "$DAMA" frobnicate
expect_err 2 "dama help: unknown command 'frobnicate'" "$DAMA" help frobnicate
expect_rc 0 "help on a command" "$DAMA" help match
"$DAMA" --help perft >"$T/h1" 2>&1 && "$DAMA" perft --help >"$T/h2" 2>&1 && cmp -s "$T/h1" "$T/h2" && ok ||
  bad "dama --help perft is not perft's help: $(head -2 "$T/h1")"
expect_err 2 "dama help: give one command name, --man or --markdown" "$DAMA" help --markdown --man
expect_err 2 "dama help: give one command name" "$DAMA" help perft search
# bad input: clear message, non-zero exit, no crash
expect_rc 1 "bad FEN side" "$DAMA" moves --fen 'X:Wa1:Bb8'
grep -q "side to move" "$T/err" && ok || bad "bad FEN message: $(cat "$T/err")"
expect_rc 1 "light square" "$DAMA" moves --fen 'W:Wa2:Bb8'
grep -q "a2 is not a playing square" "$T/err" && ok || bad "light square message"
expect_rc 1 "garbage FEN" "$DAMA" perft --fen 'hello' --depth 1
expect_rc 2 "bad depth" "$DAMA" perft --depth abc
grep -q "not an integer" "$T/err" && ok || bad "bad depth message"
expect_rc 2 "unknown game" "$DAMA" moves --game chess
# a value-taking option left last without its value is said to need one, also after an action's
# word (it took the word, which getopt had moved after it: "name an action")
expect_err 2 "dama egtb: --fen needs a value (see 'dama egtb --help')" "$DAMA" egtb probe --fen
expect_err 2 "dama egtb: --dir needs a value (see 'dama egtb --help')" "$DAMA" egtb probe --dir
# an option before the command: options follow the command, said so
expect_err 2 "dama: '--game' before the command: options follow the command (dama COMMAND --game ...; dama help lists the commands)" \
  "$DAMA" --game russian search --depth 2
# options are written in full: the start of one is refused naming it (getopt_long took search's
# --moves for --movestogo), however written; a whole name keeps its value, even one that begins '--'
expect_err 2 "dama search: unknown option --moves (options are written in full): did you mean --movestogo? (see 'dama search --help')" \
  "$DAMA" search --moves 3 --nodes 100 --quiet
expect_err 2 "unknown option --moves (options are written in full): did you mean --movestogo?" "$DAMA" search --nodes 100 --moves=3
expect_err 2 "dama selfplay: unknown option --n (options are written in full): --nodes, --no-egtb begin so" "$DAMA" selfplay --n 3
expect_err 2 "unknown option --he (options are written in full): did you mean --help?" "$DAMA" moves --he
expect_err 2 "unknown option --conf (options are written in full): did you mean --config?" "$DAMA" moves --conf x.cfg
# a typo that begins no option gets dama's message too (getopt's own said "unrecognized option"),
# and so do a short option that is none, a missing value and a value for a flag; never getopt's
typo() {
    expect_err 2 "$@"
    ! grep -qE "unrecognized|invalid option|requires an argument|allow an argument" "$T/err" && ok \
        || bad "getopt's own message for ${*:2}: $(cat "$T/err")"
}
typo "dama moves: unknown option --frob (see 'dama moves --help')" "$DAMA" moves --frob
typo "dama match: unknown option --nodez (see 'dama match --help')" "$DAMA" match --nodez=5 --pairs 1
typo "dama search: unknown option -x (see 'dama search --help')" "$DAMA" search -x --nodes 100 --quiet
typo "dama search: --nodes needs a value (see 'dama search --help')" "$DAMA" search --quiet --nodes
typo "dama search: --quiet takes no value (see 'dama search --help')" "$DAMA" search --nodes 100 --quiet=1
expect_err 2 "unexpected argument '--mov'" "$DAMA" moves -- --mov
expect_err 1 "bad position string '--nodes'" "$DAMA" search --fen --nodes --nodes 5 --quiet
expect_rc 0 "a whole option with =" "$DAMA" search --nodes=100 --quiet
expect_rc 1 "missing fen file" "$DAMA" moves --file "$T/nope"
printf 'W:Wc3:Bd4\nW:Wz9:Bd4\n' >"$T/badfens"
expect_rc 1 "bad line in fen file" "$DAMA" moves --file "$T/badfens"
grep -q "line 2" "$T/err" && ok || bad "fen file line number"
# a blank line (or one of blanks) is an error naming the file and line, not skipped: the output is one line
# per position, and the other lines are still answered
printf 'W:Wc3:Bd4\n\nW:Wc3:Bd4,f6\n \t\r\nW:Wc3:Bd4\n' >"$T/blankfens"
expect_err 1 "dama moves: $T/blankfens line 2: a blank line, not a position (one position per line)" \
  "$DAMA" moves --file "$T/blankfens"
grep -q "blankfens line 4: a blank line" "$T/err" && ok || bad "the second blank line named: $(cat "$T/err")"
expect_eq "$(cut -f1 "$T/out" | tr '\n' ' ')" "W:Wc3:Bd4 W:Wc3:Bd4,f6 W:Wc3:Bd4 " "the positions around the blank lines answered"
# bad config file: named with its line
printf 'selfplay = { games = ; };\n' >"$T/bad.cfg"
expect_rc 2 "bad config" "$DAMA" selfplay --config "$T/bad.cfg"
grep -q "bad.cfg:1" "$T/err" && ok || bad "config error names file and line: $(cat "$T/err")"
printf 'selfplay = { gmaes = 10; };\n' >"$T/typo.cfg"
expect_rc 2 "unknown config key" "$DAMA" selfplay --config "$T/typo.cfg"
printf 'perfft = { depth = 3; };\n' >"$T/group.cfg"
expect_rc 2 "misspelt command group" "$DAMA" perft --config "$T/group.cfg"
grep -q "unknown command group 'perfft'" "$T/err" && ok || bad "group message: $(cat "$T/err")"
printf 'perft = { depth = 3; };\ndepth = 2' >"$T/cut.cfg" # cut from "depth = 20;": valid, and another value
expect_rc 2 "config file cut short" "$DAMA" perft --config "$T/cut.cfg"
grep -q "cut.cfg:2: the last line has no end of line" "$T/err" && ok || bad "cut config names line 2: $(cat "$T/err")"
printf 'game = "russian";\nweights = { KING = 30' >"$T/wcut.cfg"
expect_rc 1 "weight file cut short" "$DAMA" search --weights "$T/wcut.cfg" --depth 2
grep -q "wcut.cfg:2: the last line has no end of line" "$T/err" && ok || bad "cut weight file names line 2: $(cat "$T/err")"
# bad weight files
printf 'game = "russian";\nweights = { KING = 300; NOPE = 1; };\n' >"$T/w1.cfg"
expect_rc 1 "unknown weight term" "$DAMA" search --weights "$T/w1.cfg" --depth 2
grep -q "unknown term 'NOPE'" "$T/err" && ok || bad "weight term message: $(cat "$T/err")"
printf 'game = "russian";\nweights = { MAN_PST = [1, 2]; };\n' >"$T/w2.cfg"
expect_rc 1 "short weight table" "$DAMA" search --weights "$T/w2.cfg" --depth 2
printf 'game = "turkish";\nweights = { };\n' >"$T/w3.cfg"
expect_rc 1 "weight file of another game" "$DAMA" search --weights "$T/w3.cfg" --depth 2
# foreign database file
echo "not a database" >"$T/foreign.sqlite"
expect_rc 1 "foreign database" "$DAMA" selfplay --db "$T/foreign.sqlite" --games 2
grep -qi "not a dama database\|not an SQLite" "$T/err" && ok || bad "foreign db message: $(cat "$T/err")"
expect_rc 1 "missing database for tune" "$DAMA" tune --db "$T/missing.sqlite"

# status: what a game app shows
expect_eq "$("$DAMA" status | tr '\n' ' ')" "result * side white moves 7 capture no " "status start"
expect_eq "$("$DAMA" status --fen 'W:WKa1:Bb2,c3' | head -1)" "result 0-1 no-moves" "status lost"
expect_eq "$("$DAMA" status --game turkish --fen 'W:Wa2:Bh7' | head -1)" "result 1/2-1/2 one-each" "status one-each"
# status --moves: replay with the whole history (threefold repetition counted)
expect_eq "$("$DAMA" status --moves 'c3-d4 f6-e5 d4:f6 g7:e5' | head -3 | tr '\n' ' ')" "fen W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3:Be5,b6,d6,h6,a7,c7,e7,b8,d8,f8,h8 plies 4 result * " "status --moves"
expect_eq "$("$DAMA" status --fen 'W:WKa1:BKb8' --moves 'a1-b2 b8-a7 b2-a1 a7-b8 a1-b2 b8-a7 b2-a1 a7-b8' | sed -n 3p)" "result 1/2-1/2 D3" "status --moves threefold"
expect_eq "$("$DAMA" status --fen 'W:WKa1:BKb8' --moves 'a1-b2 b8-a7 b2-a1 a7-b8' | sed -n 3p)" "result *" "status --moves twofold"
expect_rc 1 "status illegal move" "$DAMA" status --moves 'c3-d4 c3-d4'
grep -qx "dama status: --moves: move 2: illegal move 'c3-d4'" "$T/err" && ok || bad "status names the bad move: $(cat "$T/err")"
expect_rc 1 "status move after the end" "$DAMA" status --fen 'W:WKa1:BKb8' --moves 'a1-b2 b8-a7 b2-a1 a7-b8 a1-b2 b8-a7 b2-a1 a7-b8 a1-b2'
# search with a clock: the time manager spends a fraction of it
expect_rc 0 "search --time" "$DAMA" search --time 2000 --inc 20 --quiet
grep -q '^bestmove ' "$T/out" && ok || bad "search --time prints bestmove"
expect_rc 2 "search --inc without --time" "$DAMA" search --inc 20
# search parameters: listed, overridden, bad ones named
# name, value, default, min, max, step: the table's default, or the game's own (Russian's and Turkish's, by SPSA)
"$DAMA" search --list-params --game international | grep -q '^ASP_WINDOW  *20  *20  *5  *200  *5 ' && ok || bad "list-params ASP_WINDOW line"
"$DAMA" search --list-params --game turkish | grep -q '^ASP_WINDOW  *12  *12  *5  *200  *5 ' && ok || bad "list-params: Turkish's own ASP_WINDOW"
"$DAMA" search --list-params | grep -q '^ASP_WINDOW  *11  *11  *5  *200  *5 ' && ok || bad "list-params: Russian's own ASP_WINDOW"
# a constant that does nothing in the game (it is refused there) is not listed there
expect_eq "$("$DAMA" search --list-params --game turkish | grep -c '^ROYAL_EXT\|^QS_EVASIONS')" 0 "list-params: no royal-piece constants in Turkish"
expect_eq "$("$DAMA" search --list-params --game shatra | grep -c '^ROYAL_EXT\|^QS_EVASIONS')" 2 "list-params: Shatra's royal-piece constants"
expect_eq "$("$DAMA" search --list-params --search-param ASP_WINDOW=40 --search-param LMR_BASE=0 | awk '$1 == "ASP_WINDOW" || $1 == "LMR_BASE" {print $2}' | tr '\n' ' ')" "40 0 " "search-param repeatable"
# a bad --search-param is a bad option value: exit 2, as hub, spsa --tune-search and tournament answer it
expect_err 2 "dama search: --search-param: unknown search parameter 'NOPE'" "$DAMA" search --depth 2 --search-param NOPE=1
expect_err 2 "dama search: --search-param: search parameter ASP_WINDOW=1 outside its range" "$DAMA" search --depth 2 \
  --search-param ASP_WINDOW=1
expect_rc 2 "bad --search-param with --list-params" "$DAMA" search --list-params --search-param NOPE=1
printf 'ASP_WINDOW = 30  # wider\nLMR_BASE=50\n' >"$T/sp.txt"
expect_eq "$("$DAMA" search --list-params --search-params "$T/sp.txt" | awk '$1 == "ASP_WINDOW" || $1 == "LMR_BASE" {print $2}' | tr '\n' ' ')" "30 50 " "search-params file"
printf 'ASP_WINDOW 30\n' >"$T/sp2.txt"
expect_rc 1 "bad search-params file" "$DAMA" search --depth 2 --search-params "$T/sp2.txt"
grep -q "sp2.txt line 1: search parameter 'ASP_WINDOW 30': expected NAME=VALUE" "$T/err" && ok || bad "names the file item: $(cat "$T/err")"
# an error names its line; a constant set twice in one file is refused (the later value won unseen)
printf '# constants\nLMR_BASE=50\n\nNOPE=1\n' >"$T/sp4.txt"
expect_err 1 "dama search: $T/sp4.txt line 4: unknown search parameter 'NOPE'" "$DAMA" search --depth 2 --search-params "$T/sp4.txt"
printf 'LMR_BASE=50, ASP_WINDOW=30 # two\nLMR_DIV=160\n LMR_BASE = 60\n' >"$T/sp5.txt"
expect_err 1 "dama search: $T/sp5.txt line 3: LMR_BASE is set again (first on line 1)" "$DAMA" search --depth 2 \
  --search-params "$T/sp5.txt"
expect_err 2 "dama search: --search-param: search parameter LMR_BASE is given twice" "$DAMA" search --depth 1 \
  --search-param LMR_BASE=50 --search-param LMR_BASE=60
printf 'LMR_BASE=50, ASP_WINDOW=30 # LMR_BASE=1\nLMR_DIV=160\n' >"$T/sp6.txt"
expect_eq "$("$DAMA" search --list-params --search-params "$T/sp6.txt" | awk '$1 == "ASP_WINDOW" || $1 == "LMR_BASE" || $1 == "LMR_DIV" {print $2}' | tr '\n' ' ')" \
  "30 50 160 " "a file of several items a line, a name in a comment"
# a byte that is no text is named with its line (a byte-order mark made the first name "unknown", a NUL hid the rest)
printf '\xef\xbb\xbfLMR_BASE=50\n' >"$T/sp7.txt"
expect_err 1 "dama search: $T/sp7.txt line 1: a byte-order mark (U+FEFF) at column 1" "$DAMA" search --depth 1 \
  --search-params "$T/sp7.txt"
printf 'LMR_BASE=50\nLMR_DIV=1\000060\n' >"$T/sp8.txt"
expect_err 1 "dama search: $T/sp8.txt line 2: a NUL byte at column 10" "$DAMA" search --depth 1 --search-params "$T/sp8.txt"
# a constant that does nothing in the game (a royal piece's, in games without one): refused as a bad value
for g in russian turkish; do
  expect_err 2 "dama search: --search-param: search parameter ROYAL_EXT does nothing in $g: it applies only to games with a royal piece" \
    "$DAMA" search --game $g --depth 2 --search-param ROYAL_EXT=1
done
expect_err 2 "dama search: --search-param: search parameter QS_EVASIONS does nothing in international" "$DAMA" search --game international \
  --list-params --search-param QS_EVASIONS=1
printf 'ROYAL_EXT=1\n' >"$T/sp3.txt"
expect_err 1 "dama search: $T/sp3.txt line 1: search parameter ROYAL_EXT does nothing in russian" "$DAMA" search --depth 2 \
  --search-params "$T/sp3.txt"
expect_eq "$("$DAMA" search --game shatra --list-params --search-param ROYAL_EXT=0 | awk '$1 == "ROYAL_EXT" {print $2, $3}')" \
  "0 1" "ROYAL_EXT in Shatra (its default 1)"
s3=$("$DAMA" search --depth 6 --threads 2 --quiet | head -1)
echo "$s3" | grep -q '^bestmove [a-h][1-8]-[a-h][1-8]$' && ok || bad "search --threads 2: $s3"
expect_eq "$("$DAMA" bench --print-fens | head -1)" "$START" "bench --print-fens"
# bench --book: every Nth line of a book; its node total is the sum of the
# same depth-limited searches one by one (a fresh table each)
printf '# three\nI-1\t%s\nI-2\tB:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,d4:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8\nI-3\tW:WKa1,c3,e3,g3:BKh8,b6,d6\n' "$START" >"$T/b3.tsv"
expect_eq "$("$DAMA" bench --book "$T/b3.tsv" --book-every 2 --print-fens | tr '\n' ' ')" "$START W:WKa1,c3,e3,g3:Bb6,d6,Kh8 " "bench --book --book-every --print-fens"
n1=$("$DAMA" search --fen "$START" --depth 6 --quiet | awk '/^nodes/ {print $2}')
n3=$("$DAMA" search --fen 'W:WKa1,c3,e3,g3:BKh8,b6,d6' --depth 6 --quiet | awk '/^nodes/ {print $2}')
expect_eq "$("$DAMA" bench --book "$T/b3.tsv" --book-every 2 --depth 6 | head -1)" "bench russian depth 6: $((n1 + n3)) nodes" "bench --book node total"
expect_rc 1 "bench --book missing file (bad input, as selfplay --openings)" "$DAMA" bench --book "$T/none.tsv"
grep -q "none.tsv" "$T/err" && ok || bad "names the file: $(cat "$T/err")"
printf 'a\tW:Wzz\n' >"$T/bad.tsv"
expect_rc 1 "bench --book bad position" "$DAMA" bench --book "$T/bad.tsv"
grep -q "bad.tsv line 1: bad position string 'W:Wzz'" "$T/err" && ok || bad "names file, line and position: $(cat "$T/err")"
expect_rc 2 "bench --book-every 0" "$DAMA" bench --book "$T/b3.tsv" --book-every 0
expect_err 2 "dama bench: --search-param: unknown search parameter 'NOPE'" "$DAMA" bench --search-param NOPE=1 # as search's
expect_err 2 "dama bench: --search-param: search parameter LMR_DIV=5 outside its range" "$DAMA" bench --search-param LMR_DIV=5
expect_err 2 "dama bench: --search-param: search parameter ROYAL_EXT does nothing in turkish: it applies only to games with a royal piece" \
  "$DAMA" bench --game turkish --search-param ROYAL_EXT=1
# Turkish: moves and published perft (P convention)
expect_eq "$("$DAMA" perft --game turkish --depth 5 --paths 2>/dev/null)" "perft 5 85090" "turkish perft 5"
expect_eq "$("$DAMA" moves --game turkish | wc -l)" "8" "turkish start moves"

# Shatra: a legal position with 1,101 moves (the move list once stopped at
# 512); a position where the side that just moved has no Biy is refused.
BIG='3/3/3/1/1s3s1/2s2rs/1rss1q1/sKbQbs1/1R1s1s1/1RB2sB/1/3/3/k2 w - - - - 0 1'
expect_eq "$("$DAMA" moves --game shatra --fen "$BIG" | wc -l)" "1101" "shatra 1101 moves"
expect_eq "$("$DAMA" perft --game shatra --fen "$BIG" --depth 1 2>/dev/null)" "perft 1 1101" "shatra perft 1101"
expect_rc 1 "shatra without the mover's Biy" "$DAMA" status --game shatra --fen '3/3/3/1/7/7/7/7/7/7/K/3/3/3 w - - - - 0 1'
grep -q "has no Biy" "$T/err" && ok || bad "no-Biy message: $(cat "$T/err")"
expect_eq "$("$DAMA" perft --game shatra --depth 3 2>/dev/null)" "perft 3 62761" "shatra perft 3"

# standard output that cannot be written (a full disk): exit 1 and a message, never 0 with the output lost
if [ -w /dev/full ]; then
  expect_rc 1 "moves to a full disk" sh -c "'$DAMA' moves >/dev/full"
  grep -q "dama moves: writing standard output: No space left on device" "$T/err" && ok || bad "full-disk message: $(cat "$T/err")"
  expect_rc 1 "perft --divide to a full disk" sh -c "'$DAMA' perft --depth 3 --divide >/dev/full"
  expect_rc 1 "status to a full disk" sh -c "'$DAMA' status >/dev/full"
  expect_rc 1 "--version to a full disk" sh -c "'$DAMA' --version >/dev/full"
  grep -q "^dama version: writing standard output" "$T/err" && ok || bad "--version full-disk message: $(cat "$T/err")"
  expect_rc 2 "a bad option keeps its exit code" sh -c "'$DAMA' moves --bogus >/dev/full"
fi

finish "commands"

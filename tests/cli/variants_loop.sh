#!/usr/bin/env bash
# The draughts variants of issue 28, the six 8x8 ones (brazilian, pool,
# english, czech, italian, spanish), International (10x10, squares 1-50)
# and Canadian (12x12, squares 1-72), through dama's loop as a user runs it, each on a tiny scale:
# self-play -> tune -> export (the header compiled in place of the game's
# weights.h) -> match; the Hub engine (positions and moves in the game's
# own notation); PDN export and `pdn check` of the stored games (GameType,
# numbered FEN and moves, move pairs that begin with the first mover: Black
# in English and Pool); endgame databases on known results. International
# also through the rest (perft, bench, train, tournament, ratings, report,
# spsa, play, weight files' 10 rows of 5) and bad input across the boards
# (an 8x8 position to International, a 10x10 one to an 8x8 game).
# Usage: variants_loop.sh DAMA_BINARY SOURCE_DIR
set -u
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1
has() { grep -q -- "$2" "$1" && ok || bad "$3: no '$2' in: $(head -c 400 "$1")"; }

declare -A GAMETYPE=([brazilian]=26 [pool]=23 [english]=21 [czech]=29 [italian]=22 [spanish]=24 [international]=20 [canadian]=27)
# the start position, with ranges in the numbered games (readers accept them; the writer lists every square)
declare -A RANGES=([brazilian]="W:W21-32:B1-12" [pool]="B:W21-32:B1-12" [english]="B:W21-32:B1-12"
  [italian]="W:W21-32:B1-12" [spanish]="W:W1-12:B21-32"
  [czech]="W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
  [international]="W:W31-50:B1-20" [canadian]="W:W43-72:B1-30")
# a capture the side to move must make, and how it is written
declare -A CAPTURE=([brazilian]="B:W18:B14 14x23" [pool]="B:W18:B14 14x23" [english]="B:W18:B14 14x23"
  [czech]="W:Wc3:Bd4 c3:e5" [italian]="W:W22:B18 22x13" [spanish]="W:W10:B14 10x19" [international]="W:W32:B28 32x23x28" [canadian]="W:W50:B44 50x37")
# the first mover's moves at the start
declare -A START_MOVES=([brazilian]=7 [pool]=7 [english]=7 [czech]=7 [italian]=7 [spanish]=7 [international]=9 [canadian]=11)
NUM_FEN='^[WB]:WK\?[0-9][0-9]*\(,K\?[0-9][0-9]*\)*:BK\?[0-9][0-9]*\(,K\?[0-9][0-9]*\)*$'
ALG_FEN='^[WB]:WK\?[a-h][1-8]\(,K\?[a-h][1-8]\)*:BK\?[a-h][1-8]\(,K\?[a-h][1-8]\)*$'
NUM_MOVE='^[0-9][0-9]*\(-[0-9][0-9]*\|\(x[0-9][0-9]*\)\+\)$'
ALG_MOVE='^[a-h][1-8]\(-[a-h][1-8]\|\(:[a-h][1-8]\)\+\)$'

# every word of a movetext is a move number (N. or N...), a result or a move matching $2
movetext_ok() {
  local w
  for w in $1; do
    case "$w" in *.) continue ;; 1-0 | 0-1 | 1/2-1/2 | \*) continue ;; esac
    grep -q -- "$2" <<<"$w" || return 1
  done
}

for g in brazilian pool english czech italian spanish international canadian; do
  db="$T/$g.sqlite"
  q() { sqlite3 "$db" "$1"; }
  if [ "$g" = czech ]; then fen_re=$ALG_FEN move_re=$ALG_MOVE; else fen_re=$NUM_FEN move_re=$NUM_MOVE; fi
  case "$g" in english | pool) first=B side=black ;; *) first=W side=white ;; esac
  upper=$(tr a-z A-Z <<<"$g")

  # the start: the first mover and the notation
  expect_rc 0 "$g status" "$DAMA" status --game "$g"
  expect_line out "side $side"
  expect_rc 0 "$g moves" "$DAMA" moves --game "$g"
  [ "$(wc -l <"$T/out")" = "${START_MOVES[$g]}" ] && [ "$(grep -cv -- "$move_re" "$T/out")" = 0 ] && ok || bad "$g start moves: $(cat "$T/out")"

  # self-play: the games stored in the game's notation
  expect_rc 0 "$g selfplay" "$DAMA" selfplay --game "$g" --db "$db" --games 8 --nodes 500 --threads 2 --progress 0
  expect_eq "$(q "SELECT count(*), sum(game = '$g') FROM games")" "8|8" "$g games stored"
  expect_eq "$(q "SELECT game, status FROM runs WHERE kind = 'selfplay'")" "$g|done" "$g self-play run"
  expect_eq "$(q "SELECT count(*) FROM games g WHERE plies != (SELECT count(*) FROM positions p WHERE p.game_id = g.id)")" 0 "$g positions of every ply"
  bad_fen=$(q "SELECT start_fen FROM games" | grep -cv -- "$fen_re")
  expect_eq "$bad_fen" 0 "$g start positions in the game's notation ($(q 'SELECT start_fen FROM games LIMIT 1'))"
  if [ "$g" = english ]; then
    # the ACF three-move deck: three plies, White to move, every start one of the deck's
    expect_eq "$(q "SELECT count(*) FROM games WHERE substr(start_fen, 1, 1) = 'W'")" 8 "english openings: White to move after three moves"
    expect_eq "$(q "SELECT DISTINCT start_fen FROM games" | grep -cvxFf <(cut -f2 "$SRC/data/openings/english_3move_156.tsv"))" 0 "english openings dealt from the three-move deck"
  else
    # four random plies from the start: the first mover is to move again
    expect_eq "$(q "SELECT count(*) FROM games WHERE substr(start_fen, 1, 1) = '$first'")" 8 "$g openings end with the first mover to move"
  fi
  mt=$(q "SELECT movetext FROM games ORDER BY game_index LIMIT 1")
  movetext_ok "$mt" "$move_re" && ok || bad "$g movetext: $mt"
  if [ "$g" = english ]; then
    [ "${mt%% *}" = "1..." ] && ok || bad "english movetext begins with White's move 1...: $mt"
  else
    [ "${mt%% *}" = "1." ] && ok || bad "$g movetext begins with the first mover's move 1.: $mt"
  fi

  # tune: a new weight set from the compiled-in one, written as a weight file of the game
  expect_rc 0 "$g tune" "$DAMA" tune --game "$g" --db "$db" --epochs 40 --valid 0.001 --out "$T/$g.cfg"
  expect_eq "$(q "SELECT count(*) FROM weight_sets WHERE how LIKE 'tuned%' AND parent_id IS NOT NULL")" 1 "$g tuned weight set"
  grep -qx "game = \"$g\";" "$T/$g.cfg" && ok || bad "$g weight file's game: $(head -3 "$T/$g.cfg")"
  # without --game (russian): refused, naming the game the database holds
  expect_err 1 "its self-play games are of $g (--game $g), not russian" "$DAMA" tune --db "$db" --epochs 2 --out "$T/x.cfg"

  # export: the generated header compiles in place of engine/games/G/weights.h
  expect_rc 0 "$g export" "$DAMA" export --game "$g" --db "$db" --weights tuned --out "$T/$g-weights.h"
  has "$T/$g-weights.h" "^#define ${upper}_WEIGHTS_GAME \"$g\"$" "$g header's game"
  mkdir -p "$T/inc/engine/games/$g"
  cp "$T/$g-weights.h" "$T/inc/engine/games/$g/weights.h"
  if cc -std=gnu11 -DDAMA_POPCNT=1 -I"$T/inc" -I"$SRC" -I"$SRC/include" -Wall -Wextra -Werror -fsyntax-only \
    "$SRC/engine/games/$g/$g.c" 2>"$T/cc.err"; then ok; else bad "$g: the exported header does not compile in $g.c: $(head -c 400 "$T/cc.err")"; fi
  printf '#include "%s"\nint main(void) { return %s_weights[0] == 100 ? 0 : 1; }\n' "$T/$g-weights.h" "$g" >"$T/use.c"
  if cc -std=c99 -Wall -Wextra -Werror "$T/use.c" -o "$T/use" 2>"$T/cc.err" && "$T/use"; then ok; else bad "$g header alone: $(head -c 400 "$T/cc.err")"; fi

  # match: the tuned set against the compiled-in one, stored
  expect_rc 0 "$g match" "$DAMA" match --game "$g" --db "$db" --pairs 2 --nodes 500 --progress 0
  grep -q "^Games 4:" "$T/out" && ok || bad "$g match summary: $(cat "$T/out")"
  expect_eq "$(q "SELECT games, wins + draws + losses FROM matches")" "4|4" "$g match row"

  # PDN: every stored game exported and replayed
  expect_rc 0 "$g pdn export" "$DAMA" pdn export --db "$db" --out "$T/$g.pdn"
  expect_eq "$(grep -c "^\[GameType \"${GAMETYPE[$g]}\"\]$" "$T/$g.pdn")" 12 "$g GameType tags"
  expect_eq "$(grep -c "^\[Variant \"$g\"\]$" "$T/$g.pdn")" 12 "$g Variant tags"
  expect_eq "$(sed -n 's/^\[FEN "\(.*\)"\]$/\1/p' "$T/$g.pdn" | grep -cv -- "$fen_re")" 0 "$g FEN tags in the game's notation"
  expect_rc 0 "$g pdn check" "$DAMA" pdn check "$T/$g.pdn"
  expect_line out "12 games, 12 ok, 0 failed"

  # Hub: the game's position strings (ranges too) and moves
  start=${RANGES[$g]}
  m1=$("$DAMA" moves --game "$g" --fen "$start" | head -1)
  m2=$("$DAMA" moves --game "$g" --fen "$("$DAMA" status --game "$g" --fen "$start" --moves "$m1" | sed -n 's/^fen //p')" | head -1)
  after=$("$DAMA" status --game "$g" --fen "$start" --moves "$m1 $m2" | sed -n 's/^fen //p')
  read -r cfen cmove <<<"${CAPTURE[$g]}"
  printf 'hub\nset-param name=variant value=%s\ninit\npos pos=%s moves="%s %s"\nlevel nodes=2000\ngo think\n' \
    "$g" "$start" "$m1" "$m2" >"$T/hub.in"
  timeout 300 "$DAMA" hub <"$T/hub.in" >"$T/hub.out" 2>&1 && ok || bad "$g hub session: $(head -c 300 "$T/hub.out")"
  grep -q '^error' "$T/hub.out" && bad "$g hub error: $(grep '^error' "$T/hub.out")" || ok
  done_move=$(sed -n 's/^done move=\([^ ]*\).*/\1/p' "$T/hub.out")
  # International speaks Hub's strings: a capture is start x end x the captured squares
  [ "$g" = international ] && case "$done_move" in *x*x*) done_move=$(cut -dx -f1,2 <<<"$done_move") ;; esac
  [ -n "$done_move" ] && "$DAMA" moves --game "$g" --fen "$after" | grep -qxF -- "$done_move" && ok ||
    bad "$g hub: done move '$done_move' is not legal in $after"
  printf 'hub\nset-param name=variant value=%s\ninit\npos pos=%s\nlevel depth=3\ngo think\n' "$g" "$cfen" >"$T/hubc.in"
  timeout 300 "$DAMA" hub <"$T/hubc.in" >"$T/hubc.out" 2>&1
  has "$T/hubc.out" "^done move=$cmove\( \|$\)" "$g hub capture"
done

# ---- International beyond the loop above (its database: self-play, tune, match) ----
g=international db="$T/$g.sqlite"
q() { sqlite3 "$db" "$1"; }
# perft: the published start counts (D), a ring capture that two routes take (P counts both)
expect_rc 0 "international perft" "$DAMA" perft --game $g --depth 4
expect_line out "perft 4 4265"
ring="W:W27:B22,23,32,33"
expect_rc 0 "international ring moves" "$DAMA" moves --game $g --fen "$ring"
expect_eq "$(cat "$T/out")" "27x18x29x38x27" "international ring capture (start = end: the full route)"
expect_rc 0 "international perft D" "$DAMA" perft --game $g --fen "$ring" --depth 1
expect_line out "perft 1 1"
expect_rc 0 "international perft --paths" "$DAMA" perft --game $g --fen "$ring" --depth 1 --paths
expect_line out "perft 1 2"
# search and bench: a legal best move; the bench's perft is the published D8
expect_rc 0 "international search" "$DAMA" search --game $g --depth 5 --quiet
best=$(sed -n 's/^bestmove //p' "$T/out")
"$DAMA" moves --game $g | grep -qxF -- "$best" && ok || bad "international search: best move '$best' is not legal at the start"
expect_rc 0 "international bench --perft" "$DAMA" bench --game $g --perft
grep -q "^bench international depth [0-9]*: [1-9][0-9]* nodes$" "$T/out" && ok || bad "international bench: $(head -c 300 "$T/out")"
grep -q "^perft international depth 8: 6483961 leaves" "$T/out" && ok || bad "international bench --perft: $(grep perft "$T/out")"
# the openings: random lines (no book), four plies, within the balance (+-60) of a 2000-node search
expect_eq "$(q "SELECT count(DISTINCT start_fen) > 2 FROM games WHERE run_id = 1")" 1 "international: the pairs' openings differ"
for fen in $(q "SELECT DISTINCT start_fen FROM games WHERE run_id = 1"); do
  sc=$("$DAMA" search --game $g --fen "$fen" --nodes 2000 --hash 1 --quiet | sed -n 's/^score //p')
  [ -n "$sc" ] && [ "$sc" -ge -60 ] && [ "$sc" -le 60 ] && ok || bad "international opening $fen: score '$sc' beyond +-60"
done
expect_eq "$(q "SELECT count(*) FROM games WHERE run_id = 1 AND length(opening) - length(replace(opening, ' ', '')) != 3")" 0 \
  "international openings are four plies"
# weight files and headers lay the 50-square tables out as the board: 10 rows of 5
rows_of() { # FILE START-LINE-PATTERN: the numbers per line of the 10 lines after the match
  awk -v pat="$2" '$0 ~ pat { n = 10; next } n > 0 { n--; gsub(/[^-0-9]+/, " "); print NF }' "$1" | tr '\n' ' '
}
expect_eq "$(rows_of "$T/$g.cfg" "^  MAN_PST = \\\\[")" "5 5 5 5 5 5 5 5 5 5 " "international weight file: MAN_PST in 10 rows of 5"
expect_eq "$(rows_of "$T/$g-weights.h" "MAN_PST \\\\[2\\\\.\\\\.51\\\\]")" "5 5 5 5 5 5 5 5 5 5 " "international header: MAN_PST in 10 rows of 5"
expect_rc 0 "international export json" "$DAMA" export --game $g --db "$db" --weights tuned --format json --out "$T/$g.json"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); t = {x["name"]: len(x["values"]) for x in d["terms"]}
sys.exit(not (d["game"] == "international" and t["MAN_PST"] == 50 and t["MAN_PST_EG"] == 50))' "$T/$g.json" && ok || bad "international JSON terms"
expect_rc 0 "international export cfg" "$DAMA" export --game $g --db "$db" --weights tuned --format cfg --out "$T/$g-2.cfg"
expect_eq "$(grep -v '^#' "$T/$g-2.cfg" | md5sum)" "$(grep -v '^#' "$T/$g.cfg" | md5sum)" "international: export --format cfg is tune's weight file"
for w in "$T/$g.json" "$T/$g-2.cfg"; do
  expect_rc 0 "international search --weights $w" "$DAMA" search --game $g --weights "$w" --depth 2 --quiet
done
# train (one tiny generation), tournament (with a Hub process), ratings, report, spsa
expect_rc 0 "international train" "$DAMA" train --game $g --db "$T/train.sqlite" --generations 1 --games-per-gen 4 --nodes 200 \
  --epochs 10 --gate-pairs 2 --ladder-pairs 1 --elo0 -400 --elo1 -200 --threads 2 --progress 0
expect_eq "$(sqlite3 "$T/train.sqlite" "SELECT game, status FROM trains")" "$g|done" "international train"
expect_eq "$(sqlite3 "$T/train.sqlite" "SELECT count(*) FROM generations")" 2 "international train generations"
expect_rc 0 "international tournament" "$DAMA" tournament --game $g --db "$db" --nodes 200 --rounds 1 --max-plies 120 --concurrency 2 --progress 0 \
  --pdn-out "$T/tour.pdn" name=A,weights=default name=B,weights=tuned "name=H,cmd=$DAMA hub"
expect_eq "$(q "SELECT count(*), sum(game = '$g') FROM games WHERE run_id = (SELECT max(id) FROM runs)")" "6|6" "international tournament games"
expect_rc 0 "international tournament pdn check" "$DAMA" pdn check "$T/tour.pdn"
expect_line out "6 games, 6 ok, 0 failed"
expect_rc 0 "international ratings" "$DAMA" ratings --db "$db" --tournament 1
expect_eq "$(grep -cE '^ +[0-9]+ +[ABH] ' "$T/out")" 3 "international ratings: three players"
expect_rc 0 "international report" "$DAMA" report --db "$db" --game $g -o "$T/report.html"
grep -q "International draughts, round-robin\|$g, round-robin" "$T/report.html" && ok || bad "international report: no tournament"
expect_rc 0 "international spsa" "$DAMA" spsa --game $g --db "$T/spsa.sqlite" --iterations 2 --pairs 1 --nodes 200 --threads 2 \
  --progress 0 --out "$T/spsa.cfg"
grep -qx "game = \"$g\";" "$T/spsa.cfg" && ok || bad "international spsa weight file: $(head -3 "$T/spsa.cfg")"
# play: the board numbered 1-50, a bad move named, resign
printf 'moves\n32-28\nzz\n17-99\nresign\n' | timeout 300 "$DAMA" play --game $g --level beginner --seed 3 >"$T/play.out" 2>&1 && ok || bad "international play"
has "$T/play.out" "^  31-27 32-28 33-29 34-30 31-26 32-27 33-28 34-29 35-30$" "international play: the start moves"
has "$T/play.out" "  1  2  3  4  5$" "international play: the top row's numbers"
has "$T/play.out" " 46 47 48 49 50$" "international play: the bottom row's numbers"
has "$T/play.out" "'zz' is no command and no move" "international play: a word that is no move"
has "$T/play.out" "move '17-99': bad square '99' at character 4 (International draughts names squares with numbers 1..50)" \
  "international play: a square off the board"
has "$T/play.out" "^you resign: 0-1 (dama wins)$" "international play: resign"

# ---- Bad input across the boards: refused, naming the game and the square; nothing stored ----
# (a numbered 8x8 position whose squares are all <= 32 is a legal 10x10 position, other squares: it is read as one)
F10="W:W31-50:B1-20" A8="W:Wa1,c1,e1:Bh8,f8" N10="W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20"
for c in moves status "perft --depth 1" "search --depth 1"; do
  expect_err 1 "'$A8': bad square at character 4 (International draughts names squares with numbers 1..50)" "$DAMA" $c --game $g --fen "$A8"
  expect_err 1 "bad square range (squares are 1..32 in Brazilian draughts)" "$DAMA" $c --game brazilian --fen "$F10"
  expect_err 1 "bad square number '33' at character 10 (squares are 1..32 in Czech draughts)" "$DAMA" $c --game czech --fen "$N10"
done
expect_err 1 "bad position string 'W:Wa1:Bh8': bad square at character 4 (International" "$DAMA" play --game $g --fen "W:Wa1:Bh8"
printf 'x\t%s\n' "$A8" >"$T/book8.tsv"
printf 'y\t%s\n' "$F10" >"$T/book10.tsv"
for c in "selfplay --games 2 --nodes 100" "match --pairs 1 --nodes 100 --a default --b default" "spsa --iterations 1 --pairs 1 --nodes 100 --out $T/bad.cfg"; do
  set -- $c
  expect_err 1 "book8.tsv line 1: bad position string '$A8': bad square at character 4 (International draughts" \
    "$DAMA" $c --game $g --db "$T/bad8.sqlite" --openings "$T/book8.tsv" --progress 0
  expect_err 1 "book10.tsv line 1: bad position string '$F10': bad square range (squares are 1..32 in Brazilian" \
    "$DAMA" $c --game brazilian --db "$T/bad10.sqlite" --openings "$T/book10.tsv" --progress 0
done
expect_err 1 "book8.tsv line 1: bad position string" "$DAMA" tournament --game $g --db "$T/bad8.sqlite" --openings "$T/book8.tsv" \
  --nodes 100 --progress 0 name=A name=B
expect_err 1 "book10.tsv line 1: bad position string" "$DAMA" bench --game brazilian --book "$T/book10.tsv"
for f in bad8 bad10; do
  stored=$(sqlite3 "$T/$f.sqlite" "SELECT (SELECT count(*) FROM games) + (SELECT count(*) FROM runs)" 2>/dev/null)
  [ -z "$stored" ] || [ "$stored" = 0 ] && ok || bad "$f: a refused book left $stored games and runs"
done
printf '%s\n' '[GameType "20"]' '[FEN "W:Wa1,c1:Bh8"]' '' '*' '' '[GameType "26"]' "[FEN \"$F10\"]" '' '*' '' \
  '[GameType "20,W,8,8,N2,0"]' '' '1. 32-28 *' '' '[GameType "20,W,10,10,N2,0"]' '' '1. 32-28 19-23 2. 28x19 14x23 *' >"$T/bad.pdn"
expect_rc 1 "pdn check across the boards" "$DAMA" pdn check "$T/bad.pdn"
expect_line out "game 1: FEN tag (line 2): bad position string 'W:Wa1,c1:Bh8': bad square at character 4 (International draughts names squares with numbers 1..50)"
expect_line out "game 2: FEN tag (line 7): bad position string '$F10': bad square range (squares are 1..32 in Brazilian draughts)"
expect_line out "game 3: GameType \"20,W,8,8,N2,0\" (line 11) gives the board 8x8, but International draughts (GameType 20) is played on 10x10"
expect_line out "game 4: ok, 4 plies"

# Endgame databases: results the rule books' players know.
# egtb_is GAME DIR FEN WANT: the probe's first line begins with WANT
egtb_is() {
  "$DAMA" egtb probe --game "$1" --dir "$2" --fen "$3" >"$T/probe.out" 2>&1
  case "$(head -1 "$T/probe.out")" in "$4"*) ok ;; *) bad "$1 egtb $3: expected $4, got: $(head -c 300 "$T/probe.out")" ;; esac
}
# flying kings: three kings against one on the long diagonal draw, off it they win; king against king draws
declare -A LONG=([brazilian]="W:WK1,K2,K3:BK29 W:WK1,K2,K3:BK30 W:WK18:BK3" [pool]="W:WK1,K2,K3:BK29 W:WK1,K2,K3:BK30 W:WK18:BK3"
  [czech]="W:WKb8,Kd8,Kf8:BKa1 W:WKb8,Kd8,Kf8:BKc1 W:WKc3:BKf8" [spanish]="W:WK29,K30,K31:BK1 W:WK29,K30,K31:BK2 W:WK18:BK3")
for g in brazilian pool czech spanish; do
  expect_rc 0 "$g egtb build" "$DAMA" egtb build --game "$g" --dir "$T/egtb-$g" --material 3k-1k --threads 2
  read -r on off kk <<<"${LONG[$g]}"
  egtb_is "$g" "$T/egtb-$g" "$on" "draw"
  egtb_is "$g" "$T/egtb-$g" "$off" "win in "
  egtb_is "$g" "$T/egtb-$g" "$kk" "draw"
done
# short kings: two kings beat one, even in the double corner; king against king in the double corners draws
expect_rc 0 "english egtb build" "$DAMA" egtb build --game english --dir "$T/egtb-english" --material 2k-1k --threads 2
egtb_is english "$T/egtb-english" "W:WK18,K19:BK1" "win in "
egtb_is english "$T/egtb-english" "B:WK18,K19:BK1" "loss in "
egtb_is english "$T/egtb-english" "W:WK1:BK32" "draw"
expect_rc 0 "italian egtb build" "$DAMA" egtb build --game italian --dir "$T/egtb-italian" --material 2k-1k --threads 2
egtb_is italian "$T/egtb-italian" "W:WK18,K19:BK29" "win in "
egtb_is italian "$T/egtb-italian" "W:WK4:BK29" "draw"

finish "variants loop"

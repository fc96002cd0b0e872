#!/usr/bin/env bash
# The six 8x8 variants of issue 28 (brazilian, pool, english, czech,
# italian, spanish) through dama's loop as a user runs it, each on a tiny
# scale: self-play -> tune -> export (the header compiled in place of the
# game's weights.h) -> match; the Hub engine (positions and moves in the
# game's own notation); PDN export and `pdn check` of the stored games
# (GameType, numbered FEN and moves, move pairs that begin with the first
# mover: Black in English and Pool); endgame databases on known results.
# Usage: variants_loop.sh DAMA_BINARY SOURCE_DIR
set -u
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1
has() { grep -q -- "$2" "$1" && ok || bad "$3: no '$2' in: $(head -c 400 "$1")"; }

declare -A GAMETYPE=([brazilian]=26 [pool]=23 [english]=21 [czech]=29 [italian]=22 [spanish]=24)
# the start position, with ranges in the numbered games (readers accept them; the writer lists every square)
declare -A RANGES=([brazilian]="W:W21-32:B1-12" [pool]="B:W21-32:B1-12" [english]="B:W21-32:B1-12"
  [italian]="W:W21-32:B1-12" [spanish]="W:W1-12:B21-32"
  [czech]="W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8")
# a capture the side to move must make, and how it is written
declare -A CAPTURE=([brazilian]="B:W18:B14 14x23" [pool]="B:W18:B14 14x23" [english]="B:W18:B14 14x23"
  [czech]="W:Wc3:Bd4 c3:e5" [italian]="W:W22:B18 22x13" [spanish]="W:W10:B14 10x19")
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

for g in brazilian pool english czech italian spanish; do
  db="$T/$g.sqlite"
  q() { sqlite3 "$db" "$1"; }
  if [ "$g" = czech ]; then fen_re=$ALG_FEN move_re=$ALG_MOVE; else fen_re=$NUM_FEN move_re=$NUM_MOVE; fi
  case "$g" in english | pool) first=B side=black ;; *) first=W side=white ;; esac
  upper=$(tr a-z A-Z <<<"$g")

  # the start: the first mover and the notation
  expect_rc 0 "$g status" "$DAMA" status --game "$g"
  expect_line out "side $side"
  expect_rc 0 "$g moves" "$DAMA" moves --game "$g"
  [ "$(wc -l <"$T/out")" = 7 ] && [ "$(grep -cv -- "$move_re" "$T/out")" = 0 ] && ok || bad "$g start moves: $(cat "$T/out")"

  # self-play: the games stored in the game's notation
  expect_rc 0 "$g selfplay" "$DAMA" selfplay --game "$g" --db "$db" --games 8 --nodes 500 --threads 2 --progress 0
  expect_eq "$(q "SELECT count(*), sum(game = '$g') FROM games")" "8|8" "$g games stored"
  expect_eq "$(q "SELECT game, status FROM runs WHERE kind = 'selfplay'")" "$g|done" "$g self-play run"
  expect_eq "$(q "SELECT count(*) FROM games g WHERE plies != (SELECT count(*) FROM positions p WHERE p.game_id = g.id)")" 0 "$g positions of every ply"
  bad_fen=$(q "SELECT start_fen FROM games" | grep -cv -- "$fen_re")
  expect_eq "$bad_fen" 0 "$g start positions in the game's notation ($(q 'SELECT start_fen FROM games LIMIT 1'))"
  # four random plies from the start: the first mover is to move again
  expect_eq "$(q "SELECT count(*) FROM games WHERE substr(start_fen, 1, 1) = '$first'")" 8 "$g openings end with the first mover to move"
  mt=$(q "SELECT movetext FROM games ORDER BY game_index LIMIT 1")
  movetext_ok "$mt" "$move_re" && ok || bad "$g movetext: $mt"
  [ "${mt%% *}" = "1." ] && ok || bad "$g movetext begins with the first mover's move 1.: $mt"

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
  [ -n "$done_move" ] && "$DAMA" moves --game "$g" --fen "$after" | grep -qxF -- "$done_move" && ok ||
    bad "$g hub: done move '$done_move' is not legal in $after"
  printf 'hub\nset-param name=variant value=%s\ninit\npos pos=%s\nlevel depth=3\ngo think\n' "$g" "$cfen" >"$T/hubc.in"
  timeout 300 "$DAMA" hub <"$T/hubc.in" >"$T/hubc.out" 2>&1
  has "$T/hubc.out" "^done move=$cmove\( \|$\)" "$g hub capture"
done

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

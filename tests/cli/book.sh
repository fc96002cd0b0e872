#!/usr/bin/env bash
# `dama book`: a move book grown from a self-play database made here,
# probed; a build that keeps no position refused (nothing written); bad
# books refused with the file and line; engines that play from
# a book in `dama match`, `dama tournament` (book=FILE) and `dama hub
# --book`, each checked by the moves stored or answered.
# Usage: book.sh DAMA_BINARY SOURCE_DIR
set -u
. "$(dirname "$0")/lib.sh"
has() { grep -q -- "$2" "$1" && ok || bad "$3: no '$2' in: $(head -c 600 "$1")"; }
# LIMIT: seconds after which a dama that has not ended is killed (it hangs)
LIMIT=300
G=russian
START=W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8
printf 'start\t%s\n' "$START" >"$T/start.tsv"
PLAY=(--nodes 200 --threads 1 --openings "$T/start.tsv" --progress 0)

# 1. a self-play database, a book of it, probed
expect_rc 0 "self-play" timeout $LIMIT "$DAMA" selfplay --game $G --db "$T/sp.sqlite" --games 20 --nodes 200 --threads 1 \
  --openings "$T/start.tsv" --progress 0
expect_rc 0 "build" timeout $LIMIT "$DAMA" book build --game $G --db "$T/sp.sqlite" --max-ply 6 --min-games 2 --out "$T/b.book"
has "$T/out" "^20 games read (0 left out), [0-9]* moves counted; kept [1-9][0-9]* positions" "build summary"
expect_eq "$(head -1 "$T/b.book")" "# dama book $G 1" "header"
# every record: FEN, a move, games >= 2, a score in 0..1
awk -F'\t' '!/^#/ && !(NF == 4 && $3 >= 2 && $4 >= 0 && $4 <= 1) {print; exit 1}' "$T/b.book" && ok || bad "records"
expect_rc 0 "probe start" "$DAMA" book probe --book "$T/b.book"
has "$T/out" "games *[0-9]*  score [01]\.[0-9]*$" "probe lines"
# the probe's moves are the book's lines of the start position
expect_eq "$(awk '{print $1}' "$T/out" | sort)" "$(awk -F'\t' -v s="$START" '$1 == s {print $2}' "$T/b.book" | sort)" "probe = file"
expect_rc 0 "probe elsewhere" "$DAMA" book probe --book "$T/b.book" --fen 'W:Wa1:Bh8'
expect_line out "not in the book"
expect_err 1 "exists" "$DAMA" book build --game $G --db "$T/sp.sqlite" --out "$T/b.book"
expect_err 1 "--out" "$DAMA" book build --game $G --db "$T/sp.sqlite" --out "$T/sp.sqlite" --force
[ "$(db_value "$T/sp.sqlite" "SELECT count(*) FROM games")" = 20 ] && ok || bad "the database is intact"
expect_rc 0 "force" "$DAMA" book build --game $G --db "$T/sp.sqlite" --max-ply 6 --min-games 2 --out "$T/b.book" --force
# a book that would keep no position is refused (exit 1): nothing written, an existing file kept
expect_err 1 "dama book build: kept no position (20 games read, 0 left out; no move passed --min-games 1000 and --min-score 0): $T/none.book not written" \
  "$DAMA" book build --game $G --db "$T/sp.sqlite" --max-ply 6 --min-games 1000 --out "$T/none.book"
[ ! -e "$T/none.book" ] && ok || bad "an empty book was written"
cp "$T/b.book" "$T/keep.book"
expect_err 1 "kept no position (0 games read, 0 left out; no stored game of turkish)" \
  "$DAMA" book build --game turkish --db "$T/sp.sqlite" --out "$T/b.book" --force
cmp -s "$T/b.book" "$T/keep.book" && ok || bad "the book --force would replace was changed by a build that kept nothing"

# 2. bad books: refused naming the file and line, non-zero exit
printf '# dama book %s 1\n%s\tc3-d5\t2\t0.5\n' $G "$START" >"$T/bad1.book"
expect_err 1 "$T/bad1.book:2: move:" "$DAMA" book probe --book "$T/bad1.book"
printf '# dama book %s 1\n# ok\n%s\tc3-d4\t2\n' $G "$START" >"$T/bad2.book"
expect_err 1 "$T/bad2.book:3: 3 fields" "$DAMA" book probe --book "$T/bad2.book"
printf '%s\tc3-d4\t2\t0.5\n' "$START" >"$T/bad3.book"
expect_err 1 "$T/bad3.book:1: not a dama book" "$DAMA" book probe --book "$T/bad3.book"
expect_err 1 "a book of $G, not of turkish" "$DAMA" match --game turkish --db "$T/x.sqlite" --a default --b default \
  --a-book "$T/b.book" "${PLAY[@]}"
expect_err 1 "bad1.book:2: move:" "$DAMA" hub --book "$T/bad1.book"
expect_err 2 "unknown action" "$DAMA" book burn
# an option of the other action is refused (probe --game turkish read the book's own game in silence)
expect_err 2 "dama book probe: --game is for build, not probe" "$DAMA" book probe --book "$T/b.book" --game turkish
expect_err 2 "dama book probe: --min-games is for build, not probe" "$DAMA" book probe --book "$T/b.book" --min-games 5
expect_err 1 "dama book probe: --fen: bad position string" "$DAMA" book probe --book "$T/b.book" --fen "W:Wz9"
expect_err 2 "dama book build: --fen is for probe, not build" "$DAMA" book build --game $G --db "$T/sp.sqlite" \
  --out "$T/c.book" --fen "$START"
[ ! -e "$T/c.book" ] && ok || bad "a build with --fen wrote its book"
# a stored game whose movetext lost its moves is damaged: refused, named, no book written (it was
# counted as read and added nothing)
cp "$T/sp.sqlite" "$T/dmg.sqlite"
sqlite3 "$T/dmg.sqlite" "UPDATE games SET movetext = NULL WHERE id = 2"
expect_err 1 "dama book build: game 2: its movetext holds 0 plies, the row says $(db_value "$T/dmg.sqlite" "SELECT plies FROM games WHERE id = 2")" \
  "$DAMA" book build --game $G --db "$T/dmg.sqlite" --max-ply 6 --out "$T/dmg.book"
[ ! -e "$T/dmg.book" ] && ok || bad "a book built from a damaged game"
# --out - is no standard output for a book (it wrote a file named '-')
(cd "$T" && expect_err 2 "dama book build: --out -: a book is a file" "$DAMA" book build --game $G --db "$T/sp.sqlite" --out -)
[ ! -e "$T/-" ] && ok || bad "book build --out - wrote a file named '-'"

# 3. a match: A plays a book move where the engine would not. The engine's
# own first move (game 0, A White) without a book; then a one-line book of
# another move, which game 0 must open with
expect_rc 0 "match without book" timeout $LIMIT "$DAMA" match --game $G --db "$T/m0.sqlite" --a default --b default \
  --pairs 1 "${PLAY[@]}"
own=$(db_value "$T/m0.sqlite" "SELECT movetext FROM games WHERE game_index = 0" | awk '{print $2}')
other=$("$DAMA" moves --game $G | grep -vx -- "$own" | head -1)
[ -n "$own" ] && [ -n "$other" ] && ok || bad "the engine's move '$own', another '$other'"
printf '# dama book %s 1\n%s\t%s\t5\t0.6\n' $G "$START" "$other" >"$T/one.book"
expect_rc 0 "match with A's book" timeout $LIMIT "$DAMA" match --game $G --db "$T/m1.sqlite" --a default --b default \
  --a-book "$T/one.book" --pairs 1 "${PLAY[@]}"
expect_line out "book moves: A 1, B 0"
expect_eq "$(db_value "$T/m1.sqlite" "SELECT movetext FROM games WHERE game_index = 0" | awk '{print $2}')" "$other" \
  "game 0 opens with the book move"
# the grown book: A's book moves are counted and every one is a book line
expect_rc 0 "match with the grown book" timeout $LIMIT "$DAMA" match --game $G --db "$T/m2.sqlite" --a default \
  --b default --a-book "$T/b.book" --pairs 1 "${PLAY[@]}"
has "$T/out" "^book moves: A [1-9][0-9]*, B 0$" "grown book used"
first=$(db_value "$T/m2.sqlite" "SELECT movetext FROM games WHERE game_index = 0" | awk '{print $2}')
awk -F'\t' -v s="$START" -v m="$first" '$1 == s && $2 == m {f = 1} END {exit !f}' "$T/b.book" && ok \
  || bad "game 0's first move '$first' is no book move"

# 4. a tournament player with book=FILE opens its White game with the book move
expect_rc 0 "tournament" timeout $LIMIT "$DAMA" tournament --game $G --db "$T/t.sqlite" --concurrency 1 \
  --openings "$T/start.tsv" --nodes 200 --progress 0 "name=A,weights=default,book=$T/one.book" name=B,weights=default
expect_line out "book moves (this session): A 1"
expect_eq "$(db_value "$T/t.sqlite" "SELECT g.movetext FROM games g JOIN participants p ON p.id = g.white_player \
  WHERE p.name = 'A'" | awk '{print $2}')" "$other" "tournament: A's book move"

# 5. a book's bytes are part of a match's and a tournament's identity: the
# same command after the book was rewritten under its path is a new run,
# not more games of the old one (the path alone was stored)
cp "$T/one.book" "$T/my.book"
expect_rc 0 "match, book 1" timeout $LIMIT "$DAMA" match --game $G --db "$T/m5.sqlite" --a default --b default \
  --a-book "$T/my.book" --pairs 1 "${PLAY[@]}"
expect_rc 0 "match, same book" timeout $LIMIT "$DAMA" match --game $G --db "$T/m5.sqlite" --a default --b default \
  --a-book "$T/my.book" --pairs 1 "${PLAY[@]}"
has "$T/err" "^match $G: run 1 (resumed: 1 pair stored)" "the same book: resumed"
cp "$T/b.book" "$T/my.book"
expect_rc 0 "match, book rewritten" timeout $LIMIT "$DAMA" match --game $G --db "$T/m5.sqlite" --a default --b default \
  --a-book "$T/my.book" --pairs 1 "${PLAY[@]}"
has "$T/err" "^match $G: run 2, " "a rewritten --a-book: a new run"
TB=(tournament --game $G --db "$T/t5.sqlite" --concurrency 1 --openings "$T/start.tsv" --nodes 200 --progress 0)
expect_rc 0 "tournament, book 1" timeout $LIMIT "$DAMA" "${TB[@]}" "name=A,weights=default,book=$T/my.book" name=B
cp "$T/one.book" "$T/my.book"
expect_rc 0 "tournament, book rewritten" timeout $LIMIT "$DAMA" "${TB[@]}" "name=A,weights=default,book=$T/my.book" name=B
has "$T/err" "^tournament 2 (run 2) " "a rewritten book=: a new tournament"
expect_eq "$(db_value "$T/t5.sqlite" "SELECT count(*) FROM runs WHERE config LIKE '%engine-1-book-content = %'")" 2 \
  "tournament: the book's bytes in the identity"
expect_err 2 "not a DXP program" "$DAMA" tournament --game $G --db "$T/t3.sqlite" "name=A,dxp=127.0.0.1:9,book=$T/one.book" name=B
expect_err 1 "engine 'A': book:" "$DAMA" tournament --game $G --db "$T/t2.sqlite" "name=A,book=$T/bad2.book" name=B

# 5. a Hub session: go from the start position answers the book move at once
printf 'hub\ninit\nnew-game\npos\nlevel nodes=200\ngo think\nquit\n' >"$T/hub.in"
timeout $LIMIT "$DAMA" hub --game $G --book "$T/one.book" <"$T/hub.in" >"$T/hub.out" 2>"$T/hub.err" && ok || bad "hub exit"
has "$T/hub.out" "^info book=1 .*pv=\"$other\"$" "hub: info book=1"
has "$T/hub.out" "^done move=$other$" "hub: the book move"
# out of the book it searches as always
printf 'hub\ninit\npos moves="%s"\nlevel nodes=200\ngo think\nquit\n' "$own" >"$T/hub2.in"
timeout $LIMIT "$DAMA" hub --game $G --book "$T/one.book" <"$T/hub2.in" >"$T/hub2.out" 2>"$T/hub2.err" && ok || bad "hub2 exit"
grep -q "book=1" "$T/hub2.out" && bad "hub2: a book move out of the book" || ok
has "$T/hub2.out" "^done move=" "hub2: a searched move"

# 6. DXP (International): the initiator, White in game 1, opens it with its book move
IST='W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20'
printf '# dama book international 1\n%s\t32-28\t3\t0.5\n' "$IST" >"$T/int.book"
timeout $LIMIT "$DAMA" dxp --game international --listen 127.0.0.1:0 --nodes 200 --hash 8 --max-plies 30 \
  >"$T/f.out" 2>"$T/f.err" &
FPID=$!
wait_until -p "$FPID" "the follower's port" grep -q '^dxp: listening on 127.0.0.1:[0-9]*$' "$T/f.out"
PORT=$(sed -n 's/^dxp: listening on 127.0.0.1:\([0-9]*\)$/\1/p' "$T/f.out")
expect_rc 0 "dxp initiator with a book" timeout $LIMIT "$DAMA" dxp --game international --connect "127.0.0.1:$PORT" \
  --games 2 --nodes 200 --hash 8 --max-plies 30 --book "$T/int.book" --log "$T/i.log"
wait "$FPID" && ok || bad "follower exit: $(head -c 300 "$T/f.err")"
expect_line out "dxp: 1 book move"
first=$(sed -n 's/^[0-9-]* [0-9:.]* > \(M.*\)$/\1/p' "$T/i.log" | head -1)
expect_eq "${first:5:4}" "3228" "dxp: the first move sent is 32-28"

finish book

#!/usr/bin/env bash
# CLI tests of dama egtb: build, resume, verify, probe, bench, the --egtb
# option of search, selfplay, match and tournament (adjudication 'egtb'), the
# hub's egtb-path and egtb-pieces params, bad input.
# Usage: egtb.sh DAMA_BINARY SOURCE_DIR
set -u
. "$(dirname "$0")/lib.sh"

D="$T/db"
expect_rc 0 "build 3k-1k" "$DAMA" egtb build --material 3k-1k --dir "$D" --threads 2
# three tables and a total line, and the counted table of 3k-1k (D7: docs/egtb.md)
expect_eq "$(grep -c 'positions' "$T/out")" "4" "three tables and a total line"
grep -q '^3k0m-1k0m  *counted: W  *[0-9]* D  *[0-9]* L  *[0-9]* at count 0, all drawn from count 30 ' "$T/out" && ok \
  || bad "no counted table line: $(cat "$T/out")"
expect_eq "$(ls "$D" | tr '\n' ' ')" \
  "russian-1k0m-1k0m.egtb russian-2k0m-1k0m.egtb russian-3k0m-1k0m.egtb russian-3k0m-1k0m.egtc " "files"
# the lock file stays in the table directory (one flock a build; removing it would race), naming the
# last builder; git ignores it, so tables built into a folder of the source tree leave nothing to commit
grep -qx "process [0-9]* on host .* since [0-9T:-]*Z" "$D/.build-lock" && ok || bad "lock file: $(cat "$D/.build-lock")"
if [ -n "$SRC" ] && git -C "$SRC" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  git -C "$SRC" check-ignore -q --no-index egtb/.build-lock && ok || bad "git does not ignore a table directory's .build-lock"
fi
# resume: the same command reuses every file
expect_rc 0 "rebuild" "$DAMA" egtb build --material 3k-1k --dir "$D"
expect_eq "$(grep -c 'existing file' "$T/out")" "4" "resumed build reuses"
expect_rc 0 "verify" "$DAMA" egtb verify --dir "$D" --sample 20 --sample-depth 8
grep -q 'every value agrees' "$T/out" && ok || bad "verify: $(cat "$T/out")"
# the counted table solved again and compared
grep -q '^3k0m-1k0m+count  *[0-9]* checked  ok$' "$T/out" && ok || bad "verify: no counted line: $(cat "$T/out")"
grep -q ' 0 disagree' "$T/out" && ok || bad "verify sample: $(tail -1 "$T/out")"
expect_rc 0 "verify one material" "$DAMA" egtb verify --dir "$D" --material 2k-1k --sample 0
expect_eq "$(grep -c ' checked ' "$T/out")" "1" "verify --material: one table"
grep -q '^2k0m-1k0m .* ok$' "$T/out" && ok || bad "verify --material: $(cat "$T/out")"
expect_rc 1 "verify absent material" "$DAMA" egtb verify --dir "$D" --material 2k1m-1k --sample 0
grep -q '2k1m-1k0m' "$T/err" && ok || bad "verify absent material named: $(cat "$T/err")"
cp -r "$D" "$T/gone" && rm "$T/gone/russian-1k0m-1k0m.egtb"
expect_rc 1 "verify, a child table missing" "$DAMA" egtb verify --dir "$T/gone" --sample 0
grep -q 'russian-1k0m-1k0m.egtb: table 1k0m-1k0m is missing, and 2k0m-1k0m turns into it' "$T/err" && ok || bad "missing table named: $(cat "$T/err")"
# a damaged or foreign counted table is never read as a verdict: probe names it (a flipped byte: its
# checksum), an .egtb copied over it fails at open; without its tables' counted ones, a verify of a
# table that took them names the missing file
cp -r "$D" "$T/cflip" && printf '\377' | dd of="$T/cflip/russian-3k0m-1k0m.egtc" bs=1 seek=40000 conv=notrunc 2>/dev/null
expect_err 1 "russian-3k0m-1k0m.egtc: payload checksum mismatch" \
  "$DAMA" egtb probe --dir "$T/cflip" --fen 'W:WKa1,Kc1,Ke1:BKh2'
cp -r "$D" "$T/cforeign" && cp "$D/russian-3k0m-1k0m.egtb" "$T/cforeign/russian-3k0m-1k0m.egtc"
expect_err 1 "russian-3k0m-1k0m.egtc: not a dama endgame table" \
  "$DAMA" egtb probe --dir "$T/cforeign" --fen 'W:WKa1,Kc1,Ke1:BKh2'
expect_rc 0 "build 2k1m-1k" "$DAMA" egtb build --material 2k1m-1k --dir "$T/men" --threads 2
rm "$T/men/russian-3k0m-1k0m.egtc"
expect_err 1 "russian-3k0m-1k0m.egtc: counted table 3k0m-1k0m is missing, and 2k1m-1k0m turns into it" \
  "$DAMA" egtb verify --dir "$T/men" --material 2k1m-1k --sample 0
expect_rc 0 "the build again restores it" "$DAMA" egtb build --material 2k1m-1k --dir "$T/men" --threads 2
expect_rc 0 "verify 2k1m-1k" "$DAMA" egtb verify --dir "$T/men" --material 2k1m-1k --sample 0
grep -q '^2k1m-1k0m+count  *[0-9]* checked  ok$' "$T/out" && ok || bad "verify 2k1m-1k: $(cat "$T/out")"
# the moves of a probe say where the counts draw what the stored value wins
expect_rc 0 "probe with counted moves" "$DAMA" egtb probe --dir "$D" --fen 'W:WKa1,Kc1,Ke3:BKb4'
grep -q '^  a1-b2  *opponent: loss in 16 plies, with the counters: draw$' "$T/out" && ok \
  || bad "probe: a move the counts draw: $(cat "$T/out")"
expect_rc 1 "verify non-canonical material" "$DAMA" egtb verify --dir "$D" --material 1k-2k --sample 0
grep -q 'stronger' "$T/err" && ok || bad "verify non-canonical: $(cat "$T/err")"
# Turkish: the builder solves one of each left-right mirrored pair; --no-symmetry solves every position: the same files
expect_rc 0 "turkish build" "$DAMA" egtb build --game turkish --material 2k-1k --dir "$T/tu1" --threads 2
grep -q '^2k0m-1k0m .* CPU s$' "$T/out" && ok || bad "build prints CPU seconds: $(cat "$T/out")"
expect_rc 0 "turkish build --no-symmetry" "$DAMA" egtb build --game turkish --material 2k-1k --dir "$T/tu2" --no-symmetry
for f in "$T"/tu1/*.egtb; do cmp -s "$f" "$T/tu2/$(basename "$f")" && ok || bad "mirror build differs: $f"; done
expect_rc 0 "turkish verify" "$DAMA" egtb verify --game turkish --dir "$T/tu1" --sample 0
grep -q '^2k0m-1k0m .* ok (124992 of them as the mirror image of one checked)$' "$T/out" && ok || bad "verify mirror: $(cat "$T/out")"
grep -q '^consistency: every value agrees with its children (.* CPU s)$' "$T/out" && ok || bad "verify CPU: $(cat "$T/out")"
expect_rc 0 "turkish verify --no-symmetry" "$DAMA" egtb verify --game turkish --dir "$T/tu1" --sample 0 --no-symmetry
grep -q 'mirror image' "$T/out" && bad "verify --no-symmetry used the mirror: $(cat "$T/out")" || ok
# a folder where a table should be is said as such (it was "too short to be an endgame table")
cp -r "$D" "$T/k9" && rm "$T/k9/russian-1k0m-1k0m.egtb" && mkdir "$T/k9/russian-1k0m-1k0m.egtb"
expect_err 1 "dama egtb probe: $T/k9/russian-1k0m-1k0m.egtb: a folder, not an endgame table file" \
  "$DAMA" egtb probe --dir "$T/k9" --fen "W:WK1:BK32"
# Russian folds no mirrored positions (a left-right mirror moves its men off the dark squares): nothing to turn off
expect_err 2 "dama egtb: --no-symmetry does nothing in russian: its tables fold no mirrored positions" \
  "$DAMA" egtb build --material 2k-1k --dir "$T/nosym" --no-symmetry
expect_eq "$("$DAMA" egtb probe --dir "$D" --fen 'W:WKa1,Kc1,Ke3:BKb4' | head -1)" "win in 15 plies" "probe win"
expect_eq "$("$DAMA" egtb probe --dir "$D" --fen 'W:WKc1,Ke1,Kg1:BKa1' | head -1)" "draw" "probe main road"
# the counters' line only where a stored win or loss could change: a stored draw stays one
expect_eq "$("$DAMA" egtb probe --dir "$D" --fen 'W:WKc1,Ke1,Kg1:BKa1' | grep -c '^with the counters')" "0" \
  "probe main road: no counters' line"
expect_eq "$("$DAMA" egtb probe --dir "$D" --fen 'W:WKa1,Kc1,Ke3:BKb4' | sed -n 2p)" "with the counters: win" \
  "probe win: the counters' verdict"
# a position whose table is missing: exit 1 naming the material and its file in --dir
expect_err 1 "no table of material 1k1m-1k0m: $D/russian-1k1m-1k0m.egtb is missing (dama egtb build --game russian --material 1k1m-1k0m builds it)" \
  "$DAMA" egtb probe --dir "$D" --fen 'W:WKa1,c3:BKh2'
expect_eq "$(cat "$T/out")" "" "probe outside: nothing on standard output"
expect_err 1 "no table of material 2k1m-1k0m, colours swapped: $D/russian-2k1m-1k0m.egtb is missing" \
  "$DAMA" egtb probe --dir "$D" --fen 'B:WKa1:BKh2,Kb8,c5'
expect_err 1 "not in the database: the position has 9 pieces, a table at most 8" \
  "$DAMA" egtb probe --dir "$D" --fen 'W:WKa1,Kc1,Ke1,Kg1,Kb2,Kd2,Kf2,Kh2:BKh8'
# a bad value is named under the action, as the action's other messages are
expect_err 2 "dama egtb build: --pieces: '9' is out of range 2..8" "$DAMA" egtb build --pieces 9 --dir "$T/none"
expect_err 2 "dama egtb build: --pieces: '9' is out of range 2..8" "$DAMA" egtb --pieces 9 build --dir "$T/none"
expect_err 2 "dama egtb build: --material: bad material 'KvK'" "$DAMA" egtb build --material KvK --dir "$T/none"
expect_err 2 "dama egtb verify: --material: bad material 'KvK'" "$DAMA" egtb verify --material KvK --dir "$T/none"
[ -e "$T/none" ] && bad "a refused build made its directory" || ok
# International (10x10): two kings against one draw; kings on the long diagonal, a1 to move, lose
expect_rc 0 "international build" "$DAMA" egtb build --game international --material 2k-1k --dir "$T/in" --threads 2
expect_eq "$(ls "$T/in" | tr '\n' ' ')" "international-1k0m-1k0m.egtb international-2k0m-1k0m.egtb " "international files"
expect_rc 0 "international verify" "$DAMA" egtb verify --game international --dir "$T/in" --sample 20 --sample-depth 6
grep -q 'every value agrees' "$T/out" && grep -q ' 0 disagree' "$T/out" && ok || bad "international verify: $(cat "$T/out")"
expect_eq "$("$DAMA" egtb probe --game international --dir "$T/in" --fen 'W:WK1,K2:BK46' | head -1)" "draw" "international 2k-1k"
"$DAMA" egtb probe --game international --dir "$T/in" --fen 'W:WK46:BK5' >"$T/out"
expect_eq "$(head -1 "$T/out")" "loss in 2 plies" "international long diagonal"
grep -q '^  46-41  *opponent: win in 1 ply$' "$T/out" && ok || bad "international probe moves: $(cat "$T/out")"
# Canadian (12x12, 128-bit sets): the same on the long diagonal 67-6
expect_rc 0 "canadian build" "$DAMA" egtb build --game canadian --material 2k-1k --dir "$T/ca" --threads 2
expect_eq "$(ls "$T/ca" | tr '\n' ' ')" "canadian-1k0m-1k0m.egtb canadian-2k0m-1k0m.egtb " "canadian files"
expect_rc 0 "canadian verify" "$DAMA" egtb verify --game canadian --dir "$T/ca" --sample 20 --sample-depth 6
grep -q 'every value agrees' "$T/out" && grep -q ' 0 disagree' "$T/out" && ok || bad "canadian verify: $(cat "$T/out")"
expect_eq "$("$DAMA" egtb probe --game canadian --dir "$T/ca" --fen 'W:WK1,K2:BK67' | head -1)" "draw" "canadian 2k-1k"
"$DAMA" egtb probe --game canadian --dir "$T/ca" --fen 'W:WK67:BK6' >"$T/out"
expect_eq "$(head -1 "$T/out")" "loss in 2 plies" "canadian long diagonal"
grep -q '^  67-61  *opponent: win in 1 ply$' "$T/out" && ok || bad "canadian probe moves: $(cat "$T/out")"
# --sample with --material draws that table's positions only; a table whose
# positions a rule decides at once (a lone man) gives up instead of looping
expect_rc 0 "turkish verify sample of one material" "$DAMA" egtb verify --game turkish --dir "$T/tu1" --material 2k0m-1k0m --sample 20 --sample-depth 6
grep -q '^sample: 20 positions of that material, depth 6: .* 0 disagree' "$T/out" && ok || bad "sample of one material: $(tail -1 "$T/out")"
expect_rc 0 "turkish build 2k-1m" "$DAMA" egtb build --game turkish --material 2k-1m --dir "$T/tu3"
expect_rc 0 "turkish verify sample, lone man" "$DAMA" egtb verify --game turkish --dir "$T/tu3" --material 2k0m-0k1m --sample 20 --sample-depth 6
grep -q '^sample: only 0 of the 20 asked for' "$T/out" && ok || bad "sample of a lone-man table: $(tail -1 "$T/out")"
expect_rc 0 "bench" "$DAMA" egtb bench --dir "$D" --probes 20000
grep -q 'ns uncached' "$T/out" && ok || bad "bench output: $(cat "$T/out")"
# search with the database: the exact win at once
s=$("$DAMA" search --fen 'W:WKa1,Kc1,Ke3:BKb4' --egtb "$D" --depth 3 --quiet)
echo "$s" | grep -q '^score 29985$' && ok || bad "search --egtb: $s"
# a match from a database position, adjudicated at once
printf 'x\tW:WKa1,Kc1,Ke3:BKb4\n' >"$T/book"
# an option of the database's use without a database is refused, never ignored
for c in "match --db $T/none.sqlite --pairs 1 --nodes 50 --egtb-engines a" "selfplay --db $T/none.sqlite --games 2 --egtb-adjudicate" \
  "search --depth 1 --egtb-pieces 3" "tune --db $T/none.sqlite --egtb-mode skip" \
  "tournament --db $T/none.sqlite --rounds 1 --egtb-pieces 4 name=A name=B"; do
  expect_err 2 "is for a run with an endgame database, and none is in use: give --egtb DIR" env DAMA_EGTB="$T/no-tables" $DAMA $c
done
[ ! -e "$T/none.sqlite" ] && ok || bad "a refused command made its database"
expect_rc 0 "match --egtb-adjudicate" "$DAMA" match --db "$T/m.sqlite" --a default --b default --openings "$T/book" \
  --pairs 1 --nodes 200 --threads 1 --egtb "$D" --egtb-adjudicate --progress 0
expect_eq "$(sqlite3 "$T/m.sqlite" "SELECT group_concat(reason || ' ' || result, ',') FROM games")" "egtb 1-0,egtb 1-0" "adjudicated games"
# a table whose blocks are damaged reads as absent in a probe: the game that read it is not stored and the
# match stops (exit 1), naming the file (its games went another way, and were stored as a normal match)
cp -r "$D" "$T/dmgm"
python3 -c "
import glob
for f in glob.glob('$T/dmgm/*.egt[bc]'):
    d = bytearray(open(f, 'rb').read())
    for i in range(len(d) // 2, len(d) // 2 + 50): d[i] ^= 0x55
    open(f, 'wb').write(d)"
expect_err 1 "a block does not decompress (damaged file); the game that read it is not stored" \
  "$DAMA" match --db "$T/mdmg.sqlite" --a default --b default --openings "$T/book" --pairs 1 --nodes 200 --threads 1 \
  --egtb "$T/dmgm" --egtb-adjudicate --progress 0
expect_eq "$(sqlite3 "$T/mdmg.sqlite" "SELECT count(*) FROM games")" 0 "no game stored with a damaged table"
expect_line err "note: A and B are the same player (weight set 1): the result shows only the games' noise"
expect_err 1 "dama ratings: no finished games between two players in the selection (its 2 finished games had the same player on both sides: weight set 1)" \
  "$DAMA" ratings --db "$T/m.sqlite" --match 1
# dama egtb draws: who held the larger material in the rule draws of a match (A has White in even games);
# 2 kings against 1 and 3 kings against 1 on the main road, one game each way round, both engines with
# 7ad9123's weights (a fixed file: how the compiled-in weights play these endings changes with every
# refit): the first game is drawn by D7, the others by D8, each with the side that began ahead still
# ahead (A in games 0 and 2, B in 1 and 3)
printf 'x\tW:WKc1,Kh2:BKa1\ny\tW:WKc1,Ke1,Kg1:BKa1\n' >"$T/book2"
W7="$SRC/configs/weights/russian-7ad9123.cfg"
expect_rc 0 "match for draws" "$DAMA" match --db "$T/d.sqlite" --a "$W7" --b "$W7" --openings "$T/book2" \
  --pairs 2 --nodes 200 --threads 1 --egtb "$D" --egtb-engines a --progress 0
expect_eq "$(sqlite3 "$T/d.sqlite" "SELECT group_concat(result || ' ' || reason, ',') FROM games ORDER BY game_index")" \
  "1/2-1/2 D7,1/2-1/2 D8,1/2-1/2 D8,1/2-1/2 D8" "draws: the games"
# the match's own missed-wins line (it had --egtb) says what egtb draws --dir counts for the same match
m=$(grep '^missed wins: ' "$T/out")
expect_rc 0 "draws of the match with the tables" "$DAMA" egtb draws --db "$T/d.sqlite" --match 1 --dir "$D"
expect_eq "$m" "$(grep '^missed wins: ' "$T/out")" "match's missed wins = egtb draws'"
expect_eq "$m" "missed wins: of 4 drawn games, 0 passed through a database win for A, 0 for B ($D)" "draws: no win missed"
expect_rc 0 "draws" "$DAMA" egtb draws --db "$T/d.sqlite" --match 1 --reasons D7,D8
expect_eq "$(grep -E '^(D7|D8|all) ' "$T/out" | tr -s ' ' | tr '\n' ';')" "D7 1 1 0 0;D8 3 1 2 0;all 4 2 2 0;" "draws: A, B"
expect_rc 0 "draws D8" "$DAMA" egtb draws --db "$T/d.sqlite" --match 1 --reasons D8
expect_eq "$(grep '^all ' "$T/out" | tr -s ' ')" "all 3 1 2 0" "draws: only D8"
expect_rc 2 "draws without --match" "$DAMA" egtb draws --db "$T/d.sqlite"
# a reason neither Russian's nor met in the match is a typo, refused (it printed zero draws), naming what there is
expect_err 2 "dama egtb draws: --reasons: 'D9' is no draw reason of russian (its own: D3,D4,D5,D6,D7,D8) and no game of match 1 was drawn by it (its draws: D7, D8)" \
  "$DAMA" egtb draws --db "$T/d.sqlite" --match 1 --reasons D7,D9
expect_rc 0 "draws by a reason of the game no game met" "$DAMA" egtb draws --db "$T/d.sqlite" --match 1 --reasons D3
expect_rc 2 "draws empty reason" "$DAMA" egtb draws --db "$T/d.sqlite" --match 1 --reasons D7,
grep -q "'D7,'" "$T/err" && ok || bad "draws: empty reason named: $(cat "$T/err")"
expect_rc 1 "draws missing match" "$DAMA" egtb draws --db "$T/d.sqlite" --match 9
grep -q "9" "$T/err" && ok || bad "draws: missing match named: $(cat "$T/err")"
expect_rc 0 "draws, the game's own rule draws by default" "$DAMA" egtb draws --db "$T/d.sqlite" --match 1
expect_eq "$(grep -E '^(D4|D8|all) ' "$T/out" | tr -s ' ' | tr '\n' ';')" "D4 0 0 0 0;D8 3 1 2 0;all 4 2 2 0;" "draws: Russian's D4-D8 by default"
expect_rc 1 "draws wrong game" "$DAMA" egtb draws --game turkish --db "$T/d.sqlite" --match 1
grep -q "russian" "$T/err" && ok || bad "draws: wrong game named: $(cat "$T/err")"
# Turkish: one piece each is its rule draw (one-each), counted without --reasons (it counted Russian's D4-D8)
printf 'x\tW:Wd4:Bd5,h7\n' >"$T/book-tu"
expect_rc 0 "turkish match for draws" "$DAMA" match --game turkish --db "$T/tu.sqlite" --a default --b default \
  --openings "$T/book-tu" --pairs 1 --nodes 100 --threads 1 --progress 0
expect_eq "$(sqlite3 "$T/tu.sqlite" "SELECT group_concat(result || ' ' || reason, ',') FROM games ORDER BY game_index")" \
  "1/2-1/2 one-each,1/2-1/2 one-each" "turkish draws: the games"
grep -q 'missed wins' "$T/out" && bad "turkish match without tables counted missed wins: $(cat "$T/out")" || ok
expect_rc 0 "turkish draws" "$DAMA" egtb draws --game turkish --db "$T/tu.sqlite" --match 1
expect_line out "match 1: 2 games, 2 drawn by one-each; the larger material (pieces, then kings) at the end:"
expect_eq "$(grep -E '^(one-each|all) ' "$T/out" | tr -s ' ' | tr '\n' ';')" "one-each 2 0 0 2;all 2 0 0 2;" "turkish draws: counted"
# missed wins: a won position (3 kings against 1 off the main road) that B, without the database and
# at 1 node a move, draws by D7 with White; A (with it) wins it. Without the tables, no count.
printf 'x\tW:WKa1,Kc1,Ke3:BKb4\n' >"$T/book3"
expect_rc 0 "match for missed wins" "$DAMA" match --db "$T/e.sqlite" --a default --b default --openings "$T/book3" \
  --pairs 1 --nodes 1 --threads 1 --egtb "$D" --egtb-engines a --progress 0
expect_eq "$(sqlite3 "$T/e.sqlite" "SELECT group_concat(result || ' ' || reason, ',') FROM games ORDER BY game_index")" \
  "1-0 no-moves,1/2-1/2 D7" "missed wins: the games"
# the match says it itself, after the Elo and time lines
expect_line out "missed wins: of 1 drawn games, 0 passed through a database win for A, 1 for B ($D)"
expect_eq "$(grep -n -e '^time ratio' -e '^missed wins' "$T/out" | cut -d: -f2 | tr '\n' ' ')" "time ratio A/B missed wins " \
  "missed wins: the line after the time lines"
# the same command again plays nothing and counts every stored game of the match
expect_rc 0 "match for missed wins, resumed" "$DAMA" match --db "$T/e.sqlite" --a default --b default \
  --openings "$T/book3" --pairs 1 --nodes 1 --threads 1 --egtb "$D" --egtb-engines a --progress 0
expect_line out "missed wins: of 1 drawn games, 0 passed through a database win for A, 1 for B ($D)"
expect_eq "$(sqlite3 "$T/e.sqlite" "SELECT count(*) FROM games")" "2" "missed wins: the resumed match played nothing"
# the default directory's tables (DAMA_EGTB) count too; --no-egtb: no tables, no line
expect_rc 0 "match for missed wins, default tables" env DAMA_EGTB="$D" "$DAMA" match --db "$T/e2.sqlite" --a default \
  --b default --openings "$T/book3" --pairs 1 --nodes 1 --threads 1 --egtb-engines a --progress 0
expect_line out "missed wins: of 1 drawn games, 0 passed through a database win for A, 1 for B ($D)"
expect_rc 0 "match for missed wins, --no-egtb" env DAMA_EGTB="$D" "$DAMA" match --db "$T/e3.sqlite" --a default \
  --b default --openings "$T/book3" --pairs 1 --nodes 1 --threads 1 --no-egtb --progress 0
grep -q 'missed wins' "$T/out" && bad "missed wins counted with --no-egtb: $(cat "$T/out")" || ok
expect_rc 0 "draws with the tables" "$DAMA" egtb draws --db "$T/e.sqlite" --match 1 --reasons D7 --dir "$D"
expect_line out "missed wins: of 1 drawn games, 0 passed through a database win for A, 1 for B ($D)"
# --list: the game, the engine that let the win go, where it first held one (the book position,
# ply 0), the distance, how and when the game ended
expect_rc 0 "draws --list" "$DAMA" egtb draws --db "$T/e.sqlite" --match 1 --reasons D7 --dir "$D" --list
plies=$(sqlite3 "$T/e.sqlite" "SELECT plies FROM games WHERE game_index = 1")
expect_line out "missed: game 1, B (White): ply 0 W:WKa1,Kc1,Ke3:BKb4, win in 15 plies; drawn by D7 at ply $plies"
expect_eq "$(grep -c '^missed:' "$T/out")" 1 "draws --list: one line"
expect_err 2 "dama egtb draws: --list needs the tables (--dir, or the default directory with russian's)" \
  env DAMA_EGTB="$T" "$DAMA" egtb draws --db "$T/e.sqlite" --match 1 --reasons D7 --list
expect_rc 0 "draws without tables" "$DAMA" egtb draws --db "$T/e.sqlite" --match 1 --reasons D7
grep -q 'missed wins' "$T/out" && bad "missed wins counted without tables: $(cat "$T/out")" || ok
# a --dir without the game's tables is an error naming it (it printed the counts without the missed wins)
expect_err 1 "dama egtb draws: --dir: no russian endgame tables in '$T'" \
  "$DAMA" egtb draws --db "$T/e.sqlite" --match 1 --reasons D7 --dir "$T"
expect_err 1 "dama egtb draws: --dir: endgame database directory '$T/none' does not exist" \
  "$DAMA" egtb draws --db "$T/e.sqlite" --match 1 --reasons D7 --dir "$T/none"
# a tournament with the database: its in-process engines adjudicated the same way
expect_rc 0 "tournament --egtb-adjudicate" "$DAMA" tournament --db "$T/t.sqlite" --openings "$T/book" --rounds 1 \
  --nodes 200 --concurrency 1 --egtb "$D" --egtb-adjudicate --progress 0 name=A name=B
expect_eq "$(sqlite3 "$T/t.sqlite" "SELECT group_concat(reason || ' ' || result, ',') FROM games")" "egtb 1-0,egtb 1-0" \
  "tournament: adjudicated games"
# a tournament's missed wins, per pairing (A the first named): the won position of book3 that B, a
# Hub engine without the database at 1 node a move, draws with White; A (in process, with it) wins it
expect_rc 0 "tournament for missed wins" "$DAMA" tournament --db "$T/tm.sqlite" --openings "$T/book3" --rounds 1 \
  --nodes 1 --concurrency 1 --egtb "$D" --progress 0 name=A "name=B,cmd=$DAMA hub"
expect_eq "$(sqlite3 "$T/tm.sqlite" "SELECT group_concat(result || ' ' || reason, ',') FROM games ORDER BY game_index")" \
  "1-0 no-moves,1/2-1/2 D7" "tournament missed wins: the games"
expect_line out "  A vs B: missed wins: of 1 drawn games, 0 passed through a database win for A, 1 for B ($D)"
expect_eq "$(grep -c 'missed wins' "$T/out")" "2" "tournament: a header and one pairing's line"
expect_eq "$(grep -e '^time used per move' -e '^missed wins per pairing' -e '^ratings after' "$T/out" | cut -c1-11 | tr '\n' ';')" \
  "time used p;missed wins;ratings aft;" "tournament: missed wins after the time lines, before the ratings"
# resumed (nothing to play): the same count, of every stored game
expect_rc 0 "tournament for missed wins, again" "$DAMA" tournament --db "$T/tm.sqlite" --openings "$T/book3" \
  --rounds 1 --nodes 1 --concurrency 1 --egtb "$D" --progress 0 name=A "name=B,cmd=$DAMA hub"
expect_line out "  A vs B: missed wins: of 1 drawn games, 0 passed through a database win for A, 1 for B ($D)"
# without tables: no line
expect_rc 0 "tournament without tables" "$DAMA" tournament --db "$T/tn.sqlite" --openings "$T/book3" --rounds 1 \
  --nodes 1 --concurrency 1 --progress 0 name=A name=B
grep -q 'missed wins' "$T/out" && bad "tournament without tables counted missed wins: $(cat "$T/out")" || ok
expect_rc 1 "tournament --egtb missing" "$DAMA" tournament --db "$T/t2.sqlite" --egtb "$T/none" name=A name=B
grep -q "'$T/none' does not exist" "$T/err" && ok || bad "a missing --egtb folder said as such: $(cat "$T/err")"
expect_rc 1 "match --egtb a file" "$DAMA" match --db "$T/t3.sqlite" --a default --egtb "$T/book" --pairs 1 --progress 0
grep -q "'$T/book' is not a directory" "$T/err" && ok || bad "a file as --egtb said as such: $(cat "$T/err")"
# the hub engine: egtb-path and egtb-pieces params (and --egtb for their first values); the exact win
hub_score() { printf 'hub\n%binit\npos pos=W:WKa1,Kc1,Ke3:BKb4\nlevel depth=3\ngo think\n' "$1" | "$DAMA" hub "${@:2}" |
  grep '^info' | tail -1 | sed 's/.* score=\([^ ]*\) .*/\1/'; }
expect_eq "$(hub_score "set-param name=egtb-path value=\"$D\"\n")" "99.85" "hub egtb-path: win in 15 plies"
expect_eq "$(hub_score "" --egtb "$D")" "99.85" "hub --egtb"
[ "$(hub_score "")" != "99.85" ] && ok || bad "hub without a database knows the distance"
expect_eq "$(hub_score "set-param name=egtb-path value=\"$D\"\nset-param name=egtb-pieces value=4\n")" "99.85" "hub egtb-pieces 4"
[ "$(hub_score "set-param name=egtb-path value=\"$D\"\nset-param name=egtb-pieces value=3\n")" != "99.85" ] && ok \
  || bad "hub egtb-pieces 3 still probes 4 pieces"
# The default directory (egtb_default_dir): $DAMA_EGTB, which lib.sh points at an empty folder of
# this test. egtb build writes there without --dir; every command that plays finds it without
# --egtb; --no-egtb turns it off; a game without tables there plays without a database.
export DAMA_EGTB="$T/home-egtb"
expect_rc 0 "build into the default directory" "$DAMA" egtb build --material 3k-1k --threads 2
expect_eq "$(ls "$DAMA_EGTB" | tr '\n' ' ')" "russian-1k0m-1k0m.egtb russian-2k0m-1k0m.egtb russian-3k0m-1k0m.egtb russian-3k0m-1k0m.egtc " "default directory files"
expect_eq "$("$DAMA" search --fen 'W:WKa1,Kc1,Ke3:BKb4' --depth 3 --quiet | grep '^score')" "score 29985" "search finds the default directory"
[ "$("$DAMA" search --fen 'W:WKa1,Kc1,Ke3:BKb4' --depth 3 --quiet --no-egtb | grep '^score')" != "score 29985" ] && ok \
  || bad "search --no-egtb still probes"
expect_err 2 "give --egtb DIR or --no-egtb, not both" "$DAMA" search --egtb "$D" --no-egtb --depth 1
expect_eq "$(hub_score "")" "99.85" "hub finds the default directory"
printf 'hub\nset-param name=variant value=shatra\ninit\npos\nlevel depth=2\ngo think\n' | "$DAMA" hub >"$T/out"
grep -q '^done move=' "$T/out" && ! grep -q '^error' "$T/out" && ok || bad "hub: a game without tables in the default directory: $(cat "$T/out")"
expect_rc 0 "selfplay with the default directory" "$DAMA" selfplay --db "$T/sp.sqlite" --games 2 --nodes 100 --threads 1 --progress 0
expect_eq "$(sqlite3 "$T/sp.sqlite" "SELECT instr(config, 'egtb = $DAMA_EGTB') > 0 FROM runs")" "1" "the run's configuration names the directory"
expect_rc 0 "selfplay --no-egtb" "$DAMA" selfplay --db "$T/sp2.sqlite" --games 2 --nodes 100 --threads 1 --progress 0 --no-egtb
expect_eq "$(sqlite3 "$T/sp2.sqlite" "SELECT instr(char(10) || config, char(10) || 'egtb =') FROM runs")" "0" "--no-egtb: no directory in the configuration"
DAMA_EGTB="" "$DAMA" egtb probe --fen 'W:WKa1,Kc1,Ke3:BKb4' >"$T/out" 2>"$T/err"
expect_eq "$?" "2" "DAMA_EGTB empty: egtb needs --dir"
grep -q 'give --dir' "$T/err" && ok || bad "DAMA_EGTB empty: $(cat "$T/err")"
# a default directory not built yet: probe, verify and bench say how to make it, or to give --dir
for act in "probe --fen W:WKa1,Kc1,Ke3:BKb4" verify bench; do
  expect_err 1 "dama egtb ${act%% *}: the default endgame database directory '$T/not-built' does not exist: build the tables there with 'dama egtb build --game russian', or give --dir DIR" \
    env DAMA_EGTB="$T/not-built" "$DAMA" egtb $act
done
export DAMA_EGTB="$T/egtb-default"
# a bad egtb-path is refused by its set-param, before init as after it: the error names it, the old
# value stays, and init and go work on with it (init used to fail, and every go after it)
for when in before after; do
  pre=""; [ $when = after ] && pre='init\n'
  printf "hub\n${pre}set-param name=egtb-path value=\"%s\"\ninit\npos pos=W:WKa1,Kc1,Ke3:BKb4\nlevel depth=3\ngo think\n" "$T/none" |
    "$DAMA" hub --egtb "$D" >"$T/out"
  expect_eq "$(grep -c '^error' "$T/out")" 1 "hub bad egtb-path $when init: one error"
  grep -q "^error message=\"set-param egtb-path: endgame database directory '$T/none' does not exist (the value stays '$D')\"$" "$T/out" \
    && ok || bad "hub bad egtb-path $when init: $(cat "$T/out")"
  grep -q '^ready$' "$T/out" && ok || bad "hub bad egtb-path $when init: no ready: $(cat "$T/out")"
  expect_eq "$(grep '^info' "$T/out" | tail -1 | sed 's/.* score=\([^ ]*\) .*/\1/')" "99.85" \
    "hub bad egtb-path $when init: the old tables probed"
  grep -qx 'done move=c1-a3' "$T/out" && ok || bad "hub bad egtb-path $when init: no move: $(cat "$T/out")"
done
# a directory without the variant's tables, before init: taken (it is a directory); the init of pos
# names it and plays with the last egtb-path that loaded
printf 'hub\nset-param name=egtb-path value="%s"\npos\nlevel depth=2\ngo think\n' "$T/home-egtb" |
  "$DAMA" hub --game turkish --no-egtb >"$T/out"
grep -q "^error message=\"init: egtb-path '$T/home-egtb' does not load; the engine plays with egtb-path '' instead: .*turkish.*\"$" "$T/out" && ok \
  || bad "hub egtb-path without the variant's tables: $(cat "$T/out")"
grep -q '^done move=' "$T/out" && ok || bad "hub egtb-path without the variant's tables: no move: $(cat "$T/out")"
# a variant whose tables the set egtb-path lacks, before init: the init of pos names it and plays the
# variant asked for without tables (the same egtb-path does not load with it)
printf 'hub\nset-param name=variant value=shatra\npos\nlevel depth=2\ngo think\n' | "$DAMA" hub --egtb "$D" >"$T/out"
grep -q "^error message=\"init: egtb-path '$D' does not load; the engine plays with egtb-path '' instead: " "$T/out" && ok \
  || bad "hub variant without tables in egtb-path: $(cat "$T/out")"
grep -q '^done move=' "$T/out" && ok || bad "hub variant without tables: no move: $(cat "$T/out")"
printf 'hub\nset-param name=egtb-pieces value=9\n' | "$DAMA" hub >"$T/out"
grep -q "^error message=\"set-param egtb-pieces: '9'" "$T/out" && ok || bad "hub bad egtb-pieces: $(cat "$T/out")"
expect_rc 1 "hub --egtb missing" "$DAMA" hub --egtb "$T/none"
# bad input
expect_rc 2 "no action" "$DAMA" egtb
expect_rc 2 "unknown action" "$DAMA" egtb frobnicate
expect_rc 2 "bad material" "$DAMA" egtb build --material 3q-1k --dir "$D"
expect_rc 2 "bad pieces" "$DAMA" egtb build --pieces 9 --dir "$D"
# an option for another action, or build's two alternatives together: refused (they did nothing)
expect_err 2 "dama egtb build: --pieces and --material exclude each other" \
  "$DAMA" egtb build --material 3k-1k --pieces 3 --dir "$T/pm"
[ ! -e "$T/pm" ] && ok || bad "build --pieces --material made $T/pm"
expect_err 2 "dama egtb probe: --material is for build and verify, not probe" \
  "$DAMA" egtb probe --dir "$D" --fen 'W:WKa1,Kc1,Ke3:BKb4' --material 2k-1k
[ ! -s "$T/out" ] && ok || bad "probe --material printed: $(cat "$T/out")"
expect_err 2 "dama egtb verify: --pieces is for build, not verify" "$DAMA" egtb verify --dir "$D" --pieces 3
expect_err 2 "dama egtb build: --fen is for probe, not build" "$DAMA" egtb build --dir "$T/pm" --fen 'W:WKa1:BKh8'
expect_err 2 "dama egtb bench: --no-symmetry is for build and verify, not bench" "$DAMA" egtb bench --dir "$D" --no-symmetry
expect_err 2 "dama egtb draws: --threads is for build and verify, not draws" "$DAMA" egtb draws --match 1 --threads 2
expect_err 2 "dama egtb probe: --seed is for verify and bench, not probe" "$DAMA" egtb probe --dir "$D" --fen 'W:WKa1:BKh8' --seed 3
expect_err 2 "dama egtb build: --db is for draws, not build" "$DAMA" egtb build --dir "$T/pm" --db x.sqlite
[ ! -e "$T/pm" ] && ok || bad "a refused build made $T/pm"
# --pieces alone, --material alone (and with the options build takes): as before
expect_rc 0 "build --material with --level and --threads" "$DAMA" egtb build --material 2k-1k --level 3 --threads 1 --dir "$T/pm2"
expect_eq "$(ls "$T/pm2" | tr '\n' ' ')" "russian-1k0m-1k0m.egtb russian-2k0m-1k0m.egtb " "build --material: its files"
expect_rc 2 "shatra" "$DAMA" egtb build --game shatra --pieces 3 --dir "$D"
expect_rc 1 "missing dir" "$DAMA" egtb probe --dir "$T/none" --fen 'W:WKa1:BKh8'
grep -q "$T/none" "$T/err" && ok || bad "missing dir named: $(cat "$T/err")"
expect_rc 1 "search --egtb missing" "$DAMA" search --egtb "$T/none" --depth 2
# a damaged payload (the header intact) is found by probe in every table it
# reads: a move into the damaged 2k-1k table read as leaving the database
# (exit 0), a block that decompresses to other bytes as another value
cp -r "$D" "$T/dmg" && f="$T/dmg/russian-2k0m-1k0m.egtb"
dd if=/dev/zero of="$f" bs=1 seek=260 count=$(($(stat -c %s "$f") - 260)) conv=notrunc status=none
expect_err 1 "dama egtb probe: $T/dmg/russian-2k0m-1k0m.egtb: payload checksum mismatch (damaged file; the dama egtb build that made it rebuilds it)" \
  "$DAMA" egtb probe --dir "$T/dmg" --fen 'B:WKa1,Kc1,Kd4:BKh8'
expect_eq "$(cat "$T/out")" "" "damaged probe: nothing on standard output"
expect_rc 0 "probe beside a damaged table" "$DAMA" egtb probe --dir "$T/dmg" --fen 'W:WKa1:BKh8'
expect_eq "$(head -1 "$T/out")" "loss in 2 plies" "probe beside a damaged table"
# what rests on a damaged table says so (its positions read as outside the database: the draws match's
# 2-against-1 endings counted no win, exit 0), and so does the bench, whose probes missed
expect_err 1 "dama egtb draws: endgame table $T/dmg/russian-2k0m-1k0m.egtb: a block does not decompress (damaged file): the missed wins cannot be counted" \
  "$DAMA" egtb draws --db "$T/d.sqlite" --match 1 --dir "$T/dmg"
expect_err 1 "russian-2k0m-1k0m.egtb: a block does not decompress (damaged file): rebuild it (dama egtb build)" \
  "$DAMA" egtb bench --dir "$T/dmg" --probes 1000
# a tuning with the damaged table stores nothing (its positions' targets would be the game results)
expect_rc 0 "self-play of 2 kings against 1" "$DAMA" selfplay --db "$T/sp21.sqlite" --openings "$T/book2" --games 8 \
  --nodes 100 --threads 1 --progress 0
expect_err 1 "dama tune: endgame table $T/dmg/russian-2k0m-1k0m.egtb: a block does not decompress (damaged file): rebuild it (dama egtb build) or tune without --egtb" \
  "$DAMA" tune --db "$T/sp21.sqlite" --egtb "$T/dmg" --epochs 2
expect_eq "$(sqlite3 "$T/sp21.sqlite" "SELECT count(*) FROM runs WHERE kind = 'tune'")" 0 "the refused tuning left no run"
# the line on the positions the database knows counts those whose game result differs from it in
# both modes (skip printed 0 for them: it counted only those it kept): self-play from 3 kings against
# 1 (in the 3k-1k tables, won, often drawn by the move-count rules) and 4 against 1 (outside them)
printf 'x\tW:WKc1,Ke1,Kg1:BKb8\ny\tW:WKc1,Ke1,Kg1,Ka3:BKb8\n' >"$T/book3"
expect_rc 0 "self-play of 3 and 4 kings against 1" "$DAMA" selfplay --db "$T/sp31.sqlite" --openings "$T/book3" \
  --games 16 --nodes 100 --threads 1 --progress 0
for mode in target skip; do
  "$DAMA" tune --db "$T/sp31.sqlite" --egtb "$D" --egtb-mode $mode --epochs 1 2>&1 | grep "^egtb:" >"$T/tune-$mode.egtb"
done
changed=$(sed -n 's/.*(\([0-9]*\) had another game result)$/\1/p' "$T/tune-target.egtb")
[ "${changed:-0}" -gt 0 ] && ok || bad "tune --egtb: no position's result changed: $(cat "$T/tune-target.egtb")"
expect_eq "$(sed -n 's/.*(\([0-9]*\) had another game result)$/\1/p' "$T/tune-skip.egtb")" "$changed" \
  "tune --egtb-mode skip counts the results it differs from"
# its block offsets damaged (the header intact): the table is mapped when first probed, and the
# offsets are what probe names, not the checksum
cp "$D/russian-2k0m-1k0m.egtb" "$T/offsets.egtb"
cp "$T/offsets.egtb" "$f" && dd if=/dev/zero of="$f" bs=1 seek=128 count=8 conv=notrunc status=none
expect_err 1 "dama egtb probe: $T/dmg/russian-2k0m-1k0m.egtb: bad block offset table (damaged file)" \
  "$DAMA" egtb probe --dir "$T/dmg" --fen 'B:WKa1,Kc1,Kd4:BKh8'
# its header size damaged (byte 12, the version intact): named as such, not as another version
cp "$T/offsets.egtb" "$f" && printf '\x5a' | dd of="$f" bs=1 seek=12 conv=notrunc status=none
expect_err 1 "dama egtb probe: $T/dmg/russian-2k0m-1k0m.egtb: header of 90 bytes, version 1's is 128 (damaged file; rebuild it)" \
  "$DAMA" egtb probe --dir "$T/dmg" --fen 'B:WKa1,Kc1,Kd4:BKh8'
expect_rc 0 "rebuild the damaged table" "$DAMA" egtb build --material 3k-1k --dir "$T/dmg"
cmp -s "$f" "$D/russian-2k0m-1k0m.egtb" && ok || bad "the resumed build did not rebuild the damaged table"
head -c 1000 "$D/russian-2k0m-1k0m.egtb" >"$T/short" && cp "$T/short" "$D/russian-2k0m-1k0m.egtb"
expect_rc 1 "damaged file" "$DAMA" egtb verify --dir "$D" --sample 0
grep -q 'russian-2k0m-1k0m.egtb' "$T/err" && ok || bad "damaged file named: $(cat "$T/err")"
expect_rc 2 "bad egtb-engines" "$DAMA" match --db "$T/m.sqlite" --egtb-engines c
# Ctrl-C in the middle of a material's solve (3 kings against 3: minutes) stops it at once, exit 3,
# and keeps no table of it (the solve polled the stop flag only between materials: the first
# Ctrl-C went unheeded for minutes, and a build that then finished exited 0)
mkdir -p "$T/stop"
"$DAMA" egtb build --dir "$T/stop" --material 3k-3k --threads 1 >"$T/stop.out" 2>&1 &
spid=$!
for _ in $(seq 1 200); do [ -e "$T/stop/russian-3k0m-2k0m.egtb" ] && break; sleep 0.1; done
sleep 0.5
expect_prompt_stop $spid "egtb build stopped in a solve"
grep -qF "(stopped: run the same command to resume)" "$T/stop.out" && ok || bad "egtb build stopped: not said: $(tail -2 "$T/stop.out")"
[ ! -e "$T/stop/russian-3k0m-3k0m.egtb" ] && ok || bad "a stopped solve's table was written"
finish "egtb CLI"

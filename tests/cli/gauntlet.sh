#!/usr/bin/env bash
# gauntlet.sh — scripts/gauntlet.sh with tiny sizes, the "old" engine given as
# a path (this dama itself, so no commit is built): every player of the pool
# plays, the ratings, the time used per move and the summary are printed, a
# rerun with the same --db resumes (plays nothing more), bad input is
# refused with exit 2 (unknown game, missing binary, bad numbers), and a
# player that cannot be brought to equal time is left out.
set -u
. "$(dirname "$0")/lib.sh"
G="$SRC/scripts/gauntlet.sh"
command -v python3 >/dev/null || { echo "python3 missing: skipped"; exit 77; }
cp "$DAMA" "$T/dama"
# (at --movetime 5 a weight file's load is most of a move's CPU time: with the learned pattern tables,
# new-weights@old used 12.4 times the new engine's CPU in one run, so the pool is kept whole by a very wide
# --max-cpu-gap)
base=(--runner "$DAMA" --engine "$DAMA" --old "$T/dama" --game russian --rounds 1 --movetime 5 --depth 1
    --nodes 200 --max-plies 16 --calibrate-positions 2 --concurrency 2 --seed 3 --max-cpu-gap 10000)

# 1. A tiny gauntlet: six players (this dama loads its own weights, so new-weights@old plays).
expect_rc 0 "tiny gauntlet" bash "$G" "${base[@]}" --db "$T/g.sqlite"
cp "$T/out" "$T/first"
players="new old-dama start-weights new-weights@old depth1 nodes200"
for p in $players; do
    # its summary line: name, Elo, interval, games, score, wall, CPU, CPU/new
    line=$(grep -E "^  $p +[-+][0-9]" "$T/out")
    expect_eq "$(echo "$line" | wc -l)" 1 "$p: a summary line"
    games=$(echo "$line" | sed -E 's/.*\] +([0-9]+) .*/\1/')
    want=2
    [ "$p" = new ] && want=10
    expect_eq "$games" "$want" "$p: games played$(grep -h -e 'left out' -e 'cannot use equal' "$T/err" "$T/out" 2>/dev/null |
        tr '\n' ' ' | sed 's/^./ (&/; s/ $/)/')"
    expect_eq "$(grep -cE "^  $p +wall [0-9.]+ ms, CPU [0-9.]+ ms per move \([1-9][0-9]* moves\)$" "$T/out")" 1 \
        "$p: a time line of the tournament"
done
expect_eq "$(db_value "$T/g.sqlite" "SELECT count(*) FROM games")" 10 "games stored"
expect_eq "$(db_value "$T/g.sqlite" "SELECT count(DISTINCT name) FROM participants")" 6 "participants stored"
expect_eq "$(grep -c '^ratings after 10 games' "$T/out")" 1 "the tournament's ratings"
expect_eq "$(grep -cE '^new relative to old-dama: [-+][0-9.]+ Elo, 95% interval \[[-+][0-9.]+, [-+][0-9.]+\] \(10 games of new; [0-9.]+ vs [0-9.]+ ms CPU per move\)$' "$T/out")" 1 "the new engine relative to the old one"
expect_eq "$(grep -cE '^  (equal CPU time \(within 5%\)|unequal CPU time): ' "$T/out")" 1 "the equal-time verdict"
for p in old-dama start-weights new-weights@old; do
    expect_eq "$(grep -cE '^movetime [0-9]+$' "$T/g.sqlite.gauntlet/calibration-$p.log")" 1 "$p calibrated"
done
# the old engine is the anchor
expect_eq "$(grep -E '^  old-dama +[-+][0-9]' "$T/out" | awk '{print $2}')" "+0.0" "anchored at the old engine"

# 2. The same command again: the stored tournament is resumed, nothing more is played.
expect_rc 0 "rerun" bash "$G" "${base[@]}" --db "$T/g.sqlite"
expect_eq "$(db_value "$T/g.sqlite" "SELECT count(*) FROM games")" 10 "no games added by the rerun"
expect_eq "$(db_value "$T/g.sqlite" "SELECT count(*) FROM tournaments")" 1 "one tournament"
expect_eq "$(grep '^new relative to' "$T/out")" "$(grep '^new relative to' "$T/first")" "the rerun prints the same result"

# 3. The Hub adapter asks the position server for the position (its own --referee is not run) and
#    answers a legal move; without a server it runs --referee itself.
A="$SRC/scripts/hub_per_move.py"
python3 "$A" --serve "$T/p.sock" --referee "$DAMA" &
server=$!
wait_until -p "$server" "the position server listens" test -S "$T/p.sock"
session=$'hub\ninit\npos pos="start" moves="c3-d4 f6-g5"\nlevel depth=1\ngo think\nquit'
got=$(printf '%s\n' "$session" | python3 "$A" --bin "$DAMA" --referee "$T/no-such-referee" --positions "$T/p.sock" | tail -1)
kill "$server"
wait "$server" 2>/dev/null
want=$("$DAMA" search --game russian --depth 1 --quiet --fen "$("$DAMA" status --moves "c3-d4 f6-g5" | sed -n 's/^fen //p')" |
    sed -n 's/^bestmove /done move=/p')
expect_eq "$got" "$want" "the adapter's move through the position server"
got=$(printf '%s\n' "$session" | python3 "$A" --bin "$DAMA" --referee "$DAMA" | tail -1)
expect_eq "$got" "$want" "the adapter's move without a server"
printf '%s\n' "$session" | python3 "$A" --bin "$DAMA" --referee "$T/no-such-referee" >/dev/null 2>"$T/err"
expect_eq "$?" 1 "a referee that cannot run: the adapter exits 1"

# 4. Bad input: exit 2, naming what is wrong; nothing is stored.
bash "$G" --help >"$T/help" 2>&1 && grep -q "^Exit status: 0 done" "$T/help" && grep -q "^gauntlet.sh \[--game G\]" "$T/help" \
  && ok || bad "gauntlet.sh --help: $(head -c 200 "$T/help")"
expect_err 2 "unknown game 'chess'" bash "$G" "${base[@]}" --db "$T/b.sqlite" --game chess
# an old dama that predates the game (English draughts came after the default --old)
printf '#!/bin/sh\necho "unknown game" >&2\nexit 2\n' >"$T/old-russian-only"
chmod +x "$T/old-russian-only"
expect_err 2 "the old dama (old-old-russian-only) does not play english" bash "$G" "${base[@]}" --db "$T/b.sqlite" \
    --game english --old "$T/old-russian-only"
expect_err 2 "--engine $T/no-such-dama: no such executable file" bash "$G" "${base[@]}" --db "$T/b.sqlite" \
    --engine "$T/no-such-dama"
expect_err 2 "--old $T/missing/dama: no such executable file" bash "$G" "${base[@]}" --db "$T/b.sqlite" \
    --old "$T/missing/dama"
expect_err 2 "--runner $T/none: no such executable file" bash "$G" "${base[@]}" --db "$T/b.sqlite" --runner "$T/none"
expect_err 2 "--movetime 0 is out of range 1..60000" bash "$G" "${base[@]}" --db "$T/b.sqlite" --movetime 0
expect_err 2 "--rounds 'x1' is not a whole number" bash "$G" "${base[@]}" --db "$T/b.sqlite" --rounds x1
expect_err 2 "--concurrency 65 is out of range 1..64" bash "$G" "${base[@]}" --db "$T/b.sqlite" --concurrency 65
expect_err 2 "--games '-3' is not a whole number" bash "$G" --runner "$DAMA" --db "$T/b.sqlite" --games -3
expect_err 2 "give --rounds or --games, not both" bash "$G" "${base[@]}" --db "$T/b.sqlite" --games 4
expect_err 2 "--seed needs a value" bash "$G" --runner "$DAMA" --seed
expect_err 2 "unknown option '--nope'" bash "$G" --nope 1
expect_err 2 "unknown option '--nope'" bash "$G" --nope
expect_err 2 "--db: an empty path" bash "$G" --runner "$DAMA" --db ''
expect_err 2 "--db $T is a folder, not a database file" bash "$G" --runner "$DAMA" --db "$T"
[ ! -e "$T.gauntlet" ] && [ ! -e .gauntlet ] && ok || bad "a refused --db made a state folder"
expect_err 2 "--db $T/no/g.sqlite: no such folder $T/no" bash "$G" "${base[@]}" --db "$T/no/g.sqlite"
[ ! -e "$T/b.sqlite" ] && ok || bad "bad input stored a database"

# 5. An old binary that costs CPU at every process start (as a weight file's slow load does) cannot
#    be brought to equal time: the anchor plays and is marked NOT equal, new-weights@old (the same
#    slow binary) is left out, the start weights (the new binary) play; --games instead of
#    --rounds (8 games: one round of four pairings).
printf '#!/bin/sh\ni=0\nwhile [ $i -lt 40000 ]; do i=$((i + 1)); done\nexec "%s" "$@"\n' "$T/dama" >"$T/slow"
chmod +x "$T/slow"
slow=(--runner "$DAMA" --engine "$DAMA" --old "$T/slow" --game russian --games 8 --movetime 5 --depth 1 --nodes 200
    --max-plies 16 --calibrate-positions 2 --concurrency 2 --seed 3 --max-cpu-gap 50 --db "$T/s.sqlite")
expect_rc 0 "a gauntlet with a slow old binary" bash "$G" "${slow[@]}"
grep -qE "^gauntlet.sh: old-slow cannot use equal time: at its closest \(--movetime [0-9]+\) its CPU time per move was [0-9.]+ times the new engine's$" "$T/err" \
    && ok || bad "the anchor's calibration named: $(head -c 600 "$T/err")"
expect_line err "gauntlet.sh: old-slow plays all the same (it is the anchor); the summary marks it NOT equal"
expect_line err "gauntlet.sh: new-weights@old left out"
grep -qF "gauntlet.sh: russian, 5 players (new old-slow start-weights depth1 nodes200), 1 round;" "$T/out" \
    && ok || bad "the pool without it: $(head -c 600 "$T/out")"
grep -qE "^  old-slow +[-+][0-9.]+ .* NOT equal$" "$T/out" && ok || bad "the anchor marked: $(grep old-slow "$T/out")"
expect_eq "$(grep -cE '^  new-weights@old ' "$T/out")" 0 "no line for the player left out"
expect_eq "$(db_value "$T/s.sqlite" "SELECT count(*) FROM games")" 8 "games of the smaller pool"
expect_err 2 "--max-cpu-gap 100001 is out of range 0..100000" bash "$G" "${base[@]}" --db "$T/b.sqlite" --max-cpu-gap 100001
# gauntlet.py's own checks: counts of 0 (they divided by zero), a log that is no text, players the
# summary names but --players does not (a calibrated one absent from every line was said to have
# used equal time; an unknown --ref was a traceback)
GP="$SRC/scripts/gauntlet.py"
for o in positions repeat steps; do
  expect_err 2 "argument --$o: '0' must be at least 1" python3 "$GP" calibrate --referee "$DAMA" --movetime 5 \
    --new "$DAMA" --cand "$DAMA" --$o 0
done
printf '\xff' >"$T/bin.log"
expect_err 1 "$T/bin.log: not UTF-8 text (byte 0)" python3 "$GP" summary --log "$T/bin.log" --new a --ref b --players a b
expect_err 2 "gauntlet: ghost not among --players (a b)" python3 "$GP" summary --log "$T/bin.log" --new a --ref b \
  --players a b --calibrated ghost
expect_err 2 "gauntlet: nobody not among --players (a b)" python3 "$GP" summary --log "$T/bin.log" --new a --ref nobody \
  --players a b
python3 "$GP" --help | grep -q -- "summary --log FILE --new NAME --ref NAME --players NAME" && ok || bad "gauntlet.py --help"
finish gauntlet

#!/usr/bin/env bash
# elo_match.sh — scripts/elo_match.py: a match played in parts (--first-pair)
# is the match played at once, and --combine adds the parts' logs up
# (pentanomial from whole pairs only; overlapping parts, other settings,
# a log without a header and a missing file are refused, exit 2); abbreviated
# options are refused (allow_abbrev=False in every scripts/*.py parser).
set -u
. "$(dirname "$0")/lib.sh"
E="$SRC/scripts/elo_match.py"
command -v python3 >/dev/null || { echo "python3 missing: skipped"; exit 77; }

# 1. Synthetic logs: pairs 0-1 in one part, 2-4 in another (pair 4 has one game).
H='# 2026-12-01 10:00:00 new=/x/new old=/x/old game=russian limit=--movetime 50 pairs=2 first-pair=0 new-args='"''"' old-args='"''"' seed=1'
{
    echo "$H"
    echo "game pair 0 opening 'a' new white: 1 A 50 plies | a"
    echo "game pair 0 opening 'a' new black: 1/2 D3 60 plies | a"
    echo "game pair 1 opening 'b' new white: 0 A 40 plies | a"
    echo "game pair 1 opening 'b' new black: 0 A 41 plies | a"
} >"$T/a.log"
{
    echo "${H/first-pair=0/first-pair=2}"
    echo "game pair 2 opening 'c' new black: 1 A 50 plies | a"
    echo "game pair 2 opening 'c' new white: 1 A 52 plies | a"
    echo "game pair 3 opening 'd' new white: 1/2 D3 70 plies | a"
    echo "game pair 3 opening 'd' new black: 1/2 D3 71 plies | a"
    echo "game pair 4 opening 'e' new white: 1 A 30 plies | a"
} >"$T/b.log"
expect_rc 0 "combine two parts" python3 "$E" --combine "$T/a.log" "$T/b.log"
# pairs: 0 -> 1.5, 1 -> 0, 2 -> 2, 3 -> 1: pentanomial 1 0 1 1 1; games W 3 D 3 L 2
expect_eq "$(grep -o 'W [0-9]* D [0-9]* L [0-9]* | pentanomial [0-9 ]*' "$T/out")" "W 3 D 3 L 2 | pentanomial 1 0 1 1 1 " "combined counts"
expect_eq "$(grep -c '1 unfinished pairs left out' "$T/out")" 1 "unfinished pair counted"
expect_eq "$(grep -o 'score [0-9.]*' "$T/out")" "score 0.562" "combined score (4.5 of 8)"

# 2. Refusals.
cp "$T/a.log" "$T/a2.log"
expect_err 2 "pair 0 is in both" python3 "$E" --combine "$T/a.log" "$T/b.log" "$T/a2.log"
expect_err 2 "given twice" python3 "$E" --combine "$T/a.log" "$T/a.log"
sed 's/limit=--movetime 50/limit=--movetime 100/' "$T/b.log" >"$T/c.log"
expect_err 2 "limit=--movetime 100" python3 "$E" --combine "$T/a.log" "$T/c.log"
sed "s/new-args=''/new-args='--search-param RFP_DEPTH=2'/" "$T/b.log" >"$T/d.log"
expect_err 2 "RFP_DEPTH=2" python3 "$E" --combine "$T/a.log" "$T/d.log"
grep -v '^#' "$T/a.log" >"$T/e.log"
expect_err 2 "no match header" python3 "$E" --combine "$T/e.log"
expect_err 2 "cannot read $T/missing.log" python3 "$E" --combine "$T/a.log" "$T/missing.log"
expect_err 2 "--first-pair must be >= 0" python3 "$E" --new "$DAMA" --old "$DAMA" --depth 1 --first-pair -1
# bad input names what and where, exit 2 (argparse's), no traceback
expect_err 2 "--new $T/none: no such executable file" python3 "$E" --new "$T/none" --old "$DAMA" --depth 1
expect_err 2 "--openings $T: no such file" python3 "$E" --new "$DAMA" --old "$DAMA" --depth 1 --openings "$T"
expect_err 2 "--log $T: a folder, not a file" python3 "$E" --new "$DAMA" --old "$DAMA" --depth 1 --log "$T"
expect_err 2 "--log $T/no/x.log: no such folder" python3 "$E" --new "$DAMA" --old "$DAMA" --depth 1 --log "$T/no/x.log"
expect_err 2 "--game chess: $DAMA does not play it" python3 "$E" --new "$DAMA" --old "$DAMA" --depth 1 --game chess
expect_err 2 "--movetime must be >= 0 (got -5)" python3 "$E" --new "$DAMA" --old "$DAMA" --movetime -5
expect_err 2 "give one of --movetime, --depth and --nodes, not --movetime and --depth" python3 "$E" --new "$DAMA" \
  --old "$DAMA" --movetime 10 --depth 3
expect_err 2 "usage: elo_match.py --combine LOG" python3 "$E" --combine
python3 "$E" --help | grep -q -- "--combine LOG \[LOG...\]" && ok || bad "--help: no --combine in its usage"
! grep -q Traceback "$T/err" && ok || bad "a traceback: $(cat "$T/err")"
# an abbreviated option is refused (argparse would take --first-pai as --first-pair)
expect_err 2 "unrecognized arguments: --first-pai" python3 "$E" --new "$DAMA" --old "$DAMA" --depth 1 --first-pai -1
# every argparse parser of scripts/*.py refuses abbreviations
for py in "$SRC"/scripts/*.py; do
    made=$(grep -c 'ArgumentParser(\|\.add_parser(' "$py")
    strict=$(grep -c 'allow_abbrev=False' "$py")
    [ "$made" = "$strict" ] && ok || bad "$py: $made parsers, $strict with allow_abbrev=False"
done
expect_err 2 "unrecognized arguments: --gam" python3 "$SRC/scripts/hub_per_move.py" --referee "$DAMA" --gam russian

# 3. Real games (depth 2, deterministic): pairs 0-2 at once equal pair 0 + pairs 1-2.
for g in turkish russian; do
    args=(--new "$DAMA" --old "$DAMA" --old-args "--search-param LMR_DIV=300" --game $g --depth 2 --concurrency 1 --max-plies 40)
    expect_rc 0 "$g whole" python3 "$E" "${args[@]}" --pairs 3 --log "$T/$g-all.log"
    expect_rc 0 "$g part 1" python3 "$E" "${args[@]}" --pairs 1 --log "$T/$g-1.log"
    expect_rc 0 "$g part 2" python3 "$E" "${args[@]}" --pairs 2 --first-pair 1 --log "$T/$g-2.log"
    expect_eq "$(cat "$T/$g-1.log" "$T/$g-2.log" | grep '^game' | sort)" "$(grep '^game' "$T/$g-all.log" | sort)" "$g parts = whole"
    expect_eq "$(grep -c '^game' "$T/$g-all.log")" 6 "$g games"
    python3 "$E" --combine "$T/$g-1.log" "$T/$g-2.log" >"$T/p" 2>&1
    python3 "$E" --combine "$T/$g-all.log" >"$T/w" 2>&1
    expect_eq "$(head -1 "$T/p" | sed 's/combined [0-9]* logs//')" "$(head -1 "$T/w" | sed 's/combined [0-9]* logs//')" "$g combined = whole"
done
# 4. Time used per move: both sides measured, printed, logged and combined.
expect_eq "$(grep -c '^# time pair' "$T/turkish-all.log")" 6 "a time line per game"
expect_eq "$(grep -cE '^time per move: new wall [0-9.]+ ms cpu [0-9.]+ ms \([0-9]+ moves\), old wall [0-9.]+ ms cpu [0-9.]+ ms \([0-9]+ moves\), new/old wall [0-9.]+ cpu [0-9.]+' "$T/w")" 1 "combined time per move"
expect_err 2 "need --movetime" python3 "$E" --new "$DAMA" --old "$DAMA" --depth 1 --old-movetime 5
expect_rc 0 "calibrate" python3 "$E" --new "$DAMA" --old "$DAMA" --game turkish --movetime 5 --pairs 2 --calibrate-only --calibrate-positions 2 --calibrate-repeat 1 --calibrate-steps 2
expect_eq "$(grep -cE '^calibrate: old --movetime [0-9]+$' "$T/out")" 1 "calibrated movetime printed"
# bad books, arguments and logs: one line naming them, exit 2, before any game (they were tracebacks,
# some after every other pair was played)
: >"$T/empty.tsv"
expect_err 2 "--openings $T/empty.tsv: no opening in it" python3 "$E" --new "$DAMA" --old "$DAMA" --depth 1 --openings "$T/empty.tsv"
printf 'nofen\n' >"$T/notab.tsv"
expect_err 2 "--openings $T/notab.tsv line 1: expected label<TAB>position" python3 "$E" --new "$DAMA" --old "$DAMA" --depth 1 \
  --openings "$T/notab.tsv"
printf 'x\tgarbage\n' >"$T/badfen.tsv"
expect_err 2 "an opening of the match: pair 0's opening 'x': bad position string 'garbage'" python3 "$E" --new "$DAMA" \
  --old "$DAMA" --depth 1 --pairs 1 --openings "$T/badfen.tsv"
expect_err 2 "--new-args '--bogus': dama search: unknown option --bogus" python3 "$E" --new "$DAMA" --old "$DAMA" --depth 1 \
  --new-args=--bogus
printf '\xff' >"$T/bin.log"
expect_err 2 "--combine: $T/bin.log: not UTF-8 text (byte 0)" python3 "$E" --combine "$T/bin.log"
# a binary named without a folder is this folder's, not one on PATH; one pair has no interval
mkdir -p "$T/here" && cp "$DAMA" "$T/here/dama"
(cd "$T/here" && python3 "$E" --new dama --old dama --depth 1 --pairs 1 --concurrency 1) >"$T/here.out" 2>&1 && ok ||
  bad "a binary named 'dama': $(tail -3 "$T/here.out")"
grep -q "| Elo +0.0 (interval not estimable: 1 pair) | 1 pairs" "$T/here.out" && ok || bad "one pair: $(head -2 "$T/here.out")"
# a game an engine cannot play stops the match at once (the rest were played first), the result so far
# printed, exit 1; Ctrl-C stops it at once too (exit 130)
cat >"$T/flaky" <<EOF
#!/bin/sh
# a dama whose 40th search and later fail
if [ "\$1" = search ]; then
  n=\$(( \$(cat "$T/flaky.n" 2>/dev/null || echo 0) + 1 )); echo \$n >"$T/flaky.n"
  [ \$n -ge 40 ] && { echo broken >&2; exit 1; }
fi
exec "$DAMA" "\$@"
EOF
chmod +x "$T/flaky"
expect_rc 1 "an engine fails in the match" python3 "$E" --new "$DAMA" --old "$T/flaky" --nodes 500 --pairs 50 --concurrency 1
grep -q "stopped after [0-9]* of 50 pairs: pair [0-9]*: .*: exit 1: broken" "$T/out" && ok || bad "the failure: $(tail -3 "$T/out")"
python3 "$E" --new "$DAMA" --old "$DAMA" --nodes 3000 --pairs 50 --concurrency 1 >"$T/int.out" 2>&1 &
ipid=$!
sleep 2
kill -INT $ipid
wait $ipid
expect_eq "$?" 130 "elo_match.py stopped by SIGINT"
grep -q "stopped after [0-9]* of 50 pairs: interrupted (Ctrl-C)" "$T/int.out" && ok || bad "SIGINT: $(tail -3 "$T/int.out")"
finish elo_match

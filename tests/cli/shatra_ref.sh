#!/usr/bin/env bash
# shatra_ref.sh DAMA_BINARY SOURCE_DIR — Shatra move generation against the
# independent Python reference tests/ref/shatra_ref.py (written from
# shared/rules/shatra.md, sharing no code with the C generator).
#
# 1. the reference checks itself: perft 1-3 of shared/data/perft/shatra.txt;
# 2. it generates positions from fixed seeds: random games from the start,
#    random placements with first reserve, urgent pieces, en-passant rights
#    and sideways-step entries, and capture-rich ones (long chains,
#    promotions on the way);
# 3. `dama moves --file` lists their moves; the reference compares each list
#    as a set of moves (start, end, captured set, promotion), checks each
#    printed route is a real route of its move, that no move is printed
#    twice and that every position string round-trips, and stops at the
#    first differing position;
# 4. perft 2 of a sample, D and P conventions, from both programs.
set -u
DAMA=${1:?usage: shatra_ref.sh DAMA_BINARY SOURCE_DIR}
SRC=${2:?usage: shatra_ref.sh DAMA_BINARY SOURCE_DIR}
REF="$SRC/tests/ref/shatra_ref.py"
COUNT=${SHATRA_REF_COUNT:-20000}
SEED=${SHATRA_REF_SEED:-2024}

fail() { echo "FAIL: $*" >&2; exit 1; }

command -v python3 >/dev/null || fail "python3 is needed for the reference generator"
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT

python3 "$REF" selftest || fail "the reference fails its own self test"

python3 "$REF" gen "$SEED" "$COUNT" > "$tmp/positions.txt" || fail "position generation"
[ "$(wc -l < "$tmp/positions.txt")" -eq "$COUNT" ] || fail "expected $COUNT positions"

"$DAMA" moves --game shatra --file "$tmp/positions.txt" > "$tmp/dama.txt" 2> "$tmp/dama.err" \
    || { cat "$tmp/dama.err" >&2; fail "dama moves --file exited with an error"; }
[ "$(wc -l < "$tmp/dama.txt")" -eq "$COUNT" ] || fail "dama printed $(wc -l < "$tmp/dama.txt") lines for $COUNT positions"

python3 "$REF" compare "$tmp/dama.txt" || fail "dama and the reference disagree (position above)"

# perft 2 of every 100th position, both conventions
awk 'NR % 100 == 1' "$tmp/positions.txt" > "$tmp/sample.txt"
python3 "$REF" perfts "$tmp/sample.txt" 2 > "$tmp/ref_perft.txt" || fail "reference perft"
n=0
while IFS=$'\t' read -r fen d p; do
    got_d=$("$DAMA" perft --game shatra --fen "$fen" --depth 2 2>/dev/null | awk '/^perft/ {print $3}')
    got_p=$("$DAMA" perft --game shatra --fen "$fen" --depth 2 --paths 2>/dev/null | awk '/^perft/ {print $3}')
    [ "$got_d" = "$d" ] || fail "perft 2 (D) of $fen: dama $got_d, reference $d"
    [ "$got_p" = "$p" ] || fail "perft 2 (P) of $fen: dama $got_p, reference $p"
    n=$((n + 1))
done < "$tmp/ref_perft.txt"
echo "perft 2 (D and P) agrees on $n sampled positions"

#!/usr/bin/env bash
# turkish_ref.sh DAMA_BINARY SOURCE_DIR — Turkish move generation against the
# independent Python reference tests/ref/turkish_ref.py (written from
# docs/rules/turkish.md, sharing no code with the C generator).
#
# 1. the reference checks itself: published perft 1-5 (P, and D equal to it),
#    hand-worked turkish.md positions;
# 2. it generates positions from fixed seeds: random games from the start,
#    king-rich random placements, capture-rich ones (a few kings against many
#    scattered pieces) and men next to the last rank among enemy pieces;
# 3. `dama moves --file` lists their moves; the reference compares each list
#    as a set of moves (start, end, captured set, promotion), checks each
#    printed route is a real full route of its move and that no move is
#    printed twice;
# 4. perft from both programs, D and P conventions: depth 2 on every 10th
#    position; depth 3 where a king ends on a square it emptied, a capture
#    comes back over its start square or a man goes on along the last rank
#    (the position after such a move is checked through its replies); depth 1
#    (P) wherever some move has several routes.
# Environment: TURKISH_REF_COUNT (positions, default 6000), TURKISH_REF_SEED.
set -u
. "$(dirname "$0")/lib.sh"
REF="$SRC/tests/ref/turkish_ref.py"
COUNT=${TURKISH_REF_COUNT:-6000}
SEED=${TURKISH_REF_SEED:-2024}
BAD_SHOWN=10

python3 "$REF" selftest && ok || bad "the reference fails its own self test"

python3 "$REF" gen "$SEED" "$COUNT" >"$T/positions.txt" || { bad "position generation"; finish turkish_ref; exit; }
[ "$(wc -l <"$T/positions.txt")" -eq "$COUNT" ] && ok || bad "expected $COUNT positions"

if "$DAMA" moves --game turkish --file "$T/positions.txt" >"$T/dama.txt" 2>"$T/dama.err" &&
    [ "$(wc -l <"$T/dama.txt")" -eq "$COUNT" ]; then
    ok
    python3 "$REF" compare "$T/dama.txt" >"$T/compare.txt"
    rc=$?
    tail -1 "$T/compare.txt"
    if [ "$rc" -eq 0 ]; then ok; else
        head -40 "$T/compare.txt" | cut -c1-400
        bad "dama and the reference disagree on move lists (above)"
    fi
else
    head -5 "$T/dama.err"
    bad "dama moves --file failed or printed $(wc -l <"$T/dama.txt") lines for $COUNT positions"
fi

# dama perft --depth N (D, or P with --paths) of a position; "" on error
dama_perft() { "$DAMA" perft --game turkish --fen "$1" --depth "$2" ${3:+--paths} 2>/dev/null | awk '/^perft/ {print $3}'; }

# check_perfts FILE DEPTH: FILE holds FEN<TAB>D<TAB>P from the reference
check_perfts() {
    local n=0 fen d p got_d got_p
    while IFS=$'\t' read -r fen d p; do
        got_d=$(dama_perft "$fen" "$2")
        got_p=$(dama_perft "$fen" "$2" paths)
        if [ "$got_d" = "$d" ] && [ "$got_p" = "$p" ]; then ok; else
            bad "perft $2 of $fen: dama D $got_d P $got_p, reference D $d P $p"
        fi
        n=$((n + 1))
    done <"$1"
    echo "perft $2 (D and P) compared on $n positions"
}

python3 "$REF" features "$T/positions.txt" >"$T/features.txt" || bad "reference features"
awk -F'\t' 'NR % 10 == 1 {print $1}' "$T/features.txt" >"$T/sample.txt"
awk -F'\t' '$2 ~ /[LSR]/ {print $1}' "$T/features.txt" >"$T/special.txt"
python3 "$REF" perfts "$T/sample.txt" 2 >"$T/sample2.txt" || bad "reference perft 2"
python3 "$REF" perfts "$T/special.txt" 3 >"$T/special3.txt" || bad "reference perft 3"
check_perfts "$T/sample2.txt" 2
check_perfts "$T/special3.txt" 3

# landing paths (P) wherever a move has several routes
n=0
while IFS=$'\t' read -r fen flags d p; do
    case "$flags" in *M*) ;; *) continue ;; esac
    got=$(dama_perft "$fen" 1 paths)
    [ "$got" = "$p" ] && ok || bad "perft 1 (P) of $fen: dama $got, reference $p"
    n=$((n + 1))
done <"$T/features.txt"
echo "perft 1 (P) compared on $n positions with several routes to a move"

finish turkish_ref

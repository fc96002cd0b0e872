#!/usr/bin/env bash
# russian_ref.sh DAMA_BINARY SOURCE_DIR — Russian move generation against the
# independent Python reference tests/ref/russian_ref.py (written from
# docs/rules/russian.md, sharing no code with the C generator).
#
# 1. the reference checks itself: published perft 1-5, russian.md examples;
# 2. it generates positions from fixed seeds: random games from the start,
#    king-rich random placements, and capture-rich ones (a few kings against
#    many scattered pieces, where flying-king captures are long);
# 3. `dama moves --file` lists their moves; the reference compares each list
#    as a set of moves (start, end, captured set, promotion), checks each
#    printed route is a real full route of its move and that no move is
#    printed twice, and stops at the first differing position;
# 4. perft 2 of a sample, D and P conventions, from both programs.
set -u
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/ref/compare.sh"
ref_compare russian "$DAMA" "$SRC/tests/ref/russian_ref.py" "${RUSSIAN_REF_COUNT:-20000}" "${RUSSIAN_REF_SEED:-2024}"
finish russian_ref

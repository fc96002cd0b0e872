#!/usr/bin/env bash
# shatra_ref.sh DAMA_BINARY SOURCE_DIR — Shatra move generation against the
# independent Python reference tests/ref/shatra_ref.py (written from
# docs/rules/shatra.md, sharing no code with the C generator).
#
# 1. the reference checks itself: perft 1-3 of data/perft/shatra.txt;
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
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/ref/compare.sh"
ref_compare shatra "$DAMA" "$SRC/tests/ref/shatra_ref.py" "${SHATRA_REF_COUNT:-20000}" "${SHATRA_REF_SEED:-2024}"
finish shatra_ref

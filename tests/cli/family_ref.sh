#!/usr/bin/env bash
# family_ref.sh DAMA_BINARY SOURCE_DIR [COUNT] — move generation of the six
# 8x8 variants brazilian, pool, english, czech, italian and spanish, of
# international draughts (10x10) and of canadian draughts (12x12) against
# the independent Python reference tests/ref/family_ref.py (written from
# docs/rules/<game>.md, sharing no code with the C generator).
#
# For each game (FAMILY_REF_GAMES, all eight unless set):
# 1. the reference checks itself: the book's numbering and worked examples
#    (E1-E4; international E1-E5), a few hand-worked positions, published
#    perft 1-6 from the start (canadian 1-5; international also its second
#    position, 1-8);
# 2. it generates COUNT positions (argument 3, else FAMILY_REF_COUNT, else
#    2000) from a fixed seed (FAMILY_REF_SEED): random games from the start,
#    king-rich sparse placements, capture-rich ones (kings among scattered
#    pieces, square loops of jumps) and men near the last row among enemy
#    pieces;
# 3. `dama moves --game GAME --file` lists their moves; the reference
#    compares each list as a set of moves (start, end, captured set,
#    promotion), checks each printed text is a route of its move in the
#    book's notation (the short `AxB` only when no other move has the same
#    start and end) and that no move is printed twice, and stops at the
#    first differing position;
# 4. perft 2 of every 100th position, D and P conventions, from both.
# A game that fails does not stop the others.
set -u
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/ref/compare.sh"
count=${3:-${FAMILY_REF_COUNT:-2000}}
for game in ${FAMILY_REF_GAMES:-brazilian pool english czech italian spanish international canadian}; do
    echo "== $game"
    ref_compare "$game" "$DAMA" "$SRC/tests/ref/family_ref.py" "$count" "${FAMILY_REF_SEED:-2024}" "$game"
done
finish family_ref

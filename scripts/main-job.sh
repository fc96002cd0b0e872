#!/usr/bin/env bash
# dama's main job, end to end: gated generations (dama train: self-play ->
# Texel tuning -> SPRT gate against the best weights -> Elo ladder against
# generation 0), then export of the best accepted generation as the
# compiled-in evaluation and a rebuild — only if some generation passed its
# gate; otherwise weights.h is left as it is.
# Usage: bash scripts/main-job.sh [GAME]   (GAME: any game dama knows, default russian; DB=path to use another database file;
#        GENERATIONS, GAMES, NODES, GATE_PAIRS, LADDER_PAIRS override the sizes; TRAIN_ARGS adds dama train
#        options, e.g. TRAIN_ARGS="--lr 1 --patience 40", as the tuner's advice names them)
# The database is created in the directory you run this from. Interrupted,
# the same command resumes the train where it stopped.
set -euo pipefail
GAME="${1:-russian}"
HERE="$PWD"
DB="${DB:-$HERE/dama.sqlite}"
# Sizes by measurement (Russian, 2 cores): a self-play game at 4,000 nodes
# per move costs about 0.06 CPU-seconds with the compiled-in evaluation of
# 2026-12-07 (0.16 with the pattern evaluation of 2026-11), so a generation
# (3,000 self-play games, a gate of at most 1,000 pairs, a ladder of 200
# pairs, the tuning) takes about 3 minutes on an idle 2-core machine, 4
# generations about 12 minutes (11 min 37 s on a clean clone).
GENERATIONS="${GENERATIONS:-4}"
GAMES="${GAMES:-3000}"
NODES="${NODES:-4000}"
GATE_PAIRS="${GATE_PAIRS:-1000}"
LADDER_PAIRS="${LADDER_PAIRS:-200}"
cd "$(dirname "$0")/.."
ROOT="$PWD"
# a game dama knows has its compiled-in weights (engine/games/GAME/weights.h): a misspelt name is
# refused before the dependencies and the build, which take minutes on a first run
if [ ! -f "engine/games/$GAME/weights.h" ]; then
    echo "main-job.sh: unknown game '$GAME' (games: $(ls engine/games/*/weights.h | cut -d/ -f3 | tr '\n' ' ' | sed 's/ $//'))" >&2
    exit 2
fi
# the sizes are whole numbers: a typo is refused here, not by dama train after the build
for v in GENERATIONS GAMES NODES GATE_PAIRS LADDER_PAIRS; do
    if ! [[ "${!v}" =~ ^[1-9][0-9]{0,8}$ ]]; then
        echo "main-job.sh: $v='${!v}': need a whole number 1..999999999" >&2
        exit 2
    fi
done
if [ $((GAMES % 2)) -ne 0 ]; then # self-play plays each opening from both sides
    echo "main-job.sh: GAMES=$GAMES: need an even number (each opening is played from both sides)" >&2
    exit 2
fi
bash scripts/install-deps.sh
echo "== build"
TARGET=dama bash scripts/build.sh
DAMA="$ROOT/build/dama"
echo "== 1. gated generations ($GAME) into $DB"
read -r -a EXTRA <<<"${TRAIN_ARGS:-}" # words, no shell expansion
rc=0
"$DAMA" train --game "$GAME" --db "$DB" --generations "$GENERATIONS" --games-per-gen "$GAMES" \
    --nodes "$NODES" --window 2 --gate-pairs "$GATE_PAIRS" --elo0 0 --elo1 5 --ladder-pairs "$LADDER_PAIRS" \
    ${EXTRA[@]+"${EXTRA[@]}"} || rc=$?
if [ "$rc" -ne 0 ]; then
    # the train's own hint names its command: here that is this script with the same variables
    [ "$rc" -eq 3 ] && echo "== interrupted: run this script again with the same variables (GAME, DB, GENERATIONS," \
        "GAMES, NODES, GATE_PAIRS, LADDER_PAIRS, TRAIN_ARGS) to resume; other sizes start a new train" >&2
    exit "$rc"
fi
# The train just run is the newest of the game: did any generation after 0
# pass its gate?
accepted=$(sqlite3 "$DB" "SELECT count(*) FROM generations WHERE accepted = 1 AND generation > 0 AND train_id = (SELECT max(id) FROM trains WHERE game = '$GAME')")
if [ "$accepted" -gt 0 ]; then
    echo "== 2. export: the best accepted generation as the compiled-in weights, rebuild"
    "$DAMA" export --game "$GAME" --db "$DB" --weights best
    "$DAMA" export --game "$GAME" --db "$DB" --weights best --format cfg --out "$HERE/$GAME-best.cfg" --force
    TARGET=dama bash scripts/build.sh
    "$DAMA" bench --game "$GAME" | head -1
    echo "== done: database $DB, best weights $HERE/$GAME-best.cfg and engine/games/$GAME/weights.h"
else
    echo "== 2. no generation passed its gate: nothing exported, engine/games/$GAME/weights.h unchanged"
    echo "== done: database $DB (dama train --db $DB --game $GAME --ladder shows the generations)"
fi

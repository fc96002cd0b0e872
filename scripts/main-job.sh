#!/usr/bin/env bash
# dama's main job, end to end: self-play -> Texel tuning -> export of the
# tuned weights as the compiled-in evaluation -> rebuild -> match of the
# tuned against the starting weights.
# Usage: bash scripts/main-job.sh [russian]   (DB=path to use another database file)
# The database is created in the directory you run this from.
set -euo pipefail
GAME="${1:-russian}"
HERE="$PWD"
DB="${DB:-$HERE/dama.sqlite}"
cd "$(dirname "$0")/.."
ROOT="$PWD"
bash scripts/install-deps.sh
echo "== build"
bash scripts/build.sh
DAMA="$ROOT/build/dama"
echo "== 1. self-play ($GAME) into $DB"
"$DAMA" selfplay --game "$GAME" --db "$DB"
echo "== 2. tuning"
"$DAMA" tune --game "$GAME" --db "$DB" --out "$HERE/$GAME-tuned.cfg" --force
echo "== 3. export: compiled-in weights, rebuild"
"$DAMA" export --game "$GAME" --db "$DB" --weights tuned
bash scripts/build.sh
"$DAMA" bench --game "$GAME" | head -1
echo "== 4. match: tuned (A) against the weights the run started from (B)"
"$DAMA" match --game "$GAME" --db "$DB" --a tuned
echo "== done: database $DB, tuned weights $HERE/$GAME-tuned.cfg and src/games/$GAME/weights.h"

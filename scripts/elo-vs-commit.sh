#!/usr/bin/env bash
# elo-vs-commit.sh COMMIT [--game G] [--movetime MS | --depth D | --nodes N] [--pairs N] [--first-pair K] [--concurrency C]
#                  [--log FILE] [other scripts/elo_match.py options]
# Builds COMMIT in a temporary worktree (Release, the dama target only) and
# plays the current build (build/dama; built first if missing) against it at
# equal time per move, paired openings, both colours, one process per move
# (`dama search --fen FEN --movetime MS`, as an outside referee drives it).
# Results: W/D/L, pentanomial counts, Elo +- 95%; every game goes to the log
# (default: logs/elo-vs-COMMIT-GAME.log). Default: 100 ms/move, 100 pairs.
# A match in parts: --first-pair K --pairs N plays pairs K..K+N-1 of the
# opening sequence of one long match (run the parts with their own --log),
# then `python3 scripts/elo_match.py --combine LOG1 LOG2 ...` adds them up.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh # the compiler and git
[ $# -ge 1 ] || { echo "usage: $0 COMMIT [--game G] [--movetime MS] [--pairs N] [--concurrency C] [--log FILE]" >&2; exit 2; }
commit=$(git rev-parse --verify --quiet "$1^{commit}") || { echo "$0: '$1' is not a commit of this repository" >&2; exit 2; }
shift
short=${commit:0:7}
game=russian
limit_given=0
log=""
args=()
while [ $# -gt 0 ]; do
    case "$1" in
    --game) game="$2"; args+=("$1" "$2"); shift 2 ;;
    --movetime|--depth|--nodes) limit_given=1; args+=("$1" "$2"); shift 2 ;;
    --log) log="$2"; shift 2 ;;
    *) args+=("$1"); shift ;;
    esac
done
[ "$limit_given" = 1 ] || args+=(--movetime 100)
[ -n "$log" ] || { mkdir -p logs; log="logs/elo-vs-$short-$game.log"; }
old=$(bash scripts/old-dama.sh "$commit")
[ -x build/dama ] || bash scripts/build.sh >/dev/null
# Snapshot the new binary (beside the old one, in old-dama.sh's cache folder):
# rebuilding build/dama during the match must not change it.
new="$(dirname "$old")/dama-new-$$"
cp build/dama "$new"
echo "new: build/dama ($(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo ', modified')) vs old: $short; log: $log"
nice -n 10 python3 scripts/elo_match.py --new "$new" --old "$old" --log "$log" "${args[@]}"
rm -f "$new"

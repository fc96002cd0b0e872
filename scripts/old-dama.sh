#!/usr/bin/env bash
# old-dama.sh COMMIT: the dama binary of COMMIT, built once (a temporary
# worktree, Release, the dama target only) into the cache folder
# $DAMA_ELO_CACHE (default /tmp/dama-elo-bin) as dama-SHORT; prints its
# path. Used by elo-vs-commit.sh and gauntlet.sh.
# Exit status: 0, 1 the build failed, 2 not a commit of this repository.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
[ $# = 1 ] || { echo "usage: $0 COMMIT" >&2; exit 2; }
commit=$(git rev-parse --verify --quiet "$1^{commit}") || { echo "$0: '$1' is not a commit of this repository" >&2; exit 2; }
cache="${DAMA_ELO_CACHE:-/tmp/dama-elo-bin}"
bin="$cache/dama-${commit:0:7}"
if [ ! -x "$bin" ]; then
    mkdir -p "$cache"
    wt=$(mktemp -d)
    trap 'git -C "$root" worktree remove --force "$wt" >/dev/null 2>&1 || true; rm -rf "$wt"' EXIT
    echo "old-dama.sh: building ${commit:0:7} into $bin" >&2
    git worktree add --detach "$wt" "$commit" >/dev/null
    cmake -S "$wt" -B "$wt/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
    nice -n 10 cmake --build "$wt/build" -j2 --target dama >/dev/null
    cp "$wt/build/dama" "$bin.tmp" && mv "$bin.tmp" "$bin"
fi
echo "$bin"

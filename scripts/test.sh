#!/usr/bin/env bash
# Sets up and runs dama's test suite (everything but the `slow` label).
# Usage: bash scripts/test.sh            (add SLOW=1 for the deep perft tests too)
set -euo pipefail
cd "$(dirname "$0")/.."
TESTS=1 bash scripts/install-deps.sh
bash scripts/build.sh -DDAMA_WERROR=ON
if [ "${SLOW:-0}" = 1 ]; then
  ctest --test-dir build --output-on-failure -j2
else
  ctest --test-dir build --output-on-failure -j2 -LE slow
fi

#!/usr/bin/env bash
# Configures and builds dama into build/ (Release). Extra arguments go to cmake;
# TARGET=dama builds that target alone (the main job: no tests, web page or manual).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build build -j"$(nproc)" ${TARGET:+--target "$TARGET"}

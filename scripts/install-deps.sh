#!/usr/bin/env bash
# Installs what dama needs on a Debian machine (run as root, or with sudo).
set -euo pipefail
# Every tool the tests and scripts call that a minimal Debian lacks is here: sqlite3 (the tests
# read the databases), python3 (reference generators, report checks), git (elo-vs-commit.sh).
PKGS="build-essential cmake pkg-config libsqlite3-dev sqlite3 libconfig-dev libcjson-dev libcmocka-dev libzstd-dev libxxhash-dev python3 git"
# Fuzzing (scripts/fuzz.sh sets FUZZ=1): clang's libFuzzer and sanitizer runtimes, LLVM's OpenMP.
[ "${FUZZ:-0}" = 1 ] && PKGS="$PKGS clang-14 libclang-rt-14-dev libomp-14-dev"
# The MPI build (-DDAMA_MPI=ON; CI sets MPI=1): Debian's Open MPI (mpicc, mpirun).
[ "${MPI:-0}" = 1 ] && PKGS="$PKGS libopenmpi-dev openmpi-bin"
# The test suite (scripts/test.sh and CI set TESTS=1): Debian's chromium, in which
# tests/browser/report.sh renders `dama report` headless (about 30 s and 360 MB).
TEST_PKGS=""
[ "${TESTS:-0}" = 1 ] && TEST_PKGS="chromium fonts-dejavu-core"
# The web page (scripts/build-web.sh; WEB=1, and TESTS=1 for tests/browser/play.sh):
# clang for wasm32-wasi with its linker, C library and builtins, binaryen's
# wasm-opt; the browser test drives chromium from node with playwright-core (npm).
WEB_PKGS="clang lld wasi-libc libclang-rt-14-dev-wasm32 binaryen"
if [ "${WEB:-0}" = 1 ] || [ "${TESTS:-0}" = 1 ]; then
  TEST_PKGS="$TEST_PKGS $WEB_PKGS"
  # Debian's node and npm, unless a node (with its npm) is there already.
  command -v node >/dev/null || TEST_PKGS="$TEST_PKGS nodejs"
  command -v npm >/dev/null || TEST_PKGS="$TEST_PKGS npm"
fi
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "installing:$missing"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi
missing=""
for p in $TEST_PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "installing for the tests:$missing"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
# playwright-core (tests/browser/package-lock.json) into tests/browser/node_modules:
# a driver only, it downloads no browser.
if { [ "${WEB:-0}" = 1 ] || [ "${TESTS:-0}" = 1 ]; } && [ ! -f "$(dirname "$0")/../tests/browser/node_modules/playwright-core/package.json" ]; then
  echo "installing playwright-core (npm) into tests/browser/node_modules"
  (cd "$(dirname "$0")/../tests/browser" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi

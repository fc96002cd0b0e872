#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ (clang, AddressSanitizer +
# UndefinedBehaviorSanitizer, into build-fuzz/) and runs each for a bounded
# time from its seed corpus fuzz/corpus/<target>/, as many at once as there
# are cores. Fails when a target finds a crash, a sanitizer report, a leak,
# a hang or a broken parser contract; the input is kept in build-fuzz/crashes/
# and the target's log is printed.
# Usage: bash scripts/fuzz.sh [TARGET...]   (default: every target)
#   FUZZ_SECONDS=30   time per target
#   FUZZ_OUT=DIR      where new corpus entries go (default: a temporary folder;
#                     the committed seed corpus is never written)
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZ=1 bash scripts/install-deps.sh
CC_FUZZ=$(command -v clang-14 || command -v clang)
cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER="$CC_FUZZ" -DDAMA_FUZZ=ON -DDAMA_WEB=OFF >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target fuzz >/dev/null
seconds=${FUZZ_SECONDS:-30}
if [ $# -gt 0 ]; then targets=("$@"); else
  targets=(position_russian position_turkish position_shatra position_english position_italian position_international move_russian move_turkish move_shatra move_english move_italian move_international pdn config weights web_json dxp hub book)
fi
out=${FUZZ_OUT:-$(mktemp -d)}
logs=$(mktemp -d)
trap 'rm -rf "$logs"; [ -n "${FUZZ_OUT:-}" ] || rm -rf "$out"' EXIT
mkdir -p build-fuzz/crashes
# scratch files of the config and weight targets: in memory when possible (twice the executions),
# in a folder of this run's own that goes with it (a target that crashes leaves its file behind)
if [ -z "${TMPDIR:-}" ]; then if [ -w /dev/shm ]; then TMPDIR=/dev/shm; else TMPDIR=/tmp; fi; fi
scratch=$(mktemp -d -p "$TMPDIR" dama-fuzz.XXXXXX)
trap 'rm -rf "$logs" "$scratch"; [ -n "${FUZZ_OUT:-}" ] || rm -rf "$out"' EXIT
TMPDIR=$scratch
export TMPDIR
export LSAN_OPTIONS="suppressions=$PWD/fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
run_one() {
  local t=$1
  mkdir -p "$out/$t"
  if build-fuzz/fuzz/fuzz_"$t" -max_total_time="$seconds" -max_len=4096 -timeout=10 -close_fd_mask=2 \
      -print_final_stats=1 -artifact_prefix="build-fuzz/crashes/$t-" "$out/$t" "fuzz/corpus/$t" \
      >"$logs/$t.log" 2>&1; then
    echo "fuzz_$t: $(sed -n 's/^stat::number_of_executed_units: *//p' "$logs/$t.log") executions in ${seconds} s, nothing found"
  else
    echo "fuzz_$t: FAILED"
    tail -n 60 "$logs/$t.log"
    return 1
  fi
}
export -f run_one
export seconds out logs
printf '%s\n' "${targets[@]}" | xargs -P "$(nproc)" -I{} bash -c 'run_one {}'

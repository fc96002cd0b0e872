#!/usr/bin/env bash
# The test suite under load: runs it RUNS times in a row (3 unless set) with
# LOOPS busy loops (`yes >/dev/null`, 2 unless set) beside it, which take
# the CPUs from the tests as a busy machine would; prints pass or FAIL for
# each run (with the failed tests' names) and exits 1 when any run failed.
# The busy loops are ended at the end, also on failure or Ctrl-C.
# Usage: bash scripts/stress-tests.sh            the README's test command
#                                                (bash scripts/test.sh) each time
#        bash scripts/stress-tests.sh BUILD_DIR  ctest on an existing build
#                                                (ctest -j2 -LE slow) each time
# Each run's output is kept in LOG_DIR (a new folder under /tmp unless set).
set -u
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
LOOPS=${LOOPS:-2}
BUILD=${1:-}
if [ -n "$BUILD" ] && [ ! -f "$BUILD/CTestTestfile.cmake" ]; then
  echo "stress-tests.sh: '$BUILD' is not a build folder with tests (no CTestTestfile.cmake)" >&2
  exit 2
fi
LOG_DIR=${LOG_DIR:-$(mktemp -d /tmp/dama-stress.XXXXXX)}
mkdir -p "$LOG_DIR"

busy=()
stop_busy() {
  local p
  for p in "${busy[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${busy[@]}"; do wait "$p" 2>/dev/null; done
  busy=()
}
trap stop_busy EXIT
trap 'stop_busy; exit 130' INT TERM
for ((i = 0; i < LOOPS; i++)); do
  yes >/dev/null &
  busy+=($!)
done

if [ -n "$BUILD" ]; then what="ctest --test-dir $BUILD -j2 -LE slow"; else what="bash scripts/test.sh"; fi
echo "stress: $what, $RUNS runs, $LOOPS busy loops beside it ($(nproc) CPUs); logs in $LOG_DIR"
failed=0
for ((r = 1; r <= RUNS; r++)); do
  log="$LOG_DIR/run-$r.log"
  start=$SECONDS
  if [ -n "$BUILD" ]; then
    ctest --test-dir "$BUILD" --output-on-failure -j2 -LE slow >"$log" 2>&1
  else
    bash scripts/test.sh >"$log" 2>&1
  fi
  rc=$?
  secs=$((SECONDS - start))
  if [ "$rc" = 0 ]; then
    echo "run $r: pass ($secs s; $(grep -m1 'tests passed' "$log"))"
  else
    failed=$((failed + 1))
    names=$(sed -n '/The following tests FAILED:/,$p' "$log" | sed -n 's/^[[:space:]]*[0-9]* - \([^ ]*\) .*/\1/p' |
      paste -sd' ')
    echo "run $r: FAIL (exit $rc, $secs s; $(grep -m1 'tests failed' "$log")): ${names:-see the log} — $log"
  fi
done
stop_busy
echo "stress: $((RUNS - failed)) of $RUNS runs passed"
[ "$failed" = 0 ]

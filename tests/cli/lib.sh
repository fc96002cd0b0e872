# lib.sh — the harness the shell tests of tests/cli/ share; a test sources
# it first thing, with its own arguments:
#     set -u
#     . "$(dirname "$0")/lib.sh"      # the test's $1 and $2 are dama's
# Sets DAMA (the dama binary, argument 1) and SRC (the source tree,
# argument 2), makes a scratch folder T (removed on exit), counts checks
# (ok, bad MESSAGE) and gives two checks:
#     expect_eq GOT WANT WHAT       the two strings are equal
#     expect_rc RC WHAT COMMAND...  COMMAND exits with RC; its output in
#                                   $T/out and $T/err, its exit code in rc
# A test ends with `finish NAME`: the counts on one line, and the test's
# exit status (0 when nothing failed). Not a test itself (CMakeLists.txt
# leaves it out of the cli_ tests).
DAMA="$1"
SRC="${2:-}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
expect_eq() { [ "$1" = "$2" ] && ok || bad "$3: expected '$2', got '$1'"; }
expect_rc() { "${@:3}" >"$T/out" 2>"$T/err"; rc=$?; [ "$rc" = "$1" ] && ok || bad "$2: exit $rc (expected $1): $(head -c 300 "$T/err")"; }
finish() {
  echo "$1: $pass passed, $fail failed"
  [ "$fail" = 0 ]
}

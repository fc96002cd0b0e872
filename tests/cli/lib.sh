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
#     expect_err RC MSG COMMAND...  the same, and MSG (a fixed string) is
#                                   on its standard error
# Tests outside tests/cli/ source it too, with the arguments it expects
# ("" for one they do not have).
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
expect_err() {
  local want="$1" msg="$2"
  shift 2
  "$@" >"$T/out" 2>"$T/err"
  local rc=$?
  if [ "$rc" != "$want" ]; then bad "$*: exit $rc (expected $want): $(head -c 300 "$T/err")"; return; fi
  if ! grep -qF -- "$msg" "$T/err"; then bad "$*: stderr lacks '$msg': $(head -c 300 "$T/err")"; return; fi
  ok
}
finish() {
  echo "$1: $pass passed, $fail failed"
  [ "$fail" = 0 ]
}

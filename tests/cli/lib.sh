# lib.sh — the harness every shell test shares (tests/cli, tests/mpi,
# tests/browser, tests/abi, tests/install); a test sources it first thing,
# with its own arguments:
#     set -u
#     . "$(dirname "$0")/lib.sh"      # the test's $1 and $2 are dama's
# Sets DAMA (the dama binary, argument 1) and SRC (the source tree,
# argument 2), makes a scratch folder T (removed on exit) and counts checks.
# A test outside tests/cli/ gives it the arguments it expects ("" for one it
# does not have).
#
# Checks:
#     ok / bad MESSAGE              count a check passed / failed (the first
#                                   BAD_SHOWN failures are printed, 25 unless set)
#     expect_eq GOT WANT WHAT       the two strings are equal
#     expect_rc RC WHAT COMMAND...  COMMAND (standard input /dev/null) exits
#                                   with RC; its output in $T/out and $T/err,
#                                   its exit code in rc
#     expect_err RC MSG COMMAND...  the same, and MSG (a fixed string) is on
#                                   its standard error
#     expect_line out|err LINE      LINE (exact) is a line of what the last
#                                   expect_rc or expect_err printed there
#     finish NAME                   the last command of a test: the counts on
#                                   one line, and the test's exit status (0
#                                   when nothing failed)
# Waiting (for an event, never for a time: a loaded machine is slow):
#     wait_until [-p PID] [-i SECONDS] WHAT COMMAND...
#         runs COMMAND every 0.1 s (-i: every SECONDS, for a short window)
#         until it succeeds (status 0). With -p, stops with status 1 when
#         process PID has ended first (the caller decides whether that is a
#         failure). After WAIT_S seconds of tries (300 unless set: far
#         beyond what any test needs on a loaded machine) it fails the
#         check "WHAT" and returns 2.
#     at_least DB SQL N             SQL's number on database DB is N or more
#                                   (false while DB does not exist yet; never
#                                   creates it, as sqlite3 would)
#     db_value DB SQL               SQL's result on DB; nothing, status 1,
#                                   while DB does not exist yet
# Processes (from /proc: procps, which has pgrep and ps, is not in a minimal
# Debian):
#     proc_alive PID                PID runs (a zombie has ended)
#     proc_children PID             the ids of PID's child processes
#     proc_args PID                 PID's command line, arguments joined by spaces
#     proc_find TEXT                the ids of the processes whose command
#                                   line holds TEXT
# The time used per move (`dama match`, `dama tournament`; values vary, so
# the checks are of relations, never of a clock):
#     check_time_line LINE MOVES WALL_S CPU_S WHAT
#                                   LINE's "wall X ms, CPU Y ms per move (N
#                                   moves)" is the database's sums: N equal
#                                   to MOVES (> 0), X and Y the sums' means
#                                   per move in ms within the printed rounding
#     check_match_times OUT DB RUN [CPU_SIDES]
#                                   the "time used by A/B" lines of a match's
#                                   standard output (file OUT) are the sums
#                                   of run RUN's games in DB (A White in the
#                                   even games); the ratio line agrees with
#                                   them; each side in CPU_SIDES ("AB", "A")
#                                   used some CPU time
# Not a test itself (CMakeLists.txt leaves it out of the cli_ tests).
DAMA="$1"
SRC="${2:-}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# The default endgame-database directory (egtb_default_dir) of the user
# running the tests is not read: an empty folder of the test's instead.
export DAMA_EGTB="$T/egtb-default"
# Open MPI's shared-memory files (the vader BTL's vader_segment.*, in
# /dev/shm by default, where a killed mpirun or rank leaves them) go into
# the scratch folder, removed with it; they exist only while ranks run.
# (Open MPI 4.1's name; Open MPI 5 calls the BTL sm.)
export OMPI_MCA_btl_vader_backing_directory="$T"
pass=0
fail=0
BAD_SHOWN=${BAD_SHOWN:-25}
WAIT_S=${WAIT_S:-300}

ok() { pass=$((pass + 1)); }
bad() {
  fail=$((fail + 1))
  if [ "$fail" -le "$BAD_SHOWN" ]; then echo "FAIL: $*"; elif [ "$fail" = $((BAD_SHOWN + 1)) ]; then
    echo "(further failures counted, not shown)"
  fi
}
expect_eq() { [ "$1" = "$2" ] && ok || bad "$3: expected '$2', got '$1'"; }
expect_rc() {
  "${@:3}" </dev/null >"$T/out" 2>"$T/err"
  rc=$?
  [ "$rc" = "$1" ] && ok || bad "$2: exit $rc (expected $1): $(head -c 300 "$T/err")"
}
expect_err() {
  local want="$1" msg="$2"
  shift 2
  "$@" </dev/null >"$T/out" 2>"$T/err"
  rc=$?
  if [ "$rc" != "$want" ]; then bad "$*: exit $rc (expected $want): $(head -c 300 "$T/err")"; return; fi
  if ! grep -qF -- "$msg" "$T/err"; then bad "$*: stderr lacks '$msg': $(head -c 300 "$T/err")"; return; fi
  ok
}
# expect_prompt_stop PID WHAT: Ctrl-C (SIGINT) to background job PID stops it within 5 s, exit 3
expect_prompt_stop() {
  local t0 rc ms
  t0=$(date +%s%N)
  kill -INT "$1"
  wait "$1"
  rc=$?
  ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  expect_eq "$rc" 3 "$2: exit 3"
  [ "$ms" -lt 5000 ] && ok || bad "$2: $ms ms to stop"
}
expect_line() { grep -qxF -- "$2" "$T/$1" && ok || bad "no line '$2' in std$1: $(head -c 600 "$T/$1")"; }
finish() {
  echo "$1: $pass passed, $fail failed"
  [ "$fail" = 0 ]
}

wait_until() {
  local pid="" every=0.1 what i tries
  while :; do
    case "$1" in
      -p) pid=$2 ;;
      -i) every=$2 ;;
      *) break ;;
    esac
    shift 2
  done
  what=$1
  shift
  tries=$(awk -v s="$WAIT_S" -v e="$every" 'BEGIN { printf "%d", s / e }')
  for ((i = 0; i < tries; i++)); do
    "$@" && return 0
    if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then
      "$@" && return 0 # it may have come true as the process ended
      return 1
    fi
    sleep "$every"
  done
  bad "$what: still not so after $tries tries $every s apart"
  return 2
}
# dxp_follower NAME ARGS...: `dama dxp --listen` in the background on a free
# port of 127.0.0.1 (ARGS: its engine options), killed after $LIMIT seconds;
# its log, output and errors in $T/NAME.flog, .fout, .ferr. Sets PORT (from
# its "listening on" line) and FPID.
dxp_follower() {
  local name=$1
  shift
  timeout "${LIMIT:-300}" "$DAMA" dxp --listen 127.0.0.1:0 --log "$T/$name.flog" "$@" \
    >"$T/$name.fout" 2>"$T/$name.ferr" &
  FPID=$!
  PORT=""
  wait_until -p "$FPID" "$name: the follower's port" grep -q '^dxp: listening on 127.0.0.1:[0-9]*$' "$T/$name.fout"
  PORT=$(sed -n 's/^dxp: listening on 127.0.0.1:\([0-9]*\)$/\1/p' "$T/$name.fout")
  [ -n "$PORT" ] && ok || bad "$name: no port in: $(cat "$T/$name.fout" "$T/$name.ferr")"
}
db_value() { [ -e "$1" ] && sqlite3 -cmd '.timeout 30000' "$1" "$2" 2>/dev/null; }
at_least() {
  local v
  v=$(db_value "$1" "$2") && [ -n "$v" ] && [ "$v" -ge "$3" ] 2>/dev/null
}

proc_read() { # PID: P_STATE and P_PPID of PID (no fork: the waits call it often); 1 if there is none
  local line f
  { read -r line <"/proc/$1/stat"; } 2>/dev/null || return 1
  read -r -a f <<<"${line##*) }" # after the command name, which may hold spaces
  P_STATE=${f[0]} P_PPID=${f[1]}
}
proc_alive() { proc_read "$1" && [ "$P_STATE" != Z ]; }
proc_children() {
  local d
  for d in /proc/[0-9]*; do
    proc_read "${d#/proc/}" && [ "$P_PPID" = "$1" ] && echo "${d#/proc/}"
  done
  return 0
}
proc_args() {
  local a
  { mapfile -d '' a <"/proc/$1/cmdline"; } 2>/dev/null || return 1
  echo "${a[*]}"
}
proc_find() {
  local d a
  for d in /proc/[0-9]*; do
    { mapfile -d '' a <"$d/cmdline"; } 2>/dev/null || continue
    case "${a[*]}" in *"$1"*) echo "${d#/proc/}" ;; esac
  done
  return 0
}

check_time_line() {
  local line="$1" moves="$2" wall="$3" cpu="$4" what="$5" pw pc pm
  pw=$(sed -n 's/.*wall \([0-9.]*\) ms, CPU [0-9.]* ms per move ([0-9]* moves).*/\1/p' <<<"$line")
  pc=$(sed -n 's/.*wall [0-9.]* ms, CPU \([0-9.]*\) ms per move ([0-9]* moves).*/\1/p' <<<"$line")
  pm=$(sed -n 's/.*wall [0-9.]* ms, CPU [0-9.]* ms per move (\([0-9]*\) moves).*/\1/p' <<<"$line")
  if [ -z "$pw" ] || [ -z "$pc" ] || [ -z "$pm" ]; then
    bad "$what: no time per move in '$line'"
    return
  fi
  awk -v m="$moves" -v w="$wall" -v c="$cpu" -v pw="$pw" -v pc="$pc" -v pm="$pm" 'function abs(x) { return x < 0 ? -x : x }
    BEGIN { exit !(m + 0 > 0 && m + 0 == pm + 0 && abs(1000 * w / m - pw) <= 0.006 && abs(1000 * c / m - pc) <= 0.006) }' \
    && ok || bad "$what: '$line' is not the stored $moves moves, $wall s wall, $cpu s CPU"
}

check_match_times() {
  local out="$1" db="$2" run="$3" cpu_sides="${4:-}" side own other sums line ratio
  local -A mean_w mean_c
  for side in A B; do
    if [ "$side" = A ]; then own=white other=black; else own=black other=white; fi
    sums=$(sqlite3 -separator ' ' "$db" "SELECT
      total(CASE WHEN game_index % 2 = 0 THEN ${own}_moves ELSE ${other}_moves END),
      total(CASE WHEN game_index % 2 = 0 THEN ${own}_wall_s ELSE ${other}_wall_s END),
      total(CASE WHEN game_index % 2 = 0 THEN ${own}_cpu_s ELSE ${other}_cpu_s END) FROM games WHERE run_id = $run")
    set -- $sums
    line=$(grep "^time used by $side: " "$out")
    check_time_line "$line" "${1%.0}" "$2" "$3" "match time of $side"
    mean_w[$side]=$(awk -v m="$1" -v s="$2" 'BEGIN { printf "%.12g\n", 1000 * s / m }')
    mean_c[$side]=$(awk -v m="$1" -v s="$3" 'BEGIN { printf "%.12g\n", 1000 * s / m }')
    case "$cpu_sides" in *"$side"*)
      awk -v c="$3" 'BEGIN { exit !(c > 0) }' && ok || bad "match: $side used no CPU time ($3 s stored)" ;;
    esac
  done
  ratio=$(grep "^time ratio A/B: " "$out")
  # the ratios of the stored means, and the verdict of the 5% rule (a mean
  # within a hair of the bound is not judged: the two sides round apart)
  awk -v a_wall="${mean_w[A]}" -v a_cpu="${mean_c[A]}" -v b_wall="${mean_w[B]}" -v b_cpu="${mean_c[B]}" -v line="$ratio" '
    function abs(x) { return x < 0 ? -x : x }
    function excess(r) { return r >= 1 ? r - 1 : 1 / r - 1 }
    BEGIN {
      if (b_wall <= 0 || b_cpu <= 0 || a_wall <= 0 || a_cpu <= 0) exit !(line ~ /not measured/)
      rw = a_wall / b_wall; rc = a_cpu / b_cpu
      if (!match(line, /wall [0-9.]+, CPU [0-9.]+: /)) exit 1
      split(substr(line, RSTART, RLENGTH), f, /[ ,:]+/)
      if (abs(f[2] - rw) > 0.0006 || abs(f[4] - rc) > 0.0006) exit 1
      ew = excess(rw); ec = excess(rc)
      if (abs(ew - 0.05) < 0.001 || abs(ec - 0.05) < 0.001) exit 0
      eq = ew <= 0.05 && ec <= 0.05
      exit !(eq ? line ~ /: equal time used \(within 5%\)$/ : line ~ /: unequal time: [AB] used [0-9.]+% more (wall|CPU) time than [AB]$/)
    }' && ok || bad "match: the ratio line '$ratio' is not that of the stored means (A ${mean_w[A]}/${mean_c[A]} ms, B ${mean_w[B]}/${mean_c[B]} ms)"
}

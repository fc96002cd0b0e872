#!/usr/bin/env bash
# gauntlet.sh [--game G] [--rounds N | --games N] [--movetime MS] [--db FILE] [--concurrency C] [--seed S]
#             [--engine BIN] [--old COMMIT|BIN] [--runner BIN] [--depth D] [--nodes N] [--max-plies N]
#             [--calibrate-positions N] [--max-cpu-gap PCT]
# A fixed, diverse pool rated together at equal used time (docs/tournaments.md, "The gauntlet"):
#   new            the engine under test (--engine, default build/dama) at --movetime (default 100)
#   old-SHORT      the dama of commit --old (default 7ad9123; built into a cache folder as
#                  scripts/elo-vs-commit.sh does), or a binary given as a path; it must play
#                  --game (7ad9123 predates the six 8x8 variants and International: give them a newer --old)
#   start-weights  the hand-set start weights (configs/weights/GAME-start.cfg) under the new search
#   new-weights@old  the new engine's weights under the old search, when the old binary loads them
#   depthD, nodesN a depth-limited and a node-limited new search
# Every player is a fresh `search` process per move (scripts/hub_per_move.py), played by
# `dama tournament --format gauntlet` (the new engine against each other player, paired
# openings); the time-limited players' movetimes are calibrated first so that their search
# processes use the new engine's CPU time per move (within 2%). At the end: each player's
# rating (anchored at the old engine), its measured time per move, and the new engine's
# rating relative to the old one with its 95% interval. Rerunning with the same --db
# continues (the calibration and the binaries are kept in DB.gauntlet/). The tournament and the
# referee's position strings are those of --runner (default build/dama, built if missing).
# A player whose calibration cannot come within 2% (a weight file's load costs CPU at every
# process start) plays at the closest movetime found when that is within --max-cpu-gap percent
# (default 5) of the new engine's CPU time per move; else it is left out (said before the
# tournament), except the old engine, the anchor, which plays and is marked NOT equal in the
# summary (which judges every calibrated player's games by the 5% rule).
# Exit status: 0 done, 1 a failure on the way (a calibration, the tournament), 2 bad input.
# -h, --help prints this text.
set -euo pipefail
here=$(pwd)
cd "$(dirname "$0")/.."
root=$(pwd)
me=gauntlet.sh
die() { echo "$me: $*" >&2; exit 2; }
# num NAME VALUE MIN MAX: an integer in [MIN, MAX], else exit 2 naming the option
num() {
    [[ "$2" =~ ^[0-9]{1,12}$ ]] || die "$1 '$2' is not a whole number"
    [ "$((10#$2))" -ge "$3" ] && [ "$((10#$2))" -le "$4" ] || die "$1 $2 is out of range $3..$4"
}
abspath() { case "$1" in /*) echo "$1" ;; *) echo "$here/$1" ;; esac; }
game=russian rounds="" games="" movetime=100 db="" concurrency=1 seed=1 engine="" old=7ad9123 runner=""
depth=6 nodes=10000 cpos=12 max_plies="" max_gap=5
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
    case "$1" in
    -h|--help) usage; exit 0 ;;
    --game|--rounds|--games|--movetime|--db|--concurrency|--seed|--engine|--runner|--old|--max-plies|--depth|--nodes|\
    --calibrate-positions|--max-cpu-gap) ;;
    *) die "unknown option '$1' (see the head of scripts/gauntlet.sh)" ;;
    esac
    [ $# -ge 2 ] || die "$1 needs a value"
    case "$1" in
    --game) game="$2" ;;
    --rounds) num "$1" "$2" 1 100000; rounds=$((10#$2)) ;;
    --games) num "$1" "$2" 1 1000000; games=$((10#$2)) ;;
    --movetime) num "$1" "$2" 1 60000; movetime=$((10#$2)) ;;
    --db) [ -n "$2" ] || die "--db: an empty path"; db=$(abspath "$2") ;;
    --concurrency) num "$1" "$2" 1 64; concurrency=$((10#$2)) ;;
    --seed) num "$1" "$2" 0 2147483647; seed=$((10#$2)) ;;
    --engine) engine=$(abspath "$2") ;;
    --runner) runner=$(abspath "$2") ;;
    --old) old="$2"; if [[ "$2" == */* ]] || [ -e "$here/$2" ]; then old=$(abspath "$2"); fi ;;
    --max-plies) num "$1" "$2" 1 100000; max_plies=$((10#$2)) ;;
    --depth) num "$1" "$2" 1 40; depth=$((10#$2)) ;;
    --nodes) num "$1" "$2" 1 1000000000; nodes=$((10#$2)) ;;
    --calibrate-positions) num "$1" "$2" 2 1000; cpos=$((10#$2)) ;;
    --max-cpu-gap) num "$1" "$2" 0 100000; max_gap=$((10#$2)) ;;
    *) die "unknown option '$1' (see the head of scripts/gauntlet.sh)" ;;
    esac
    shift 2
done
[ -z "$rounds" ] || [ -z "$games" ] || die "give --rounds or --games, not both"
[ -n "$db" ] || { mkdir -p logs; db="logs/gauntlet-$game.sqlite"; }
[ -d "$(dirname "$db")" ] || die "--db $db: no such folder $(dirname "$db")"
[ ! -d "$db" ] || die "--db $db is a folder, not a database file"
if [ -z "$runner" ]; then
    runner="$root/build/dama"
    [ -x "$runner" ] || bash scripts/build.sh >/dev/null
fi
[ -f "$runner" ] && [ -x "$runner" ] || die "--runner $runner: no such executable file"
known=$("$runner" help | sed -n 's/^games: //p')
case " $known " in *" $game "*) ;; *) die "unknown game '$game' (the runner plays: $known)" ;; esac
engine_given="${engine:-$runner}"
[ -f "$engine_given" ] && [ -x "$engine_given" ] || die "--engine $engine_given: no such executable file"
if [ -f "$old" ] || [[ "$old" == */* ]]; then
    [ -f "$old" ] && [ -x "$old" ] || die "--old $old: no such executable file"
    old_bin="$old"
    old_name="old-$(basename "$old")"
else
    commit=$(git rev-parse --verify --quiet "$old^{commit}") || die "--old '$old' is neither a file nor a commit"
    old_name="old-${commit:0:7}"
    old_bin=$(bash scripts/old-dama.sh "$commit") || exit 1
fi
"$old_bin" moves --game "$game" >/dev/null 2>&1 ||
    die "the old dama ($old_name) does not play $game: give --old a commit or a binary that does"

# The state folder: snapshots of the binaries, weights and calibration, so that a rerun
# plays the same players (the tournament resumes only with the same engine strings).
state="$db.gauntlet"
mkdir -p "$state"
state=$(cd "$state" && pwd)
for pair in "new:$engine_given" "old:$old_bin"; do
    f="$state/${pair%%:*}.bin"
    src="${pair#*:}"
    if [ -f "$f" ]; then
        cmp -s "$f" "$src" || echo "$me: note: $src differs from the snapshot $f of this gauntlet's first run; the snapshot plays (a new --db for the new binary)"
    else
        cp "$src" "$f"
    fi
done
new_bin="$state/new.bin"
old_bin="$state/old.bin"
start_w="$root/configs/weights/$game-start.cfg"
[ -f "$state/start.cfg" ] || cp "$start_w" "$state/start.cfg"
# egtb: a dama that finds a default endgame database would use it; the pool plays without
noegtb() { if "$1" search --help 2>&1 | grep -q -- --no-egtb; then echo "--no-egtb"; fi; }
new_extra=$(noegtb "$new_bin")
old_extra=$(noegtb "$old_bin")

# Today's weights under the old search: only if the old binary loads them.
[ -f "$state/new-weights.cfg" ] || "$new_bin" export --game "$game" --format cfg --weights default \
    --out "$state/new-weights.cfg" --force >/dev/null
with_new_w=1
if ! why=$("$old_bin" search --game "$game" --depth 1 --quiet --weights "$state/new-weights.cfg" 2>&1 >/dev/null); then
    with_new_w=0
    echo "$me: new-weights@old left out: the old binary cannot load the new weights (${why//$'\n'/ })"
fi

# Calibration: each time-limited player's movetime (kept in the state folder).
calib() { # NAME BIN ARGS -> movetime
    local f="$state/movetime-$1"
    if [ ! -s "$f" ]; then
        echo "$me: calibrating $1 against new at --movetime $movetime ($cpos positions)" >&2
        python3 scripts/gauntlet.py calibrate --referee "$runner" --game "$game" --movetime "$movetime" \
            --new "$new_bin" --new-args="$new_extra" --cand "$2" --cand-args="$3" --positions "$cpos" \
            --seed "$seed" | tee "$state/calibration-$1.log" >&2
        tail -1 "$state/calibration-$1.log" | sed -n 's/^movetime \([0-9][0-9]*\)$/\1/p' > "$f.tmp"
        [ -s "$f.tmp" ] || { echo "$me: calibrating $1 failed" >&2; exit 1; }
        mv "$f.tmp" "$f"
    fi
    cat "$f"
}
# equal NAME: whether NAME's calibration came within --max-cpu-gap percent of the new engine's
# CPU time per move (util/time_use.h's rule: the one that used more, in percent rounded to 0.1;
# a calibration stored before its log had a ratio line counts as equal), else says so.
equal() {
    local r
    r=$(sed -n 's/^ratio \([0-9.][0-9.]*\)$/\1/p' "$state/calibration-$1.log" | tail -1)
    [ -z "$r" ] && return 0
    awk -v r="$r" -v gap="$max_gap" \
        'BEGIN { m = r > 1 ? r : 1 / r; exit !(r > 0 && int(1000 * (m - 1) + 0.5) / 10 <= gap) }' && return 0
    echo "$me: $1 cannot use equal time: at its closest (--movetime $(cat "$state/movetime-$1")) its CPU time per move was $r times the new engine's" >&2
    return 1
}
mt_old=$(calib "$old_name" "$old_bin" "$old_extra")
equal "$old_name" || echo "$me: $old_name plays all the same (it is the anchor); the summary marks it NOT equal" >&2
mt_start=$(calib start-weights "$new_bin" "$new_extra --weights $state/start.cfg")
with_start=1
equal start-weights || { with_start=0; echo "$me: start-weights left out" >&2; }
if [ "$with_new_w" = 1 ]; then
    mt_neww=$(calib new-weights@old "$old_bin" "$old_extra --weights $state/new-weights.cfg")
    equal new-weights@old || { with_new_w=0; mt_neww=""; echo "$me: new-weights@old left out" >&2; }
fi

# The position server: the referee's `status` calls run outside the players' process trees.
# (a short folder of its own: a Unix socket's path has at most 107 bytes). The players find
# it in the environment, so that their commands, which identify the tournament, stay the same.
sockdir=$(mktemp -d)
sock="$sockdir/positions.sock"
python3 scripts/hub_per_move.py --serve "$sock" --referee "$runner" &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -rf "$sockdir"' EXIT
for _ in $(seq 1 300); do [ -S "$sock" ] && break; kill -0 "$server" 2>/dev/null || break; sleep 0.1; done
[ -S "$sock" ] || { echo "$me: the position server did not start" >&2; exit 1; }
export DAMA_GAUNTLET_POSITIONS="$sock"
adapter() { # BIN EXTRA-ARGS
    local a="python3 $root/scripts/hub_per_move.py --referee $runner --game $game --bin $1"
    [ -z "$2" ] || a="$a --search-args=\"$2\""
    echo "$a"
}
players=("name=new,movetime=$movetime,cmd=$(adapter "$new_bin" "$new_extra")"
    "name=$old_name,movetime=$mt_old,cmd=$(adapter "$old_bin" "$old_extra")")
names=(new "$old_name")
calibrated=("$old_name")
if [ "$with_start" = 1 ]; then
    players+=("name=start-weights,movetime=$mt_start,cmd=$(adapter "$new_bin" "$new_extra --weights $state/start.cfg")")
    names+=(start-weights)
    calibrated+=(start-weights)
fi
if [ "$with_new_w" = 1 ]; then
    players+=("name=new-weights@old,movetime=$mt_neww,cmd=$(adapter "$old_bin" "$old_extra --weights $state/new-weights.cfg")")
    names+=(new-weights@old)
    calibrated+=(new-weights@old)
fi
players+=("name=depth$depth,depth=$depth,cmd=$(adapter "$new_bin" "$new_extra")"
    "name=nodes$nodes,nodes=$nodes,cmd=$(adapter "$new_bin" "$new_extra")")
names+=("depth$depth" "nodes$nodes")
if [ -z "$rounds" ]; then
    per_round=$((2 * (${#names[@]} - 1)))
    rounds=$(((${games:-$((10 * per_round))} + per_round - 1) / per_round))
fi
[ "$with_start" = 1 ] || mt_start=""
echo "$me: $game, ${#names[@]} players (${names[*]}), $rounds round$([ "$rounds" = 1 ] || echo s); movetimes: new $movetime, $old_name $mt_old${mt_start:+, start-weights $mt_start}${mt_neww:+, new-weights@old $mt_neww}; db $db"
log="$state/tournament.log"
set +e
"$runner" tournament --game "$game" --format gauntlet --rounds "$rounds" --seed "$seed" --db "$db" \
    --concurrency "$concurrency" --anchor "$old_name=0" ${max_plies:+--max-plies "$max_plies"} "${players[@]}" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e
[ "$rc" = 0 ] || { echo "$me: the tournament failed (exit $rc); rerun the same command to continue" >&2; exit 1; }
python3 scripts/gauntlet.py summary --log "$log" --new new --ref "$old_name" --players "${names[@]}" \
    --calibrated "${calibrated[@]}"

# train_patterns.sh — dama train --patterns: a generation's tuning fits the
# pattern tables too (at --pattern-lr / --pattern-lambda), the candidate it
# stores holds table weights its parent does not, the same train gives the
# same candidate on 1 and 2 threads, and a train without --patterns leaves
# the tables as they were.
set -u
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1
q() { sqlite3 "$1" "$2"; }
# One generation of 300 games (100 were too few for the held-out loss to
# improve after the search change c18da26) from the start weights with the tables at 0
# (from the compiled-in ones, learned on 23,511 games, so few games find
# nothing better on the held-out ones); the gate SPRT [-400, -200] passes a
# candidate about as strong as its parent.
TINY=(--game russian --weights "$SRC/configs/weights/russian-start.cfg" --generations 1 --games-per-gen 300
      --nodes 100 --epochs 10 --patience 10 --gate-pairs 24 --ladder-pairs 0 --elo0 -400 --elo1 -200 --progress 0
      --seed 3)
# Table weights of weight set $2 in database $1 that differ from set $3's,
# opening and endgame tables together (the terms with more than 64 weights).
moved() {
  "$DAMA" export --db "$1" --game russian --weights "db:$2" --format json --out a.json --force >/dev/null 2>&1 &&
  "$DAMA" export --db "$1" --game russian --weights "db:$3" --format json --out b.json --force >/dev/null 2>&1 &&
  python3 - a.json b.json <<'EOF'
import json, sys
a, b = (json.load(open(p))["terms"] for p in sys.argv[1:3])
print(sum(x != y for s, t in zip(a, b) if s["count"] > 64 for x, y in zip(s["values"], t["values"])))
EOF
}

expect_rc 0 "train --patterns, 1 thread" "$DAMA" train --db p1.sqlite "${TINY[@]}" --patterns --threads 1
G="SELECT candidate_ws || ' ' || parent_ws FROM generations WHERE generation = 1"
read -r cand parent <<<"$(q p1.sqlite "$G")"
[ -n "${cand:-}" ] && [ "$cand" != "$parent" ] && ok || bad "no candidate of its own: '$(q p1.sqlite "$G")'"
n=$(moved p1.sqlite "$cand" "$parent")
[ "${n:-0}" -gt 100 ] && ok || bad "the candidate moved only '${n:-}' pattern-table weights"
# the tuning run's configuration names the table step and L2
[ "$(q p1.sqlite "SELECT r.config LIKE '%patterns = %' AND r.config LIKE '%pattern-lr = 0.5%' AND r.config LIKE '%pattern-lambda = 1e-8%'
                   FROM generations g JOIN tuning_runs t ON t.id = g.tuning_run JOIN runs r ON r.id = t.run_id WHERE g.generation = 1")" = 1 ] &&
  ok || bad "tuning config: $(q p1.sqlite "SELECT r.config FROM generations g JOIN tuning_runs t ON t.id = g.tuning_run JOIN runs r ON r.id = t.run_id WHERE g.generation = 1")"

# the same on 2 threads: the same candidate, the same gate
expect_rc 0 "train --patterns, 2 threads" "$DAMA" train --db p2.sqlite "${TINY[@]}" --patterns --threads 2
H="SELECT w.hash || ' ' || g.accepted || ' ' || g.reason FROM generations g JOIN weight_sets w ON w.id = g.candidate_ws WHERE g.generation = 1"
expect_eq "$(q p2.sqlite "$H")" "$(q p1.sqlite "$H")" "candidate and gate on 2 threads"

# without --patterns the tables stay; another table step is another train
expect_rc 0 "train without --patterns" "$DAMA" train --db p1.sqlite "${TINY[@]}" --threads 1
read -r cand0 parent0 <<<"$(q p1.sqlite "SELECT candidate_ws || ' ' || parent_ws FROM generations WHERE train_id = 2 AND generation = 1")"
n0=$(moved p1.sqlite "$cand0" "$parent0" 2>&1)
expect_eq "$n0" 0 "pattern-table weights moved without --patterns (weight sets $cand0, $parent0)"
expect_rc 0 "train --patterns --pattern-lr 0.2" "$DAMA" train --db p1.sqlite "${TINY[@]}" --patterns --pattern-lr 0.2 --threads 1
expect_eq "$(q p1.sqlite "SELECT count(*) FROM trains")" 3 "trains: --patterns, without, --pattern-lr 0.2"
expect_err 2 "pattern-lr" "$DAMA" train --db p1.sqlite "${TINY[@]}" --patterns --pattern-lr -1

finish train_patterns

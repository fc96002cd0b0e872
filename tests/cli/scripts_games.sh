#!/usr/bin/env bash
# CLI test of scripts/fingerprint.sh and scripts/search-figures.sh (and of
# scripts/main-job.sh's refusals before it builds): the first two take
# their games from dama itself (the "games:" line of `dama help`), so a new
# game is in their figures without an edit. A stand-in binary answers
# `help` with the real dama's and logs every other call (printing what the
# scripts parse) instead of searching: the test checks which games the
# scripts ask about, not the figures.
# Usage: scripts_games.sh DAMA_BINARY SOURCE_DIR
set -u
. "$(dirname "$0")/lib.sh"

dama_abs="$(cd "$(dirname "$DAMA")" && pwd)/$(basename "$DAMA")"
games=$("$DAMA" help | sed -n 's/^games: //p')
[ "$(echo "$games" | wc -w)" -gt 3 ] && ok || bad "dama help lists its games: '$games'"
# stub HELP_COMMAND LOG: a stand-in dama whose `help` runs HELP_COMMAND
stub() {
  cat <<STUB
#!/usr/bin/env bash
if [ "\${1:-}" = help ]; then $1; exit; fi
echo "\$*" >>"$2"
g=russian; prev=
for a in "\$@"; do [ "\$prev" = --game ] && g=\$a; prev=\$a; done
case "\${1:-}" in
  bench)
    for a in "\$@"; do [ "\$a" = --print-fens ] && { echo start; exit 0; }; done
    echo "bench \$g depth 3: 100 nodes"
    echo "search: 1.00 M nodes/s, 0.010 s (medians of 1, 1 search thread); 1.00 M nodes per CPU second" ;;
  search) printf 'depth 5\nnodes 100\n' ;;
esac
exit 0
STUB
}
stub "exec '$dama_abs' \"\$@\"" "$T/calls" >"$T/dama-new"
stub "printf 'usage: dama COMMAND\n\ngames: russian turkish shatra\n'" "$T/calls-old" >"$T/dama-old"
chmod +x "$T/dama-new" "$T/dama-old"

bash "$SRC/scripts/fingerprint.sh" "$T/dama-new" "$T/fp" >"$T/fp.out" 2>"$T/fp.err"
expect_eq "$?" "0" "fingerprint.sh runs: $(head -c 300 "$T/fp.err")"
for g in $games; do
  grep -qx "bench --game $g" "$T/calls" && ok || bad "fingerprint.sh: no bench of $g"
  grep -q "^selfplay --game $g " "$T/calls" && ok || bad "fingerprint.sh: no selfplay of $g"
  grep -q "^bench $g: 100 nodes$" "$T/fp.out" && ok || bad "fingerprint.sh: no bench line of $g: $(head -3 "$T/fp.out")"
done
: >"$T/calls"
GAMES="turkish" bash "$SRC/scripts/fingerprint.sh" "$T/dama-new" "$T/fp2" >"$T/fp.out" 2>"$T/fp.err"
expect_eq "$(grep -c '^bench ' "$T/fp.out")" "1" "fingerprint.sh GAMES=turkish: one game"

: >"$T/calls"
REPEAT=1 SMP_BALLOTS=0 bash "$SRC/scripts/search-figures.sh" "$T/dama-old" "$T/dama-new" >"$T/sf.out" 2>"$T/sf.err"
expect_eq "$?" "0" "search-figures.sh runs: $(head -c 300 "$T/sf.err")"
for g in $games; do
  grep -q "^depth in 100 ms $g: " "$T/sf.out" && ok || bad "search-figures.sh: no depth line of $g"
  grep -q "^smp $g depth " "$T/sf.out" && ok || bad "search-figures.sh: no SMP line of $g"
  case $g in
    russian | turkish | shatra) grep -qx "bench $g: old 100 new 100 ratio 1.00" "$T/sf.out" && ok || bad "search-figures.sh: bench $g" ;;
    *) grep -qx "bench $g: old - new 100 (the old binary has no $g)" "$T/sf.out" && ok || bad "search-figures.sh: bench $g, old lacks it" ;;
  esac
done
grep -q -- '--game brazilian' "$T/calls-old" && bad "search-figures.sh asked the old binary about a game it lacks" || ok
grep -q "^smp russian depth 19: " "$T/sf.out" && ok || bad "search-figures.sh: Russian's SMP depth: $(grep '^smp' "$T/sf.out" | head -2)"
grep -q "^smp english depth 3: " "$T/sf.out" && ok || bad "search-figures.sh: English's SMP depth (its bench depth)"
SMP_DEPTHS="19 14 13" bash "$SRC/scripts/search-figures.sh" --smp "$T/dama-new" >"$T/sf.out" 2>"$T/sf.err"
expect_eq "$?" "2" "SMP_DEPTHS of the old form refused"
grep -q "SMP_DEPTHS entry '19' is not GAME=DEPTH" "$T/sf.err" && ok || bad "SMP_DEPTHS message: $(cat "$T/sf.err")"
# scripts/main-job.sh refuses a bad game or size before it installs or builds anything
expect_err 2 "main-job.sh: GAMES='3k': need a whole number 1..999999999" env GAMES=3k bash "$SRC/scripts/main-job.sh"
expect_err 2 "main-job.sh: GATE_PAIRS='0': need a whole number" env GATE_PAIRS=0 bash "$SRC/scripts/main-job.sh" turkish
expect_err 2 "main-job.sh: unknown game 'chess' (games: " bash "$SRC/scripts/main-job.sh" chess
expect_err 2 "main-job.sh: GAMES=3: need an even number" env GAMES=3 bash "$SRC/scripts/main-job.sh"
finish "scripts' games"

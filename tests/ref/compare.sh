# compare.sh — sourced by tests/cli/<game>_ref.sh, after tests/cli/lib.sh
# (its T, ok and bad): dama against an independent Python reference of one
# game's rules.
#
# ref_compare GAME DAMA_BINARY REF_PY COUNT SEED [REF_ARG...]
# (REF_ARGs go to the reference before each of its commands: the game's
# name for tests/ref/family_ref.py, which knows several games)
# 1. the reference checks itself (`selftest`);
# 2. it generates COUNT positions from SEED (`gen`);
# 3. `dama moves --game GAME --file` lists their moves; the reference
#    compares each list as a set of moves (start, end, captured set,
#    promotion), checks each printed route and that no move is printed
#    twice (`compare`), and stops at the first differing position;
# 4. perft 2 of every 100th position, D and P conventions, from both.
# Leaves the positions in $T/positions.txt for further checks; stops at the
# first failure (status 1, counted with bad).

ref_compare() {
    local game=$1 dama=$2 ref=$3 count=$4 seed=$5
    shift 5
    python3 "$ref" "$@" selftest && ok || { bad "the reference fails its own self test"; return 1; }
    python3 "$ref" "$@" gen "$seed" "$count" >"$T/positions.txt" || { bad "position generation"; return 1; }
    [ "$(wc -l <"$T/positions.txt")" -eq "$count" ] || { bad "expected $count positions"; return 1; }
    "$dama" moves --game "$game" --file "$T/positions.txt" >"$T/dama.txt" 2>"$T/dama.err" \
        || { cat "$T/dama.err" >&2; bad "dama moves --file exited with an error"; return 1; }
    [ "$(wc -l <"$T/dama.txt")" -eq "$count" ] \
        || { bad "dama printed $(wc -l <"$T/dama.txt") lines for $count positions"; return 1; }
    python3 "$ref" "$@" compare "$T/dama.txt" && ok || { bad "dama and the reference disagree (position above)"; return 1; }
    awk 'NR % 100 == 1' "$T/positions.txt" >"$T/sample.txt"
    python3 "$ref" "$@" perfts "$T/sample.txt" 2 >"$T/ref_perft.txt" || { bad "reference perft"; return 1; }
    local n=0 fen d p got_d got_p
    while IFS=$'\t' read -r fen d p; do
        got_d=$("$dama" perft --game "$game" --fen "$fen" --depth 2 2>/dev/null | awk '/^perft/ {print $3}')
        got_p=$("$dama" perft --game "$game" --fen "$fen" --depth 2 --paths 2>/dev/null | awk '/^perft/ {print $3}')
        [ "$got_d" = "$d" ] || { bad "perft 2 (D) of $fen: dama $got_d, reference $d"; return 1; }
        [ "$got_p" = "$p" ] || { bad "perft 2 (P) of $fen: dama $got_p, reference $p"; return 1; }
        n=$((n + 1))
    done <"$T/ref_perft.txt"
    ok
    echo "perft 2 (D and P) agrees on $n sampled positions"
}

# compare.sh — sourced by tests/cli/<game>_ref.sh: dama against an
# independent Python reference of one game's rules.
#
# ref_compare GAME DAMA_BINARY REF_PY COUNT SEED
# 1. the reference checks itself (`selftest`);
# 2. it generates COUNT positions from SEED (`gen`);
# 3. `dama moves --game GAME --file` lists their moves; the reference
#    compares each list as a set of moves (start, end, captured set,
#    promotion), checks each printed route and that no move is printed
#    twice (`compare`), and stops at the first differing position;
# 4. perft 2 of every 100th position, D and P conventions, from both.
# Leaves the positions in $tmp/positions.txt for further checks; exits 1 on
# the first failure.
fail() { echo "FAIL: $*" >&2; exit 1; }

ref_compare() {
    local game=$1 dama=$2 ref=$3 count=$4 seed=$5
    command -v python3 >/dev/null || fail "python3 is needed for the reference generator"
    tmp=$(mktemp -d) || fail "mktemp"
    trap 'rm -rf "$tmp"' EXIT
    python3 "$ref" selftest || fail "the reference fails its own self test"
    python3 "$ref" gen "$seed" "$count" > "$tmp/positions.txt" || fail "position generation"
    [ "$(wc -l < "$tmp/positions.txt")" -eq "$count" ] || fail "expected $count positions"
    "$dama" moves --game "$game" --file "$tmp/positions.txt" > "$tmp/dama.txt" 2> "$tmp/dama.err" \
        || { cat "$tmp/dama.err" >&2; fail "dama moves --file exited with an error"; }
    [ "$(wc -l < "$tmp/dama.txt")" -eq "$count" ] || fail "dama printed $(wc -l < "$tmp/dama.txt") lines for $count positions"
    python3 "$ref" compare "$tmp/dama.txt" || fail "dama and the reference disagree (position above)"
    awk 'NR % 100 == 1' "$tmp/positions.txt" > "$tmp/sample.txt"
    python3 "$ref" perfts "$tmp/sample.txt" 2 > "$tmp/ref_perft.txt" || fail "reference perft"
    local n=0 fen d p got_d got_p
    while IFS=$'\t' read -r fen d p; do
        got_d=$("$dama" perft --game "$game" --fen "$fen" --depth 2 2>/dev/null | awk '/^perft/ {print $3}')
        got_p=$("$dama" perft --game "$game" --fen "$fen" --depth 2 --paths 2>/dev/null | awk '/^perft/ {print $3}')
        [ "$got_d" = "$d" ] || fail "perft 2 (D) of $fen: dama $got_d, reference $d"
        [ "$got_p" = "$p" ] || fail "perft 2 (P) of $fen: dama $got_p, reference $p"
        n=$((n + 1))
    done < "$tmp/ref_perft.txt"
    echo "perft 2 (D and P) agrees on $n sampled positions"
}

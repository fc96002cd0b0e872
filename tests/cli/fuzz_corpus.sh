#!/usr/bin/env bash
# CLI test of fuzz/make_corpus.py: it rewrites the folders of the targets it
# makes (a stale seed there goes) and leaves the others alone (web_json,
# kept by hand). Runs on a copy of the files the script reads.
# Usage: fuzz_corpus.sh DAMA_BINARY SOURCE_DIR
set -u
. "$(dirname "$0")/lib.sh"

R="$T/repo"
mkdir -p "$R/tests" "$R/fuzz"
cp -r "$SRC/data" "$SRC/configs" "$R/"
cp "$SRC"/tests/test_russian.c "$SRC"/tests/test_turkish.c "$SRC"/tests/test_shatra.c "$SRC"/tests/test_variants.c "$SRC"/tests/test_big_boards.c "$R/tests/"
cp "$SRC/fuzz/make_corpus.py" "$R/fuzz/"
cp -r "$SRC/fuzz/corpus" "$R/fuzz/"
printf 'stale' >"$R/fuzz/corpus/position_russian/stale-seed"
printf '{"kept": "by hand"}' >"$R/fuzz/corpus/web_json/hand-kept"
dama_abs="$(cd "$(dirname "$DAMA")" && pwd)/$(basename "$DAMA")"
(cd "$R" && python3 fuzz/make_corpus.py "$dama_abs") >"$T/out" 2>"$T/err"
expect_eq "$?" "0" "make_corpus.py runs: $(head -c 300 "$T/err")"
diff -r "$SRC/fuzz/corpus/web_json" "$R/fuzz/corpus/web_json" 2>&1 | grep -v '^Only in .*: hand-kept$' >"$T/diff"
expect_eq "$(cat "$T/diff")" "" "web_json left as it was"
expect_eq "$(cat "$R/fuzz/corpus/web_json/hand-kept")" '{"kept": "by hand"}' "a hand-kept seed stays"
[ -e "$R/fuzz/corpus/position_russian/stale-seed" ] && bad "a stale seed of a target it makes stays" || ok
for target in position_russian move_russian position_turkish position_shatra position_english move_italian pdn config weights; do
  n=$(ls "$R/fuzz/corpus/$target" 2>/dev/null | wc -l)
  [ "$n" -gt 0 ] && ok || bad "$target: no seeds written"
done
# every seed of a target is named by the start of its SHA-1
f=$(ls "$R/fuzz/corpus/pdn" | head -1)
expect_eq "$(sha1sum <"$R/fuzz/corpus/pdn/$f" | cut -c1-16)" "$f" "seed named by its SHA-1"
finish "fuzz corpus"

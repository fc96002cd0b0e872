#!/usr/bin/env bash
# ABI discipline of the public header include/dama/engine.h: it compiles
# alone as C11 and as C++17 (pedantic, warnings as errors); it exposes no
# struct or union layout (opaque handles only: an app cannot depend on a
# size or a field); the functions it declares are exactly the symbols the
# shared library exports; CHANGELOG.md has an entry for its version; the
# generated weights headers compile alone as C and C++.
# Usage: header.sh SOURCE_DIR SHARED_LIBRARY
set -u
. "$(dirname "$0")/../cli/lib.sh" "" "$1" # no dama binary here
SRC=$(cd "$SRC" && pwd)
SO="$2"
H="$SRC/include/dama/engine.h"

printf '#include <dama/engine.h>\n#include <dama/engine.h>\nint main(void) { return dama_games_count() > 0 ? 0 : 1; }\n' >"$T/c.c"
cc -std=c11 -pedantic -Wall -Wextra -Werror -I"$SRC/include" -fsyntax-only "$T/c.c" 2>"$T/err" && ok || bad "not C11: $(head -c 400 "$T/err")"
if command -v c++ >/dev/null; then
  cp "$T/c.c" "$T/cpp.cpp"
  c++ -std=c++17 -pedantic -Wall -Wextra -Werror -I"$SRC/include" -fsyntax-only "$T/cpp.cpp" 2>"$T/err" && ok || bad "not C++17: $(head -c 400 "$T/err")"
fi
# The handle is incomplete: sizeof must not compile.
printf '#include <dama/engine.h>\nsize_t n = sizeof(DamaGame);\n' >"$T/size.c"
cc -std=c11 -I"$SRC/include" -fsyntax-only "$T/size.c" 2>/dev/null && bad "sizeof(DamaGame) compiles: the layout is public" || ok

# No struct/union bodies; the only struct is the opaque DamaGame.
gcc -fpreprocessed -dD -E -P "$H" 2>/dev/null | tr '\n' ' ' >"$T/code"
grep -Eq '\b(struct|union)\b[^;{}]*\{' "$T/code" && bad "a struct or union layout: $(grep -Eo '\b(struct|union)\b[^;{}]*\{' "$T/code" | head -2)" || ok
structs=$(grep -Eo '\bstruct [A-Za-z_]+' "$T/code" | sort -u | tr '\n' ' ')
[ "$structs" = "struct DamaGame " ] && ok || bad "structs named: '$structs' (only the opaque DamaGame is allowed)"

# Declared functions == exported symbols.
grep -Eo 'DAMA_API [^;]*\b(dama_[a-z0-9_]+)\(' "$T/code" | grep -Eo 'dama_[a-z0-9_]+\($' | tr -d '(' | sort -u >"$T/declared"
nm -D --defined-only "$SO" | awk '$2 == "T" {print $3}' | sort -u >"$T/exported"
[ -s "$T/declared" ] && ok || bad "no DAMA_API declarations found"
missing=$(comm -23 "$T/declared" "$T/exported" | tr '\n' ' ')
extra=$(comm -13 "$T/declared" "$T/exported" | tr '\n' ' ')
[ -z "$missing" ] && ok || bad "declared but not exported: $missing"
[ -z "$extra" ] && ok || bad "exported but not declared: $extra"
# Every declaration is marked DAMA_API.
undecorated=$(grep -Eo '(^|;|\}) *(const )?(char|int|void|uint64_t|size_t|DamaResult|DamaColor) \**dama_[a-z0-9_]+\(' "$T/code" | head -3)
[ -z "$undecorated" ] && ok || bad "prototypes without DAMA_API: $undecorated"

# The compiled-in weights of each game (written by dama export) are
# self-contained too: only <stdint.h>, C99/C11 and C++11/C++17.
for w in "$SRC"/engine/games/*/weights.h; do
  grep '^#include' "$w" | grep -vq '<stdint.h>' && bad "$w includes more than <stdint.h>" || ok
  for std in "cc -std=c99 -x c" "cc -std=c11 -x c" "c++ -std=c++11 -x c++" "c++ -std=c++17 -x c++"; do
    command -v "${std%% *}" >/dev/null || continue
    $std -pedantic -Wall -Wextra -Werror -fsyntax-only "$w" 2>"$T/err" && ok || bad "$w does not compile alone ($std): $(head -c 300 "$T/err")"
  done
done

version=$(sed -n 's/^#define DAMA_VERSION_STRING "\(.*\)"/\1/p' "$H")
grep -q "^## $version\b" "$SRC/CHANGELOG.md" && ok || bad "CHANGELOG.md has no '## $version' entry"

finish "abi ($(wc -l <"$T/declared") functions)"

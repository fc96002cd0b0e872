#!/usr/bin/env bash
# Install check of libdama-engine: `cmake --install` into a temporary
# prefix, then, from outside the tree, build the C and C++ examples with
# pkg-config and with find_package(dama), run them (each plays whole games
# through the API and prints PDN), and check with ldd/nm that the library
# needs neither SQLite, libconfig nor OpenMP.
# Usage: check.sh BUILD_DIR SOURCE_DIR
set -u
. "$(dirname "$0")/../cli/lib.sh" "" "$2" # no dama binary here
BUILD=$(cd "$1" && pwd)
SRC=$(cd "$SRC" && pwd)
run() { "$@" >"$T/out" 2>"$T/err" || { bad "$*: exit $? $(head -c 400 "$T/err")"; return 1; }; }

P="$T/prefix"
if ! cmake --install "$BUILD" --prefix "$P" >"$T/install.log" 2>&1; then
  echo "FAIL: cmake --install: $(tail -5 "$T/install.log")"
  exit 1
fi
for f in include/dama/engine.h; do [ -f "$P/$f" ] && ok || bad "installed $f missing"; done
so=$(find "$P" -name 'libdama-engine.so.*.*.*' | head -1)
a=$(find "$P" -name 'libdama-engine.a' | head -1)
pc=$(find "$P" -name dama-engine.pc | head -1)
cfg=$(find "$P" -name damaConfig.cmake | head -1)
[ -n "$so" ] && ok || bad "shared library not installed"
[ -n "$a" ] && ok || bad "static library not installed"
[ -n "$pc" ] && ok || bad "dama-engine.pc not installed"
[ -n "$cfg" ] && ok || bad "damaConfig.cmake not installed"
[ -n "$so" ] && [ -n "$a" ] && [ -n "$pc" ] && [ -n "$cfg" ] || { finish "install"; exit 1; }

# SONAME and version
soname=$(objdump -p "$so" | awk '/SONAME/ {print $2}')
[ "$soname" = "libdama-engine.so.0" ] && ok || bad "SONAME '$soname' (expected libdama-engine.so.0)"
export PKG_CONFIG_PATH="$(dirname "$pc")"
[ "$(pkg-config --modversion dama-engine)" = "$(sed -n 's/^#define DAMA_VERSION_STRING "\(.*\)"/\1/p' "$SRC/include/dama/engine.h")" ] && ok \
  || bad "pkg-config version $(pkg-config --modversion dama-engine) differs from the header's"

# No SQLite, libconfig or OpenMP, neither linked nor referenced.
ldd "$so" >"$T/ldd" 2>&1
grep -Eiq 'sqlite|libconfig|gomp|libomp' "$T/ldd" && bad "libdama-engine.so links: $(grep -Ei 'sqlite|libconfig|gomp|libomp' "$T/ldd")" || ok
nm -D --undefined-only "$so" >"$T/nm_so"
nm --undefined-only "$a" 2>/dev/null >"$T/nm_a"
for f in nm_so nm_a; do
  grep -Eq ' (sqlite3_|config_|omp_|GOMP_)' "$T/$f" && bad "$f references: $(grep -E ' (sqlite3_|config_|omp_|GOMP_)' "$T/$f" | head -3 | tr '\n' ' ')" || ok
done
# Only the API is exported from the shared library.
nm -D --defined-only "$so" | awk '{print $3}' | grep -v '^dama_' >"$T/extra"
[ -s "$T/extra" ] && bad "exported beyond dama_*: $(head -5 "$T/extra" | tr '\n' ' ')" || ok

# Build the examples from outside the tree with pkg-config only.
cp "$SRC/examples/play.c" "$SRC/examples/play.cpp" "$T/"
cd "$T"
run cc -std=c11 -Wall -Wextra -pedantic -Werror play.c $(pkg-config --cflags --libs dama-engine) -o play_c
run c++ -std=c++17 -Wall -Wextra -pedantic -Werror play.cpp $(pkg-config --cflags --libs dama-engine) -o play_cpp
# and with CMake's find_package(dama)
run cmake -S "$SRC/examples" -B "$T/ex" -DCMAKE_PREFIX_PATH="$P" -DCMAKE_BUILD_TYPE=Release
run cmake --build "$T/ex"

# Each program plays whole games of every game and prints PDN.
check_pdn() { # label file
  if grep -q '^; .* 400 plies, result reason (move cap)' "$2"; then
    # still going at the programs' 400-ply cap (Turkish men can shuffle
    # sideways for ever: its rules have no move-count draw): unfinished, '*'
    grep -q '^\[Result "\*"\]$' "$2" && ok || bad "$1: a capped game's [Result] is not '*': $(head -c 300 "$2")"
    grep -Eq '\*$' <(grep -v '^;' "$2" | grep -v '^\[' | tr -s '\n' | tail -1) && ok || bad "$1: a capped game's movetext does not end with '*'"
  else
    grep -q '^\[Result "\(1-0\|0-1\|1/2-1/2\)"\]$' "$2" && ok || bad "$1: no final [Result] tag: $(head -c 300 "$2")"
    grep -Eq '(1-0|0-1|1/2-1/2)$' <(grep -v '^;' "$2" | grep -v '^\[' | tr -s '\n' | tail -1) && ok || bad "$1: movetext does not end with the result"
  fi
  grep -q '^1\. ' "$2" && ok || bad "$1: no movetext"
}
# (English: Black moves first, and its PDN numbers the pairs from Black's move: "1. ";
# International: the 10x10 board, GameType 20)
for g in russian turkish shatra english international; do
  for prog in ./play_c ./play_cpp ./ex/play ./ex/play_cpp ./ex/play_static; do
    [ -x "$prog" ] || { bad "$prog not built"; continue; }
    if "$prog" "$g" 2000 >"$T/pdn" 2>"$T/err"; then check_pdn "$prog $g" "$T/pdn"; else bad "$prog $g: exit $?: $(head -c 300 "$T/err")"; fi
  done
done
# Weights exported as JSON by the installed dama load into the library;
# another game's JSON is refused, naming both games.
for g in russian turkish shatra international; do
  run "$P/bin/dama" export --game "$g" --weights default --format json --out "$T/$g.json" || continue
  ./play_c "$g" 500 max "$T/$g.json" >"$T/pdn" 2>"$T/err" && grep -q "weights $(sed -n 's/.*"hash": *"\([^"]*\)".*/\1/p' "$T/$g.json")" "$T/pdn" && ok \
    || bad "play_c $g with exported JSON: $(head -c 300 "$T/err")"
done
./play_c turkish 500 max "$T/russian.json" >/dev/null 2>"$T/err" && bad "turkish game loaded russian JSON" || { grep -q "russian" "$T/err" && grep -q "turkish" "$T/err" && ok || bad "refusal does not name the games: $(cat "$T/err")"; }
./play_c international 500 max "$T/russian.json" >/dev/null 2>"$T/err" && bad "international game loaded russian JSON" || { grep -q "russian" "$T/err" && grep -q "international" "$T/err" && ok || bad "refusal does not name the games: $(cat "$T/err")"; }
# NODES that is not a whole number of at least 1: refused, named, exit 2
# (strtol without an end check read 'abc' as 0: the default second a move)
for prog in ./play_c ./play_cpp; do
  for arg in abc 5k 0 -3 ""; do
    "$prog" russian "$arg" >/dev/null 2>"$T/err"; st=$?
    [ "$st" = 2 ] && grep -q "NODES '$arg' is not a number of nodes" "$T/err" && ok || bad "$prog russian '$arg': exit $st, $(head -c 200 "$T/err")"
  done
done
./play_c international 500 >"$T/pdn" 2>"$T/err" && grep -q '^\[GameType "20"\]$' "$T/pdn" && ok || bad "play_c international: no GameType 20: $(head -c 300 "$T/pdn")"
# The exported C header compiles alone, as C and as C++, with only <stdint.h>.
run "$P/bin/dama" export --game shatra --weights default --format c --out "$T/shatra_weights.h"
grep '#include' "$T/shatra_weights.h" | grep -vq '<stdint.h>' && bad "exported header includes more than <stdint.h>" || ok
printf '#include "shatra_weights.h"\n#include <stdio.h>\nint main(void) { printf("%%s %%d %%s %%d\\n", SHATRA_WEIGHTS_GAME, SHATRA_WEIGHTS_LEN, shatra_weights_term_names[0], (int)shatra_weights[0]); return 0; }\n' >"$T/hdr.c"
cp "$T/hdr.c" "$T/hdr.cpp"
run cc -std=c99 -pedantic -Wall -Wextra -Werror -I"$T" "$T/hdr.c" -o "$T/hdr_c"
run c++ -std=c++17 -pedantic -Wall -Wextra -Werror -I"$T" "$T/hdr.cpp" -o "$T/hdr_cpp"
[ -x "$T/hdr_c" ] && [ "$("$T/hdr_c")" = "$("$T/hdr_cpp")" ] && "$T/hdr_c" | grep -q '^shatra [0-9]' && ok || bad "exported header programs disagree"

# The programs use the installed shared library, not the build tree's.
ldd ./play_c | grep -q "$P" && ok || bad "play_c does not load the installed library: $(ldd ./play_c | grep dama)"
nm ./ex/play_static | grep -q ' T dama_game_new' && ok || bad "play_static is not statically linked"

finish "install"

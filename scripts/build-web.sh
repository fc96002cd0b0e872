#!/usr/bin/env bash
# Builds the page of web/ with the engine library compiled to WebAssembly
# (docs/web.md): the same engine/ and util/ sources as libdama-engine (not
# the endgame database files, not weights_file.c's libconfig I/O, not
# util/atomic_file.c), single-threaded (web/wasm/include/pthread.h), with
# web/wasm/json.c for cJSON, linked by clang --target=wasm32-wasi with
# Debian's wasi-libc and libclang-rt-14-dev-wasm32 (WEB=1 bash
# scripts/install-deps.sh). binaryen's wasm-opt, when installed, shrinks
# the module (the compiled-in weight tables are mostly zeros).
# Usage: build-web.sh OUT_DIR [SHATRA_RELATIONS_MASK]   (writes OUT_DIR/dama.wasm
#        and copies the page beside it), or build-web.sh --check (the toolchain only).
# Exits 77 with a message when the toolchain is missing.
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:?usage: build-web.sh OUT_DIR [SHATRA_RELATIONS_MASK] | --check}
REL=${2:-0}
CC=${DAMA_WASM_CC:-$(command -v clang-14 || command -v clang || true)}
missing() {
  echo "build-web: $1; the web page is not built (WEB=1 bash scripts/install-deps.sh installs the toolchain)" >&2
  exit 77
}
[ -n "$CC" ] || missing "no clang"
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf '#include <stdio.h>\nint f(void){return snprintf(0,0,"%%d",1);}\n' >"$probe/p.c"
"$CC" --target=wasm32-wasi -mexec-model=reactor -O2 "$probe/p.c" -o "$probe/p.wasm" -Wl,--export=f 2>"$probe/err" ||
  missing "$CC cannot link for wasm32-wasi ($(head -1 "$probe/err")): Debian's wasi-libc, lld and libclang-rt-14-dev-wasm32 are needed"
[ "$OUT" = --check ] && exit 0

OBJ="${OUT%/}-obj" # beside the page, not served with it
mkdir -p "$OUT" "$OBJ"
CFLAGS=(--target=wasm32-wasi -O3 -DNDEBUG -std=gnu11 -Wall -Wextra -Wshadow -Wvla -fvisibility=hidden
  -D_WASI_EMULATED_MMAN -DDAMA_BUILDING_LIBRARY "-DDAMA_SHATRA_RELATIONS=$REL"
  -I"$SRC" -I"$SRC/include" -I"$SRC/web/wasm/include")
[ -n "${DAMA_WERROR:-}" ] && CFLAGS+=(-Werror)
cd "$SRC"
SOURCES=$(find engine util web/wasm -name '*.c' | grep -vE '^engine/egtb/|^engine/weights_file[.]c$|^util/atomic_file[.]c$' | sort)
rm -f "$OBJ"/*.o
# Two at a time (the native build's -j of a small machine).
jobs=0
for f in $SOURCES; do
  "$CC" "${CFLAGS[@]}" -c "$f" -o "$OBJ/$(echo "$f" | tr / _).o" &
  jobs=$((jobs + 1))
  if [ "$jobs" -ge "${DAMA_WEB_JOBS:-2}" ]; then wait -n; jobs=$((jobs - 1)); fi
done
while [ "$jobs" -gt 0 ]; do wait -n; jobs=$((jobs - 1)); done
[ "$(ls "$OBJ"/*.o | wc -l)" -eq "$(echo $SOURCES | wc -w)" ] || { echo "build-web: a source did not compile" >&2; exit 1; }
# A reactor (no main; _initialize runs the constructors), every DAMA_API
# function and web/wasm/glue.c's exported, 1 MiB of stack.
"$CC" --target=wasm32-wasi -mexec-model=reactor -O3 "$OBJ"/*.o -o "$OUT/dama-raw.wasm" \
  -Wl,--export-dynamic -Wl,--strip-all -Wl,-z,stack-size=1048576 -lwasi-emulated-mman
if command -v wasm-opt >/dev/null; then
  # Memory starts zeroed: data segments of zeros are dropped.
  wasm-opt -O3 --zero-filled-memory "$OUT/dama-raw.wasm" -o "$OUT/dama.wasm"
else
  echo "build-web: binaryen's wasm-opt is not installed; dama.wasm is not shrunk" >&2
  cp "$OUT/dama-raw.wasm" "$OUT/dama.wasm"
fi
rm -f "$OUT/dama-raw.wasm"
# The page itself, beside the module.
cp "$SRC"/web/*.html "$SRC"/web/*.js "$SRC"/web/*.css "$OUT"/
echo "build-web: $OUT/dama.wasm ($(wc -c <"$OUT/dama.wasm") bytes)"

#!/usr/bin/env bash
# The web page (web/, docs/web.md) played in headless Chromium (Debian's
# chromium, driven by playwright-core from npm: tests/browser/package.json,
# installed by TESTS=1 or WEB=1 bash scripts/install-deps.sh; no browser
# download): a game of each game through the page's own events, every
# position and legal move checked against the native dama, undo, resign,
# draw offers, weights that change the engine's choice and bad weight
# files refused with the library's message, the red Biy (play.mjs).
# Screenshots go to BUILD_DIR/browser-play/.
# Exits 77 (ctest SKIP_RETURN_CODE) when chromium, node, playwright-core or
# the WebAssembly build (the toolchain: scripts/build-web.sh) is missing.
# Usage: play.sh DAMA_BINARY SOURCE_DIR [--figures]
set -u
. "$(dirname "$0")/../cli/lib.sh"
BUILD=$(cd "$(dirname "$DAMA")" && pwd)
DAMA="$BUILD/$(basename "$DAMA")"
SRC=$(cd "$SRC" && pwd)
skip() { echo "SKIP: $1"; exit 77; }
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROMIUM" ] || skip "chromium is not installed (TESTS=1 bash scripts/install-deps.sh installs it)"
command -v node >/dev/null || skip "node is not installed (TESTS=1 bash scripts/install-deps.sh installs it)"
PW="$SRC/tests/browser/node_modules/playwright-core/index.mjs"
[ -f "$PW" ] || skip "playwright-core is not installed in tests/browser/node_modules (TESTS=1 bash scripts/install-deps.sh)"
[ -f "$BUILD/web/dama.wasm" ] || skip "no $BUILD/web/dama.wasm: the WebAssembly toolchain is missing (WEB=1 bash scripts/install-deps.sh)"

OUT="$BUILD/browser-play"
mkdir -p "$OUT"
rm -f "$OUT"/*.png # this run's screenshots only
# The page, served on a free port of 127.0.0.1 (the server prints it).
bash "$SRC/scripts/serve-web.sh" 0 "$BUILD/web" >"$T/serve.out" 2>"$T/serve.err" &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$T"' EXIT
port_of() { sed -n 's|.*http://127.0.0.1:\([0-9][0-9]*\)/$|\1|p' "$T/serve.out" | tail -1; }
port_known() { [ -n "$(port_of)" ]; }
WAIT_S=120 wait_until -p "$server" "the page server starts" port_known || { cat "$T/serve.err"; bad "no page server"; finish "browser play"; exit 1; }
URL="http://127.0.0.1:$(port_of)/"
PLAYWRIGHT_CORE="$PW" CHROMIUM="$CHROMIUM" timeout 600 node "$SRC/tests/browser/play.mjs" "$URL" "$DAMA" "$OUT" "${3:-}" \
  >"$T/play.out" 2>&1
rc=$?
cat "$T/play.out"
[ "$rc" -eq 0 ] && ok || bad "play.mjs: exit $rc"
grep -q "^FAIL" "$T/play.out" && bad "play.mjs reported failures" || ok
for f in russian-start russian-game turkish-start turkish-game shatra-start shatra-game shatra-red-biy shatra-phone \
  brazilian-start pool-start english-start czech-start italian-start spanish-start international-start international-game \
  international-e5; do
  [ -s "$OUT/$f.png" ] && ok || bad "no screenshot $OUT/$f.png"
done
finish "browser play"

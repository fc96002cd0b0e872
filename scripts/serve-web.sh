#!/usr/bin/env bash
# Serves the web page (docs/web.md) built into build/web/ on 127.0.0.1 with
# Python's http.server, adding the two headers that make the page
# cross-origin isolated (so "Move now" can stop the engine's search through
# a SharedArrayBuffer) and no caching.
# Usage: serve-web.sh [PORT] [DIR]   (defaults 8000 and build/web)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PORT=${1:-8000}
DIR=${2:-$ROOT/build/web}
if [ ! -f "$DIR/dama.wasm" ]; then
  echo "serve-web: no $DIR/dama.wasm: build it first (bash scripts/build.sh, or bash scripts/build-web.sh $DIR)" >&2
  exit 1
fi
echo "dama: http://127.0.0.1:$PORT/ (Ctrl-C stops)"
exec python3 - "$PORT" "$DIR" <<'PY'
import functools, http.server, sys

class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm",
                      ".js": "text/javascript", ".pdn": "application/x-pdn"}

    def end_headers(self):
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, *args):
        pass

port, root = int(sys.argv[1]), sys.argv[2]
server = http.server.ThreadingHTTPServer(("127.0.0.1", port), functools.partial(Handler, directory=root))
print(f"serving {root} on http://127.0.0.1:{server.server_address[1]}/", flush=True)
server.serve_forever()
PY

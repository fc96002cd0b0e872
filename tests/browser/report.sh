#!/usr/bin/env bash
# The report in a real browser: headless Chromium (Debian's chromium,
# installed by scripts/install-deps.sh) renders the page of a test database
# (self-play, tuning, a match with the SPRT, a tournament, and two
# generations of dama train): the page must load with no console error and
# no refused request (it loads nothing), refuse a script (its Content
# Security Policy), keep every section, SVG and figure,
# give non-blank screenshots at phone (390 px) and desktop (1280 px) width,
# and show the database's numbers (tests/browser/check_report.py compares
# every plotted point with queries on the same file).
# Exits 77 (ctest SKIP_RETURN_CODE) only when chromium is not installed.
# Usage: report.sh DAMA_BINARY SOURCE_DIR
set -u
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
  echo "SKIP: chromium is not installed (scripts/install-deps.sh installs it)"
  exit 77
fi
. "$(dirname "$0")/../cli/lib.sh"
cd "$T" || exit 1

"$DAMA" selfplay --db t.sqlite --games 40 --nodes 300 --threads 2 --progress 0 >/dev/null 2>&1 && ok || bad "selfplay"
# Tuned from a deliberately poor start (tests/cli/russian-poor.cfg): a run in
# which no epoch beats its start stores no weight set (and "tuned" below would
# be missing), which from the compiled-in set is these few games' chance.
"$DAMA" tune --db t.sqlite --seed 3 --epochs 20 --lr 5 --batch 256 --weights "$SRC/tests/cli/russian-poor.cfg" >/dev/null 2>&1 && ok || bad "tune"
"$DAMA" match --db t.sqlite --a tuned --b default --pairs 8 --nodes 300 --sprt --elo0 0 --elo1 10 --progress 0 \
  >/dev/null 2>&1 && ok || bad "match"
"$DAMA" tournament --db t.sqlite --rounds 2 --concurrency 1 --nodes 200 --progress 0 \
  'name=tuned <b>&amp;,weights=tuned' name=start,weights=default name=deep,depth=2 >/dev/null 2>&1 && ok || bad "tournament"
# Two gated generations of dama train (a loose gate, so that one passes and
# the ladder has a point) in their own game, Turkish.
"$DAMA" train --db t.sqlite --game turkish --generations 2 --games-per-gen 20 --nodes 200 --epochs 40 --lr 5 \
  --gate-pairs 24 --ladder-pairs 8 --threads 1 --progress 0 --elo0 -400 --elo1 -200 >/dev/null 2>&1 && ok || bad "train"
"$DAMA" report --db t.sqlite -o report.html >/dev/null 2>err && ok || bad "report: $(cat err)"

# One browser profile per run (tests run in parallel); no GPU, no sandbox
# (CI runs as root), no first-run work. Headless Chromium needs script for
# --dump-dom itself, so scripts are off by the page's own Content Security
# Policy (default-src 'none'): checked below with a script put into a copy.
chrome() {
  timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
    --disable-extensions --user-data-dir="$T/profile" --enable-logging=stderr --v=0 "$@"
}
chrome --dump-dom "file://$T/report.html" >dom.html 2>dom.err && ok || bad "chromium --dump-dom: exit $? $(tail -3 dom.err)"
grep -q '</html>' dom.html && ok || bad "no page dumped: $(tail -3 dom.err)"
for size in 1280x2400 390x2400; do
  chrome --hide-scrollbars --window-size="${size/x/,}" --screenshot="$T/shot-$size.png" "file://$T/report.html" \
    >/dev/null 2>"shot-$size.err" && ok || bad "chromium --screenshot $size: exit $?"
  [ -s "shot-$size.png" ] && ok || bad "no screenshot at $size: $(tail -3 "shot-$size.err")"
done
# The page itself must cause no console message and no refused load (the
# browser's own D-Bus and GPU chatter is not the page's).
if grep -hE 'CONSOLE|Refused to|Uncaught|Failed to load resource|net::ERR' dom.err shot-*.err >page.err; then
  bad "the page caused browser errors: $(head -5 page.err)"
fi
# Scripts are refused by the page itself, and what it shows needs none.
sed 's|</body>|<script>document.body.setAttribute("data-js", "ran")</script></body>|' report.html >js.html
chrome --dump-dom "file://$T/js.html" >js-dom.html 2>js.err && ok || bad "chromium --dump-dom js.html: exit $?"
grep -q '</html>' js-dom.html && ok || bad "no page dumped for js.html"
grep -q 'data-js="ran"' js-dom.html && bad "a script put into the page ran (its Content Security Policy should refuse it)" || ok
grep -q "violates the following Content Security Policy" js.err && ok || bad "chromium did not report the refused script"
python3 "$SRC/tests/browser/check_report.py" dom.html report.html t.sqlite "$DAMA" shot-1280x2400.png shot-390x2400.png \
  && ok || bad "the page does not show the database's numbers"
if [ -n "${REPORT_KEEP:-}" ]; then cp report.html dom.html shot-*.png "$REPORT_KEEP"/; fi
finish "browser report"

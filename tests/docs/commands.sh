#!/usr/bin/env bash
# docs/commands.md is the command reference that `dama help --markdown`
# writes from the option tables of cli/ (the ones --help prints) and the
# prose of cli/manual.txt: the committed file must be that output. Also the
# man page (`dama help --man`): a roff page with a section per command, and,
# where groff is installed, one that renders without a warning.
# Usage: tests/docs/commands.sh DAMA_BINARY SOURCE_DIR
set -euo pipefail
dama=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$dama" help --markdown >"$tmp/commands.md" 2>"$tmp/err" || fail "dama help --markdown exited $?"
if [ -s "$tmp/err" ]; then
  cat "$tmp/err" >&2
  fail "dama help --markdown warned (every command needs its text in cli/manual.txt)"
fi
if ! diff -u "$src/docs/commands.md" "$tmp/commands.md"; then
  fail "docs/commands.md is stale (an option table or cli/manual.txt changed): regenerate it with
    build/dama help --markdown > docs/commands.md
and commit it (the diff above is committed -> generated)"
fi

"$dama" help --man >"$tmp/dama.1" 2>"$tmp/err" || fail "dama help --man exited $?"
[ -s "$tmp/err" ] && { cat "$tmp/err" >&2; fail "dama help --man warned"; }
grep -q '^\.TH DAMA 1 ' "$tmp/dama.1" || fail "dama.1 has no .TH line"
for cmd in $("$dama" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } /^$/ { on = 0 }'); do
  grep -q "^\.SS \"dama $cmd\"\$" "$tmp/dama.1" || fail "dama.1 has no section for '$cmd'"
  grep -q "^## $cmd\$" "$tmp/commands.md" || fail "commands.md has no section for '$cmd'"
done
if command -v groff >/dev/null; then
  groff -man -Tutf8 -ww -z "$tmp/dama.1" 2>"$tmp/groff" || fail "groff exited $?"
  [ -s "$tmp/groff" ] && { cat "$tmp/groff" >&2; fail "groff warns on dama.1"; }
fi
echo "docs/commands.md is up to date; dama.1 has every command"

#!/usr/bin/env bash
# dama tune's data options (README "Tuning data"): --resolve replaces
# positions with a capture pending by their capture line's quiet leaf,
# --dedupe merges equal training positions, --per-game and --share sample
# the training set; each says how many it touched, the validation set stays
# whole, and every result is the same run to run.
# Usage: tune_data.sh DAMA_BINARY SOURCE_DIR
set -u
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1
num() { sed -n "s/.*$1.*/\1/p" "$2" | head -1; }

"$DAMA" selfplay --db a.sqlite --games 40 --nodes 300 --threads 2 --progress 0 >/dev/null 2>&1 || bad "selfplay"
tune() { "$DAMA" tune --db a.sqlite --epochs 3 --batch 512 --threads 2 "$@"; }

tune >base.err 2>&1 || bad "plain tune: $(tail -2 base.err)"
valid=$(num 'tuning run [0-9]*: .*valid \([0-9.]*\) ->.*' base.err)
train=$(num 'train \([0-9]*\) ->' base.err)

# --resolve: some positions were resolved, and more positions load
tune --resolve >r.err 2>&1 || bad "--resolve: $(tail -2 r.err)"
resolved=$(num 'resolve: \([0-9]*\) positions' r.err)
[ -n "$resolved" ] && [ "$resolved" -gt 0 ] && ok || bad "--resolve resolved '$resolved' positions: $(cat r.err)"
n0=$(num 'tune russian: \([0-9]*\) positions' base.err)
n1=$(num 'tune russian: \([0-9]*\) positions' r.err)
[ "$n1" = $((n0 + resolved)) ] && ok || bad "--resolve loaded $n1 positions, expected $n0 + $resolved"

# --dedupe: equal positions (openings) merged; with K given, the validation
# loss at the start is the plain one (the validation set is whole)
tune --k 0.8 >base.err 2>&1 || bad "plain tune, K given: $(tail -2 base.err)"
tune --k 0.8 --dedupe >d.err 2>&1 || bad "--dedupe: $(tail -2 d.err)"
merged=$(num 'training set: .*(\([0-9]*\) merged' d.err)
[ -n "$merged" ] && [ "$merged" -gt 0 ] && ok || bad "--dedupe merged '$merged': $(grep 'training set' d.err)"
v0=$(num 'valid \([0-9.]*\) ->' base.err)
v1=$(num 'valid \([0-9.]*\) ->' d.err)
[ -n "$v0" ] && [ "$v0" = "$v1" ] && ok || bad "--dedupe changed the validation start loss: $v0 vs $v1"

# --per-game 5: at most 5 a game (40 games)
tune --per-game 5 >p.err 2>&1 || bad "--per-game: $(tail -2 p.err)"
left=$(num 'training set: [0-9]* -> \([0-9]*\) positions' p.err)
[ -n "$left" ] && [ "$left" -le 200 ] && [ "$left" -gt 50 ] && ok || bad "--per-game 5 left '$left' positions"

# --share 0.5: about half, the same half twice
tune --share 0.5 >s.err 2>&1 || bad "--share: $(tail -2 s.err)"
tune --share 0.5 >s2.err 2>&1 || bad "--share again"
before=$(num 'training set: \([0-9]*\) ->' s.err)
after=$(num 'training set: [0-9]* -> \([0-9]*\) positions' s.err)
[ -n "$after" ] && [ $((after * 3)) -gt "$before" ] && [ $((after * 3)) -lt $((before * 2)) ] && ok \
  || bad "--share 0.5 kept $after of $before"
[ "$(grep 'tuning run' s.err | sed 's/tuning run [0-9]*//; s/;.*s,.*//')" = \
  "$(grep 'tuning run' s2.err | sed 's/tuning run [0-9]*//; s/;.*s,.*//')" ] && ok || bad "--share is not repeatable"

# out of range values are refused with the option's name
tune --share 0 >/dev/null 2>e.err && bad "--share 0 accepted" || { grep -q -- '--share' e.err && ok || bad "--share 0: $(cat e.err)"; }
tune --per-game -1 >/dev/null 2>e.err && bad "--per-game -1 accepted" || { grep -q -- '--per-game' e.err && ok || bad "--per-game -1: $(cat e.err)"; }

finish "tune_data.sh"

#!/usr/bin/env bash
# The README's two commands on a fresh machine: makes a minimal Debian root
# (debootstrap --variant=minbase, Debian's own packages: coreutils, bash,
# grep, sed, mawk, findutils, util-linux — no git, no compiler, no python3,
# no sqlite3, no bc, no procps), puts a clean clone of the current commit
# into it (git clone: no build folders, nothing uncommitted, nothing outside
# the repository) and runs there, as root in a chroot, as a new user would:
#   1. bash scripts/test.sh
#   2. bash scripts/main-job.sh, small (GENERATIONS=1 GAMES=40 NODES=500
#      GATE_PAIRS=10 LADDER_PAIRS=4 unless set), in a folder of its own
# Usage: sudo bash scripts/fresh-debian.sh [--test | --main] [--keep]
#   --test / --main   run only that command (default: both)
#   --keep            leave the root (its path is printed) instead of removing it
# Environment: SUITE (bookworm), MIRROR (http://deb.debian.org/debian), ROOT
# (the folder to make it in, which must not exist; a new one under /var/tmp
# unless set). Needs root, the network (Debian's mirror) and about 3 GB.
# Runs both even when the first fails; exits with the status of the first
# command that failed.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
run_test=1 run_main=1 keep=0
for a in "$@"; do
  case "$a" in
    --test) run_main=0 ;;
    --main) run_test=0 ;;
    --keep) keep=1 ;;
    *) echo "usage: bash scripts/fresh-debian.sh [--test | --main] [--keep]" >&2; exit 2 ;;
  esac
done
[ "$(id -u)" = 0 ] || { echo "fresh-debian.sh: needs root (debootstrap, chroot, mount)" >&2; exit 2; }
SUITE=${SUITE:-bookworm}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
COMMIT=$(git rev-parse HEAD)
[ -z "$(git status --porcelain --untracked-files=no)" ] ||
  echo "note: uncommitted changes are not in the clone: it holds commit $COMMIT"
if [ -n "${ROOT:-}" ]; then
  [ ! -e "$ROOT" ] || { echo "fresh-debian.sh: $ROOT exists (a fresh root needs a new folder)" >&2; exit 2; }
  mkdir -p "$ROOT"
else
  ROOT=$(mktemp -d /var/tmp/dama-fresh.XXXXXX)
fi
ROOT=$(cd "$ROOT" && pwd)
chmod 755 "$ROOT" # its / (mktemp makes it 700: apt's _apt user and the tests run as nobody could not enter)

mounted=()
cleanup() {
  local m i
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
    m=${mounted[i]}
    umount -R "$m" 2>/dev/null || umount -R -l "$m" 2>/dev/null || true
  done
  mounted=()
  if [ "$keep" = 1 ]; then
    echo "the root is kept: $ROOT (chroot $ROOT bash)"
  elif grep -q " $ROOT/" /proc/mounts; then # never remove through a mount into the host
    echo "fresh-debian.sh: something is still mounted under $ROOT; left in place" >&2
  else
    rm -rf --one-file-system "$ROOT"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "== debootstrap --variant=minbase $SUITE into $ROOT"
if ! command -v debootstrap >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
fi
debootstrap --variant=minbase "$SUITE" "$ROOT" "$MIRROR" >"$ROOT.debootstrap.log" 2>&1 ||
  { tail -20 "$ROOT.debootstrap.log"; exit 1; }
rm -f "$ROOT.debootstrap.log"
cp /etc/resolv.conf "$ROOT/etc/resolv.conf" # apt-get inside, for scripts/install-deps.sh
# A network whose TLS is inspected by a proxy (the caller's NODE_EXTRA_CA_CERTS
# names its certificate): the root trusts it too, as a machine on that network
# would, so npm (tests/browser's playwright-core) can reach its registry.
extra_ca=""
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -r "$NODE_EXTRA_CA_CERTS" ]; then
  cp "$NODE_EXTRA_CA_CERTS" "$ROOT/etc/network-extra-ca.crt"
  extra_ca="NODE_EXTRA_CA_CERTS=/etc/network-extra-ca.crt"
fi

echo "== a clean clone of $COMMIT in /root/dama"
git clone -q --no-local "$REPO" "$ROOT/root/dama"
git -C "$ROOT/root/dama" checkout -q --detach "$COMMIT"

for m in proc sys dev; do
  case $m in
    proc) mount -t proc proc "$ROOT/proc" ;;
    sys) mount --rbind /sys "$ROOT/sys" && mount --make-rslave "$ROOT/sys" ;;
    dev) mount --rbind /dev "$ROOT/dev" && mount --make-rslave "$ROOT/dev" ;;
  esac
  mounted+=("$ROOT/$m")
done

# in_root COMMAND: runs COMMAND (a shell line) in the root with a new user's environment
in_root() {
  chroot "$ROOT" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb $extra_ca \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin /bin/bash -c "$1"
}
rc=0
if [ "$run_test" = 1 ]; then
  echo "== 1. bash scripts/test.sh"
  start=$SECONDS
  in_root 'cd /root/dama && bash scripts/test.sh' || rc=$?
  echo "== 1. bash scripts/test.sh: exit $rc ($((SECONDS - start)) s)"
fi
if [ "$run_main" = 1 ]; then # (after a failed test command too: it shows what else fails)
  r=0
  sizes="GENERATIONS=${GENERATIONS:-1} GAMES=${GAMES:-40} NODES=${NODES:-500} GATE_PAIRS=${GATE_PAIRS:-10}"
  sizes="$sizes LADDER_PAIRS=${LADDER_PAIRS:-4}"
  echo "== 2. $sizes bash scripts/main-job.sh (in /root/job)"
  start=$SECONDS
  in_root "mkdir -p /root/job && cd /root/job && $sizes bash /root/dama/scripts/main-job.sh" || r=$?
  echo "== 2. bash scripts/main-job.sh: exit $r ($((SECONDS - start)) s)"
  [ "$rc" != 0 ] || rc=$r
fi
exit "$rc"

#!/usr/bin/env bash
# The chaos test's quick form (ctest cli_chaos): every long-running command
# killed with SIGKILL at a few seeded moments and restarted until it
# finishes, two copies started at once, and a full disk (as root), each
# compared with an uninterrupted run (scripts/chaos.sh; the long form is
# `bash scripts/chaos.sh --kills 20`). In an MPI build the mpirun runs too.
# Usage: chaos.sh DAMA_BINARY SOURCE_DIR
set -u
exec bash "$2/scripts/chaos.sh" --quick --dama "$1" --seed "${CHAOS_SEED:-1}"

#!/usr/bin/env bash
# Runs test suites of one build against each SQLite of the version matrix, JOBS versions at
# a time (each version's suites are single-threaded, so two fit the two cores CI has; every
# test program works in a temporary directory of its own). Each version's console output is
# printed whole, in version order, once it is done; its logs land in LOGDIR like
# run_tests.sh's (LABEL-sqliteVERSION-SUITE.log), for scripts/summarize_tests.sh.
#   usage: scripts/run_matrix.sh LOGDIR BUILDDIR LABEL "VERSION ..." SUITE...
set -uo pipefail
cd "$(dirname "$0")/.."
logdir=$1 builddir=$2 label=$3 versions=$4
shift 4
jobs=${JOBS:-2}
mkdir -p "$logdir"
pids=() outputs=()
for version in $versions; do
  while (($(jobs -rp | wc -l) >= jobs)); do wait -n; done
  output=$logdir/$label-sqlite$version-console.txt
  SQLITE_VERSION=$version bash scripts/run_tests.sh "$logdir" "$builddir" "$label-sqlite$version" "$@" >"$output" 2>&1 &
  pids+=($!) outputs+=("$output")
done
for i in "${!pids[@]}"; do
  wait "${pids[$i]}"
  cat "${outputs[$i]}"
  rm -f "${outputs[$i]}"
done

#!/usr/bin/env bash
# Runs test suites of one build against each SQLite of the version matrix, JOBS versions at
# a time (each version's suites are single-threaded, so two fit the two cores CI has; every
# test program works in a temporary directory of its own). Each version's console output is
# printed whole, in version order, once it is done; its logs land in LOGDIR like
# run_tests.sh's (LABEL-sqliteVERSION-SUITE.log), for scripts/summarize_tests.sh. A version
# whose run_tests.sh itself fails (killed, or exits non-zero: it exits 0 whatever its suites
# do) gets a LABEL-sqliteVERSION-matrix.log that counts one failure, so the summary fails.
# Interrupted (INT, TERM), it stops the versions still running (each runs in a session of
# its own, test programs included) before exiting. Nothing reads stdin.
#   usage: scripts/run_matrix.sh LOGDIR BUILDDIR LABEL "VERSION ..." SUITE...
#   MATRIX_RUNNER: the script run per version (default scripts/run_tests.sh; for testing
#   this script with one that fails).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
if (($# < 4)); then
  echo "usage: $0 LOGDIR BUILDDIR LABEL \"VERSION ...\" SUITE..." >&2
  exit 2
fi
logdir=$1 builddir=$2 label=$3 versions=$4
shift 4
jobs=${JOBS:-2}
if ! [[ $jobs =~ ^[0-9]+$ ]] || ((jobs < 1)); then
  echo "run_matrix: JOBS must be a positive number, not '$jobs'" >&2
  exit 2
fi
runner=${MATRIX_RUNNER:-scripts/run_tests.sh}
mkdir -p "$logdir"
pids=() outputs=() names=()
stop_all() {
  for pid in "${pids[@]}"; do pkill -TERM -s "$pid" 2>/dev/null; done
}
trap 'stop_all; exit 130' INT
trap 'stop_all; exit 143' TERM
for version in $versions; do
  while (($(jobs -rp | wc -l) >= jobs)); do wait -n; done
  output=$logdir/$label-sqlite$version-console.txt
  # setsid: a session of its own (its pid), so stop_all reaches every process of it.
  SQLITE_VERSION=$version setsid --wait bash "$runner" "$logdir" "$builddir" "$label-sqlite$version" "$@" \
    >"$output" 2>&1 </dev/null &
  pids+=($!) outputs+=("$output") names+=("$label-sqlite$version")
done
for i in "${!pids[@]}"; do
  wait "${pids[$i]}"
  rc=$?
  cat "${outputs[$i]}"
  rm -f "${outputs[$i]}"
  if ((rc != 0)); then
    log=$logdir/${names[$i]}-matrix.log
    echo "${names[$i]}: $runner exited with status $rc; 0 passed, 1 failed" | tee "$log"
    echo "$rc" >"${log%.log}.rc"
  fi
done

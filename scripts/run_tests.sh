#!/usr/bin/env bash
# Runs the test suites of one build directory, showing their output and keeping it in
# LOGDIR/LABEL-SUITE.log with the exit status in LOGDIR/LABEL-SUITE.rc, for
# scripts/summarize_tests.sh to total. Always exits 0: the summary decides.
#
# Usage: scripts/run_tests.sh LOGDIR BUILDDIR LABEL [SUITE...]
#   SUITE: unit, sql, conformance, interop (default: all; conformance only if it was
#   built; interop, the DuckDB encryption interop of tests/conformance, needs node)
# Runs from the repository root. SUITE_TIMEOUT (default 1200s) bounds each suite.
set -uo pipefail
cd "$(dirname "$0")/.."

if (($# < 3)); then
  echo "usage: $0 LOGDIR BUILDDIR LABEL [unit|sql|conformance|interop ...]" >&2
  exit 2
fi
logdir=$1 builddir=$2 label=$3
shift 3
suites=("$@")
((${#suites[@]})) || suites=(unit sql conformance interop)
mkdir -p "$logdir"

export PARQUET_TESTING=${PARQUET_TESTING:-$(cd .. && pwd)/shared/parquet-testing}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
timeout=${SUITE_TIMEOUT:-1200s}

run() {  # run NAME COMMAND...
  local name=$1
  shift
  local log=$logdir/$label-$name.log
  echo "=== $label $name: $*"
  timeout --kill-after=10s "$timeout" "$@" </dev/null 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]}
  ((rc == 124)) && echo "$label $name: timed out after $timeout" | tee -a "$log"
  echo "$rc" >"$logdir/$label-$name.rc"
}

for suite in "${suites[@]}"; do
  case $suite in
    unit)
      run unit "$builddir/unit_tests" ;;
    sql)
      shopt -s nullglob
      files=(sql/*.test)
      shopt -u nullglob
      run sql "$builddir/sql_test_runner" --extension "$builddir/parquet" --root . "${files[@]}" ;;
    conformance)
      if [[ -x $builddir/conformance_tests ]]; then
        run conformance "$builddir/conformance_tests" --extension "$builddir/parquet" \
          --corpus "$PARQUET_TESTING"
      fi ;;
    interop)
      if command -v node >/dev/null; then
        run interop node tests/conformance/interop_encryption.mjs --runner "$builddir/sql_test_runner" \
          --extension "$builddir/parquet"
      else
        echo "interop: skipped (node is not installed)"
      fi ;;
    *)
      echo "run_tests: unknown suite $suite" >&2 ;;
  esac
done
exit 0

#!/usr/bin/env bash
# Runs the test suites of one build directory, showing their output and keeping it in
# LOGDIR/LABEL-SUITE.log with the exit status in LOGDIR/LABEL-SUITE.rc, for
# scripts/summarize_tests.sh to total. Always exits 0: the summary decides.
#
# Usage: scripts/run_tests.sh LOGDIR BUILDDIR LABEL [SUITE...]
#   SUITE: unit, sql, differential, conformance, interop, runtime, fuzz (default: all;
#   conformance only if it was built), and dist (only when named: the artefacts of
#   `make dist`, built in DIST_BUILD, default build-dist; tests/dist/run.sh).
#   interop: DuckDB, parquet-wasm and hyparquet read what parquet_copy writes
#   (tests/interop; not in sanitizer builds, since the sqlite3 shell loads the extension),
#   and the DuckDB encryption interop of tests/interop/encryption.mjs (both builds).
#   lake: the Delta conformance suite (tests/lake/delta_conformance.py: every golden table of
#   ../shared/lake/delta against the rows Spark reads) and the Iceberg conformance suite
#   (tests/lake/iceberg_conformance.py: duckdb-iceberg's queries on its tables)
#   runtime: tests/runtime (interrupts, threads, files changing under a scan, failing copies)
#   hosts: real programs load the extension (tests/hosts: sqlite3 shells, Python, Node's
#   better-sqlite3, sqlite-utils; not in sanitizer builds)
#   remote: https:// and s3:// files against nginx, s3rver and a fault injector started on
#   loopback (tests/remote; in sanitizer builds python3 runs with the sanitizer runtimes
#   preloaded, leak detection off: the interpreter's own allocations are not ours)
#   sqlite-api: every SQLite routine ext/ calls is in the oldest supported SQLite's API
#   table or guarded by a run-time version check (tests/sqlite_api_check.sh; not in
#   sanitizer builds: it reads the sources, not the build)
#   windows: the Windows x64 parquet.dll, cross-built with mingw-w64 in WINDOWS_BUILD
#   (default build-windows), its imports and exports, and sqlite3.exe and the sql suite's
#   runner loading it under wine (tests/windows/run.sh)
#   layering: the tree's layering rules and the links of README.md and docs/ (tests/layering_check.sh; not in sanitizer builds)
#   wasm: the WebAssembly build of `make wasm` in WASM_BUILD (default build-wasm; only when
#   named): the sql suite and the JavaScript API under Node, the demo page in headless
#   Chromium, and the comparison with DuckDB-Wasm (tests/wasm/run.sh; BUILDDIR's native
#   parquet_copy makes the browser test's files)
#   sources: only when named (first in `make test`): every Debian source package the
#   builds from source need resolves to a version the archive serves, and the resolver's
#   rules (tests/sources/run.sh, scripts/debian_sources.sh)
#   fuzz: each fuzz target (tests/fuzz/) replays its committed regressions one test per
#   file, then its seeds (made by BUILDDIR/fuzz_seeds) plus FUZZ_SMOKE_SECONDS (default 3)
#   of mutations as one more test.
# Runs from the repository root. SUITE_TIMEOUT (default 1200s) bounds each suite. Without
# suites named, all of them but those in SKIP_SUITES (space-separated). SUITE_LANES=N runs
# them N at a time (below).
#
# SQLITE_VERSION=X.Y.Z runs the suites against that SQLite of the version matrix instead of
# the system's: scripts/setup_sqlite_versions.sh builds it (once) into SQLITE_VERSIONS_DIR
# (default build/sqlite-versions), LD_LIBRARY_PATH makes the test programs load it, and
# SQLITE_EXPECTED_VERSION makes them fail if another SQLite is running.
set -uo pipefail
cd "$(dirname "$0")/.."

if (($# < 3)); then
  echo "usage: $0 LOGDIR BUILDDIR LABEL [unit|sql|differential|conformance|lake|interop|runtime|hosts|remote|sqlite-api|layering|fuzz|windows|dist|wasm ...]" >&2
  exit 2
fi
logdir=$1 builddir=$2 label=$3
shift 3
suites=("$@")
if ((${#suites[@]} == 0)); then
  # Every suite, but those named in SKIP_SUITES (make test runs windows on its own, once its
  # background build is done).
  for suite in unit sql differential conformance lake interop runtime hosts remote sqlite-api layering fuzz windows; do
    [[ " ${SKIP_SUITES:-} " == *" $suite "* ]] || suites+=("$suite")
  done
fi
mkdir -p "$logdir"
versions_dir=${SQLITE_VERSIONS_DIR:-build/sqlite-versions}

# SUITE_LANES=N (make test: JOBS) runs the suites in N lanes at once, each lane a run of this
# script with its share of the suites: every suite is a single-threaded program, and the
# suites already run beside each other in the version matrix (each works in a temporary
# directory of its own, servers on free ports). Suites are dealt longest first to the lane
# with the least time so far, by the times below (seconds, a Release run on 2 cores; an ASan
# run's are in proportion). Each lane's console output is printed whole once it is done.
lanes=${SUITE_LANES:-1}
if [[ -z ${RUN_TESTS_IN_LANE:-} ]] && [[ $lanes =~ ^[0-9]+$ ]] && ((lanes > 1 && ${#suites[@]} > 1)); then
  weight() {
    case $1 in
      remote) echo 85 ;; unit) echo 75 ;; runtime) echo 57 ;; lake) echo 54 ;; interop) echo 50 ;;
      sql) echo 45 ;; fuzz) echo 37 ;; differential) echo 30 ;; hosts) echo 7 ;; *) echo 2 ;;
    esac
  }
  ordered=$(for suite in "${suites[@]}"; do echo "$(weight "$suite") $suite"; done | sort -s -k1,1nr | cut -d' ' -f2)
  declare -a lane_suites lane_time
  for ((i = 0; i < lanes; i++)); do lane_suites[i]="" lane_time[i]=0; done
  for suite in $ordered; do
    best=0
    for ((i = 1; i < lanes; i++)); do ((lane_time[i] < lane_time[best])) && best=$i; done
    lane_suites[best]+=" $suite"
    lane_time[best]=$((lane_time[best] + $(weight "$suite")))
  done
  pids=() outputs=()
  trap 'for pid in "${pids[@]}"; do pkill -TERM -s "$pid" 2>/dev/null; done; exit 130' INT
  trap 'for pid in "${pids[@]}"; do pkill -TERM -s "$pid" 2>/dev/null; done; exit 143' TERM
  for ((i = 0; i < lanes; i++)); do
    [[ -n ${lane_suites[i]} ]] || continue
    output=$logdir/$label-lane$i-console.txt
    # shellcheck disable=SC2086  # the lane's suites, one word each
    RUN_TESTS_IN_LANE=1 setsid --wait bash "$PWD/scripts/run_tests.sh" "$logdir" "$builddir" "$label" ${lane_suites[i]} >"$output" 2>&1 </dev/null &
    pids+=($!) outputs+=("$output")
  done
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}"
    cat "${outputs[$i]}"
    rm -f "${outputs[$i]}"
  done
  exit 0
fi

if [[ -n ${SQLITE_VERSION:-} ]]; then
  if ! bash scripts/setup_sqlite_versions.sh "$versions_dir" "$SQLITE_VERSION" >"$logdir/$label-setup.log" 2>&1; then
    cat "$logdir/$label-setup.log"
    echo "$label: cannot build SQLite $SQLITE_VERSION; 0 passed, 1 failed" | tee -a "$logdir/$label-setup.log"
    echo 1 >"$logdir/$label-setup.rc"
    exit 0
  fi
  rm -f "$logdir/$label-setup.log"
  export LD_LIBRARY_PATH=$(cd "$versions_dir/$SQLITE_VERSION" && pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  export SQLITE_EXPECTED_VERSION=$SQLITE_VERSION
fi

export PARQUET_TESTING=${PARQUET_TESTING:-$(cd .. && pwd)/shared/parquet-testing}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}
timeout=${SUITE_TIMEOUT:-1200s}

run() {  # run NAME COMMAND...
  local name=$1
  shift
  local log=$logdir/$label-$name.log
  echo "=== $label $name: $*"
  local started=$SECONDS
  timeout --kill-after=10s "$timeout" "$@" </dev/null 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]}
  ((rc == 124)) && echo "$label $name: timed out after $timeout" | tee -a "$log"
  echo "$rc" >"$logdir/$label-$name.rc"
  echo "=== $label $name took $((SECONDS - started))s" | tee "$logdir/$label-$name.time"
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
    differential)
      # Random tables and queries, parquet against native (seed printed; DIFFERENTIAL_SEED repeats).
      run differential "$builddir/differential_tests" --extension "$builddir/parquet" ;;
    conformance)
      if [[ -x $builddir/conformance_tests ]]; then
        run conformance "$builddir/conformance_tests" --extension "$builddir/parquet" \
          --corpus "$PARQUET_TESTING"
      fi ;;
    lake)
      # Delta tables (docs/lake-tables.md): the golden tables of ../shared/lake against Spark's rows.
      preload=
      if grep -q '^SANITIZE:BOOL=ON' "$builddir/CMakeCache.txt" 2>/dev/null; then
        preload="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
      fi
      run lake bash -c 'if [[ -n $2 ]]; then export LD_PRELOAD=$2 ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0; fi
                        /usr/bin/python3 tests/lake/delta_conformance.py --extension "$1/parquet" --lake "${LAKE_DATA:-../shared/lake}"' lake "$builddir" "$preload"
      # Iceberg tables: duckdb-iceberg's queries on its tables, translated (tests/lake/iceberg_conformance.py).
      run iceberg bash -c 'if [[ -n $2 ]]; then export LD_PRELOAD=$2 ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0; fi
                        /usr/bin/python3 tests/lake/iceberg_conformance.py --extension "$1/parquet" --lake "${LAKE_DATA:-../shared/lake}"' iceberg "$builddir" "$preload" ;;
    interop)
      if grep -q '^SANITIZE:BOOL=ON' "$builddir/CMakeCache.txt" 2>/dev/null; then
        echo "=== $label interop: skipped (sanitizer build; the sqlite3 shell cannot load it)"
      else
        run interop bash -c 'bash tests/interop/setup.sh || { echo "interop: cannot install node packages (tests/interop/setup.sh failed)"; echo "0 passed, 1 failed"; exit 1; }
                             node tests/interop/run.mjs --build "$1"' interop "$builddir"
      fi
      # DuckDB reads a file parquet_copy encrypts and we read one DuckDB encrypts (both builds).
      run interop-encryption bash -c 'bash tests/interop/setup.sh >/dev/null || { echo "interop: cannot install node packages (tests/interop/setup.sh failed)"; echo "0 passed, 1 failed"; exit 1; }
                                      node tests/interop/encryption.mjs --runner "$1/sql_test_runner" --extension "$1/parquet"' interop "$builddir"
      ;;
    runtime)
      # RUNTIME_TEST_CASES: a doctest -tc filter (the TSan build runs only the thread test);
      # RUNTIME_TEST_EXCLUDE a -tce filter (the version matrix leaves out the filesystem
      # stress cases, run once per build on the system SQLite: the Makefile's MATRIX_RUNTIME_EXCLUDE).
      run runtime "$builddir/runtime_tests" --extension "$builddir/parquet" ${RUNTIME_TEST_CASES:+-tc="$RUNTIME_TEST_CASES"} \
        ${RUNTIME_TEST_EXCLUDE:+-tce="$RUNTIME_TEST_EXCLUDE"} ;;
    hosts)
      if grep -q '^SANITIZE:BOOL=ON' "$builddir/CMakeCache.txt" 2>/dev/null; then
        echo "=== $label hosts: skipped (sanitizer build; the hosts cannot load it)"
      else
        run hosts bash tests/hosts/run.sh "$builddir" "$versions_dir"
      fi ;;
    remote)
      # In a sanitizer build, Debian's python3 gets the sanitizer runtimes preloaded (it is
      # not built with them); the servers the suite starts do not (remote_test.py).
      preload=
      if grep -q '^SANITIZE:BOOL=ON' "$builddir/CMakeCache.txt" 2>/dev/null; then
        preload="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
      fi
      run remote bash -c 'bash scripts/install_node_packages.sh tests/remote s3rver remote >/dev/null || { echo "remote: cannot install s3rver (scripts/install_node_packages.sh)"; echo "0 passed, 1 failed"; exit 1; }
                          if [[ -n $2 ]]; then export LD_PRELOAD=$2 ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0; fi
                          /usr/bin/python3 tests/remote/remote_test.py --extension "$1/parquet" --corpus "$PARQUET_TESTING"' remote "$builddir" "$preload" ;;
    sqlite-api)
      if ! grep -q '^SANITIZE:BOOL=ON' "$builddir/CMakeCache.txt" 2>/dev/null; then
        run sqlite-api bash tests/sqlite_api_check.sh "$versions_dir"
      fi ;;
    layering)
      # The tree's layering rules and README/docs links (tests/layering_check.sh).
      if ! grep -q '^SANITIZE:BOOL=ON' "$builddir/CMakeCache.txt" 2>/dev/null; then
        run layering bash tests/layering_check.sh
      fi ;;
    fuzz)
      seeds=$builddir/fuzz-seeds
      "$builddir/fuzz_seeds" "$seeds" "$PARQUET_TESTING" "--iceberg=$(cd .. && pwd)/shared/lake/iceberg" >/dev/null
      for target in "$builddir"/fuzz_*; do
        name=$(basename "$target")
        [[ $name == fuzz_seeds || ! -x $target ]] && continue
        short=${name#fuzz_}
        regressions=()
        [[ -d tests/fuzz/regressions/$short ]] && regressions=(tests/fuzz/regressions/$short)
        run "$name" "$target" -seconds="${FUZZ_SMOKE_SECONDS:-3}" -corpus="$seeds/$short" "${regressions[@]}"
      done ;;
    windows)
      # parquet.dll cross-built with mingw-w64 and tested under wine (tests/windows/run.sh);
      # not in sanitizer builds (it is its own build, in WINDOWS_BUILD, default build-windows).
      if ! grep -q '^SANITIZE:BOOL=ON' "$builddir/CMakeCache.txt" 2>/dev/null; then
        run windows bash tests/windows/run.sh "${WINDOWS_BUILD:-build-windows}"
      fi ;;
    wasm)
      # Its parts' logs, the screenshot and the comparison go to LOGDIR/wasm/: only suites'
      # logs stand in LOGDIR itself (scripts/summarize_tests.sh totals each of them).
      run wasm bash tests/wasm/run.sh "$builddir" "${WASM_BUILD:-build-wasm}" "$logdir/wasm" ;;
    sources)
      # The fresh-machine path of the builds from Debian's source packages (tests/sources).
      run sources bash tests/sources/run.sh ;;
    dist)
      run dist bash tests/dist/run.sh "$builddir" "${DIST_BUILD:-build-dist}" ;;
    *)
      echo "run_tests: unknown suite $suite" >&2 ;;
  esac
done
exit 0

#!/usr/bin/env bash
# Suite "sqlite-api" (scripts/run_tests.sh): every SQLite routine that ext/ calls must be in
# the API table of the oldest supported SQLite (its sqlite3ext.h, from the version matrix),
# or be one of the newer routines that ext/common/sqlite_api.h guards with RunningSqliteAtLeast —
# the table grows at its end, and calling past the end of an older host's table crashes.
# One check per routine; the last line is "N passed, M failed".
# Usage: tests/sqlite_api_check.sh SQLITE_VERSIONS_DIR
set -uo pipefail
cd "$(dirname "$0")/.."
versions_dir=$1
oldest=3.38.2  # the oldest supported of scripts/setup_sqlite_versions.sh
# Newer than the oldest supported, each called only behind a run-time version check.
guarded=(sqlite3_is_interrupted)

passed=0 failed=0
if ! bash scripts/setup_sqlite_versions.sh "$versions_dir" "$oldest" >/dev/null; then
  echo "FAIL: cannot build SQLite $oldest"
  echo "0 passed, 1 failed"
  exit 1
fi
header=$versions_dir/$oldest/src/sqlite3ext.h
routines=$(grep -rhoE '\bsqlite3_[a-z0-9_]+[[:space:]]*\(' ext/ | sed -E 's/[[:space:]]*\($//' | sort -u |
           grep -v '^sqlite3_parquet_init$')
for routine in $routines; do
  if grep -qE "^#define $routine\b" "$header"; then
    echo "ok $routine: in the API table of SQLite $oldest"
    passed=$((passed + 1))
  elif [[ " ${guarded[*]} " == *" $routine "* ]] && grep -q "RunningSqliteAtLeast" <(grep -rn --include="*.cc" -B3 "$routine(" ext/); then
    echo "ok $routine: newer than $oldest, called behind RunningSqliteAtLeast"
    passed=$((passed + 1))
  else
    echo "FAIL $routine: not in the API table of SQLite $oldest and not guarded by RunningSqliteAtLeast"
    failed=$((failed + 1))
  fi
done
echo "$passed passed, $failed failed"
((failed == 0))

#!/usr/bin/env bash
# Suite "sqlite-api" (scripts/run_tests.sh): every SQLite routine that ext/ calls must be in
# the API table of the oldest supported SQLite (its sqlite3ext.h, from the version matrix),
# or be one of the newer routines whose every call sits behind RunningSqliteAtLeast (on its
# line or the three before) — the table grows at its end, and calling past the end of an
# older host's table crashes. Likewise every SQLITE_ constant ext/ uses must be defined by
# the oldest, or be one of the newer ones listed with why they are safe there; and no SQL
# text in ext/ may call a JSON function (JSON1 is built in only from 3.38).
# One check per routine and per constant; the last line is "N passed, M failed".
# Usage: tests/sqlite_api_check.sh SQLITE_VERSIONS_DIR
set -uo pipefail
cd "$(dirname "$0")/.."
versions_dir=$1
oldest=3.31.1  # the oldest supported of scripts/setup_sqlite_versions.sh
# Newer than the oldest supported, each called only behind a run-time version check.
guarded=(sqlite3_is_interrupted sqlite3_vtab_in sqlite3_vtab_in_first sqlite3_vtab_in_next sqlite3_vtab_rhs_value)
# Constants newer than the oldest supported, each with why using it there is safe.
declare -A newer_constants=(
  [SQLITE_INDEX_CONSTRAINT_LIMIT]="an xBestIndex constraint code that older versions never offer"
  [SQLITE_INDEX_CONSTRAINT_OFFSET]="an xBestIndex constraint code that older versions never offer"
  [SQLITE_RESULT_SUBTYPE]="a function flag passed only behind RunningSqliteAtLeast"
)

# The calls of ROUTINE in ext/ (comments aside) with no RunningSqliteAtLeast on their line
# or the three before it, as FILE:LINE.
unguarded_calls() {  # unguarded_calls ROUTINE
  grep -rl --include='*.cc' --include='*.h' "$1(" ext/ | xargs -r awk -v call="$1(" '
    FNR == 1 { before = "" }
    index($0, call) && $0 !~ /^[[:space:]]*\/\// && !index(before $0, "RunningSqliteAtLeast") { print FILENAME ":" FNR }
    { before = (FNR > 3 ? substr(before, index(before, "\n") + 1) : before) $0 "\n" }'
}

passed=0 failed=0
verdict() {  # verdict ok|FAIL MESSAGE: prints one check's line and counts it
  echo "$1 $2"
  if [[ $1 == ok ]]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
}

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
    verdict ok "$routine: in the API table of SQLite $oldest"
  elif [[ " ${guarded[*]} " == *" $routine "* && -z $(unguarded_calls "$routine") ]]; then
    verdict ok "$routine: newer than $oldest, called behind RunningSqliteAtLeast"
  else
    verdict FAIL "$routine: not in the API table of SQLite $oldest and not guarded by RunningSqliteAtLeast"
  fi
done
# The SQLITE_ constants ext/ uses in code (not in comments or strings): defined in the
# oldest's headers, or known to be safe.
constants=$(grep -rh --include='*.cc' --include='*.h' 'SQLITE_' ext/ | sed -E 's://.*$::; s/"([^"\\]|\\.)*"//g' |
            grep -oE '\bSQLITE_[A-Z0-9_]+\b' | sort -u | grep -v '^SQLITE_EXTENSION_INIT')
oldest_headers=("$versions_dir/$oldest/src/sqlite3.h" "$header")
for constant in $constants; do
  if grep -qE "^#[[:space:]]*define $constant\b" "${oldest_headers[@]}"; then
    verdict ok "$constant: defined by SQLite $oldest"
  elif [[ -n ${newer_constants[$constant]:-} ]]; then
    verdict ok "$constant: newer than $oldest, ${newer_constants[$constant]}"
  else
    verdict FAIL "$constant: not defined by SQLite $oldest and not known to be safe there"
  fi
done
# SQL that ext/ runs must not call SQLite's JSON functions: JSON1 is built in only from 3.38,
# and an older SQLite may lack it.
json_calls=$(grep -rnoE --include='*.cc' --include='*.h' '"[^"]*\bjson(_[a-z_]+)?[[:space:]]*\(' ext/)
if [[ -z $json_calls ]]; then
  verdict ok "no SQL text in ext/ calls a JSON function"
else
  verdict FAIL "SQL text in ext/ calls a JSON function, which SQLite before 3.38 may lack: ${json_calls//$'\n'/; }"
fi
echo "$passed passed, $failed failed"
((failed == 0))

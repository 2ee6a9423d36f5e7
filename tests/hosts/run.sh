#!/usr/bin/env bash
# The hosts suite (`make hosts`, scripts/run_tests.sh hosts): real programs load
# BUILDDIR/parquet.so and run tests/hosts/cases.json — the sqlite3 shell of the system and
# of the newest SQLite of the matrix, of Debian 11's (3.34.1, older than 3.38's
# sqlite3_vtab_in), a shell older than supported (must refuse), Debian's
# python3, sqlite-utils and Node's better-sqlite3. Each host prints "ok ...", "FAIL ..." or
# "SKIP ..." lines; a host that exits non-zero without a FAIL line (a crash) counts one
# failure. The last line is "N passed, M failed".
# Usage: tests/hosts/run.sh BUILDDIR SQLITE_VERSIONS_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
builddir=$1 versions_dir=$2
extension=$(cd "$builddir" && pwd)/parquet
python=/usr/bin/python3  # Debian's: the pyenv python3 first on PATH cannot load extensions
newest=3.53.2 debian11=3.34.1 too_old=3.30.1  # scripts/setup_sqlite_versions.sh
passed=0 failed=0 skipped=0

host() {  # host NAME COMMAND...: runs one host, counting its lines
  local name=$1 out rc
  shift
  echo "--- $name"
  out=$(timeout --kill-after=10s 600 "$@" 2>&1)
  rc=$?
  echo "$out"
  local ok fail skip
  ok=$(grep -c '^ok ' <<<"$out")
  fail=$(grep -c '^FAIL ' <<<"$out")
  skip=$(grep -c '^SKIP ' <<<"$out")
  if ((rc != 0 && fail == 0)); then
    echo "FAIL $name: exited with status $rc without reporting a failure"
    fail=1
  fi
  passed=$((passed + ok)) failed=$((failed + fail)) skipped=$((skipped + skip))
}

if ! bash scripts/setup_sqlite_versions.sh "$versions_dir" "$newest" "$debian11" "$too_old"; then
  echo "FAIL hosts: cannot build SQLite $newest, $debian11 and $too_old"
  failed=$((failed + 1))
fi
host "sqlite3 shell (system)" "$python" tests/hosts/shell_host.py "$(command -v sqlite3)" "$extension"
host "sqlite3 shell $newest" "$python" tests/hosts/shell_host.py "$versions_dir/$newest/sqlite3" "$extension"
host "sqlite3 shell $debian11" "$python" tests/hosts/shell_host.py "$versions_dir/$debian11/sqlite3" "$extension"
host "sqlite3 shell $too_old" "$python" tests/hosts/shell_host.py "$versions_dir/$too_old/sqlite3" "$extension"
host "python" "$python" tests/hosts/python_host.py "$extension"
host "sqlite-utils" "$python" tests/hosts/sqlite_utils_host.py "$(command -v sqlite-utils || echo sqlite-utils)" "$extension"
# better-sqlite3 is the one the dist suite pins (built from source once, so installed once).
if bash scripts/install_node_packages.sh tests/dist/node better-sqlite3 hosts; then
  host "node better-sqlite3" node tests/hosts/node_host.mjs "$extension"
else
  echo "FAIL node better-sqlite3: cannot install it into tests/dist/node"
  failed=$((failed + 1))
fi
echo "hosts: $skipped skipped (see SKIP lines)"
echo "$passed passed, $failed failed"
((failed == 0))

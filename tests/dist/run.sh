#!/usr/bin/env bash
# The `dist` suite (make test-dist): checks the artefacts of `make dist`.
#   - dist/parquet.so needs only glibc (readelf -d), exports only sqlite3_parquet_init,
#     and the glibc floor it needs is the one README.md states;
#   - the sql suite passes with dist/parquet.so where the system's copies of every library
#     the normal build links (codecs, libcrypto, libstdc++, libgcc_s) are hidden: a private
#     mount namespace (unshare -m) bind-mounts /dev/null over each of them. The hide is
#     proved in the same namespace: the normal build's BUILD/parquet.so must fail to load;
#   - the wheel, pip-installed with --no-index into a fresh venv of Debian's python3:
#     tests/dist/python_test.py, and Debian's sqlite-utils loading the extension it carries;
#   - the npm tarball, installed into a fresh project: tests/dist/node_test.js with
#     better-sqlite3 (installed once from the npm registry into tests/dist/node/).
# One "ok"/"FAIL" line per check; the last line is "N passed, M failed".
#   usage: tests/dist/run.sh [BUILD (default build)] [DIST_BUILD (default build-dist)]
set -uo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build} dist_build=${2:-build-dist}
runner=$dist_build/sql_test_runner
passed=0 failed=0
check() {  # check STATUS NAME [DETAIL]: STATUS first, expanded before any $(...) in NAME
  if [[ $1 == 0 ]]; then
    passed=$((passed + 1)); echo "ok   $2"
  else
    failed=$((failed + 1)); echo "FAIL $2${3:+: $3}"
  fi
}
add_counts() {  # add_counts LABEL OUTPUT-FILE STATUS: adds a sub-runner's "N passed, M failed"
  local line
  line=$(grep -oE '[0-9]+ passed, [0-9]+ failed$' "$2" | tail -n1)
  if [[ -z $line ]]; then
    check 1 "$1 ran to its summary" "exit status $3, no summary line"
    return
  fi
  local p f
  read -r p _ f _ <<<"$line"
  passed=$((passed + p)) failed=$((failed + f))
  if [[ $3 != 0 && $f == 0 ]]; then check 1 "$1 exit status" "$3"; fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
version=$(head -n1 VERSION)

so=dist/parquet.so
wheels=(dist/sqlite_parquet-"$version"-*.whl)
tarball=dist/sqlite-parquet-$version.tgz
[[ -f $so && -f ${wheels[0]} && -f $tarball && -x $runner ]]
check $? "make dist made $so, the wheel, $tarball and $runner"

# --- the binary ------------------------------------------------------------------------
glibc_libs='^(libc|libm|libdl|libpthread|librt|ld-linux-x86-64)\.so\.[0-9]+$'
needed=$(readelf -d "$so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
others=$(grep -Ev "$glibc_libs" <<<"$needed")
[[ -n $needed && -z $others ]]
check $? "readelf -d: NEEDED only glibc ($(echo $needed))" "also needs: $(echo $others)"
! readelf -d "$so" | grep -Eq '\((RUNPATH|RPATH)\)'
check $? "no RUNPATH/RPATH"
exports=$(nm -D --defined-only "$so" | awk '{print $3}')
[[ $exports == sqlite3_parquet_init ]]
check $? "the only exported symbol is sqlite3_parquet_init" "$(echo $exports | head -c 300)"
floor=$(bash scripts/glibc_floor.sh "$so")
grep -q "glibc $floor or later" README.md
check $? "README states the glibc floor the binary needs ($floor)" "README.md lacks 'glibc $floor or later'"

# --- the sql suite with the system libraries hidden --------------------------------------
if [[ ! -f $build/parquet.so ]]; then
  check 1 "normal build $build/parquet.so exists (needed to prove the hide)"
elif ! command -v unshare >/dev/null || ! unshare -m true 2>/dev/null; then
  check 1 "unshare -m works (root needed to hide the system libraries)"
else
  # Every library the normal build loads beyond glibc, by its real path (so every name of it is hidden).
  mapfile -t hide < <(ldd "$build/parquet.so" | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}' |
                      grep -Ev '^(libc|libm|libdl|libpthread|librt)\.so' | awk '{print $2}' | xargs -r realpath | sort -u)
  ((${#hide[@]} >= 8))
  check $? "found the normal build's libraries to hide (${#hide[@]}: $(printf '%s ' "${hide[@]##*/}"))"
  unshare -m bash -c '
    runner=$1 build=$2 tmp=$3
    shift 3
    for lib in "$@"; do mount --bind /dev/null "$lib" || exit 1; done
    "$runner" --extension "$build/parquet" --root . sql/smoke.test >"$tmp/proof.log" 2>&1
    echo $? >"$tmp/proof.rc"
    "$runner" --extension dist/parquet --root . sql/*.test >"$tmp/sql.log" 2>&1
    echo $? >"$tmp/sql.rc"
  ' hide "$runner" "$build" "$tmp" "${hide[@]}"
  check $? "/dev/null bind-mounted over each of them in a private mount namespace"
  [[ $(cat "$tmp/proof.rc" 2>/dev/null) != 0 ]] && grep -Eq 'file too short|cannot open shared object' "$tmp/proof.log"
  check $? "proof of the hide: the normal $build/parquet.so fails to load there" "$(tail -n 3 "$tmp/proof.log" 2>/dev/null)"
  grep -E 'FAIL|passed, .* failed' "$tmp/sql.log" | tail -n 20
  add_counts "sql suite with the system libraries hidden" "$tmp/sql.log" "$(cat "$tmp/sql.rc" 2>/dev/null || echo 1)"
fi

# --- the Python wheel ----------------------------------------------------------------------
if /usr/bin/python3 -m venv "$tmp/venv" >"$tmp/venv.log" 2>&1 &&
   "$tmp/venv/bin/pip" install --no-index --disable-pip-version-check -q "${wheels[0]}" >>"$tmp/venv.log" 2>&1; then
  check 0 "pip install --no-index ${wheels[0]##*/} into a fresh venv"
  mkdir -p "$tmp/py"
  (cd "$tmp/py" && "$tmp/venv/bin/python" "$OLDPWD/tests/dist/python_test.py" "$OLDPWD/VERSION" "$tmp/py") >"$tmp/python.log" 2>&1
  rc=$?
  cat "$tmp/python.log"
  add_counts "python_test.py" "$tmp/python.log" $rc
  # Debian's sqlite-utils (3.30, no plugin hooks) loads the extension the wheel carries.
  loadable=$("$tmp/venv/bin/python" -c 'import sqlite_parquet; print(sqlite_parquet.loadable_path())')
  rows=$(sqlite-utils query "$tmp/su.db" --load-extension "$loadable" --csv --no-headers \
         "SELECT num_rows FROM parquet_file_metadata('$tmp/py/orders.parquet')" 2>&1 | tr -d '\r')
  expected=$("$tmp/venv/bin/python" -c 'import sqlite3, sys, sqlite_parquet
c = sqlite3.connect(":memory:"); sqlite_parquet.load(c)
c.execute("CREATE VIRTUAL TABLE t USING parquet(%r)" % sys.argv[1]); print(c.execute("SELECT count(*) FROM t").fetchone()[0])' "$tmp/py/orders.parquet" 2>&1)
  [[ -n $rows && $rows == "$expected" ]]
  check $? "sqlite-utils query --load-extension \$(loadable_path) reads the file ($rows rows)" "got '$rows', python counts '$expected'"
else
  cat "$tmp/venv.log"
  check 1 "pip install --no-index ${wheels[0]##*/} into a fresh venv"
fi

# --- the npm package -----------------------------------------------------------------------
if bash scripts/install_node_packages.sh tests/dist/node better-sqlite3 dist >"$tmp/npm.log" 2>&1 &&
   mkdir -p "$tmp/node" && (cd "$tmp/node" && npm init -y >/dev/null &&
   npm install --no-audit --no-fund --loglevel=error "$OLDPWD/$tarball") >>"$tmp/npm.log" 2>&1; then
  check 0 "npm install ${tarball##*/} into a fresh project"
  (cd "$tmp/node" && cp "$OLDPWD/tests/dist/node_test.js" . && NODE_PATH="$OLDPWD/tests/dist/node/node_modules" node node_test.js "$OLDPWD/VERSION" "$tmp/node") >"$tmp/node.log" 2>&1
  rc=$?
  cat "$tmp/node.log"
  add_counts "node_test.js" "$tmp/node.log" $rc
else
  cat "$tmp/npm.log"
  check 1 "npm install ${tarball##*/} into a fresh project (and better-sqlite3 in tests/dist/node)"
fi

echo "$passed passed, $failed failed"
((failed == 0))

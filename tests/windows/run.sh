#!/usr/bin/env bash
# The windows suite: builds the Windows x64 extension and its test programs with mingw-w64
# (scripts/build_windows.sh, into WINDOWS_BUILD; codec, crypto and SQLite objects cached
# there) and checks them, the Windows programs running under wine (prefix cached in
# WINDOWS_BUILD/wine-prefix, headless, WINEDEBUG=-all):
#   - parquet.dll imports only DLLs every Windows has, and exports sqlite3_parquet_init alone
#     (objdump -p, the PE import and export tables);
#   - a mingw-built sqlite3.exe loads it, reads a file, filters with pushdown, writes one
#     with parquet_copy and reads it back (the shell driven through its standard input);
#   - tests/windows/windows_paths.test: drive letters, both separators, \\?\ long paths, a
#     non-ASCII name and globs over it, hive directories and **, overwriting a file another
#     handle reads, an interrupted copy that leaves the old file, encryption, device names;
#   - the whole sql suite (sql/*.test, or WINDOWS_SQL_FILES) through the Windows runner;
#   - the differential suite's program for Windows, a smaller run (WINDOWS_DIFFERENTIAL_ARGS,
#     default 4 tables of 100 queries; the Linux suites run 12 of 250).
# Prints "windows: N passed, M failed" last.
#   usage: tests/windows/run.sh WINDOWS_BUILD
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: $0 WINDOWS_BUILD}
passed=0 failed=0
check() {  # check NAME CONDITION-EXIT-STATUS [DETAIL]
  if (($2 == 0)); then
    passed=$((passed + 1)); echo "ok $1"
  else
    failed=$((failed + 1)); echo "FAIL $1${3:+: $3}"
  fi
}
finish() { echo "windows: $passed passed, $failed failed"; exit $((failed > 0)); }
add_counts() {  # add_counts PROGRAM LABEL LOG: adds the "LABEL: N passed, M failed" of a test program
  local counts program_passed program_failed
  counts=$(tr -d '\r' <"$3" | sed -n "s/^$2: \([0-9]*\) passed, \([0-9]*\) failed\$/\1 \2/p")
  if [[ -z $counts ]]; then
    check "$1 runs under wine" 1 "$(tr -d '\r' <"$3" | tail -3 | tr '\n' ' ')"
    return
  fi
  read -r program_passed program_failed <<<"$counts"
  echo "$1: $program_passed passed, $program_failed failed"
  passed=$((passed + program_passed)) failed=$((failed + program_failed))
}

if ! bash scripts/install_deps.sh windows || ! bash scripts/build_windows.sh "$out"; then
  check "scripts/build_windows.sh builds parquet.dll and the test programs" 1
  finish
fi
out=$(cd "$out" && pwd)
dll=$out/parquet.dll

# ---- The DLL's imports and exports -------------------------------------------------------
allowed='^(kernel32|msvcrt|ucrtbase|api-ms-win-crt-[a-z0-9-]+|advapi32|bcrypt|ws2_32|crypt32|user32)\.dll$'
imports=$(x86_64-w64-mingw32-objdump -p "$dll" | sed -n 's/^\s*DLL Name: //p' | tr 'A-Z' 'a-z' | sort -u)
echo "parquet.dll imports: $(echo $imports)"
unexpected=$(grep -vE "$allowed" <<<"$imports")
check "parquet.dll imports only system DLLs" $([[ -n $imports && -z $unexpected ]]; echo $?) "$unexpected"
exports=$(x86_64-w64-mingw32-objdump -p "$dll" | awk '/\[Ordinal\/Name Pointer\] Table/ {on = 1; next} on && NF == 0 {on = 0} on {print $NF}')
check "parquet.dll exports sqlite3_parquet_init alone" $([[ $exports == sqlite3_parquet_init ]]; echo $?) "$exports"

# The win_amd64 wheel carries this DLL as sqlite_parquet/parquet.dll, which loadable_path()
# names on Windows.
/usr/bin/python3 bindings/python/build_wheel.py --version "$(head -n1 VERSION)" --binary "$dll" --windows \
  --out-dir "$out/wheel" >"$out/wheel.log" 2>&1
wheel=$(ls "$out"/wheel/*-py3-none-win_amd64.whl 2>/dev/null | head -1)
/usr/bin/python3 - "$wheel" "$dll" <<'PY' >"$out/wheel-check.log" 2>&1
import sys, zipfile
wheel, dll = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as z:
    assert z.read("sqlite_parquet/parquet.dll") == open(dll, "rb").read(), "parquet.dll differs"
    wheel_file = [n for n in z.namelist() if n.endswith(".dist-info/WHEEL")][0]
    assert "Tag: py3-none-win_amd64" in z.read(wheel_file).decode(), "wrong tag"
    assert b'"parquet.dll" if os.name == "nt"' in z.read("sqlite_parquet/__init__.py"), "loadable_path"
PY
check "the win_amd64 wheel carries parquet.dll" $? "$(tail -1 "$out/wheel-check.log")"

# ---- Under wine ----------------------------------------------------------------------------
if ! bash scripts/setup_wine.sh "$out/wine-prefix"; then
  check "a wine prefix can be made" 1
  finish
fi
export WINEPREFIX=$out/wine-prefix WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" DISPLAY=
export PARQUET_TESTING=${PARQUET_TESTING:-$(cd .. && pwd)/shared/parquet-testing}
# The Windows view of a Linux path: wine maps / to drive Z:.
windows_path() { echo "Z:$(sed 's|/|\\|g' <<<"$1")"; }
testing=$(windows_path "$PARQUET_TESTING")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

shell_output=$(wine "$out/sqlite3.exe" :memory: 2>&1 <<SQL | tr -d '\r'
.load $(windows_path "$dll")
CREATE VIRTUAL TABLE t USING parquet('$testing\\data\\alltypes_plain.parquet');
SELECT count(*), sum(id) FROM t;
SELECT id, bool_col FROM t WHERE id = 4;
SELECT parquet_copy('SELECT id, string_col FROM t WHERE id < 5', '$(windows_path "$work")\\copy.parquet');
CREATE VIRTUAL TABLE c USING parquet('$(windows_path "$work")/copy.parquet');
SELECT group_concat(id) FROM c;
EXPLAIN QUERY PLAN SELECT * FROM t WHERE id = 4;
SQL
)
# The copy keeps the file's order (alltypes_plain holds ids 4, 5, 6, 7, 2, 3, 0, 1).
expected=$'8|28\n4|1\n5\n4,2,3,0,1'
check "sqlite3.exe loads parquet.dll, reads, filters, copies and reads back" \
  $([[ $(head -n 4 <<<"$shell_output") == "$expected" ]]; echo $?) "$(tr '\n' ' ' <<<"$shell_output")"
# The filter is pushed down: the plan uses the table's index (xBestIndex) for id = 4.
check "sqlite3.exe: the filter on id is pushed down to the parquet table" \
  $(grep -q 'VIRTUAL TABLE INDEX [1-9]' <<<"$shell_output"; echo $?) "$(tail -n 2 <<<"$shell_output" | tr '\n' ' ')"

# Every codec writes, on parquet_copy's writer thread. A zstd copy used to crash parquet.dll
# here: the codec contexts were thread_local objects, whose destructors mingw-w64 runs after
# the thread's (emulated) TLS memory is freed (format/codec/compression.cc, ContextPool).
for codec in snappy gzip brotli lz4_raw zstd; do
  written=$(timeout 120 wine "$out/sqlite3.exe" :memory: 2>&1 <<SQL | tr -d '\r' | tail -n 1
.load $(windows_path "$dll")
SELECT parquet_copy('SELECT value AS v, ''x'' || value AS s FROM generate_series(1, 1000)', '$(windows_path "$work")\\$codec.parquet', 'compression=$codec');
SQL
)
  check "sqlite3.exe: parquet_copy with compression=$codec" $([[ $written == 1000 ]]; echo $?) "$written"
done
# A file of over 1 MiB scanned without a filter is decompressed ahead on a worker thread
# (ext/table/table_cursor_files.cc), which crashed parquet.dll the same way when it ended.
scanned=$(timeout 120 wine "$out/sqlite3.exe" :memory: 2>&1 <<SQL | tr -d '\r' | tail -n 2
.load $(windows_path "$dll")
SELECT parquet_copy('SELECT value AS v, hex(randomblob(64)) AS s FROM generate_series(1, 40000)', '$(windows_path "$work")\\ahead.parquet', 'compression=gzip');
CREATE VIRTUAL TABLE ahead USING parquet('$(windows_path "$work")\\ahead.parquet');
SELECT count(*), sum(length(s)) FROM ahead;
SELECT 'done';
SQL
)
check "sqlite3.exe: a 3 MB gzip file decompressed ahead on a worker thread" \
  $([[ $scanned == $'40000|5120000\ndone' ]]; echo $?) "$(tr '\n' ' ' <<<"$scanned")"

# The sql suite's runner for Windows. Relative paths: the runner's working directory is the
# repository (Z:\...), so ${ROOT} and ${PARQUET_TESTING} are drive-letter paths.
files=(tests/windows/windows_paths.test ${WINDOWS_SQL_FILES:-sql/*.test})
runner_log=$work/runner.log
# The share \\parquet-test\share of windows_paths.test: an empty folder of this run (wine
# maps a UNC name \\SERVER\SHARE to $WINEPREFIX/dosdevices/unc/SERVER/SHARE).
mkdir -p "$work/share" "$WINEPREFIX/dosdevices/unc/parquet-test"
ln -sfn "$work/share" "$WINEPREFIX/dosdevices/unc/parquet-test/share"
PARQUET_TESTING=$testing wine "$out/sql_test_runner.exe" --extension "$(windows_path "$dll")" --root . "${files[@]}" \
  >"$runner_log" 2>&1
tr -d '\r' <"$runner_log" | grep -v ': [0-9]* passed, 0 failed$' | grep -v '^sql: ' | sed 's/^/  /'
add_counts sql_test_runner.exe sql "$runner_log"

# The differential suite: random tables and queries, parquet against native, under wine.
differential_log=$work/differential.log
wine "$out/differential_tests.exe" --extension "$(windows_path "$dll")" ${WINDOWS_DIFFERENTIAL_ARGS:---tables 4 --queries 100} \
  >"$differential_log" 2>&1
tr -d '\r' <"$differential_log" | grep -E '^(FAILED|differential: seed)' | sed 's/^/  /'
add_counts differential_tests.exe differential "$differential_log"
finish

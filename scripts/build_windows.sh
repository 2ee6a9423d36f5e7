#!/usr/bin/env bash
# The Windows x64 build, cross-compiled with mingw-w64 (cmake/mingw-w64-x86_64.cmake):
#   OUT/parquet.dll   the extension, self-contained (scripts/build_mingw_deps.sh builds its
#                     codec and crypto libraries once, cached outside the build folders)
#   OUT/sqlite3.exe   a Windows SQLite shell from the amalgamation of SQLITE_WINDOWS_VERSION
#                     (default 3.52.0; scripts/setup_sqlite_versions.sh fetches it), and
#   OUT/sql_test_runner.exe   the sql suite's runner with that SQLite linked in, and
#   OUT/differential_tests.exe  the differential suite's program, all three for the
#                     windows suite under wine (SQLite is compiled once, then kept)
# The headers of libcurl and expat (loaded at run time, never linked) are the installed
# Debian packages' (libcurl4-openssl-dev, libexpat1-dev): both select the Windows types
# by the compiler's _WIN32, so one copy serves both systems.
#   usage: scripts/build_windows.sh OUT   (warnings are errors unless WINDOWS_WERROR=OFF; one
#   setting for the windows suite and make dist, so neither recompiles what the other built)
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mkdir -p "${1:?usage: $0 OUT}" && cd "$1" && pwd)
jobs=${JOBS:-2}
triple=x86_64-w64-mingw32
deps_prefix=$(bash scripts/build_mingw_deps.sh | tail -n 1)
[[ -d $deps_prefix/lib ]] || { echo "build_windows: the mingw libraries were not built" >&2; exit 1; }

headers=$out/host-headers
rm -rf "$headers" && mkdir -p "$headers"
curl_dir=$(dirname "$(dpkg -L libcurl4-openssl-dev | grep '/curl/curl\.h$' | head -1)")
cp -rp "$curl_dir" "$headers/curl"  # -p: unchanged times, so nothing recompiles
cp -p /usr/include/expat.h /usr/include/expat_external.h "$headers/"

cmake --log-level=WARNING -S . -B "$out/ext" -DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/mingw-w64-x86_64.cmake" \
  -DCMAKE_BUILD_TYPE=Release -DSANITIZE=OFF -DWERROR="${WINDOWS_WERROR:-ON}" -DSTATIC_DEPS=ON \
  -DSTATIC_DEPS_PREFIX="$deps_prefix" -DPQ_CURL_INCLUDE_DIR="$headers" -DPQ_EXPAT_INCLUDE_DIR="$headers"
cmake --build "$out/ext" -j "$jobs" --target parquet
cp "$out/ext/parquet.dll" "$out/parquet.dll"

version=${SQLITE_WINDOWS_VERSION:-3.52.0}
sqlite=$out/sqlite-$version
if [[ ! -f $sqlite/sqlite3.o ]]; then
  bash scripts/setup_sqlite_versions.sh --source "${SQLITE_VERSIONS_DIR:-build/sqlite-versions}" "$version" "$sqlite.tmp"
  # The options of the Linux shells of the matrix (setup_sqlite_versions.sh) that matter here.
  $triple-gcc-posix -O1 -w -DSQLITE_THREADSAFE=1 -DSQLITE_ENABLE_COLUMN_METADATA -DSQLITE_ENABLE_DBSTAT_VTAB \
    -DSQLITE_ENABLE_FTS5 -DSQLITE_ENABLE_MATH_FUNCTIONS -DSQLITE_ENABLE_JSON1 -DSQLITE_USE_URI=1 \
    -DSQLITE_MAX_VARIABLE_NUMBER=250000 -c "$sqlite.tmp/sqlite3.c" -o "$sqlite.tmp/sqlite3.o"
  rm -rf "$sqlite" && mv "$sqlite.tmp" "$sqlite"
fi
if [[ ! -f $out/sqlite3.exe || $sqlite/sqlite3.o -nt $out/sqlite3.exe ]]; then
  # shell.c has wmain on Windows (UTF-16 arguments): -municode.
  $triple-gcc-posix -O1 -w -municode -I"$sqlite" "$sqlite/shell.c" "$sqlite/sqlite3.o" -static -o "$out/sqlite3.exe"
fi
# The sql suite's runner (tests/sql_test_runner.cc) as a Windows program, SQLite linked in.
if [[ ! -f $out/sql_test_runner.exe || tests/sql_test_runner.cc -nt $out/sql_test_runner.exe ||
      $sqlite/sqlite3.o -nt $out/sql_test_runner.exe ]]; then
  $triple-g++-posix -std=c++20 -O1 -Wall -Wextra -Werror -I. -I"$sqlite" tests/sql_test_runner.cc "$sqlite/sqlite3.o" \
    -static -o "$out/sql_test_runner.exe"
fi
# The differential suite's program (tests/differential/differential_test.cc), the same way.
if [[ ! -f $out/differential_tests.exe || tests/differential/differential_test.cc -nt $out/differential_tests.exe ||
      $sqlite/sqlite3.o -nt $out/differential_tests.exe ]]; then
  $triple-g++-posix -std=c++20 -O1 -Wall -Wextra -Werror -I. -I"$sqlite" tests/differential/differential_test.cc \
    "$sqlite/sqlite3.o" -static -o "$out/differential_tests.exe"
fi

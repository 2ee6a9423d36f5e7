#!/usr/bin/env bash
# `make dist`: the release artefacts in dist/, all carrying the version in VERSION:
#   dist/parquet.so                                 the self-contained extension (Linux x86-64,
#                                                   needs only glibc), stripped
#   dist/sqlite_parquet-V-py3-none-manylinux_2_N_x86_64.whl   the Python package
#   dist/parquet.dll                                the same for Windows x64 (mingw-w64 cross
#                                                   build: imports only Windows' own DLLs)
#   dist/sqlite_parquet-V-py3-none-win_amd64.whl    its Python package
#   dist/sqlite-parquet-V.tgz                       the npm package (lib/linux-x64/parquet.so,
#                                                   lib/win32-x64/parquet.dll)
# The extension is built in DIST_BUILD (default build-dist/) with -DSTATIC_DEPS=ON: every
# library is linked in. Debian's libsnappy.a and libz.a are not position-independent, so
# scripts/build_pic_codecs.sh first builds PIC copies from Debian's source packages of the
# installed versions (one file to ship beats shipping their .so files beside ours with an
# $ORIGIN RUNPATH: the wheel, the npm package and a download each stay one binary).
# The wheel is written by bindings/python/build_wheel.py (standard library only: no
# package index, no build isolation); the npm package by `npm pack`.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${DIST_BUILD:-build-dist}
jobs=${JOBS:-2}
version=$(head -n1 VERSION)
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "make_dist: VERSION holds '$version', not x.y.z" >&2; exit 1; }

rm -rf dist  # a failed run leaves no artefacts of an earlier one behind
bash scripts/install_deps.sh dist
bash scripts/build_pic_codecs.sh "$build/codecs"
cmake --log-level=WARNING -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DSANITIZE=OFF \
  -DWERROR="${WERROR:-OFF}" -DSTATIC_DEPS=ON -DSTATIC_DEPS_PREFIX="$PWD/$build/codecs/prefix"
# sql_test_runner: tests/dist runs the sql suite with it where the system libraries are hidden.
cmake --build "$build" -j "$jobs" --target parquet sql_test_runner

mkdir dist
strip --strip-unneeded -o dist/parquet.so "$build/parquet.so"
glibc=$(bash scripts/glibc_floor.sh dist/parquet.so)
/usr/bin/python3 bindings/python/build_wheel.py --version "$version" --binary dist/parquet.so \
  --glibc "$glibc" --out-dir dist >/dev/null

# Windows x64: parquet.dll cross-built with mingw-w64 (scripts/build_windows.sh; its
# libraries are cached in WINDOWS_BUILD, shared with the windows suite), and its wheel.
windows=${WINDOWS_BUILD:-build-windows}
bash scripts/build_windows.sh "$windows"
x86_64-w64-mingw32-strip --strip-unneeded -o dist/parquet.dll "$windows/parquet.dll"
/usr/bin/python3 bindings/python/build_wheel.py --version "$version" --binary dist/parquet.dll --windows \
  --out-dir dist >/dev/null

npm_stage=$build/npm-package
rm -rf "$npm_stage" && mkdir -p "$npm_stage/lib/linux-x64" "$npm_stage/lib/win32-x64"
cp bindings/node/{index.js,index.d.ts,package.json,README.md} "$npm_stage/"
cp dist/parquet.so "$npm_stage/lib/linux-x64/"
cp dist/parquet.dll "$npm_stage/lib/win32-x64/"
(cd "$npm_stage" && npm pkg set version="$version" && npm pack --silent --pack-destination "$PWD/../../dist" >/dev/null)

echo "make_dist: version $version, glibc $glibc or later"
ls -l dist

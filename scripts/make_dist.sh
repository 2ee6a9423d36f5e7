#!/usr/bin/env bash
# `make dist`: the release artefacts in dist/, all carrying the version in VERSION:
#   dist/parquet.so                                 the self-contained extension (Linux x86-64,
#                                                   needs only glibc 2.28), stripped
#   dist/sqlite_parquet-V-py3-none-manylinux_2_N_x86_64.whl   the Python package
#   dist/sqlite-parquet-V.tgz                       the npm package: lib/linux-x64/parquet.so
#                                                   (index.js picks by platform and arch)
# The extension is built in DIST_BUILD (default build-dist/) with -DSTATIC_DEPS=ON: every
# library is linked in. Debian's libsnappy.a and libz.a are not position-independent, so
# scripts/build_pic_codecs.sh first builds PIC copies from Debian's source packages of the
# installed versions (one file to ship beats shipping their .so files beside ours with an
# $ORIGIN RUNPATH: the wheel, the npm package and a download each stay one binary), and
# gathers them with the other codecs' static libraries and headers in one prefix.
# The glibc floor: the extension is compiled and linked against Debian 11's glibc 2.31
# (libc6-dev unpacked as a sysroot by scripts/debian_userland.sh, cached in DIST_BUILD/debian),
# so it can reference no symbol newer than 2.31; the few 2.29-2.31 versions it would still
# pick up, and what GCC 12's static libstdc++ and libgcc (built against Debian 12's glibc 2.36)
# reference, are answered by bindings/glibc_compat.c. The binary's highest GLIBC_ symbol
# version is then checked against scripts/glibc_floor.sh's GLIBC_FLOOR here (and in tests/dist).
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
prefix=$PWD/$build/codecs/prefix
# Debian 11's libc (2.31) as the sysroot; its libsqlite3-dev for sql_test_runner.
sysroot=$(bash scripts/debian_userland.sh "$build/debian" bullseye amd64)
if ! grep -qx "CMAKE_SYSROOT:[A-Z]*=$sysroot" "$build/CMakeCache.txt" 2>/dev/null; then
  rm -rf "$build/CMakeCache.txt" "$build/CMakeFiles"  # another sysroot: configure afresh
fi
# Headers and libraries only from the sysroot and the prefix, never the host's /usr/include.
# The sysroot's library folders come first on the link line: GCC also passes its own
# ../../../x86_64-linux-gnu, the host's /usr/lib/x86_64-linux-gnu, whose libc.so is newer.
multiarch=$(gcc -dumpmachine)
sysroot_libs="-L$sysroot/usr/lib/$multiarch -L$sysroot/lib/$multiarch"
cmake --log-level=WARNING -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DSANITIZE=OFF \
  -DWERROR="${WERROR:-OFF}" -DSTATIC_DEPS=ON -DSTATIC_DEPS_PREFIX="$prefix" \
  -DCMAKE_SYSROOT="$sysroot" -DCMAKE_FIND_ROOT_PATH="$prefix" \
  -DCMAKE_MODULE_LINKER_FLAGS="$sysroot_libs" -DCMAKE_EXE_LINKER_FLAGS="$sysroot_libs" \
  -DCMAKE_FIND_ROOT_PATH_MODE_INCLUDE=ONLY -DCMAKE_FIND_ROOT_PATH_MODE_LIBRARY=ONLY \
  -DCMAKE_FIND_ROOT_PATH_MODE_PACKAGE=ONLY -DCMAKE_FIND_ROOT_PATH_MODE_PROGRAM=NEVER
# sql_test_runner: tests/dist runs the sql suite with it where the system libraries are
# hidden, and through Debian 11's loader and libc.
cmake --build "$build" -j "$jobs" --target parquet sql_test_runner

mkdir dist
strip --strip-unneeded -o dist/parquet.so "$build/parquet.so"
glibc=$(bash scripts/glibc_floor.sh dist/parquet.so)
bash scripts/glibc_floor.sh --check dist/parquet.so || { echo "make_dist: above the glibc floor" >&2; exit 1; }
/usr/bin/python3 bindings/python/build_wheel.py --version "$version" --binary dist/parquet.so \
  --glibc "$glibc" --arch x86_64 --out-dir dist >/dev/null

# One npm package for every platform: lib/PLATFORM-ARCH/ (Node's names), index.js picks.
npm_stage=$build/npm-package
rm -rf "$npm_stage" && mkdir -p "$npm_stage/lib/linux-x64"
cp bindings/node/{index.js,index.d.ts,package.json,README.md} "$npm_stage/"
cp dist/parquet.so "$npm_stage/lib/linux-x64/"
(cd "$npm_stage" && npm pkg set version="$version" && npm pack --silent --pack-destination "$PWD/../../dist" >/dev/null)

echo "make_dist: version $version, glibc $glibc or later"
ls -l dist

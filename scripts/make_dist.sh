#!/usr/bin/env bash
# `make dist`: the release artefacts in dist/, all carrying the version in VERSION:
#   dist/parquet.so                      the self-contained extension for Linux x86-64
#                                        (needs only glibc 2.28 or later), stripped
#   dist/linux-arm64/parquet.so          the same for Linux arm64 (AArch64)
#   dist/sqlite_parquet-V-py3-none-manylinux_2_28_{x86_64,aarch64}.whl   the Python packages
#   dist/parquet.dll                     the same for Windows x64 (mingw-w64 cross build:
#                                        imports only Windows' own DLLs)
#   dist/sqlite_parquet-V-py3-none-win_amd64.whl    its Python package
#   dist/sqlite-parquet-V.tgz            the npm package: lib/linux-x64/parquet.so,
#                                        lib/linux-arm64/parquet.so and
#                                        lib/win32-x64/parquet.dll (index.js picks by
#                                        process.platform and process.arch)
#   dist/wasm/                           the WebAssembly build (docs/wasm.md): the npm
#                                        package's files (api.mjs, worker.mjs, index.d.ts,
#                                        sqlite-parquet.mjs and .wasm)
#   dist/sqlite-parquet-wasm-V.tgz       that npm package (scripts/build_wasm.sh builds it
#                                        into WASM_BUILD, default build-wasm, when missing)
# The extension is built in DIST_BUILD (default build-dist/; arm64 in DIST_BUILD-arm64/, with
# Debian's aarch64-linux-gnu cross compiler) with -DSTATIC_DEPS=ON: every
# library is linked in. Debian's libsnappy.a and libz.a are not position-independent, so
# scripts/build_pic_codecs.sh first builds PIC copies from Debian's source packages of the
# installed versions (one file to ship beats shipping their .so files beside ours with an
# $ORIGIN RUNPATH: the wheel, the npm package and a download each stay one binary), and
# gathers them with the other codecs' static libraries and headers in one prefix.
# The glibc floor: the extension is compiled and linked against Debian 11's glibc 2.31
# (libc6-dev unpacked as a sysroot by scripts/debian_userland.sh, cached in
# ~/.cache/sqlite-parquet/debian-userland),
# so it can reference no symbol newer than 2.31; the few 2.29-2.31 versions it would still
# pick up, and what GCC 12's static libstdc++ and libgcc (built against Debian 12's glibc 2.36)
# reference, are answered by bindings/glibc_compat.c. The binary's highest GLIBC_ symbol
# version is then checked against scripts/glibc_floor.sh's GLIBC_FLOOR here (and in tests/dist).
# The wheel is written by bindings/python/build_wheel.py (standard library only: no
# package index, no build isolation); the npm package by `npm pack`.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${DIST_BUILD:-build-dist}
arm64_build=$build-arm64
jobs=${JOBS:-2}
# Built and downloaded once, outside the build folders (the other caches' root).
cache=${XDG_CACHE_HOME:-$HOME/.cache}/sqlite-parquet
userland_cache=$cache/debian-userland
version=$(head -n1 VERSION)
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "make_dist: VERSION holds '$version', not x.y.z" >&2; exit 1; }

rm -rf dist  # a failed run leaves no artefacts of an earlier one behind
bash scripts/install_deps.sh dist

# build_linux DEBIAN_ARCH BUILD_DIR: the self-contained extension and sql_test_runner for
# one architecture, compiled against Debian 11's libc (2.31) of that architecture as the
# sysroot (its libsqlite3-dev for sql_test_runner); arm64 with Debian's aarch64-linux-gnu
# cross compiler. Headers and libraries come only from the sysroot and the codec prefix,
# never the host's /usr/include; the sysroot's library folders come first on the link line
# (GCC also passes its own ../../../MULTIARCH, the host's, whose libc.so is newer), and its
# start files are taken.
build_linux() {
  local arch=$1 dir=$2 compilers=() multiarch
  # The codec prefix is built from fixed inputs (the scripts, the installed -dev packages'
  # versions, the compiler), so it is cached outside the build folders under a key of them:
  # a fresh clone's `make dist` reuses it.
  local key codecs_dir cross_gcc=gcc
  [[ $arch == arm64 ]] && cross_gcc=aarch64-linux-gnu-gcc
  key=$( (cat scripts/build_pic_codecs.sh scripts/debian_sources.sh scripts/debian_userland.sh
          echo "$arch"; "$cross_gcc" -dumpfullversion
          dpkg-query -W libsnappy-dev zlib1g-dev libzstd-dev liblz4-dev libbrotli-dev libxxhash-dev \
            libssl-dev libcurl4-openssl-dev libexpat1-dev doctest-dev) | sha256sum | cut -c1-16)
  codecs_dir=$cache/pic-codecs-$arch-$key
  mkdir -p "$cache"
  DEBIAN_CACHE=$userland_cache flock "$codecs_dir.lock" bash scripts/build_pic_codecs.sh "$codecs_dir" "$arch"
  local prefix=$codecs_dir/prefix
  local sysroot
  sysroot=$(bash scripts/debian_userland.sh "$userland_cache" bullseye "$arch")
  if [[ $arch == arm64 ]]; then
    multiarch=aarch64-linux-gnu
    # Debian's cross compiler also searches its own cross libc's headers (glibc 2.36, in
    # /usr/aarch64-linux-gnu/include) before the sysroot's: its include list without them.
    local lang flags=()
    for lang in c c++; do
      flags+=("-nostdinc $("$multiarch-g++" -x "$lang" -E -v /dev/null -o /dev/null --sysroot="$sysroot" 2>&1 |
                sed -n '/#include <...> search starts here:/,/End of search list./p' | sed '1d;$d' |
                grep -vx " */usr/lib/gcc-cross/$multiarch/[0-9]*/../../../../$multiarch/include" |
                sed 's/^ */-isystem /' | tr '\n' ' ')")
    done
    compilers=(-DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR=aarch64
               -DCMAKE_C_COMPILER=$multiarch-gcc -DCMAKE_CXX_COMPILER=$multiarch-g++
               -DCMAKE_C_FLAGS="${flags[0]}" -DCMAKE_CXX_FLAGS="${flags[1]}")
  else
    multiarch=$(gcc -dumpmachine)
  fi
  if ! grep -qx "CMAKE_SYSROOT:[A-Z]*=$sysroot" "$dir/CMakeCache.txt" 2>/dev/null; then
    rm -rf "$dir/CMakeCache.txt" "$dir/CMakeFiles"  # another sysroot: configure afresh
  fi
  # -B: the start files (Scrt1.o, crti.o) too; the host's Scrt1.o of glibc 2.34+ leaves
  # the static constructors of a program to a __libc_start_main that 2.31 does not have.
  local sysroot_libs="-B$sysroot/usr/lib/$multiarch/ -L$sysroot/usr/lib/$multiarch -L$sysroot/lib/$multiarch"
  cmake --log-level=WARNING -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DSANITIZE=OFF \
    -DWERROR="${WERROR:-OFF}" -DSTATIC_DEPS=ON -DSTATIC_DEPS_PREFIX="$prefix" "${compilers[@]}" \
    -DCMAKE_SYSROOT="$sysroot" -DCMAKE_FIND_ROOT_PATH="$prefix" \
    -DCMAKE_MODULE_LINKER_FLAGS="$sysroot_libs" -DCMAKE_EXE_LINKER_FLAGS="$sysroot_libs" \
    -DCMAKE_FIND_ROOT_PATH_MODE_INCLUDE=ONLY -DCMAKE_FIND_ROOT_PATH_MODE_LIBRARY=ONLY \
    -DCMAKE_FIND_ROOT_PATH_MODE_PACKAGE=ONLY -DCMAKE_FIND_ROOT_PATH_MODE_PROGRAM=NEVER
  # sql_test_runner: tests/dist runs the sql suite with it where the system libraries are
  # hidden, and on Debian 11's loader and libc (arm64: under qemu-aarch64).
  cmake --build "$dir" -j "$jobs" --target parquet sql_test_runner
}

# stage BINARY ARCH_DIR STRIP: dist/ARCH_DIR/parquet.so (or dist/parquet.so), stripped and
# checked against the glibc floor; prints the floor it measured.
stage() {
  local out=dist/${2:+$2/}parquet.so
  mkdir -p "$(dirname "$out")"
  "$3" --strip-unneeded -o "$out" "$1"
  bash scripts/glibc_floor.sh --check "$out" || { echo "make_dist: $out is above the glibc floor" >&2; exit 1; }
  bash scripts/glibc_floor.sh "$out"
}

build_linux amd64 "$build"
build_linux arm64 "$arm64_build"
mkdir -p dist
glibc=$(stage "$build/parquet.so" "" strip)
glibc_arm64=$(stage "$arm64_build/parquet.so" linux-arm64 aarch64-linux-gnu-strip)
/usr/bin/python3 bindings/python/build_wheel.py --version "$version" --binary dist/parquet.so \
  --glibc "$glibc" --arch x86_64 --out-dir dist >/dev/null
/usr/bin/python3 bindings/python/build_wheel.py --version "$version" --binary dist/linux-arm64/parquet.so \
  --glibc "$glibc_arm64" --arch aarch64 --out-dir dist >/dev/null

# Windows x64: parquet.dll cross-built with mingw-w64 (scripts/build_windows.sh; its
# libraries are cached in WINDOWS_BUILD, shared with the windows suite), and its wheel.
windows=${WINDOWS_BUILD:-build-windows}
bash scripts/build_windows.sh "$windows"
x86_64-w64-mingw32-strip --strip-unneeded -o dist/parquet.dll "$windows/parquet.dll"
/usr/bin/python3 bindings/python/build_wheel.py --version "$version" --binary dist/parquet.dll --windows \
  --out-dir dist >/dev/null

# One npm package for every platform: lib/PLATFORM-ARCH/ (Node's names), index.js picks.
npm_stage=$build/npm-package
rm -rf "$npm_stage" && mkdir -p "$npm_stage/lib/linux-x64" "$npm_stage/lib/linux-arm64" "$npm_stage/lib/win32-x64"
cp bindings/node/{index.js,index.d.ts,package.json,README.md} "$npm_stage/"
cp dist/parquet.so "$npm_stage/lib/linux-x64/"
cp dist/linux-arm64/parquet.so "$npm_stage/lib/linux-arm64/"
cp dist/parquet.dll "$npm_stage/lib/win32-x64/"
(cd "$npm_stage" && npm pkg set version="$version" 'cpu[]=arm64' &&
  npm pack --silent --pack-destination "$PWD/../../dist" >/dev/null)

# The WebAssembly package: built (cached) and packed as it is. Under `make test` the wasm
# build already runs in the background (WASM_BACKGROUND_LOGDIR names its log folder): it is
# waited for, never built a second time beside itself in the same folder.
wasm_build=${WASM_BUILD:-build-wasm}
if [[ -n ${WASM_BACKGROUND_LOGDIR:-} ]]; then
  bash scripts/background_build.sh wait "$WASM_BACKGROUND_LOGDIR" wasm >/dev/null ||
    echo "make_dist: the background wasm build failed; building it here" >&2
fi
bash scripts/install_deps.sh wasm
JOBS=$jobs WERROR=${WERROR:-OFF} bash scripts/build_wasm.sh "$wasm_build"
mkdir -p dist/wasm
cp "$wasm_build"/pkg/* dist/wasm/
(cd dist/wasm && npm pack --silent --pack-destination .. >/dev/null)

echo "make_dist: version $version, glibc $glibc (x86-64) and $glibc_arm64 (arm64) or later"
ls -lR dist

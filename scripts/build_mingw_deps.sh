#!/usr/bin/env bash
# Builds the static libraries of the Windows x64 extension (parquet.dll) with mingw-w64
# (posix threads): zstd, lz4, snappy, brotli, zlib, xxhash and OpenSSL's libcrypto, from
# Debian's source packages. scripts/debian_sources.sh resolves each installed -dev package's
# source to a version the archive serves (the installed one, else the newest of the same
# upstream version, else the newest; it says so when it does not take the installed one) and
# caches the download; every header of the prefix comes from those sources, never the host's.
# OpenSSL is configured for what the extension uses: libcrypto alone with AES (GCM, CTR),
# SHA-256 and its random generator; no engines, modules or DSOs, no other algorithms, and no
# configuration file read at start (no-autoload-config: on Windows OPENSSLDIR would be a
# folder any user may create, C:\usr\local\ssl). That is most of the time here.
# The result is kept outside the build folders, in CACHE/mingw-KEY/prefix/{include,lib}
# (CACHE: the parent of DEBIAN_SOURCE_CACHE; KEY: a hash of the source versions taken, this
# script and the compiler's version), so a fresh clone or another worktree builds it once.
# Prints the prefix's path on its last line.
#   usage: scripts/build_mingw_deps.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
triple=x86_64-w64-mingw32
command -v $triple-gcc-posix >/dev/null ||
  { echo "build_mingw_deps: $triple-gcc-posix missing (Debian package g++-mingw-w64-x86-64-posix)" >&2; exit 1; }
source "$here/debian_sources.sh"
taken=()
for package in "${DEBIAN_SOURCE_PACKAGES[@]}"; do
  taken+=("$(resolve_installed_source "$package")") || exit 1
done
key=$( (printf '%s\n' "${taken[@]}"; sha256sum "$0" | cut -d' ' -f1; $triple-gcc-posix -dumpfullversion) )
out=$(dirname "$DEBIAN_SOURCE_CACHE")/mingw-$(sha256sum <<<"$key" | cut -c1-16)
prefix=$out/prefix
if [[ -f $prefix/versions && $(<"$prefix/versions") == "$key" ]]; then
  echo "$prefix"
  exit 0
fi
mkdir -p "$out"
exec 8>"$out/.lock"
flock 8  # two builds of the same key: the second waits, then finds the first's result
if [[ -f $prefix/versions && $(<"$prefix/versions") == "$key" ]]; then
  echo "$prefix"
  exit 0
fi
src=$out/src
rm -rf "$src"
for pv in "${taken[@]}"; do unpack_debian_source "$src" "$pv"; done
rm -rf "$prefix" && mkdir -p "$prefix/include" "$prefix/lib"
jobs=${JOBS:-2}
cc=$triple-gcc-posix
toolchain=$here/../cmake/mingw-w64-x86_64.cmake
dir_of() { find "$src" -maxdepth 1 -type d -name "$1-*" | head -1; }
log=$out/build.log
: >"$log"
step() {  # step NAME COMMAND...: runs it, its output and wall seconds in build.log
  local name=$1 started=$SECONDS
  echo "== $name" >>"$log"
  shift
  "$@" >>"$log" 2>&1 || { tail -30 "$log" >&2; echo "build_mingw_deps: building failed (see $log)" >&2; exit 1; }
  echo "== $name took $((SECONDS - started)) s" >>"$log"
}
make_vars=(CC="$cc" AR=$triple-ar RANLIB=$triple-ranlib CFLAGS="-O2" TARGET_SYSTEM=Windows_NT)

zlib=$(dir_of zlib)
# Debian's zlib source lacks win32/Makefile.gcc; its configure knows mingw from CHOST.
step zlib-configure env -C "$zlib" CHOST=$triple CC="$cc" AR=$triple-ar RANLIB=$triple-ranlib CFLAGS="-O2" \
  ./configure --static
step zlib make -C "$zlib" -j "$jobs" libz.a
cp "$zlib/libz.a" "$prefix/lib/" && cp "$zlib/zlib.h" "$zlib/zconf.h" "$prefix/include/"

zstd=$(dir_of libzstd)
step zstd make -C "$zstd/lib" -j "$jobs" "${make_vars[@]}" libzstd.a
cp "$zstd/lib/libzstd.a" "$prefix/lib/" && cp "$zstd/lib/zstd.h" "$zstd/lib/zstd_errors.h" "$zstd/lib/zdict.h" "$prefix/include/"

lz4=$(dir_of lz4)
step lz4 make -C "$lz4/lib" -j "$jobs" "${make_vars[@]}" liblz4.a
cp "$lz4/lib/liblz4.a" "$prefix/lib/" && cp "$lz4"/lib/lz4{,hc,frame}.h "$prefix/include/"

xxhash=$(dir_of xxhash)
step xxhash make -C "$xxhash" -j "$jobs" "${make_vars[@]}" libxxhash.a
cp "$xxhash/libxxhash.a" "$prefix/lib/" && cp "$xxhash/xxhash.h" "$prefix/include/"

cmake_cross=(--log-level=ERROR -Wno-dev -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DCMAKE_BUILD_TYPE=Release)
snappy=$(dir_of snappy)
step snappy-configure cmake "${cmake_cross[@]}" -S "$snappy" -B "$src/snappy-build" -DSNAPPY_BUILD_TESTS=OFF \
  -DSNAPPY_BUILD_BENCHMARKS=OFF -DBUILD_SHARED_LIBS=OFF
step snappy cmake --build "$src/snappy-build" -j "$jobs" --target snappy
cp "$src/snappy-build/libsnappy.a" "$prefix/lib/"
cp "$snappy"/snappy.h "$snappy"/snappy-c.h "$snappy"/snappy-sinksource.h "$src/snappy-build/snappy-stubs-public.h" "$prefix/include/"

brotli=$(dir_of brotli)
step brotli-configure cmake "${cmake_cross[@]}" -S "$brotli" -B "$src/brotli-build" -DBROTLI_DISABLE_TESTS=ON
step brotli cmake --build "$src/brotli-build" -j "$jobs" --target brotlicommon-static brotlidec-static brotlienc-static
for part in common dec enc; do cp "$src/brotli-build/libbrotli$part-static.a" "$prefix/lib/libbrotli$part.a"; done
cp -r "$brotli/c/include/brotli" "$prefix/include/"

ssl=$(dir_of openssl)
step openssl-configure env -C "$ssl" CC="$cc" AR=$triple-ar RANLIB=$triple-ranlib RC=$triple-windres \
  perl Configure mingw64 no-shared no-tests no-engine no-module no-dso no-ui-console no-autoload-config \
  no-legacy no-sock no-ssl no-tls no-dtls no-cms no-ts no-ocsp no-ct no-srp no-srtp no-comp no-ec no-dh no-dsa \
  no-aria no-bf no-blake2 no-camellia no-cast no-chacha no-poly1305 no-des no-idea no-md4 no-mdc2 no-rc2 no-rc4 \
  no-rmd160 no-seed no-siphash no-siv no-sm2 no-sm3 no-sm4 no-whirlpool no-scrypt no-ocb \
  --prefix="$prefix" --libdir=lib
step openssl-headers make -C "$ssl" -j "$jobs" build_generated
step openssl make -C "$ssl" -j "$jobs" libcrypto.a
cp "$ssl/libcrypto.a" "$prefix/lib/"
mkdir -p "$prefix/include/openssl" && cp "$ssl"/include/openssl/*.h "$prefix/include/openssl/"

echo "$key" >"$prefix/versions"
rm -rf "$src"
echo "build_mingw_deps: built $(head -n ${#taken[@]} "$prefix/versions" | tr '\n' ' ')in $prefix" >&2
echo "$prefix"

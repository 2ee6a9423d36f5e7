#!/usr/bin/env bash
# Builds the static libraries of the Windows x64 extension (parquet.dll) with mingw-w64
# (posix threads): zstd, lz4, snappy, brotli, zlib, xxhash and OpenSSL's libcrypto, from
# Debian's source packages (scripts/debian_sources.sh): the codecs at the versions of the
# installed -dev packages, OpenSSL at the newest version the archive serves (its headers
# come from this build, so it need not match the installed libssl-dev). OpenSSL is
# configured for what the extension uses: libcrypto alone with AES (GCM, CTR), SHA-256 and
# its random generator; no engines, modules or DSOs, no other algorithms, and no
# configuration file read at start (no-autoload-config: on Windows OPENSSLDIR would be a
# folder any user may create, C:\usr\local\ssl). That is most of the time here.
# Result: OUTDIR/prefix/{include,lib}, kept while OUTDIR/prefix/versions (the source versions
# and this script's checksum) is unchanged, so later runs take a second.
#   usage: scripts/build_mingw_deps.sh OUTDIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(mkdir -p "${1:?usage: $0 OUTDIR}" && cd "$1" && pwd)
prefix=$out/prefix
triple=x86_64-w64-mingw32
command -v $triple-gcc-posix >/dev/null ||
  { echo "build_mingw_deps: $triple-gcc-posix missing (Debian package g++-mingw-w64-x86-64-posix)" >&2; exit 1; }
source "$here/debian_sources.sh"
codecs=(libzstd-dev liblz4-dev libsnappy-dev libbrotli-dev zlib1g-dev libxxhash-dev)
key=$( (for package in "${codecs[@]}"; do installed_source "$package"; echo; done
        sha256sum "$0" | cut -d' ' -f1) )
if [[ -f $prefix/versions && $(head -n "$(wc -l <<<"$key")" "$prefix/versions") == "$key" ]]; then
  exit 0
fi

debian_source_index "$out"
src=$out/src
wanted=()
for package in "${codecs[@]}"; do wanted+=("$(installed_source "$package")"); done
fetch_debian_sources "$src" "${wanted[@]}"
openssl=$(fetch_newest_source "$src" openssl)
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

{ echo "$key"; echo "$openssl"; } >"$prefix/versions"
rm -rf "$src"
echo "build_mingw_deps: built $(tr '\n' ' ' <"$prefix/versions") in $prefix"

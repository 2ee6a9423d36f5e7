#!/usr/bin/env bash
# Builds the static libraries of the WebAssembly build (`make wasm`, scripts/build_wasm.sh)
# with Debian's emscripten: zstd, lz4, snappy, brotli, zlib, xxhash and OpenSSL's libcrypto
# for wasm32, from Debian's source packages as `make dist` builds them for its other
# platforms: the sources scripts/debian_sources.sh resolves for the installed -dev packages
# (its cache holds the downloads), headers taken from those same sources. OpenSSL is
# configured like the Windows build's (libcrypto alone: AES-GCM/CTR, SHA-256, its random
# generator) and, for wasm, without threads, assembly or secure memory. Snappy and brotli are
# compiled directly (under emcc each CMake configure check is a link of seconds). Emscripten's
# own system libraries (libc, libc++ with wasm exceptions) come from EM_CACHE (wasm_env.sh).
#
# The result is kept outside the build folder, beside debian_sources.sh's cache
# (~/.cache/sqlite-parquet/wasm-HASH/prefix, or under WASM_DEPS_CACHE), the hash taken over
# what goes in: the source versions taken, emcc's version, the flags and the recipe's number
# (raised when this script changes what it builds). A second `make wasm`, or one in another
# clone or worktree, takes a second here; OpenSSL alone takes minutes on two cores. Prints the
# prefix on stdout, and writes it into WASM_PREFIX_FILE (when set) as soon as it is known: the
# headers come first (prefix/include/.complete), so a caller may compile while the libraries
# build.
#   usage: scripts/build_wasm_deps.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/wasm_env.sh"
source "$here/debian_sources.sh"
cflags="-O2"
cxxflags="-O2 -fwasm-exceptions"

# The source of each installed -dev package, as debian_sources.sh resolves it (the installed
# version, else the newest served of the same upstream version, else the newest served).
taken=()
for package in "${DEBIAN_SOURCE_PACKAGES[@]}"; do
  taken+=("$(resolve_installed_source "$package")") || exit 1
done
# What the libraries are made of; RECIPE changes when this script builds them differently.
recipe=3
key=$( (printf '%s\n' "${taken[@]}"; echo "emcc $(emcc -dumpversion)"; echo "$cflags / $cxxflags"; echo "recipe $recipe") )
out=${WASM_DEPS_CACHE:-$(dirname "$DEBIAN_SOURCE_CACHE")}/wasm-$(sha256sum <<<"$key" | cut -c1-16)
prefix=$out/prefix
[[ -n ${WASM_PREFIX_FILE:-} ]] && echo "$prefix" >"$WASM_PREFIX_FILE"
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
# An interrupted build carries on: sources unpacked and libraries built are kept.
src=$out/src
for pv in "${taken[@]}"; do
  source_name=${pv%%=*}
  compgen -G "$src/$source_name-*/" >/dev/null || unpack_debian_source "$src" "$pv"
done
mkdir -p "$prefix/include" "$prefix/lib"
jobs=${JOBS:-2}
dir_of() { find "$src" -maxdepth 1 -type d -name "$1-*" | head -1; }
log=$out/build.log
: >"$log"
step() {  # step NAME COMMAND...: runs it, its output and wall seconds in build.log
  local name=$1 started=$SECONDS
  echo "== $name" >>"$log"
  shift
  "$@" >>"$log" 2>&1 || { tail -30 "$log" >&2; echo "build_wasm_deps: building failed (see $log)" >&2; exit 1; }
  echo "== $name took $((SECONDS - started)) s" >>"$log"
}
make_vars=(CC=emcc AR=emar RANLIB=emranlib CFLAGS="$cflags")

# OpenSSL configured and its headers generated first: the codecs' and OpenSSL's headers are
# all there (include/) minutes before the libraries are, for a caller to start compiling.
ssl=$(dir_of openssl)
[[ -f $ssl/Makefile ]] || step openssl-configure env -C "$ssl" CC=emcc AR=emar RANLIB=emranlib \
  perl Configure linux-generic32 no-asm no-threads no-shared no-tests no-engine no-module no-dso no-ui-console \
  no-autoload-config no-secure-memory no-afalgeng no-async \
  no-legacy no-sock no-ssl no-tls no-dtls no-cms no-ts no-ocsp no-ct no-srp no-srtp no-comp no-ec no-dh no-dsa \
  no-aria no-bf no-blake2 no-camellia no-cast no-chacha no-poly1305 no-des no-idea no-md4 no-mdc2 no-rc2 no-rc4 \
  no-rmd160 no-seed no-siphash no-siv no-sm2 no-sm3 no-sm4 no-whirlpool no-scrypt no-ocb \
  --prefix="$prefix" --libdir=lib "$cflags"
[[ -f $ssl/include/openssl/opensslv.h ]] || step openssl-headers make -C "$ssl" -j "$jobs" build_generated
mkdir -p "$prefix/include/openssl" && cp "$ssl"/include/openssl/*.h "$prefix/include/openssl/"
zlib=$(dir_of zlib) zstd=$(dir_of libzstd) lz4=$(dir_of lz4) xxhash=$(dir_of xxhash) snappy=$(dir_of snappy)
brotli=$(dir_of brotli)
# snappy and brotli without their CMake builds: under emcc each configure check is a link
# of seconds, and snappy's configure alone took minutes on a loaded machine. Snappy's two
# generated headers are written here with what emscripten has (sys/uio.h, no SSSE3/BMI2,
# little-endian, no optional compressors).
snappy_version=$(sed -n 's/^project(Snappy VERSION \([0-9.]*\).*/\1/p' "$snappy/CMakeLists.txt")
IFS=. read -r snappy_major snappy_minor snappy_patch <<<"$snappy_version"
sed -e 's/${HAVE_SYS_UIO_H_01}/1/' -e "s/\${PROJECT_VERSION_MAJOR}/$snappy_major/" \
    -e "s/\${PROJECT_VERSION_MINOR}/$snappy_minor/" -e "s/\${PROJECT_VERSION_PATCH}/$snappy_patch/" \
    "$snappy/snappy-stubs-public.h.in" >"$snappy/snappy-stubs-public.h"
sed -E -e 's/^#cmakedefine01 (.*)$/#define \1 0/' \
    -e 's/^#cmakedefine (HAVE_ATTRIBUTE_ALWAYS_INLINE|HAVE_BUILTIN_CTZ|HAVE_BUILTIN_EXPECT|HAVE_FUNC_MMAP|HAVE_FUNC_SYSCONF|HAVE_SYS_MMAN_H|HAVE_SYS_RESOURCE_H|HAVE_SYS_TIME_H|HAVE_SYS_UIO_H|HAVE_UNISTD_H) 1$/#define \1 1/' \
    -e 's/^#cmakedefine (.*) 1$/\/* #undef \1 *\//' "$snappy/cmake/config.h.in" >"$snappy/config.h"
# (Copied once: zlib's configure rewrites its zconf.h, which a carried-on build must not copy
# again over the first, or every object including it would compile again.)
if [[ ! -f $prefix/include/.complete ]]; then
  cp "$zlib/zlib.h" "$zlib/zconf.h" "$zstd/lib/zstd.h" "$zstd/lib/zstd_errors.h" "$zstd/lib/zdict.h" \
    "$lz4"/lib/lz4{,hc,frame}.h "$xxhash/xxhash.h" "$snappy"/snappy.h "$snappy"/snappy-c.h "$snappy"/snappy-sinksource.h \
    "$snappy/snappy-stubs-public.h" "$prefix/include/"
  cp -r "$brotli/c/include/brotli" "$prefix/include/"
  touch "$prefix/include/.complete"  # the headers are all there (build_wasm.sh may start compiling)
fi

built() { [[ -f $prefix/lib/$1 ]]; }
built libz.a || step zlib-configure env -C "$zlib" CC=emcc AR=emar RANLIB=emranlib CFLAGS="$cflags" ./configure --static
built libz.a || { step zlib make -C "$zlib" -j "$jobs" AR=emar ARFLAGS=rc RANLIB=emranlib libz.a &&
                  cp "$zlib/libz.a" "$prefix/lib/"; }

built libzstd.a || { step zstd make -C "$zstd/lib" -j "$jobs" "${make_vars[@]}" ZSTD_MULTITHREAD_SUPPORT=0 libzstd.a &&
                     cp "$zstd/lib/libzstd.a" "$prefix/lib/"; }

built liblz4.a || { step lz4 make -C "$lz4/lib" -j "$jobs" "${make_vars[@]}" liblz4.a && cp "$lz4/lib/liblz4.a" "$prefix/lib/"; }

built libxxhash.a || { step xxhash make -C "$xxhash" -j "$jobs" "${make_vars[@]}" libxxhash.a &&
                       cp "$xxhash/libxxhash.a" "$prefix/lib/"; }

# compile NAME OUT.a COMMAND... -- SOURCES...: each source compiled by COMMAND, JOBS at a
# time, then one archive.
compile() {
  local name=$1 archive=$2 command=() file object objects=() running=0
  shift 2
  while [[ $1 != -- ]]; do command+=("$1"); shift; done
  shift
  mkdir -p "$src/$name-objects"
  for file in "$@"; do
    object=$src/$name-objects/$(basename "${file%.*}").o
    objects+=("$object")
    "${command[@]}" -c "$file" -o "$object" &
    if ((++running >= jobs)); then
      wait -n || return 1
      running=$((running - 1))
    fi
  done
  while ((running > 0)); do
    wait -n || return 1
    running=$((running - 1))
  done
  emar rcs "$archive" "${objects[@]}"
}
built libsnappy.a || step snappy compile snappy "$prefix/lib/libsnappy.a" em++ $cxxflags -std=c++11 -DHAVE_CONFIG_H -I"$snappy" -- \
  "$snappy"/snappy.cc "$snappy"/snappy-sinksource.cc "$snappy"/snappy-stubs-internal.cc "$snappy"/snappy-c.cc

for part in common dec enc; do
  built "libbrotli$part.a" || step "brotli$part" compile "brotli$part" "$prefix/lib/libbrotli$part.a" emcc $cflags -I"$brotli/c/include" -- \
    "$brotli"/c/$part/*.c
done

built libcrypto.a || { step openssl make -C "$ssl" -j "$jobs" libcrypto.a && cp "$ssl/libcrypto.a" "$prefix/lib/"; }

rm -rf "$src"
echo "$key" >"$prefix/versions"
echo "build_wasm_deps: built $(printf '%s ' "${taken[@]}")for wasm32 in $prefix" >&2
echo "$prefix"

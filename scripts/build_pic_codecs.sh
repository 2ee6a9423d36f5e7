#!/usr/bin/env bash
# Builds position-independent static libsnappy.a and libz.a for the self-contained extension
# of `make dist` (Debian's own libsnappy.a and libz.a are compiled without -fPIC, so they
# cannot be linked into a shared object). Sources come from Debian's source packages
# (scripts/debian_sources.sh: the installed version's, or the nearest the archive serves),
# and so do the headers of snappy and zlib.
# Result: OUTDIR/prefix/lib/{libsnappy.a,libz.a}, beside copies of the installed -dev
# packages' other static libraries (Debian's libzstd.a, liblz4.a, libbrotli*.a, libxxhash.a
# and libcrypto.a are PIC) and OUTDIR/prefix/include with the headers of all of them and of
# curl and expat (which the extension loads at run time): `make dist` links against an older
# glibc's sysroot and searches only it and this prefix, so the host's /usr/include, whose
# glibc headers are newer, never mixes in. Does nothing when the prefix is complete.
# With ARCH arm64 (on an x86-64 machine), the same for linux-arm64: snappy and zlib
# cross-compiled with Debian's aarch64-linux-gnu-gcc from the same sources, the other static
# libraries and all headers from Debian 12's arm64 -dev packages, unpacked (not installed)
# by scripts/debian_userland.sh into DEBIAN_CACHE (default OUTDIR/../debian).
#   usage: scripts/build_pic_codecs.sh OUTDIR [ARCH]
set -euo pipefail
out=$(mkdir -p "${1:?usage: $0 OUTDIR [ARCH]}" && cd "$1" && pwd)
arch=${2:-$(dpkg --print-architecture)}
cross=()
if [[ $arch != "$(dpkg --print-architecture)" ]]; then
  [[ $arch == arm64 ]] || { echo "build_pic_codecs: cannot cross-build for '$arch'" >&2; exit 1; }
  cross=(aarch64-linux-gnu)
fi
prefix=$out/prefix
if [[ -f $prefix/.complete ]]; then
  exit 0
fi
rm -rf "$prefix"
command -v dpkg-source >/dev/null || { echo "build_pic_codecs: dpkg-source missing (Debian package dpkg-dev)" >&2; exit 1; }

# The sources: scripts/debian_sources.sh resolves the installed -dev packages' sources to
# versions the archive serves (saying so when it is not the installed one), cached.
source "$(dirname "$0")/debian_sources.sh"
src=$out/src
rm -rf "$src" && mkdir -p "$src"
snappy_taken=$(resolve_installed_source libsnappy-dev)
zlib_taken=$(resolve_installed_source zlib1g-dev)
unpack_debian_source "$src" "$snappy_taken"
unpack_debian_source "$src" "$zlib_taken"

jobs=${JOBS:-2}
# snappy: its CMake build, without tests and benchmarks. Debian's patch adds the static
# library as target snappy-static (beside the shared one); only that one is built.
snappy_dir=$(find "$src" -maxdepth 1 -type d -name 'snappy-*' | head -1)
cross_cmake=()
((${#cross[@]})) && cross_cmake=(-DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR=aarch64
                                -DCMAKE_C_COMPILER="$cross-gcc" -DCMAKE_CXX_COMPILER="$cross-g++")
cmake --log-level=ERROR -Wno-dev -S "$snappy_dir" -B "$src/snappy-build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DSNAPPY_BUILD_TESTS=OFF -DSNAPPY_BUILD_BENCHMARKS=OFF "${cross_cmake[@]}" >/dev/null
cmake --build "$src/snappy-build" -j "$jobs" --target snappy-static >/dev/null
mkdir -p "$prefix/lib"
cp "$src/snappy-build/libsnappy.a" "$prefix/lib/"
mkdir -p "$prefix/include"
cp "$snappy_dir"/snappy.h "$snappy_dir"/snappy-c.h "$snappy_dir"/snappy-sinksource.h \
  "$src/snappy-build/snappy-stubs-public.h" "$prefix/include/"
# zlib: its configure script, static only.
zlib_dir=$(find "$src" -maxdepth 1 -type d -name 'zlib-*' | head -1)
(cd "$zlib_dir" && CC=${cross:+$cross-}gcc CFLAGS="-O2 -fPIC" ./configure --static >/dev/null &&
  make -j "$jobs" libz.a >/dev/null)
cp "$zlib_dir/libz.a" "$prefix/lib/"
cp "$zlib_dir/zlib.h" "$zlib_dir/zconf.h" "$prefix/include/"

# The other -dev packages' headers and static libraries (multiarch include folders
# flattened: include/x86_64-linux-gnu/openssl/ goes to include/openssl/): as installed, or
# for a cross build as Debian 12's packages of that architecture hold them.
# (snappy's and zlib's headers come from the sources built above, not from these.)
dev_packages=(libzstd-dev liblz4-dev libbrotli-dev libxxhash-dev libssl-dev
              libcurl4-openssl-dev libexpat1-dev doctest-dev)
if ((${#cross[@]})); then
  multiarch=$cross
  dev_root=$(bash "$(dirname "$0")/debian_userland.sh" "${DEBIAN_CACHE:-$out/../debian}" bookworm "$arch" "${dev_packages[@]}")
  list_files() { (cd "$dev_root" && find usr -type f | sed 's|^|/|'); }
else
  multiarch=$(gcc -dumpmachine)
  dev_root=
  list_files() { for pkg in "${dev_packages[@]}"; do dpkg -L "$pkg"; done; }
fi
while IFS= read -r path; do
  [[ -f $dev_root$path ]] || continue
  case $path in
    /usr/include/*)
      rel=${path#/usr/include/}
      rel=${rel#"$multiarch"/}
      mkdir -p "$prefix/include/$(dirname "$rel")" && cp "$dev_root$path" "$prefix/include/$rel" ;;
    */libzstd.a | */liblz4.a | */libbrotlicommon.a | */libbrotlidec.a | */libbrotlienc.a | */libxxhash.a | */libcrypto.a)
      cp "$dev_root$path" "$prefix/lib/" ;;
  esac
done < <(list_files)
touch "$prefix/.complete"
echo "build_pic_codecs: built ${snappy_taken/=/ } and ${zlib_taken/=/ } (PIC, $arch) in $prefix"

#!/usr/bin/env bash
# Builds position-independent static libsnappy.a and libz.a for the self-contained extension
# of `make dist` (Debian's own libsnappy.a and libz.a are compiled without -fPIC, so they
# cannot be linked into a shared object). Sources come from Debian's source packages of the
# installed versions (`apt-get source`, checked against the signed Sources index), through a
# private apt configuration under OUTDIR/apt: the system's apt sources are not touched.
# Result: OUTDIR/prefix/lib/{libsnappy.a,libz.a} (the headers are the installed -dev
# packages', of the same version). Does nothing when both libraries are already there.
#   usage: scripts/build_pic_codecs.sh OUTDIR
set -euo pipefail
out=$(mkdir -p "${1:?usage: $0 OUTDIR}" && cd "$1" && pwd)
prefix=$out/prefix
if [[ -f $prefix/lib/libsnappy.a && -f $prefix/lib/libz.a ]]; then
  exit 0
fi
command -v dpkg-source >/dev/null || { echo "build_pic_codecs: dpkg-source missing (Debian package dpkg-dev)" >&2; exit 1; }

# A private apt state that knows the deb-src entries of the running release.
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:?}")
source "$(dirname "$0")/private_apt.sh"
private_apt_init "$out/apt" "deb-src http://deb.debian.org/debian $codename main" \
  "deb-src http://deb.debian.org/debian $codename-updates main" \
  "deb-src http://deb.debian.org/debian-security $codename-security main" ||
  { echo "build_pic_codecs: cannot read Debian's source index" >&2; exit 1; }
apt=("${private_apt[@]}")

src=$out/src
rm -rf "$src" && mkdir -p "$src"
# The source version matching the installed -dev package, so headers and behaviour agree.
snappy_version=$(dpkg-query -W -f='${Version}' libsnappy-dev)
zlib_version=$(dpkg-query -W -f='${Version}' zlib1g-dev)
(cd "$src" && "${apt[@]}" source "snappy=$snappy_version" "zlib=$zlib_version" </dev/null >"$src/source.log" 2>&1) ||
  { cat "$src/source.log" >&2; echo "build_pic_codecs: apt-get source snappy zlib failed" >&2; exit 1; }

jobs=${JOBS:-2}
# snappy: its CMake build, without tests and benchmarks. Debian's patch adds the static
# library as target snappy-static (beside the shared one); only that one is built.
snappy_dir=$(find "$src" -maxdepth 1 -type d -name 'snappy-*' | head -1)
cmake --log-level=ERROR -Wno-dev -S "$snappy_dir" -B "$src/snappy-build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DSNAPPY_BUILD_TESTS=OFF -DSNAPPY_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build "$src/snappy-build" -j "$jobs" --target snappy-static >/dev/null
mkdir -p "$prefix/lib"
cp "$src/snappy-build/libsnappy.a" "$prefix/lib/"
# zlib: its configure script, static only.
zlib_dir=$(find "$src" -maxdepth 1 -type d -name 'zlib-*' | head -1)
(cd "$zlib_dir" && CFLAGS="-O2 -fPIC" ./configure --static >/dev/null && make -j "$jobs" libz.a >/dev/null)
cp "$zlib_dir/libz.a" "$prefix/lib/"
echo "build_pic_codecs: built snappy $snappy_version and zlib $zlib_version (PIC) in $prefix"

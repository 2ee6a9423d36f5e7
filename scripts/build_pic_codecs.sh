#!/usr/bin/env bash
# Builds position-independent static libsnappy.a and libz.a for the self-contained extension
# of `make dist` (Debian's own libsnappy.a and libz.a are compiled without -fPIC, so they
# cannot be linked into a shared object). Sources come from Debian's source packages of the
# installed versions (scripts/debian_sources.sh: `apt-get source` through a private apt
# configuration under OUTDIR/apt; the system's apt sources are not touched).
# Result: OUTDIR/prefix/lib/{libsnappy.a,libz.a} (the headers are the installed -dev
# packages', of the same version). Does nothing when both libraries are already there.
#   usage: scripts/build_pic_codecs.sh OUTDIR
set -euo pipefail
out=$(mkdir -p "${1:?usage: $0 OUTDIR}" && cd "$1" && pwd)
prefix=$out/prefix
if [[ -f $prefix/lib/libsnappy.a && -f $prefix/lib/libz.a ]]; then
  exit 0
fi
source "$(dirname "$0")/debian_sources.sh"
src=$out/src
debian_source_index "$out"
fetch_debian_sources "$src" "$(installed_source libsnappy-dev)" "$(installed_source zlib1g-dev)"
snappy_version=$(dpkg-query -W -f='${Version}' libsnappy-dev)
zlib_version=$(dpkg-query -W -f='${Version}' zlib1g-dev)

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

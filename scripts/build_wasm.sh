#!/usr/bin/env bash
# `make wasm`: the WebAssembly build (docs/wasm.md) into OUTDIR (default build-wasm/) with
# Debian's emscripten: the codec and crypto libraries for wasm32 (scripts/build_wasm_deps.sh,
# cached outside the build folder), the amalgamation of the newest SQLite of the matrix
# (scripts/setup_sqlite_versions.sh --amalgamation), then CMake under emscripten's toolchain
# (cmake/wasm.cmake): sqlite-parquet.mjs/.wasm and the Node test runner sql_test_runner.js.
# The library and the extension compile while the libraries build (their headers come first),
# against OUTDIR/deps (the prefix's files, replaced only when their content changes).
# Finally OUTDIR/pkg/ holds the npm package's files (wasm/package/, the API, the module).
#   usage: scripts/build_wasm.sh [OUTDIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
out=$(mkdir -p "${1:-$root/build-wasm}" && cd "${1:-$root/build-wasm}" && pwd)
source "$here/wasm_env.sh"
jobs=${JOBS:-2}
sqlite_version=$(sed -n 's/^SQLITE_MATRIX ?= //p' "$root/Makefile" | tr ' ' '\n' | sort -V | tail -1)
versions_dir=${SQLITE_VERSIONS_DIR:-$root/build/sqlite-versions}

if [[ ! -f $out/sqlite-$sqlite_version/sqlite3.c ]]; then
  bash "$here/setup_sqlite_versions.sh" --amalgamation "$versions_dir" "$sqlite_version" "$out/sqlite-$sqlite_version.tmp"
  rm -rf "$out/sqlite-$sqlite_version" && mv "$out/sqlite-$sqlite_version.tmp" "$out/sqlite-$sqlite_version"
fi

prefix_file=$out/deps-prefix
rm -f "$prefix_file"
WASM_PREFIX_FILE=$prefix_file bash "$here/build_wasm_deps.sh" >"$out/deps.log" 2>&1 &
deps=$!
# The prefix is named within seconds, its headers within a few minutes.
while [[ ! -s $prefix_file ]] || [[ ! -f $(cat "$prefix_file")/include/.complete ]]; do
  if ! kill -0 "$deps" 2>/dev/null; then
    wait "$deps" || { tail -30 "$out/deps.log" >&2; echo "build_wasm: the wasm libraries failed to build" >&2; exit 1; }
    break
  fi
  sleep 2
done
prefix=$(cat "$prefix_file")
# CMake sees the libraries in OUTDIR/deps, a copy of the prefix in which a file is replaced
# only when its content changed: another prefix (new source versions, a new recipe) leaves
# the objects of unchanged headers compiled.
sync_tree() {  # sync_tree FROM TO
  local file
  (cd "$1" && find . -type f ! -name .complete) | while IFS= read -r file; do
    if ! cmp -s "$1/$file" "$2/$file"; then
      mkdir -p "$(dirname "$2/$file")" && cp "$1/$file" "$2/$file"
    fi
  done
}
deps_dir=$out/deps
sync_tree "$prefix/include" "$deps_dir/include"

cmake --log-level=WARNING -Wno-dev -S "$root" -B "$out/cmake" \
  -DCMAKE_TOOLCHAIN_FILE=/usr/share/emscripten/cmake/Modules/Platform/Emscripten.cmake \
  -DCMAKE_BUILD_TYPE=Release -DSANITIZE=OFF -DWERROR="${WERROR:-ON}" -DSTATIC_DEPS=ON \
  -DSTATIC_DEPS_PREFIX="$deps_dir" -DPQ_SQLITE_AMALGAMATION="$out/sqlite-$sqlite_version" >"$out/configure.log" 2>&1 ||
  { cat "$out/configure.log" >&2; echo "build_wasm: cmake failed" >&2; kill "$deps" 2>/dev/null; exit 1; }
# Compiling needs only the headers: under way while the libraries build.
# (A compile error leaves the libraries building: they are cached for the next run.)
cmake --build "$out/cmake" -j "$jobs" --target parquet_format parquet_ext_objects pq_wasm_sqlite || exit 1
wait "$deps" || { tail -30 "$out/deps.log" >&2; echo "build_wasm: the wasm libraries failed to build" >&2; exit 1; }
sync_tree "$prefix" "$deps_dir"
cmake --build "$out/cmake" -j "$jobs"
for program in sqlite-parquet sql_test_runner differential_tests; do
  for file in "$out/cmake/$program".*js "$out/cmake/$program.wasm"; do cp "$file" "$out/"; done
done

# The npm package's files (make dist copies them into dist/wasm/).
pkg=$out/pkg
rm -rf "$pkg" && mkdir -p "$pkg"
cp "$root"/wasm/package/* "$pkg/"
cp "$root/wasm/api.mjs" "$root/wasm/worker.mjs" "$root/wasm/index.d.ts" "$pkg/"
cp "$out/sqlite-parquet.wasm" "$pkg/"
# Emscripten 3.1.6's ES module output calls require() and reads __dirname under Node, which
# an ES module lacks: both are defined first (under Node only; a browser never runs that
# branch).
{
  echo 'const require = typeof process == "object" && process.versions && process.versions.node ? (await import("node:module")).createRequire(import.meta.url) : undefined;'
  echo 'const __dirname = typeof process == "object" && process.versions && process.versions.node ? (await import("node:path")).dirname((await import("node:url")).fileURLToPath(import.meta.url)) : "";'
  cat "$out/sqlite-parquet.mjs"
} >"$pkg/sqlite-parquet.mjs"
sed -i "s/\"version\": \"[^\"]*\"/\"version\": \"$(head -1 "$root/VERSION")\"/" "$pkg/package.json"
echo "build_wasm: $out/sqlite-parquet.wasm ($(stat -c %s "$out/sqlite-parquet.wasm") bytes), package files in $pkg"

# Sourced by the scripts of the WebAssembly build (build_wasm_deps.sh, build_wasm.sh): the
# environment Debian's emscripten (3.1.6) needs here.
# - Its JavaScript tools require acorn, which Debian installs for its own nodejs under
#   /usr/share/nodejs; a node from elsewhere (NodeSource's) finds it through NODE_PATH.
# - Debian ships emscripten's system libraries prebuilt in a frozen (read-only) cache. Any
#   variant it lacks is built once into EM_CACHE outside the build folder (default
#   ~/.cache/sqlite-parquet/emcache-VERSION), seeded with links to Debian's prebuilt ones,
#   so no build, clone or worktree compiles them again.
command -v emcc >/dev/null 2>&1 ||
  { echo "wasm: emcc missing (Debian package emscripten; scripts/install_deps.sh wasm)" >&2; return 1; }
# emcc, em++ and em-config run under EMSDK_PYTHON: Debian's python3 directly, not through
# whatever python3 comes first on PATH (a pyenv shim costs a shell and a second per call).
export EMSDK_PYTHON=${EMSDK_PYTHON:-/usr/bin/python3}
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
wasm_emcc_version=$(emcc -dumpversion 2>/dev/null || echo unknown)
export EM_CACHE=${EM_CACHE:-${WASM_DEPS_CACHE:-$HOME/.cache/sqlite-parquet}/emcache-$wasm_emcc_version}
if [[ ! -f $EM_CACHE/.seeded ]]; then
  mkdir -p "$EM_CACHE"
  cp -as /usr/share/emscripten/cache/. "$EM_CACHE/" 2>/dev/null || true
  rm -f "$EM_CACHE/cache.lock"
  touch "$EM_CACHE/.seeded"
fi
export EM_FROZEN_CACHE=

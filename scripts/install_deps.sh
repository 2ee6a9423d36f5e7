#!/usr/bin/env bash
# Installs the Debian packages needed to build and test sqlite-parquet, only those missing.
# Silent when everything is installed; works unattended (CI=true, no stdin).
# `install_deps.sh fuzz` also installs clang and libFuzzer, for `make fuzz` only;
# `install_deps.sh dist` what `make dist` and `make test-dist` use (Debian's source packages
# are fetched with dpkg-dev's dpkg-source, Debian 11's packages unpacked with dpkg-deb, the
# wheel is tested in a python3-venv venv, the extension with Debian's sqlite-utils, the npm
# package with node and npm; `make dist` builds parquet.dll too, with mingw-w64);
# `install_deps.sh clang` clang with LLVM's libc++ (the portable-source build, build-clang/);
# `install_deps.sh windows` what the Windows build and its suite use (mingw-w64 with posix
# threads, wine to run the Windows programs);
# `install_deps.sh wasm` what `make wasm` and the wasm suite use (Debian's emscripten, the
# source packages fetched with dpkg-dev, perl for OpenSSL's Configure, node and npm for the
# tests and puppeteer-core, Debian's chromium as the headless browser).
set -euo pipefail

PACKAGES=(build-essential cmake pkg-config libsqlite3-dev sqlite3 libzstd-dev libsnappy-dev
          tcl  # tclsh: SQLite's makefile generates the amalgamation of a Debian source package (scripts/setup_sqlite_versions.sh)
          liblz4-dev zlib1g-dev libbrotli-dev libxxhash-dev libssl-dev doctest-dev
          sqlite-utils python3  # hosts that load the extension in tests/hosts
          ccache  # CMake uses it: build-dist/ compiles with build/'s commands and reuses them
          libcurl4-openssl-dev libexpat1-dev  # remote files: headers only, the libraries are dlopen'd
          nginx-light openssl)  # the remote suite's HTTP(S) server and its test certificates (tests/remote)
if [[ ${1:-} == fuzz ]]; then
  PACKAGES+=(clang libclang-rt-14-dev)
fi
if [[ ${1:-} == clang ]]; then
  PACKAGES+=(clang libc++-dev libc++abi-dev)
fi
if [[ ${1:-} == dist || ${1:-} == windows ]]; then
  PACKAGES+=(dpkg-dev g++-mingw-w64-x86-64-posix binutils-mingw-w64-x86-64 perl)
fi
if [[ ${1:-} == windows ]]; then
  PACKAGES+=(wine wine64)
fi
if [[ ${1:-} == wasm ]]; then
  PACKAGES+=(emscripten dpkg-dev perl chromium)
  command -v node >/dev/null 2>&1 || PACKAGES+=(nodejs)
  command -v npm >/dev/null 2>&1 || PACKAGES+=(npm)
fi
if [[ ${1:-} == dist ]]; then
  PACKAGES+=(dpkg-dev binutils python3 python3-venv sqlite-utils
             g++-aarch64-linux-gnu qemu-user)  # the linux-arm64 build and its run under qemu
  # node and npm may come from another source than Debian (NodeSource's nodejs includes npm).
  command -v node >/dev/null 2>&1 || PACKAGES+=(nodejs)
  command -v npm >/dev/null 2>&1 || PACKAGES+=(npm)
fi

if ! command -v dpkg-query >/dev/null 2>&1; then
  echo "install_deps: not a Debian system; install the equivalents of: ${PACKAGES[*]}" >&2
  exit 0
fi

missing=()
for pkg in "${PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  [[ "$status" == *" installed" ]] || missing+=("$pkg")
done
((${#missing[@]} == 0)) && exit 0

echo "install_deps: installing ${missing[*]}"
sudo=()
if [[ $(id -u) -ne 0 ]]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "install_deps: not root and no sudo; please install: ${missing[*]}" >&2
    exit 1
  fi
  sudo=(sudo)
  [[ -t 0 ]] || sudo+=(-n)  # never wait for a password without a terminal
fi
apt=("${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 -q)
"${apt[@]}" update </dev/null
"${apt[@]}" install -y --no-install-recommends "${missing[@]}" </dev/null

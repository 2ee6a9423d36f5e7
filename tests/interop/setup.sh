#!/usr/bin/env bash
# Installs what the interop suite needs: node and npm (Debian packages, only when missing)
# and tests/interop/node_modules exactly as package-lock.json pins it (@duckdb/node-api,
# parquet-wasm, apache-arrow, hyparquet, hyparquet-compressors; reinstalled only when the
# lock file changed). Works unattended (no stdin). Exits non-zero with a clear message when
# anything cannot be installed (no network, no npm registry): the suite then fails.
set -euo pipefail
cd "$(dirname "$0")"

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "interop/setup: installing nodejs and npm"
  sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null 2>&1 || { echo "interop/setup: not root and no sudo; install nodejs and npm" >&2; exit 1; }
    sudo=(sudo)
    [[ -t 0 ]] || sudo+=(-n)
  fi
  apt=("${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 -q)
  "${apt[@]}" update </dev/null
  "${apt[@]}" install -y --no-install-recommends nodejs npm </dev/null
fi

# npm ci records the lock it installed in node_modules/.package-lock.json.
if [[ ! -d node_modules/parquet-wasm || package-lock.json -nt node_modules/.package-lock.json ]]; then
  echo "interop/setup: npm ci (@duckdb/node-api, parquet-wasm, apache-arrow, hyparquet)"
  # npm ci insists that the lock lists every platform's optional DuckDB bindings; a lock
  # made against a registry mirror without them fails that check, so then install the
  # same pinned versions with npm install (which leaves package.json and the lock alone).
  if ! npm ci --no-audit --no-fund --loglevel=error </dev/null &&
     ! npm install --no-save --no-audit --no-fund --loglevel=error </dev/null; then
    echo "interop/setup: cannot install the node packages (is the npm registry reachable?)" >&2
    exit 1
  fi
fi

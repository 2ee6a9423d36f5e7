#!/usr/bin/env bash
# Installs what `make bench` needs beyond the build: node and npm (Debian packages, only
# when missing) and bench/node_modules (@duckdb/node-api, exactly as package-lock.json
# pins it; reinstalled only when the lock file changed). Works unattended (no stdin).
set -euo pipefail
cd "$(dirname "$0")"

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "bench/setup: installing nodejs and npm"
  sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null 2>&1 || { echo "bench/setup: not root and no sudo; install nodejs and npm" >&2; exit 1; }
    sudo=(sudo)
    [[ -t 0 ]] || sudo+=(-n)
  fi
  apt=("${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 -q)
  "${apt[@]}" update </dev/null
  "${apt[@]}" install -y --no-install-recommends nodejs npm </dev/null
fi

# npm ci records the lock it installed in node_modules/.package-lock.json.
if [[ ! -d node_modules/@duckdb/node-api || package-lock.json -nt node_modules/.package-lock.json ]]; then
  echo "bench/setup: npm ci (@duckdb/node-api)"
  npm ci --no-audit --no-fund --loglevel=error </dev/null
fi

#!/usr/bin/env bash
# Installs the test-time node packages of one directory (tests/interop, bench): node and
# npm from Debian when missing, then DIR/node_modules exactly as DIR/package-lock.json pins
# it, reinstalled only when the lock changed. Works unattended (no stdin); exits non-zero
# with a clear message when something cannot be installed.
#   usage: scripts/install_node_packages.sh DIR PACKAGES-THAT-MUST-EXIST LABEL
# (PACKAGES-THAT-MUST-EXIST: one name, or several separated by spaces.)
set -euo pipefail
dir=$1 probes=$2 label=$3
cd "$dir"

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "$label: installing nodejs and npm"
  sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null 2>&1 || { echo "$label: not root and no sudo; install nodejs and npm" >&2; exit 1; }
    sudo=(sudo)
    [[ -t 0 ]] || sudo+=(-n)
  fi
  apt=("${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 -q)
  "${apt[@]}" update </dev/null
  "${apt[@]}" install -y --no-install-recommends nodejs npm </dev/null
fi

# npm ci records the lock it installed in node_modules/.package-lock.json.
missing=0
for probe in $probes; do
  [[ -d node_modules/$probe ]] || missing=1
done
if ((missing)) || [[ package-lock.json -nt node_modules/.package-lock.json ]]; then
  echo "$label: npm ci"
  # A native addon without a prebuilt binary here (better-sqlite3, which compiles SQLite's
  # amalgamation) is compiled at -O1, which node-gyp puts after its own -O3: half the time
  # (99 s against 51 s on two cores), and the tests do not depend on it.
  export CFLAGS="${CFLAGS:+$CFLAGS }-O1" CXXFLAGS="${CXXFLAGS:+$CXXFLAGS }-O1"
  # npm ci insists that the lock lists every platform's optional DuckDB bindings; a lock
  # made against a registry mirror without them fails that check, so then install the
  # same pinned versions with npm install (which leaves package.json and the lock alone).
  if ! npm ci --no-audit --no-fund --loglevel=error </dev/null &&
     ! npm install --no-save --no-audit --no-fund --loglevel=error </dev/null; then
    echo "$label: cannot install the node packages (is the npm registry reachable?)" >&2
    exit 1
  fi
fi
for probe in $probes; do
  [[ -d node_modules/$probe ]] || { echo "$label: $probe is not in $dir/node_modules after npm ci (is it in package-lock.json?)" >&2; exit 1; }
done

#!/usr/bin/env bash
# Installs what the interop suite needs: node and npm (Debian packages, only when missing)
# and tests/interop/node_modules exactly as package-lock.json pins it (@duckdb/node-api,
# parquet-wasm, apache-arrow, hyparquet, hyparquet-compressors). Exits non-zero with a
# clear message when anything cannot be installed: the suite then fails.
set -euo pipefail
exec bash "$(dirname "$0")/../../scripts/install_node_packages.sh" "$(dirname "$0")" parquet-wasm interop/setup

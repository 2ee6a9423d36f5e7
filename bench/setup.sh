#!/usr/bin/env bash
# Installs what `make bench` needs beyond the build: node and npm (Debian packages, only
# when missing) and bench/node_modules (@duckdb/node-api as package-lock.json pins it).
set -euo pipefail
exec bash "$(dirname "$0")/../scripts/install_node_packages.sh" "$(dirname "$0")" @duckdb/node-api bench/setup

#!/usr/bin/env bash
# Installs what the Node host of tests/hosts needs: node and npm (Debian packages, only when
# missing) and tests/hosts/node_modules (better-sqlite3, built from source when no prebuilt
# binary can be downloaded) exactly as package-lock.json pins it.
set -euo pipefail
exec bash "$(dirname "$0")/../../scripts/install_node_packages.sh" "$(dirname "$0")" better-sqlite3 hosts/setup

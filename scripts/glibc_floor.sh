#!/usr/bin/env bash
# Prints the oldest glibc that can load a binary: the highest GLIBC_x.y symbol version it
# references (e.g. "2.34"). Used by `make dist` (the wheel's manylinux tag) and tests/dist.
#   usage: scripts/glibc_floor.sh BINARY
set -euo pipefail
objdump -T "${1:?usage: $0 BINARY}" | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/^GLIBC_//' | sort -V | tail -1

#!/usr/bin/env bash
# The glibc floor of the release binaries (README.md, "Install"): GLIBC_FLOOR below is the
# oldest glibc every Linux binary of `make dist` must load with (RHEL 8, Debian 10, Ubuntu
# 18.10 and later), checked as auditwheel does, from the GLIBC_x.y symbol versions the
# binary references (objdump -T).
#   scripts/glibc_floor.sh BINARY            prints the oldest glibc that can load BINARY:
#                                            its highest GLIBC_ version (e.g. "2.28")
#   scripts/glibc_floor.sh --check BINARY    exits 1, naming each symbol above GLIBC_FLOOR,
#                                            if BINARY needs a newer glibc
#   scripts/glibc_floor.sh --floor           prints GLIBC_FLOOR
# Used by `make dist` (the check, and the wheel's manylinux tag) and tests/dist.
set -euo pipefail
GLIBC_FLOOR=2.28

usage="usage: $0 [--check] BINARY | --floor"
case ${1:?$usage} in
  --floor)
    echo "$GLIBC_FLOOR" ;;
  --check)
    binary=${2:?$usage}
    above=$(objdump -T "$binary" | awk -v floor="$GLIBC_FLOOR" '
      match($0, /GLIBC_[0-9]+\.[0-9]+/) {
        split(substr($0, RSTART + 6, RLENGTH - 6), v, "."); split(floor, f, ".")
        if (v[1] + 0 > f[1] + 0 || (v[1] + 0 == f[1] + 0 && v[2] + 0 > f[2] + 0))
          print "  " $NF "@" substr($0, RSTART, RLENGTH)
      }' | sort -u)
    if [[ -n $above ]]; then
      echo "$binary needs a glibc newer than $GLIBC_FLOOR for:" >&2
      echo "$above" >&2
      exit 1
    fi ;;
  *)
    objdump -T "$1" | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/^GLIBC_//' | sort -V | tail -1 ;;
esac

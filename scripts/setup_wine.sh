#!/usr/bin/env bash
# A wine prefix for the windows suite, made once in DIR (the first start of wine takes a
# minute or more; later runs reuse it). Headless: no display is needed or used.
# Prints nothing on success; the caller exports WINEPREFIX=DIR, WINEDEBUG=-all.
#   usage: scripts/setup_wine.sh DIR
set -euo pipefail
prefix=$(mkdir -p "${1:?usage: $0 DIR}" && cd "$1" && pwd)
command -v wine >/dev/null || { echo "setup_wine: wine missing (Debian packages wine, wine64)" >&2; exit 1; }
[[ -f $prefix/system.reg && -d $prefix/drive_c/windows ]] && exit 0
export WINEPREFIX=$prefix WINEDEBUG=-all WINEARCH=win64 DISPLAY=
# No Mono or Gecko installer prompts: neither is needed by console programs.
export WINEDLLOVERRIDES="mscoree,mshtml="
wineboot --init >"$prefix.log" 2>&1 || { cat "$prefix.log" >&2; echo "setup_wine: wineboot failed" >&2; exit 1; }
wineserver --wait
[[ -f $prefix/system.reg ]] || { echo "setup_wine: no prefix made in $prefix" >&2; exit 1; }

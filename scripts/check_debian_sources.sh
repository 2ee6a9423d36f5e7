#!/usr/bin/env bash
# The fresh-machine check of the builds from source (the `sources` suite, first in `make
# test`): resolves, through scripts/debian_sources.sh, the Debian source package of every
# -dev package that the mingw, `make dist` and wasm builds compile from source, and downloads
# it into the cache those builds then use. One line per package; a package whose source
# cannot be had fails with one line naming the package and the version wanted.
#   usage: scripts/check_debian_sources.sh
set -uo pipefail
source "$(dirname "$0")/debian_sources.sh"
passed=0 failed=0
for package in "${DEBIAN_SOURCE_PACKAGES[@]}"; do
  if ! wanted=$(installed_source "$package"); then
    echo "sources: FAIL $package is not installed (scripts/install_deps.sh dist installs it)"
    failed=$((failed + 1))
    continue
  fi
  if taken=$(resolve_debian_source "$wanted" 2>"${TMPDIR:-/tmp}/check_sources.$$"); then
    note=$(cat "${TMPDIR:-/tmp}/check_sources.$$")
    echo "sources: ok $package: $taken${note:+ ($note)}"
    passed=$((passed + 1))
  else
    echo "sources: FAIL $package: $(tail -n 1 "${TMPDIR:-/tmp}/check_sources.$$")"
    failed=$((failed + 1))
  fi
done
rm -f "${TMPDIR:-/tmp}/check_sources.$$"
echo "$passed passed, $failed failed"
((failed == 0))

#!/usr/bin/env bash
# The `sources` suite: the fresh-machine path of the builds from Debian's source packages.
# First scripts/check_debian_sources.sh (every source the builds need resolves and is
# downloaded into the cache), then the resolver's own rules, against the real archive:
#   - a version the archive does not serve resolves to the newest served version of the same
#     upstream version, and says so (a security update served as binaries only);
#   - a version of an upstream the archive does not serve at all resolves to the newest served;
#   - a source that does not exist fails with one line naming it and the version;
#   - a second resolution reads neither the index nor the archive (the cache answers).
set -uo pipefail
cd "$(dirname "$0")/../.."
passed=0 failed=0
check() {  # check NAME CONDITION-STATUS DETAIL
  if (($2 == 0)); then passed=$((passed + 1)); echo "ok: $1"; else failed=$((failed + 1)); echo "FAIL: $1: $3"; fi
}
out=$(bash scripts/check_debian_sources.sh)
rc=$?
echo "$out" | grep -v 'passed, .* failed'
check "every source the builds need resolves" $rc "$(grep FAIL <<<"$out")"

source scripts/debian_sources.sh
zstd=$(installed_source libzstd-dev)
source=${zstd%%=*} upstream=$(_upstream_of "${zstd#*=}")

taken=$(resolve_debian_source "$source=$upstream-0+pqtest1" 2>/tmp/sources-test.$$); rc=$?
note=$(cat /tmp/sources-test.$$)
[[ $rc == 0 && $(_upstream_of "${taken#*=}") == "$upstream" && $note == *"newest served of upstream version $upstream"* ]]
check "an unserved revision takes the same upstream version ($taken)" $? "rc=$rc taken=$taken note=$note"

taken=$(resolve_debian_source "$source=0.0.1-1" 2>/tmp/sources-test.$$); rc=$?
note=$(cat /tmp/sources-test.$$)
[[ $rc == 0 && -n $taken && $note == *"the newest served at all"* ]]
check "an unserved upstream version takes the newest served ($taken)" $? "rc=$rc note=$note"

msg=$(resolve_debian_source "pq-no-such-source=1.0-1" 2>&1 >/dev/null); rc=$?
[[ $rc != 0 && $(wc -l <<<"$msg") == 1 && $msg == *pq-no-such-source* && $msg == *1.0-1* ]]
check "a source that cannot be had fails with one line naming it" $? "rc=$rc message: $msg"

# The cache answers: with the index unreadable, a resolved version still resolves.
taken2=$(DEBIAN_SOURCE_CACHE=$DEBIAN_SOURCE_CACHE bash -c '
  source scripts/debian_sources.sh
  _debian_source_index() { echo "index read" >&2; return 1; }
  resolve_debian_source "'"$zstd"'"' 2>&1); rc=$?
[[ $rc == 0 && $taken2 != *"index read"* ]]
check "a second resolution reads no index ($taken2)" $? "rc=$rc output=$taken2"
rm -f /tmp/sources-test.$$
echo "$passed passed, $failed failed"
((failed == 0))

#!/usr/bin/env bash
# The layering rules of the tree (docs/architecture.md), checked on the sources:
#  - format/ (the Parquet library) never includes SQLite nor anything of ext/;
#  - format/read/ and format/write/ do not include each other (both sit on the lower layers);
#  - the lower layers (common, metadata, encoding, codec, values) include neither read/,
#    write/ nor io/;
#  - only format/platform/ includes operating-system headers (unistd.h, fcntl.h, sys/*,
#    dirent.h, dlfcn.h, windows.h and the like), and it includes nothing else of format/;
#  - thread_local variables of format/ and ext/ are pointers or scalars, never objects with
#    a destructor (mingw-w64 runs those after the thread's emulated TLS is freed: the crash
#    at the end of parquet_copy's writer thread, format/codec/compression.cc);
#  - every source file of format/ and ext/ opens with a comment saying what it is for;
#  - every relative link and #anchor of README.md and docs/*.md resolves
#    (tests/doc_links_check.py).
# Prints one line per rule and "N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/.."
passed=0 failed=0
check() {  # check DESCRIPTION OFFENDING-LINES
  if [[ -z $2 ]]; then
    echo "ok $1"
    passed=$((passed + 1))
  else
    echo "FAIL $1:"
    echo "$2" | sed 's/^/  /'
    failed=$((failed + 1))
  fi
}
check "format/ never includes sqlite3.h or sqlite3ext.h" \
  "$(grep -rnE '#include *[<"]sqlite3(ext)?\.h' format/ || true)"
check "format/ never includes ext/" "$(grep -rnE '#include *"ext/' format/ || true)"
check "format/read/ does not include format/write/" "$(grep -rnE '#include *"format/write/' format/read/ || true)"
check "format/write/ does not include format/read/" "$(grep -rnE '#include *"format/read/' format/write/ || true)"
for lower in common metadata encoding codec values; do
  check "format/$lower/ includes none of read/, write/, io/" \
    "$(grep -rnE '#include *"format/(read|write|io)/' "format/$lower/" || true)"
done
os_headers='#include *<(unistd|fcntl|dirent|dlfcn|windows|winbase|io|direct|pthread|glob|fnmatch|malloc)\.h>|#include *<sys/'
check "only format/platform/ includes operating-system headers" \
  "$(grep -rnE "$os_headers" format/ ext/ | grep -v '^format/platform/' || true)"
check "format/platform/ includes nothing of format/ but itself" \
  "$(grep -rnE '#include *"format/' format/platform/ | grep -v '"format/platform/' || true)"
check "thread_local variables are pointers or scalars (no destructor at thread exit)" \
  "$(grep -rnE '^\s*(static\s+)?thread_local\b' format/ ext/ |
     grep -vE 'thread_local\s+[^=;]*\*\s*[A-Za-z_][A-Za-z0-9_]*\s*[=;]|thread_local\s+(const\s+)?(bool|int|unsigned|size_t|u?int[0-9]+_t|double)\b' || true)"
check "format/ has no source file outside a layer folder" \
  "$(find format -maxdepth 1 -type f \( -name '*.h' -o -name '*.cc' \) || true)"
check "every source of format/ and ext/ opens with a comment" \
  "$(for f in $(find format ext -name '*.h' -o -name '*.cc'); do head -1 "$f" | grep -q '^//' || echo "$f"; done)"
check "every relative link and #anchor of README.md and docs/*.md resolves" \
  "$(/usr/bin/python3 tests/doc_links_check.py 2>&1)"
echo "$passed passed, $failed failed"
((failed == 0))

#!/usr/bin/env bash
# The wasm suite (docs/tests.md): the WebAssembly build of `make wasm` (WASM_BUILD, default
# build-wasm) tested in Node and in a headless Chromium.
#  1. sql: the sql suite (sql/*.test, but those listed in tests/wasm/sql_skip.txt with their
#     reason) through build-wasm/sql_test_runner.js under Node, the extension linked into
#     the wasm SQLite, the host's files read through emscripten's NODERAWFS; then a
#     differential run (tests/differential, 4 tables of 100 queries) built the same way;
#  2. api: the JavaScript API in Node (tests/wasm/api_test.mjs), remote reads included; the
#     npm package packed and installed from its tarball into a fresh project, then used;
#  3. browser: the demo page in Chromium (tests/wasm/browser_test.mjs): a point lookup over
#     a 100+ MB page-indexed file's URL made by the native build's parquet_copy, a local
#     file through the file input, the export downloaded and read back, a screenshot in
#     LOGDIR; then the same files side by side with DuckDB-Wasm (sizes, times, bytes).
# Each part prints "NAME: N passed, M failed"; the last line totals them.
#   usage: tests/wasm/run.sh NATIVE_BUILD [WASM_BUILD] [LOGDIR]
set -uo pipefail
cd "$(dirname "$0")/../.."
native=${1:?usage: $0 NATIVE_BUILD [WASM_BUILD] [LOGDIR]}
wasm=${2:-${WASM_BUILD:-build-wasm}}
logdir=${3:-$wasm/test-logs}
mkdir -p "$logdir"
passed=0 failed=0
tally() {  # tally LOG: adds the last "N passed, M failed" of LOG (none: one failure)
  local line
  line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$1" | tail -1)
  if [[ $line =~ ([0-9]+)\ passed,\ ([0-9]+)\ failed ]]; then
    passed=$((passed + BASH_REMATCH[1])) failed=$((failed + BASH_REMATCH[2]))
  else
    failed=$((failed + 1))
  fi
}

if [[ ! -f $wasm/sql_test_runner.js || ! -f $wasm/pkg/api.mjs ]]; then
  echo "wasm: $wasm has no build (make wasm failed?)"
  echo "wasm: 0 passed, 1 failed"
  exit 1
fi

# 1. The sql suite under Node.
skip=$(sed -e 's/#.*//' tests/wasm/sql_skip.txt | awk 'NF { print $1 }')
files=()
for file in sql/*.test; do
  grep -qxF "$(basename "$file")" <<<"$skip" || files+=("$file")
done
echo "== sql suite through the wasm build (${#files[@]} files; skipped: $(tr '\n' ' ' <<<"$skip"))"
node "$wasm/sql_test_runner.js" --root . "${files[@]}" 2>&1 | tee "$logdir/wasm-sql.log" | grep -E 'FAILED|failed|^sql:' | tail -40
tally "$logdir/wasm-sql.log"

# 1b. A differential run (fewer tables and queries than the native suite's 12 x 250).
echo "== differential run through the wasm build"
node "$wasm/differential_tests.js" --tables "${WASM_DIFFERENTIAL_TABLES:-4}" --queries "${WASM_DIFFERENTIAL_QUERIES:-100}" 2>&1 |
  tee "$logdir/wasm-differential.log" | grep -E 'FAILED|^differential: seed|passed' | tail -20
tally "$logdir/wasm-differential.log"

# 2. The JavaScript API in Node.
echo "== the JavaScript API in Node"
node tests/wasm/api_test.mjs --pkg "$wasm/pkg" 2>&1 | tee "$logdir/wasm-api.log"
tally "$logdir/wasm-api.log"

# 2b. The npm package as a user installs it: packed, installed from the tarball into a fresh
# project (no registry), imported by name, a parquet_copy read back.
echo "== the npm package installed from its tarball"
(
  set -e
  project=$(mktemp -d)
  trap 'rm -rf "$project"' EXIT
  (cd "$wasm/pkg" && npm pack --silent --pack-destination "$project" >/dev/null)
  cd "$project"
  echo '{"name":"wasm-package-test","private":true,"type":"module"}' >package.json
  npm install --no-audit --no-fund --offline --loglevel=error ./sqlite-parquet-wasm-*.tgz >/dev/null
  cat >t.mjs <<'JS'
import { open } from "sqlite-parquet-wasm";
const db = await open();
db.exec("SELECT parquet_copy('SELECT 1 AS x, ''a'' AS y', 'o.parquet', 'compression=zstd')");
await db.registerFile("b.parquet", db.readFile("o.parquet"));
db.exec("CREATE VIRTUAL TABLE t USING parquet('b.parquet')");
const rows = JSON.stringify(db.query("SELECT * FROM t"));
console.log(rows === '[{"x":1,"y":"a"}]' ? "package: 1 passed, 0 failed" : `package: read back ${rows}; 0 passed, 1 failed`);
JS
  node t.mjs
) 2>&1 | tee "$logdir/wasm-package.log"
tally "$logdir/wasm-package.log"

# 3. The demo page in Chromium, and DuckDB-Wasm beside it.
echo "== the demo page in headless Chromium"
if bash scripts/install_node_packages.sh tests/wasm "puppeteer-core @duckdb/duckdb-wasm" wasm >"$logdir/wasm-npm.log" 2>&1; then
  node tests/wasm/browser_test.mjs --pkg "$wasm/pkg" --native "$native" --logdir "$logdir" 2>&1 |
    tee "$logdir/wasm-browser.log"
  tally "$logdir/wasm-browser.log"
else
  cat "$logdir/wasm-npm.log"
  echo "browser: cannot install puppeteer-core and @duckdb/duckdb-wasm (scripts/install_node_packages.sh)"
  failed=$((failed + 1))
fi
echo "wasm: $passed passed, $failed failed"
((failed == 0))

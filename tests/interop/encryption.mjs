// Encryption interop with DuckDB (@duckdb/node-api): DuckDB reads a file parquet_copy
// encrypts (footer key, AES_GCM_V1, encrypted footer), and the parquet table reads a file
// DuckDB encrypts. Our side runs through build/sql_test_runner on .test files this script
// writes, so the extension is used exactly as in sql/*.test.
//
// DuckDB (1.5.5) supports only this mode: one footer key for everything, AES_GCM_V1. It
// writes no aad_file_unique and no crypto_metadata, authenticates modules without AAD and
// gives compressed_page_size before encryption; the reader accepts these (file_reader.cc,
// column_reader.cc). DuckDB in turn fails on encrypted column chunks of more than one data
// page written by other writers (parquet-mr's corpus files too), so our file here keeps one
// page per chunk.
//
// Usage (from the repository root):
//   bash tests/interop/setup.sh   # once: installs the pinned node packages
//   node tests/interop/encryption.mjs --runner build/sql_test_runner --extension build/parquet
// Ends with "interop: N passed, M failed"; fails when @duckdb/node-api is not installed.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const runner = path.resolve(option('--runner', 'build/sql_test_runner'));
const extension = path.resolve(option('--extension', 'build/parquet'));

let DuckDBInstance;
try {
  ({ DuckDBInstance } = await import('@duckdb/node-api'));
} catch {
  console.log('interop: @duckdb/node-api is not installed (run bash tests/interop/setup.sh)');
  console.log('interop: 0 passed, 1 failed');
  process.exit(1);
}

let passed = 0, failed = 0;
function check(name, ok, detail = '') {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'ok' : 'FAILED'}: ${name}${ok || !detail ? '' : ': ' + detail}`);
}

// Runs a .test file through sql_test_runner; true when it reports no failure.
function runSqlTest(file) {
  try {
    const out = execFileSync(runner, ['--extension', extension, '--root', '.', file], { encoding: 'utf8' });
    return { ok: / 0 failed\s*$/.test(out.trim()), out };
  } catch (e) {
    return { ok: false, out: String(e.stdout ?? '') + String(e.stderr ?? '') };
  }
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'interop_encryption_'));
const key = '0123456789012345';
const rows = 3000;
try {
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  const con = await instance.connect();
  await con.run(`PRAGMA add_parquet_key('k', '${key}')`);

  // 1. We write, DuckDB reads.
  const ours = path.join(dir, 'ours.parquet');
  const writeTest = path.join(dir, 'write.test');
  fs.writeFileSync(writeTest, `statement ok
CREATE TABLE source(id INTEGER, name TEXT, score REAL);
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${rows - 1})
INSERT INTO source SELECT i, 'name-' || (i % 97), i * 0.25 FROM n;

query
SELECT parquet_copy('SELECT * FROM source', '${ours}', 'encryption=aes_gcm', 'footer_key=${key}', 'row_group_size=1000');
----
${rows}
`);
  const written = runSqlTest(writeTest);
  check('parquet_copy writes an encrypted file', written.ok, written.out);
  let duckRows = [];
  try {
    const reader = await con.runAndReadAll(
      `SELECT count(*), sum(id), count(DISTINCT name), sum(score), max(name) FROM read_parquet('${ours}', encryption_config={footer_key: 'k'})`);
    duckRows = reader.getRows()[0].map(String);
  } catch (e) {
    duckRows = [String(e)];
  }
  const expectedSums = [String(rows), String((rows * (rows - 1)) / 2), '97', String((rows * (rows - 1)) / 2 * 0.25), 'name-96'];
  check('DuckDB reads the file we encrypted', JSON.stringify(duckRows) === JSON.stringify(expectedSums),
    `DuckDB gave ${JSON.stringify(duckRows)}, expected ${JSON.stringify(expectedSums)}`);
  try {
    await con.runAndReadAll(`SELECT count(*) FROM read_parquet('${ours}', encryption_config={footer_key: 'k2'})`);
    check('DuckDB without the right key fails', false, 'it read the file');
  } catch {
    check('DuckDB without the right key fails', true);
  }

  // 2. DuckDB writes, we read (DuckDB needs its unsafe flag to write without httpfs).
  const theirs = path.join(dir, 'duckdb.parquet');
  await con.run("SET force_mbedtls_unsafe = 'true'");
  await con.run(`COPY (SELECT range::BIGINT AS id, 'n-' || (range % 13) AS name, range * 0.5 AS score,
                        [range, range + 1] AS pair FROM range(300000))
                 TO '${theirs}' (ENCRYPTION_CONFIG {footer_key: 'k'}, ROW_GROUP_SIZE 100000)`);
  const n = 300000;
  const readTest = path.join(dir, 'read.test');
  fs.writeFileSync(readTest, `statement ok
CREATE VIRTUAL TABLE duck USING parquet('${theirs}', footer_key=${key});

query
SELECT count(*), sum(id), count(DISTINCT name), sum(score), max(name) FROM duck;
SELECT id, name, score, pair FROM duck WHERE id = 123456;
----
${n}|${(n * (n - 1)) / 2}|13|${((n * (n - 1)) / 2 * 0.5).toFixed(1)}|n-9
123456|n-8|61728.0|[123456,123457]

statement error footer fails authentication
CREATE VIRTUAL TABLE duck_wrong USING parquet('${theirs}', footer_key=0123456789012340);
`);
  const read = runSqlTest(readTest);
  check('the parquet table reads the file DuckDB encrypted', read.ok, read.out);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
console.log(`interop: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);

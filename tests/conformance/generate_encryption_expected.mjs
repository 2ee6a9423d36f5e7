// Writes expected/*.tsv for the 13 encrypted files of the corpus (issue 6), which
// generate_expected.mjs skips: DuckDB cannot read most of them (it supports only a footer
// key with AES_GCM_V1), and hyparquet has no decryption.
//
// The values come from the documented generators (../shared/parquet-testing/INDEX.md,
// "Encryption keys, AAD and verification"): the Arrow test generator for the 50-row files
// (the parquet-mr aes256/ files hold the same data), and, for the two parquet-mr files
// without documented values, the patterns read by hand from their decrypted pages:
//   encrypt_columns_and_footer_bloom_filter: 2000 rows, double_field = i + 0.5,
//     float_field = i + 0.25, int32_field = i, name = "name_" + i;
//   external_key_material_java: 100 rows, integers = i, strings = "abcdefghij"[i % 10] + i.
// As an independent check, DuckDB decrypts what it can (PRAGMA add_parquet_key with the
// footer key: the uniform_encryption files) and every cell it gives must equal ours; its
// INT96 values are microseconds, so for int96_field only the microsecond prefix is compared.
//
// Usage: cd tests/conformance && node generate_encryption_expected.mjs
import fs from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

const corpus = process.env.PARQUET_TESTING_DIR ?? path.resolve('../../../shared/parquet-testing');
const outDir = path.resolve('expected');

const tokInt = (v) => 'i:' + BigInt(v).toString();
const tokReal = (x) => (Object.is(x, -0) ? 'r:-0' : 'r:' + String(x));
const tokText = (s) => 't:' + JSON.stringify(s);
const tokBlob = (bytes) => 'b:' + Buffer.from(bytes).toString('hex');
const pad = (n, w) => n.toString().padStart(w, '0');

// Proleptic Gregorian date of a day count since 1970-01-01 (civil-from-days algorithm).
function dateText(days) {
  const floorDiv = (a, b) => (a - (((a % b) + b) % b)) / b;
  const z = days + 719468n;
  const era = floorDiv(z, 146097n);
  const doe = z - era * 146097n;
  const yoe = (doe - doe / 1460n + doe / 36524n - doe / 146096n) / 365n;
  let y = yoe + era * 400n;
  const doy = doe - (365n * yoe + yoe / 4n - yoe / 100n);
  const mp = (5n * doy + 2n) / 153n;
  const d = doy - (153n * mp + 2n) / 5n + 1n;
  const m = mp < 10n ? mp + 3n : mp - 9n;
  if (m <= 2n) y += 1n;
  const year = y < 0n ? '-' + pad(-y, 4) : pad(y, 4);
  return `${year}-${pad(m, 2)}-${pad(d, 2)}`;
}
function timeText(nanos) {
  const frac = nanos % 1000000000n;
  let s = nanos / 1000000000n;
  const hh = s / 3600n; s -= hh * 3600n;
  const mm = s / 60n; s -= mm * 60n;
  let out = `${pad(hh, 2)}:${pad(mm, 2)}:${pad(s, 2)}`;
  if (frac !== 0n) out += '.' + pad(frac, 9).replace(/0+$/, '');
  return out;
}

// The Arrow generator's row i (test_encryption_util.cc FileEncryptor::EncryptFile).
const ARROW_COLUMNS = ['boolean_field', 'int32_field', 'int64_field', 'int96_field', 'float_field',
  'double_field', 'ba_field', 'flba_field'];
function arrowRow(i) {
  const I = BigInt(i);
  const int96Nanos = (I + 1n) * (1n << 32n) + I;  // words {i, i+1}: nanoseconds of the day
  const int96Day = I + 2n;                        // word 2: Julian day
  const baBytes = Buffer.from('parquet' + Math.floor(i / 100) + (Math.floor(i / 10) % 10) + (i % 10));
  return [
    i % 2 === 0 ? 'i:1' : 'i:0',
    tokText(timeText(I * 1000000n)),  // TIME(MILLIS)
    tokText(`[${2n * I * 1000000000000n},${(2n * I + 1n) * 1000000000000n}]`),
    tokText(dateText(int96Day - 2440588n) + ' ' + timeText(int96Nanos)),
    tokReal(Math.fround(Math.fround(i) * Math.fround(1.1))),
    tokReal(i * 1.1111111),
    i % 2 === 0 ? tokBlob(baBytes) : 'NULL',
    tokBlob(Buffer.alloc(10, i)),
  ];
}

const FILES = [
  ...['uniform_encryption', 'encrypt_columns_and_footer', 'encrypt_columns_and_footer_aad',
    'encrypt_columns_and_footer_ctr', 'encrypt_columns_and_footer_disable_aad_storage',
    'encrypt_columns_plaintext_footer'].flatMap((name) => [`data/${name}.parquet.encrypted`]),
  ...['uniform_encryption', 'encrypt_columns_and_footer', 'encrypt_columns_and_footer_ctr',
    'encrypt_columns_and_footer_disable_aad_storage', 'encrypt_columns_plaintext_footer']
    .map((name) => `data/aes256/${name}.parquet.encrypted`),
].map((file) => ({ file, columns: ARROW_COLUMNS, rows: Array.from({ length: 50 }, (_, i) => arrowRow(i)) }));

FILES.push({
  file: 'data/encrypt_columns_and_footer_bloom_filter.parquet.encrypted',
  columns: ['double_field', 'float_field', 'int32_field', 'name'],
  rows: Array.from({ length: 2000 }, (_, i) => [tokReal(i + 0.5), tokReal(i + 0.25), tokInt(i), tokText('name_' + i)]),
});
FILES.push({
  file: 'data/external_key_material_java.parquet.encrypted',
  columns: ['integers', 'strings'],
  rows: Array.from({ length: 100 }, (_, i) => [tokInt(i), tokText('abcdefghij'[i % 10] + i)]),
});

// DuckDB cross-check of the files it can decrypt.
async function duckdbCheck() {
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  const con = await instance.connect();
  const checks = [
    ['data/uniform_encryption.parquet.encrypted', '0123456789012345'],
    ['data/aes256/uniform_encryption.parquet.encrypted', '01234567890123456789012345678901'],
  ];
  let cells = 0;
  for (const [file, key] of checks) {
    await con.run(`PRAGMA add_parquet_key('k${key.length}', '${key}')`);
    const reader = await con.runAndReadAll(
      `SELECT boolean_field, epoch_ms(int32_field)::BIGINT AS t, int96_field::VARCHAR AS ts, float_field, double_field, ba_field, flba_field
       FROM read_parquet('${path.join(corpus, file)}', encryption_config={footer_key: 'k${key.length}'}, file_row_number=true)
       ORDER BY file_row_number`);
    const expected = FILES.find((f) => f.file === file).rows;
    reader.getRows().forEach((row, i) => {
      const [b, t, ts, f, d, ba, flba] = row;
      const ours = expected[i];
      const theirs = [b ? 'i:1' : 'i:0', tokText(timeText(BigInt(t) * 1000000n)), null, null, tokReal(f), tokReal(d),
        ba === null ? 'NULL' : tokBlob(ba.bytes), tokBlob(flba.bytes)];
      theirs.forEach((token, c) => {
        if (token === null) return;
        cells++;
        if (token !== ours[c]) throw new Error(`${file} row ${i} ${ARROW_COLUMNS[c]}: DuckDB ${token}, documented ${ours[c]}`);
      });
      // DuckDB gives INT96 as microseconds, e.g. "4714-12-06 (BC) 00:00:47.24464": compare at that precision.
      const m = /^(\d+)-(\d\d-\d\d)( \(BC\))? (\d\d:\d\d:\d\d)(?:\.(\d+))?$/.exec(String(ts));
      if (!m) throw new Error(`${file} row ${i} int96_field: unexpected DuckDB text ${ts}`);
      const year = m[3] ? '-' + pad(BigInt(m[1]) - 1n, 4) : m[1];
      const duckText = `${year}-${m[2]} ${m[4]}.${(m[5] ?? '').padEnd(6, '0')}`;
      const ourText = JSON.parse(ours[3].slice(2));
      if (!(ourText + '.000000').startsWith(duckText) && !ourText.padEnd(26, '0').startsWith(duckText)) {
        throw new Error(`${file} row ${i} int96_field: DuckDB ${ts}, documented ${ours[3]}`);
      }
      cells++;
    });
    if (reader.getRows().length !== expected.length) throw new Error(`${file}: DuckDB row count differs`);
  }
  return cells;
}

const cells = await duckdbCheck();
for (const { file, columns, rows } of FILES) {
  const name = file.replaceAll('/', '__') + '.tsv';
  const lines = [`# file: ${file}`, `# columns: ${columns.join('\t')}`, `# rows: ${rows.length}`, ...rows.map((r) => r.join('\t'))];
  fs.writeFileSync(path.join(outDir, name), lines.join('\n') + '\n');
}
console.log(`wrote ${FILES.length} expected files; DuckDB agreed on ${cells} cells`);

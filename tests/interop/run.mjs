// Interop suite of `make test`: files written by parquet_copy (through our extension in the
// sqlite3 shell) are read back by DuckDB (@duckdb/node-api), arrow-rs (parquet-wasm, via
// apache-arrow's IPC reader) and hyparquet, and each must give exactly the values the rows
// were made from; our own reader (the parquet table) is checked the same way, and DuckDB's
// parquet_metadata() statistics (min, max, null_count) against the values it read. Then
// GEOMETRY both ways (checkGeometry): DuckDB reads our GEOMETRY with the same WKB and our
// bounding boxes, we read DuckDB's (GEOPARQUET_VERSION V1, V2, BOTH) and prune by them.
// And VARIANT (checkVariant): DuckDB reads our VARIANT columns with the same JSON values;
// shredded (checkVariantShredding) too, and hyparquet and parquet-wasm read them.
//
// Usage: node tests/interop/run.mjs [--build DIR] [--sqlite3 PATH] [--keep DIR] [--only NAME,...]
// One check per file and engine (plus the statistics and bloom filter checks per file);
// the last line is "N passed, M failed" and the exit status is non-zero on any failure.
//
// The rows (ROWS of them, from a fixed seed) cover every type parquet_copy writes: signed
// and unsigned integers of each width, FLOAT, DOUBLE, FLOAT16, BOOLEAN, STRING, BINARY,
// FIXED, DECIMAL as INT32, INT64 and FIXED, DATE, TIME and TIMESTAMP in each unit, UUID,
// JSON, ENUM, LIST, MAP, STRUCT and a list of structs holding a list; every column but `id`
// has NULLs. Each variant (VARIANTS) writes the same rows with other options: every codec,
// each encoding, data page v1 and v2, dictionary on and off (and falling back), small pages
// and row groups, statistics, page index, bloom filters and CRCs on and off, content-defined
// page cuts with verify=1. Then (--only datasets): a partitioned dataset written with
// rollover, filename_pattern={uuid}, return_stats=1 and verify=1, then appended to
// (append=1), is read by all three engines and checked against the reports; and our
// parquet_bloom_probe is compared row group by row group with DuckDB's on a file DuckDB wrote.
//
// Where an engine's value type cannot hold the exact value the comparison says so in
// `lossyNumber` below: hyparquet returns decimals as JS numbers (the value computed from
// the unscaled integer is compared to the expected value within a relative 1e-15), and our
// parquet table gives UINT64 values beyond 2^63 as REAL (compared to the nearest double).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');

function parseArgs(argv) {
  const args = { build: 'build', sqlite3: 'sqlite3', keep: null, only: null };
  for (let i = 2; i < argv.length; i++) {
    const flag = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${flag} needs a value`);
      return argv[++i];
    };
    if (flag === '--build') args.build = value();
    else if (flag === '--sqlite3') args.sqlite3 = value();
    else if (flag === '--keep') args.keep = value();
    else if (flag === '--only') args.only = value().split(',');
    else throw new Error(`unknown argument ${flag}`);
  }
  return args;
}

// ---------------------------------------------------------------------------------------
// The rows.

const ROWS = 2500;

// xorshift32: the same rows on every machine.
function makeRandom(seed) {
  let state = seed >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state;
  };
  return {
    int: (n) => next() % n,
    big: (bits) => {
      let v = 0n;
      for (let b = 0; b < bits; b += 16) v = (v << 16n) | BigInt(next() & 0xffff);
      return v & ((1n << BigInt(bits)) - 1n);
    },
  };
}

const pad = (n, width) => String(n).padStart(width, '0');
const hex = (bytes) => Buffer.from(bytes).toString('hex').toUpperCase();

function dateText(days) {
  return new Date(days * 86400000).toISOString().slice(0, 10);
}
function timeText(micros) {
  const s = Math.floor(micros / 1e6);
  return `${pad(Math.floor(s / 3600), 2)}:${pad(Math.floor(s / 60) % 60, 2)}:${pad(s % 60, 2)}.${pad(micros % 1e6, 6)}`;
}
// Timestamp text with `digits` fraction digits from a BigInt count of 10^-digits seconds.
function timestampText(ticks, digits) {
  const per = 10n ** BigInt(digits);
  let seconds = ticks / per;
  let fraction = ticks % per;
  if (fraction < 0n) {
    fraction += per;
    seconds -= 1n;
  }
  const iso = new Date(Number(seconds) * 1000).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}.${pad(fraction, digits)}`;
}
function decimalText(unscaled, scale) {
  const negative = unscaled < 0n;
  const digits = (negative ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
  return `${negative ? '-' : ''}${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
}
// Exactly representable in FLOAT16.
const FLOAT16_VALUES = [0, 1, -2.5, 0.0999755859375, 65504, -0.00006103515625, 3.140625, 1000.5];

// Column name, Parquet type for schema=, the value kind compared, and a generator giving
// the row's value in its canonical form (see canonical()) and as an SQL literal.
const COLUMNS = [
  { name: 'id', type: 'INT64', kind: 'int', gen: (i) => ({ v: String(i * 3), sql: String(i * 3) }) },
  { name: 'i8', type: 'INT8', kind: 'int', gen: (i, r) => int(r.int(256) - 128) },
  { name: 'i16', type: 'INT16', kind: 'int', gen: (i, r) => int(r.int(65536) - 32768) },
  { name: 'i32', type: 'INT32', kind: 'int', gen: (i, r) => int((i % 50) * 1000 - 20000 + r.int(3)) },
  { name: 'i64', type: 'INT64', kind: 'int', gen: (i, r) => bigint(r.big(63) - (1n << 62n)) },
  { name: 'u8', type: 'UINT8', kind: 'int', gen: (i, r) => int(r.int(256)) },
  { name: 'u16', type: 'UINT16', kind: 'int', gen: (i, r) => int(r.int(65536)) },
  { name: 'u32', type: 'UINT32', kind: 'int', gen: (i, r) => int(i % 97 === 1 ? 4294967295 : r.int(4294967296)) },
  {
    name: 'u64', type: 'UINT64', kind: 'int',
    // Beyond 2^63 SQLite has no INTEGER: the REAL 2^64 stands for 2^64-1.
    gen: (i, r) => (i % 101 === 5 ? { v: '18446744073709551615', sql: '18446744073709551616.0' } : bigint(r.big(62))),
  },
  { name: 'f32', type: 'FLOAT', kind: 'float', gen: (i, r) => real((r.int(20001) - 10000) / 8) },
  { name: 'f64', type: 'DOUBLE', kind: 'float', gen: (i, r) => real((r.int(2000001) - 1000000) / 64) },
  { name: 'f16', type: 'FLOAT16', kind: 'float', gen: (i, r) => real(FLOAT16_VALUES[r.int(FLOAT16_VALUES.length)]) },
  { name: 'flag', type: 'BOOLEAN', kind: 'bool', gen: (i, r) => ({ v: r.int(3) === 0 ? 'true' : 'false', sql: null }) },
  {
    name: 's', type: 'STRING', kind: 'str',
    gen: (i, r) => text(['', 'a', 'naïve café', '日本語テキスト', 'emoji 🎉', "it's", 'x'.repeat(100)][r.int(7)] + (r.int(4) ? String(r.int(500)) : '')),
  },
  { name: 'bin', type: 'BINARY', kind: 'bytes', gen: (i, r) => bytes(Array.from({ length: r.int(12) }, () => r.int(256))) },
  { name: 'fx', type: 'FIXED(4)', kind: 'bytes', gen: (i, r) => bytes([r.int(256), r.int(256), 0, r.int(4)]) },
  { name: 'dec9', type: 'DECIMAL(9,2)', kind: 'dec', gen: (i, r) => dec(BigInt(r.int(200000001)) - 100000000n, 2) },
  { name: 'dec18', type: 'DECIMAL(18,4)', kind: 'dec', gen: (i, r) => dec(r.big(59) - (1n << 58n), 4) },
  { name: 'dec30', type: 'DECIMAL(30,5)', kind: 'dec', gen: (i, r) => dec(r.big(96) - (1n << 95n), 5) },
  { name: 'd', type: 'DATE', kind: 'date', gen: (i, r) => { const days = 8035 + r.int(20000) - 6000; return { v: dateText(days), sql: q(dateText(days)) }; } },
  { name: 't', type: 'TIME(MICROS)', kind: 'time', gen: (i, r) => { const us = r.int(86400) * 1e6 + r.int(1e6); return { v: String(us), sql: q(timeText(us)) }; } },
  { name: 't_ms', type: 'TIME(MILLIS)', kind: 'time', gen: (i, r) => { const us = r.int(86400) * 1e6 + r.int(1000) * 1000; return { v: String(us), sql: q(timeText(us)) }; } },
  { name: 'ts', type: 'TIMESTAMP(MICROS)', kind: 'ts', gen: (i, r) => ts(BigInt(r.int(2000000000)) * 1000000n + BigInt(r.int(1000000)) - 500000000000000n, 6) },
  { name: 'ts_ms', type: 'TIMESTAMP(MILLIS, UTC)', kind: 'ts', gen: (i, r) => ts(BigInt(r.int(2000000000)) * 1000n + BigInt(r.int(1000)), 3) },
  { name: 'ts_ns', type: 'TIMESTAMP(NANOS)', kind: 'ts', gen: (i, r) => ts(BigInt(r.int(2000000000)) * 1000000000n + BigInt(r.int(1000000000)), 9) },
  {
    name: 'u', type: 'UUID', kind: 'uuid',
    gen: (i, r) => {
      const h = Array.from({ length: 16 }, () => pad(r.int(256).toString(16), 2)).join('');
      const v = `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
      return { v, sql: q(r.int(2) ? v.toUpperCase() : v) };
    },
  },
  { name: 'j', type: 'JSON', kind: 'json', gen: (i, r) => json(r.int(2) ? { k: r.int(100), s: 'v' + r.int(9), a: [1, null, true] } : [r.int(10), 'x']) },
  { name: 'e', type: 'ENUM', kind: 'str', gen: (i, r) => text(['RED', 'GREEN', 'BLUE'][r.int(3)]) },
  { name: 'l', type: 'LIST<INT64>', kind: 'nested', gen: (i, r) => json(Array.from({ length: r.int(5) }, () => (r.int(9) ? r.int(1000) - 500 : null))) },
  {
    name: 'm', type: 'MAP<STRING, INT64>', kind: 'nested',
    gen: (i, r) => {
      const map = {};
      for (let k = r.int(4); k > 0; k--) map['k' + r.int(20)] = r.int(8) ? r.int(100000) : null;
      return json(map);
    },
  },
  { name: 'st', type: 'STRUCT<a INT32, b STRING>', kind: 'nested', gen: (i, r) => json({ a: r.int(5) ? r.int(1000) : null, b: r.int(5) ? 'b' + r.int(50) : null }) },
  {
    name: 'deep', type: 'LIST<STRUCT<x DOUBLE, tags LIST<STRING>>>', kind: 'nested',
    gen: (i, r) => json(Array.from({ length: r.int(3) }, () => ({ x: r.int(7) ? (r.int(2001) - 1000) / 4 : null, tags: r.int(6) ? Array.from({ length: r.int(3) }, () => 't' + r.int(30)) : null }))),
  },
];

function q(s) {
  return `'${s.replace(/'/g, "''")}'`;
}
function int(n) {
  return { v: String(n), sql: String(n) };
}
function bigint(n) {
  return { v: n.toString(), sql: n.toString() };
}
function real(x) {
  return { v: String(x), sql: Number.isInteger(x) ? `${x}.0` : String(x) };
}
function text(s) {
  return { v: s, sql: q(s) };
}
function bytes(array) {
  return { v: hex(array), sql: `X'${hex(array)}'` };
}
function dec(unscaled, scale) {
  const t = decimalText(unscaled, scale);
  return { v: t, sql: q(t) };
}
function ts(ticks, digits) {
  return { v: ticks.toString(), sql: q(timestampText(ticks, digits)) };
}
function json(value) {
  return { v: canonicalJson(value), sql: q(JSON.stringify(value)) };
}

// Nested values and JSON as one text: object keys sorted, BigInt as numbers.
function canonicalJson(value) {
  const sortKeys = (v) => {
    if (typeof v === 'bigint') return Number(v);
    if (Array.isArray(v)) return v.map(sortKeys);
    if (v && typeof v === 'object') {
      const out = {};
      for (const key of Object.keys(v).sort()) out[key] = sortKeys(v[key]);
      return out;
    }
    return v;
  };
  return JSON.stringify(sortKeys(value));
}

function makeRows() {
  const rows = [];
  COLUMNS.forEach((column, c) => {
    const random = makeRandom(1000 + c * 7919);
    for (let i = 0; i < ROWS; i++) {
      rows[i] ??= [];
      let cell = column.gen(i, random);
      if (column.name === 'flag') cell.sql = cell.v === 'true' ? '1' : '0';
      // NULLs in every column but id, in runs and scattered (a few rows of every page).
      if (column.name !== 'id' && ((i + c) % 7 === 3 || (i >= 1000 + c * 10 && i < 1040 + c * 10))) cell = { v: null, sql: 'NULL' };
      rows[i][c] = cell;
    }
  });
  return rows;
}

// ---------------------------------------------------------------------------------------
// The files.

const SCHEMA = 'schema=' + COLUMNS.map((c) => `${c.name} ${c.type}`).join(', ');
const INT_COLUMNS = ['id', 'i8', 'i16', 'i32', 'i64', 'u8', 'u16', 'u32', 'u64', 'dec9', 'dec18', 'd', 't', 't_ms', 'ts', 'ts_ms', 'ts_ns'];
const each = (columns, encoding) => columns.map((c) => `encoding.${c}=${encoding}`);

const VARIANTS = [
  { name: 'default', options: [] },
  { name: 'uncompressed_v2', options: ['compression=uncompressed', 'data_page_version=2'] },
  { name: 'gzip', options: ['compression=gzip', 'compression_level=9'] },
  { name: 'brotli', options: ['compression=brotli'] },
  { name: 'zstd_v2', options: ['compression=zstd', 'data_page_version=2'] },
  { name: 'lz4_raw', options: ['compression=lz4_raw'] },
  { name: 'plain_small_pages', options: ['dictionary=0', 'automatic_encoding=0', 'page_size=1024', 'row_group_size=700'] },
  {
    name: 'delta_v2',
    options: ['dictionary=0', 'data_page_version=2', ...each(INT_COLUMNS, 'delta_binary_packed'), 'encoding.s=delta_length_byte_array',
      'encoding.bin=delta_length_byte_array', 'encoding.j=delta_byte_array', 'encoding.e=delta_byte_array', 'encoding.flag=rle', 'page_size=4096'],
  },
  {
    name: 'split_and_prefix',
    options: ['compression=zstd', 'dictionary=0', ...each(['f32', 'f64'], 'byte_stream_split'),
      ...each(['s', 'bin', 'fx', 'u', 'dec30'], 'delta_byte_array'), 'encoding.dec18=delta_binary_packed'],
  },
  {
    // BYTE_STREAM_SPLIT of integers and fixed-length values (format 2.11).
    name: 'split_integers_fixed',
    options: ['dictionary=0', ...each(['i32', 'i64', 'u64', 'f16', 'fx', 'dec30', 'u', 'ts', 'd'], 'byte_stream_split')],
    unsupported: { duckdb: 'DuckDB 1.5 reads BYTE_STREAM_SPLIT only for FLOAT and DOUBLE' },
  },
  { name: 'dictionary_fallback', options: ['dictionary_size_limit=2000', 'page_size=2048', 'automatic_encoding=0', 'row_group_size=1200'] },
  { name: 'dictionary_everywhere', options: ['automatic_encoding=0', ...each(['id', 'i64', 'f64', 'bin', 'fx', 'dec30', 'u', 'ts'], 'dictionary')] },
  {
    name: 'bloom_and_footer',
    options: ['bloom_filter=*', 'bloom_fpp=0.001', 'sorting_columns=id', 'kv_metadata=origin=interop;suite=1', 'field_ids=auto', 'statistics_truncate_length=8'],
  },
  { name: 'no_stats_crc_index', options: ['statistics=0', 'write_crc=0', 'write_page_index=0', 'data_page_version=2'] },
  // Content-defined page cuts (small chunks: many pages), each file read back and checked before it is published.
  { name: 'cdc_verified', options: ['cdc=1', 'cdc_min_chunk_size=2048', 'cdc_max_chunk_size=8192', 'verify=1', 'bloom_filter=*'] },
  {
    name: 'per_column_codecs',
    options: ['compression=zstd', 'compression.s=gzip', 'compression.bin=uncompressed', 'compression.deep=brotli', 'compression.f64=lz4_raw',
      'compression.j=snappy', 'compression_level.s=1'],
  },
];

function sqlite(args, input) {
  return execFileSync(args.sqlite3, ['-batch', '-bail', ...(input.db ? [input.db] : [':memory:'])], {
    input: input.sql,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

function writeFiles(args, dir, rows, variants) {
  const db = path.join(dir, 'source.db');
  fs.rmSync(db, { force: true });
  const extension = path.resolve(root, args.build, 'parquet');
  const lines = [`.load '${extension}'`, `CREATE TABLE src(${COLUMNS.map((c) => c.name).join(', ')});`, 'BEGIN;'];
  for (const row of rows) lines.push(`INSERT INTO src VALUES (${row.map((cell) => cell.sql).join(', ')});`);
  lines.push('COMMIT;');
  for (const variant of variants) {
    const file = path.join(dir, `${variant.name}.parquet`);
    const options = [SCHEMA, ...variant.options].map(q).join(', ');
    lines.push(`SELECT 'copied', parquet_copy('SELECT * FROM src ORDER BY rowid', ${q(file)}, ${options});`);
  }
  const out = sqlite(args, { db, sql: lines.join('\n') + '\n' });
  const copied = out.split('\n').filter((l) => l.startsWith('copied|'));
  if (copied.length !== variants.length || copied.some((l) => l !== `copied|${ROWS}`)) {
    throw new Error(`parquet_copy did not write ${ROWS} rows to every file:\n${out}`);
  }
  return db;
}

// ---------------------------------------------------------------------------------------
// Readers: each returns, per column, ROWS values normalised to the canonical text of the
// column's kind (null for NULL).

function normaliseNumber(x) {
  return String(Number(x));
}

// Our own reader: the parquet table in the sqlite3 shell, one JSON row per file row.
function readOurs(args, db, file) {
  const extension = path.resolve(root, args.build, 'parquet');
  const selects = COLUMNS.map((c) => {
    switch (c.kind) {
      case 'int': return `CASE typeof(${c.name}) WHEN 'real' THEN printf('%!.17g', ${c.name}) ELSE CAST(${c.name} AS TEXT) END`;
      case 'float': return `CASE WHEN ${c.name} IS NOT NULL THEN printf('%!.17g', ${c.name}) END`;
      case 'bool': return `CASE ${c.name} WHEN 1 THEN 'true' WHEN 0 THEN 'false' END`;
      case 'bytes': return `CASE WHEN ${c.name} IS NOT NULL THEN hex(${c.name}) END`;
      case 'ts': return `${c.name}`;
      default: return c.name;
    }
  });
  // Timestamps as integers in their own unit; everything else as text.
  const sql = [`.load '${extension}'`, '.mode json',
    `CREATE VIRTUAL TABLE temp.t USING parquet(${q(file)}, decimal_as=text);`,
    `CREATE VIRTUAL TABLE temp.t_us USING parquet(${q(file)}, timestamp_as=unixepoch_us);`,
    `SELECT ${selects.map((s, i) => `${s} AS c${i}`).join(', ')}, (SELECT ts_ms FROM temp.t_us WHERE t_us.rowid = t.rowid) AS ts_ms_us, ` +
      `(SELECT ts FROM temp.t_us WHERE t_us.rowid = t.rowid) AS ts_us, ts_ns AS ts_ns_text FROM temp.t ORDER BY rowid;`].join('\n') + '\n';
  const out = sqlite(args, { db: null, sql });
  const rows = out.trim() ? JSON.parse(out) : [];
  return COLUMNS.map((c, ci) => rows.map((row) => {
    let v = row[`c${ci}`];
    if (c.name === 'ts') v = row.ts_us;
    if (c.name === 'ts_ms') v = row.ts_ms_us === null ? null : BigInt(row.ts_ms_us) / 1000n;
    if (c.name === 'ts_ns') v = row.ts_ns_text === null ? null : nanosFromText(row.ts_ns_text);
    if (v === null || v === undefined) return null;
    // The parquet table gives UINT64 values beyond INT64's range as REAL.
    if (c.type === 'UINT64' && /[.e]/.test(v)) return { lossyNumber: Number(v) };
    switch (c.kind) {
      case 'time': {
        const [h, m, sec] = v.split(':');
        const [whole, fraction = ''] = sec.split('.');
        return String(((BigInt(h) * 60n + BigInt(m)) * 60n + BigInt(whole)) * 1000000n + BigInt(fraction.padEnd(6, '0').slice(0, 6)));
      }
      case 'float': return normaliseNumber(v);
      case 'uuid': return String(v).toLowerCase();
      case 'json':
      case 'nested': return canonicalJson(JSON.parse(v));
      default: return String(v);
    }
  }));
}

// 'YYYY-MM-DD HH:MM:SS.fffffffff' to nanoseconds since the epoch.
function nanosFromText(textValue) {
  const [date, time] = textValue.split(' ');
  const [hms, fraction = ''] = time.split('.');
  const seconds = BigInt(Date.parse(`${date}T${hms}Z`) / 1000);
  return (seconds * 1000000000n + BigInt(fraction.padEnd(9, '0'))).toString();
}

async function readDuckDB(duck, file) {
  const selects = COLUMNS.map((c) => {
    const n = `"${c.name}"`;
    switch (c.kind) {
      case 'int': return `CAST(${n} AS VARCHAR)`;
      case 'float': return `CAST(${n} AS DOUBLE)`;
      case 'bool': return `CAST(${n} AS VARCHAR)`;
      case 'bytes': return `hex(${n})`;
      case 'dec': return `CAST(${n} AS VARCHAR)`;
      case 'date': return `strftime(${n}, '%Y-%m-%d')`;
      case 'time': return `CAST((extract(hour FROM ${n}) * 3600 + extract(minute FROM ${n}) * 60) * 1000000 + extract(microsecond FROM ${n}) AS VARCHAR)`;
      case 'ts': return c.name === 'ts_ns' ? `CAST(epoch_ns(${n}) AS VARCHAR)` : c.name === 'ts_ms' ? `CAST(epoch_ms(${n}) AS VARCHAR)` : `CAST(epoch_us(${n}) AS VARCHAR)`;
      case 'uuid': return `CAST(${n} AS VARCHAR)`;
      case 'json': return `CAST(${n} AS VARCHAR)`;
      case 'nested': return `CAST(to_json(${n}) AS VARCHAR)`;
      default: return n;
    }
  });
  const reader = await duck.runAndReadAll(
    `SELECT ${selects.join(', ')} FROM read_parquet('${file}', file_row_number = true) ORDER BY file_row_number`);
  const rows = reader.getRows();
  return COLUMNS.map((c, ci) => rows.map((row) => {
    const v = row[ci];
    if (v === null) return null;
    if (c.kind === 'float') return normaliseNumber(v);
    if (c.kind === 'ts' && c.name === 'ts_ms') return String(v);
    if (c.kind === 'json' || c.kind === 'nested') return canonicalJson(JSON.parse(v));
    return String(v);
  }));
}

const HYPARQUET_PARSERS = {
  timestampFromMilliseconds: (v) => v,
  timestampFromMicroseconds: (v) => v,
  timestampFromNanoseconds: (v) => v,
  dateFromDays: (days) => dateText(days),
  uuidFromBytes: (b) => {
    const h = Buffer.from(b).toString('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  },
  jsonFromBytes: (b) => new TextDecoder().decode(b),
};

async function readHyparquet(hyparquet, compressors, bytes) {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const rows = await hyparquet.parquetReadObjects({ file: buffer, compressors, parsers: HYPARQUET_PARSERS, utf8: false });
  return COLUMNS.map((c) => rows.map((row) => {
    const v = row[c.name];
    if (v === null || v === undefined) return null;
    switch (c.kind) {
      case 'int': return String(v);
      case 'float': return normaliseNumber(v);
      case 'bool': return v ? 'true' : 'false';
      case 'str': return typeof v === 'string' ? v : new TextDecoder().decode(v);
      case 'bytes': return hex(v);
      case 'dec': return { lossyNumber: Number(v), tolerance: 1e-15 };
      case 'time': return c.name === 't_ms' ? String(BigInt(v) * 1000n) : String(v);
      case 'ts': return String(v);
      case 'json': return canonicalJson(JSON.parse(v));
      case 'nested': return canonicalJson(withStructFields(c.name, decodeNested(v)));
      default: return String(v);
    }
  }));
}

// hyparquet leaves NULL struct fields out of its objects: put them back as null.
function withStructFields(name, v) {
  const fill = (object, fields) => {
    if (object === null || typeof object !== 'object') return object;
    const out = { ...object };
    for (const field of fields) out[field] ??= null;
    return out;
  };
  if (name === 'st') return fill(v, ['a', 'b']);
  if (name === 'deep' && Array.isArray(v)) return v.map((e) => fill(e, ['x', 'tags']));
  return v;
}

// hyparquet with utf8 off gives nested strings as bytes.
function decodeNested(v) {
  if (v instanceof Uint8Array) return new TextDecoder().decode(v);
  if (Array.isArray(v)) return v.map(decodeNested);
  if (v && typeof v === 'object') {
    const out = {};
    for (const [k, x] of Object.entries(v)) out[k] = decodeNested(x);
    return out;
  }
  return v;
}

// parquet-wasm reads into Arrow (arrow-rs); apache-arrow reads its IPC stream. Values that
// apache-arrow's getters would round (64-bit timestamps, decimals) come from the raw buffers.
async function readArrow(wasm, arrow, bytes) {
  const table = arrow.tableFromIPC(wasm.readParquet(bytes).intoIPCStream());
  if (table.numRows !== ROWS) throw new Error(`arrow: ${table.numRows} rows`);
  return COLUMNS.map((c) => {
    const vector = table.getChild(c.name);
    if (!vector) throw new Error(`arrow: no column ${c.name}`);
    const out = [];
    for (const data of vector.data) {
      for (let i = 0; i < data.length; i++) out.push(arrowValue(arrow, c, data, i));
    }
    return out;
  });
}

function rawBigInt(data, i) {
  return data.values[data.offset + i];
}

function arrowValue(arrow, c, data, i) {
  if (!data.getValid(i)) return null;
  const { Type } = arrow;
  const type = data.type;
  const index = data.offset + i;
  switch (c.kind) {
    case 'int':
      if (type.typeId === Type.Decimal) throw new Error('decimal where an integer was expected');
      return String(data.values[index]);
    case 'float': {
      if (type.typeId === Type.Float && type.precision === arrow.Precision.HALF) return normaliseNumber(arrow.util.uint16ToFloat64(data.values[index]));
      return normaliseNumber(data.values[index]);
    }
    case 'bool': return (data.values[index >> 3] >> (index & 7)) & 1 ? 'true' : 'false';
    case 'str': {
      const bytesOf = arrowBytes(data, index);
      return new TextDecoder().decode(bytesOf);
    }
    case 'bytes': return hex(arrowBytes(data, index));
    case 'dec': {
      const words = type.bitWidth / 32;
      let v = 0n;
      for (let w = words - 1; w >= 0; w--) v = (v << 32n) | BigInt(data.values[index * words + w] >>> 0);
      v = BigInt.asIntN(type.bitWidth, v);
      return decimalText(v, type.scale);
    }
    case 'date': {
      const days = type.unit === arrow.DateUnit.DAY ? data.values[index] : Number(data.values[index]) / 86400000;
      return dateText(days);
    }
    case 'time': {
      const raw = BigInt(data.values[index]);
      const factor = { [arrow.TimeUnit.SECOND]: 1000000n, [arrow.TimeUnit.MILLISECOND]: 1000n, [arrow.TimeUnit.MICROSECOND]: 1n };
      if (type.unit === arrow.TimeUnit.NANOSECOND) return String(raw / 1000n);
      return String(raw * factor[type.unit]);
    }
    case 'ts': return String(rawBigInt(data, i));
    case 'uuid': {
      const h = Buffer.from(arrowBytes(data, index)).toString('hex');
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    }
    case 'json': return canonicalJson(JSON.parse(new TextDecoder().decode(arrowBytes(data, index))));
    case 'nested': {
      const vector = arrow.makeVector(data);
      return canonicalJson(toPlain(vector.get(i)));
    }
    default: throw new Error(`arrow: no reader for kind ${c.kind}`);
  }
}

function arrowBytes(data, index) {
  if (data.valueOffsets) {
    const start = Number(data.valueOffsets[index]);
    const end = Number(data.valueOffsets[index + 1]);
    return data.values.subarray(start, end);
  }
  const width = data.type.byteWidth;
  return data.values.subarray(index * width, (index + 1) * width);
}

// apache-arrow nested values (Vector, StructRow, MapRow) as plain JS values.
function toPlain(v) {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v !== 'object') return v;
  if (v instanceof Map || (typeof v.entries === 'function' && v[Symbol.toStringTag] === 'MapRow')) {
    const out = {};
    for (const [k, x] of v) out[k] = toPlain(x);
    return out;
  }
  if (typeof v.toArray === 'function' && typeof v.length === 'number') return Array.from(v, toPlain);
  if (typeof v.toJSON === 'function') {
    const json = v.toJSON();
    if (Array.isArray(json)) return json.map(toPlain);
    const out = {};
    for (const [k, x] of Object.entries(json)) out[k] = toPlain(x);
    return out;
  }
  if (Array.isArray(v)) return v.map(toPlain);
  const out = {};
  for (const [k, x] of Object.entries(v)) out[k] = toPlain(x);
  return out;
}

// ---------------------------------------------------------------------------------------
// Checks.

function compare(expected, actual) {
  const problems = [];
  COLUMNS.forEach((c, ci) => {
    const got = actual[ci];
    if (got.length !== ROWS) {
      problems.push(`${c.name}: ${got.length} values, expected ${ROWS}`);
      return;
    }
    let shown = 0, bad = 0;
    for (let r = 0; r < ROWS; r++) {
      const want = expected[r][ci].v;
      let g = got[r];
      let ok;
      if (g && typeof g === 'object' && 'lossyNumber' in g) {
        // The nearest double to the expected value.
        ok = want !== null && Math.abs(g.lossyNumber - Number(want)) <= Math.abs(Number(want)) * (g.tolerance ?? 0);
        g = String(g.lossyNumber);
      } else {
        ok = want === g;
      }
      if (!ok) {
        bad++;
        if (shown++ < 2) problems.push(`${c.name} row ${r}: expected ${JSON.stringify(want)}, got ${JSON.stringify(g)}`);
      }
    }
    if (bad > 2) problems.push(`${c.name}: ${bad} values differ`);
  });
  return problems;
}

// DuckDB's parquet_metadata(): every column chunk's min, max and null_count against the
// values DuckDB reads from that row group (min/max as DuckDB prints them).
async function checkStatistics(duck, file, variant) {
  const problems = [];
  const meta = (await duck.runAndReadAll(
    `SELECT row_group_id, row_group_num_rows, path_in_schema, stats_min_value, stats_max_value, stats_null_count
       FROM parquet_metadata('${file}') ORDER BY row_group_id, column_id`)).getRowObjectsJS();
  const withStats = !variant.options.includes('statistics=0');
  // The row groups' first rows, then every flat column's min, max and NULL count per row group.
  const groups = [];
  for (const m of meta) {
    if (groups.length === 0 || groups.at(-1).id !== m.row_group_id) {
      const first = groups.length ? groups.at(-1).first + groups.at(-1).rows : 0;
      groups.push({ id: m.row_group_id, first, rows: Number(m.row_group_num_rows) });
    }
  }
  const flat = COLUMNS.filter((c) => c.kind !== 'nested');
  const aggregates = flat.map((c) => `CAST(min(p."${c.name}") AS VARCHAR), CAST(max(p."${c.name}") AS VARCHAR), count(*) - count(p."${c.name}")`);
  const ranges = groups.map((g) => `(${g.id}, ${g.first}, ${g.first + g.rows})`).join(', ');
  const read = (await duck.runAndReadAll(
    `SELECT g.group_id, ${aggregates.join(', ')} FROM read_parquet('${file}', file_row_number = true) p
       JOIN (VALUES ${ranges}) g(group_id, first_row, end_row) ON p.file_row_number >= g.first_row AND p.file_row_number < g.end_row
      GROUP BY g.group_id`)).getRows();
  const actualOf = new Map(read.map((row) => [Number(row[0]), row]));
  let checked = 0;
  for (const m of meta) {
    const ci = flat.findIndex((c) => c.name === m.path_in_schema);
    if (ci < 0) continue;  // nested leaves: null counts count slots, not rows
    const column = flat[ci];
    if (!withStats) {
      if (m.stats_null_count !== null || m.stats_min_value !== null) problems.push(`${column.name}: statistics written with statistics=0`);
      continue;
    }
    const row = actualOf.get(Number(m.row_group_id));
    const actual = [row[1 + ci * 3], row[2 + ci * 3], row[3 + ci * 3]];
    if (Number(m.stats_null_count) !== Number(actual[2])) problems.push(`rg ${m.row_group_id} ${column.name}: null_count ${m.stats_null_count}, counted ${actual[2]}`);
    // FLOAT16 has no order: no min/max.
    if (column.type === 'FLOAT16') {
      if (m.stats_min_value !== null) problems.push(`${column.name}: min/max written for FLOAT16`);
      continue;
    }
    // Truncated bounds (statistics_truncate_length) are a prefix (min) or a larger value (max).
    const truncated = variant.options.includes('statistics_truncate_length=8') && ['s', 'bin', 'j'].includes(column.name);
    const same = (stat, value, side) => {
      if (stat === null || value === null) return stat === value;
      if (truncated && stat !== value) {
        // DuckDB prints BLOB bytes outside printable ASCII as \xHH.
        const raw = (t) => (column.kind === 'bytes' ? unescapeBlob(t) : Buffer.from(String(t)));
        const a = raw(stat), b = raw(value);
        return side === 'min' ? b.subarray(0, a.length).equals(a) && a.length <= 8 : Buffer.compare(a, b) > 0 && a.length <= 8;
      }
      if (column.kind === 'float') return Number(stat) === Number(value);
      return String(stat) === String(value);
    };
    if (!same(m.stats_min_value, actual[0], 'min')) problems.push(`rg ${m.row_group_id} ${column.name}: min ${JSON.stringify(m.stats_min_value)}, read ${JSON.stringify(actual[0])}`);
    if (!same(m.stats_max_value, actual[1], 'max')) problems.push(`rg ${m.row_group_id} ${column.name}: max ${JSON.stringify(m.stats_max_value)}, read ${JSON.stringify(actual[1])}`);
    checked++;
  }
  if (withStats && checked === 0) problems.push('no statistics found');
  return problems;
}

function unescapeBlob(t) {
  const bytes = [];
  for (let i = 0; i < t.length; i++) {
    if (t[i] === '\\' && t[i + 1] === 'x') {
      bytes.push(parseInt(t.slice(i + 2, i + 4), 16));
      i += 3;
    } else {
      bytes.push(t.charCodeAt(i));
    }
  }
  return Buffer.from(bytes);
}

// hyparquet reading with the page index (ColumnIndex to skip pages, OffsetIndex to find
// them) and a filter on the sorted id column: exactly the rows in range come back.
async function checkPageIndex(hyparquet, compressors, bytes, rows) {
  const problems = [];
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  for (const [low, high] of [[300, 330], [4500, 6000], [7000, 7001]]) {
    const got = await hyparquet.parquetReadObjects({
      file: buffer, compressors, columns: ['id', 's'], filter: { id: { $gte: BigInt(low), $lt: BigInt(high) } },
      usePageIndex: true, useOffsetIndex: true, utf8: false,
    });
    const want = rows.filter((r) => Number(r[0].v) >= low && Number(r[0].v) < high);
    const gotIds = got.map((r) => String(r.id)).join(',');
    const wantIds = want.map((r) => r[0].v).join(',');
    if (gotIds !== wantIds) problems.push(`id in [${low}, ${high}): got ${got.length} rows (${gotIds.slice(0, 60)}), expected ${want.length}`);
    const gotText = got.map((r) => (r.s === null || r.s === undefined ? null : typeof r.s === 'string' ? r.s : new TextDecoder().decode(r.s)));
    const sIndex = COLUMNS.findIndex((c) => c.name === 's');
    if (JSON.stringify(gotText) !== JSON.stringify(want.map((r) => r[sIndex].v))) problems.push(`id in [${low}, ${high}): column s differs`);
  }
  return problems;
}

// DuckDB's parquet_bloom_probe: every value present passes its row group's filter; most
// absent ones are excluded.
async function checkBloomFilters(duck, file) {
  const problems = [];
  for (const column of ['id', 's', 'i64', 'd']) {
    const present = (await duck.runAndReadAll(
      `SELECT DISTINCT CAST("${column}" AS VARCHAR) FROM read_parquet('${file}') WHERE "${column}" IS NOT NULL LIMIT 40`)).getRows().map((r) => r[0]);
    for (const value of present) {
      const rows = (await duck.runAndReadAll(`SELECT bloom_filter_excludes FROM parquet_bloom_probe('${file}', '${column}', '${value.replace(/'/g, "''")}')`)).getRows();
      const excluded = rows.filter((r) => r[0] === true).length;
      // A value lives in one row group; the probe may exclude the others, never all.
      if (excluded === rows.length) problems.push(`${column}: present value ${JSON.stringify(value)} excluded by every bloom filter`);
    }
  }
  const absent = (await duck.runAndReadAll(`SELECT bool_and(bloom_filter_excludes) FROM parquet_bloom_probe('${file}', 'id', '1')`)).getRows()[0][0];
  if (absent !== true) problems.push('id = 1 (absent: ids are multiples of 3) is not excluded by the bloom filter');
  return problems;
}

// ---------------------------------------------------------------------------------------
// Directory outputs: rollover (row_groups_per_file, file_size_bytes, filename_pattern with
// {uuid}) with partition_by, return_stats=1 and verify=1, then append=1; DuckDB, hyparquet
// and parquet-wasm read every file, and the report agrees with what they read.

async function checkDatasets(args, dir, db, duck, hyparquet, compressors, wasm, arrow) {
  const problems = [];
  const extension = path.resolve(root, args.build, 'parquet');
  const target = path.join(dir, 'dataset');
  const query = 'SELECT (id / 3) % 3 AS part, id, i64, s, d, f64 FROM src';
  const copy = (where, options) => `SELECT parquet_copy('${query}${where}', ${q(target)}, ${options.map(q).join(', ')});`;
  const out = sqlite(args, {
    db,
    sql: [`.load '${extension}'`, '.mode list',
      copy(' WHERE id < 6000', ['partition_by=part', 'row_groups_per_file=2', 'row_group_size=150', 'filename_pattern=data-{uuid}',
        'return_stats=1', 'verify=1', 'schema=d DATE']),
      copy(' WHERE id >= 6000', ['partition_by=part', 'file_size_bytes=3000', 'row_group_size=100', 'append=1', 'return_stats=1',
        'verify=1', 'schema=d DATE']),
      'SELECT count(*), sum(id) FROM src;'].join('\n') + '\n',
  }).trim().split('\n');
  const reports = [JSON.parse(out[0]), JSON.parse(out[1])].flat();
  const [expectedCount, expectedSum] = out[2].split('|').map(Number);
  const files = fs.readdirSync(target, { recursive: true }).filter((f) => f.endsWith('.parquet')).map((f) => path.join(target, f)).sort();
  if (files.length !== reports.length) problems.push(`${files.length} files on disk, ${reports.length} in the reports`);
  if (!reports.some((r) => /data-[0-9a-f-]{36}\.parquet$/.test(r.filename))) problems.push('no file named by filename_pattern=data-{uuid}');
  const duckRows = (await duck.runAndReadAll(
    `SELECT count(*), sum(id), count(DISTINCT part) FROM read_parquet('${target}/**/*.parquet', hive_partitioning = true)`)).getRows()[0];
  if (Number(duckRows[0]) !== expectedCount || Number(duckRows[1]) !== expectedSum || Number(duckRows[2]) !== 3) {
    problems.push(`duckdb read ${duckRows.join('|')} from the dataset, expected ${expectedCount}|${expectedSum}|3`);
  }
  for (const report of reports) {
    const file = report.filename;
    const name = path.relative(target, file);
    const bytes = new Uint8Array(fs.readFileSync(file));
    if (bytes.length !== report.file_size_bytes) problems.push(`${name}: report says ${report.file_size_bytes} bytes, the file has ${bytes.length}`);
    const duckCount = Number((await duck.runAndReadAll(`SELECT count(*) FROM read_parquet('${file}')`)).getRows()[0][0]);
    const meta = (await duck.runAndReadAll(`SELECT num_row_groups FROM parquet_file_metadata('${file}')`)).getRows()[0];
    const hyRows = (await hyparquet.parquetReadObjects({ file: bytes.buffer, compressors })).length;
    const table = arrow.tableFromIPC(wasm.readParquet(bytes).intoIPCStream());
    const part = name.split('/')[0];
    for (const [engine, rows] of [['duckdb', duckCount], ['hyparquet', hyRows], ['parquet-wasm', table.numRows]]) {
      if (rows !== report.rows) problems.push(`${name}: ${engine} read ${rows} rows, the report says ${report.rows}`);
    }
    if (Number(meta[0]) !== report.row_groups) problems.push(`${name}: duckdb counts ${meta[0]} row groups, the report ${report.row_groups}`);
    if (`part=${report.partition_keys.part}` !== part) problems.push(`${name}: partition_keys ${JSON.stringify(report.partition_keys)}`);
    const [min, max] = (await duck.runAndReadAll(`SELECT min(id), max(id) FROM read_parquet('${file}')`)).getRows()[0].map(Number);
    if (report.columns.id.min !== min || report.columns.id.max !== max) {
      problems.push(`${name}: the report's id bounds ${report.columns.id.min}..${report.columns.id.max}, duckdb ${min}..${max}`);
    }
  }
  return problems;
}

// parquet_bloom_probe against DuckDB's on a file DuckDB wrote: per row group, the same
// verdict where the chunk has a filter (ours NULL where DuckDB says false: no filter).
async function checkBloomProbeAgainstDuckDB(args, dir, duck) {
  const problems = [];
  const file = path.join(dir, 'duckdb_bloom.parquet');
  await duck.run(`COPY (SELECT (i * 7) % 2000 AS k, ((i * 7) % 2000)::INTEGER AS k32, 'key-' || ((i * 13) % 1500) AS t,
                               ((i * 11) % 900) * 0.25 AS r FROM range(0, 40000) AS x(i))
                  TO '${file}' (FORMAT parquet, ROW_GROUP_SIZE 10000)`);
  const probes = [['k', ['0', '7', '1999', '2000', '-1', '123456']], ['k32', ['14', '2001', '5']],
    ['t', ['key-0', 'key-1499', 'key-1500', 'nope']], ['r', ['0.25', '224.75', '225.0', '0.3']]];
  const extension = path.resolve(root, args.build, 'parquet');
  let compared = 0;
  for (const [column, values] of probes) {
    for (const value of values) {
      const duckRows = (await duck.runAndReadAll(
        `SELECT row_group_id, bloom_filter_excludes FROM parquet_bloom_probe('${file}', '${column}', '${value}') ORDER BY 1`)).getRows();
      const literal = column === 't' ? q(value) : value;
      const ours = sqlite(args, { db: null, sql: `.load '${extension}'\n.mode list\n.nullvalue NULL\n` +
        `SELECT row_group_id, bloom_filter_excludes FROM parquet_bloom_probe(${q(file)}, '${column}', ${literal}) ORDER BY 1;\n` })
        .trim().split('\n').map((l) => l.split('|'));
      if (ours.length !== duckRows.length) {
        problems.push(`${column} = ${value}: ${ours.length} row groups here, ${duckRows.length} in DuckDB`);
        continue;
      }
      for (let g = 0; g < ours.length; g++) {
        const duckExcludes = duckRows[g][1] === true;
        const oursExcludes = ours[g][1];
        if (oursExcludes === 'NULL' ? duckExcludes : (oursExcludes === '1') !== duckExcludes) {
          problems.push(`${column} = ${value}, row group ${g}: ours ${oursExcludes}, DuckDB ${duckExcludes}`);
        }
        compared += oursExcludes !== 'NULL';
      }
    }
  }
  if (compared === 0) problems.push('no row group of the DuckDB file has a bloom filter: nothing was compared');
  return problems;
}

// ---------------------------------------------------------------------------------------
// GEOMETRY both ways. Our file (parquet_copy geometry=g, row groups of 40) read by DuckDB
// as GEOMETRY: the same WKB (ST_AsWKB; little-endian ISO input, as DuckDB writes it back)
// and, in its parquet_metadata, the same geo_bbox and geo_types per row group as ours.
// DuckDB's files (GEOPARQUET_VERSION V1: plain WKB + geo, V2: native GEOMETRY) read by us:
// the same WKB, and parquet_bbox_intersects pushed into our table gives the rows whose
// envelope (computed here) meets the box.

const GEO_ROWS = 5000;
const GEO_TYPE_NAMES = ['', 'point', 'linestring', 'polygon', 'multipoint', 'multilinestring', 'multipolygon', 'geometrycollection'];

function makeGeometries() {
  const rnd = makeRandom(4242);
  const rows = [];
  for (let i = 0; i < GEO_ROWS; i++) {
    if (rnd.int(20) === 0) {
      rows.push({ id: i, wkb: null });
      continue;
    }
    const parts = [];
    const env = { xmin: Infinity, ymin: Infinity, xmax: -Infinity, ymax: -Infinity, zmin: Infinity, zmax: -Infinity };
    const u32 = (v) => { const b = Buffer.alloc(4); b.writeUInt32LE(v); parts.push(b); };
    const f64 = (v) => { const b = Buffer.alloc(8); b.writeDoubleLE(v); parts.push(b); };
    const point = (z) => {
      const x = i * 0.25 + (rnd.int(41) - 20) / 8, y = (rnd.int(801) - 400) / 16;
      f64(x); f64(y);
      env.xmin = Math.min(env.xmin, x); env.xmax = Math.max(env.xmax, x);
      env.ymin = Math.min(env.ymin, y); env.ymax = Math.max(env.ymax, y);
      if (z) { const zv = rnd.int(100); f64(zv); env.zmin = Math.min(env.zmin, zv); env.zmax = Math.max(env.zmax, zv); }
    };
    const kind = rnd.int(6);
    let code;
    parts.push(Buffer.from([1]));
    if (kind === 0 || kind === 1) {
      code = kind === 0 ? 1 : 1001;
      u32(code); point(kind === 1);
    } else if (kind === 2) {
      code = 2;
      const n = rnd.int(4);  // 0: the empty LineString
      u32(code); u32(n);
      for (let k = 0; k < n; k++) point(false);
    } else if (kind === 3) {
      code = 3;
      u32(code); u32(1); u32(4);
      for (let k = 0; k < 3; k++) point(false);
      // closed ring: repeat the first point
      const first = parts.slice(parts.length - 6, parts.length - 4);
      parts.push(...first);
    } else if (kind === 4) {
      code = 4;
      const n = 1 + rnd.int(3);
      u32(code); u32(n);
      for (let k = 0; k < n; k++) { parts.push(Buffer.from([1])); u32(1); point(false); }
    } else {
      code = 7;
      u32(code); u32(1);
      parts.push(Buffer.from([1])); u32(2); u32(2); point(false); point(false);
    }
    rows.push({ id: i, wkb: Buffer.concat(parts), code, env: Number.isFinite(env.xmin) ? env : null });
  }
  return rows;
}

const sameNumber = (a, b) => (a === null || a === undefined ? null : Number(a)) === (b === null || b === undefined ? null : Number(b));

async function checkGeometry(args, duck, dir, report) {
  const rows = makeGeometries();
  const db = path.join(dir, 'geo.db');
  fs.rmSync(db, { force: true });
  const ours = path.join(dir, 'geo_ours.parquet');
  const extension = path.resolve(root, args.build, 'parquet');
  const lines = [`.load '${extension}'`, 'CREATE TABLE geo(id INTEGER, g BLOB);', 'BEGIN;'];
  for (const r of rows) lines.push(`INSERT INTO geo VALUES (${r.id}, ${r.wkb ? `X'${hex(r.wkb)}'` : 'NULL'});`);
  lines.push('COMMIT;');
  lines.push(`SELECT parquet_copy('SELECT * FROM geo ORDER BY id', ${q(ours)}, 'geometry=g', 'row_group_size=400');`);
  lines.push(`SELECT row_group_id, geo_bbox, geo_types FROM parquet_metadata(${q(ours)}) WHERE path_in_schema = 'g' ORDER BY row_group_id;`);
  const out = sqlite(args, { db, sql: lines.join('\n') + '\n' }).trim().split('\n');
  const ourStats = out.slice(1).map((l) => l.split('|'));

  // DuckDB reads ours.
  let problems = [];
  const read = (await duck.runAndReadAll(
    `SELECT id, typeof(g) AS t, hex(ST_AsWKB(g)) AS w FROM read_parquet('${ours}') ORDER BY id`)).getRowObjectsJS();
  if (read.length !== rows.length) problems.push(`${read.length} rows, expected ${rows.length}`);
  for (let i = 0; i < Math.min(read.length, rows.length); i++) {
    const expected = rows[i].wkb ? hex(rows[i].wkb) : null;
    if (read[i].t !== 'GEOMETRY') problems.push(`row ${i}: DuckDB type ${read[i].t}`);
    if ((read[i].w ?? null) !== expected) problems.push(`row ${i}: DuckDB WKB ${read[i].w} expected ${expected}`);
  }
  report('geometry duckdb-reads-ours', problems);

  problems = [];
  const meta = (await duck.runAndReadAll(
    `SELECT row_group_id, geo_bbox, geo_types FROM parquet_metadata('${ours}') WHERE path_in_schema = 'g' ORDER BY row_group_id`)).getRowObjectsJS();
  if (meta.length !== ourStats.length) problems.push(`${meta.length} row groups in DuckDB, ${ourStats.length} in ours`);
  for (let g = 0; g < Math.min(meta.length, ourStats.length); g++) {
    const box = ourStats[g][1] ? JSON.parse(ourStats[g][1]) : null;
    const codes = ourStats[g][2] ? JSON.parse(ourStats[g][2]) : null;
    const duckBox = meta[g].geo_bbox;
    for (const k of ['xmin', 'xmax', 'ymin', 'ymax', 'zmin', 'zmax', 'mmin', 'mmax']) {
      if (!sameNumber(box?.[k], duckBox?.[k])) problems.push(`row group ${g}: ${k} ours ${box?.[k]} DuckDB ${duckBox?.[k]}`);
    }
    const names = (codes ?? []).map((c) => GEO_TYPE_NAMES[c % 1000] + (c >= 1000 ? '_z' : ''));
    const duckNames = [...(meta[g].geo_types ?? [])];
    if (JSON.stringify(names.sort()) !== JSON.stringify(duckNames.sort())) {
      problems.push(`row group ${g}: types ours ${names} DuckDB ${duckNames}`);
    }
  }
  report('geometry duckdb-geo-bbox', problems);

  // Ours reads DuckDB's, and prunes by its boxes.
  const boxes = [[10, -10, 20, 10], [50, 0, 51, 30], [-5, -30, 0, 30], [1000, 0, 1001, 1]];
  for (const version of ['V1', 'V2', 'BOTH']) {
    problems = [];
    const file = path.join(dir, `geo_duckdb_${version}.parquet`);
    await duck.run(`CREATE OR REPLACE TABLE geo_src AS SELECT * FROM read_parquet('${ours}')`);
    await duck.run(`COPY (SELECT id, g FROM geo_src ORDER BY id) TO '${file}' (FORMAT parquet, GEOPARQUET_VERSION '${version}', ROW_GROUP_SIZE 2048)`);
    const sql = [`.load '${extension}'`, `CREATE VIRTUAL TABLE d USING parquet(${q(file)});`,
      `SELECT id, hex(g) FROM d ORDER BY id;`];
    for (const b of boxes) {
      sql.push(`SELECT 'box', group_concat(id) FROM (SELECT id FROM d WHERE parquet_bbox_intersects(g, '[${b.join(', ')}]') ORDER BY id);`);
      sql.push(`SELECT 'pruned', json_extract(parquet_scan_stats('d'), '$.row_groups_pruned_by_statistics');`);
    }
    const lines2 = sqlite(args, { sql: sql.join('\n') + '\n' }).trim().split('\n');
    const data = lines2.filter((l) => !l.startsWith('box|') && !l.startsWith('pruned|'));
    const pruned = lines2.filter((l) => l.startsWith('pruned|')).reduce((sum, l) => sum + Number(l.slice(7)), 0);
    // V1 stores plain WKB without GeospatialStatistics (and DuckDB writes no covering column).
    if (version !== 'V1' && pruned === 0) problems.push('no row group of DuckDB\'s file was pruned by its geo_bbox');
    if (data.length !== rows.length) problems.push(`${data.length} rows, expected ${rows.length}`);
    for (let i = 0; i < Math.min(data.length, rows.length); i++) {
      const [id, w] = data[i].split('|');
      const expected = rows[i].wkb ? hex(rows[i].wkb) : '';
      if (Number(id) !== rows[i].id || w !== expected) problems.push(`row ${i}: ${data[i]} expected ${rows[i].id}|${expected}`);
    }
    const answers = lines2.filter((l) => l.startsWith('box|')).map((l) => l.slice(4));
    boxes.forEach((b, k) => {
      const expected = rows.filter((r) => r.env && r.env.xmin <= b[2] && r.env.xmax >= b[0] && r.env.ymin <= b[3] && r.env.ymax >= b[1])
        .map((r) => r.id).join(',');
      if (answers[k] !== expected) problems.push(`box ${b}: ours ${answers[k]} expected ${expected}`);
    });
    report(`geometry ours-reads-duckdb-${version}`, problems);
  }
}

// VARIANT: JSON documents of every JSON type, nested objects and arrays (parquet_copy
// variant=doc) read by DuckDB as VARIANT with the same values (compared as parsed JSON).
function makeJsonDocuments() {
  const rnd = makeRandom(777);
  const leaf = () => {
    switch (rnd.int(9)) {
      case 0: return null;
      case 1: return rnd.int(2) === 1;
      case 2: return rnd.int(256) - 128;
      case 3: return rnd.int(70000) - 35000;
      case 4: return (rnd.int(1 << 30) - (1 << 29)) * 1000;
      case 5: return (rnd.int(2000001) - 1000000) / 64;
      case 6: return 'short ' + rnd.int(1000);
      case 7: return 'a longer string '.repeat(1 + rnd.int(8)) + 'é"\\';
      default: return '';
    }
  };
  const value = (depth) => {
    const k = depth > 3 ? 0 : rnd.int(4);
    if (k === 1) return Array.from({ length: rnd.int(5) }, () => value(depth + 1));
    if (k === 2) {
      const o = {};
      for (let i = rnd.int(5); i > 0; i--) o[`key${rnd.int(20)}`] = value(depth + 1);
      return o;
    }
    return leaf();
  };
  return Array.from({ length: 300 }, (_, id) => ({ id, doc: rnd.int(15) === 0 ? null : JSON.stringify(value(0)) }));
}

function sortedJson(v) {
  if (Array.isArray(v)) return `[${v.map(sortedJson).join(',')}]`;
  if (v && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${sortedJson(v[k])}`).join(',')}}`;
  return JSON.stringify(v);
}

// The sqlite3 shell lines that load the extension and fill table docs(id, doc).
function docsTableLines(args, docs) {
  const lines = [`.load '${path.resolve(root, args.build, 'parquet')}'`, 'CREATE TABLE docs(id INTEGER, doc TEXT);', 'BEGIN;'];
  for (const d of docs) lines.push(`INSERT INTO docs VALUES (${d.id}, ${d.doc === null ? 'NULL' : q(d.doc)});`);
  lines.push('COMMIT;');
  return lines;
}

// DuckDB reads `file`'s VARIANT column doc as the documents' values: each row's JSON, put
// through `normal`, as the document's.
async function compareDuckDBVariant(duck, file, docs, normal) {
  const problems = [];
  const read = (await duck.runAndReadAll(
    `SELECT id, typeof(doc) AS t, CAST(doc AS JSON)::VARCHAR AS j FROM read_parquet('${file}') ORDER BY id`)).getRowObjectsJS();
  if (read.length !== docs.length) problems.push(`${read.length} rows, expected ${docs.length}`);
  for (let i = 0; i < Math.min(read.length, docs.length); i++) {
    if (read[i].t !== 'VARIANT') problems.push(`row ${i}: DuckDB type ${read[i].t}`);
    // DuckDB 1.5.6 does not tell SQL NULL from a top-level variant null (both are IS NULL
    // and cast to the JSON 'null'): both count as null here.
    const expected = docs[i].doc === null || docs[i].doc === 'null' ? null : normal(docs[i].doc);
    const actual = read[i].j === null || read[i].j === 'null' ? null : normal(read[i].j);
    if (expected !== actual) problems.push(`row ${i}: DuckDB ${JSON.stringify(read[i].j)} expected ${JSON.stringify(docs[i].doc)}`);
  }
  return problems;
}

async function checkVariant(args, duck, dir, report) {
  const docs = makeJsonDocuments();
  const file = path.join(dir, 'variant.parquet');
  const lines = docsTableLines(args, docs);
  lines.push(`SELECT parquet_copy('SELECT * FROM docs ORDER BY id', ${q(file)}, 'variant=doc', 'row_group_size=100');`);
  sqlite(args, { sql: lines.join('\n') + '\n' });
  report('variant duckdb-reads-ours', await compareDuckDBVariant(duck, file, docs, (text) => sortedJson(JSON.parse(text))));
}

// VARIANT shredding: JSON objects with a field of every type JSON gives a variant (int8,
// int16, int32, int64, double, decimal4/8/16, short and long strings, booleans, nulls),
// nested objects and arrays, and values that do not fit the shredding (another type,
// missing fields, extra fields, non-objects, NULL), written unshredded, with an explicit
// shredding and with shredding=auto. DuckDB reads every shredded file with the values of
// the documents (numbers compared by exact value: its decimals and doubles print in their
// own forms); our parquet table reads each shredded file exactly as the unshredded one;
// hyparquet (which rebuilds shredded variants) reads the same values (numbers as doubles)
// but for its one gap (withoutNestedLeftovers);
// parquet-wasm (arrow-rs 0.8.0, no variant support) opens the file and sees the
// metadata/value/typed_value struct.
const SHREDDING_SPEC = 'doc:{i8:TINYINT,i16:SMALLINT,i32:INTEGER,i64:BIGINT,dbl:DOUBLE,dec4:DECIMAL(9,2),' +
  'dec8:DECIMAL(18,4),dec16:DECIMAL(38,6),str:VARCHAR,long:VARCHAR,flag:BOOLEAN,nul:BIGINT,tags:VARCHAR[],' +
  'nested:{a:BIGINT,b:[{c:VARCHAR}],d:{e:DECIMAL(9,2)}}}';

function makeShreddingDocuments() {
  const rnd = makeRandom(4242);
  const digits = (n) => Array.from({ length: n }, (_, i) => String(i === 0 ? 1 + rnd.int(9) : rnd.int(10))).join('');
  const sign = () => (rnd.int(3) === 0 ? '-' : '');
  const str = () => JSON.stringify(['', 'a', 'short text', 'é"\\\n', 'ünïcødé'][rnd.int(5)] + rnd.int(100));
  const fields = {
    i8: () => String(rnd.int(256) - 128),
    i16: () => String(rnd.int(60000) - 30000),
    i32: () => String((rnd.int(1 << 30) - (1 << 29)) * 3),
    i64: () => sign() + digits(12 + rnd.int(7)),
    dbl: () => `${sign()}${rnd.int(100000)}e${rnd.int(9) - 6}`,
    dec4: () => `${sign()}${rnd.int(1000000)}.${digits(2)}`,
    dec8: () => `${sign()}${digits(10)}.${digits(4)}`,
    dec16: () => `${sign()}${digits(25)}.${digits(6)}`,
    str,
    long: () => JSON.stringify('a longer string '.repeat(5 + rnd.int(5)) + rnd.int(1000)),
    flag: () => (rnd.int(2) ? 'true' : 'false'),
    nul: () => 'null',
    tags: () => `[${Array.from({ length: rnd.int(4) }, () => (rnd.int(8) === 0 ? ['null', '7', '{"t":1}'][rnd.int(3)] : str())).join(',')}]`,
    nested: () => `{"a":${rnd.int(1000)},"b":[${Array.from({ length: rnd.int(3) }, () => (rnd.int(6) ? `{"c":${str()}}` : `{"c":1,"x":2}`)).join(',')}],"d":{"e":${rnd.int(10000)}.${digits(2)}}${rnd.int(5) ? '' : ',"z":[1]'}}`,
  };
  const misfit = () => ['"oops"', '{"o":1}', '[1,2]', 'null', '1.5', '12345678901234567890123', 'true', '2.5e3'][rnd.int(8)];
  return Array.from({ length: 400 }, (_, id) => {
    const k = rnd.int(25);
    if (k === 0) return { id, doc: null };
    if (k === 1) return { id, doc: JSON.stringify(`not an object ${id}`) };
    if (k === 2) return { id, doc: '[1,"two",3.25,null]' };
    if (k === 3) return { id, doc: 'null' };
    if (k === 4) return { id, doc: '{}' };
    const members = [];
    for (const [name, make] of Object.entries(fields)) {
      const r = rnd.int(20);
      if (r === 0) continue;  // missing
      members.push(`"${name}":${r === 1 ? misfit() : make()}`);
    }
    if (rnd.int(4) === 0) members.push(`"extra${rnd.int(3)}":${fields.str()}`);
    return { id, doc: `{${members.join(',')}}` };
  });
}

// A number's exact value in one form: digits without leading or trailing zeros, and the
// power of ten ("-12.50" and "-1.25e1" both "-125e-1").
function canonicalNumber(text) {
  const [, minus, whole, fraction = '', exponent = '0'] = text.match(/^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/);
  let mantissa = (whole + fraction).replace(/^0+/, '');
  if (mantissa === '') return '0';
  let power = Number(exponent) - fraction.length;
  const zeros = mantissa.match(/0*$/)[0].length;
  mantissa = mantissa.slice(0, mantissa.length - zeros);
  power += zeros;
  return `${minus}${mantissa}e${power}`;
}

// JSON text with every number replaced by its exact value (as a string), members sorted.
function exactJson(text) {
  const marked = text.replace(/"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g,
    (m) => (m[0] === '"' ? m : JSON.stringify(`#${canonicalNumber(m)}`)));
  return sortedJson(JSON.parse(marked));
}

// Two JS values equal, numbers (and bigints) as doubles within a relative 1e-15.
function sameLoosely(a, b) {
  if (typeof a === 'bigint') a = Number(a);
  if (typeof b === 'bigint') b = Number(b);
  if (typeof a === 'number' && typeof b === 'number') return a === b || Math.abs(a - b) <= 1e-15 * Math.max(Math.abs(a), Math.abs(b));
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => sameLoosely(x, b[i]));
  if (a && typeof a === 'object') {
    if (!b || typeof b !== 'object' || Array.isArray(b)) return false;
    const ka = Object.keys(a).sort(), kb = Object.keys(b).sort();
    return ka.join('\u0000') === kb.join('\u0000') && ka.every((k) => sameLoosely(a[k], b[k]));
  }
  return a === b;
}

// hyparquet 1.31.5 rebuilds shredded variants but drops the leftover fields (`value`) of a
// partially shredded object below the top level: the documents' `nested.z` and the `x` of
// `nested.b`'s elements (DuckDB and our reader keep them). What it is expected to return.
function withoutNestedLeftovers(doc) {
  const nested = doc?.nested;
  if (nested && typeof nested === 'object' && !Array.isArray(nested)) {
    delete nested.z;
    if (Array.isArray(nested.b)) {
      for (const e of nested.b) if (e && typeof e === 'object' && !Array.isArray(e) && 'c' in e) delete e.x;
    }
  }
  return doc;
}

// DuckDB's parquet_metadata shows, per row group (150 rows), the statistics of the flat
// typed_value columns: min and max of the values of the field's type, and the rest as nulls.
async function checkShreddedStatistics(duck, file, docs) {
  const ranges = { i8: 8, i16: 16, i32: 32, i64: 64 };
  const problems = [];
  const meta = (await duck.runAndReadAll(
    `SELECT row_group_id, path_in_schema, stats_min_value, stats_max_value, stats_null_count FROM parquet_metadata('${file}')`)).getRowObjectsJS();
  for (const field of ['i8', 'i16', 'i32', 'i64', 'str', 'flag']) {
    for (let group = 0; group * 150 < docs.length; group++) {
      const rows = docs.slice(group * 150, (group + 1) * 150);
      const fitting = [];
      for (const d of rows) {
        // Integers as "#digits" strings (exact beyond 2^53).
        const marked = d.doc?.replace(/"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g, (m) => (/^-?\d+$/.test(m) ? `"#${m}"` : m));
        const value = d.doc === null ? undefined : JSON.parse(marked)?.[field];
        if (value === undefined) continue;
        if (field === 'str') {
          if (typeof value === 'string' && !value.startsWith('#')) fitting.push(value);
        } else if (field === 'flag') {
          if (typeof value === 'boolean') fitting.push(value);
        } else {
          const text = typeof value === 'string' && value.startsWith('#') ? value.slice(1) : null;
          const bits = BigInt(ranges[field] - 1);
          if (text !== null && BigInt(text) >= -(1n << bits) && BigInt(text) < (1n << bits)) fitting.push(BigInt(text));
        }
      }
      const sorted = [...fitting].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const show = (v) => (v === undefined ? null : String(v));
      const expected = `${show(sorted[0])}|${show(sorted.at(-1))}|${rows.length - fitting.length}`;
      const entry = meta.find((m) => Number(m.row_group_id) === group && m.path_in_schema === `doc, typed_value, ${field}, typed_value`);
      const actual = entry ? `${entry.stats_min_value}|${entry.stats_max_value}|${entry.stats_null_count}` : 'no column';
      if (actual !== expected) problems.push(`${field} row group ${group}: ${actual} expected ${expected}`);
    }
  }
  return problems;
}

async function checkVariantShredding(args, duck, dir, report, hyparquet, compressors, wasm, arrow) {
  const docs = makeShreddingDocuments();
  const files = { plain: [], explicit: [`shredding=${SHREDDING_SPEC}`], auto: ['shredding=auto'] };
  const lines = docsTableLines(args, docs);
  for (const [name, options] of Object.entries(files)) {
    const file = path.join(dir, `shredded-${name}.parquet`);
    lines.push(`SELECT parquet_copy('SELECT * FROM docs ORDER BY id', ${q(file)}, ${['variant=doc', 'row_group_size=150', ...options].map(q).join(', ')});`);
    lines.push(`CREATE VIRTUAL TABLE "${name}" USING parquet(${q(file)});`);
  }
  lines.push(`.mode list`, `SELECT 'leaves|' || count(*) FROM parquet_metadata(${q(path.join(dir, 'shredded-auto.parquet'))}) WHERE row_group_id = 0 AND path_in_schema LIKE '%typed_value';`);
  lines.push(`SELECT 'differ|' || count(*) FROM plain p JOIN explicit e USING (id) JOIN auto a USING (id) WHERE p.doc IS NOT e.doc OR p.doc IS NOT a.doc;`);
  const out = sqlite(args, { sql: lines.join('\n') + '\n' }).split('\n');
  const ours = [];
  const autoLeaves = Number(out.find((l) => l.startsWith('leaves|'))?.slice(7));
  if (!(autoLeaves >= 10)) ours.push(`shredding=auto shredded ${autoLeaves} typed_value columns, expected at least 10`);
  const differ = out.find((l) => l.startsWith('differ|'));
  if (differ !== 'differ|0') ours.push(`our reader: ${differ} rows of the shredded files differ from the unshredded file`);
  report('variant-shredding ours-shredded-equals-unshredded', ours);

  const expectedNull = (d) => d.doc === null || d.doc === 'null';
  for (const name of ['explicit', 'auto']) {
    const file = path.join(dir, `shredded-${name}.parquet`);
    const problems = await compareDuckDBVariant(duck, file, docs, exactJson);
    report(`variant-shredding ${name} duckdb-reads-ours`, problems);

    if (name === 'explicit') {
      let stats;
      try {
        stats = await checkShreddedStatistics(duck, file, docs);
      } catch (e) {
        stats = [`failed: ${String(e.message ?? e).split('\n')[0]}`];
      }
      report('variant-shredding explicit duckdb-statistics', stats);
    }

    const bytes = new Uint8Array(fs.readFileSync(file));
    const hy = [];
    try {
      const rows = await hyparquet.parquetReadObjects({ file: bytes.buffer, compressors });
      if (rows.length !== docs.length) hy.push(`${rows.length} rows, expected ${docs.length}`);
      for (let i = 0; i < Math.min(rows.length, docs.length); i++) {
        const expected = expectedNull(docs[i]) ? null : withoutNestedLeftovers(JSON.parse(docs[i].doc));
        const actual = rows[i].doc ?? null;
        if (!sameLoosely(expected, actual)) {
          hy.push(`row ${i}: hyparquet ${JSON.stringify(actual, (k, v) => (typeof v === 'bigint' ? `${v}n` : v))} expected ${docs[i].doc}`);
        }
      }
    } catch (e) {
      hy.push(`read failed: ${String(e.message ?? e).split('\n')[0]}`);
    }
    report(`variant-shredding ${name} hyparquet-reads-ours`, hy);

    const aw = [];
    try {
      const table = arrow.tableFromIPC(wasm.readParquet(bytes).intoIPCStream());
      if (table.numRows !== docs.length) aw.push(`${table.numRows} rows, expected ${docs.length}`);
      const type = String(table.schema.fields.find((f) => f.name === 'doc')?.type);
      if (!/^Struct<\{metadata:Binary, value:Binary, typed_value:Struct/.test(type)) aw.push(`doc read as ${type}`);
    } catch (e) {
      aw.push(`read failed: ${String(e.message ?? e).split('\n')[0]}`);
    }
    report(`variant-shredding ${name} parquet-wasm-opens-ours`, aw);
  }
}

async function main() {
  const args = parseArgs(process.argv);
  const start = Date.now();
  let duckdb, hyparquet, compressors, wasm, arrow;
  try {
    duckdb = await import('@duckdb/node-api');
    hyparquet = await import('hyparquet');
    ({ compressors } = await import('hyparquet-compressors'));
    wasm = await import('parquet-wasm/node');
    arrow = await import('apache-arrow');
  } catch (e) {
    console.log(`interop: cannot load the node packages (run npm ci in tests/interop): ${e.message}`);
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
  const dir = args.keep ?? fs.mkdtempSync(path.join(os.tmpdir(), 'interop-'));
  fs.mkdirSync(dir, { recursive: true });
  let passed = 0, failed = 0;
  const report = (name, problems) => {
    if (problems.length === 0) {
      passed++;
      console.log(`ok   ${name}`);
    } else {
      failed++;
      console.log(`FAIL ${name}`);
      for (const p of problems.slice(0, 12)) console.log(`       ${p}`);
      if (problems.length > 12) console.log(`       ... ${problems.length - 12} more`);
    }
  };
  try {
    const variants = VARIANTS.filter((v) => !args.only || args.only.includes(v.name));
    const rows = makeRows();
    const db = writeFiles(args, dir, rows, variants);
    const instance = await duckdb.DuckDBInstance.create(':memory:');
    const duck = await instance.connect();
    await duck.run('SET threads = 1');
    for (const variant of variants) {
      const file = path.join(dir, `${variant.name}.parquet`);
      const bytes = new Uint8Array(fs.readFileSync(file));
      const engines = [
        ['ours', () => readOurs(args, db, file)],
        ['duckdb', () => readDuckDB(duck, file)],
        ['parquet-wasm', () => readArrow(wasm, arrow, bytes)],
        ['hyparquet', () => readHyparquet(hyparquet, compressors, bytes)],
      ];
      for (const [engine, read] of engines) {
        if (variant.unsupported?.[engine]) {
          console.log(`skip ${variant.name} ${engine}: ${variant.unsupported[engine]}`);
          continue;
        }
        let problems;
        try {
          problems = compare(rows, await read());
        } catch (e) {
          problems = [`read failed: ${String(e.message ?? e).split('\n')[0]}`];
        }
        report(`${variant.name} ${engine}`, problems);
      }
      let problems;
      if (!variant.unsupported?.duckdb) {
        try {
          problems = await checkStatistics(duck, file, variant);
        } catch (e) {
          problems = [`failed: ${String(e.message ?? e).split('\n')[0]}`];
        }
        report(`${variant.name} duckdb-statistics`, problems);
      }
      if (!variant.options.includes('write_page_index=0')) {
        try {
          problems = await checkPageIndex(hyparquet, compressors, bytes, rows);
        } catch (e) {
          problems = [`failed: ${String(e.message ?? e).split('\n')[0]}`];
        }
        report(`${variant.name} hyparquet-page-index`, problems);
      }
      if (variant.options.some((o) => o.startsWith('bloom_filter='))) {
        try {
          problems = await checkBloomFilters(duck, file);
        } catch (e) {
          problems = [`failed: ${String(e.message ?? e).split('\n')[0]}`];
        }
        report(`${variant.name} duckdb-bloom-probe`, problems);
      }
    }
    if (!args.only || args.only.includes('geometry')) await checkGeometry(args, duck, dir, report);
    if (!args.only || args.only.includes('variant')) {
      await checkVariant(args, duck, dir, report);
      await checkVariantShredding(args, duck, dir, report, hyparquet, compressors, wasm, arrow);
    }
    if (!args.only || args.only.includes('datasets')) {
      const duck2 = await (await duckdb.DuckDBInstance.create(':memory:')).connect();
      for (const [name, check] of [
        ['datasets rollover/append/return_stats/verify', () => checkDatasets(args, dir, db, duck2, hyparquet, compressors, wasm, arrow)],
        ['parquet_bloom_probe vs duckdb', () => checkBloomProbeAgainstDuckDB(args, dir, duck2)]]) {
        let problems;
        try {
          problems = await check();
        } catch (e) {
          problems = [`failed: ${String(e.message ?? e).split('\n')[0]}`];
        }
        report(name, problems);
      }
    }
  } catch (e) {
    failed++;
    console.log(`FAIL interop: ${e.stack ?? e}`);
  } finally {
    if (!args.keep) fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log(`interop: ${((Date.now() - start) / 1000).toFixed(1)} s`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

main();

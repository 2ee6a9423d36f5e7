#!/usr/bin/env node
// Generates tests/conformance/expected/*.tsv from the apache/parquet-testing
// corpus (../shared/parquet-testing relative to the repository root).
//
// Reference readers:
//   * DuckDB (@duckdb/node-api) for every flat column it can read,
//   * hyparquet (pure JS) as an independent second reader. It is run with the
//     logical/converted annotations stripped from the flat leaf columns, so it
//     returns the raw physical values and the SQLite mapping is applied here,
//     from the Parquet schema, exactly as for DuckDB.
// INT96 columns are always taken from the raw 12 bytes (via hyparquet, reading
// them as FIXED_LEN_BYTE_ARRAY(12)); DuckDB only cross-checks them.
// Nested columns (groups, LIST, MAP, repeated fields) become JSON text whose shape
// the script derives from the schema (see "Nested columns: JSON text" below),
// from DuckDB's values, cross-checked with hyparquet's.
// Where DuckDB fails on a file, hyparquet produces the values.
// Every cell on which the two readers disagree must be listed in REVIEWED
// below (with the decision), otherwise the script fails.
//
// Usage: cd tests/conformance && npm ci && node generate_expected.mjs
//   PARQUET_TESTING_DIR=/path/to/parquet-testing overrides the corpus location.

import { DuckDBInstance } from '@duckdb/node-api';
import { parquetMetadata, parquetRead } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CORPUS = path.resolve(process.env.PARQUET_TESTING_DIR ?? path.join(HERE, '../../../shared/parquet-testing'));
const OUT = path.join(HERE, 'expected');
const README = path.join(HERE, 'README.md');

// ---------------------------------------------------------------------------
// Manual decisions
// ---------------------------------------------------------------------------

// Cells where DuckDB and hyparquet disagree, reviewed by hand. Key:
// `${file}|${column}|${row}` (row 0-based). `use`: 'duckdb' | 'hyparquet' |
// 'override'. For 'override', `token` is the expected token. `why` ends up in
// README.md.
const REVIEWED = {
  // none needed with the current corpus: the readers agree on every cell both can read
};

// Cells whose value is decided by the upstream documentation rather than by
// any reference reader (applied after the reader comparison). `from` is the
// token the raw-byte computation gives, so that a changed corpus is noticed.
const OVERRIDES = [
  {
    file: 'data/int96_from_spark.parquet', column: 'a', row: 5,
    from: 't:"11464668-01-02 14:58:10.448384"',
    token: 't:"290000-12-30 23:00:00"',
    why: 'Spark 3.4 wrote 290000-12-30T23:00:00Z (9089380393200000000 us, documented in upstream '
      + 'int96_from_spark.md) with int64 overflow in its Julian-day conversion: the stored bytes are '
      + 'nanos-of-day = -32509551616000 and Julian day = 0xF9B0ABA8 (4189105064 as uint32, '
      + '-105862232 as int32). The documented value is recovered exactly by Spark\'s own read formula: '
      + 'micros = wrap_int64((int32(julian_day) - 2440588) * 86400000000 + nanos_of_day / 1000). '
      + 'DuckDB returns "226414-01-07 (BC) 22:21:39.416064" and hyparquet loses the high word; the '
      + 'plain uint32 computation gives 11464668-01-02 14:58:10.448384. The documentation decides.',
  },
];

// ---------------------------------------------------------------------------
// Token helpers
// ---------------------------------------------------------------------------

const INT64_MAX = (1n << 63n) - 1n;
const utf8 = new TextDecoder('utf-8', { fatal: true });

const tokInt = (v) => 'i:' + BigInt(v).toString();
function tokReal(x) {
  if (typeof x !== 'number') throw new Error('tokReal: not a number: ' + x);
  if (Object.is(x, -0)) return 'r:-0';
  return 'r:' + String(x); // NaN, Infinity, -Infinity, shortest round-trip
}
const tokText = (s) => 't:' + JSON.stringify(s);
const hex = (u8) => Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength).toString('hex');
const tokBlob = (u8) => 'b:' + hex(u8);
function tokUint64(v) {
  v = BigInt(v);
  return v > INT64_MAX ? tokReal(Number(v)) : tokInt(v); // Number(bigint) rounds to nearest
}
function decimalText(unscaled, scale) {
  const neg = unscaled < 0n;
  let digits = (neg ? -unscaled : unscaled).toString();
  if (scale > 0) {
    digits = digits.padStart(scale + 1, '0');
    digits = digits.slice(0, -scale) + '.' + digits.slice(-scale);
  } else if (scale < 0) {
    digits = digits + '0'.repeat(-scale);
  }
  return (neg ? '-' : '') + digits;
}
const tokDecimalText = (text) => tokReal(Number(text)); // correctly rounded

// --- temporal -----------------------------------------------------------------
const floorDiv = (a, b) => { const q = a / b; return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q; };
const floorMod = (a, b) => a - floorDiv(a, b) * b;
const pad = (n, w) => n.toString().padStart(w, '0');

// days since 1970-01-01 -> proleptic Gregorian y/m/d (H. Hinnant's civil_from_days)
function civilFromDays(days) {
  const z = BigInt(days) + 719468n;
  const era = floorDiv(z, 146097n);
  const doe = z - era * 146097n;
  const yoe = (doe - doe / 1460n + doe / 36524n - doe / 146096n) / 365n;
  let y = yoe + era * 400n;
  const doy = doe - (365n * yoe + yoe / 4n - yoe / 100n);
  const mp = (5n * doy + 2n) / 153n;
  const d = doy - (153n * mp + 2n) / 5n + 1n;
  const m = mp < 10n ? mp + 3n : mp - 9n;
  if (m <= 2n) y += 1n;
  return { y, m, d };
}
function fmtYear(y) { return y < 0n ? '-' + pad(-y, 4) : pad(y, 4); }
function fmtDate(days) {
  const { y, m, d } = civilFromDays(days);
  return `${fmtYear(y)}-${pad(m, 2)}-${pad(d, 2)}`;
}
// nanoseconds within a day (0 <= ns < 86400e9) -> HH:MM:SS[.fraction]
function fmtTimeOfDay(ns) {
  ns = BigInt(ns);
  const frac = ns % 1000000000n;
  let s = ns / 1000000000n;
  const hh = s / 3600n; s -= hh * 3600n;
  const mm = s / 60n; s -= mm * 60n;
  let out = `${pad(hh, 2)}:${pad(mm, 2)}:${pad(s, 2)}`;
  if (frac !== 0n) out += '.' + pad(frac, 9).replace(/0+$/, '');
  return out;
}
const NS_PER_DAY = 86400000000000n;
function fmtTimestampNanos(ns) {
  ns = BigInt(ns);
  const days = floorDiv(ns, NS_PER_DAY);
  return fmtDate(days) + ' ' + fmtTimeOfDay(floorMod(ns, NS_PER_DAY));
}
const UNIT_NS = { MILLIS: 1000000n, MICROS: 1000n, NANOS: 1n };
function int96ToNanos(bytes) {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, 12);
  const nanosOfDay = dv.getBigInt64(0, true);
  const julianDay = BigInt(dv.getUint32(8, true));
  return (julianDay - 2440588n) * NS_PER_DAY + nanosOfDay;
}
function float16(bytes) {
  const h = bytes[0] | (bytes[1] << 8);
  const sign = (h & 0x8000) ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24; // zero / subnormal (exact)
  if (exp === 0x1f) return frac ? NaN : sign * Infinity;
  return sign * (1024 + frac) * 2 ** (exp - 25); // exact
}
function beSignedBigInt(bytes) {
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  if (bytes.length && (bytes[0] & 0x80)) v -= 1n << BigInt(bytes.length * 8);
  return v;
}
function uuidText(bytes) {
  const h = hex(bytes);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

// ---------------------------------------------------------------------------
// Schema -> mapping kind
// ---------------------------------------------------------------------------

const KNOWN_LOGICAL = new Set(['STRING', 'MAP', 'LIST', 'ENUM', 'DECIMAL', 'DATE', 'TIME', 'TIMESTAMP',
  'INTEGER', 'NULL', 'JSON', 'BSON', 'UUID', 'FLOAT16', 'VARIANT', 'GEOMETRY', 'GEOGRAPHY']);

// Returns { kind, ...params, desc } for a primitive leaf schema element.
function leafMapping(el) {
  const pt = el.type;
  const lt = el.logical_type && KNOWN_LOGICAL.has(el.logical_type.type) ? el.logical_type : undefined;
  const ct = el.converted_type;
  const unknownLogical = el.logical_type && !lt;
  let m;
  if (lt) {
    switch (lt.type) {
      case 'STRING': case 'ENUM': case 'JSON': m = { kind: 'text' }; break;
      case 'BSON': m = { kind: 'blob' }; break;
      case 'UUID': m = { kind: 'uuid' }; break;
      case 'DECIMAL': m = { kind: 'decimal', scale: lt.scale, precision: lt.precision }; break;
      case 'DATE': m = { kind: 'date' }; break;
      case 'TIME': m = { kind: 'time', unit: lt.unit }; break;
      case 'TIMESTAMP': m = { kind: 'timestamp', unit: lt.unit }; break;
      case 'INTEGER':
        m = lt.isSigned ? { kind: 'int' } : (lt.bitWidth === 64 ? { kind: 'uint64' } : { kind: 'uint' });
        break;
      case 'NULL': m = { kind: 'null' }; break;
      case 'FLOAT16': m = { kind: 'float16' }; break;
      case 'GEOMETRY': case 'GEOGRAPHY': m = { kind: 'blob' }; break;
      default: throw new Error(`logical type ${lt.type} on a primitive leaf ${el.name}`);
    }
    m.desc = `${pt} ${lt.type}`;
  } else if (ct) {
    switch (ct) {
      case 'UTF8': case 'ENUM': case 'JSON': m = { kind: 'text' }; break;
      case 'BSON': m = { kind: 'blob' }; break;
      case 'DECIMAL': m = { kind: 'decimal', scale: el.scale ?? 0, precision: el.precision }; break;
      case 'DATE': m = { kind: 'date' }; break;
      case 'TIME_MILLIS': m = { kind: 'time', unit: 'MILLIS' }; break;
      case 'TIME_MICROS': m = { kind: 'time', unit: 'MICROS' }; break;
      case 'TIMESTAMP_MILLIS': m = { kind: 'timestamp', unit: 'MILLIS' }; break;
      case 'TIMESTAMP_MICROS': m = { kind: 'timestamp', unit: 'MICROS' }; break;
      case 'INT_8': case 'INT_16': case 'INT_32': case 'INT_64': m = { kind: 'int' }; break;
      case 'UINT_8': case 'UINT_16': case 'UINT_32': m = { kind: 'uint' }; break;
      case 'UINT_64': m = { kind: 'uint64' }; break;
      case 'INTERVAL': m = { kind: 'interval' }; break;
      default: throw new Error(`converted type ${ct} on a primitive leaf ${el.name}`);
    }
    m.desc = `${pt} ${ct}`;
  } else {
    switch (pt) {
      case 'BOOLEAN': m = { kind: 'bool' }; break;
      case 'INT32': case 'INT64': m = { kind: 'int' }; break;
      case 'INT96': m = { kind: 'int96' }; break;
      case 'FLOAT': m = { kind: 'float' }; break;
      case 'DOUBLE': m = { kind: 'double' }; break;
      case 'BYTE_ARRAY': case 'FIXED_LEN_BYTE_ARRAY': m = { kind: 'blob' }; break;
      default: throw new Error(`physical type ${pt}`);
    }
    m.desc = pt + (unknownLogical ? ' (unknown LogicalType ' + Object.keys(el.logical_type).join(',') + ')' : '');
  }
  m.physical = pt;
  return m;
}

// Build the schema tree from the flattened Thrift schema list.
function schemaTree(schema) {
  let i = 0;
  function node() {
    const el = schema[i++];
    const children = [];
    for (let c = 0; c < (el.num_children ?? 0); c++) children.push(node());
    return { el, children };
  }
  return node();
}

// ---------------------------------------------------------------------------
// Readers
// ---------------------------------------------------------------------------

const qid = (name) => '"' + name.replaceAll('"', '""') + '"';
const sqlStr = (s) => "'" + s.replaceAll("'", "''") + "'";

let duck;
async function duckConn() {
  if (!duck) {
    const inst = await DuckDBInstance.create(':memory:', { threads: '1' });
    duck = await inst.connect();
    await duck.run('SET enable_geoparquet_conversion = false');
  }
  return duck;
}

// DuckDB -> tokens[row][col]
async function duckdbTokens(file, cols) {
  const con = await duckConn();
  const exprs = cols.map(({ name, map }) =>
    (map.kind === 'decimal' || map.kind === 'uuid') ? `CAST(${qid(name)} AS VARCHAR)` : qid(name));
  const sql = `SELECT ${exprs.join(', ')} FROM read_parquet(${sqlStr(file)}, binary_as_string=false, `
    + `file_row_number=true) ORDER BY file_row_number`;
  const reader = await con.runAndReadAll(sql);
  const types = reader.columnTypes().map(t => t.toString());
  return reader.getRows().map(row => row.map((v, c) => duckValueToken(v, cols[c].map, types[c])));
}

function duckValueToken(v, map, duckType) {
  if (v === null || v === undefined) return 'NULL';
  switch (map.kind) {
    case 'null': throw new Error('non-null value in a NULL-typed column');
    case 'bool': return v ? 'i:1' : 'i:0';
    case 'int': case 'uint': return tokInt(v);
    case 'uint64': return tokUint64(v);
    case 'float': case 'double': case 'float16': return tokReal(v);
    case 'text': if (typeof v !== 'string') throw new Error('text: ' + duckType); return tokText(v);
    case 'blob': if (!(v.bytes instanceof Uint8Array)) throw new Error('blob: ' + duckType); return tokBlob(v.bytes);
    case 'uuid': return tokText(String(v).toLowerCase());
    case 'decimal':
      if (!/^DECIMAL/.test(duckType) && duckType !== 'VARCHAR') throw new Error('decimal as ' + duckType);
      return tokDecimalText(v);
    case 'date': return tokText(fmtDate(v.days));
    case 'time':
      if ('nanos' in v) return tokText(fmtTimeOfDay(v.nanos));
      return tokText(fmtTimeOfDay(BigInt(v.micros) * 1000n));
    case 'timestamp': case 'int96': {
      let ns;
      if ('nanos' in v) ns = BigInt(v.nanos);
      else if ('micros' in v) ns = BigInt(v.micros) * 1000n;
      else if ('millis' in v) ns = BigInt(v.millis) * 1000000n;
      else if ('seconds' in v) ns = BigInt(v.seconds) * 1000000000n;
      else throw new Error('timestamp value ' + duckType);
      return tokText(fmtTimestampNanos(ns));
    }
    case 'interval': {
      const millis = BigInt(v.micros) / 1000n;
      return tokText(JSON.stringify({ months: v.months, days: v.days, millis: Number(millis) }));
    }
    default: throw new Error('kind ' + map.kind);
  }
}

function fileBuffer(file) {
  const buf = fs.readFileSync(file);
  return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
}

// hyparquet -> tokens[row][col], from raw physical values
async function hyparquetTokens(ab, md, cols) {
  const md2 = structuredClone(md);
  const names = new Set(cols.map(c => c.name));
  // strip annotations of the flat top-level leaves; INT96 read as FLBA(12)
  const root = schemaTree(md2.schema);
  for (const { el } of root.children) {
    if (!names.has(el.name)) continue;
    el.logical_type = undefined;
    el.converted_type = undefined;
    if (el.type === 'INT96') { el.type = 'FIXED_LEN_BYTE_ARRAY'; el.type_length = 12; }
  }
  for (const rg of md2.row_groups) {
    for (const cc of rg.columns) {
      const p = cc.meta_data.path_in_schema;
      if (p.length === 1 && names.has(p[0]) && cc.meta_data.type === 'INT96') cc.meta_data.type = 'FIXED_LEN_BYTE_ARRAY';
    }
  }
  const rows = await new Promise((resolve, reject) => {
    parquetRead({
      file: ab, metadata: md2, columns: cols.map(c => c.name), rowFormat: 'object', utf8: false,
      compressors, onComplete: resolve,
    }).catch(reject);
  });
  return rows.map(r => cols.map(({ name, map }) => hypValueToken(r[name], map)));
}

function hypValueToken(v, map) {
  if (v === null || v === undefined) return 'NULL';
  const pt = map.physical;
  switch (map.kind) {
    case 'null': throw new Error('non-null value in a NULL-typed column');
    case 'bool': return v ? 'i:1' : 'i:0';
    case 'int': return tokInt(v);
    case 'uint': return tokInt(pt === 'INT64' ? BigInt.asUintN(64, BigInt(v)) : BigInt.asUintN(32, BigInt(v)));
    case 'uint64': return tokUint64(BigInt.asUintN(64, BigInt(v)));
    case 'float': case 'double': return tokReal(v);
    case 'float16': return tokReal(float16(v));
    case 'text': return tokText(utf8.decode(v));
    case 'blob': return tokBlob(v);
    case 'uuid': return tokText(uuidText(v));
    case 'decimal': {
      const unscaled = (v instanceof Uint8Array) ? beSignedBigInt(v) : BigInt(v);
      return tokDecimalText(decimalText(unscaled, map.scale));
    }
    case 'date': return tokText(fmtDate(BigInt(v)));
    case 'time': return tokText(fmtTimeOfDay(BigInt(v) * UNIT_NS[map.unit]));
    case 'timestamp': return tokText(fmtTimestampNanos(BigInt(v) * UNIT_NS[map.unit]));
    case 'int96': return tokText(fmtTimestampNanos(int96ToNanos(v)));
    case 'interval': {
      const dv = new DataView(v.buffer, v.byteOffset, 12);
      return tokText(JSON.stringify({ months: dv.getUint32(0, true), days: dv.getUint32(4, true), millis: dv.getUint32(8, true) }));
    }
    default: throw new Error('kind ' + map.kind);
  }
}

// ---------------------------------------------------------------------------
// Nested columns: JSON text
// ---------------------------------------------------------------------------
//
// A top-level group, LIST, MAP or repeated field is one TEXT column holding JSON
// (docs/type-mapping.md, "Nested columns"). The shape of the JSON is decided here from the Parquet schema, by the
// LogicalTypes.md rules (backward-compatibility rules included), written independently of
// the C++ code; the values come from DuckDB and are cross-checked with hyparquet.

const isRepeated = (el) => el.repetition_type === 'REPEATED';
const annotated = (el, logical, converted) => el.logical_type?.type === logical || el.converted_type === converted;
const leafCount = (node) => node.children.length ? node.children.reduce((a, c) => a + leafCount(c), 0) : (node.el.type ? 1 : 0);

// Shape of a schema node: { kind: 'value'|'struct'|'list'|'map'|'empty', name, ... }.
// asElement: a repeated node whose repetition an enclosing list/map already accounts for.
function shapeOf(node, asElement = false) {
  const { el, children } = node;
  const name = el.name;
  if (leafCount(node) === 0) return { kind: 'empty', name };
  if (isRepeated(el) && !asElement) {
    // bare repeated field: a required list of required elements
    return { kind: 'list', name, element: shapeOf(node, true) };
  }
  if (el.type) return { kind: 'value', name, map: leafMapping(el) };
  if (annotated(el, 'LIST', 'LIST') && children.length === 1 && isRepeated(children[0].el)) {
    const rep = children[0];
    // LogicalTypes.md list rules 1-4: the repeated node itself is the element
    const repIsElement = !!rep.el.type || rep.children.length !== 1 || isRepeated(rep.children[0].el)
      || rep.el.name === 'array' || rep.el.name === name + '_tuple';
    return { kind: 'list', name, element: repIsElement ? shapeOf(rep, true) : shapeOf(rep.children[0]) };
  }
  const isMap = annotated(el, 'MAP', 'MAP') || el.converted_type === 'MAP_KEY_VALUE';
  if (isMap && children.length === 1) {
    const kv = children[0];
    if (isRepeated(kv.el) && !kv.el.type && kv.children.length >= 1 && kv.children.length <= 2) {
      const key = shapeOf(kv.children[0]);
      const value = kv.children.length === 2 ? shapeOf(kv.children[1]) : null;
      const asObject = key.kind === 'value' && ['text', 'json', 'uuid'].includes(key.map.kind);
      return { kind: 'map', name, key, value, asObject, keyValueName: kv.el.name };
    }
  }
  return { kind: 'struct', name, fields: children.map(c => shapeOf(c)) };
}

// Numbers as docs/type-mapping.md's nested-JSON rules write them: JavaScript's shortest form, plus
// ".0" when it would read as an integer; NaN and infinities are null.
function jsonDouble(x) {
  if (!Number.isFinite(x)) return 'null';
  if (Object.is(x, -0)) return '-0.0';
  let s = String(x);
  if (!/[.e]/.test(s)) s += '.0';
  return s;
}
function shortestFor(x, digitsMax, roundTrip) {
  if (!Number.isFinite(x) || x === 0) return jsonDouble(x);
  for (let p = 1; p <= digitsMax; p++) {
    const candidate = Number(x.toPrecision(p));
    if (roundTrip(candidate) === x) return jsonDouble(candidate);
  }
  return jsonDouble(x);
}
const jsonFloat32 = (x) => shortestFor(x, 9, Math.fround);
// nearest binary16 value (ties to even), for the FLOAT16 round trip
function roundHalf(y) {
  if (!Number.isFinite(y) || y === 0) return y;
  const a = Math.abs(y);
  const e = Math.max(Math.floor(Math.log2(a)), -14);
  const step = 2 ** (e - 10);
  let q = a / step;
  const f = Math.floor(q);
  q = (q - f > 0.5 || (q - f === 0.5 && f % 2 === 1)) ? f + 1 : f;
  const r = q * step;
  return Math.sign(y) * (r > 65504 ? Infinity : r);
}
const jsonHalf = (x) => shortestFor(x, 5, roundHalf);
const jsonStr = (s) => JSON.stringify(s);
const base64 = (u8) => Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength).toString('base64');

function decimalOf(v) { // DuckDBDecimalValue, bigint or number -> unscaled BigInt
  if (typeof v === 'object' && v !== null && 'value' in v) return BigInt(v.value);
  return BigInt(v);
}

// DuckDB leaf value -> JSON text
function duckLeafJson(map, v) {
  switch (map.kind) {
    case 'null': return 'null';
    case 'bool': return v ? 'true' : 'false';
    case 'int': case 'uint': case 'uint64': return BigInt(v).toString();
    case 'float': return jsonFloat32(v);
    case 'double': return jsonDouble(v);
    case 'float16': return jsonHalf(v);
    case 'text': return jsonStr(typeof v === 'string' ? v : String(v));
    case 'blob': return jsonStr(base64(v.bytes));
    case 'uuid': return jsonStr(String(v).toLowerCase());
    case 'decimal': return decimalText(decimalOf(v), map.scale);
    case 'date': return jsonStr(fmtDate(v.days));
    case 'time': return jsonStr('nanos' in v ? fmtTimeOfDay(v.nanos) : fmtTimeOfDay(BigInt(v.micros) * 1000n));
    case 'timestamp': case 'int96': {
      let ns;
      if ('nanos' in v) ns = BigInt(v.nanos);
      else if ('micros' in v) ns = BigInt(v.micros) * 1000n;
      else if ('millis' in v) ns = BigInt(v.millis) * 1000000n;
      else ns = BigInt(v.seconds) * 1000000000n;
      return jsonStr(fmtTimestampNanos(ns));
    }
    case 'interval':
      return JSON.stringify({ months: v.months, days: v.days, millis: Number(BigInt(v.micros) / 1000n) });
    default: throw new Error('nested leaf kind ' + map.kind);
  }
}

function mapJson(shape, entries, leafJson, valueOf) {
  // entries: [{ key, value }] with reader values
  const parts = entries.map(({ key, value }) => {
    const k = (key === null || key === undefined) ? null : leafJsonOrNested(shape.key, key, leafJson, valueOf);
    const val = shape.value ? valueOf(shape.value, value) : 'null';
    if (shape.asObject) return (k === null ? '""' : k) + ':' + val;
    return '{"key":' + (k ?? 'null') + ',"value":' + val + '}';
  });
  return shape.asObject ? '{' + parts.join(',') + '}' : '[' + parts.join(',') + ']';
}
function leafJsonOrNested(shape, v, leafJson, valueOf) {
  return shape.kind === 'value' ? leafJson(shape.map, v) : valueOf(shape, v);
}

// DuckDB value of a nested column -> JSON text
function duckJson(shape, v) {
  if (v === null || v === undefined || shape.kind === 'empty') return 'null';
  switch (shape.kind) {
    case 'value': return duckLeafJson(shape.map, v);
    case 'struct':
      return '{' + shape.fields.map(f => jsonStr(f.name) + ':' + duckJson(f, v.entries[f.name])).join(',') + '}';
    case 'list': return '[' + v.items.map(x => duckJson(shape.element, x)).join(',') + ']';
    case 'map': return mapJson(shape, v.entries, duckLeafJson, duckJson);
    default: throw new Error('shape ' + shape.kind);
  }
}

// hyparquet leaf value (annotations applied by hyparquet, temporal parsers below) -> JSON
function hypLeafJson(map, v) {
  switch (map.kind) {
    case 'null': return 'null';
    case 'bool': return v ? 'true' : 'false';
    case 'int': return BigInt(v).toString();
    case 'uint': return BigInt.asUintN(map.physical === 'INT64' ? 64 : 32, BigInt(v)).toString();
    case 'uint64': return BigInt.asUintN(64, BigInt(v)).toString();
    case 'float': return jsonFloat32(v);
    case 'double': return jsonDouble(v);
    case 'float16': return jsonHalf(v);
    case 'text': return jsonStr(typeof v === 'string' ? v : utf8.decode(v));
    case 'blob': return jsonStr(base64(typeof v === 'string' ? new TextEncoder().encode(v) : v));
    case 'uuid': return jsonStr(v);
    case 'date': return jsonStr(fmtDate(BigInt(v.days)));
    case 'time': return jsonStr(fmtTimeOfDay(BigInt(v) * UNIT_NS[map.unit]));
    case 'timestamp': return jsonStr(fmtTimestampNanos(v.ns));
    default: throw new Error(`hyparquet: nested ${map.kind} values are not cross-checked`);
  }
}
const HYP_PARSERS = {
  dateFromDays: (days) => ({ days }),
  timestampFromMilliseconds: (x) => ({ ns: BigInt(x) * 1000000n }),
  timestampFromMicroseconds: (x) => ({ ns: BigInt(x) * 1000n }),
  timestampFromNanoseconds: (x) => ({ ns: BigInt(x) }),
};

// hyparquet value of a nested column -> JSON text. hyparquet leaves out struct fields whose
// value is null (read as null here) and gives maps as objects keyed by the key's text.
function hypJson(shape, v) {
  if (v === null || v === undefined || shape.kind === 'empty') return 'null';
  switch (shape.kind) {
    case 'value': return hypLeafJson(shape.map, v);
    case 'struct': return '{' + shape.fields.map(f => jsonStr(f.name) + ':' + hypJson(f, v[f.name])).join(',') + '}';
    case 'list': return '[' + v.map(x => hypJson(shape.element, x)).join(',') + ']';
    case 'map': {
      let entries;
      if (!shape.value && Array.isArray(v[shape.keyValueName])) {
        // hyparquet reads a map without a value field as a struct holding a list of {key}
        entries = v[shape.keyValueName].map(e => ({ key: e.key, value: null }));
      } else {
        const keyKind = shape.key.kind === 'value' ? shape.key.map.kind : 'other';
        if (!['text', 'int', 'uint', 'uint64'].includes(keyKind)) throw new Error('hyparquet map keys of kind ' + keyKind);
        entries = Object.entries(v).map(([key, value]) => ({ key: keyKind === 'text' ? key : BigInt(key), value }));
      }
      return mapJson(shape, entries, hypLeafJson, hypJson);
    }
    default: throw new Error('shape ' + shape.kind);
  }
}

const nestedToken = (json) => json === 'null' ? 'NULL' : tokText(json);

// Hyparquet shortcomings met on the corpus, reviewed against DuckDB and the spec. Key:
// `${file}|${column}` (every row of the column). DuckDB's value is used.
const REVIEWED_NESTED = {
  'data/repeated_primitive_no_list.parquet|Int32_list': 'a repeated field without annotation is a required list '
    + '(LogicalTypes.md, "Nested Types"): a row without elements holds an empty list []; hyparquet returns null',
  'data/repeated_primitive_no_list.parquet|group_of_lists': 'same rule for Int32_list_in_group: [] rather than hyparquet\'s null',
};

// Nested columns left out of the expected files, with the reason (README, status table).
const NESTED_NOT_CHECKED = {
  'data/large_string_map.brotli.parquet|arr': 'not checked: each row holds one map key of 2^30 bytes (1 GiB); '
    + 'DuckDB reads it but neither JavaScript reader can hold such a string, and no SQLite value can either '
    + '(SQLITE_MAX_LENGTH is 1e9 bytes): the extension must end in an error (sql/nested.test checks it)',
};

// tokens[row][c] of the nested columns `cols` ({ name, shape }), DuckDB first, hyparquet as
// a cross-check (or alone when DuckDB cannot read the file).
async function nestedColumnTokens(rel, file, ab, cols, info) {
  const duck = cols.map(() => null);
  const duckErr = cols.map(() => null);
  const con = await duckConn();
  for (let c = 0; c < cols.length; c++) {
    try {
      const r = await con.runAndReadAll(`SELECT ${qid(cols[c].name)} FROM read_parquet(${sqlStr(file)}, `
        + 'binary_as_string=false, file_row_number=true) ORDER BY file_row_number');
      duck[c] = r.getRows().map(row => nestedToken(duckJson(cols[c].shape, row[0])));
    } catch (e) { duckErr[c] = errMsg(e); }
  }
  let hyp = null, hypErr = null;
  try {
    const rows = await new Promise((resolve, reject) => {
      parquetRead({ file: ab, columns: cols.map(c => c.name), rowFormat: 'object', compressors, parsers: HYP_PARSERS,
        onComplete: resolve }).catch(reject);
    });
    hyp = cols.map(({ name, shape }) => rows.map(r => nestedToken(hypJson(shape, r[name]))));
  } catch (e) { hypErr = errMsg(e); }
  const out = [];
  for (let c = 0; c < cols.length; c++) {
    const d = duck[c], h = hyp?.[c];
    if (!d && !h) throw new Error(`${rel}: no reader could read nested ${cols[c].name}: duckdb: ${duckErr[c]}; hyparquet: ${hypErr}`);
    if (d && h && d.length !== h.length) throw new Error(`${rel}: ${cols[c].name}: duckdb ${d.length} rows, hyparquet ${h.length}`);
    const review = REVIEWED_NESTED[`${rel}|${cols[c].name}`];
    let differing = 0;
    if (d && h) {
      for (let r = 0; r < d.length; r++) {
        if (d[r] === h[r]) continue;
        differing++;
        if (!review) info.disagreements.push({ key: `${rel}|${cols[c].name}|${r}`, duckdb: d[r], hyparquet: h[r] });
      }
    }
    if (review && !differing) throw new Error(`${rel}|${cols[c].name}: REVIEWED_NESTED entry is stale (the readers agree)`);
    let how;
    if (d && h) how = differing ? `DuckDB; hyparquet differs in ${differing} rows: ${review}` : 'DuckDB, hyparquet agrees';
    else if (d) how = `DuckDB only (hyparquet fails: ${hypErr})`;
    else how = `hyparquet only (DuckDB fails: ${duckErr[c]})`;
    out.push({ name: cols[c].name, tokens: d ?? h, how });
  }
  return out;
}

// ---------------------------------------------------------------------------
// Corpus walk
// ---------------------------------------------------------------------------

function listCorpus() {
  const out = [];
  (function walk(dir) {
    for (const e of fs.readdirSync(path.join(CORPUS, dir), { withFileTypes: true })) {
      const rel = dir ? dir + '/' + e.name : e.name;
      if (e.isDirectory()) walk(rel);
      else if (/\.parquet(\.encrypted)?$/.test(e.name)) out.push(rel);
    }
  })('');
  return out.sort();
}

const errMsg = (e) => e.message.split('\n')[0].replaceAll(CORPUS + '/', '');
const expectedName = (rel) => rel.replaceAll('/', '__') + '.tsv';

async function processFile(rel) {
  const file = path.join(CORPUS, rel);
  const ab = fileBuffer(file);
  const md = parquetMetadata(ab, { geoparquet: false });
  const root = schemaTree(md.schema);
  const flat = [];
  const nested = [];
  const nestedCols = [];
  const order = []; // every top-level column in file order: ['flat' | 'nested', index]
  for (const child of root.children) {
    const { el, children } = child;
    if (children.length || el.num_children !== undefined || el.repetition_type === 'REPEATED') {
      if (NESTED_NOT_CHECKED[`${rel}|${el.name}`]) {
        nested.push(el.name);
        continue;
      }
      order.push(['nested', nestedCols.length]);
      nested.push(el.name);
      nestedCols.push({ name: el.name, shape: shapeOf(child) });
    } else {
      order.push(['flat', flat.length]);
      flat.push({ name: el.name, map: leafMapping(el) });
    }
  }
  const info = { rel, flat, nested, order, notes: [], disagreements: [] };
  const rgRows = md.row_groups.reduce((a, rg) => a + BigInt(rg.num_rows), 0n);
  if (BigInt(md.num_rows) !== rgRows) info.notes.push(`FileMetaData.num_rows=${md.num_rows} but row groups hold ${rgRows} rows; expected uses ${rgRows}`);

  // DuckDB schema cross-check (physical + converted type per flat column)
  let duckSchemaErr = null;
  try {
    const con = await duckConn();
    const r = await con.runAndReadAll(`SELECT name, type, converted_type FROM parquet_schema(${sqlStr(file)})`);
    const rows = r.getRows();
    for (const c of flat) {
      const hit = rows.find(x => x[0] === c.name);
      const el = md.schema.find(e => e.name === c.name);
      if (!hit || hit[1] !== el.type || (hit[2] ?? undefined) !== (el.converted_type ?? undefined)) {
        throw new Error(`schema mismatch for ${c.name}: duckdb ${hit} vs ${el.type}/${el.converted_type}`);
      }
    }
  } catch (e) {
    if (/schema mismatch/.test(e.message)) throw e;
    duckSchemaErr = e.message;
  }

  let duckErr = null, hypTok = null, hypErr = null, duckCount = null;
  // duckCols[c] = column c's tokens from DuckDB, or null where DuckDB cannot read it
  let duckCols = flat.map(() => null);
  const duckColErr = flat.map(() => null);
  try {
    const con = await duckConn();
    const r = await con.runAndReadAll(`SELECT count(*) FROM read_parquet(${sqlStr(file)})`);
    duckCount = BigInt(r.getRows()[0][0]);
  } catch (e) { duckErr = errMsg(e); }

  if (flat.length) {
    if (!duckErr) {
      try {
        const rowsTok = await duckdbTokens(file, flat);
        duckCols = flat.map((_, c) => rowsTok.map(r => r[c]));
      } catch (e) {
        duckErr = errMsg(e);
        // retry column by column: keep DuckDB as the reference for the columns it can read
        for (let c = 0; c < flat.length; c++) {
          try { duckCols[c] = (await duckdbTokens(file, [flat[c]])).map(r => r[0]); } catch (e2) { duckColErr[c] = errMsg(e2); }
        }
      }
    } else {
      duckColErr.fill(duckErr);
    }
    try { hypTok = await hyparquetTokens(ab, md, flat); } catch (e) { hypErr = errMsg(e); }
  }
  info.duckErr = duckErr;
  info.hypErr = hypErr;
  info.duckColErr = duckColErr;
  info.duckOk = flat.map((_, c) => duckCols[c] !== null);
  info.crossChecked = flat.map((_, c) => duckCols[c] !== null && hypTok !== null);
  if (duckSchemaErr && !duckErr) info.notes.push('DuckDB parquet_schema failed: ' + duckSchemaErr);

  let tokens = null;
  if (flat.length) {
    for (let c = 0; c < flat.length; c++) {
      if (!duckCols[c] && !hypTok) throw new Error(`${rel}: no reader could read ${flat[c].name}: duckdb: ${duckColErr[c]}; hyparquet: ${hypErr}`);
      if (duckCols[c] && hypTok && duckCols[c].length !== hypTok.length) {
        throw new Error(`${rel}: row count differs: duckdb ${duckCols[c].length}, hyparquet ${hypTok.length}`);
      }
    }
    const n = hypTok ? hypTok.length : duckCols[0].length;
    tokens = [];
    for (let r = 0; r < n; r++) {
      const row = [];
      for (let c = 0; c < flat.length; c++) {
        const d = duckCols[c]?.[r];
        const h = hypTok?.[r][c];
        // INT96 comes from the raw bytes (hyparquet); everything else from DuckDB when it works
        let t = (flat[c].map.kind === 'int96' && h !== undefined) ? h : (d ?? h);
        if (d !== undefined && h !== undefined && d !== h) {
          const key = `${rel}|${flat[c].name}|${r}`;
          const rev = REVIEWED[key];
          const ov = OVERRIDES.find(o => o.file === rel && o.column === flat[c].name && o.row === r);
          if (rev) t = rev.use === 'duckdb' ? d : rev.use === 'hyparquet' ? h : rev.token;
          else if (!ov) info.disagreements.push({ key, duckdb: d, hyparquet: h });
        }
        row.push(t);
      }
      tokens.push(row);
    }
  }
  for (const o of OVERRIDES.filter(o => o.file === rel)) {
    const c = flat.findIndex(f => f.name === o.column);
    if (c < 0 || !tokens || tokens[o.row]?.[c] !== o.from) {
      throw new Error(`${rel}: override for ${o.column} row ${o.row} is stale: found ${tokens?.[o.row]?.[c]}`);
    }
    tokens[o.row][c] = o.token;
    info.notes.push(`manual correction: ${o.column} row ${o.row}: ${o.from} -> ${o.token}`);
  }

  info.nestedResults = nestedCols.length ? await nestedColumnTokens(rel, file, ab, nestedCols, info) : [];
  for (const n of info.nestedResults) {
    if (tokens && n.tokens.length !== tokens.length) throw new Error(`${rel}: nested ${n.name} has ${n.tokens.length} rows, flat columns ${tokens.length}`);
  }

  let rows;
  if (tokens) rows = BigInt(tokens.length);
  else if (info.nestedResults.length) rows = BigInt(info.nestedResults[0].tokens.length);
  else if (duckCount !== null) rows = duckCount;
  else rows = rgRows;
  if (duckCount !== null && duckCount !== rows) throw new Error(`${rel}: DuckDB count(*) ${duckCount} vs ${rows} rows`);
  if (rows !== rgRows) info.notes.push(`rows ${rows} differ from row-group total ${rgRows}`);
  info.rows = rows;
  info.tokens = tokens;
  info.source = !tokens ? (duckCount !== null ? 'DuckDB count(*)' : 'footer row-group totals (DuckDB cannot open the file)')
    : info.duckOk.every(Boolean) ? 'duckdb' : info.duckOk.some(Boolean) ? 'duckdb+hyparquet' : 'hyparquet';
  return info;
}

function writeExpected(info) {
  const names = info.order.map(([kind, i]) => kind === 'flat' ? info.flat[i].name : info.nestedResults[i].name);
  const lines = [
    `# file: ${info.rel}`,
    '# columns:' + (names.length ? ' ' + names.join('\t') : ''),
    `# rows: ${info.rows}`,
  ];
  if (names.some(n => /[\t\n\r]/.test(n))) throw new Error('column name with tab/newline: ' + info.rel);
  if (names.length) {
    for (let r = 0; r < Number(info.rows); r++) {
      lines.push(info.order.map(([kind, i]) => kind === 'flat' ? info.tokens[r][i] : info.nestedResults[i].tokens[r]).join('\t'));
    }
  }
  fs.writeFileSync(path.join(OUT, expectedName(info.rel)), lines.join('\n') + '\n');
}

// ---------------------------------------------------------------------------
// Checks against upstream-documented contents (INDEX.md); fail on mismatch
// ---------------------------------------------------------------------------

function parseCsv(text) {
  // RFC 4180; an unquoted empty field is NULL, a quoted one is a string
  const rows = [];
  let row = [], i = 0;
  while (i < text.length) {
    let val;
    if (text[i] === '"') {
      let s = ''; i++;
      for (;;) {
        if (text[i] === '"' && text[i + 1] === '"') { s += '"'; i += 2; } else if (text[i] === '"') { i++; break; } else s += text[i++];
      }
      val = { q: true, s };
    } else {
      let s = '';
      while (i < text.length && text[i] !== ',' && text[i] !== '\n' && text[i] !== '\r') s += text[i++];
      val = { q: false, s };
    }
    row.push(val);
    if (text[i] === ',') { i++; continue; }
    if (text[i] === '\r') i++;
    if (text[i] === '\n') i++;
    rows.push(row); row = [];
  }
  return rows;
}

function documentedChecks(results) {
  const problems = [];
  const col = (rel, name) => {
    const info = results.get(rel);
    const c = info.flat.findIndex(f => f.name === name);
    if (c < 0) throw new Error(`${rel}: no column ${name}`);
    return info.tokens.map(r => r[c]);
  };
  const expectCol = (rel, name, want, label) => {
    const got = col(rel, name);
    const bad = [];
    if (got.length !== want.length) bad.push(`rows ${got.length} vs ${want.length}`);
    for (let r = 0; r < Math.min(got.length, want.length); r++) if (got[r] !== want[r]) bad.push(`row ${r}: ${got[r]} vs ${want[r]}`);
    checks.push(`${rel} ${name}: ${label}: ${bad.length ? 'MISMATCH ' + bad.slice(0, 5).join('; ') : 'ok'}`);
    if (bad.length) problems.push(`${rel} ${name}: ${bad.slice(0, 5).join('; ')}`);
  };
  const checks = [];
  const range = (a, b, f) => Array.from({ length: b - a + 1 }, (_, k) => f(a + k));

  // file order is 4,5,6,7,2,3,0,1 (DuckDB's and DataFusion's own tests of this file say the same)
  expectCol('data/alltypes_plain.parquet', 'id', [4, 5, 6, 7, 2, 3, 0, 1].map(tokInt), 'ids 4,5,6,7,2,3,0,1');
  for (const rel of ['data/int32_decimal.parquet', 'data/int64_decimal.parquet', 'data/fixed_length_decimal.parquet',
    'data/fixed_length_decimal_legacy.parquet', 'data/byte_array_decimal.parquet']) {
    expectCol(rel, 'value', range(1, 24, i => tokReal(i)), '1.00..24.00');
  }
  expectCol('data/concatenated_gzip_members.parquet', 'long_col', range(1, 513, tokInt), '1..513');
  expectCol('data/nan_in_stats.parquet', 'x', ['r:1', 'r:NaN'], '[1.0, NaN]');
  expectCol('data/float16_nonzeros_and_nans.parquet', 'x',
    ['NULL', 'r:1', 'r:-2', 'r:NaN', 'r:0', 'r:-1', 'r:-0', 'r:2'], '[None,1,-2,NaN,0,-1,-0,2]');
  expectCol('data/float16_zeros_and_nans.parquet', 'x', ['NULL', 'r:0', 'r:NaN'], '[None,0,NaN]');
  expectCol('data/datapage_v2_empty_datapage.snappy.parquet', 'value', ['NULL'], 'single null');
  expectCol('data/page_v2_empty_compressed.parquet', 'integer_column', range(1, 10, () => 'NULL'), 'all null');
  expectCol('data/single_nan.parquet', 'mycol', ['NULL'], 'one NULL (null_count=1)');
  expectCol('data/binary.parquet', 'foo', range(0, 11, i => 'b:' + pad(i.toString(16), 2)), 'bytes 0x00..0x0B');
  expectCol('data/int96_from_spark.parquet', 'a',
    [1704141296123456n, 1704070800000000n, 253402225200000000n, 1735599600000000n, null, 9089380393200000000n]
      .map(us => us === null ? 'NULL' : tokText(fmtTimestampNanos(us * 1000n))), 'int96_from_spark.md microseconds');
  expectCol('data/unknown-logical-type.parquet', 'column with known type', range(1, 3, i => tokText('known string ' + i)), 'known string N');
  expectCol('data/unknown-logical-type.parquet', 'column with unknown type',
    range(1, 3, i => tokBlob(new TextEncoder().encode('unknown string ' + i))), 'unknown string N as bytes');
  {
    const rel = 'data/int32_with_null_pages.parquet';
    const v = col(rel, 'int32_field');
    const nulls = v.filter(t => t === 'NULL').length;
    const ints = v.filter(t => t !== 'NULL').map(t => BigInt(t.slice(2)));
    const min = ints.reduce((a, b) => (b < a ? b : a)), max = ints.reduce((a, b) => (b > a ? b : a));
    const ok = nulls === 275 && min === -2136906554n && max === 2145722375n && v.slice(200, 300).every(t => t === 'NULL');
    checks.push(`${rel}: 275 nulls, min/max, rows 200-299 null: ${ok ? 'ok' : 'MISMATCH'}`);
    if (!ok) problems.push(rel);
  }
  {
    const rel = 'data/fixed_length_byte_array.parquet';
    const v = col(rel, 'flba_field');
    const nn = v.filter(t => t !== 'NULL');
    const ok = v.length === 1000 && v.length - nn.length === 105 && nn.every(t => t.length === 10)
      && nn.map(t => t.slice(2)).sort().at(0) === '00000001' && nn.map(t => t.slice(2)).sort().at(-1) === '000003e8';
    checks.push(`${rel}: 1000 rows, 105 nulls, min 0x00000001, max 0x000003E8: ${ok ? 'ok' : 'MISMATCH'}`);
    if (!ok) problems.push(rel);
  }
  {
    const rel = 'data/byte_stream_split_extended.gzip.parquet';
    for (const base of ['float16', 'float', 'double', 'int32', 'int64', 'flba5', 'decimal']) {
      const a = col(rel, base + '_plain'), b = col(rel, base + '_byte_stream_split');
      const ok = a.length === 200 && a.every((t, i) => t === b[i]);
      checks.push(`${rel}: ${base}_plain == ${base}_byte_stream_split: ${ok ? 'ok' : 'MISMATCH'}`);
      if (!ok) problems.push(`${rel} ${base}`);
    }
  }
  {
    const rel = 'data/delta_length_byte_array.parquet';
    const v = col(rel, 'FRUIT');
    const ok = v.length === 1000 && v.every((t, i) => t === tokText('apple_banana_mango' + i * i));
    checks.push(`${rel}: "apple_banana_mango"+i^2: ${ok ? 'ok' : 'MISMATCH'}`);
    if (!ok) problems.push(rel);
  }
  // delta_*_expect.csv, column by column
  for (const base of ['delta_binary_packed', 'delta_byte_array', 'delta_encoding_optional_column', 'delta_encoding_required_column']) {
    const rel = `data/${base}.parquet`;
    const info = results.get(rel);
    const csv = parseCsv(fs.readFileSync(path.join(CORPUS, `data/${base}_expect.csv`), 'utf8'));
    const header = csv.shift();
    if (header.length !== info.flat.length) problems.push(`${base}: csv has ${header.length} columns, file ${info.flat.length}`);
    const mism = [];
    for (let c = 0; c < header.length; c++) {
      const m = info.flat[c].map;
      let bad = 0, first = '';
      for (let r = 0; r < Math.max(csv.length, info.tokens.length); r++) {
        const f = csv[r]?.[c];
        let want;
        if (!f) want = '<missing>';
        else if (!f.q && f.s === '') want = 'NULL';
        else if (m.kind === 'text') want = tokText(f.s);
        else want = tokInt(BigInt(f.s));
        const got = info.tokens[r]?.[c];
        if (got !== want) { bad++; if (!first) first = `row ${r}: got ${got} want ${want}`; }
      }
      if (bad) mism.push(`${info.flat[c].name} (csv "${header[c].s}"): ${bad} rows differ, first ${first}`);
    }
    checks.push(`${rel} vs ${base}_expect.csv (${csv.length} rows x ${header.length} cols): ${mism.length ? 'MISMATCH ' + mism.join('; ') : 'ok'}`);
    if (mism.length) problems.push(...mism.map(m => `${base}: ${m}`));
  }
  return { checks, problems };
}

// ---------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------

// Files whose pages carry a deliberately wrong CRC. Neither DuckDB nor hyparquet verifies page CRCs
// (INDEX.md lists DuckDB as a known-wrong reference here); the expected values are what the
// stored bytes decode to, which a reader that does not verify CRCs returns.
const CRC_CORRUPT = {
  'data/datapage_v1-corrupt-checksum.parquet': 'CRC NOT VERIFIED: values as stored; column a page 0 and column b page 1 have wrong CRCs '
    + '(0-based row 1286 of a and row 3911 of b differ by one bit from datapage_v1-uncompressed-checksum); a CRC-verifying reader must fail instead',
  'data/rle-dict-uncompressed-corrupt-checksum.parquet': 'CRC NOT VERIFIED: values as stored; both dictionary pages have wrong CRCs; '
    + 'a CRC-verifying reader must fail instead',
};

function statusOf(rel, info) {
  if (rel.endsWith('.encrypted')) return 'checked: generate_encryption_expected.mjs (documented values)';
  if (rel.startsWith('bad_data/')) return 'skipped: bad_data (invalid file, no expected values)';
  if (rel.startsWith('shredded_variant/')) {
    return /case-(040|042|087|127|128|137)\.parquet$/.test(rel)
      ? 'not here: an error case, see error_cases.tsv'
      : 'not here: generate_variant_expected.py (from the .variant.bin companion)';
  }
  const parts = [];
  if (CRC_CORRUPT[rel]) parts.push(CRC_CORRUPT[rel]);
  if (info.tokens) {
    const hypCols = info.flat.filter((_, c) => !info.duckOk[c]).map(f => f.name);
    const duckCols = info.flat.filter((_, c) => info.duckOk[c]).map(f => f.name);
    if (duckCols.length) {
      let s = info.hypErr ? `checked (DuckDB only; hyparquet fails: ${info.hypErr})` : 'checked';
      if (hypCols.length) s += ` (${duckCols.join(', ')}; DuckDB agrees with hyparquet)`;
      parts.push(s);
    }
    if (hypCols.length) {
      const reasons = [...new Set(info.flat.map((_, c) => info.duckColErr[c]).filter(Boolean))];
      parts.push(`produced with hyparquet because DuckDB fails: ${reasons.join(' / ')}`
        + (duckCols.length ? ` (columns ${hypCols.join(', ')})` : ''));
    }
  }
  for (const name of info.nested) {
    const why = NESTED_NOT_CHECKED[`${rel}|${name}`];
    if (why) parts.push(`nested ${name}: ${why}; row count from ${info.source}`);
  }
  if (info.nestedResults.length) {
    const groups = new Map();
    for (const n of info.nestedResults) groups.set(n.how, [...(groups.get(n.how) ?? []), n.name]);
    for (const [how, names] of groups) parts.push(`nested ${names.join(', ')}: ${how}`);
  }
  if (!info.flat.length && !info.nested.length) parts.push('no columns');
  for (const n of info.notes) parts.push(n);
  return parts.join('; ');
}

async function main() {
  fs.mkdirSync(OUT, { recursive: true });
  const all = listCorpus();
  const included = all.filter(rel => rel.startsWith('data/') && rel.endsWith('.parquet'));
  const results = new Map();
  const disagreements = [];
  for (const rel of included) {
    const info = await processFile(rel);
    results.set(rel, info);
    disagreements.push(...info.disagreements);
    process.stderr.write(`${rel}: ${info.rows} rows, ${info.flat.length} flat, ${info.nested.length} nested, source ${info.source}`
      + (info.flat.length ? (info.crossChecked.every(Boolean) ? ', cross-checked duckdb/hyparquet'
        : `, cross-checked ${info.crossChecked.filter(Boolean).length}/${info.flat.length} columns (duckdb: ${info.duckErr ?? 'ok'}; hyparquet: ${info.hypErr ?? 'ok'})`) : '')
      + (info.disagreements.length ? `, ${info.disagreements.length} DISAGREEMENTS` : '') + '\n');
  }
  if (disagreements.length) {
    for (const d of disagreements.slice(0, 50)) console.error(`unreviewed disagreement ${d.key}: duckdb ${d.duckdb} | hyparquet ${d.hyparquet}`);
    console.error(`${disagreements.length} unreviewed DuckDB/hyparquet disagreements; review them and add them to REVIEWED`);
    process.exit(1);
  }
  const { checks, problems } = documentedChecks(results);
  for (const c of checks) console.log('check: ' + c);
  if (problems.length) {
    console.error('documented-content checks failed:\n  ' + problems.join('\n  '));
    process.exit(1);
  }

  // write expected files, remove stale ones
  const wanted = new Set();
  for (const info of results.values()) { writeExpected(info); wanted.add(expectedName(info.rel)); }
  // (shredded_variant__*.tsv come from generate_variant_expected.py, the encrypted files'
  // expected values from generate_encryption_expected.mjs)
  for (const f of fs.readdirSync(OUT)) {
    if (f.endsWith('.tsv') && !wanted.has(f) && !f.startsWith('shredded_variant__') && !f.endsWith('.encrypted.tsv')) {
      fs.unlinkSync(path.join(OUT, f));
    }
  }

  // status table into README.md
  const table = ['| file | rows | status |', '|---|---|---|'];
  let nChecked = 0, nHyp = 0, nSkipped = 0, nNestedOnly = 0;
  for (const rel of all) {
    const info = results.get(rel);
    const st = statusOf(rel, info);
    if (!info) nSkipped++;
    else if (info.source === 'hyparquet' || info.source === 'duckdb+hyparquet') nHyp++;
    else if (info.flat.length) nChecked++;
    else nNestedOnly++;
    table.push(`| ${rel} | ${info ? info.rows : ''} | ${st.replaceAll('|', '\\|')} |`);
  }
  const summary = `${all.length} corpus files: ${results.size} expected files written (${nChecked} checked with DuckDB, `
    + `${nHyp} produced with hyparquet, ${nNestedOnly} with nested columns only), ${nSkipped} skipped.`;
  if (fs.existsSync(README)) {
    const md = fs.readFileSync(README, 'utf8');
    const begin = '<!-- status:begin (generated by generate_expected.mjs) -->', end = '<!-- status:end -->';
    const a = md.indexOf(begin), b = md.indexOf(end);
    if (a >= 0 && b > a) {
      fs.writeFileSync(README, md.slice(0, a + begin.length) + '\n\n' + summary + '\n\n' + table.join('\n') + '\n\n' + md.slice(b));
    }
  }
  console.log(summary);
}

await main();

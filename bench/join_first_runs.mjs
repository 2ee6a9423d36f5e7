// Issue 49's join check: the first run of each join (a fresh connection, which builds the
// join index) and the later runs (the index kept) of our table, against DuckDB's one-thread
// time measured just before and just after them, round after round, so that every ratio is
// taken side by side on a machine whose speed drifts. One or more builds can be compared
// in the same rounds (their order alternating), e.g. a change against main. See
// bench/README.md ("Joins").
//
//   node bench/join_first_runs.mjs --data DIR [--build DIR[,DIR...]] [--rounds N] [--only j1,j3,j5] [--duck-cold]
//
// --duck-cold also times DuckDB's own first run in each round: a new node process with a
// new DuckDB instance (one thread) runs the join once, as our first run runs in a new
// process; printed beside the ratios, for context (the targets compare with the median).
//
// DIR holds ours_snappy.parquet and parts.parquet as `node bench/run.mjs` writes them
// (BUILD/bench-data/rows-N). Each round prints DuckDB's median of 3 runs, and per build the
// first run (wall and CPU ms) and the median of 3 later runs, each as a ratio to DuckDB's.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
const benchDir = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(benchDir, 'package.json'));
const api = require('@duckdb/node-api');
const option = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
};
const builds = option('--build', path.join(benchDir, '..', 'build')).split(',').map((b) => path.resolve(b));
const rounds = Number(option('--rounds', '3'));
const only = option('--only', 'j1,j3,j5').split(',');
const data = option('--data', null);
const coldChild = option('--cold-child', null);  // internal: DuckDB's first run of this join, in this new process
const duckCold = process.argv.includes('--duck-cold');
if (!data) {
  console.error('usage: node bench/join_first_runs.mjs --data DIR [--build DIR[,DIR...]] [--rounds N] [--only j1,j3,j5]');
  process.exit(2);
}
const file = path.resolve(data, 'ours_snappy.parquet'), parts = path.resolve(data, 'parts.parquet');
const instance = await api.DuckDBInstance.create(':memory:');
const duck = await instance.connect();
await duck.run('SET threads=1');
await duck.run(`CREATE VIEW lineitem AS SELECT * FROM read_parquet('${file}')`);
await duck.run(`CREATE VIEW parts AS SELECT * FROM read_parquet('${parts}')`);
const maxOrder = Number((await duck.runAndReadAll('SELECT max(l_orderkey) FROM lineitem')).getRowsJson()[0][0]);
const keys = (step) => `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000) SELECT i * ${step} AS k FROM n`;
const orderStep = Math.max(1, Math.floor(maxOrder / 1000));
const join = (c) => `SELECT count(*), sum(l_quantity) FROM keys JOIN lineitem ON ${c} = k`;
const Q = {
  j1: { s: [`CREATE TEMP TABLE keys AS ${keys(199)}`], d: `CREATE OR REPLACE TEMP TABLE keys AS SELECT i * 199 AS k FROM range(1, 1001) t(i)`, sql: join('l_partkey') },
  j2: { s: ['CREATE TEMP TABLE keys(k INTEGER)', `INSERT INTO keys ${keys(199)}`], d: `CREATE OR REPLACE TEMP TABLE keys AS SELECT CAST(i * 199 AS BIGINT) AS k FROM range(1, 1001) t(i)`, sql: join('l_partkey') },
  j3: { s: [`CREATE TEMP TABLE keys AS ${keys(orderStep)}`], d: `CREATE OR REPLACE TEMP TABLE keys AS SELECT i * ${orderStep} AS k FROM range(1, 1001) t(i)`, sql: join('l_orderkey') },
  j4: { s: ['CREATE TEMP TABLE keys(k INTEGER)', `INSERT INTO keys ${keys(orderStep)}`], d: `CREATE OR REPLACE TEMP TABLE keys AS SELECT CAST(i * ${orderStep} AS BIGINT) AS k FROM range(1, 1001) t(i)`, sql: join('l_orderkey') },
  j5: { s: [`CREATE VIRTUAL TABLE temp.parts USING parquet('${parts}')`], d: null, sql: 'SELECT count(*), sum(l_quantity * p_price) FROM parts JOIN lineitem ON l_partkey = p_partkey' },
};
if (coldChild) {
  const q = Q[coldChild];
  if (q.d) await duck.run(q.d);
  const start = performance.now();
  await duck.runAndReadAll(q.sql);
  console.log(String(performance.now() - start));
  process.exit(0);
}
// DuckDB's first run of join `id` in a new process (its instance new too).
function duckFirst(id) {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--data', data, '--cold-child', id],
                      { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`DuckDB's first run failed: ${r.stderr}`);
  return Number(r.stdout.trim());
}
function ours(build, q, runs, warm) {
  const args = ['--db', ':memory:', '--extension', `${build}/parquet`, '--setup', `CREATE VIRTUAL TABLE temp.lineitem USING parquet('${file}')`];
  for (const s of q.s) args.push('--setup', s);
  args.push('--sql', q.sql, '--runs', String(runs), '--warmup', String(warm));
  const r = spawnSync(`${build}/bench_driver`, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`bench_driver failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}
async function duckTime(q, runs) {
  if (q.d) await duck.run(q.d);
  await duck.runAndReadAll(q.sql);
  const t = []; let res;
  for (let i = 0; i < runs; i++) { const s = performance.now(); res = await duck.runAndReadAll(q.sql); t.push(performance.now() - s); }
  return { times_ms: t, result: res.getRowsJson() };
}
// Our answer against DuckDB's (a count and a sum, DuckDB's count as a string): to 1e-9 relative.
const agrees = (ours, theirs) => ours.length === 1 && theirs.length === 1 && ours[0].length === theirs[0].length &&
  ours[0].every((v, i) => Math.abs(Number(v) - Number(theirs[0][i])) <= 1e-9 * Math.max(1, Math.abs(Number(v))));
let mismatches = 0;
const med = (a) => { const b = [...a].sort((x, y) => x - y); return b[Math.floor(b.length / 2)]; };
for (const id of only) {
  const q = Q[id];
  for (let round = 0; round < rounds; round++) {
    const d = await duckTime(q, 3);
    const dm = med(d.times_ms);
    const parts = [];
    const order = round % 2 === 0 ? builds : [...builds].reverse();
    for (const b of order) {
      const name = path.relative(process.cwd(), b) || b;
      const first = ours(b, q, 1, 0);
      const kept = ours(b, q, 3, 1);
      parts.push(`${name}: first ${first.times_ms[0].toFixed(0)} (cpu ${first.cpu_times_ms[0].toFixed(0)}) = ${(first.times_ms[0] / dm).toFixed(2)}x, kept ${med(kept.times_ms).toFixed(0)} = ${(med(kept.times_ms) / dm).toFixed(2)}x${agrees(first.result, d.result) && agrees(kept.result, d.result) ? '' : ' MISMATCH'}`);
      if (!agrees(first.result, d.result) || !agrees(kept.result, d.result)) mismatches++;
    }
    const d2 = await duckTime(q, 3);
    const cold = duckCold ? `, its first run in a new process ${duckFirst(id).toFixed(0)}` : '';
    console.log(`${id} round ${round + 1}: duck1t ${dm.toFixed(0)} (after: ${med(d2.times_ms).toFixed(0)}${cold}) | ${parts.join(' | ')}`);
  }
}
if (mismatches > 0) {
  console.error(`${mismatches} answer(s) differ from DuckDB's`);
  process.exit(1);
}

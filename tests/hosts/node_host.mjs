// Node with better-sqlite3 (its bundled SQLite) as a host: loads the extension with
// db.loadExtension, compares the parquet table with the native one for parameters of every
// type (BigInt -> INTEGER, number -> REAL, string, Buffer -> BLOB, null) bound by name,
// writes with parquet_copy and reads back. better-sqlite3 has no binding of
// sqlite3_interrupt (and a statement running in a worker cannot be stopped from outside):
// that check is skipped, said so. Prints ok/FAIL/SKIP lines like tests/hosts/hosts.py.
// Usage: node tests/hosts/node_host.mjs EXTENSION_PATH
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

// better-sqlite3 as the dist suite pins and installs it (tests/dist/node/).
const require = createRequire(new URL('../dist/node/package.json', import.meta.url));
const Database = require('better-sqlite3');
const cases = JSON.parse(fs.readFileSync(new URL('./cases.json', import.meta.url), 'utf8'));
const extension = process.argv[2];

const db = new Database(':memory:');
const version = db.prepare('SELECT sqlite_version() AS v').get().v;
const host = `node ${process.version} better-sqlite3 ${require('better-sqlite3/package.json').version} sqlite ${version}`;
let failed = 0;
const check = (name, ok, detail) => {
  if (!ok) failed++;
  console.log(ok ? `ok ${host}: ${name}` : `FAIL ${host}: ${name}: ${detail}`);
};

const nodeValue = (param) => {
  switch (param.type) {
    case 'integer': return BigInt(param.value);
    case 'blob': return Buffer.from(param.value, 'hex');
    default: return param.value;  // real: number, text: string, null
  }
};
const literal = (param) => param.type === 'text' ? `'${param.value}'`
  : param.type === 'blob' ? `x'${param.value}'` : param.type === 'real' ? param.value.toFixed(1) : String(param.value);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hosts-node-'));
try {
  db.loadExtension(extension);
  const file = path.join(tmp, 't.parquet').replaceAll("'", "''");
  db.exec(cases.create);
  db.exec('INSERT INTO src VALUES ' + cases.rows.join(', '));
  db.prepare(`SELECT parquet_copy('SELECT * FROM src', '${file}')`).get();
  db.exec(`CREATE VIRTUAL TABLE t USING parquet('${file}')`);
  const n = db.prepare('SELECT count(*) AS n FROM t').get().n;
  const differing = db.prepare('SELECT count(*) AS n FROM (SELECT * FROM t EXCEPT SELECT * FROM src)').get().n;
  check('parquet_copy writes src and t reads it back', n === cases.rows.length && differing === 0,
        `${n} rows, ${differing} differ`);

  for (const param of cases.params) {
    for (const column of cases.columns) {
      for (const where of cases.wheres) {
        const clause = where.replaceAll('{c}', column);
        const name = `${clause} with :v = ${literal(param)} (${param.type})`;
        const run = (table) => db.prepare(cases.select.replace('{table}', table).replace('{where}', clause))
          .pluck().get({ v: nodeValue(param) });
        try {
          const got = run('t'), want = run('src');
          check(name, got === want, `parquet ${got}, native ${want}`);
        } catch (error) {
          check(name, false, error.message);
        }
      }
    }
  }
  console.log(`SKIP ${host}: interrupt a long scan: better-sqlite3 has no binding of sqlite3_interrupt, and a ` +
              'statement running in a worker thread cannot be stopped from outside');
} catch (error) {
  check('load the extension and set up', false, error.message);
} finally {
  db.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

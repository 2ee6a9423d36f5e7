// The wasm suite's Node test of the JavaScript API (wasm/api.mjs, from the built package
// build-wasm/pkg): open, exec, query and queryArrays with parameters, registerFile, readFile
// and close; parquet_copy with every codec and with encryption read back; the metadata
// functions; a database file's bytes opened; and https-style remote reads through the Node
// helper (wasm/host_http.js) against tests/wasm/range_server.mjs started here: a point
// lookup, the bytes it fetched, a server that ignores Range, an unreachable server.
//   node tests/wasm/api_test.mjs --pkg build-wasm/pkg [--corpus DIR]
// Last line: "api: N passed, M failed".
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const pkg = resolve(option("--pkg", "build-wasm/pkg"));
const corpus = resolve(option("--corpus", process.env.PARQUET_TESTING ?? "../shared/parquet-testing"));
const api = await import(pathToFileURL(join(pkg, "api.mjs")).href);

let passed = 0, failed = 0;
function check(name, condition, detail = "") {
  if (condition) {
    passed++;
  } else {
    failed++;
    console.log(`FAILED: ${name}${detail ? `: ${detail}` : ""}`);
  }
}
function throws(name, run, pattern) {
  try {
    run();
    check(name, false, "no error");
  } catch (error) {
    check(name, pattern.test(String(error.message)), `error was: ${error.message}`);
  }
}

// A parquet table over ARGS (the vtab's arguments), under a new name.
let tables = 0;
function table(db, args) {
  const name = `t${++tables}`;
  db.exec(`CREATE VIRTUAL TABLE ${name} USING parquet(${args})`);
  return name;
}

const work = mkdtempSync(join(tmpdir(), "wasm-api-"));
try {
  // Versions: SQLite of the amalgamation, the extension registered for every connection.
  const versions = await api.versions();
  check("sqlite version", /^3\.\d+\.\d+$/.test(versions.sqlite), versions.sqlite);
  const built = JSON.parse(versions.parquet);
  check("parquet_version", typeof built.version === "string" && built.version.length > 0, versions.parquet);

  const db = await api.open();
  // exec, query, queryArrays, parameters.
  db.exec("CREATE TABLE t(a INTEGER, b TEXT, c REAL, d BLOB); INSERT INTO t VALUES (1, 'x', 1.5, x'0102'), (2, NULL, NULL, NULL)");
  const rows = db.query("SELECT * FROM t ORDER BY a");
  check("query objects", rows.length === 2 && rows[0].a === 1 && rows[0].b === "x" && rows[0].c === 1.5 &&
        rows[0].d instanceof Uint8Array && rows[0].d[1] === 2 && rows[1].b === null, JSON.stringify(rows));
  const arrays = db.queryArrays("SELECT a, b FROM t WHERE a = ?", [2]);
  check("queryArrays", arrays.length === 1 && arrays[0][0] === 2 && arrays[0][1] === null &&
        arrays.columns.join() === "a,b", JSON.stringify(arrays));
  const empty = db.queryArrays("SELECT a, b FROM t WHERE a > 5");
  check("queryArrays columns without rows", empty.length === 0 && empty.columns.join() === "a,b", String(empty.columns));
  const named = db.query("SELECT :x + 1 AS y, $s AS s, @big AS big", { x: 41, s: "text", big: 2n ** 60n });
  check("named parameters", named[0].y === 42 && named[0].s === "text" && named[0].big === 2n ** 60n, String(named[0].big));
  throws("SQL error", () => db.query("SELECT * FROM nope"), /no such table: nope/);

  // registerFile (Uint8Array) and a parquet table over it; results as the native build's.
  const alltypes = readFileSync(join(corpus, "data/alltypes_plain.parquet"));
  await db.registerFile("alltypes.parquet", new Uint8Array(alltypes));
  const counted = db.query(`SELECT count(*) AS n, sum(id) AS s, group_concat(string_col, '') AS t FROM ${table(db, `'alltypes.parquet'`)}`);
  check("parquet over a registered Uint8Array", counted[0].n === 8 && counted[0].s === 28, JSON.stringify(counted));
  const schema = db.query("SELECT name, type FROM parquet_schema('alltypes.parquet') WHERE name = 'id'");
  check("parquet_schema", schema.length === 1 && schema[0].type === "INT32", JSON.stringify(schema));
  // No table-valued parquet('file') (docs/wasm.md says why); the temp table in its place,
  // made and dropped, and made and queried in one call.
  throws("parquet('file') in FROM is no table", () => db.query("SELECT * FROM parquet('alltypes.parquet')"), /no such table: parquet/);
  db.exec("CREATE VIRTUAL TABLE temp.x USING parquet('alltypes.parquet')");
  const viaTemp = db.query("SELECT id FROM x WHERE id = ?", [7]);
  db.exec("DROP TABLE temp.x");
  const oneCall = db.query("CREATE VIRTUAL TABLE temp.y USING parquet('alltypes.parquet'); SELECT count(*) AS n FROM y");
  const tempLeft = db.queryArrays("SELECT name FROM sqlite_temp_master ORDER BY name").map((row) => row[0]).join();
  db.exec("DROP TABLE temp.y");
  check("a temp table in place of parquet('file')", viaTemp.length === 1 && viaTemp[0].id === 7 && oneCall[0].n === 8 &&
        tempLeft === "y,y_schema" && db.query("SELECT count(*) AS n FROM main.sqlite_master WHERE name IN ('x', 'y')")[0].n === 0,
        `${JSON.stringify(viaTemp)} ${JSON.stringify(oneCall)} ${tempLeft}`);
  const meta = db.query("SELECT num_rows FROM parquet_file_metadata('alltypes.parquet')");
  check("parquet_file_metadata", meta.length === 1 && meta[0].num_rows === 8, JSON.stringify(meta));
  const blobFile = new Blob([alltypes]);
  await db.registerFile("dir/blob.parquet", blobFile);
  check("registerFile of a Blob (Node: read first)",
        db.query(`SELECT count(*) AS n FROM ${table(db, `'dir/blob.parquet'`)}`)[0].n === 8);

  // parquet_copy with every codec (no writer thread in wasm), read back through readFile.
  db.exec("CREATE TABLE src AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000) " +
          "SELECT i AS id, 'name ' || (i % 97) AS name, i * 0.5 AS score FROM n");
  // (parquet_copy writes LZ4_RAW, not the deprecated Hadoop LZ4, which the sql suite reads.)
  for (const codec of ["uncompressed", "snappy", "gzip", "brotli", "zstd", "lz4_raw"]) {
    const path = `out_${codec}.parquet`;
    try {
      db.exec(`SELECT parquet_copy('SELECT * FROM src', '${path}', 'compression=${codec}', 'row_group_size=1000')`);
      const bytes = db.readFile(path);
      check(`parquet_copy ${codec} wrote a file`, bytes.length > 100 && bytes[0] === 0x50 && bytes[bytes.length - 1] === 0x31);
      await db.registerFile(`back_${codec}.parquet`, bytes);
      const back = db.query(`SELECT count(*) AS n, sum(id) AS s, sum(score) AS sc, count(DISTINCT name) AS d FROM ${table(db, `'back_${codec}.parquet'`)}`);
      check(`parquet_copy ${codec} read back`, back[0].n === 5000 && back[0].s === 12502500 && back[0].sc === 6251250 && back[0].d === 97,
            JSON.stringify(back));
      const codecs = db.query(`SELECT DISTINCT compression FROM parquet_metadata('back_${codec}.parquet')`).map((r) => r.compression);
      check(`parquet_copy ${codec} codec in the metadata`, codecs.length === 1 &&
            codecs[0].toLowerCase() === codec,
            JSON.stringify(codecs));
    } catch (error) {
      check(`parquet_copy ${codec}`, false, error.message);
    }
  }

  // Encryption (OpenSSL built for wasm32): written, then read with and without the key.
  db.exec("SELECT parquet_copy('SELECT * FROM src', 'secret.parquet', 'encryption=aes_gcm', 'footer_key=0123456789012345')");
  const secret = db.query(`SELECT count(*) AS n, max(name) AS m FROM ${table(db, `'secret.parquet', footer_key='0123456789012345'`)}`);
  check("encrypted round trip", secret[0].n === 5000 && secret[0].m === "name 96", JSON.stringify(secret));
  throws("encrypted file without its key", () => db.query(`SELECT count(*) FROM ${table(db, `'secret.parquet'`)}`), /encrypt|key/i);

  // A database file's bytes: VACUUM INTO, read, opened again.
  db.exec("VACUUM INTO 'copy.db'");
  const image = db.readFile("copy.db");
  const reopened = await api.open(image);
  check("open(bytes)", reopened.query("SELECT count(*) AS n FROM src")[0].n === 5000);
  reopened.close();
  // Bytes that are not a database: opened (SQLite reads them lazily), refused at first use.
  const bad = await api.open(new Uint8Array(4096).fill(7));
  throws("open(not a database)", () => bad.query("SELECT count(*) FROM sqlite_master"), /not a database/);
  bad.close();

  // Remote reads through the Node helper thread, against a loopback server in another process.
  const data = join(work, "data");
  const { mkdirSync } = await import("node:fs");
  mkdirSync(data);
  db.exec(`SELECT parquet_copy('WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 199999) ` +
          `SELECT i AS id, printf(''row %08d %s'', i, hex(randomblob(24))) AS payload FROM n', 'big.parquet', ` +
          `'row_group_size=50000', 'page_size=8192', 'compression=snappy')`);
  const big = db.readFile("big.parquet");
  writeFileSync(join(data, "big.parquet"), big);
  const logPath = join(work, "requests.log");
  const server = spawn(process.execPath, [new URL("./range_server.mjs", import.meta.url).pathname, "--log", logPath,
                                          "--route", `data=${data}`], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const port = await new Promise((resolvePort, reject) => {
      let text = "";
      server.stdout.on("data", (chunk) => {
        text += chunk;
        const match = /listening (\d+)/.exec(text);
        if (match) resolvePort(Number(match[1]));
      });
      server.on("exit", () => reject(new Error("the range server exited")));
    });
    const url = `http://127.0.0.1:${port}/data/big.parquet`;
    const point = db.query(`SELECT id, substr(payload, 1, 12) AS p FROM ${table(db, `'${url}'`)} WHERE id = 123456`);
    check("remote point lookup", point.length === 1 && point[0].p === "row 00123456", JSON.stringify(point));
    const log = readFileSync(logPath, "utf8").trim().split("\n").map((line) => JSON.parse(line));
    const fetched = log.reduce((sum, entry) => sum + entry.bytes, 0);
    check("remote point lookup reads a small part of the file", fetched < big.length / 4,
          `${fetched} of ${big.length} bytes in ${log.length} requests`);
    check("remote requests are ranged", log.every((entry) => entry.status === 206 || entry.status === 304), JSON.stringify(log.slice(0, 3)));
    const total = db.query(`SELECT count(*) AS n FROM ${table(db, `'${url}'`)}`);
    check("remote count", total[0].n === 200000, JSON.stringify(total));
    throws("a server without Range support", () =>
      db.query(`SELECT count(*) FROM ${table(db, `'http://127.0.0.1:${port}/norange/data/big.parquet'`)}`), /Range/);
    throws("a missing remote file", () => db.query(`SELECT count(*) FROM ${table(db, `'http://127.0.0.1:${port}/data/nope.parquet'`)}`),
           /404|not found|nope\.parquet/i);
  } finally {
    server.kill();
  }
  throws("an unreachable server", () => db.query(`SELECT count(*) FROM ${table(db, `'http://127.0.0.1:9/x.parquet'`)}`),
         /no response|cannot be reached|ECONNREFUSED/);

  db.close();
  throws("a closed database", () => db.query("SELECT 1"), /closed/);
} catch (error) {
  check("the test ran to its end", false, error.stack);
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(`api: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);

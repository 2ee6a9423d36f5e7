// Node side of tests/dist: run in a fresh project into which the packed npm tarball was
// installed (better-sqlite3 comes from tests/dist/node/node_modules through NODE_PATH).
// Checks the package's API with better-sqlite3 and runs real queries and a parquet_copy;
// node:sqlite is tested when this Node has it (22.13+: DatabaseSync with allowExtension).
// One "ok"/"FAIL" line per check, then "N passed, M failed".
//   node node_test.js VERSION_FILE WORKDIR
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const [versionFile, workdir] = process.argv.slice(2);
let passed = 0;
let failed = 0;
function check(name, condition, detail = "") {
  if (condition) {
    passed++;
    console.log(`ok   node: ${name}`);
  } else {
    failed++;
    console.log(`FAIL node: ${name} ${detail}`);
  }
}

function exercise(label, db, loadable) {
  const info = JSON.parse(db.prepare("SELECT parquet_version() AS v").get().v);
  check(`${label}: parquet_version() matches the package`, info.version === loadable.version && info.linkage === "static",
        JSON.stringify(info));
  db.exec("CREATE TABLE events(id INTEGER, kind TEXT, value REAL)");
  const insert = db.prepare("INSERT INTO events VALUES (?, ?, ?)");
  for (let i = 0; i < 500; i++) insert.run(i, `kind ${i % 5}`, i / 4);
  const out = path.join(workdir, `${label}.parquet`);
  const written = db.prepare("SELECT parquet_copy('SELECT * FROM events', ?, 'compression=snappy') AS n").get(out).n;
  check(`${label}: parquet_copy writes every row`, Number(written) === 500, String(written));
  db.exec(`CREATE VIRTUAL TABLE back USING parquet('${out.replace(/'/g, "''")}')`);
  const query = (table) => JSON.stringify(db.prepare(
    `SELECT kind, count(*) AS n, sum(value) AS total FROM ${table} WHERE id % 3 = 0 GROUP BY kind ORDER BY kind`).all());
  check(`${label}: the copy reads back with the same groups`, query("back") === query("events"), query("back"));
}

try {
  const loadable = require("sqlite-parquet");
  const expected = fs.readFileSync(versionFile, "utf8").trim();
  check("version is the VERSION file's", loadable.version === expected, `${loadable.version} != ${expected}`);
  const file = loadable.getLoadablePath();
  check("getLoadablePath() is the installed parquet.so",
        fs.existsSync(file) && file.startsWith(path.resolve("node_modules", "sqlite-parquet")), file);

  check("getLoadablePath() picks lib/PLATFORM-ARCH/ of the running process",
        file === path.join(path.dirname(require.resolve("sqlite-parquet")), "lib", `${process.platform}-${process.arch}`,
                           process.platform === "win32" ? "parquet.dll" : "parquet.so"), file);
  check("availablePlatforms() lists linux-arm64 and linux-x64",
        ["linux-arm64", "linux-x64"].every((p) => loadable.availablePlatforms().includes(p)),
        JSON.stringify(loadable.availablePlatforms()));
  const arm64 = loadable.getLoadablePath("linux", "arm64");
  check("getLoadablePath('linux', 'arm64') is the AArch64 build in lib/linux-arm64/",
        arm64.endsWith(path.join("lib", "linux-arm64", "parquet.so")) &&
        fs.readFileSync(arm64).readUInt16LE(18) === 183, arm64);  // ELF e_machine 183: EM_AARCH64
  const windows = loadable.getLoadablePath("win32", "x64");
  check("getLoadablePath('win32', 'x64') is the Windows DLL in lib/win32-x64/",
        windows.endsWith(path.join("lib", "win32-x64", "parquet.dll")) &&
        fs.readFileSync(windows).subarray(0, 2).toString() === "MZ", windows);  // a PE file
  let lacking = "";
  try {
    loadable.getLoadablePath("freebsd", "riscv64");
  } catch (error) {
    lacking = error.message;
  }
  check("getLoadablePath() on a platform it lacks throws, naming it and what the package has",
        lacking.includes("no build for freebsd-riscv64") && lacking.includes("linux-x64"), lacking);

  const Database = require("better-sqlite3");
  const db = new Database(":memory:");
  loadable.load(db);
  exercise("better-sqlite3", db, loadable);
  db.close();

  let nodeSqlite = null;
  try {
    nodeSqlite = require("node:sqlite");
  } catch {
    console.log(`skip node: node:sqlite is not in Node ${process.version}`);
  }
  if (nodeSqlite && typeof nodeSqlite.DatabaseSync.prototype.loadExtension === "function") {
    const db2 = new nodeSqlite.DatabaseSync(":memory:", { allowExtension: true });
    loadable.load(db2);
    exercise("node-sqlite", db2, loadable);
  } else if (nodeSqlite) {
    console.log(`skip node: node:sqlite of Node ${process.version} cannot load extensions`);
  }
} catch (error) {
  check("no exception", false, String(error && error.stack));
}
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;

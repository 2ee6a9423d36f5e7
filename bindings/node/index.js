// sqlite-parquet for Node.js: the path of the self-contained extension shipped in this
// package for the running platform (lib/<platform>-<arch>/: linux-x64/parquet.so,
// win32-x64/parquet.dll) and load(db) for better-sqlite3 and node:sqlite (both name the
// method loadExtension; node:sqlite needs `new DatabaseSync(file, { allowExtension: true })`).
"use strict";
const path = require("node:path");
const { version } = require("./package.json");

// The binaries this package carries, by process.platform and process.arch.
const BINARIES = { "linux-x64": "parquet.so", "win32-x64": "parquet.dll" };

function getLoadablePath() {
  const platform = `${process.platform}-${process.arch}`;
  const binary = BINARIES[platform];
  if (binary === undefined) {
    throw new Error(`sqlite-parquet: no build for ${platform} (only ${Object.keys(BINARIES).join(", ")})`);
  }
  return path.join(__dirname, "lib", platform, binary);
}

function load(db) {
  if (!db || typeof db.loadExtension !== "function") {
    throw new TypeError("sqlite-parquet: load(db) needs a better-sqlite3 or node:sqlite database");
  }
  db.loadExtension(getLoadablePath());
}

module.exports = { getLoadablePath, load, version };

// sqlite-parquet for Node.js: the path of the self-contained extension shipped in this
// package (Linux x86-64) and load(db) for better-sqlite3 and node:sqlite (both name the
// method loadExtension; node:sqlite needs `new DatabaseSync(file, { allowExtension: true })`).
"use strict";
const path = require("node:path");
const { version } = require("./package.json");

function getLoadablePath() {
  if (process.platform !== "linux" || process.arch !== "x64") {
    throw new Error(`sqlite-parquet: no build for ${process.platform}-${process.arch} (only linux-x64)`);
  }
  return path.join(__dirname, "parquet.so");
}

function load(db) {
  if (!db || typeof db.loadExtension !== "function") {
    throw new TypeError("sqlite-parquet: load(db) needs a better-sqlite3 or node:sqlite database");
  }
  db.loadExtension(getLoadablePath());
}

module.exports = { getLoadablePath, load, version };

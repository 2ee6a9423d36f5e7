// sqlite-parquet for Node.js: the path of the self-contained extension shipped in this
// package for the running platform (lib/PLATFORM-ARCH/parquet.so, or parquet.dll on Windows)
// and load(db) for better-sqlite3 and node:sqlite (both name the method loadExtension;
// node:sqlite needs `new DatabaseSync(file, { allowExtension: true })`).
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { version } = require("./package.json");

const LIB = path.join(__dirname, "lib");

// The binaries this package carries, as "platform-arch" folder names (e.g. linux-x64).
function availablePlatforms() {
  try {
    return fs.readdirSync(LIB).filter((name) => fs.statSync(path.join(LIB, name)).isDirectory()).sort();
  } catch {
    return [];
  }
}

function getLoadablePath(platform = process.platform, arch = process.arch) {
  const file = platform === "win32" ? "parquet.dll" : "parquet.so";
  const loadable = path.join(LIB, `${platform}-${arch}`, file);
  if (!fs.existsSync(loadable)) {
    const have = availablePlatforms();
    throw new Error(`sqlite-parquet: no build for ${platform}-${arch} in this package ` +
                    `(it has: ${have.length ? have.join(", ") : "none"}); build it from source (README)`);
  }
  return loadable;
}

function load(db) {
  if (!db || typeof db.loadExtension !== "function") {
    throw new TypeError("sqlite-parquet: load(db) needs a better-sqlite3 or node:sqlite database");
  }
  db.loadExtension(getLoadablePath());
}

module.exports = { getLoadablePath, availablePlatforms, load, version };

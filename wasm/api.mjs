// The JavaScript API of sqlite-parquet-wasm (docs/wasm.md), the same in browsers and Node 20+:
// SQLite built to WebAssembly with the parquet extension linked in and registered for every
// connection (build-wasm/sqlite-parquet.mjs, cmake/wasm.cmake), wrapped in a small
// synchronous Database class over SQLite's C API. openWorker() runs the same in a Worker
// (worker.mjs) with every method returning a promise, so that queries never block a page.
//
//   const db = await open();                 // in memory; open(bytes) from a database file
//   await db.registerFile("t.parquet", file); // File, Blob or Uint8Array
//   db.exec("CREATE VIRTUAL TABLE t USING parquet('t.parquet')");
//   db.query("SELECT count(*) AS n FROM t");   // [{ n: 1000 }]
//   db.exec("SELECT parquet_copy('SELECT 1 AS x', 'out.parquet')");
//   const bytes = db.readFile("out.parquet");
//   db.close();
//
// Files live in the module's in-memory file system, under the working directory /work. A
// File or Blob registered inside a Worker is read a slice at a time, as queries need
// (WORKERFS, FileReaderSync); elsewhere (a page's main thread, Node) it is read into memory
// first. https:// and http:// URLs are read with Range requests (wasm/host_http.js).
import createSqliteParquet from "./sqlite-parquet.mjs";

const isNode = typeof process === "object" && typeof process.versions === "object" && !!process.versions.node &&
               typeof window === "undefined" && typeof WorkerGlobalScope === "undefined";
const SQLITE_ROW = 100;
const SQLITE_DONE = 101;
const SQLITE_TRANSIENT = -1;
const OPEN_FLAGS = 0x2 | 0x4 | 0x40;  // SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI
const WORK_DIR = "/work";

let modulePromise = null;

// The module, instantiated once per page, Worker or process. options.wasmUrl: where the
// .wasm is (default: beside this file); options.wasmBinary: its bytes.
export function loadModule(options = {}) {
  if (modulePromise === null) {
    modulePromise = (async () => {
      let wasmBinary = options.wasmBinary;
      if (!wasmBinary) {
        const url = options.wasmUrl ?? new URL("./sqlite-parquet.wasm", import.meta.url);
        if (isNode && !/^https?:/.test(String(url))) {
          const { readFile } = await import("node:fs/promises");
          wasmBinary = await readFile(url);
        } else {
          const response = await fetch(url);
          if (!response.ok) throw new Error(`cannot load ${url}: HTTP ${response.status}`);
          wasmBinary = new Uint8Array(await response.arrayBuffer());
        }
      }
      const module = await createSqliteParquet({
        wasmBinary,
        print: options.print ?? ((text) => console.log(text)),
        printErr: options.printErr ?? ((text) => console.warn(text)),
      });
      module.FS.mkdirTree(WORK_DIR);
      module.FS.chdir(WORK_DIR);
      module.pqMounts = 0;
      return module;
    })();
  }
  return modulePromise;
}

// A connection: in memory, or from a database file's bytes (deserialized, then in memory).
export async function open(bytes, options = {}) {
  const module = await loadModule(options);
  return new Database(module, bytes);
}

// The SQLite version and the extension's parquet_version() JSON.
export async function versions(options = {}) {
  const db = await open(undefined, options);
  try {
    const [row] = db.query("SELECT sqlite_version() AS sqlite, parquet_version() AS parquet");
    return row;
  } finally {
    db.close();
  }
}

export class SqliteError extends Error {
  constructor(message, code) {
    super(message);
    this.name = "SqliteError";
    this.code = code;
  }
}

function bytesOf(data) {
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return null;
}

function checkedPath(name) {
  if (typeof name !== "string" || name === "" || name.includes("\0")) {
    throw new TypeError("registerFile: the name must be a non-empty string");
  }
  const parts = name.split("/").filter((part) => part !== "" && part !== ".");
  if (parts.some((part) => part === "..")) throw new TypeError("registerFile: the name may not contain '..'");
  // Absolute (emscripten's FS.mkdirTree takes every path from the root): relative names
  // live in the working directory, where SQL's relative paths resolve too.
  return (name.startsWith("/") ? "/" : `${WORK_DIR}/`) + parts.join("/");
}

export class Database {
  constructor(module, bytes) {
    this.m = module;
    this.db = 0;
    const m = module;
    const pointer = m._malloc(4);
    const name = this.#cString(":memory:");
    const rc = m._sqlite3_open_v2(name, pointer, OPEN_FLAGS, 0);
    m._free(name);
    this.db = m.getValue(pointer, "i32");
    m._free(pointer);
    if (rc !== 0) {
      const message = this.db ? m.UTF8ToString(m._sqlite3_errmsg(this.db)) : "out of memory";
      if (this.db) m._sqlite3_close_v2(this.db);
      this.db = 0;
      throw new SqliteError(`cannot open a database: ${message}`, rc);
    }
    const data = bytes === undefined || bytes === null ? null : bytesOf(bytes);
    if (bytes !== undefined && bytes !== null && data === null) {
      this.close();
      throw new TypeError("open: the database file must be a Uint8Array or an ArrayBuffer");
    }
    if (data !== null && data.length > 0) {
      const size = BigInt(data.length);
      const buffer = m._sqlite3_malloc64(size);
      if (!buffer) {
        this.close();
        throw new SqliteError("open: out of memory for the database file", 7);
      }
      m.HEAPU8.set(data, buffer);
      const main = this.#cString("main");
      // SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE
      const drc = m._sqlite3_deserialize(this.db, main, buffer, size, size, 1 | 2);
      m._free(main);
      if (drc !== 0) {
        const message = m.UTF8ToString(m._sqlite3_errmsg(this.db));
        this.close();
        throw new SqliteError(`open: not a database file: ${message}`, drc);
      }
    }
  }

  #cString(text) {
    const size = this.m.lengthBytesUTF8(text) + 1;
    const pointer = this.m._malloc(size);
    this.m.stringToUTF8(text, pointer, size);
    return pointer;
  }

  #check(rc, what) {
    if (rc !== 0 && rc !== SQLITE_ROW && rc !== SQLITE_DONE) {
      const message = this.m.UTF8ToString(this.m._sqlite3_errmsg(this.db));
      throw new SqliteError(what ? `${what}: ${message}` : message, rc);
    }
  }

  #open() {
    if (!this.db) throw new SqliteError("the database is closed", 21);
  }

  #bind(statement, params) {
    const m = this.m;
    const count = m._sqlite3_bind_parameter_count(statement);
    if (count === 0 || params === undefined || params === null) return;
    const bindOne = (index, value) => {
      let rc;
      if (value === null || value === undefined) {
        rc = m._sqlite3_bind_null(statement, index);
      } else if (typeof value === "bigint") {
        rc = m._sqlite3_bind_int64(statement, index, value);
      } else if (typeof value === "number") {
        rc = Number.isSafeInteger(value) ? m._sqlite3_bind_int64(statement, index, BigInt(value))
                                         : m._sqlite3_bind_double(statement, index, value);
      } else if (typeof value === "boolean") {
        rc = m._sqlite3_bind_int64(statement, index, value ? 1n : 0n);
      } else if (typeof value === "string") {
        const pointer = this.#cString(value);
        rc = m._sqlite3_bind_text(statement, index, pointer, -1, SQLITE_TRANSIENT);
        m._free(pointer);
      } else if (bytesOf(value) !== null) {
        const bytes = bytesOf(value);
        const pointer = m._malloc(Math.max(bytes.length, 1));
        m.HEAPU8.set(bytes, pointer);
        rc = m._sqlite3_bind_blob(statement, index, pointer, bytes.length, SQLITE_TRANSIENT);
        m._free(pointer);
      } else {
        throw new TypeError(`cannot bind a value of type ${typeof value} (parameter ${index})`);
      }
      this.#check(rc, "bind");
    };
    if (Array.isArray(params)) {
      params.forEach((value, i) => { if (i < count) bindOne(i + 1, value); });
    } else if (typeof params === "object") {
      for (const [key, value] of Object.entries(params)) {
        let index = 0;
        for (const prefix of /^[:@$?]/.test(key) ? [""] : [":", "@", "$"]) {
          const name = this.#cString(prefix + key);
          index = m._sqlite3_bind_parameter_index(statement, name);
          m._free(name);
          if (index > 0) break;
        }
        if (index === 0) throw new SqliteError(`no parameter named ${key}`, 25);
        bindOne(index, value);
      }
    } else {
      throw new TypeError("params must be an array or an object");
    }
  }

  #value(statement, column) {
    const m = this.m;
    switch (m._sqlite3_column_type(statement, column)) {
      case 1: {
        const value = m._sqlite3_column_int64(statement, column);
        return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
      }
      case 2:
        return m._sqlite3_column_double(statement, column);
      case 3: {
        const pointer = m._sqlite3_column_text(statement, column);
        const size = m._sqlite3_column_bytes(statement, column);
        return new TextDecoder().decode(m.HEAPU8.subarray(pointer, pointer + size));
      }
      case 4: {
        const pointer = m._sqlite3_column_blob(statement, column);
        const size = m._sqlite3_column_bytes(statement, column);
        return m.HEAPU8.slice(pointer, pointer + size);
      }
      default:
        return null;
    }
  }

  // Runs every statement of `sql`; onRow(values, columns) for each row of each statement,
  // onColumns(columns) for each statement that has result columns (rows or not).
  #run(sql, params, onRow, onColumns = () => {}) {
    this.#open();
    const m = this.m;
    const text = this.#cString(String(sql));
    const slots = m._malloc(8);
    try {
      let at = text;
      for (;;) {
        const rc = m._sqlite3_prepare_v2(this.db, at, -1, slots, slots + 4);
        this.#check(rc);
        const statement = m.getValue(slots, "i32");
        const tail = m.getValue(slots + 4, "i32");
        if (!statement) {  // only whitespace or a comment was left
          if (tail === at || m.HEAPU8[tail] === 0) break;
          at = tail;
          continue;
        }
        try {
          this.#bind(statement, params);
          const count = m._sqlite3_column_count(statement);
          const columns = [];
          for (let i = 0; i < count; i++) columns.push(m.UTF8ToString(m._sqlite3_column_name(statement, i)));
          if (count > 0) onColumns(columns);
          for (;;) {
            const step = m._sqlite3_step(statement);
            if (step === SQLITE_DONE) break;
            if (step !== SQLITE_ROW) this.#check(step);
            const values = new Array(count);
            for (let i = 0; i < count; i++) values[i] = this.#value(statement, i);
            onRow(values, columns);
          }
        } finally {
          m._sqlite3_finalize(statement);
        }
        if (m.HEAPU8[tail] === 0) break;
        at = tail;
      }
    } finally {
      m._free(slots);
      m._free(text);
    }
  }

  // Runs the SQL (one or more statements); rows are discarded.
  exec(sql, params) {
    this.#run(sql, params, () => {});
    return this;
  }

  // The rows of the SQL as objects keyed by column name.
  query(sql, params) {
    const rows = [];
    this.#run(sql, params, (values, columns) => {
      const row = {};
      columns.forEach((name, i) => { row[name] = values[i]; });
      rows.push(row);
    });
    return rows;
  }

  // The rows as arrays; the result's `columns` holds the column names (of the last statement
  // with result columns).
  queryArrays(sql, params) {
    const rows = [];
    let names = [];
    this.#run(sql, params, (values) => rows.push(values), (columns) => { names = columns; });
    Object.defineProperty(rows, "columns", { value: names, enumerable: false });
    return rows;
  }

  // Makes `data` (a File, Blob, Uint8Array or ArrayBuffer) readable as `name`, e.g. by
  // CREATE VIRTUAL TABLE t USING parquet('name'). Inside a Worker a File or Blob is read a slice at a time as queries
  // need; elsewhere it is read into memory first.
  async registerFile(name, data) {
    this.#open();
    const FS = this.m.FS;
    const path = checkedPath(name);
    const slash = path.lastIndexOf("/");
    if (slash > 0) FS.mkdirTree(path.slice(0, slash));
    try {
      FS.unlink(path);
    } catch {
      // nothing there yet
    }
    const bytes = bytesOf(data);
    if (bytes !== null) {
      FS.writeFile(path, bytes);
      return;
    }
    if (typeof Blob !== "undefined" && data instanceof Blob) {
      if (typeof FileReaderSync !== "undefined") {
        const mount = `/mnt/${++this.m.pqMounts}`;
        FS.mkdirTree(mount);
        FS.mount(FS.filesystems.WORKERFS, { blobs: [{ name: "data", data }] }, mount);
        FS.symlink(`${mount}/data`, path);
        return;
      }
      FS.writeFile(path, new Uint8Array(await data.arrayBuffer()));
      return;
    }
    throw new TypeError("registerFile: data must be a File, a Blob, a Uint8Array or an ArrayBuffer");
  }

  // The bytes of a file of the module's file system (what parquet_copy wrote).
  readFile(path) {
    this.#open();
    return this.m.FS.readFile(String(path));
  }

  close() {
    if (this.db) {
      this.m._sqlite3_close_v2(this.db);
      this.db = 0;
    }
  }
}

// The same API in a Worker (worker.mjs): every method returns a promise. For pages: the
// Worker's synchronous https requests and File slices never block the page.
export async function openWorker(bytes, options = {}) {
  const worker = new Worker(options.workerUrl ?? new URL("./worker.mjs", import.meta.url), { type: "module" });
  let next = 0;
  const waiting = new Map();
  worker.onmessage = (event) => {
    const { id, result, error } = event.data;
    const entry = waiting.get(id);
    if (!entry) return;
    waiting.delete(id);
    if (error) {
      const failure = new SqliteError(error.message, error.code);
      entry.reject(failure);
    } else {
      entry.resolve(result);
    }
  };
  worker.onerror = (event) => {
    for (const entry of waiting.values()) entry.reject(new Error(event.message || "the worker failed"));
    waiting.clear();
  };
  const call = (method, ...args) => new Promise((resolve, reject) => {
    const id = ++next;
    waiting.set(id, { resolve, reject });
    worker.postMessage({ id, method, args });
  });
  await call("open", bytes ?? null, { wasmUrl: options.wasmUrl ? String(options.wasmUrl) : undefined });
  return {
    exec: (sql, params) => call("exec", sql, params),
    query: (sql, params) => call("query", sql, params),
    queryArrays: async (sql, params) => {
      const { rows, columns } = await call("queryArrays", sql, params);
      Object.defineProperty(rows, "columns", { value: columns, enumerable: false });
      return rows;
    },
    registerFile: (name, data) => call("registerFile", name, data),
    readFile: (path) => call("readFile", path),
    close: async () => {
      await call("close");
      worker.terminate();
    },
    worker,
  };
}

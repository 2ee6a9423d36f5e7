// The Worker side of openWorker() (api.mjs): one Database per Worker, its methods called by
// message ({ id, method, args }) and answered with { id, result } or { id, error }. Inside a
// Worker, https requests are synchronous XMLHttpRequests and registered Files are read a
// slice at a time (FileReaderSync), neither blocking the page.
import { open } from "./api.mjs";

let db = null;

self.onmessage = async (event) => {
  const { id, method, args } = event.data;
  try {
    let result;
    if (method === "open") {
      if (db) db.close();
      const options = args[1] && args[1].wasmUrl ? { wasmUrl: args[1].wasmUrl } : {};
      db = await open(args[0] ?? undefined, options);
      result = true;
    } else if (!db) {
      throw new Error("the database is not open");
    } else if (method === "exec") {
      db.exec(args[0], args[1]);
      result = true;
    } else if (method === "query" || method === "queryArrays") {
      const rows = db[method](args[0], args[1]);
      result = method === "queryArrays" ? { rows: Array.from(rows), columns: rows.columns } : rows;
    } else if (method === "registerFile") {
      await db.registerFile(args[0], args[1]);
      result = true;
    } else if (method === "readFile") {
      result = db.readFile(args[0]);
    } else if (method === "close") {
      db.close();
      db = null;
      result = true;
    } else {
      throw new Error(`unknown method ${method}`);
    }
    if (method === "queryArrays") {
      self.postMessage({ id, result });
    } else if (result instanceof Uint8Array) {
      self.postMessage({ id, result }, [result.buffer]);
    } else {
      self.postMessage({ id, result });
    }
  } catch (error) {
    self.postMessage({ id, error: { message: String(error && error.message ? error.message : error), code: error && error.code } });
  }
};

// The wasm suite's loopback web server (tests/wasm): serves files with Range support and logs
// every request, for the Node API test (a separate process: the module's synchronous
// requests block the test's own thread) and the browser test (the demo page, the package
// and the data files from one origin).
//   node range_server.mjs --log FILE [--route PREFIX=DIR]... [--cors-port-file FILE]
// Prints "listening PORT" once ready. Under each /PREFIX/ the files of DIR are served:
//   GET and HEAD, one Range (bytes=a-b, a-, -n) answered 206 with Content-Range, ETag and
//   Last-Modified; If-None-Match (304) and If-Match (412) answered as nginx and S3 do; a path under /norange/PREFIX/ ignores Range (200, the whole file);
//   /status.json answers {requests, bytes} totals since the last /status.json?reset.
// Every request is logged as one JSON line: {method, path, range, status, bytes}.
// A second listener (its port in --cors-port-file) serves the same routes without any CORS
// header: a page on the first origin reading from it is refused by the browser.
import { createServer } from "node:http";
import { appendFileSync, createReadStream, statSync, writeFileSync } from "node:fs";
import { extname, join, normalize } from "node:path";

const args = process.argv.slice(2);
const routes = new Map();
let logFile = null;
let corsPortFile = null;
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--log") logFile = args[++i];
  else if (args[i] === "--route") {
    const [prefix, dir] = args[++i].split("=");
    routes.set(prefix, dir);
  } else if (args[i] === "--cors-port-file") corsPortFile = args[++i];
}
const types = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".mjs": "text/javascript",
                ".css": "text/css", ".wasm": "application/wasm", ".json": "application/json",
                ".parquet": "application/vnd.apache.parquet" };
let totals = { requests: 0, bytes: 0 };

function log(entry) {
  totals.requests++;
  totals.bytes += entry.bytes;
  if (logFile) appendFileSync(logFile, JSON.stringify(entry) + "\n");
}

function handler(withCors) {
  return (request, response) => {
    const url = new URL(request.url, "http://localhost");
    let path = decodeURIComponent(url.pathname);
    if (withCors) {
      response.setHeader("Access-Control-Allow-Origin", "*");
      response.setHeader("Access-Control-Allow-Headers", "Range, If-Match, If-None-Match");
      response.setHeader("Access-Control-Expose-Headers", "Content-Range, Content-Length, ETag, Last-Modified");
    }
    if (request.method === "OPTIONS") {
      response.writeHead(withCors ? 204 : 405);
      response.end();
      return;
    }
    if (path === "/status.json") {
      const body = JSON.stringify(totals);
      if (url.searchParams.has("reset")) totals = { requests: 0, bytes: 0 };
      response.writeHead(200, { "Content-Type": "application/json", "Cache-Control": "no-store" });
      response.end(body);
      return;
    }
    let ignoreRange = false;
    if (path.startsWith("/norange/")) {
      ignoreRange = true;
      path = path.slice("/norange".length);
    }
    const slash = path.indexOf("/", 1);
    const prefix = slash > 0 ? path.slice(1, slash) : "";
    const dir = routes.get(prefix) ?? routes.get("");
    let rest = slash > 0 && routes.has(prefix) ? path.slice(slash + 1) : path.slice(1);
    if (rest === "" || rest.endsWith("/")) rest += "index.html";
    const file = normalize(join(dir ?? "/nonexistent", rest));
    let stat;
    try {
      if (!dir || !file.startsWith(normalize(dir))) throw new Error("outside");
      stat = statSync(file);
      if (!stat.isFile()) throw new Error("not a file");
    } catch {
      response.writeHead(404, { "Content-Type": "text/plain" });
      response.end("not found");
      log({ method: request.method, path, range: null, status: 404, bytes: 0 });
      return;
    }
    const headers = { "Content-Type": types[extname(file)] ?? "application/octet-stream",
                      "ETag": `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`,
                      "Last-Modified": stat.mtime.toUTCString(), "Cache-Control": "no-store" };
    if (!ignoreRange) headers["Accept-Ranges"] = "bytes";
    // Conditional requests, as nginx and S3 answer them: the remote layer checks a file it
    // has read before with If-None-Match (304: unchanged), and pins reads with If-Match.
    const inm = request.headers["if-none-match"];
    if (inm && !ignoreRange && inm.split(",").map((tag) => tag.trim()).includes(headers.ETag)) {
      response.writeHead(304, { ETag: headers.ETag, "Cache-Control": "no-store" });
      response.end();
      log({ method: request.method, path, range: request.headers.range ?? null, status: 304, bytes: 0 });
      return;
    }
    const im = request.headers["if-match"];
    if (im && im.trim() !== "*" && !im.split(",").map((tag) => tag.trim()).includes(headers.ETag)) {
      response.writeHead(412, { "Content-Type": "text/plain" });
      response.end("precondition failed");
      log({ method: request.method, path, range: request.headers.range ?? null, status: 412, bytes: 0 });
      return;
    }
    const range = request.headers.range;
    let start = 0, end = stat.size - 1, status = 200;
    if (range && !ignoreRange) {
      const match = /^bytes=(\d*)-(\d*)$/.exec(range);
      if (!match || (match[1] === "" && match[2] === "")) {
        response.writeHead(416, { "Content-Range": `bytes */${stat.size}` });
        response.end();
        log({ method: request.method, path, range, status: 416, bytes: 0 });
        return;
      }
      if (match[1] === "") {
        start = Math.max(0, stat.size - Number(match[2]));
      } else {
        start = Number(match[1]);
        if (match[2] !== "") end = Math.min(end, Number(match[2]));
      }
      if (start > end || start >= stat.size) {
        response.writeHead(416, { "Content-Range": `bytes */${stat.size}` });
        response.end();
        log({ method: request.method, path, range, status: 416, bytes: 0 });
        return;
      }
      status = 206;
      headers["Content-Range"] = `bytes ${start}-${end}/${stat.size}`;
    }
    const length = stat.size === 0 ? 0 : end - start + 1;
    headers["Content-Length"] = String(length);
    response.writeHead(status, headers);
    if (request.method === "HEAD" || length === 0) {
      response.end();
      log({ method: request.method, path, range: range ?? null, status, bytes: 0 });
      return;
    }
    let sent = 0;
    const stream = createReadStream(file, { start, end });
    stream.on("data", (chunk) => { sent += chunk.length; });
    stream.on("close", () => log({ method: request.method, path, range: range ?? null, status, bytes: sent }));
    response.on("close", () => stream.destroy());
    stream.pipe(response);
  };
}

const server = createServer(handler(true));
server.listen(0, "127.0.0.1", () => {
  if (corsPortFile) {
    const other = createServer(handler(false));
    other.listen(0, "127.0.0.1", () => {
      writeFileSync(corsPortFile, String(other.address().port));
      console.log(`listening ${server.address().port}`);
    });
  } else {
    console.log(`listening ${server.address().port}`);
  }
});

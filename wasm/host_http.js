// Pre-js of the WebAssembly build: Module.pqHostHttp, the synchronous HTTP request that
// format/platform/wasm.cc (HostHttpRequest) calls for remote files. SQLite's API is
// synchronous, so the request must be too:
// - in a browser, a synchronous XMLHttpRequest: binary (responseType arraybuffer) in a
//   Worker, where synchronous requests are allowed without blocking the page (the Worker
//   wrapper, wasm/worker.mjs); on a page's main thread the x-user-defined charset trick
//   (works, but blocks the page: use the Worker);
// - in Node, fetch() on a helper thread (worker_threads) while this thread waits on an
//   Atomics word, the response handed over with receiveMessageOnPort.
// A request that gets no response at all (status 0: the host unreachable, or refused by
// the browser's CORS policy, which a script cannot tell apart) is failure 1; a timeout 2;
// a body longer than maxBody 3 (kept cut to maxBody); anything else 4.
Module["pqHostHttp"] = function (method, url, headerText, body, maxBody, timeoutMs) {
  var headers = [];
  headerText.split("\n").forEach(function (line) {
    var colon = line.indexOf(":");
    if (colon > 0) headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  });
  var isNode = typeof process == "object" && typeof process.versions == "object" &&
               typeof process.versions.node == "string" && typeof XMLHttpRequest == "undefined";
  var result = isNode ? pqNodeHttp(method, url, headers, body, maxBody, timeoutMs)
                      : pqXhrHttp(method, url, headers, body, maxBody, timeoutMs);
  if (result.body && maxBody > 0 && result.body.length > maxBody) {
    result.body = result.body.subarray(0, maxBody);
    result.failure = 3;
  }
  if (Module["pqHttpLog"]) Module["pqHttpLog"](method, url, result.status, result.body ? result.body.length : 0);
  return result;
};

function pqXhrHttp(method, url, headers, body, maxBody, timeoutMs) {
  var xhr = new XMLHttpRequest();
  var binary = typeof WorkerGlobalScope != "undefined";
  xhr.open(method, url, false);
  if (binary) {
    xhr.responseType = "arraybuffer";
    xhr.timeout = timeoutMs;
  } else {
    xhr.overrideMimeType("text/plain; charset=x-user-defined");
  }
  try {
    headers.forEach(function (header) { xhr.setRequestHeader(header[0], header[1]); });
    xhr.send(body);
  } catch (e) {
    if (e && e.name == "TimeoutError") return { status: 0, failure: 2, message: "timed out" };
    if (e && e.name == "NetworkError") return { status: 0, failure: 1, message: String(e.message) };
    return { status: 0, failure: 4, message: String(e && e.message ? e.message : e) };
  }
  if (xhr.status == 0) return { status: 0, failure: 1, message: "no response" };
  var bytes;
  if (binary) {
    bytes = new Uint8Array(xhr.response || new ArrayBuffer(0));
  } else {
    var text = xhr.responseText || "";
    bytes = new Uint8Array(text.length);
    for (var i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
  }
  return { status: xhr.status, failure: 0, headers: xhr.getAllResponseHeaders(), body: bytes };
}

var pqNodeHttpState = null;
// The helper thread's code: one request at a time, posted by pqNodeHttp.
var pqNodeHttpHelper = [
  "const { parentPort, workerData } = require('worker_threads');",
  "const { port, shared } = workerData;",
  "parentPort.on('message', async (r) => {",
  "  let result;",
  "  const controller = new AbortController();",
  "  let timedOut = false;",
  "  const timer = setTimeout(() => { timedOut = true; controller.abort(); }, r.timeoutMs);",
  "  try {",
  "    const response = await fetch(r.url, { method: r.method, headers: r.headers, body: r.body,",
  "                                          signal: controller.signal, redirect: 'follow' });",
  "    const chunks = []; let total = 0; let failure = 0;",
  "    if (response.body) {",
  "      const reader = response.body.getReader();",
  "      for (;;) {",
  "        const { done, value } = await reader.read();",
  "        if (done) break;",
  "        if (r.maxBody > 0 && total + value.length > r.maxBody) {",
  "          chunks.push(value.subarray(0, r.maxBody - total)); total = r.maxBody; failure = 3;",
  "          await reader.cancel(); break;",
  "        }",
  "        chunks.push(value); total += value.length;",
  "      }",
  "    }",
  "    const body = new Uint8Array(total); let at = 0;",
  "    for (const chunk of chunks) { body.set(chunk, at); at += chunk.length; }",
  "    let headers = '';",
  "    response.headers.forEach((value, name) => { headers += name + ': ' + value + '\\n'; });",
  "    result = { status: response.status, failure, headers, body };",
  "  } catch (e) {",
  "    const cause = e && e.cause && e.cause.message ? e.cause.message : String(e && e.message ? e.message : e);",
  "    result = timedOut ? { status: 0, failure: 2, message: 'timed out' } : { status: 0, failure: 1, message: cause };",
  "  } finally { clearTimeout(timer); }",
  "  port.postMessage(result);",
  "  Atomics.store(shared, 0, 1);",
  "  Atomics.notify(shared, 0);",
  "});"
].join("\n");

function pqNodeHttp(method, url, headers, body, maxBody, timeoutMs) {
  var threads = require("worker_threads");
  if (!pqNodeHttpState) {
    var channel = new threads.MessageChannel();
    var shared = new Int32Array(new SharedArrayBuffer(4));
    var helper = new threads.Worker(pqNodeHttpHelper, { eval: true, workerData: { port: channel.port2, shared: shared },
                                                        transferList: [channel.port2] });
    helper.unref();
    channel.port1.unref();
    pqNodeHttpState = { helper: helper, port: channel.port1, shared: shared };
  }
  var state = pqNodeHttpState;
  Atomics.store(state.shared, 0, 0);
  state.helper.postMessage({ method: method, url: url, headers: headers, body: body, maxBody: maxBody,
                             timeoutMs: timeoutMs });
  // The helper answers within timeoutMs; a little more is allowed for its own start.
  if (Atomics.wait(state.shared, 0, 0, timeoutMs + 10000) == "timed-out") {
    return { status: 0, failure: 2, message: "timed out" };
  }
  var received = threads.receiveMessageOnPort(state.port);
  return received ? received.message : { status: 0, failure: 4, message: "the request helper sent nothing" };
}

// Pre-js of the Node-only wasm programs (build-wasm/sql_test_runner.js): emscripten 3.1.6
// fetches its .wasm with fetch() wherever fetch exists, which in Node 18+ cannot read a
// file path; the binary is read from beside the script instead.
if (typeof process == "object" && !Module["wasmBinary"]) {
  Module["wasmBinary"] = require("fs").readFileSync(__filename.replace(/\.js$/, ".wasm"));
}

// What only the WebAssembly build (emscripten) has of the platform: HTTP requests made by the
// JavaScript host, synchronously (HostHttpRequest in system.h), and the path of an open
// descriptor (posix.cc's File::Duplicate). The host function is
// Module.pqHostHttp, installed by wasm/host_http.js (a synchronous XMLHttpRequest in a
// browser, a helper thread waited for with Atomics in Node). Compiles to nothing elsewhere.
#ifdef __EMSCRIPTEN__

#include <emscripten.h>

#include <cstdlib>
#include <cstring>

#include "format/platform/system.h"

// out: [status, failure, body, body size, headers, headers size, message, message size],
// the three buffers malloc'd here for the caller to free.
EM_JS(void, pq_host_http, (const char* method, const char* url, const char* headers, const uint8_t* body,
                           int body_size, double max_body, int timeout_ms, int32_t* out), {
  var sent = body ? HEAPU8.slice(body, body + body_size) : null;
  var result;
  try {
    result = Module["pqHostHttp"](UTF8ToString(method), UTF8ToString(url), UTF8ToString(headers), sent,
                                  max_body, timeout_ms);
  } catch (e) {
    result = {status : 0, failure : 4, message : String(e && e.message ? e.message : e)};
  }
  var encoder = new TextEncoder();
  function put(bytes, at) {
    var pointer = _malloc(bytes.length > 0 ? bytes.length : 1);
    HEAPU8.set(bytes, pointer);
    HEAP32[(out >> 2) + at] = pointer;
    HEAP32[(out >> 2) + at + 1] = bytes.length;
  }
  HEAP32[out >> 2] = result.status | 0;
  HEAP32[(out >> 2) + 1] = result.failure | 0;
  put(result.body || new Uint8Array(0), 2);
  put(encoder.encode(result.headers || ""), 4);
  put(encoder.encode(result.message || ""), 6);
});

// The path an open descriptor was opened with (emscripten's stream), malloc'd; null if none.
EM_JS(char*, pq_descriptor_path, (int fd), {
  var stream = FS.getStream(fd);
  if (!stream || !stream.path) return 0;
  var size = lengthBytesUTF8(stream.path) + 1;
  var pointer = _malloc(size);
  stringToUTF8(stream.path, pointer, size);
  return pointer;
});

namespace parquet::platform {

std::string EmscriptenDescriptorPath(int fd) {
  char* path = pq_descriptor_path(fd);
  if (path == nullptr) return "";
  std::string result(path);
  std::free(path);
  return result;
}

HostHttpResult HostHttpRequest(const std::string& method, const std::string& url, const std::vector<std::string>& headers,
                               const uint8_t* body, size_t body_size, uint64_t max_body, long timeout_ms) {
  std::string lines;
  for (const std::string& header : headers) lines += header + "\n";
  int32_t out[8] = {};
  pq_host_http(method.c_str(), url.c_str(), lines.c_str(), body, static_cast<int>(body_size),
               static_cast<double>(max_body), static_cast<int>(timeout_ms), out);
  // The header lines held secrets (tokens): wiped.
  if (!lines.empty()) std::memset(lines.data(), 0, lines.size());
  HostHttpResult result;
  result.status = out[0];
  const int failure = out[1];
  result.failure = failure == 1   ? HostHttpResult::Failure::kNoResponse
                   : failure == 2 ? HostHttpResult::Failure::kTimeout
                   : failure == 3 ? HostHttpResult::Failure::kTooLong
                   : failure == 0 ? HostHttpResult::Failure::kNone
                                  : HostHttpResult::Failure::kOther;
  auto* body_bytes = reinterpret_cast<uint8_t*>(static_cast<uintptr_t>(out[2]));
  result.body.assign(body_bytes, body_bytes + static_cast<uint32_t>(out[3]));
  auto* header_text = reinterpret_cast<char*>(static_cast<uintptr_t>(out[4]));
  result.headers.assign(header_text, static_cast<uint32_t>(out[5]));
  auto* message = reinterpret_cast<char*>(static_cast<uintptr_t>(out[6]));
  result.message.assign(message, static_cast<uint32_t>(out[7]));
  std::free(body_bytes);
  std::free(header_text);
  std::free(message);
  return result;
}

}  // namespace parquet::platform

#endif  // __EMSCRIPTEN__

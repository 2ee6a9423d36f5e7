// libcurl loaded with dlopen, a pool of easy handles, and the request/retry helpers of
// http_client.h. In the WebAssembly build (no libcurl) requests go to the JavaScript host
// instead (platform::HostHttpRequest), behind the same interface.
#include "format/io/http_client.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

#ifdef PQ_HAVE_CURL
#include <curl/curl.h>

#include <cerrno>
#include <cstring>
#endif

#include "format/io/runtime_library.h"
#include "format/platform/system.h"
#include "format/values/text.h"

namespace parquet {

std::string HttpResponse::Header(const std::string& name) const {
  for (const auto& [key, value] : headers) {
    if (key == name) return value;
  }
  return "";
}

std::string UrlForDisplay(const std::string& url) {
  const size_t cut = url.find_first_of("?#");
  return cut == std::string::npos ? url : url.substr(0, cut) + "?...";
}

bool IsEntityTag(std::string_view text) {
  if (text.substr(0, 2) == "W/") text.remove_prefix(2);
  if (text.size() < 2 || text.front() != '"' || text.back() != '"') return false;
  for (unsigned char c : text.substr(1, text.size() - 2)) {
    if (c < 0x21 || c == '"' || c == 0x7f) return false;
  }
  return true;
}

namespace {

// Whether `text` matches `pattern`, where '9' is a digit, '_' a digit or a space (asctime's
// day of the month), '<' a day name (Mon..Sun), '>' a month name (Jan..Dec) and any other
// character stands for itself.
bool MatchesDatePattern(std::string_view text, std::string_view pattern) {
  static const std::string_view kDays = "MonTueWedThuFriSatSun";
  static const std::string_view kMonths = "JanFebMarAprMayJunJulAugSepOctNovDec";
  auto is_name = [](std::string_view names, std::string_view name) {
    for (size_t i = 0; i + 3 <= names.size(); i += 3) {
      if (names.substr(i, 3) == name) return true;
    }
    return false;
  };
  size_t at = 0;
  for (char p : pattern) {
    if (p == '<' || p == '>') {
      if (at + 3 > text.size() || !is_name(p == '<' ? kDays : kMonths, text.substr(at, 3))) return false;
      at += 3;
      continue;
    }
    if (at >= text.size()) return false;
    const char c = text[at++];
    const bool digit = c >= '0' && c <= '9';
    if (p == '9' ? !digit : p == '_' ? !(digit || c == ' ') : c != p) return false;
  }
  return at == text.size();
}

}  // namespace

bool IsHttpDate(std::string_view text) {
  if (MatchesDatePattern(text, "<, 99 > 9999 99:99:99 GMT") || MatchesDatePattern(text, "< > _9 99:99:99 9999")) {
    return true;
  }
  // rfc850-date: the day's full name, then ", DD-Mon-YY HH:MM:SS GMT".
  static const std::string_view kLongDays[] = {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"};
  for (std::string_view day : kLongDays) {
    if (text.substr(0, day.size()) == day) return MatchesDatePattern(text.substr(day.size()), ", 99->-99 99:99:99 GMT");
  }
  return false;
}

std::string PercentEncode(const std::string& text, bool keep_slash) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~' || (keep_slash && c == '/')) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

namespace {
std::atomic<uint64_t> g_handles_created{0};
thread_local const std::function<bool()>* t_interrupt_check = nullptr;
}  // namespace

HttpInterruptScope::HttpInterruptScope(std::function<bool()> check)
    : check_(std::move(check)), previous_(t_interrupt_check) {
  t_interrupt_check = &check_;
}

HttpInterruptScope::~HttpInterruptScope() { t_interrupt_check = previous_; }

bool HttpInterruptRequested() { return t_interrupt_check != nullptr && (*t_interrupt_check)(); }

uint64_t HttpHandlesCreatedForTesting() { return g_handles_created.load(); }

#if defined(__EMSCRIPTEN__)

bool HttpSupportCompiled() { return true; }

// The host makes the request and follows its redirects (a browser always does; Node's fetch
// drops the Authorization header on a redirect to another origin). SigV4 signing and a CA
// file are libcurl's: without it they are refused here.
HttpResponse HttpPerform(const HttpRequest& request, const std::string& shown_url) {
  if (!request.aws_sigv4.empty()) {
    throw ParquetError("cannot read " + shown_url +
                       ": signed S3 requests are not supported by the WebAssembly build (use a public or "
                       "presigned https url)");
  }
  if (!request.ca_file.empty()) {
    throw ParquetError("cannot read " + shown_url +
                       ": ca_file is not supported by the WebAssembly build (the browser's or Node's own "
                       "certificate store is used)");
  }
  if ((request.abort != nullptr && request.abort->load()) || HttpInterruptRequested()) {
    throw HttpInterrupted("interrupted");
  }
  std::vector<std::string> headers;
  for (const SecretString& header : request.headers) headers.emplace_back(header.data(), header.size());
  for (const std::string& header : request.any_origin_headers) headers.push_back(header);
  if (request.range) {
    headers.push_back("Range: bytes=" + std::to_string(request.range->first) + "-" +
                      std::to_string(request.range->second));
  } else if (request.suffix_length) {
    headers.push_back("Range: bytes=-" + std::to_string(*request.suffix_length));
  }
  platform::HostHttpResult result =
      platform::HostHttpRequest(request.method, request.url, headers, request.body, request.body_size, request.max_body,
                                request.timeout_seconds * 1000);
  for (std::string& header : headers) WipeMemory(header.data(), header.size());
  using Failure = platform::HostHttpResult::Failure;
  switch (result.failure) {
    case Failure::kNone:
      break;
    case Failure::kNoResponse:
      throw HttpTransportError("cannot read " + shown_url +
                               ": no response (the server cannot be reached, or the browser refused the "
                               "request under its CORS policy: a server on another origin must allow this "
                               "page's origin and the Range header, and expose Content-Range, Content-Length "
                               "and ETag)");
    case Failure::kTimeout:
      throw HttpTransportError("cannot read " + shown_url + ": timed out after " +
                               std::to_string(request.timeout_seconds) + " s");
    case Failure::kTooLong:
      if (request.keep_truncated_body) break;
      throw ParquetError("cannot read " + shown_url + ": the server sent more than the " +
                         std::to_string(request.max_body) +
                         (request.range || request.suffix_length ? " bytes asked for (does it ignore Range requests?)"
                                                                 : " bytes a response to this request may hold"));
    case Failure::kOther:
      throw HttpTransportError("cannot read " + shown_url + ": " + result.message);
  }
  HttpResponse response;
  response.status = result.status;
  response.truncated = result.failure == Failure::kTooLong;
  size_t start = 0;
  while (start < result.headers.size()) {
    size_t end = result.headers.find('\n', start);
    if (end == std::string::npos) end = result.headers.size();
    std::string line = result.headers.substr(start, end - start);
    start = end + 1;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    size_t value = colon + 1;
    while (value < line.size() && (line[value] == ' ' || line[value] == '\t')) value++;
    response.headers.emplace_back(AsciiLowercase(line.substr(0, colon)), line.substr(value));
  }
  response.body = std::move(result.body);
  if (response.status < 200 || response.status > 299) {
    // An error page: kept only up to 64 KiB, as the libcurl path keeps it.
    if (response.body.size() > (size_t{64} << 10)) response.body.resize(size_t{64} << 10);
  }
  return response;
}

#elif !defined(PQ_HAVE_CURL)

bool HttpSupportCompiled() { return false; }

HttpResponse HttpPerform(const HttpRequest&, const std::string& shown_url) {
  throw ParquetError("cannot read " + shown_url +
                     ": remote urls are not supported by this build (it was built without libcurl's "
                     "headers, Debian package libcurl4-openssl-dev)");
}

#else

bool HttpSupportCompiled() { return true; }

namespace {

// The libcurl functions used, resolved from libcurl.so.4 once.
struct CurlApi {
  decltype(&curl_global_init) global_init = nullptr;
  decltype(&curl_easy_init) easy_init = nullptr;
  decltype(&curl_easy_setopt) easy_setopt = nullptr;
  decltype(&curl_easy_perform) easy_perform = nullptr;
  decltype(&curl_easy_getinfo) easy_getinfo = nullptr;
  decltype(&curl_easy_cleanup) easy_cleanup = nullptr;
  decltype(&curl_easy_reset) easy_reset = nullptr;
  decltype(&curl_easy_strerror) easy_strerror = nullptr;
  decltype(&curl_slist_append) slist_append = nullptr;
  decltype(&curl_slist_free_all) slist_free_all = nullptr;
  decltype(&curl_url) url_new = nullptr;
  decltype(&curl_url_set) url_set = nullptr;
  decltype(&curl_url_get) url_get = nullptr;
  decltype(&curl_url_cleanup) url_cleanup = nullptr;
  decltype(&curl_free) free_text = nullptr;
  std::string error;  // non-empty: libcurl could not be loaded
};

const CurlApi& Curl() {
  static CurlApi api;
  static std::once_flag once;
  std::call_once(once, [] {
    RuntimeLibrary library(platform::SharedLibraryNames("curl", 4));
    library.Bind(&api.global_init, "curl_global_init");
    library.Bind(&api.easy_init, "curl_easy_init");
    library.Bind(&api.easy_setopt, "curl_easy_setopt");
    library.Bind(&api.easy_perform, "curl_easy_perform");
    library.Bind(&api.easy_getinfo, "curl_easy_getinfo");
    library.Bind(&api.easy_cleanup, "curl_easy_cleanup");
    library.Bind(&api.easy_reset, "curl_easy_reset");
    library.Bind(&api.easy_strerror, "curl_easy_strerror");
    library.Bind(&api.slist_append, "curl_slist_append");
    library.Bind(&api.slist_free_all, "curl_slist_free_all");
    library.Bind(&api.url_new, "curl_url");
    library.Bind(&api.url_set, "curl_url_set");
    library.Bind(&api.url_get, "curl_url_get");
    library.Bind(&api.url_cleanup, "curl_url_cleanup");
    library.Bind(&api.free_text, "curl_free");
    api.error = library.Problem("remote urls", platform::kWindows
                                                    ? "curl for Windows (libcurl 7.75 or later) and put the folder "
                                                      "holding libcurl-x64.dll on PATH"
                                                    : "the Debian package libcurl4 (or your system's libcurl 7.75 or later)");
    if (api.error.empty() && api.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
      api.error = "remote urls need libcurl: curl_global_init failed";
    }
  });
  return api;
}

// Idle easy handles, reused so their connections are too.
class HandlePool {
 public:
  CURL* Acquire(const CurlApi& api) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!idle_.empty()) {
        CURL* handle = idle_.back();
        idle_.pop_back();
        api.easy_reset(handle);
        return handle;
      }
    }
    g_handles_created++;
    return api.easy_init();
  }
  // When SQLite unloads the extension (and at exit) the idle handles go back to libcurl,
  // which stays loaded for the life of the process (runtime_library.h): a host that loads
  // the extension again does not keep the old copy's handles.
  ~HandlePool() {
    for (CURL* handle : idle_) api_->easy_cleanup(handle);
  }
  void Release(const CurlApi& api, CURL* handle) {
    std::lock_guard<std::mutex> lock(mutex_);
    api_ = &api;
    if (idle_.size() < kMaxIdle) {
      idle_.push_back(handle);
    } else {
      api.easy_cleanup(handle);
    }
  }

 private:
  static constexpr size_t kMaxIdle = 16;
  std::mutex mutex_;
  std::vector<CURL*> idle_;
  const CurlApi* api_ = nullptr;  // set with the first handle given back
};

HandlePool& Pool() {
  static HandlePool pool;
  return pool;
}

struct Transfer {
  HttpResponse* response;
  uint64_t max_body;
  bool keep_truncated;
  const std::atomic<bool>* abort;
  bool too_long = false;
  bool interrupted = false;
  long status = 0;  // of the response being received (its status line)
  std::chrono::steady_clock::time_point last_check{};
};

// libcurl's progress callback: called while the transfer waits or receives (at least about
// once a second); a non-zero return aborts it.
int OnProgress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  auto* transfer = static_cast<Transfer*>(user);
  if (transfer->abort != nullptr && transfer->abort->load()) {
    transfer->interrupted = true;
    return 1;
  }
  const auto now = std::chrono::steady_clock::now();
  if (now - transfer->last_check < std::chrono::milliseconds(50)) return 0;
  transfer->last_check = now;
  transfer->interrupted = HttpInterruptRequested();
  return transfer->interrupted ? 1 : 0;
}

size_t OnBody(char* data, size_t size, size_t count, void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  const size_t n = size * count;
  std::vector<uint8_t>& body = transfer->response->body;
  if (transfer->status < 200 || transfer->status > 299) {
    // An error page: kept only up to 64 KiB (messages need at most its start).
    body.insert(body.end(), data, data + std::min(n, (size_t{64} << 10) - std::min(body.size(), size_t{64} << 10)));
    return n;
  }
  if (transfer->max_body > 0 && body.size() + n > transfer->max_body) {
    transfer->too_long = true;
    if (transfer->keep_truncated) body.insert(body.end(), data, data + (transfer->max_body - body.size()));
    return 0;  // aborts the transfer
  }
  body.insert(body.end(), data, data + n);
  return n;
}

size_t OnHeader(char* data, size_t size, size_t count, void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  const size_t n = size * count;
  std::string line(data, n);
  while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.pop_back();
  if (line.rfind("HTTP/", 0) == 0) {
    transfer->response->headers.clear();  // a new response (after a redirect or 100-continue)
    const size_t space = line.find(' ');
    transfer->status = space == std::string::npos ? 0 : std::strtol(line.c_str() + space + 1, nullptr, 10);
    return n;
  }
  const size_t colon = line.find(':');
  if (colon == std::string::npos) return n;
  std::string name = AsciiLowercase(line.substr(0, colon));
  size_t start = colon + 1;
  while (start < line.size() && (line[start] == ' ' || line[start] == '\t')) start++;
  transfer->response->headers.emplace_back(std::move(name), line.substr(start));
  return n;
}

// Frees the header list and returns the handle to the pool on every path.
struct RequestResources {
  const CurlApi& api;
  CURL* handle;
  curl_slist* headers = nullptr;
  ~RequestResources() {
    // libcurl's copies of the headers hold secrets (tokens, http_headers): wiped first.
    for (curl_slist* item = headers; item != nullptr; item = item->next) WipeMemory(item->data, std::strlen(item->data));
    if (headers != nullptr) api.slist_free_all(headers);
    if (handle != nullptr) Pool().Release(api, handle);
  }
};

// A URL's origin, as libcurl's own URL parser reads it (so what is compared is where
// libcurl connects): scheme and host lowercased, the port explicit (CURLU_DEFAULT_PORT).
struct Origin {
  std::string scheme, host, port;
  bool operator==(const Origin&) const = default;
};

std::optional<Origin> OriginOf(const CurlApi& api, const std::string& url) {
  CURLU* parsed = api.url_new();
  if (parsed == nullptr) return std::nullopt;
  struct Cleanup {
    const CurlApi& api;
    CURLU* parsed;
    ~Cleanup() { api.url_cleanup(parsed); }
  } cleanup{api, parsed};
  if (api.url_set(parsed, CURLUPART_URL, url.c_str(), 0) != CURLUE_OK) return std::nullopt;
  auto part = [&](CURLUPart which, unsigned int flags) {
    char* text = nullptr;
    if (api.url_get(parsed, which, &text, flags) != CURLUE_OK || text == nullptr) return std::string();
    std::string lowercase = AsciiLowercase(text);
    api.free_text(text);
    return lowercase;
  };
  // A url without a host or port (file:///x) parses: its scheme is what refuses it.
  Origin origin{part(CURLUPART_SCHEME, 0), part(CURLUPART_HOST, 0), part(CURLUPART_PORT, CURLU_DEFAULT_PORT)};
  if (origin.scheme.empty()) return std::nullopt;
  return origin;
}

// The bytes of the CA bundle at `path`, opened without blocking (a FIFO would block the
// open, and a device the reads) and accepted only as a regular file of at most
// kMaxCaFileBytes.
std::string ReadCaBundle(const std::string& path, const std::string& shown_url) {
  const std::string refused = "cannot read " + shown_url + ": the CA file '" + path + "' ";
  platform::File file;
  platform::FileStatus status;
  if (platform::SystemResult opened = platform::OpenForReading(path, &file, &status); !opened.ok()) {
    throw ParquetError(refused + "cannot be opened: " + opened.text);
  }
  if (status.type != platform::FileType::kRegular) throw ParquetError(refused + "is not a regular file");
  if (status.size > kMaxCaFileBytes) {
    throw ParquetError(refused + "is larger than " + std::to_string(kMaxCaFileBytes >> 20) + " MiB");
  }
  std::string bytes(static_cast<size_t>(status.size), '\0');
  size_t done = 0;
  while (done < bytes.size()) {
    size_t n = 0;
    if (platform::SystemResult read = file.ReadAt(done, bytes.data() + done, bytes.size() - done, &n); !read.ok()) {
      throw ParquetError(refused + "cannot be read: " + read.text);
    }
    if (n == 0) break;  // shrank meanwhile
    done += n;
  }
  bytes.resize(done);
  return bytes;
}

constexpr int kMaxRedirects = 5;
constexpr size_t kMaxRedirectUrlBytes = 8192;

// Whether a `method` request sends or changes something (PUT, POST, DELETE), not only reads.
bool IsUpload(const std::string& method) { return method != "GET" && method != "HEAD"; }

// Whether a response with `status` to a `method` request is a redirect followed (RFC 9110:
// 307 and 308 keep the method and body; 301, 302 and 303 would turn an upload into a GET).
bool IsFollowedRedirect(long status, const std::string& method) {
  if (status == 307 || status == 308) return true;
  return (status == 301 || status == 302 || status == 303) && !IsUpload(method);
}

// One exchange of `request` with `url`, redirects not followed: `headers` and the SigV4
// credentials only when `to_origin`. For a 3xx response with a Location, *location is the
// url it names (resolved by libcurl against `url`).
HttpResponse PerformExchange(const CurlApi& api, const HttpRequest& request, const std::string& url, bool to_origin,
                             long timeout_ms, const std::string& shown_url, std::string* location) {
  RequestResources resources{api, Pool().Acquire(api)};
  CURL* curl = resources.handle;
  if (curl == nullptr) throw ParquetError("cannot read " + shown_url + ": curl_easy_init failed");

  HttpResponse response;
  Transfer transfer{&response, request.max_body, request.keep_truncated_body, request.abort};
  auto set = [&](CURLoption option, auto value, const char* what) {
    const CURLcode code = api.easy_setopt(curl, option, value);
    if (code != CURLE_OK) {
      throw ParquetError("cannot request " + shown_url + ": libcurl refuses " + what + " (" +
                         api.easy_strerror(code) + ")");
    }
  };
  set(CURLOPT_URL, url.c_str(), "the url");
  set(CURLOPT_NOSIGNAL, 1L, "CURLOPT_NOSIGNAL");
  set(CURLOPT_SSL_VERIFYPEER, 1L, "CURLOPT_SSL_VERIFYPEER");
  set(CURLOPT_SSL_VERIFYHOST, 2L, "CURLOPT_SSL_VERIFYHOST");
  set(CURLOPT_FOLLOWLOCATION, 0L, "CURLOPT_FOLLOWLOCATION");  // HttpPerform follows them
  if (api.easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https") == CURLE_UNKNOWN_OPTION) {
    // libcurl before 7.85 (7.75 and on are supported: Ubuntu 22.04 has 7.81) knows only the
    // bitmask option, deprecated since and so named here by its number.
    set(static_cast<CURLoption>(CURLOPTTYPE_LONG + 181), long{CURLPROTO_HTTP | CURLPROTO_HTTPS}, "CURLOPT_PROTOCOLS");
  } else {
    set(CURLOPT_PROTOCOLS_STR, "http,https", "CURLOPT_PROTOCOLS_STR");  // again: any other refusal is an error
  }
  set(CURLOPT_CONNECTTIMEOUT, 10L, "CURLOPT_CONNECTTIMEOUT");
  set(CURLOPT_TIMEOUT_MS, timeout_ms, "CURLOPT_TIMEOUT_MS");
  set(CURLOPT_WRITEFUNCTION, &OnBody, "CURLOPT_WRITEFUNCTION");
  set(CURLOPT_WRITEDATA, static_cast<void*>(&transfer), "CURLOPT_WRITEDATA");
  set(CURLOPT_HEADERFUNCTION, &OnHeader, "CURLOPT_HEADERFUNCTION");
  set(CURLOPT_HEADERDATA, static_cast<void*>(&transfer), "CURLOPT_HEADERDATA");
  set(CURLOPT_USERAGENT, "sqlite-parquet", "CURLOPT_USERAGENT");
  set(CURLOPT_XFERINFOFUNCTION, &OnProgress, "CURLOPT_XFERINFOFUNCTION");
  set(CURLOPT_XFERINFODATA, static_cast<void*>(&transfer), "CURLOPT_XFERINFODATA");
  set(CURLOPT_NOPROGRESS, 0L, "CURLOPT_NOPROGRESS");
  if (request.path_as_is) set(CURLOPT_PATH_AS_IS, 1L, "CURLOPT_PATH_AS_IS");
  if (!request.ca_file.empty() && AsciiLowercase(url.substr(0, 8)) == "https://") {  // plain http verifies nothing
    std::string bundle = ReadCaBundle(request.ca_file, shown_url);
    curl_blob blob{bundle.data(), bundle.size(), CURL_BLOB_COPY};
    set(CURLOPT_CAINFO_BLOB, &blob,
        "CURLOPT_CAINFO_BLOB (a CA file needs libcurl 7.77 or later, with a TLS library that takes CA blobs, as "
        "OpenSSL does)");
  }
  if (request.method == "HEAD") {
    set(CURLOPT_NOBODY, 1L, "CURLOPT_NOBODY");
  } else if (request.method == "PUT" || request.method == "POST") {
    // The body as POSTFIELDS (with PUT as a custom method), so SigV4 signs its hash.
    if (request.method == "PUT") set(CURLOPT_CUSTOMREQUEST, "PUT", "CURLOPT_CUSTOMREQUEST");
    set(CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body_size), "CURLOPT_POSTFIELDSIZE_LARGE");
    set(CURLOPT_POSTFIELDS, static_cast<const void*>(request.body != nullptr ? request.body : reinterpret_cast<const uint8_t*>("")),
        "CURLOPT_POSTFIELDS");
  } else if (request.method != "GET") {
    set(CURLOPT_CUSTOMREQUEST, request.method.c_str(), "CURLOPT_CUSTOMREQUEST");
  }
  std::string range;
  if (request.range) {
    range = std::to_string(request.range->first) + "-" + std::to_string(request.range->second);
  } else if (request.suffix_length) {
    range = "-" + std::to_string(*request.suffix_length);
  }
  if (!range.empty()) set(CURLOPT_RANGE, range.c_str(), "CURLOPT_RANGE");
  auto add_header = [&](const char* header) {
    curl_slist* grown = api.slist_append(resources.headers, header);
    if (grown == nullptr) throw ParquetError("cannot request " + shown_url + ": out of memory");
    resources.headers = grown;
  };
  if (to_origin) {
    for (const SecretString& header : request.headers) add_header(header.c_str());
  }
  for (const std::string& header : request.any_origin_headers) add_header(header.c_str());
  // libcurl would send "Expect: 100-continue" before a large PUT body; S3 servers do not need it.
  add_header("Expect:");
  set(CURLOPT_HTTPHEADER, resources.headers, "CURLOPT_HTTPHEADER");
  if (to_origin && !request.aws_sigv4.empty()) {
    set(CURLOPT_AWS_SIGV4, request.aws_sigv4.c_str(),
        "CURLOPT_AWS_SIGV4 (S3 signing needs libcurl 7.75 or later)");
    set(CURLOPT_USERPWD, request.aws_credentials.c_str(), "CURLOPT_USERPWD");
  }

  const CURLcode code = api.easy_perform(curl);
  const bool cut_as_asked = code == CURLE_WRITE_ERROR && transfer.too_long && request.keep_truncated_body;
  response.truncated = cut_as_asked;
  if (code != CURLE_OK && !cut_as_asked) {
    if (transfer.interrupted) throw HttpInterrupted("interrupted");
    if (code == CURLE_PEER_FAILED_VERIFICATION) {
      throw ParquetError("cannot read " + shown_url +
                         ": the server's TLS certificate could not be verified (is its CA trusted? see http_ca_file)");
    }
    if (code == CURLE_SSL_CACERT_BADFILE) {
      throw ParquetError("cannot read " + shown_url + ": the CA file " +
                         (request.ca_file.empty() ? std::string("of libcurl cannot be read")
                                                  : "'" + request.ca_file + "' holds no certificate libcurl can load"));
    }
    if (transfer.too_long) {
      throw ParquetError("cannot read " + shown_url + ": the server sent more than the " +
                         std::to_string(request.max_body) +
                         (request.range || request.suffix_length ? " bytes asked for (does it ignore Range requests?)"
                                        : " bytes a response to this request may hold"));
    }
    throw HttpTransportError("cannot read " + shown_url + ": " + api.easy_strerror(code));
  }
  api.easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
  char* redirect_url = nullptr;
  if (response.status / 100 == 3 && api.easy_getinfo(curl, CURLINFO_REDIRECT_URL, &redirect_url) == CURLE_OK &&
      redirect_url != nullptr) {
    *location = redirect_url;
  }
  return response;
}

}  // namespace

HttpResponse HttpPerform(const HttpRequest& request, const std::string& shown_url) {
  const CurlApi& api = Curl();
  if (!api.error.empty()) throw ParquetError("cannot read " + shown_url + ": " + api.error);
  const std::optional<Origin> origin = OriginOf(api, request.url);
  if (!origin) throw ParquetError("cannot read " + shown_url + ": not a valid url");
  // An https request is never redirected to http: even without headers, what it asks for
  // (a presigned URL's signature) would go out in clear text.
  const bool secure = origin->scheme == "https";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(request.timeout_seconds);
  std::string url = request.url;
  bool to_origin = true;
  for (int redirects = 0;; redirects++) {
    const long left_ms = static_cast<long>(
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count());
    if (left_ms <= 0) throw HttpTransportError("cannot read " + shown_url + ": timed out following redirects");
    std::string location;
    HttpResponse response = PerformExchange(api, request, url, to_origin, left_ms, shown_url, &location);
    if (location.empty() || !IsFollowedRedirect(response.status, request.method)) return response;
    const std::string refused = "cannot read " + shown_url + ": the server redirects ";
    if (redirects == kMaxRedirects) {
      throw ParquetError(refused + "more than " + std::to_string(kMaxRedirects) + " times");
    }
    if (location.size() > kMaxRedirectUrlBytes) {
      throw ParquetError(refused + "to a url longer than " + std::to_string(kMaxRedirectUrlBytes) + " bytes");
    }
    const std::optional<Origin> next = OriginOf(api, location);
    if (!next) throw ParquetError(refused + "to a url that cannot be parsed");
    if (next->scheme != "http" && next->scheme != "https") {
      throw ParquetError(refused + "to a url that is not followed (only http and https)");
    }
    if (secure && next->scheme != "https") {
      throw ParquetError(refused + "to a url that is not followed (an https url only to https)");
    }
    to_origin = *next == *origin;
    if (!to_origin && IsUpload(request.method)) {
      throw ParquetError(refused + "a " + request.method + " to another origin (an upload follows redirects only within its own)");
    }
    url = std::move(location);
  }
}

#endif  // __EMSCRIPTEN__, PQ_HAVE_CURL

HttpResponse HttpPerformWithRetry(const HttpRequest& request, const std::string& shown_url, int attempts,
                                  uint64_t* requests_made) {
  std::chrono::milliseconds wait(100);
  for (int attempt = 1;; attempt++) {
    if (requests_made != nullptr) (*requests_made)++;
    try {
      HttpResponse response = HttpPerform(request, shown_url);
      const bool transient = response.status >= 500 || response.status == 429;
      if (!transient || attempt >= attempts) return response;
    } catch (const HttpTransportError&) {
      if (attempt >= attempts) throw;
    }
    std::this_thread::sleep_for(wait);
    wait *= 2;
  }
}

}  // namespace parquet

// HTTP(S) requests through libcurl, loaded at run time: the extension does not link libcurl,
// so it loads (the self-contained dist binary included) where libcurl is absent, and
// dlopen("libcurl.so.4") happens when a remote URL is first used. Without libcurl's headers
// at build time (PQ_HAVE_CURL undefined) every request fails with "remote urls are not
// supported by this build". S3 requests are signed by libcurl itself (CURLOPT_AWS_SIGV4).
//
// Redirects (301, 302, 303, 307 and 308; for methods other than GET and HEAD only 307 and
// 308, which keep the method and body) are followed here, not by libcurl, at most 5 of them:
// `headers` and the SigV4 credentials go only to the request URL's own origin (its scheme,
// host and port, as libcurl parses them), so a server cannot hand a user's API key or token
// to another host by redirecting there; any_origin_headers go to every hop. Only http and
// https are followed, an https URL only to https, and an upload (PUT, POST, DELETE) only
// within its origin. Nothing a server sent (a Location) appears in errors.
//
// Easy handles are pooled (curl_easy_reset keeps their connections), so the requests of a
// scan reuse TCP and TLS connections. TLS peers and host names are always verified, against
// libcurl's default CA bundle or the request's ca_file.
//
// A transfer can be interrupted: HttpInterruptScope installs, for the thread that performs
// requests, a check asked while a transfer waits or receives (libcurl's progress callback);
// when it says yes the transfer ends with HttpInterrupted, which is never retried.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "format/common/error.h"
#include "format/crypto/secret.h"

namespace parquet {

// A connection failure, a timeout or a body cut short: worth retrying (HttpRequestWithRetry).
class HttpTransportError : public ParquetError {
 public:
  using ParquetError::ParquetError;
};

// The transfer was stopped by the thread's interrupt check (or the abort flag of its request).
class HttpInterrupted : public ParquetError {
 public:
  using ParquetError::ParquetError;
};

struct HttpRequest {
  std::string method = "GET";  // GET, HEAD, PUT, POST or DELETE
  std::string url;
  // Send the url's path as it is, "." and ".." segments included (libcurl would remove
  // them: an S3 key "a/../../b" would become another bucket's object).
  bool path_as_is = false;
  std::vector<SecretString> headers;  // "Name: value", sent to the url's own origin only
  // "Name: value" sent after a redirect to another origin too (If-Match: nothing secret).
  std::vector<std::string> any_origin_headers;
  // Byte range [first, last] (inclusive, as in the Range header).
  std::optional<std::pair<uint64_t, uint64_t>> range;
  // Or the last suffix_length bytes (Range: bytes=-N), whatever the object's size.
  std::optional<uint64_t> suffix_length;
  // "aws:amz:REGION:s3": sign with SigV4 using aws_credentials ("KEY:SECRET").
  std::string aws_sigv4;
  SecretString aws_credentials;
  const uint8_t* body = nullptr;  // PUT/POST payload
  size_t body_size = 0;
  // Bodies longer than this abort the transfer (a server that ignores Range must not make
  // us download a whole object). 0: no limit.
  uint64_t max_body = 0;
  // With max_body: a longer body ends the transfer with its first max_body bytes kept and
  // HttpResponse::truncated set, instead of an error (the caller reads the headers).
  bool keep_truncated_body = false;
  long timeout_seconds = 60;
  // PEM file of the CAs to trust instead of libcurl's default bundle: read here (opened
  // without blocking, a regular file of at most kMaxCaFileBytes) and handed to libcurl as a
  // blob (CURLOPT_CAINFO_BLOB, libcurl 7.77 or later), so a FIFO or a device cannot hang a
  // request.
  std::string ca_file;
  // Set by another thread to stop this transfer (HttpInterrupted); may be null.
  const std::atomic<bool>* abort = nullptr;
};

constexpr uint64_t kMaxCaFileBytes = 16ull << 20;

struct HttpResponse {
  long status = 0;
  std::vector<std::pair<std::string, std::string>> headers;  // names lowercased, last response only
  std::vector<uint8_t> body;
  bool truncated = false;  // the body was cut at max_body (HttpRequest::keep_truncated_body)

  // The value of header `name` (lowercase), "" when absent.
  std::string Header(const std::string& name) const;
};

// While alive, requests performed on the constructing thread ask `check` (at most every
// 50 ms) whether to stop; so do the parallel fetches that thread waits for (remote_file.cc
// polls HttpInterruptRequested and sets their abort flag). Scopes nest; the innermost wins.
class HttpInterruptScope {
 public:
  explicit HttpInterruptScope(std::function<bool()> check);
  ~HttpInterruptScope();
  HttpInterruptScope(const HttpInterruptScope&) = delete;
  HttpInterruptScope& operator=(const HttpInterruptScope&) = delete;

 private:
  std::function<bool()> check_;
  const std::function<bool()>* previous_;
};

// The current thread's check (HttpInterruptScope); false without one.
bool HttpInterruptRequested();

// Whether this build can make HTTP requests at all (libcurl headers were found).
bool HttpSupportCompiled();

// Performs one request, following its redirects (see above). Throws HttpTransportError for
// transport failures and ParquetError when libcurl cannot be loaded or refuses an option.
// `shown_url` names the resource in errors (never a credential).
HttpResponse HttpPerform(const HttpRequest& request, const std::string& shown_url);

// HttpPerform with up to `attempts` tries, waiting 100 ms, 200 ms, 400 ms... between them,
// on transport errors and on 5xx and 429 responses (the last such response is returned).
// *requests_made (may be null) grows by the number of tries.
HttpResponse HttpPerformWithRetry(const HttpRequest& request, const std::string& shown_url, int attempts,
                                  uint64_t* requests_made = nullptr);

// `url` without its query string and fragment (a presigned URL's signature), for messages.
std::string UrlForDisplay(const std::string& url);

// Whether `text` is an entity-tag as RFC 9110 (8.8.3) defines it: an optional "W/", then
// a double-quoted run of etagc (0x21, 0x23-0x7E, 0x80-0xFF). A server's ETag that is not
// one is not echoed in If-Match (it could carry a CR or anything else).
bool IsEntityTag(std::string_view text);

// Whether `text` is an HTTP-date (RFC 9110, 5.6.7): IMF-fixdate ("Sun, 06 Nov 1994
// 08:49:37 GMT") or one of the two obsolete forms recipients accept (rfc850-date "Sunday,
// 06-Nov-94 08:49:37 GMT", asctime-date "Sun Nov  6 08:49:37 1994").
bool IsHttpDate(std::string_view text);

// Percent-encodes everything but unreserved characters (RFC 3986) and, if keep_slash, '/'.
std::string PercentEncode(const std::string& text, bool keep_slash);

// Test hook: the number of easy handles created so far (connection reuse checks).
uint64_t HttpHandlesCreatedForTesting();

}  // namespace parquet

// Parquet files behind https:// (and http://) URLs and in S3 (s3://bucket/key), read as
// RandomAccessFile with as few bytes and round trips as the reader needs:
//
//   - Opening asks for the last bytes of the object in one request (Range: bytes=-N, N the
//     larger of kFirstTailRequest and the tail kept of it before): the response's Content-Range gives
//     the size, its ETag / Last-Modified the version, its bytes the footer (and usually the
//     page indexes); a larger footer costs one more request. A server that does not answer a
//     suffix range with those bytes (a 200, a 416, another range) gets today's two requests:
//     the size (from that response, else bytes 0-3), then the tail (OpenTail).
//   - Tails are kept in a bounded process-wide cache keyed by the request (the URL actually
//     asked: endpoint, URL style, bucket and key; the access key id, never the secret; the
//     headers; the CA bundle), hashed, with the object's version, so one endpoint's bytes
//     are never taken for another's. Reopening a cached object asks for the same suffix with
//     If-None-Match: a 304 confirms the cached tail, a changed object sends its new one.
//     Only bytes the server sent are kept there: a tail taken from a MetadataStore (a
//     database's row, which its author may have forged with the object's real ETag) serves
//     the one open that asked that store, even when the server's 304 confirms its ETag, and
//     never joins this cache or the statement's checks.
//   - Opens that share RemoteOptions::statement_checks check an object once per statement:
//     an object checked in the statement opens from the cache without a request.
//   - Every later request carries If-Match (or If-Unmodified-Since) and its response's
//     version is compared: an object that changed between requests is an error, never
//     mixed data.
//   - Prefetch(ranges) merges ranges less than kCoalesceGap apart, splits large ones, and
//     fetches the pieces in parallel (up to kParallelRequests at a time); reads outside
//     what was fetched are fetched on demand (at least kMinOnDemandRead bytes).
//   - 5xx, 429 and transport failures are retried with backoff; 403 and 404 name the URL.
//
// The URL in messages and in Name() has no query string (a presigned URL's signature);
// headers and keys never appear.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "format/io/http_client.h"
#include "format/io/metadata_store.h"
#include "format/io/random_access_file.h"
#include "format/crypto/secret.h"

namespace parquet {

enum class S3UrlStyle { kDefault, kPath, kVirtualHost };

constexpr uint64_t kDefaultReadAheadBytes = 64ull << 20;
constexpr uint64_t kMaxReadAheadBytes = 256ull << 20;

// How to reach remote files: HTTP headers and S3 endpoint and credentials. S3 fields left
// empty are taken from AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN,
// AWS_REGION (or AWS_DEFAULT_REGION), AWS_ENDPOINT_URL and the AWS_PROFILE (default
// "default") section of ~/.aws/credentials (AWS_SHARED_CREDENTIALS_FILE), in that order;
// those ambient credentials are subject to ambient_credentials_allowed below.
struct RemoteOptions {
  std::vector<SecretString> http_headers;  // "Name: value", sent with every https request
  SecretString bearer_token;               // "Authorization: Bearer <token>"
  std::string s3_region;
  std::string s3_endpoint;  // "host[:port]" or "http(s)://host[:port]"; default AWS
  S3UrlStyle s3_url_style = S3UrlStyle::kDefault;  // default: path with s3_endpoint, else vhost
  SecretString s3_access_key_id;
  SecretString s3_secret_access_key;
  SecretString s3_session_token;
  int attempts = 4;  // tries per request (transport errors, 5xx, 429)
  std::string http_ca_file;  // PEM bundle of the CAs TLS peers are verified against
  // The credential rule for tables stored in database files (ext/common/credential_rule.h):
  // when set, the ambient credentials (environment, credentials file) sign S3 requests only
  // while *ambient_credentials_allowed holds; otherwise a request that would use them fails
  // with ambient_credentials_refusal. Null: always allowed.
  std::shared_ptr<const std::atomic<bool>> ambient_credentials_allowed;
  std::string ambient_credentials_refusal;
  // The most bytes a file's read-ahead holds (RandomAccessFile::PrefetchAhead: requested,
  // in flight and fetched but not read yet), at most kMaxReadAheadBytes; 0: no read-ahead.
  uint64_t read_ahead_bytes = kDefaultReadAheadBytes;
  // The objects checked in the current statement (RemoteStatementChecks); null: every open
  // checks its object.
  std::shared_ptr<class RemoteStatementChecks> statement_checks;
  // An open of an object the footer cache holds (with a strong ETag) and the statement has
  // not checked yet makes its check (the conditional request) in the background and reads
  // on with the cached footer, so that the check and the first reads are in flight together
  // (a point lookup: the check and its pages in one round trip). Those reads carry If-Match
  // with the cached ETag; the reader calls RandomAccessFile::ConfirmVersion before it uses
  // what it read, and opens the file again when that throws RemoteFileReplaced. Only for
  // readers that do (the table's scan); off without threads.
  bool overlap_statement_check = false;
};

// The remote objects whose version the opens sharing this (a table's, a metadata function
// call's) checked with their server in the current statement, by request identity. An object
// checked in the statement is opened again (planning, the scan, a nested loop's rescans)
// from the footer cache without a request. The owner ends the statement (a table at the end
// of CREATE and when a scan's cursor closes: planning and the scan that follows share a check).
class RemoteStatementChecks {
 public:
  // The version (opaque) of the object with `identity` checked in this statement, or "".
  std::string Checked(const std::string& identity) const;
  void Note(const std::string& identity, const std::string& version);
  void EndStatement();

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::string> checked_;
};

// What an open learns of a remote object: its size, its validator and its last bytes (the
// footer and usually the page indexes), in one request where the server takes a suffix
// range (or none: an object checked in the statement, whose tail is cached).
struct RemoteTail {
  uint64_t size = 0;
  std::string etag;           // an RFC 9110 entity-tag, or ""
  std::string last_modified;  // an HTTP-date, or "" (neither: unversioned)
  uint64_t offset = 0;        // bytes holds [offset, size)
  std::vector<uint8_t> bytes;
  uint64_t requests = 0;  // requests made (retries included)
};
RemoteTail FetchRemoteTail(const std::string& url, const RemoteOptions& options);

// The CA bundle requests verify TLS peers against: options.http_ca_file, else the
// CURL_CA_BUNDLE environment variable (as the curl tool reads it), else "" (libcurl's own).
std::string TrustedCaFile(const RemoteOptions& options);

// Whether `path` is an http://, https:// or s3:// URL (scheme in any case).
bool IsRemoteUrl(const std::string& path);
bool IsS3Url(const std::string& path);

// `path` as messages show it: a remote URL as RandomAccessFile::Name() shows it (without its
// query string: a presigned URL's signature, UrlForDisplay), a local path as it is.
std::string PathForDisplay(const std::string& path);

// Opens `path`: a remote URL with `options` (may be null: defaults), else OpenLocalFile.
// With `store`, the footer tail is taken from it when it holds the version the file (or its
// server, in the first request) shows now (metadata_store.h).
std::unique_ptr<RandomAccessFile> OpenFileOrUrl(const std::string& path, const RemoteOptions* options,
                                                MetadataStore* store = nullptr);

// Opening many remote objects with their requests in parallel: ValidateRemoteFiles looks up
// on this thread what the process's footer cache or `store` knows of each object, then makes
// each object's opening request (a conditional one for a known footer: a 304 confirms it)
// up to kParallelRequests at a time (an interrupt of the calling thread stops them);
// FinishRemoteOpen completes one file as OpenFileOrUrl would, or throws what its request met.
struct ValidatedRemoteFile {
  std::unique_ptr<RandomAccessFile> file;
  std::exception_ptr error;
};
std::vector<ValidatedRemoteFile> ValidateRemoteFiles(const std::vector<std::string>& urls, const RemoteOptions* options,
                                                     MetadataStore* store);
std::unique_ptr<RandomAccessFile> FinishRemoteOpen(ValidatedRemoteFile validated);

// A GET request prepared for `url` (https or s3): the http(s) URL to ask, headers and
// signing (s3.h for S3).
HttpRequest PrepareRemoteRequest(const std::string& url, const RemoteOptions& options);

// The message for a response that is not a success, e.g. "cannot read https://h/f.parquet:
// not found (HTTP 404)"; `what` is the action and the URL ("read https://h/f.parquet").
std::string RemoteStatusError(long status, const std::string& what);

// Tuning, exposed for tests.
constexpr uint64_t kCoalesceGap = 64 * 1024;
constexpr uint64_t kMaxPieceSize = 8 * 1024 * 1024;
constexpr int kParallelRequests = 8;
constexpr uint64_t kMinOnDemandRead = 32 * 1024;
constexpr uint64_t kMinFooterPrefetch = 16 * 1024;   // the tail of a fallback open: size/1000,
constexpr uint64_t kMaxFooterPrefetch = 256 * 1024;  // clamped to these
// The suffix an open asks for at least (the size is not known yet): today's tail of a file of
// 256 MB or more, where a point lookup's request count matters most. The footer and usually
// the page indexes of the row groups near the end come in one request (a 164 MB lineitem file
// of 49 row groups and 14 columns: footer 88 KiB, and the page indexes of its middle row group
// 230 KiB from the end); a file smaller than this comes whole.
constexpr uint64_t kFirstTailRequest = 256 * 1024;

// Bounds on the structures whose length a remote file states, as its server claims its
// size: a footer, and one column index or offset index (a page-index module). A local
// file's lengths are bounded by the file itself.
constexpr uint64_t kMaxRemoteFooterBytes = 64ull << 20;
constexpr uint64_t kMaxRemotePageIndexBytes = 16ull << 20;

// Drops every cached footer (tests).
void ClearRemoteFooterCache();

// Runs work(stop) on up to `threads` threads at once (work takes its pieces from a counter
// it shares) and waits for them, asking the calling thread's interrupt check
// (HttpInterruptRequested) every 50 ms and raising `stop` for the workers when it says yes.
// Threads the system cannot start (std::system_error: a process or memory limit) are done
// without; with none started, work(nullptr) runs on the calling thread.
void RunFetchWorkers(size_t threads, const std::function<void(const std::atomic<bool>* stop)>& work);

}  // namespace parquet

// S3 addressing, credentials and listing: s3://bucket/key to the HTTP URL to ask (path or
// virtual-host style, AWS or another endpoint), the credential defaults (AWS environment
// variables, ~/.aws/credentials), requests signed by libcurl (CURLOPT_AWS_SIGV4), and
// ListObjectsV2 with continuation tokens. The listing's XML is parsed with expat, loaded at
// run time like libcurl (libexpat.so.1, present wherever Python or git is); without expat's
// headers at build time (PQ_HAVE_EXPAT undefined) listing is an error.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "format/io/http_client.h"
#include "format/io/remote_file.h"

namespace parquet {

struct S3Location {
  std::string bucket;
  std::string key;  // without the leading '/'; may be empty (the whole bucket)
};

// Splits "s3://bucket/key". Throws ParquetError for a URL without a bucket or with a
// bucket that is not a valid name (IsS3BucketName).
S3Location ParseS3Url(const std::string& url);

// Whether `bucket` is a bucket name by S3's rules: 3 to 63 lowercase letters, digits, dots
// and hyphens, starting and ending with a letter or digit, no two dots in a row, not
// formatted as an IPv4 address. Nothing else goes into a host name (virtual-host style)
// or a path.
bool IsS3BucketName(std::string_view bucket);
constexpr const char* kS3BucketRule =
    "bucket names are 3 to 63 lowercase letters, digits, dots and hyphens, starting and ending with a letter or digit";

// Checks of what routes and signs an S3 request; each returns "" or the error, naming
// `source` (the option or environment variable the value came from):
//   S3RegionProblem      a region is 1 to 64 of [a-z0-9-] (it goes into the signature's
//                        scope, where ':' or a space would change what is signed);
//   S3EndpointProblem    host[:port] or http(s)://host[:port], an optional final '/', no
//                        path, query, fragment or user;
//   CredentialProblem    a credential holds no control character (never quoted);
//   S3HeaderProblem      http_headers sent with an S3 request set none of the headers
//                        SigV4 signs or that route or frame the request: Host,
//                        Authorization, Content-*, Transfer-Encoding, Connection, Expect,
//                        Range, x-amz-*.
std::string S3RegionProblem(std::string_view region, const std::string& source);
std::string S3EndpointProblem(std::string_view endpoint, const std::string& source);
std::string CredentialProblem(std::string_view value, const std::string& source);
std::string S3HeaderProblem(const std::vector<SecretString>& headers);

// RemoteOptions with the S3 defaults filled in from the environment and ~/.aws/credentials
// (ambient credentials: refused with options.ambient_credentials_refusal while
// options.ambient_credentials_allowed says no). Throws ParquetError for a credential with
// a control character, an invalid region or endpoint (from the options or the environment)
// and a credentials file that cannot be read (a missing one holds no credentials).
RemoteOptions ResolveS3Options(const RemoteOptions& options);

// The http(s) URL of an object (key percent-encoded, '/' kept) or, with an empty key, of
// the bucket ("/" ending), for resolved options.
std::string S3HttpUrl(const RemoteOptions& resolved, const S3Location& location);

// A request to `http_url` signed for the resolved options (unsigned without credentials);
// `body` (may be null) is sent with PUT and POST.
HttpRequest S3Request(const RemoteOptions& resolved, const std::string& http_url, const std::string& method,
                      const uint8_t* body, size_t body_size);

struct S3Object {
  std::string key;
  uint64_t size = 0;
};

// Limits of a listing, whatever the server sends: S3 keys are at most 1024 bytes; no other
// element of a listing (a continuation token included) may pass 4096 bytes nor nest deeper
// than 16; a listing keeps at most kMaxListedObjects objects and follows at most
// kMaxListingPages pages. A DOCTYPE (and so any entity declaration) is refused.
constexpr size_t kMaxS3KeyBytes = 1024;
constexpr size_t kMaxListingElementBytes = 4096;
constexpr size_t kMaxListingDepth = 16;
constexpr size_t kMaxListedObjects = 100000;
constexpr int kMaxListingPages = 100000;

struct S3ListOptions {
  // Asked with each key as it is parsed: only the objects it accepts are kept (null: all).
  std::function<bool(const std::string& key)> keep;
  size_t max_objects = kMaxListedObjects;  // objects and common prefixes kept
  // With a delimiter ("/"), the keys holding it after the prefix come back as their common
  // prefixes (the "directories" one level down, each ending in the delimiter), appended to
  // *common_prefixes (required then) in key order; kept objects are those directly at the
  // prefix's level.
  std::string delimiter;
  std::vector<std::string>* common_prefixes = nullptr;
  // Above 0 (at most 1000): sent as max-keys, and only the first page is read (a probe of
  // whether a prefix holds objects); 0: the server's page size, every page followed.
  int max_keys = 0;
  // The listing ends with the first page that kept an object (the first object `keep`
  // accepts, in key order, is in it); its pages start at 32 keys and double up to 1000, so
  // few entries are listed when a match comes early.
  bool until_first_kept = false;
  // Non-empty: the listing starts after this key (ListObjectsV2 start-after), e.g. a Delta
  // log from its last checkpoint on.
  std::string start_after;
  // Grown as the listing goes (may be null): requests made (retries included), and the
  // objects and common prefixes the server returned, kept or not.
  uint64_t* requests = nullptr;
  uint64_t* entries = nullptr;
};

// The objects of `bucket` whose key starts with `prefix` and that `list.keep` accepts, in
// key order (ListObjectsV2, following continuation tokens), and with a delimiter the
// common prefixes. Keys and common prefixes outside the prefix (a hostile or broken
// server) are skipped. Before each page it asks the thread's interrupt
// check (HttpInterruptRequested, installed by the caller with HttpInterruptScope): yes ends
// the listing with HttpInterrupted. Throws ParquetError naming s3://bucket/prefix when the
// server fails, a limit above is passed, or a continuation token comes back again.
std::vector<S3Object> ListS3Objects(const RemoteOptions& options, const std::string& bucket, const std::string& prefix,
                                    const S3ListOptions& list = {});

// Whether `key` holds a "." or ".." segment (a key that a URL cannot name as it is).
bool S3KeyHasDotSegment(const std::string& key);

// Uploads the local file `local_path` as the object at `url` (s3://bucket/key): one PUT up
// to kMultipartPartSize bytes, else a multipart upload in parts of that size, aborted
// (nothing left behind) when any part or the completion fails. The object appears only
// when complete. Throws ParquetError naming the URL.
void UploadS3Object(const RemoteOptions& options, const std::string& url, const std::string& local_path);
constexpr uint64_t kMultipartPartSize = 8ull << 20;

// Deletes the object at `url`; errors are ignored when `best_effort` (cleanup after a failure).
void DeleteS3Object(const RemoteOptions& options, const std::string& url, bool best_effort);

// Whether an object exists at `url` (a HEAD request; 404: false; other failures throw).
bool S3ObjectExists(const RemoteOptions& options, const std::string& url);

// The text of every element named `element` in `xml` (expat), in document order.
std::vector<std::string> XmlElementTexts(const std::string& xml, const std::string& element);

// Parses one ListObjectsV2 response body: appends the objects `list` keeps to *out (and its
// common prefixes to *list.common_prefixes, when set), counts them in *list.entries and
// returns the continuation token ("" when the listing is complete). Throws ParquetError
// (without a URL) for malformed XML, a DOCTYPE, a passed limit. Exposed for unit tests.
std::string ParseListObjectsV2(const std::string& xml, const S3ListOptions& list, std::vector<S3Object>* out);

}  // namespace parquet

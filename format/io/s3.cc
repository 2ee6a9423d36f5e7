// S3 URLs, credential defaults, signed requests and ListObjectsV2 (see s3.h).
#include "format/io/s3.h"

#include <openssl/evp.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <mutex>

#ifdef PQ_HAVE_EXPAT
#include <expat.h>
#endif

#include "format/common/error.h"
#include "format/io/runtime_library.h"

namespace parquet {

S3Location ParseS3Url(const std::string& url) {
  const std::string rest = url.substr(5);  // after "s3://"
  const size_t slash = rest.find('/');
  S3Location location;
  location.bucket = rest.substr(0, slash);
  if (slash != std::string::npos) location.key = rest.substr(slash + 1);
  if (location.bucket.empty()) throw ParquetError("s3 url '" + UrlForDisplay(url) + "' names no bucket");
  return location;
}

namespace {

// The most a response to a request of ours may hold (S3Request).
constexpr uint64_t kMaxS3ResponseBytes = 16ull << 20;

std::string Environment(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::string() : std::string(value);
}

std::string Trim(const std::string& text) {
  const size_t begin = text.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  return text.substr(begin, text.find_last_not_of(" \t\r") - begin + 1);
}

// Fills the empty credential fields of *options from section `profile` of an AWS
// credentials file (INI: [profile] then key = value lines).
void ReadCredentialsFile(const std::string& path, const std::string& profile, RemoteOptions* options) {
  std::ifstream in(path);
  if (!in) return;
  std::string line;
  bool in_section = false;
  SecretString key_id, secret, token;
  while (std::getline(in, line)) {
    line = Trim(line);
    if (line.empty() || line[0] == '#' || line[0] == ';') continue;
    if (line.front() == '[' && line.back() == ']') {
      in_section = Trim(line.substr(1, line.size() - 2)) == profile;
      continue;
    }
    if (!in_section) continue;
    const size_t equals = line.find('=');
    if (equals == std::string::npos) continue;
    const std::string name = Trim(line.substr(0, equals));
    const std::string value = Trim(line.substr(equals + 1));
    if (name == "aws_access_key_id") key_id = value;
    if (name == "aws_secret_access_key") secret = value;
    if (name == "aws_session_token") token = value;
    WipeMemory(line.data(), line.size());
  }
  if (options->s3_access_key_id.empty() && !key_id.empty()) {
    options->s3_access_key_id = key_id;
    options->s3_secret_access_key = secret;
    options->s3_session_token = token;
  }
}

std::string Sha256Hex(const uint8_t* data, size_t size) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_Digest(data, size, digest, &length, EVP_sha256(), nullptr) != 1) {
    throw ParquetError("cannot sign an s3 request: SHA-256 failed");
  }
  static const char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned int i = 0; i < length; i++) {
    hex += kHex[digest[i] >> 4];
    hex += kHex[digest[i] & 15];
  }
  return hex;
}

}  // namespace

RemoteOptions ResolveS3Options(const RemoteOptions& options) {
  RemoteOptions resolved = options;
  if (resolved.s3_access_key_id.empty() && !Environment("AWS_ACCESS_KEY_ID").empty()) {
    resolved.s3_access_key_id = Environment("AWS_ACCESS_KEY_ID");
    resolved.s3_secret_access_key = Environment("AWS_SECRET_ACCESS_KEY");
    resolved.s3_session_token = Environment("AWS_SESSION_TOKEN");
  }
  if (resolved.s3_access_key_id.empty()) {
    std::string file = Environment("AWS_SHARED_CREDENTIALS_FILE");
    if (file.empty() && !Environment("HOME").empty()) file = Environment("HOME") + "/.aws/credentials";
    std::string profile = Environment("AWS_PROFILE");
    if (profile.empty()) profile = "default";
    if (!file.empty()) ReadCredentialsFile(file, profile, &resolved);
  }
  if (resolved.s3_region.empty()) resolved.s3_region = Environment("AWS_REGION");
  if (resolved.s3_region.empty()) resolved.s3_region = Environment("AWS_DEFAULT_REGION");
  if (resolved.s3_region.empty()) resolved.s3_region = "us-east-1";
  if (resolved.s3_endpoint.empty()) resolved.s3_endpoint = Environment("AWS_ENDPOINT_URL_S3");
  if (resolved.s3_endpoint.empty()) resolved.s3_endpoint = Environment("AWS_ENDPOINT_URL");
  if (resolved.s3_url_style == S3UrlStyle::kDefault) {
    resolved.s3_url_style = resolved.s3_endpoint.empty() ? S3UrlStyle::kVirtualHost : S3UrlStyle::kPath;
  }
  if (resolved.s3_endpoint.empty()) resolved.s3_endpoint = "https://s3." + resolved.s3_region + ".amazonaws.com";
  if (resolved.s3_endpoint.find("://") == std::string::npos) resolved.s3_endpoint = "https://" + resolved.s3_endpoint;
  while (!resolved.s3_endpoint.empty() && resolved.s3_endpoint.back() == '/') resolved.s3_endpoint.pop_back();
  return resolved;
}

std::string S3HttpUrl(const RemoteOptions& resolved, const S3Location& location) {
  const std::string key = PercentEncode(location.key, /*keep_slash=*/true);
  if (resolved.s3_url_style == S3UrlStyle::kPath) return resolved.s3_endpoint + "/" + location.bucket + "/" + key;
  const size_t host = resolved.s3_endpoint.find("://") + 3;
  return resolved.s3_endpoint.substr(0, host) + location.bucket + "." + resolved.s3_endpoint.substr(host) + "/" + key;
}

HttpRequest S3Request(const RemoteOptions& resolved, const std::string& http_url, const std::string& method,
                      const uint8_t* body, size_t body_size) {
  HttpRequest request;
  request.method = method;
  request.url = http_url;
  request.ca_file = TrustedCaFile(resolved);
  // Listings, upload ids and error documents: a page of 1000 keys is a few hundred KiB, so
  // a larger response is a hostile or broken endpoint, not one to buffer.
  request.max_body = kMaxS3ResponseBytes;
  if (!resolved.s3_access_key_id.empty()) {
    request.aws_sigv4 = "aws:amz:" + resolved.s3_region + ":s3";
    request.aws_credentials = resolved.s3_access_key_id;
    request.aws_credentials += ":";
    request.aws_credentials += resolved.s3_secret_access_key;
    // S3 wants the payload's hash in a header; libcurl signs that header with the rest.
    request.headers.push_back(SecretString("x-amz-content-sha256: " +
                                           Sha256Hex(body != nullptr ? body : reinterpret_cast<const uint8_t*>(""), body_size)));
    if (!resolved.s3_session_token.empty()) {
      SecretString token("x-amz-security-token: ");
      token += resolved.s3_session_token;
      request.headers.push_back(std::move(token));
    }
  }
  request.body = body;
  request.body_size = body_size;
  return request;
}

#ifndef PQ_HAVE_EXPAT

std::string ParseListObjectsV2(const std::string&, std::vector<S3Object>*) {
  throw ParquetError("listing s3 objects is not supported by this build (built without expat's headers, "
                     "Debian package libexpat1-dev)");
}

std::vector<std::string> XmlElementTexts(const std::string&, const std::string&) {
  throw ParquetError("s3 responses cannot be parsed by this build (built without expat's headers, "
                     "Debian package libexpat1-dev)");
}

#else

namespace {

struct ExpatApi {
  decltype(&XML_ParserCreate) parser_create = nullptr;
  decltype(&XML_SetElementHandler) set_element_handler = nullptr;
  decltype(&XML_SetCharacterDataHandler) set_character_data_handler = nullptr;
  decltype(&XML_SetUserData) set_user_data = nullptr;
  decltype(&XML_Parse) parse = nullptr;
  decltype(&XML_GetErrorCode) get_error_code = nullptr;
  decltype(&XML_ErrorString) error_string = nullptr;
  decltype(&XML_ParserFree) parser_free = nullptr;
  std::string error;
};

const ExpatApi& Expat() {
  static ExpatApi api;
  static std::once_flag once;
  std::call_once(once, [] {
    RuntimeLibrary library(platform::SharedLibraryNames("expat", 1));
    library.Bind(&api.parser_create, "XML_ParserCreate");
    library.Bind(&api.set_element_handler, "XML_SetElementHandler");
    library.Bind(&api.set_character_data_handler, "XML_SetCharacterDataHandler");
    library.Bind(&api.set_user_data, "XML_SetUserData");
    library.Bind(&api.parse, "XML_Parse");
    library.Bind(&api.get_error_code, "XML_GetErrorCode");
    library.Bind(&api.error_string, "XML_ErrorString");
    library.Bind(&api.parser_free, "XML_ParserFree");
    api.error = library.Problem("s3 listings and uploads", platform::kWindows ? "libexpat.dll (Expat) on PATH"
                                                                                   : "the Debian package libexpat1");
  });
  return api;
}

// The state of one ListObjectsV2 parse: the element path and the text of the current leaf.
struct ListingParse {
  std::vector<std::string> path;
  std::string text;
  S3Object current;
  std::vector<S3Object>* out;
  std::string token;
  bool truncated = false;
};

void OnStart(void* user, const XML_Char* name, const XML_Char**) {
  auto* parse = static_cast<ListingParse*>(user);
  parse->path.emplace_back(name);
  parse->text.clear();
  if (parse->path.size() == 2 && parse->path[1] == "Contents") parse->current = S3Object();
}

void OnEnd(void* user, const XML_Char*) {
  auto* parse = static_cast<ListingParse*>(user);
  const std::vector<std::string>& path = parse->path;
  if (path.size() == 3 && path[1] == "Contents") {
    if (path[2] == "Key") parse->current.key = parse->text;
    if (path[2] == "Size") parse->current.size = std::strtoull(parse->text.c_str(), nullptr, 10);
  } else if (path.size() == 2 && path[1] == "Contents") {
    parse->out->push_back(parse->current);
  } else if (path.size() == 2 && path[1] == "NextContinuationToken") {
    parse->token = parse->text;
  } else if (path.size() == 2 && path[1] == "IsTruncated") {
    parse->truncated = parse->text == "true";
  }
  parse->path.pop_back();
  parse->text.clear();
}

void OnText(void* user, const XML_Char* text, int length) {
  static_cast<ListingParse*>(user)->text.append(text, static_cast<size_t>(length));
}

// The texts of the elements named `wanted`.
struct TextsParse {
  std::string wanted;
  int depth_inside = 0;  // > 0: inside a wanted element
  std::string text;
  std::vector<std::string> out;
};

void OnTextsStart(void* user, const XML_Char* name, const XML_Char**) {
  auto* parse = static_cast<TextsParse*>(user);
  if (parse->depth_inside > 0) {
    parse->depth_inside++;
  } else if (parse->wanted == name) {
    parse->depth_inside = 1;
    parse->text.clear();
  }
}

void OnTextsEnd(void* user, const XML_Char*) {
  auto* parse = static_cast<TextsParse*>(user);
  if (parse->depth_inside > 0 && --parse->depth_inside == 0) parse->out.push_back(parse->text);
}

void OnTextsText(void* user, const XML_Char* text, int length) {
  auto* parse = static_cast<TextsParse*>(user);
  if (parse->depth_inside > 0) parse->text.append(text, static_cast<size_t>(length));
}

// Runs expat over `xml` with the handlers; throws with `what` on malformed XML.
void ParseXml(const std::string& xml, void* user, XML_StartElementHandler start, XML_EndElementHandler end,
              XML_CharacterDataHandler text, const char* what) {
  const ExpatApi& api = Expat();
  if (!api.error.empty()) throw ParquetError(api.error);
  XML_Parser parser = api.parser_create(nullptr);
  if (parser == nullptr) throw ParquetError(std::string("cannot parse ") + what + ": out of memory");
  api.set_user_data(parser, user);
  api.set_element_handler(parser, start, end);
  api.set_character_data_handler(parser, text);
  const bool ok = api.parse(parser, xml.data(), static_cast<int>(xml.size()), 1) != XML_STATUS_ERROR;
  const std::string error = ok ? "" : api.error_string(api.get_error_code(parser));
  api.parser_free(parser);
  if (!ok) throw ParquetError(std::string("cannot parse ") + what + ": " + error);
}

}  // namespace

std::vector<std::string> XmlElementTexts(const std::string& xml, const std::string& element) {
  TextsParse parse;
  parse.wanted = element;
  ParseXml(xml, &parse, &OnTextsStart, &OnTextsEnd, &OnTextsText, "an s3 response");
  return parse.out;
}

std::string ParseListObjectsV2(const std::string& xml, std::vector<S3Object>* out) {
  ListingParse parse;
  parse.out = out;
  ParseXml(xml, &parse, &OnStart, &OnEnd, &OnText, "an s3 listing");
  if (parse.truncated && parse.token.empty()) {
    throw ParquetError("s3 listing is truncated but has no continuation token");
  }
  return parse.truncated ? parse.token : "";
}

#endif  // PQ_HAVE_EXPAT

std::vector<S3Object> ListS3Objects(const RemoteOptions& options, const std::string& bucket,
                                    const std::string& prefix) {
  const RemoteOptions resolved = ResolveS3Options(options);
  const std::string bucket_url = S3HttpUrl(resolved, S3Location{bucket, ""});
  const std::string shown = "s3://" + bucket + "/" + prefix;
  std::vector<S3Object> objects;
  std::string token;
  for (int page = 0;; page++) {
    // Query parameters in sorted order, as SigV4's canonical request has them.
    std::string query = "?";
    if (!token.empty()) query += "continuation-token=" + PercentEncode(token, false) + "&";
    query += "list-type=2&prefix=" + PercentEncode(prefix, false);
    HttpRequest request = S3Request(resolved, bucket_url + query, "GET", nullptr, 0);
    HttpResponse response = HttpPerformWithRetry(request, shown, options.attempts);
    if (response.status != 200) throw ParquetError(RemoteStatusError(response.status, "list " + shown));
    token = ParseListObjectsV2(std::string(response.body.begin(), response.body.end()), &objects);
    if (token.empty()) break;
    if (page > 100000) throw ParquetError("cannot list " + shown + ": more than 100000 pages");
  }
  return objects;
}

namespace {

// One signed request to the object at `url` plus `query` ("" or "?a=b&c=d", sorted).
HttpResponse S3ObjectRequest(const RemoteOptions& resolved, const std::string& url, const std::string& method,
                             const std::string& query, const uint8_t* body, size_t size, int attempts) {
  HttpRequest request = S3Request(resolved, S3HttpUrl(resolved, ParseS3Url(url)) + query, method, body, size);
  return HttpPerformWithRetry(request, url, attempts);
}

// Throws unless the response is a success without an <Error> body (CompleteMultipartUpload
// may answer 200 and report a failure in its body).
void RequireSuccess(const HttpResponse& response, const std::string& what) {
  if (response.status < 200 || response.status > 299) throw ParquetError(RemoteStatusError(response.status, what));
  const std::string body(response.body.begin(), response.body.end());
  if (body.find("<Error>") != std::string::npos) {
    const std::vector<std::string> codes = XmlElementTexts(body, "Code");
    throw ParquetError("cannot " + what + ": the server reports " + (codes.empty() ? std::string("an error") : codes[0]));
  }
}

std::vector<uint8_t> ReadFileRange(std::FILE* file, const std::string& path, uint64_t length) {
  std::vector<uint8_t> bytes(length);
  if (length > 0 && std::fread(bytes.data(), 1, length, file) != length) {
    throw ParquetError("cannot read '" + path + "' to upload it");
  }
  return bytes;
}

}  // namespace

void UploadS3Object(const RemoteOptions& options, const std::string& url, const std::string& local_path) {
  const RemoteOptions resolved = ResolveS3Options(options);
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(local_path.c_str(), "rb"), &std::fclose);
  if (!file) throw ParquetError("cannot open '" + local_path + "' to upload it");
  long end = -1;
  if (std::fseek(file.get(), 0, SEEK_END) == 0) end = std::ftell(file.get());
  if (end < 0 || std::fseek(file.get(), 0, SEEK_SET) != 0) throw ParquetError("cannot read '" + local_path + "' to upload it");
  const uint64_t size = static_cast<uint64_t>(end);
  const std::string what = "upload " + url;
  if (size <= kMultipartPartSize) {
    const std::vector<uint8_t> bytes = ReadFileRange(file.get(), local_path, size);
    RequireSuccess(S3ObjectRequest(resolved, url, "PUT", "", bytes.data(), bytes.size(), options.attempts), what);
    return;
  }
  const HttpResponse created = S3ObjectRequest(resolved, url, "POST", "?uploads=", nullptr, 0, options.attempts);
  RequireSuccess(created, what);
  const std::vector<std::string> ids = XmlElementTexts(std::string(created.body.begin(), created.body.end()), "UploadId");
  if (ids.empty() || ids[0].empty()) throw ParquetError("cannot " + what + ": the server gave no UploadId");
  const std::string upload = "uploadId=" + PercentEncode(ids[0], false);
  try {
    std::string completion = "<CompleteMultipartUpload>";
    int part = 0;
    for (uint64_t done = 0; done < size; done += kMultipartPartSize) {
      part++;
      const std::vector<uint8_t> bytes = ReadFileRange(file.get(), local_path, std::min(kMultipartPartSize, size - done));
      const HttpResponse uploaded = S3ObjectRequest(resolved, url, "PUT", "?partNumber=" + std::to_string(part) + "&" + upload,
                                                    bytes.data(), bytes.size(), options.attempts);
      RequireSuccess(uploaded, what + " (part " + std::to_string(part) + ")");
      const std::string etag = uploaded.Header("etag");
      if (etag.empty()) throw ParquetError("cannot " + what + ": part " + std::to_string(part) + " got no ETag");
      completion += "<Part><PartNumber>" + std::to_string(part) + "</PartNumber><ETag>" + etag + "</ETag></Part>";
    }
    completion += "</CompleteMultipartUpload>";
    RequireSuccess(S3ObjectRequest(resolved, url, "POST", "?" + upload, reinterpret_cast<const uint8_t*>(completion.data()),
                                   completion.size(), options.attempts),
                   what);
  } catch (...) {
    try {
      S3ObjectRequest(resolved, url, "DELETE", "?" + upload, nullptr, 0, options.attempts);  // abort: parts are dropped
    } catch (const ParquetError&) {
      // The original error matters more; an unfinished upload expires by bucket policy.
    }
    throw;
  }
}

void DeleteS3Object(const RemoteOptions& options, const std::string& url, bool best_effort) {
  try {
    const HttpResponse response =
        S3ObjectRequest(ResolveS3Options(options), url, "DELETE", "", nullptr, 0, options.attempts);
    if (response.status != 204 && response.status != 200 && response.status != 404) {
      throw ParquetError(RemoteStatusError(response.status, "delete " + url));
    }
  } catch (const ParquetError&) {
    if (!best_effort) throw;
  }
}

bool S3ObjectExists(const RemoteOptions& options, const std::string& url) {
  const HttpResponse response = S3ObjectRequest(ResolveS3Options(options), url, "HEAD", "", nullptr, 0, options.attempts);
  if (response.status == 404) return false;
  if (response.status >= 200 && response.status <= 299) return true;
  throw ParquetError(RemoteStatusError(response.status, "look up " + url));
}

}  // namespace parquet

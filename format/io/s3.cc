// S3 URLs, credential defaults, signed requests and ListObjectsV2 (see s3.h).
#include "format/io/s3.h"

#include <openssl/evp.h>


#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string_view>
#include <unordered_set>

#ifdef PQ_HAVE_EXPAT
#include <expat.h>
#endif

#include "format/common/error.h"
#include "format/io/random_access_file.h"
#include "format/io/runtime_library.h"
#include "format/platform/system.h"
#include "format/values/text.h"

namespace parquet {

S3Location ParseS3Url(const std::string& url) {
  const std::string rest = url.substr(5);  // after "s3://"
  const size_t slash = rest.find('/');
  S3Location location;
  location.bucket = rest.substr(0, slash);
  if (slash != std::string::npos) location.key = rest.substr(slash + 1);
  if (location.bucket.empty()) throw ParquetError("s3 url '" + UrlForDisplay(url) + "' names no bucket");
  if (!IsS3BucketName(location.bucket)) {
    throw ParquetError("s3 url '" + UrlForDisplay(url) + "' names an invalid bucket: " + kS3BucketRule);
  }
  return location;
}

bool IsS3BucketName(std::string_view bucket) {
  if (bucket.size() < 3 || bucket.size() > 63) return false;
  auto alphanumeric = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  if (!alphanumeric(bucket.front()) || !alphanumeric(bucket.back())) return false;
  bool only_digits_and_dots = true;
  int dots = 0;
  for (size_t i = 0; i < bucket.size(); i++) {
    const char c = bucket[i];
    if (!alphanumeric(c) && c != '.' && c != '-') return false;
    if (c == '.' && bucket[i - 1] == '.') return false;  // i > 0: the first is alphanumeric
    if (c == '.') dots++;
    only_digits_and_dots = only_digits_and_dots && ((c >= '0' && c <= '9') || c == '.');
  }
  return !(only_digits_and_dots && dots == 3);  // not formatted as an IPv4 address
}

std::string S3RegionProblem(std::string_view region, const std::string& source) {
  bool valid = !region.empty() && region.size() <= 64;
  for (char c : region) valid = valid && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-');
  if (valid) return "";
  return "invalid " + source + " '" + std::string(region) + "': a region is lowercase letters, digits and hyphens";
}

std::string S3EndpointProblem(std::string_view endpoint, const std::string& source) {
  std::string_view rest = endpoint;
  const size_t scheme_end = rest.find("://");
  bool valid = true;
  if (scheme_end != std::string_view::npos) {
    const std::string scheme = AsciiLowercase(std::string(rest.substr(0, scheme_end)));
    valid = scheme == "http" || scheme == "https";
    rest.remove_prefix(scheme_end + 3);
  }
  if (!rest.empty() && rest.back() == '/') rest.remove_suffix(1);
  size_t at = 0;
  if (!rest.empty() && rest[0] == '[') {  // an IPv6 literal
    const size_t close = rest.find(']');
    valid = valid && close != std::string_view::npos && close > 1;
    for (size_t i = 1; valid && i < close; i++) valid = std::isxdigit(static_cast<unsigned char>(rest[i])) || rest[i] == ':' || rest[i] == '.';
    at = valid ? close + 1 : rest.size();
  } else {
    while (at < rest.size() && (std::isalnum(static_cast<unsigned char>(rest[at])) || rest[at] == '.' || rest[at] == '-' || rest[at] == '_')) at++;
    valid = valid && at > 0;
  }
  if (valid && at < rest.size()) {
    const std::string_view port = rest.substr(at + 1);
    valid = rest[at] == ':' && !port.empty() && port.size() <= 5 &&
            port.find_first_not_of("0123456789") == std::string_view::npos && std::stoul(std::string(port)) <= 65535;
  }
  if (valid) return "";
  return "invalid " + source + " '" + std::string(endpoint) +
         "': an endpoint is host[:port] or http(s)://host[:port], without a path, query, fragment or user";
}

std::string CredentialProblem(std::string_view value, const std::string& source) {
  for (unsigned char c : value) {
    if (c < 0x20 || c == 0x7f) return "invalid " + source + ": it holds a control character";
  }
  return "";
}

std::string S3HeaderProblem(const std::vector<SecretString>& headers) {
  static const char* const kRefused[] = {"host", "authorization", "content-type", "content-length", "content-md5",
                                         "transfer-encoding", "connection", "expect", "range"};
  for (const SecretString& header : headers) {
    const std::string name = AsciiLowercase(std::string(header.view().substr(0, header.view().find(':'))));
    bool refused = name.rfind("x-amz-", 0) == 0;
    for (const char* refused_name : kRefused) refused = refused || name == refused_name;
    if (refused) {
      return "http_headers may not set " + name +
             " for an s3 url: the request's signature or routing is the extension's (host, authorization, "
             "content-*, transfer-encoding, connection, expect, range and x-amz-* are refused)";
    }
  }
  return "";
}

namespace {

// The most a response to a request of ours may hold (S3Request).
constexpr uint64_t kMaxS3ResponseBytes = 16ull << 20;

std::string Environment(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::string() : std::string(value);
}

// A credential from the environment, held as the other secrets are (the environment block
// itself belongs to the process and is not wiped).
SecretString EnvironmentSecret(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? SecretString() : SecretString(value);
}

std::string_view Trim(std::string_view text) {
  const size_t begin = text.find_first_not_of(" \t\r");
  if (begin == std::string_view::npos) return "";
  return text.substr(begin, text.find_last_not_of(" \t\r") - begin + 1);
}

// Credentials found outside the options: the environment or the credentials file.
struct AmbientCredentials {
  SecretString key_id, secret, token;
  std::array<std::string, 3> names;  // of the three in errors: the variables, or the file's keys
};

constexpr size_t kMaxCredentialsFileBytes = 1 << 20;

// Section `profile` of the AWS credentials file at `path` (INI: [profile] then key = value
// lines); none when the file does not exist. The file is read as data files are (regular
// files only, without blocking) into a wiping buffer, and parsed in place.
AmbientCredentials ReadCredentialsFile(const std::string& path, const std::string& profile) {
  AmbientCredentials found;
  const std::string in_file = " of the credentials file '" + path + "'";
  found.names = {"aws_access_key_id" + in_file, "aws_secret_access_key" + in_file, "aws_session_token" + in_file};
  platform::FileStatus info;
  if (platform::PathStatus(path, true, &info).kind == platform::SystemResult::Kind::kNotFound) return found;
  const std::unique_ptr<RandomAccessFile> file = OpenLocalFile(path);
  if (file->Size() > kMaxCredentialsFileBytes) {
    throw ParquetError("cannot read the credentials file '" + path + "': larger than " + std::to_string(kMaxCredentialsFileBytes) + " bytes");
  }
  SecretString text(static_cast<size_t>(file->Size()), '\0');
  file->ReadAt(0, text.size(), reinterpret_cast<uint8_t*>(text.data()));
  std::string_view rest = text.view();
  bool in_section = false;
  while (!rest.empty()) {
    const size_t end = std::min(rest.find('\n'), rest.size());
    const std::string_view line = Trim(rest.substr(0, end));
    rest.remove_prefix(std::min(end + 1, rest.size()));
    if (line.empty() || line[0] == '#' || line[0] == ';') continue;
    if (line.front() == '[' && line.back() == ']') {
      in_section = Trim(line.substr(1, line.size() - 2)) == profile;
      continue;
    }
    const size_t equals = line.find('=');
    if (!in_section || equals == std::string_view::npos) continue;
    const std::string_view name = Trim(line.substr(0, equals));
    const std::string_view value = Trim(line.substr(equals + 1));
    if (name == "aws_access_key_id") found.key_id = value;
    if (name == "aws_secret_access_key") found.secret = value;
    if (name == "aws_session_token") found.token = value;
  }
  return found;
}

// The environment's credentials, else the credentials file's (AWS_PROFILE's section, default
// "default"); none when neither has an access key id.
AmbientCredentials FindAmbientCredentials() {
  AmbientCredentials found;
  found.key_id = EnvironmentSecret("AWS_ACCESS_KEY_ID");
  if (!found.key_id.empty()) {
    found.secret = EnvironmentSecret("AWS_SECRET_ACCESS_KEY");
    found.token = EnvironmentSecret("AWS_SESSION_TOKEN");
    found.names = {"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"};
    return found;
  }
  std::string file = Environment("AWS_SHARED_CREDENTIALS_FILE");
  if (file.empty() && !Environment("HOME").empty()) file = Environment("HOME") + "/.aws/credentials";
  std::string profile = Environment("AWS_PROFILE");
  if (profile.empty()) profile = "default";
  if (file.empty()) return found;
  return ReadCredentialsFile(file, profile);
}

// Throws unless the credentials of *resolved are free of control characters (a CR or LF in
// a header value would end it and start another header, or another request).
// `names` name the three (key id, secret, token) where they came from.
void CheckCredentials(const RemoteOptions& resolved, const std::array<std::string, 3>& names) {
  const SecretString* values[] = {&resolved.s3_access_key_id, &resolved.s3_secret_access_key, &resolved.s3_session_token};
  for (size_t i = 0; i < 3; i++) {
    if (std::string problem = CredentialProblem(values[i]->view(), names[i]); !problem.empty()) throw ParquetError(problem);
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
  std::array<std::string, 3> credential_names = {"s3_access_key_id", "s3_secret_access_key", "s3_session_token"};
  if (resolved.s3_access_key_id.empty()) {
    AmbientCredentials ambient = FindAmbientCredentials();
    if (!ambient.key_id.empty()) {
      // The credential rule (remote_file.h): a gated request never carries them.
      if (options.ambient_credentials_allowed && !options.ambient_credentials_allowed->load()) {
        throw ParquetError(options.ambient_credentials_refusal);
      }
      resolved.s3_access_key_id = std::move(ambient.key_id);
      resolved.s3_secret_access_key = std::move(ambient.secret);
      resolved.s3_session_token = std::move(ambient.token);
      credential_names = std::move(ambient.names);
    }
  }
  CheckCredentials(resolved, credential_names);
  std::string region_source = "s3_region";
  for (const char* variable : {"AWS_REGION", "AWS_DEFAULT_REGION"}) {
    if (resolved.s3_region.empty()) resolved.s3_region = Environment(variable), region_source = variable;
  }
  if (resolved.s3_region.empty()) resolved.s3_region = "us-east-1";
  if (std::string problem = S3RegionProblem(resolved.s3_region, region_source); !problem.empty()) throw ParquetError(problem);
  std::string endpoint_source = "s3_endpoint";
  for (const char* variable : {"AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL"}) {
    if (resolved.s3_endpoint.empty()) resolved.s3_endpoint = Environment(variable), endpoint_source = variable;
  }
  if (std::string problem = resolved.s3_endpoint.empty() ? "" : S3EndpointProblem(resolved.s3_endpoint, endpoint_source);
      !problem.empty()) {
    throw ParquetError(problem);
  }
  if (resolved.s3_url_style == S3UrlStyle::kDefault) {
    resolved.s3_url_style = resolved.s3_endpoint.empty() ? S3UrlStyle::kVirtualHost : S3UrlStyle::kPath;
  }
  if (resolved.s3_endpoint.empty()) resolved.s3_endpoint = "https://s3." + resolved.s3_region + ".amazonaws.com";
  if (resolved.s3_endpoint.find("://") == std::string::npos) resolved.s3_endpoint = "https://" + resolved.s3_endpoint;
  while (!resolved.s3_endpoint.empty() && resolved.s3_endpoint.back() == '/') resolved.s3_endpoint.pop_back();
  return resolved;
}

std::string S3HttpUrl(const RemoteOptions& resolved, const S3Location& location) {
  // The bucket goes into the host name or the path: only a valid one (ParseS3Url checks
  // URLs; this catches a bucket from anywhere else).
  if (!IsS3BucketName(location.bucket)) throw ParquetError("invalid s3 bucket name: " + std::string(kS3BucketRule));
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
  // An S3 key is a name, not a path: "a/../b" is that key, not "b" (nor another bucket).
  request.path_as_is = true;
  request.ca_file = TrustedCaFile(resolved);
  // Listings, upload ids and error documents: a page of 1000 keys is a few hundred KiB, so
  // a larger response is a hostile or broken endpoint, not one to buffer.
  request.max_body = kMaxS3ResponseBytes;
  if (!resolved.s3_access_key_id.empty()) {
    // libcurl splits this at ':' and ends the service at a space: only a checked region.
    if (std::string problem = S3RegionProblem(resolved.s3_region, "s3_region"); !problem.empty()) throw ParquetError(problem);
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

bool S3KeyHasDotSegment(const std::string& key) {
  size_t start = 0;
  while (start <= key.size()) {
    size_t end = key.find('/', start);
    if (end == std::string::npos) end = key.size();
    const std::string_view segment(key.data() + start, end - start);
    if (segment == "." || segment == "..") return true;
    start = end + 1;
  }
  return false;
}

#ifndef PQ_HAVE_EXPAT

std::string ParseListObjectsV2(const std::string&, const S3ListOptions&, std::vector<S3Object>*) {
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
  decltype(&XML_SetStartDoctypeDeclHandler) set_start_doctype_decl_handler = nullptr;
  decltype(&XML_SetUserData) set_user_data = nullptr;
  decltype(&XML_Parse) parse = nullptr;
  decltype(&XML_StopParser) stop_parser = nullptr;
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
    library.Bind(&api.set_start_doctype_decl_handler, "XML_SetStartDoctypeDeclHandler");
    library.Bind(&api.set_user_data, "XML_SetUserData");
    library.Bind(&api.parse, "XML_Parse");
    library.Bind(&api.stop_parser, "XML_StopParser");
    library.Bind(&api.get_error_code, "XML_GetErrorCode");
    library.Bind(&api.error_string, "XML_ErrorString");
    library.Bind(&api.parser_free, "XML_ParserFree");
    api.error = library.Problem("s3 listings and uploads", platform::kWindows ? "libexpat.dll (Expat) on PATH"
                                                                                   : "the Debian package libexpat1");
  });
  return api;
}

// What every parse shares: the parser, so that a handler can stop it, and why it stopped.
// No exception crosses expat's C frames: a handler records the reason and stops the parser.
struct XmlParse {
  XML_Parser parser = nullptr;
  std::string refused;  // non-empty: the parse was stopped for this reason

  void Refuse(const std::string& reason) {
    if (!refused.empty()) return;
    refused = reason;
    Expat().stop_parser(parser, XML_FALSE);
  }
};

template <typename Parse>
Parse* StateOf(void* user) {
  return static_cast<Parse*>(static_cast<XmlParse*>(user));
}

// A DOCTYPE is where entities are declared (expanded text, external files): no S3 response
// has one.
void OnDoctype(void* user, const XML_Char*, const XML_Char*, const XML_Char*, int) {
  static_cast<XmlParse*>(user)->Refuse("it has a DOCTYPE, which s3 responses never have");
}

// The state of one ListObjectsV2 parse: the element path and the text of the current leaf.
struct ListingParse : XmlParse {
  std::vector<std::string> path;
  std::string text;
  S3Object current;
  const S3ListOptions* list = nullptr;
  std::vector<S3Object>* out = nullptr;
  std::string token;
  bool truncated = false;
  size_t kept = 0;  // objects and common prefixes kept by this parse
};

void OnStart(void* user, const XML_Char* name, const XML_Char**) {
  auto* parse = StateOf<ListingParse>(user);
  if (parse->path.size() == kMaxListingDepth) {
    return parse->Refuse("its elements nest deeper than " + std::to_string(kMaxListingDepth));
  }
  parse->path.emplace_back(name);
  parse->text.clear();
  if (parse->path.size() == 2 && parse->path[1] == "Contents") parse->current = S3Object();
}

// Adds the object just parsed to the listing if it is kept.
void KeepObject(ListingParse* parse) {
  const S3ListOptions& list = *parse->list;
  bool keep = true;
  if (list.entries) ++*list.entries;
  try {
    keep = !list.keep || list.keep(parse->current.key);
  } catch (const std::exception& e) {
    return parse->Refuse(e.what());
  }
  if (!keep) return;
  if (parse->kept >= list.max_objects) {
    return parse->Refuse("more than " + std::to_string(list.max_objects) + " objects match (the most a listing keeps)");
  }
  parse->kept++;
  parse->out->push_back(std::move(parse->current));
}

// Adds the common prefix just parsed (a listing with a delimiter).
void KeepCommonPrefix(ListingParse* parse) {
  const S3ListOptions& list = *parse->list;
  if (list.entries) ++*list.entries;
  if (list.common_prefixes == nullptr) return;
  if (parse->text.size() > kMaxS3KeyBytes) {
    return parse->Refuse("it holds a common prefix longer than " + std::to_string(kMaxS3KeyBytes) + " bytes");
  }
  if (parse->kept >= list.max_objects) {
    return parse->Refuse("more than " + std::to_string(list.max_objects) + " objects match (the most a listing keeps)");
  }
  parse->kept++;
  list.common_prefixes->push_back(parse->text);
}

void OnEnd(void* user, const XML_Char*) {
  auto* parse = StateOf<ListingParse>(user);
  if (!parse->refused.empty()) return;
  const std::vector<std::string>& path = parse->path;
  if (path.size() == 3 && path[1] == "Contents") {
    if (path[2] == "Key") {
      if (parse->text.size() > kMaxS3KeyBytes) {
        return parse->Refuse("it holds a key longer than " + std::to_string(kMaxS3KeyBytes) + " bytes");
      }
      parse->current.key = parse->text;
    }
    if (path[2] == "Size") parse->current.size = std::strtoull(parse->text.c_str(), nullptr, 10);
  } else if (path.size() == 2 && path[1] == "Contents") {
    KeepObject(parse);
  } else if (path.size() == 3 && path[1] == "CommonPrefixes" && path[2] == "Prefix") {
    KeepCommonPrefix(parse);
  } else if (path.size() == 2 && path[1] == "NextContinuationToken") {
    parse->token = parse->text;
  } else if (path.size() == 2 && path[1] == "IsTruncated") {
    parse->truncated = parse->text == "true";
  }
  parse->path.pop_back();
  parse->text.clear();
}

void OnText(void* user, const XML_Char* text, int length) {
  auto* parse = StateOf<ListingParse>(user);
  if (parse->text.size() + static_cast<size_t>(length) > kMaxListingElementBytes) {
    return parse->Refuse("an element is longer than " + std::to_string(kMaxListingElementBytes) + " bytes");
  }
  parse->text.append(text, static_cast<size_t>(length));
}

// The texts of the elements named `wanted`.
struct TextsParse : XmlParse {
  std::string wanted;
  int depth_inside = 0;  // > 0: inside a wanted element
  std::string text;
  std::vector<std::string> out;
};

void OnTextsStart(void* user, const XML_Char* name, const XML_Char**) {
  auto* parse = StateOf<TextsParse>(user);
  if (parse->depth_inside > 0) {
    parse->depth_inside++;
  } else if (parse->wanted == name) {
    parse->depth_inside = 1;
    parse->text.clear();
  }
}

void OnTextsEnd(void* user, const XML_Char*) {
  auto* parse = StateOf<TextsParse>(user);
  if (parse->depth_inside > 0 && --parse->depth_inside == 0) parse->out.push_back(parse->text);
}

void OnTextsText(void* user, const XML_Char* text, int length) {
  auto* parse = StateOf<TextsParse>(user);
  if (parse->depth_inside > 0) parse->text.append(text, static_cast<size_t>(length));
}

// Runs expat over `xml` with the handlers; throws with `what` on malformed XML, a DOCTYPE
// or what a handler refused.
void ParseXml(const std::string& xml, XmlParse* state, XML_StartElementHandler start, XML_EndElementHandler end,
              XML_CharacterDataHandler text, const char* what) {
  const ExpatApi& api = Expat();
  if (!api.error.empty()) throw ParquetError(api.error);
  XML_Parser parser = api.parser_create(nullptr);
  if (parser == nullptr) throw ParquetError(std::string("cannot parse ") + what + ": out of memory");
  state->parser = parser;
  api.set_user_data(parser, state);
  api.set_element_handler(parser, start, end);
  api.set_character_data_handler(parser, text);
  api.set_start_doctype_decl_handler(parser, &OnDoctype);
  const bool ok = api.parse(parser, xml.data(), static_cast<int>(xml.size()), 1) != XML_STATUS_ERROR;
  const std::string error = !state->refused.empty() ? state->refused : ok ? "" : api.error_string(api.get_error_code(parser));
  api.parser_free(parser);
  state->parser = nullptr;
  if (!error.empty()) throw ParquetError(std::string("cannot parse ") + what + ": " + error);
}

}  // namespace

std::vector<std::string> XmlElementTexts(const std::string& xml, const std::string& element) {
  TextsParse parse;
  parse.wanted = element;
  ParseXml(xml, &parse, &OnTextsStart, &OnTextsEnd, &OnTextsText, "an s3 response");
  return parse.out;
}

std::string ParseListObjectsV2(const std::string& xml, const S3ListOptions& list, std::vector<S3Object>* out) {
  ListingParse parse;
  parse.list = &list;
  parse.out = out;
  parse.kept = out->size() + (list.common_prefixes ? list.common_prefixes->size() : 0);
  ParseXml(xml, &parse, &OnStart, &OnEnd, &OnText, "an s3 listing");
  if (parse.truncated && parse.token.empty()) {
    throw ParquetError("s3 listing is truncated but has no continuation token");
  }
  return parse.truncated ? parse.token : "";
}

#endif  // PQ_HAVE_EXPAT

std::vector<S3Object> ListS3Objects(const RemoteOptions& options, const std::string& bucket, const std::string& prefix,
                                    const S3ListOptions& list) {
  const RemoteOptions resolved = ResolveS3Options(options);
  const std::string bucket_url = S3HttpUrl(resolved, S3Location{bucket, ""});
  const std::string shown = "s3://" + bucket + "/" + prefix;
  S3ListOptions within = list;
  within.keep = [&](const std::string& key) {
    return key.compare(0, prefix.size(), prefix) == 0 && (!list.keep || list.keep(key));
  };
  if (!list.delimiter.empty() && list.common_prefixes == nullptr) {
    throw ParquetError("cannot list " + shown + ": a delimiter needs somewhere to put the common prefixes");
  }
  std::vector<S3Object> objects;
  std::unordered_set<size_t> tokens_seen;  // hashes: a hostile server's tokens take no memory
  std::string token;
  int page_keys = list.until_first_kept ? 32 : list.max_keys;
  for (int page = 0;; page++) {
    if (HttpInterruptRequested()) throw HttpInterrupted("interrupted");
    // Query parameters in sorted order, as SigV4's canonical request has them.
    std::string query = "?";
    if (!token.empty()) query += "continuation-token=" + PercentEncode(token, false) + "&";
    if (!list.delimiter.empty()) query += "delimiter=" + PercentEncode(list.delimiter, false) + "&";
    query += "list-type=2&";
    if (page_keys > 0) query += "max-keys=" + std::to_string(std::min(page_keys, 1000)) + "&";
    query += "prefix=" + PercentEncode(prefix, false);
    if (!list.start_after.empty()) query += "&start-after=" + PercentEncode(list.start_after, false);
    HttpRequest request = S3Request(resolved, bucket_url + query, "GET", nullptr, 0);
    HttpResponse response = HttpPerformWithRetry(request, shown, options.attempts, list.requests);
    if (response.status != 200) throw ParquetError(RemoteStatusError(response.status, "list " + shown));
    const size_t prefixes_before = list.common_prefixes ? list.common_prefixes->size() : 0;
    try {
      token = ParseListObjectsV2(std::string(response.body.begin(), response.body.end()), within, &objects);
    } catch (const ParquetError& e) {
      throw ParquetError("cannot list " + shown + ": " + e.what());
    }
    if (list.common_prefixes) {
      // Only prefixes below the one asked for, each ending in the delimiter (which may
      // follow the prefix at once: keys with an empty segment).
      std::vector<std::string>& prefixes = *list.common_prefixes;
      prefixes.erase(std::remove_if(prefixes.begin() + static_cast<std::ptrdiff_t>(prefixes_before), prefixes.end(),
                                    [&](const std::string& p) {
                                      return list.delimiter.empty() || p.size() < prefix.size() + list.delimiter.size() ||
                                             p.compare(0, prefix.size(), prefix) != 0 ||
                                             p.compare(p.size() - list.delimiter.size(), std::string::npos,
                                                       list.delimiter) != 0;
                                    }),
                     prefixes.end());
    }
    if (token.empty() || (list.max_keys > 0 && !list.until_first_kept)) break;
    if (list.until_first_kept) {
      if (!objects.empty()) break;
      page_keys = std::min(page_keys * 2, 1000);
    }
    if (!tokens_seen.insert(std::hash<std::string>()(token)).second) {
      throw ParquetError("cannot list " + shown + ": the server sent the same continuation token twice");
    }
    if (page + 1 >= kMaxListingPages) {
      throw ParquetError("cannot list " + shown + ": more than " + std::to_string(kMaxListingPages) + " pages");
    }
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

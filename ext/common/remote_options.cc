// Parsing of the remote-file options (see remote_options.h).
#include "ext/common/remote_options.h"

#include <cctype>

#include "format/io/s3.h"

namespace sqlite_parquet {

void AddRemoteOptions(OptionSet* set) {
  set->AddSecret("http_headers")
      .AddSecret("bearer_token")
      .AddInteger("http_retries", 0, 10)
      .AddInteger("http_read_ahead", 0, static_cast<int64_t>(parquet::kMaxReadAheadBytes))
      .AddString("http_ca_file")
      .AddString("s3_region")
      .AddString("s3_endpoint")
      .AddEnum("s3_url_style", {"path", "vhost"})
      .AddSecret("s3_access_key_id")
      .AddSecret("s3_secret_access_key")
      .AddSecret("s3_session_token");
}

namespace {

// Splits http_headers into "Name: value" lines (LF or CRLF separated, blank lines ignored).
bool ParseHeaders(std::string_view text, std::vector<parquet::SecretString>* out, std::string* error) {
  size_t start = 0;
  int line_number = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    line_number++;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    const size_t colon = line.find(':');
    std::string_view name = colon == std::string_view::npos ? std::string_view() : line.substr(0, colon);
    bool valid = !name.empty();
    for (char c : name) {
      const unsigned char u = static_cast<unsigned char>(c);
      valid = valid && (std::isalnum(u) || std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos);
    }
    if (!valid) {
      *error = "invalid http_headers: line " + std::to_string(line_number) + " is not 'Name: value'";
      return false;
    }
    if (line.find('\r') != std::string_view::npos || line.find('\0') != std::string_view::npos) {
      *error = "invalid http_headers: header " + std::string(name) + " holds a control character";
      return false;
    }
    out->emplace_back(line);
  }
  return true;
}

}  // namespace

bool MakeRemoteOptions(const ParsedOptions& parsed, std::shared_ptr<const parquet::RemoteOptions>* out,
                       std::string* error) {
  auto options = std::make_shared<parquet::RemoteOptions>();
  if (const OptionValue* headers = parsed.Find("http_headers")) {
    if (!ParseHeaders(headers->text, &options->http_headers, error)) return false;
  }
  if (const OptionValue* token = parsed.Find("bearer_token")) {
    *error = parquet::CredentialProblem(token->text, "bearer_token");
    if (!error->empty()) return false;
    options->bearer_token = token->text;
  }
  options->attempts = 1 + static_cast<int>(parsed.GetInteger("http_retries", 3));
  options->read_ahead_bytes = static_cast<uint64_t>(
      parsed.GetInteger("http_read_ahead", static_cast<int64_t>(parquet::kDefaultReadAheadBytes)));
  options->http_ca_file = std::string(parsed.GetString("http_ca_file", ""));
  options->s3_region = std::string(parsed.GetString("s3_region", ""));
  options->s3_endpoint = std::string(parsed.GetString("s3_endpoint", ""));
  if (parsed.Has("s3_url_style")) {
    options->s3_url_style =
        parsed.GetEnumIndex("s3_url_style", 0) == 0 ? parquet::S3UrlStyle::kPath : parquet::S3UrlStyle::kVirtualHost;
  }
  if (std::string problem = options->s3_region.empty() ? "" : parquet::S3RegionProblem(options->s3_region, "s3_region");
      !problem.empty()) {
    *error = problem;
    return false;
  }
  if (std::string problem = options->s3_endpoint.empty() ? "" : parquet::S3EndpointProblem(options->s3_endpoint, "s3_endpoint");
      !problem.empty()) {
    *error = problem;
    return false;
  }
  for (const auto& [name, field] : {std::pair{"s3_access_key_id", &options->s3_access_key_id},
                                    std::pair{"s3_secret_access_key", &options->s3_secret_access_key},
                                    std::pair{"s3_session_token", &options->s3_session_token}}) {
    const OptionValue* value = parsed.Find(name);
    if (value == nullptr) continue;
    *error = parquet::CredentialProblem(value->text, name);
    if (!error->empty()) return false;
    *field = value->text;
  }
  if (options->s3_access_key_id.empty() != options->s3_secret_access_key.empty()) {
    *error = "s3_access_key_id and s3_secret_access_key go together: give both or neither";
    return false;
  }
  // The opens made with these options (a table's, a metadata function call's) check each
  // object once per statement (a table ends its statements, vtab::Close).
  options->statement_checks = std::make_shared<parquet::RemoteStatementChecks>();
  *out = std::move(options);
  return true;
}

}  // namespace sqlite_parquet

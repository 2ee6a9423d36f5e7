// The remote-file options of the parquet table, the metadata functions and parquet_copy:
// http_headers, bearer_token, http_retries and the s3_* options, parsed into
// parquet::RemoteOptions (format/io/remote_file.h). Header values, tokens and keys are secrets:
// no error message quotes them (a bad header is named by its header name only).
#pragma once

#include <memory>
#include <string>

#include "ext/common/options.h"
#include "format/io/remote_file.h"

namespace sqlite_parquet {

// Declares http_headers ('Name: value' lines), bearer_token, http_retries, s3_region,
// s3_endpoint, s3_url_style (path|vhost), s3_access_key_id, s3_secret_access_key,
// s3_session_token.
void AddRemoteOptions(OptionSet* set);

// Reads them. *out is always set (defaults when none was given). Returns false with *error.
bool MakeRemoteOptions(const ParsedOptions& parsed, std::shared_ptr<const parquet::RemoteOptions>* out,
                       std::string* error);

}  // namespace sqlite_parquet

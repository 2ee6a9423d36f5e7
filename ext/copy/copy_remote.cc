// Staging and upload of parquet_copy's output for s3:// targets (see copy_remote.h).
#include "ext/copy/copy_remote.h"

#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "ext/copy/copy_output.h"
#include "format/common/error.h"
#include "format/io/s3.h"

namespace sqlite_parquet {

namespace {

// "s3://b/p" without trailing slashes (the prefix of a partitioned output).
std::string TrimSlashes(std::string url) {
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url;
}

}  // namespace

RemoteCopyTarget::RemoteCopyTarget(const std::string& url, bool directory, bool overwrite,
                                   std::shared_ptr<const parquet::RemoteOptions> options)
    : url_(directory ? TrimSlashes(url) : url), directory_(directory), options_(std::move(options)) {
  if (!parquet::IsS3Url(url)) {
    throw CopyError("cannot write to '" + parquet::UrlForDisplay(url) +
                    "': parquet_copy writes to local paths and s3:// urls, and a web server takes no uploads");
  }
  try {
    const parquet::S3Location location = parquet::ParseS3Url(url_);
    if (location.key.empty()) throw CopyError("cannot write to '" + url + "': it names a bucket, not an object");
    if (directory_) {
      // The objects an overwrite deletes: keys below the prefix (ListS3Objects keeps no
      // other) without a "." or ".." segment, whatever a server lists.
      parquet::S3ListOptions list;
      list.keep = [](const std::string& key) { return !parquet::S3KeyHasDotSegment(key); };
      for (const parquet::S3Object& object : parquet::ListS3Objects(*options_, location.bucket, location.key + "/", list)) {
        existing_.push_back("s3://" + location.bucket + "/" + object.key);
      }
      if (!overwrite && !existing_.empty()) {
        throw CopyError("'" + url_ + "/' already holds objects (overwrite=1 replaces them)");
      }
    } else if (!overwrite && parquet::S3ObjectExists(*options_, url_)) {
      throw CopyError("'" + url_ + "' already exists (overwrite=1 replaces it)");
    }
  } catch (const parquet::ParquetError& e) {
    throw CopyError(e.what());
  }
  const char* tmpdir = std::getenv("TMPDIR");
  std::string pattern = std::string(tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp") + "/parquet_copy-XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) throw CopyError("cannot create a staging directory in " + pattern);
  staging_ = pattern;
  local_target_ = staging_ + "/output";
}

RemoteCopyTarget::~RemoteCopyTarget() {
  std::error_code ignored;
  std::filesystem::remove_all(staging_, ignored);
}

void RemoteCopyTarget::Upload() {
  try {
    if (!directory_) {
      parquet::UploadS3Object(*options_, url_, local_target_);
      return;
    }
    std::vector<std::string> relative;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(local_target_)) {
      if (entry.is_regular_file()) relative.push_back(std::filesystem::relative(entry.path(), local_target_).string());
    }
    std::sort(relative.begin(), relative.end());
    std::vector<std::string> uploaded;
    try {
      for (const std::string& name : relative) {
        const std::string url = url_ + "/" + name;
        parquet::UploadS3Object(*options_, url, local_target_ + "/" + name);
        uploaded.push_back(url);
      }
    } catch (...) {
      for (const std::string& url : uploaded) {
        // An object of the old tree that this copy overwrote is gone either way.
        parquet::DeleteS3Object(*options_, url, /*best_effort=*/true);
      }
      throw;
    }
    for (const std::string& old : existing_) {
      if (std::find(uploaded.begin(), uploaded.end(), old) == uploaded.end()) {
        parquet::DeleteS3Object(*options_, old, /*best_effort=*/false);
      }
    }
  } catch (const parquet::ParquetError& e) {
    throw CopyError(e.what());
  } catch (const std::filesystem::filesystem_error& e) {
    throw CopyError(std::string("cannot read the staged output: ") + e.what());
  }
}

}  // namespace sqlite_parquet

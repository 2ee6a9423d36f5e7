// Staging and upload of parquet_copy's output for s3:// targets (see copy_remote.h).
#include "ext/copy/copy_remote.h"

#include <algorithm>

#include "ext/copy/copy_output.h"
#include "format/common/error.h"
#include "format/io/s3.h"
#include "format/platform/system.h"

namespace sqlite_parquet {

namespace {

namespace platform = parquet::platform;

// Appends the regular files under `root` + "/" + `relative` to *out, as paths relative to
// root joined with '/' (the object names below the target's prefix).
void CollectStagedFiles(const std::string& root, const std::string& relative, std::vector<std::string>* out) {
  const std::string directory = relative.empty() ? root : root + "/" + relative;
  std::vector<std::string> names;
  if (platform::SystemResult listed = platform::ListDirectory(directory, &names); !listed.ok()) {
    throw CopyError("cannot read the staged output '" + directory + "': " + listed.text);
  }
  for (const std::string& name : names) {
    const std::string entry = relative.empty() ? name : relative + "/" + name;
    platform::FileStatus status;
    if (!platform::PathStatus(root + "/" + entry, false, &status).ok()) continue;
    if (status.type == platform::FileType::kDirectory) CollectStagedFiles(root, entry, out);
    if (status.type == platform::FileType::kRegular) out->push_back(entry);
  }
}

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
  if (platform::SystemResult made = platform::MakeTempDirectory("parquet_copy-", &staging_); !made.ok()) {
    throw CopyError("cannot create a staging directory " + made.text);
  }
  local_target_ = staging_ + "/output";
}

RemoteCopyTarget::~RemoteCopyTarget() { platform::RemoveTree(staging_); }

void RemoteCopyTarget::Upload() {
  try {
    if (!directory_) {
      parquet::UploadS3Object(*options_, url_, local_target_);
      return;
    }
    std::vector<std::string> relative;
    CollectStagedFiles(local_target_, "", &relative);
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
  }
}

}  // namespace sqlite_parquet

// parquet_copy to an s3:// URL: the output is written and committed in a private local
// staging directory as for a local target, then uploaded (format/io/s3.h: one PUT, or a
// multipart upload aborted on any error), so the object appears only when complete. With
// partition_by the files go under the URL as a prefix (PREFIX/key=value/part-N.parquet);
// when an upload fails, the objects this copy already uploaded are deleted, and after a
// complete upload the objects that were under the prefix before and were not rewritten are
// deleted (the prefix then holds exactly the new tree, as a replaced local directory does).
// An http(s) URL is an error: a web server takes no uploads. Pure C++ (no sqlite3.h).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "format/io/remote_file.h"

namespace sqlite_parquet {

class RemoteCopyTarget {
 public:
  // Checks the URL (s3 only) and, with overwrite off, that nothing exists there yet;
  // creates the staging directory. Throws CopyError.
  RemoteCopyTarget(const std::string& url, bool directory, bool overwrite,
                   std::shared_ptr<const parquet::RemoteOptions> options);
  // Removes the staging directory.
  ~RemoteCopyTarget();
  RemoteCopyTarget(const RemoteCopyTarget&) = delete;
  RemoteCopyTarget& operator=(const RemoteCopyTarget&) = delete;

  // Where parquet_copy writes the output locally (a file or a directory to create).
  const std::string& local_target() const { return local_target_; }
  // Uploads the committed local output. Throws CopyError naming the URL.
  void Upload();

 private:
  std::string url_;
  bool directory_;
  std::shared_ptr<const parquet::RemoteOptions> options_;
  std::string staging_;
  std::string local_target_;
  std::vector<std::string> existing_;  // directory: the objects under the prefix before the copy
};

}  // namespace sqlite_parquet

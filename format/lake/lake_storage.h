// How a lake-table reader reaches the table's metadata files (Delta's _delta_log, Iceberg's
// metadata/): listing a directory, reading a small file whole, opening a file for
// positional reads (checkpoints, deletion vectors). Local directories, s3:// prefixes and
// http(s):// URLs (no listing) over format/io. Every read is bounded.
#pragma once

#include <cstdint>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "format/io/random_access_file.h"

namespace parquet {
struct RemoteOptions;
}

namespace parquet::lake {

struct LakeEntry {
  std::string name;          // the entry's name within the directory
  int64_t modified_ms = -1;  // modification time, -1 when not known
};

class LakeStorage {
 public:
  virtual ~LakeStorage() = default;
  // The entries of directory `dir` (files only); false when the directory does not exist.
  // Throws ParquetError on other errors, or past `max_entries`.
  virtual bool List(const std::string& dir, size_t max_entries, std::vector<LakeEntry>* out) = 0;
  // The entries of `dir` whose names sort after `start_after` (byte order): on S3 one
  // listing that starts there (ListObjectsV2 start-after); here the whole listing, filtered.
  virtual bool ListAfter(const std::string& dir, const std::string& start_after, size_t max_entries,
                         std::vector<LakeEntry>* out);
  // Whether listing and reading cost requests (S3): readers then list less (Delta reads
  // _last_checkpoint and lists from the checkpoint on).
  virtual bool remote() const { return false; }
  // The whole of file `path`; throws ParquetError naming it when it cannot be read or
  // holds more than max_bytes.
  virtual std::string ReadWhole(const std::string& path, size_t max_bytes) = 0;
  // `path` opened for positional reads.
  virtual std::unique_ptr<RandomAccessFile> Open(const std::string& path) = 0;
  // Whether `path` names an existing directory (or, remotely, a prefix with objects).
  virtual bool IsDirectory(const std::string& path) = 0;
  // Whether List can list a directory at all (false over http(s)://, where files are only
  // read by name).
  virtual bool CanList() const { return true; }
};

// Local files (format/platform).
std::unique_ptr<LakeStorage> MakeLocalStorage();

// s3:// URLs (format/io/s3.h): a listing is one ListObjectsV2 of the directory's prefix
// (with a delimiter: the files directly in it), reads go through OpenFileOrUrl with
// `options` (credentials, endpoint, retries). No modification times are known.
std::unique_ptr<LakeStorage> MakeS3Storage(std::shared_ptr<const RemoteOptions> options);

// http(s):// URLs: reads through OpenFileOrUrl with `options`; nothing can be listed.
std::unique_ptr<LakeStorage> MakeHttpStorage(std::shared_ptr<const RemoteOptions> options);

// The storage of `path`: s3://, http(s):// or local.
std::unique_ptr<LakeStorage> MakeStorageFor(const std::string& path, std::shared_ptr<const RemoteOptions> options);

}  // namespace parquet::lake

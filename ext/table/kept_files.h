// The local files a cursor keeps open, footers parsed, for its statement's later scans: as
// the inner side of a join, xFilter scans the files of a multi-file table again for each
// outer row. Bounded per cursor (64 files, 16 MiB of footers) and across the process: each
// kept file holds a file descriptor, so all cursors together keep at most a quarter of the
// soft RLIMIT_NOFILE (the rest stays for the files being read and for the host).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>

#include "format/read/file_reader.h"

namespace sqlite_parquet {

class KeptFiles {
 public:
  KeptFiles() = default;
  KeptFiles(const KeptFiles&) = delete;
  KeptFiles& operator=(const KeptFiles&) = delete;
  ~KeptFiles() { Clear(); }

  // Keeps `file`, file `index` of the table, or closes it: when it is remote (it holds the
  // bytes it fetched, up to hundreds of MB, and reopens with one request thanks to the
  // footer cache), when one is kept under `index` already, or when a bound is reached.
  void Put(size_t index, std::unique_ptr<parquet::ParquetFileReader> file);
  // File `index` if kept (no longer kept then), else null.
  std::unique_ptr<parquet::ParquetFileReader> Take(size_t index);
  // Closes every kept file.
  void Clear();
  bool empty() const { return files_.empty(); }
  size_t size() const { return files_.size(); }

  // Files kept by every cursor of the process, and the most they may keep now.
  static size_t ProcessCount();
  static size_t ProcessLimit();

 private:
  std::unordered_map<size_t, std::unique_ptr<parquet::ParquetFileReader>> files_;
  uint64_t footer_bytes_ = 0;
};

}  // namespace sqlite_parquet

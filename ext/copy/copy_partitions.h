// The partitions of parquet_copy's output and their files. Without partition_by there is
// one partition, the output file itself. With partition_by, each distinct combination of
// the partition columns' values is one partition, found by its hive directory key
// "col=value/..." (names and values percent-escaped as Hive does; NULL and '' become
// __HIVE_DEFAULT_PARTITION__), and writes part-0.parquet, part-1.parquet, ... in that
// directory of the staged output. Rollover (file_size_bytes, row_groups_per_file) makes
// even an unpartitioned output such a directory (its files at the top); filename_pattern
// renames the files. At most kMaxOpenPartitionFiles files are open at once:
// the least recently used is closed first, and its partition continues in its next part-N
// file. A partition also holds the rows buffered for its open row group (parquet_copy.cc
// fills and empties them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "ext/common/sqlite_api.h"
#include "ext/copy/copy_layout.h"
#include "ext/copy/copy_output.h"
#include "ext/copy/copy_sort_check.h"
#include "ext/copy/copy_values.h"
#include "format/write/file_writer.h"

namespace sqlite_parquet {

constexpr size_t kMaxOpenPartitionFiles = 256;

// How the files of a directory output are named (copy_settings.h).
struct FileNaming {
  bool directory_output = false;  // partition_by or rollover: files part-N.parquet under the target
  std::string pattern = "part-{i}";  // {i}: the file's number in its directory, {uuid}: a random UUIDv4
  std::string existing_root;      // append=1: the target, whose files' names are not used again
};

// A file the copy wrote: where, and (return_stats, verify) a descriptor to read it back,
// taken when the file is closed: the file is never reopened by name, and a descriptor is
// held only for the files open for writing (at most kMaxOpenPartitionFiles) and the one
// being read back.
struct WrittenFile {
  std::string relative;  // under the output root ("" for a single-file output)
  parquet::platform::File read_file;  // a second handle of the closed file, given to the read-back
  std::string report;                 // return_stats: the file's JSON object, once read back
};

struct CopyPartition {
  std::string directory;            // relative to the output root ("" unpartitioned)
  std::vector<ValueColumn> values;  // one per data column: rows not given to the writer yet
  // Once the types are fixed, flat columns skip `values`: each cell is converted as it is
  // read, into its column's leaf (one per data column; unused for nested ones).
  std::vector<LeafData> leaves;
  std::vector<int64_t> row_numbers;  // partitioned only: query row of each buffered row
  int64_t first_row_number = 0;      // unpartitioned: query row of the first buffered row
  size_t buffered = 0;               // rows in `values`
  size_t rows = 0;                   // rows of the open row group (given to the writer or buffered)
  size_t bytes = 0;                  // their approximate size as SQLite gave them
  bool group_open = false;           // the writer has an open row group
  std::unique_ptr<parquet::ParquetFileWriter> writer;
  int next_file = 0;
  size_t file_index = 0;  // the open file's entry in CopyPartitions::files()
  uint64_t last_used = 0;
  SortedRowsCheck sorted;  // the rows of the open row group follow sorting_columns
};

class CopyPartitions {
 public:
  // The partitions of `layout`'s partition columns (none: a single partition).
  CopyPartitions(const CopyLayout& layout, FileNaming naming);
  CopyPartitions(const CopyPartitions&) = delete;
  CopyPartitions& operator=(const CopyPartitions&) = delete;

  // append=1: the existing target whose file names new files avoid.
  void SetExistingRoot(std::string root) { naming_.existing_root = std::move(root); }
  // The files created so far, in creation order.
  std::vector<WrittenFile>& files() { return files_; }
  // return_stats, verify: read_back(file) is called with each file just closed, its
  // read_file a duplicate of the written descriptor (closed when read_back returns).
  void ReadBackWhenClosed(std::function<void(WrittenFile&)> read_back) { read_back_ = std::move(read_back); }

  bool partitioned() const { return partitioned_; }

  // The partition of a result row (its cells in result column order), made on first use.
  CopyPartition& OfRow(sqlite3_value* const* cells) { return partitioned_ ? FindByKey(cells) : *single_; }
  // Unpartitioned: the one partition.
  CopyPartition& single() { return *single_; }

  // Calls f(CopyPartition&) for each partition.
  template <class F>
  void ForEach(F&& f) {
    if (single_) f(*single_);
    for (auto& [key, partition] : by_key_) f(*partition);
  }

  // The partitions with rows in an open row group, the most bytes first.
  std::vector<CopyPartition*> LargestFirst();

  // The partition's file is being used now (the open-file limit closes the least recently used).
  void Touch(CopyPartition& partition) { partition.last_used = ++use_clock_; }
  // When opening one more file would pass the limit: the partition whose open file was
  // used least recently, which the caller must flush and then close (CloseWriter); else null.
  CopyPartition* FileToClose();
  // Creates the partition's next file in `output` and a writer for it with `layout`'s
  // schema and writer options. Files are created exclusively and written through that
  // descriptor, never reopened by name (copy_output.h).
  parquet::ParquetFileWriter& OpenWriter(CopyPartition& partition, const StagedOutput& output, const CopyLayout& layout);
  // Finishes the partition's file (its writer must have nothing left to do), then reads it
  // back (ReadBackWhenClosed).
  void CloseWriter(CopyPartition& partition);

 private:
  CopyPartition& FindByKey(sqlite3_value* const* cells);
  // The partition's next file name under the output root ("dir/part-3.parquet").
  std::string NextFileName(CopyPartition& partition);
  std::unique_ptr<CopyPartition> NewPartition(std::string directory) const;

  struct KeyColumn {
    int result_index = 0;
    std::string prefix;  // "name=", the name escaped
  };
  bool partitioned_ = false;
  std::vector<KeyColumn> key_columns_;  // in partition_by order
  size_t num_data_columns_ = 0;
  std::unique_ptr<CopyPartition> single_;                                    // unpartitioned
  std::unordered_map<std::string, std::unique_ptr<CopyPartition>> by_key_;  // partitioned
  std::string key_;                                                          // scratch of FindByKey
  FileNaming naming_;
  std::vector<WrittenFile> files_;
  std::function<void(WrittenFile&)> read_back_;
  size_t open_writers_ = 0;
  uint64_t use_clock_ = 0;
};

}  // namespace sqlite_parquet

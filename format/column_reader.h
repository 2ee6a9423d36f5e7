// Reading one column chunk as batches of definition levels, repetition levels and typed
// values.
//
// A column chunk is a sequence of pages: at most one dictionary page first, then data pages
// (v1 or v2). A data page holds `num_values` level entries ("slots"); a slot whose
// definition level equals the column's maximum holds a value, the others are nulls (or, in
// nested data, empty/absent ancestors). Batches never cross a page boundary, so the values
// of a batch (ByteArray views in particular) stay valid until the next ReadBatch or Skip.
//
// Pages are decompressed only when something is read from them: skipping over a whole page
// costs one page-header parse.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "format/file_reader.h"
#include "format/physical_values.h"

namespace parquet {

struct ColumnReaderOptions {
  bool verify_crc = true;  // check page CRCs when the writer stored them
};

// One batch of decoded slots. def_levels/rep_levels are filled only when the column's
// maximum definition/repetition level is above zero.
struct ColumnBatch {
  size_t num_levels = 0;  // slots in this batch
  size_t num_values = 0;  // non-null values (values() holds exactly these, in order)
  std::vector<int16_t> def_levels;
  std::vector<int16_t> rep_levels;

  template <typename T>
  const T* values() const { return reinterpret_cast<const T*>(storage_.data()); }
  template <typename T>
  T* mutable_values(size_t capacity) {
    size_t words = (capacity * sizeof(T) + sizeof(uint64_t) - 1) / sizeof(uint64_t);
    if (storage_.size() < words) storage_.resize(words);
    return reinterpret_cast<T*>(storage_.data());
  }

 private:
  std::vector<uint64_t> storage_;  // 8-byte aligned storage for any physical value type
};

// Statistics of what a reader did, for observability (parquet_scan_stats) and tests.
struct ColumnReadCounters {
  uint64_t pages_read = 0;      // data pages decompressed and decoded
  uint64_t pages_skipped = 0;   // data pages skipped without decompression
  uint64_t bytes_read = 0;      // bytes read from the file
};

class ColumnChunkReader {
 public:
  virtual ~ColumnChunkReader() = default;

  // Creates a reader for `column` of `row_group`; reads the chunk's bytes from the file.
  static std::unique_ptr<ColumnChunkReader> Make(const ParquetFileReader& file, int row_group,
                                                 int column, const ColumnReaderOptions& options = {});

  // Moves to another row group of the same column, reusing buffers.
  virtual void Reset(int row_group) = 0;

  // Reads up to max_levels slots (stopping at the end of the current page) into *batch.
  // Returns the number of slots read; 0 means the chunk is exhausted.
  virtual size_t ReadBatch(size_t max_levels, ColumnBatch* batch) = 0;

  // Skips up to num_levels slots; returns how many were skipped (fewer only at the end).
  virtual size_t Skip(size_t num_levels) = 0;

  // Row-aware skipping. A row starts at a slot whose repetition level is 0 (in a column
  // without repetition every slot is a row).
  //
  // SkipToRowStart consumes slots up to, not including, the n-th row start ahead (the next
  // slot counts when it starts a row) and returns how many row starts it found: n, or fewer
  // when the chunk ends first, in which case every slot is consumed. SkipToRowStart(1) thus
  // finishes a row the reader stands inside of. Data page v2 pages not yet begun whose
  // num_rows row starts all lie before the n-th are skipped without decompression; v1 pages
  // are decompressed to read their repetition levels (their values are skipped undecoded
  // where the encoding allows).
  virtual size_t SkipToRowStart(size_t n) = 0;

  // Skips n whole rows from a row start (after Make, Reset or a previous SkipRows), stopping
  // before the first slot of the following row; returns how many rows it skipped (fewer
  // than n only at the end of the chunk).
  size_t SkipRows(size_t n) {
    size_t found = SkipToRowStart(n + 1);
    return found > n ? n : found;
  }

  const ColumnDescriptor& descriptor() const { return *descriptor_; }
  const ColumnReadCounters& counters() const { return counters_; }

 protected:
  const ColumnDescriptor* descriptor_ = nullptr;
  ColumnReadCounters counters_;
};

}  // namespace parquet

// Decoded batches of the columns a join-index scan reads (join_index.h), kept for the
// statement: the rows a join index names lie far apart and each lookup names a few, so
// fetching them one by one would decode most of a page per row (the reader skips from the
// start of the page to the row), lookup after lookup. Instead the batch of kSlots rows
// around a row is decoded once (up to its page's end), kept, and later lookups of rows in it
// copy their slots.
// Only columns whose values live in the batch itself (INT32, INT64, FLOAT, DOUBLE; not
// text, whose values point into page buffers) are kept. The cache reads with readers of
// its own; when the kept batches exceed the budget, all are dropped.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <tuple>

#include "format/column_reader.h"
#include "format/file_reader.h"

namespace sqlite_parquet {

class LookupBatchCache {
 public:
  static constexpr int64_t kSlots = 4096;

  explicit LookupBatchCache(uint64_t budget_bytes) : budget_(budget_bytes) {}

  // Whether values of this physical type can be kept (see above).
  static bool Cacheable(parquet::Type type);

  // Copies into *out the slots of leaf column `leaf` from row `row` of row group `rg` of
  // `file` (the table's file `file_index`), at most `max_slots` and not past the kept batch
  // holding the row, which is read when missing. Returns the slots copied.
  size_t Copy(const parquet::ParquetFileReader& file, size_t file_index, int rg, int leaf, int64_t row,
              size_t max_slots, const parquet::ColumnReaderOptions& options, parquet::ColumnBatch* out);

  // Forgets the readers (before the current file is closed); kept batches stay.
  void ForgetReaders();

  // What the cache's readers did since the last call.
  parquet::ColumnReadCounters TakeCounters();

 private:
  struct Reader {
    std::unique_ptr<parquet::ColumnChunkReader> reader;
    int row_group = -1;
    int64_t next_row = 0;  // the row the reader stands at
    parquet::ColumnReadCounters counted;
  };
  // The kept batch holding `row` (read, with the batches before it from the block of kSlots
  // rows it is in, when missing); *first_row: the row of its first slot.
  const parquet::ColumnBatch& Find(const parquet::ParquetFileReader& file, size_t file_index, int rg, int leaf,
                                   int64_t row, const parquet::ColumnReaderOptions& options, int64_t* first_row);

  uint64_t budget_;
  uint64_t bytes_ = 0;
  std::map<std::tuple<size_t, int, int, int64_t>, parquet::ColumnBatch> batches_;  // file, rg, leaf, first row
  std::map<int, Reader> readers_;                                                   // by leaf
  parquet::ColumnReadCounters taken_;  // of readers forgotten since the last TakeCounters
};

}  // namespace sqlite_parquet

// Which bytes of a row group a scan will read, for RandomAccessFile::Prefetch: the chunks of
// the leaf columns it reads and, when the chunk has an offset index, only the pages that hold
// rows the page index keeps (plus the dictionary page). Only for remote files: for a local
// file nothing is computed (reading offset indexes would cost local reads for nothing).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "format/read/file_reader.h"
#include "format/read/row_ranges.h"

namespace sqlite_parquet {

// The byte ranges of leaf `leaf` of row group `row_group` that hold `rows`.
std::vector<parquet::ByteRange> ChunkRangesForRows(const parquet::ParquetFileReader& file, int row_group, int leaf,
                                                   const parquet::RowRanges& rows);

// Entering row group `row_group` of a remote file (no-op for a local one): drops what was
// prefetched for the previous one and fetches, in one parallel round, the page indexes the
// scan is about to read: column and offset index of `filter_leaves` (the pruner's), and
// with them (only when there are such filters: a scan of all rows needs no offset index)
// the offset indexes of `read_leaves`. They lie side by side before the footer, so this is
// a request or two instead of one per index.
void PrefetchPageIndexes(const parquet::ParquetFileReader& file, int row_group, const std::vector<int>& filter_leaves,
                         const std::vector<int>& read_leaves);

// Prefetches the ranges of ChunkRangesForRows for every leaf of `leaves` (no-op for a
// local file), in one parallel round.
void PrefetchRowGroup(const parquet::ParquetFileReader& file, int row_group, const std::vector<int>& leaves,
                      const parquet::RowRanges& rows);

// Read-ahead of a remote scan (no-op for a local file): starts fetching, in the background,
// the chunks of `leaves` of the row groups after `row_group` up to `row_group + depth` (those
// not queued yet: after *queued_through, which it advances), while the scan decodes
// `row_group`; stops where the file's read-ahead window is full or, with rows_wanted >= 0
// (a LIMIT), once the queued row groups hold that many rows.
void ReadAheadRowGroups(const parquet::ParquetFileReader& file, int row_group, int depth, const std::vector<int>& leaves,
                        int64_t rows_wanted, int* queued_through);

// The columns a query reads (sqlite3_index_info.colUsed) pass from xBestIndex to xFilter
// as idxNum, so that a scan of a remote file prefetches every projected column of a row
// group at once. idxNum is what SQLite hands xFilter by value (nothing is read past
// idxStr's NUL), and EXPLAIN QUERY PLAN prints it (`INDEX <idxNum>:<plan>`), so every table,
// local or remote, sets it the same way and a remote table's plan reads like a local one's.
// A colUsed of columns 0-30 only is the idxNum itself, whatever the table's history; a wider
// one is a negative handle into the table's bounded list of distinct wide colUsed values.
class ColumnsUsedHandles {
 public:
  // Distinct wide colUsed values remembered per table; past them a plan gets
  // kAllColumnsHandle (the scan prefetches every column: correct, only more bytes).
  static constexpr size_t kMaxWideMasks = 1024;
  static constexpr int kAllColumnsHandle = INT32_MIN;

  // The idxNum for `col_used`.
  int HandleOf(uint64_t col_used);
  // The colUsed of idxNum `handle` (every column for kAllColumnsHandle or an unknown one).
  uint64_t ColumnsUsedOf(int handle) const;
  size_t wide_masks() const { return wide_masks_.size(); }

 private:
  std::vector<uint64_t> wide_masks_;
};

// Whether colUsed `col_used` has column `column` (bit 63 stands for every column from 63 on).
bool UsesColumn(uint64_t col_used, size_t column);

}  // namespace sqlite_parquet

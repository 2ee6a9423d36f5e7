// Which bytes of a row group a scan will read, for RandomAccessFile::Prefetch: the chunks of
// the leaf columns it reads and, when the chunk has an offset index, only the pages that hold
// rows the page index keeps (plus the dictionary page). Only for remote files: for a local
// file nothing is computed (reading offset indexes would cost local reads for nothing).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "format/file_reader.h"
#include "format/row_ranges.h"

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

// The columns a query reads (sqlite3_index_info.colUsed) pass from xBestIndex to xFilter,
// for tables of remote files, so a scan prefetches every projected column of a row group
// at once. They ride in idxStr after its terminating NUL ("plan\0C<hex>"): SQLite hands
// idxStr to xFilter as the pointer xBestIndex allocated, while EXPLAIN QUERY PLAN prints it
// only up to the NUL, so a remote table's plan reads like a local one's (`INDEX 0:plan`).
// The bytes of such an idxStr (with both NULs), for sqlite3_malloc and memcpy.
std::string PlanWithColumnsUsed(const std::string& plan, uint64_t col_used);
// The columns hidden by PlanWithColumnsUsed in `idx_str` (0 for null). Call only for a
// remote table, whose idxStr always comes from PlanWithColumnsUsed: a local table's ends
// at its NUL.
uint64_t ColumnsUsedOfPlan(const char* idx_str);
// Whether colUsed `col_used` has column `column` (bit 63 stands for every column from 63 on).
bool UsesColumn(uint64_t col_used, size_t column);

}  // namespace sqlite_parquet

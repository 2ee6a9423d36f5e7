// The page index of a column chunk (parquet.thrift ColumnIndex and OffsetIndex): reading it
// from the file, validating it, and turning a selection of pages into the rows they hold.
//
// ColumnChunk.column_index_offset/length locate the ColumnIndex (per-page min/max, null
// pages, null counts); offset_index_offset/length locate the OffsetIndex (per data page:
// file offset, compressed size including the page header, first_row_index). Both lists have
// one entry per data page of the chunk, in order; dictionary and index pages are not listed.
//
// Validation (any failure throws ParquetError naming file, column and row group):
//  * the index's own offset and length lie inside the file, before the footer;
//  * OffsetIndex: at least one page when the chunk has rows; offsets increasing, each page
//    [offset, offset + compressed_page_size) inside the column chunk (or, for PARQUET-816
//    writers, before the footer) and not overlapping the next; first_row_index starts at 0,
//    strictly increases and stays below the row group's num_rows;
//  * ColumnIndex: null_pages, min_values and max_values of equal length; null_counts and
//    nan_counts, when present, of that length too;
//  * ReadPageIndex: ColumnIndex and OffsetIndex have the same number of pages.
//
// Rows of a page: page i holds rows [first_row_index[i], first_row_index[i + 1]) (the last
// page up to the row group's num_rows). This is what the spec guarantees for every column
// (pages begin at row boundaries when an offset index is written), repeated columns
// included; ColumnChunkReader checks it on every page it jumps to (see column_reader.h).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "format/read/file_reader.h"
#include "format/metadata/metadata.h"
#include "format/read/row_ranges.h"

namespace parquet {

// The ColumnIndex of a chunk, nullopt when the chunk has none (no column_index_offset).
std::optional<ColumnIndex> ReadColumnIndex(const ParquetFileReader& file, int row_group, int column);

// The OffsetIndex of a chunk, nullopt when the chunk has none (no offset_index_offset).
std::optional<OffsetIndex> ReadOffsetIndex(const ParquetFileReader& file, int row_group, int column);

// Both, checked against each other; `available` is false when either is missing.
struct PageIndex {
  bool available = false;
  ColumnIndex column_index;
  OffsetIndex offset_index;
};
PageIndex ReadPageIndex(const ParquetFileReader& file, int row_group, int column);

// Validation of an index already parsed (what the Read functions use).
void ValidateOffsetIndex(const OffsetIndex& index, const ParquetFileReader& file, int row_group, int column);
void ValidateColumnIndex(const ColumnIndex& index, const ParquetFileReader& file, int row_group, int column);

// Rows [begin, end) of page `page` of a row group of `row_group_rows` rows.
RowRange PageRowRange(const OffsetIndex& index, size_t page, int64_t row_group_rows);

// The rows of the pages whose page_selected entry is true (page_selected has one entry
// per page; ParquetError otherwise).
RowRanges RowRangesOfPages(const OffsetIndex& index, int64_t row_group_rows, const std::vector<bool>& page_selected);

// Indexes of the pages that hold at least one row of `rows` (what a reader of this column
// has to read for that selection), in order.
std::vector<size_t> PagesOverlapping(const OffsetIndex& index, int64_t row_group_rows, const RowRanges& rows);

}  // namespace parquet

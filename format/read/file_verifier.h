// Reading a Parquet file back in full to check that it says what it holds: parquet_copy's
// verify=1 runs it on every file before publishing it.
//
// Checked, per row group and leaf column: every page decodes and its CRC (when stored)
// matches; the column holds the row group's row count; the chunk statistics
// (null_count, nan_count, min_value/max_value: bounds that hold every value, equal to the
// actual extreme when marked exact) and the page index (per page: null_pages, null_counts,
// nan_counts, min/max bounds; OffsetIndex first rows) agree with the decoded values; the
// bloom filter, if any, contains every value. Also: the row groups' row counts add up to
// the footer's num_rows.
#pragma once

#include "format/read/file_reader.h"

namespace parquet {

// Throws ParquetError "verify: <file>, column <path>, row group <n>: <what>" at the first
// disagreement found (or the reader's own error for a page that does not decode).
void VerifyFile(const ParquetFileReader& file);

}  // namespace parquet

// Which bytes of a row group a scan will read, for RandomAccessFile::Prefetch: the chunks of
// the leaf columns it reads and, when the chunk has an offset index, only the pages that hold
// rows the page index keeps (plus the dictionary page). Only for remote files: for a local
// file nothing is computed (reading offset indexes would cost local reads for nothing).
#pragma once

#include <vector>

#include "format/file_reader.h"
#include "format/row_ranges.h"

namespace sqlite_parquet {

// The byte ranges of leaf `leaf` of row group `row_group` that hold `rows`.
std::vector<parquet::ByteRange> ChunkRangesForRows(const parquet::ParquetFileReader& file, int row_group, int leaf,
                                                   const parquet::RowRanges& rows);

// Prefetches those ranges for every leaf of `leaves` (no-op for a local file); `replace`
// drops what earlier calls fetched first (a new row group).
void PrefetchRowGroup(const parquet::ParquetFileReader& file, int row_group, const std::vector<int>& leaves,
                      const parquet::RowRanges& rows, bool replace);

}  // namespace sqlite_parquet

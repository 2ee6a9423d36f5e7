// parquet_copy's return_stats=1 report: one JSON object per file written, made from the
// file's footer as read back before it is published (what was written, not what the
// writer meant to write).
#pragma once

#include <string>

#include "format/read/file_reader.h"

namespace sqlite_parquet {

// Appends to *out the JSON object of one written file: filename (`filename`, its final
// name), rows, file_size_bytes, footer_size_bytes, row_groups, partition_keys (the
// key=value directories of `relative`, decoded; null values as JSON null) and columns, an
// object keyed by dotted column path: min, max (the file's bounds over its row groups, as
// the parquet table maps the values; BLOBs as hex text), null_count, distinct_count (when
// every row group has it), codec, encodings, compressed_bytes, uncompressed_bytes,
// bloom_filter_bytes, page_index_bytes.
void AppendFileReport(const parquet::ParquetFileReader& file, const std::string& filename, const std::string& relative,
                      std::string* out);

}  // namespace sqlite_parquet

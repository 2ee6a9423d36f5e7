// The typed part of writing a column chunk, on top of ColumnChunkWriter: value checks, the
// page value encoders, the dictionary and its fallback, the automatic encoding choice,
// min/max statistics and the bloom filter. The file writer makes one per column chunk and
// hands it batches of one value type.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "format/write/column_chunk_writer.h"
#include "format/write/file_writer.h"
#include "format/common/physical_values.h"
#include "format/metadata/schema.h"

namespace parquet {

// The writer of a chunk of leaf `column` (index `column_index`, schema node `node`) whose
// data pages start in `encoding` (RLE_DICTIONARY: dictionary-encoded). `automatic`: the
// encoding is chosen per WriterOptions::automatic_encoding (the column has no explicit
// one). `bloom_filter`: the chunk gets a bloom filter. `options` must outlive the writer.
std::unique_ptr<ColumnChunkWriter> MakeTypedColumnWriter(const ColumnDescriptor& column, int column_index,
                                                         const SchemaNode& node, const WriterOptions& options,
                                                         Encoding encoding, bool automatic, bool bloom_filter);

// A batch for a writer made by MakeTypedColumnWriter for a column whose values are T (see
// ParquetFileWriter::WriteBatch). CheckTypedBatch changes nothing and throws ParquetError
// naming what is wrong; AppendTypedBatch appends a batch it accepted, cutting pages at row
// boundaries.
template <typename T>
void CheckTypedBatch(const ColumnChunkWriter& writer, size_t num_levels, const int16_t* def_levels,
                     const int16_t* rep_levels, const T* values, size_t num_values);
template <typename T>
void AppendTypedBatch(ColumnChunkWriter& writer, size_t num_levels, const int16_t* def_levels,
                      const int16_t* rep_levels, const T* values, size_t num_values);

extern template void CheckTypedBatch<bool>(const ColumnChunkWriter&, size_t, const int16_t*, const int16_t*,
                                             const bool*, size_t);
extern template void AppendTypedBatch<bool>(ColumnChunkWriter&, size_t, const int16_t*, const int16_t*,
                                              const bool*, size_t);
extern template void CheckTypedBatch<int32_t>(const ColumnChunkWriter&, size_t, const int16_t*, const int16_t*,
                                             const int32_t*, size_t);
extern template void AppendTypedBatch<int32_t>(ColumnChunkWriter&, size_t, const int16_t*, const int16_t*,
                                              const int32_t*, size_t);
extern template void CheckTypedBatch<int64_t>(const ColumnChunkWriter&, size_t, const int16_t*, const int16_t*,
                                             const int64_t*, size_t);
extern template void AppendTypedBatch<int64_t>(ColumnChunkWriter&, size_t, const int16_t*, const int16_t*,
                                              const int64_t*, size_t);
extern template void CheckTypedBatch<Int96>(const ColumnChunkWriter&, size_t, const int16_t*, const int16_t*,
                                             const Int96*, size_t);
extern template void AppendTypedBatch<Int96>(ColumnChunkWriter&, size_t, const int16_t*, const int16_t*,
                                              const Int96*, size_t);
extern template void CheckTypedBatch<float>(const ColumnChunkWriter&, size_t, const int16_t*, const int16_t*,
                                             const float*, size_t);
extern template void AppendTypedBatch<float>(ColumnChunkWriter&, size_t, const int16_t*, const int16_t*,
                                              const float*, size_t);
extern template void CheckTypedBatch<double>(const ColumnChunkWriter&, size_t, const int16_t*, const int16_t*,
                                             const double*, size_t);
extern template void AppendTypedBatch<double>(ColumnChunkWriter&, size_t, const int16_t*, const int16_t*,
                                              const double*, size_t);
extern template void CheckTypedBatch<ByteArray>(const ColumnChunkWriter&, size_t, const int16_t*, const int16_t*,
                                             const ByteArray*, size_t);
extern template void AppendTypedBatch<ByteArray>(ColumnChunkWriter&, size_t, const int16_t*, const int16_t*,
                                              const ByteArray*, size_t);

}  // namespace parquet

// Writing Parquet files: ParquetFileWriter lays out row groups of column chunks in a local
// file and finishes it with the footer (FileMetaData).
//
// File layout:  "PAR1" <column chunks...> <FileMetaData, thrift compact> <4-byte LE length> "PAR1"
// A column chunk is an optional dictionary page (PLAIN entries) followed by data pages
// (v1 or v2). Each page is a thrift PageHeader followed by its body.
//
// Usage: for each row group, StartRowGroup(); then every leaf column in schema order, each in
// one or more WriteBatch calls; then EndRowGroup(rows). Finally Close(). Only the column chunk
// being written is held in memory: it goes to the file when the next column starts or the
// row group ends. The file is complete only after Close(); a writer destroyed earlier leaves
// a truncated file behind (the caller writes to a temporary name and renames it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "format/enums.h"
#include "format/metadata.h"
#include "format/physical_values.h"
#include "format/schema.h"

namespace parquet {

struct WriterOptions {
  CompressionCodec codec = CompressionCodec::SNAPPY;
  std::optional<int> compression_level;  // codec-specific, see compression.h; nullopt = default
  int data_page_version = 1;             // 1: DATA_PAGE, 2: DATA_PAGE_V2
  // A data page is cut (at the next row boundary) once its encoded size passes this.
  size_t page_size = 1 << 20;
  // Dictionary-encode every column but BOOLEAN; a column chunk falls back to PLAIN for the
  // pages after the one during which its dictionary passed dictionary_page_size_limit bytes.
  bool dictionary = true;
  size_t dictionary_page_size_limit = 1 << 20;
  bool write_crc = true;         // PageHeader.crc on every page
  bool write_statistics = true;  // column chunk min/max and null_count
  std::string created_by = "sqlite-parquet version 0.1.0";
  std::vector<KeyValue> key_value_metadata;
  // Per leaf column (by index): the value encoding of its data pages, instead of the
  // dictionary / PLAIN default. RLE_DICTIONARY (or PLAIN_DICTIONARY, written as
  // RLE_DICTIONARY) turns the dictionary on for that column even when `dictionary` is false.
  // Accepted per type: PLAIN (all), RLE (BOOLEAN), DELTA_BINARY_PACKED (INT32, INT64),
  // DELTA_LENGTH_BYTE_ARRAY (BYTE_ARRAY), DELTA_BYTE_ARRAY (BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY),
  // BYTE_STREAM_SPLIT (INT32, INT64, FLOAT, DOUBLE, FIXED_LEN_BYTE_ARRAY).
  std::map<int, Encoding> column_encoding;

  // Page index (ColumnIndex + OffsetIndex per column chunk), written after the last row
  // group, before the footer.
  bool write_page_index = true;
  // Leaf column indices that get a split-block bloom filter per column chunk, sized from the
  // chunk's distinct count for the false-positive probability bloom_filter_fpp.
  std::vector<int> bloom_filter_columns;
  double bloom_filter_fpp = 0.01;
  // Recorded in every RowGroup.sorting_columns (not checked against the data).
  std::vector<SortingColumn> sorting_columns;
  // BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY min/max longer than this are truncated (0: never).
  size_t statistics_truncate_length = 64;
  // Pick a better fallback encoding per column when dictionary encoding gives up (see
  // ColumnChunkWriter in file_writer.cc; column_encoding entries always win).
  bool automatic_encoding = true;
};

class ColumnChunkWriter;  // one column chunk being buffered (file_writer.cc)

class ParquetFileWriter {
 public:
  // Creates (or truncates) the file at `path` and writes the leading magic. `schema` is the
  // flat depth-first SchemaElement list of the footer, root first. Throws ParquetError for
  // a malformed schema, invalid options or a file that cannot be created.
  ParquetFileWriter(const std::string& path, std::vector<SchemaElement> schema,
                    WriterOptions options = {});
  ~ParquetFileWriter();
  ParquetFileWriter(const ParquetFileWriter&) = delete;
  ParquetFileWriter& operator=(const ParquetFileWriter&) = delete;

  void StartRowGroup();

  // Appends slots to leaf column `column` of the open row group: num_levels level entries,
  // and the non-null values (num_values == count of def_levels[i] == max_definition_level).
  // def_levels / rep_levels may be null when the column's max level is 0 (they are then
  // ignored). T = bool, int32_t, int64_t, Int96, float, double, ByteArray (BYTE_ARRAY and
  // FIXED_LEN_BYTE_ARRAY, whose values must be type_length bytes long). Values are copied.
  // Columns are written in schema order; a column may take several calls, and columns
  // skipped over get no rows. The batch is checked before anything is written: a
  // ParquetError for a bad batch leaves the writer as it was.
  template <typename T>
  void WriteBatch(int column, size_t num_levels, const int16_t* def_levels,
                  const int16_t* rep_levels, const T* values, size_t num_values);

  // Every column must hold exactly num_rows rows (entries with repetition level 0).
  void EndRowGroup(int64_t num_rows);

  // Writes the footer and closes the file. The file is complete only after Close. Closing
  // again does nothing.
  void Close();

  const Schema& schema() const { return schema_; }
  const WriterOptions& options() const { return options_; }
  // The footer: row groups so far, complete after Close.
  const FileMetaData& metadata() const { return metadata_; }
  uint64_t bytes_written() const { return offset_; }

 private:
  void RequireWritable() const;
  ColumnChunkWriter& WriterForColumn(int column);
  std::unique_ptr<ColumnChunkWriter> MakeColumnWriter(int column) const;
  // Writes the open column chunk to the file and records its metadata.
  void FinishColumn();
  void WriteBytes(const void* data, size_t size);
  void CloseFile();

  std::string path_;
  int fd_ = -1;
  uint64_t offset_ = 0;
  Schema schema_;
  WriterOptions options_;
  FileMetaData metadata_;
  bool closed_ = false;
  bool failed_ = false;  // an I/O error or an inconsistent row group: no more writing

  bool row_group_open_ = false;
  RowGroup row_group_;
  std::vector<int64_t> column_rows_;  // rows written per column in the open row group
  int current_column_ = -1;           // column whose chunk is being buffered, or -1
  int next_column_ = 0;               // first column not started in the open row group
  std::unique_ptr<ColumnChunkWriter> column_writer_;
};

extern template void ParquetFileWriter::WriteBatch<bool>(int, size_t, const int16_t*, const int16_t*,
                                                         const bool*, size_t);
extern template void ParquetFileWriter::WriteBatch<int32_t>(int, size_t, const int16_t*,
                                                            const int16_t*, const int32_t*, size_t);
extern template void ParquetFileWriter::WriteBatch<int64_t>(int, size_t, const int16_t*,
                                                            const int16_t*, const int64_t*, size_t);
extern template void ParquetFileWriter::WriteBatch<Int96>(int, size_t, const int16_t*, const int16_t*,
                                                          const Int96*, size_t);
extern template void ParquetFileWriter::WriteBatch<float>(int, size_t, const int16_t*, const int16_t*,
                                                          const float*, size_t);
extern template void ParquetFileWriter::WriteBatch<double>(int, size_t, const int16_t*, const int16_t*,
                                                           const double*, size_t);
extern template void ParquetFileWriter::WriteBatch<ByteArray>(int, size_t, const int16_t*,
                                                              const int16_t*, const ByteArray*, size_t);

}  // namespace parquet

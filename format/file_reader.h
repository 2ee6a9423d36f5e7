// Opening a Parquet file: validates the magic bytes, reads and parses the footer
// (FileMetaData), rebuilds the schema and checks the row groups against it. Column data is
// read through ColumnChunkReader (column_reader.h).
//
// File layout:  "PAR1" <column chunks...> <FileMetaData, thrift compact> <4-byte LE footer length> "PAR1"
// An encrypted footer ends in "PARE" instead (modular encryption; not handled yet).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "format/metadata.h"
#include "format/random_access_file.h"
#include "format/schema.h"

namespace parquet {

// Byte range of one column chunk inside the file.
struct ColumnChunkRange {
  uint64_t offset = 0;
  uint64_t length = 0;
};

class ParquetFileReader {
 public:
  // Reads the footer; throws ParquetError naming the file when it is not a valid Parquet file.
  static std::unique_ptr<ParquetFileReader> Open(std::unique_ptr<RandomAccessFile> file);
  static std::unique_ptr<ParquetFileReader> Open(const std::string& path);

  const FileMetaData& metadata() const { return metadata_; }
  const Schema& schema() const { return schema_; }
  RandomAccessFile& file() const { return *file_; }
  const std::string& name() const { return file_->Name(); }
  uint32_t footer_length() const { return footer_length_; }

  int num_row_groups() const { return static_cast<int>(metadata_.row_groups.size()); }
  const RowGroup& row_group(int index) const { return metadata_.row_groups[static_cast<size_t>(index)]; }
  int64_t row_group_num_rows(int index) const { return row_group(index).num_rows; }
  // Rows of all row groups (the footer's num_rows is not trusted: some writers leave it 0).
  int64_t num_rows() const { return total_rows_; }
  // Position of the first row of a row group among all rows of the file.
  int64_t row_group_first_row(int index) const { return first_rows_[static_cast<size_t>(index)]; }

  const ColumnMetaData& column_metadata(int row_group, int column) const;
  // Where the chunk's pages are (the dictionary page if any, else the first data page),
  // checked against the file size.
  ColumnChunkRange column_chunk_range(int row_group, int column) const;

  // "file 'x.parquet', column 'a.b', row group 2" for error messages.
  std::string Describe(int row_group, int column) const;

 private:
  ParquetFileReader() = default;

  std::unique_ptr<RandomAccessFile> file_;
  FileMetaData metadata_;
  Schema schema_;
  uint32_t footer_length_ = 0;
  int64_t total_rows_ = 0;
  std::vector<int64_t> first_rows_;
};

}  // namespace parquet

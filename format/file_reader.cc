// Footer reading and validation for ParquetFileReader (see file_reader.h).
#include "format/file_reader.h"

#include <cstring>

#include "format/error.h"

namespace parquet {

namespace {
constexpr size_t kMagicLength = 4;
constexpr size_t kFooterTrailerLength = 8;  // 4-byte footer length + magic
}  // namespace

std::unique_ptr<ParquetFileReader> ParquetFileReader::Open(const std::string& path) {
  return Open(OpenLocalFile(path));
}

std::unique_ptr<ParquetFileReader> ParquetFileReader::Open(std::unique_ptr<RandomAccessFile> file) {
  std::unique_ptr<ParquetFileReader> reader(new ParquetFileReader());
  const std::string name = file->Name();
  const uint64_t size = file->Size();
  if (size < kMagicLength + kFooterTrailerLength) {
    throw ParquetError("not a parquet file: " + name + " is only " + std::to_string(size) + " bytes");
  }
  uint8_t trailer[kFooterTrailerLength];
  file->ReadAt(size - kFooterTrailerLength, kFooterTrailerLength, trailer);
  uint8_t head[kMagicLength];
  file->ReadAt(0, kMagicLength, head);
  if (std::memcmp(trailer + 4, "PARE", 4) == 0) {
    throw ParquetError("encrypted footer: a key is needed to read " + name);
  }
  if (std::memcmp(trailer + 4, "PAR1", 4) != 0 || std::memcmp(head, "PAR1", 4) != 0) {
    throw ParquetError("not a parquet file: " + name + " lacks the PAR1 magic bytes");
  }
  uint32_t footer_length = static_cast<uint32_t>(trailer[0]) | (static_cast<uint32_t>(trailer[1]) << 8) |
                           (static_cast<uint32_t>(trailer[2]) << 16) |
                           (static_cast<uint32_t>(trailer[3]) << 24);
  if (footer_length == 0 || footer_length > size - kMagicLength - kFooterTrailerLength) {
    throw ParquetError("corrupt parquet file " + name + ": footer length " +
                       std::to_string(footer_length) + " does not fit in a file of " +
                       std::to_string(size) + " bytes");
  }
  std::vector<uint8_t> footer;
  file->ReadAt(size - kFooterTrailerLength - footer_length, footer_length, &footer);
  try {
    reader->metadata_ = ParseFileMetaData(footer.data(), footer.size());
    reader->schema_ = Schema::FromElements(reader->metadata_.schema);
  } catch (const ParquetError& e) {
    throw ParquetError("corrupt footer in " + name + ": " + e.what());
  }
  reader->footer_length_ = footer_length;
  reader->file_ = std::move(file);

  // Row groups must match the schema; row counts must be sane.
  const int num_columns = reader->schema_.num_columns();
  int64_t total = 0;
  reader->first_rows_.reserve(reader->metadata_.row_groups.size());
  for (size_t i = 0; i < reader->metadata_.row_groups.size(); i++) {
    const RowGroup& rg = reader->metadata_.row_groups[i];
    if (static_cast<int>(rg.columns.size()) != num_columns) {
      throw ParquetError("corrupt footer in " + name + ": row group " + std::to_string(i) + " has " +
                         std::to_string(rg.columns.size()) + " column chunks, the schema has " +
                         std::to_string(num_columns) + " columns");
    }
    if (rg.num_rows < 0 || total > INT64_MAX - rg.num_rows) {
      throw ParquetError("corrupt footer in " + name + ": row group " + std::to_string(i) +
                         " has invalid num_rows " + std::to_string(rg.num_rows));
    }
    reader->first_rows_.push_back(total);
    total += rg.num_rows;
  }
  reader->total_rows_ = total;
  return reader;
}

const ColumnMetaData& ParquetFileReader::column_metadata(int row_group, int column) const {
  const ColumnChunk& chunk = this->row_group(row_group).columns[static_cast<size_t>(column)];
  if (chunk.crypto_metadata.has_value()) {
    // Modular encryption (a plaintext footer with encrypted columns): pages need a key.
    throw ParquetError(Describe(row_group, column) + ": column is encrypted: a key is needed to read it");
  }
  if (!chunk.meta_data.has_value()) {
    if (chunk.crypto_metadata.has_value() || chunk.encrypted_column_metadata.has_value()) {
      throw ParquetError(Describe(row_group, column) + ": column is encrypted: a key is needed");
    }
    throw ParquetError(Describe(row_group, column) + ": column chunk has no metadata");
  }
  if (chunk.file_path.has_value() && !chunk.file_path->empty()) {
    throw ParquetError(Describe(row_group, column) + ": column chunk is stored in another file ('" +
                       *chunk.file_path + "'), which is not supported");
  }
  return *chunk.meta_data;
}

ColumnChunkRange ParquetFileReader::column_chunk_range(int row_group, int column) const {
  const ColumnMetaData& meta = column_metadata(row_group, column);
  int64_t start = meta.data_page_offset;
  // A dictionary page, when present, comes first. Some writers store 0 for "absent".
  if (meta.dictionary_page_offset.has_value() && *meta.dictionary_page_offset > 0 &&
      *meta.dictionary_page_offset < start) {
    start = *meta.dictionary_page_offset;
  }
  const uint64_t size = file_->Size();
  if (start < static_cast<int64_t>(kMagicLength) || meta.total_compressed_size < 0 ||
      static_cast<uint64_t>(start) > size ||
      static_cast<uint64_t>(meta.total_compressed_size) > size - static_cast<uint64_t>(start)) {
    throw ParquetError(Describe(row_group, column) + ": column chunk at offset " + std::to_string(start) +
                       " of " + std::to_string(meta.total_compressed_size) +
                       " bytes lies outside the file (" + std::to_string(size) + " bytes)");
  }
  return {static_cast<uint64_t>(start), static_cast<uint64_t>(meta.total_compressed_size)};
}

std::string ParquetFileReader::Describe(int row_group, int column) const {
  std::string text = "file '" + name() + "'";
  if (column >= 0 && column < schema_.num_columns()) {
    text += ", column '" + schema_.column(column).dotted_path + "'";
  }
  if (row_group >= 0) text += ", row group " + std::to_string(row_group);
  return text;
}

}  // namespace parquet

// Shared pieces of the fuzz targets (tests/fuzz/fuzz_*.cc): a reader of fuzzer bytes, the
// input layout of the page-reader target (so the seed maker can build its inputs from real
// column chunks), and the in-memory file the page target wraps a column chunk in.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "format/metadata/metadata.h"

namespace parquet_fuzz {

// Takes bytes from the front of the fuzzer's input; past the end everything reads as zero.
class ByteSource {
 public:
  ByteSource(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  uint8_t Byte() { return position_ < size_ ? data_[position_++] : 0; }
  uint32_t U32() {
    uint32_t value = 0;
    for (int i = 0; i < 4; i++) value |= static_cast<uint32_t>(Byte()) << (8 * i);
    return value;
  }
  uint64_t U64() { return static_cast<uint64_t>(U32()) | (static_cast<uint64_t>(U32()) << 32); }
  // A value in [0, bound) (bound > 0).
  uint32_t Below(uint32_t bound) { return Byte() % bound; }
  bool Bool() { return (Byte() & 1) != 0; }
  // Up to max_length bytes (length chosen by the next byte).
  std::string Bytes(size_t max_length) {
    size_t length = Byte() % (max_length + 1);
    std::string out;
    for (size_t i = 0; i < length && position_ < size_; i++) out.push_back(static_cast<char>(data_[position_++]));
    return out;
  }
  const uint8_t* rest() const { return data_ + position_; }
  size_t remaining() const { return size_ - position_; }
  bool empty() const { return position_ >= size_; }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t position_ = 0;
};

// Input of fuzz_pages: an 8-byte header describing one column, then the bytes of its column
// chunk (page headers and pages, dictionary page first if any).
//   byte 0  physical type (mod 8)         byte 1  codec (mod 8)
//   byte 2  bits 0-1: OPTIONAL groups above the leaf; bits 2-3: leaf repetition (mod 3);
//           bit 4: a REPEATED group above the leaf
//   byte 3  FIXED_LEN_BYTE_ARRAY type_length (0 reads as 1)
//   bytes 4-7  the chunk's num_values, little-endian
struct PageInputHeader {
  uint8_t physical_type = 0;
  uint8_t codec = 0;
  uint8_t levels = 0;
  uint8_t type_length = 0;
  uint32_t num_values = 0;
};
inline constexpr size_t kPageInputHeaderSize = 8;

inline std::string EncodePageInput(const PageInputHeader& header, const uint8_t* chunk, size_t size) {
  std::string out(kPageInputHeaderSize, '\0');
  out[0] = static_cast<char>(header.physical_type);
  out[1] = static_cast<char>(header.codec);
  out[2] = static_cast<char>(header.levels);
  out[3] = static_cast<char>(header.type_length);
  for (int i = 0; i < 4; i++) out[4 + i] = static_cast<char>((header.num_values >> (8 * i)) & 0xFF);
  out.append(reinterpret_cast<const char*>(chunk), size);
  return out;
}

// The flat schema fuzz_pages reads its column with: root, then the groups the level byte
// asks for, then the leaf "v".
inline std::vector<parquet::SchemaElement> PageInputSchema(const PageInputHeader& header) {
  using parquet::FieldRepetitionType;
  std::vector<parquet::SchemaElement> elements;
  parquet::SchemaElement root;
  root.name = "schema";
  root.num_children = 1;
  elements.push_back(root);
  int optional_groups = header.levels & 3;
  bool repeated_group = (header.levels & 0x10) != 0;
  int groups = optional_groups + (repeated_group ? 1 : 0);
  for (int i = 0; i < groups; i++) {
    parquet::SchemaElement group;
    group.name = "g" + std::to_string(i);
    group.num_children = 1;
    group.repetition_type = (repeated_group && i == 0) ? FieldRepetitionType::REPEATED : FieldRepetitionType::OPTIONAL;
    elements.push_back(group);
  }
  parquet::SchemaElement leaf;
  leaf.name = "v";
  leaf.type = static_cast<parquet::Type>(header.physical_type % 8);
  if (*leaf.type == parquet::Type::FIXED_LEN_BYTE_ARRAY) leaf.type_length = header.type_length ? header.type_length : 1;
  leaf.repetition_type = static_cast<FieldRepetitionType>(((header.levels >> 2) & 3) % 3);
  elements.push_back(leaf);
  return elements;
}

// A complete Parquet file ("PAR1" chunk footer length "PAR1") holding the chunk as the only
// column chunk of one row group.
inline std::string PageInputFile(const PageInputHeader& header, const uint8_t* chunk, size_t size) {
  parquet::FileMetaData metadata;
  metadata.schema = PageInputSchema(header);
  parquet::ColumnMetaData column;
  column.type = *metadata.schema.back().type;
  column.path_in_schema.clear();
  for (size_t i = 1; i < metadata.schema.size(); i++) column.path_in_schema.push_back(metadata.schema[i].name);
  column.codec = static_cast<parquet::CompressionCodec>(header.codec % 8);
  column.num_values = header.num_values;
  column.total_compressed_size = static_cast<int64_t>(size);
  column.total_uncompressed_size = static_cast<int64_t>(size);
  column.data_page_offset = 4;
  column.encodings = {parquet::Encoding::PLAIN};
  parquet::ColumnChunk column_chunk;
  column_chunk.file_offset = 4;
  column_chunk.meta_data = column;
  parquet::RowGroup row_group;
  row_group.columns.push_back(column_chunk);
  // Rows are unknown for repeated columns; the page target does not assemble rows.
  row_group.num_rows = header.num_values;
  row_group.total_byte_size = static_cast<int64_t>(size);
  metadata.row_groups.push_back(row_group);
  metadata.num_rows = row_group.num_rows;
  std::string footer = parquet::Serialize(metadata);
  std::string file = "PAR1";
  file.append(reinterpret_cast<const char*>(chunk), size);
  file += footer;
  uint32_t length = static_cast<uint32_t>(footer.size());
  for (int i = 0; i < 4; i++) file.push_back(static_cast<char>((length >> (8 * i)) & 0xFF));
  file += "PAR1";
  return file;
}

}  // namespace parquet_fuzz

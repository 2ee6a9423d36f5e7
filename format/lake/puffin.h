// Apache Iceberg Puffin files: the footer (magic, JSON payload of blob metadata, payload
// size, flags) and blobs read by offset and length, and the deletion-vector-v1 blob's
// envelope (big-endian length, magic D1 D3 39 64, the 64-bit portable roaring bitmap, and a
// big-endian CRC-32 of magic and bitmap). The bitmap itself is decoded by roaring.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace parquet::lake {

struct PuffinBlob {
  std::string type;  // "deletion-vector-v1", "apache-datasketches-theta-v1", ...
  std::vector<int32_t> fields;
  int64_t snapshot_id = -1;
  int64_t sequence_number = -1;
  int64_t offset = 0;
  int64_t length = 0;
  std::string compression_codec;  // "" (none), "zstd", "lz4"
  std::vector<std::pair<std::string, std::string>> properties;
};

struct PuffinFooter {
  std::vector<PuffinBlob> blobs;
  std::vector<std::pair<std::string, std::string>> properties;
};

// Parses the footer of the Puffin file held in `file` (the whole file); every blob's
// offset and length is checked against the file. Throws ParquetError naming `name`.
PuffinFooter ParsePuffinFooter(std::string_view file, const std::string& name);

// The bytes of a blob, decompressed when its codec is zstd (at most 256 MiB out).
std::string PuffinBlobData(std::string_view file, const PuffinBlob& blob, const std::string& name);

// The roaring bitmap inside a deletion-vector-v1 blob, after its length, magic and CRC-32
// are checked. Throws ParquetError naming `name` when any of them is wrong.
std::string_view DeletionVectorBitmap(std::string_view blob, const std::string& name);

}  // namespace parquet::lake

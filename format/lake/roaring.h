// Roaring bitmaps in the "portable" serialization, read only: the 32-bit format of the
// RoaringFormatSpec (array, bitmap and run containers) and the 64-bit portable form built
// on it (a count of buckets, each a 32-bit key for the high half and a 32-bit bitmap of the
// low halves), which Delta deletion vectors (RoaringBitmapArray) and Iceberg's Puffin
// deletion-vector-v1 blobs store. Every count, key order and offset is checked against the
// input; the positions come out as sorted, disjoint ranges (run containers stay compact).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace parquet::lake {

// A half-open range of positions [begin, end).
struct PositionRange {
  uint64_t begin = 0;
  uint64_t end = 0;
  bool operator==(const PositionRange&) const = default;
};

// Limits of one decoded bitmap: its ranges (16 bytes each) are held in memory.
inline constexpr size_t kMaxRoaringRanges = size_t{1} << 26;

// Decodes a 32-bit portable roaring bitmap at the start of `data`, adding `high << 32` to
// every value and appending the values as ranges to *out (ascending). Returns the bytes
// it used. Throws ParquetError ("roaring bitmap: ...") on malformed input.
size_t DecodeRoaring32(std::string_view data, uint64_t high, std::vector<PositionRange>* out);

// Decodes a 64-bit portable roaring bitmap that fills `data` exactly into ascending,
// disjoint, non-adjacent ranges. Throws ParquetError on malformed input or trailing bytes.
std::vector<PositionRange> DecodeRoaring64(std::string_view data);

// The number of positions in `ranges`.
uint64_t CountPositions(const std::vector<PositionRange>& ranges);

}  // namespace parquet::lake

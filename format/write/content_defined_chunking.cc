// Content-defined chunking of data pages (content_defined_chunking.h).
#include "format/write/content_defined_chunking.h"

#include <string>

#include "format/common/error.h"

namespace parquet {

namespace {

int FloorLog2(uint64_t v) {
  int bits = -1;
  while (v) {
    v >>= 1;
    ++bits;
  }
  return bits;
}

}  // namespace

ContentDefinedChunker::ContentDefinedChunker(const ContentDefinedChunkingOptions& options)
    : min_(options.min_chunk_size), max_(options.max_chunk_size) {
  if (min_ == 0 || max_ <= min_) {
    throw ParquetError("content-defined chunking needs 0 < min_chunk_size < max_chunk_size (got " +
                       std::to_string(min_) + " and " + std::to_string(max_) + ")");
  }
  const uint64_t spread = (max_ - min_) / 2;
  mask_bits_ = FloorLog2(spread < 2 ? 2 : spread) - options.norm_level;
  if (mask_bits_ < 1) mask_bits_ = 1;
  if (mask_bits_ > 31) mask_bits_ = 31;
}

}  // namespace parquet

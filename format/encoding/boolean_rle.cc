// RLE-encoded BOOLEAN values: a 4-byte little-endian byte count, then the RLE/bit-packed
// hybrid at bit width 1 (see boolean_rle.h).
#include "format/encoding/boolean_rle.h"

#include <algorithm>
#include <cstring>

#include "format/common/error.h"

namespace parquet {

void BooleanRleDecoder::SetData(const uint8_t* data, size_t size, size_t num_values) {
  const uint32_t length = ReadRleLengthPrefix(data, size);
  decoder_.Reset(data + 4, length, 1);
  num_values_ = num_values;
  values_left_ = num_values;
}

void BooleanRleDecoder::ThrowTruncated(size_t decoded_in_call) const {
  throw ParquetError("rle boolean data ends after " +
                     std::to_string(num_values_ - values_left_ + decoded_in_call) + " of " +
                     std::to_string(num_values_) + " values");
}

size_t BooleanRleDecoder::Decode(bool* out, size_t n) {
  n = std::min(n, values_left_);
  const size_t got = decoder_.Decode(out, n);
  if (got < n) ThrowTruncated(got);
  values_left_ -= n;
  return n;
}

size_t BooleanRleDecoder::Skip(size_t n) {
  n = std::min(n, values_left_);
  const size_t skipped = decoder_.Skip(n);
  if (skipped < n) ThrowTruncated(skipped);
  values_left_ -= n;
  return n;
}

void BooleanRleEncoder::Put(const bool* values, size_t count) {
  for (size_t i = 0; i < count; ++i) encoder_.Put(values[i] ? 1 : 0);
}

void BooleanRleEncoder::Flush(std::string* out) {
  std::string runs;
  encoder_.Flush(&runs);
  const uint32_t length = static_cast<uint32_t>(runs.size());
  out->append(reinterpret_cast<const char*>(&length), 4);
  out->append(runs);
}

}  // namespace parquet

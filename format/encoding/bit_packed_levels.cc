// The deprecated BIT_PACKED level encoding: fixed-width levels packed MSB-first with no
// headers; see bit_packed_levels.h for the layout and the spec's example.
#include "format/encoding/bit_packed_levels.h"

#include <algorithm>

#include "format/common/error.h"
#include "format/common/physical_values.h"

namespace parquet {

namespace {

void CheckLevelBitWidth(int bit_width) {
  if (bit_width < 0 || bit_width > kMaxBitPackedLevelWidth) {
    throw ParquetError("bit-packed level bit width " + std::to_string(bit_width) +
                       " out of range 0.." + std::to_string(kMaxBitPackedLevelWidth));
  }
}

}  // namespace

size_t BitPackedLevelsByteCount(size_t num_values, int bit_width) {
  CheckLevelBitWidth(bit_width);
  return (num_values * static_cast<size_t>(bit_width) + 7) / 8;
}

void BitPackedLevelDecoder::Reset(const uint8_t* data, size_t size, int bit_width,
                                  size_t num_values) {
  const size_t needed = BitPackedLevelsByteCount(num_values, bit_width);
  if (needed > size) {
    throw ParquetError("bit-packed levels need " + std::to_string(needed) + " bytes for " +
                       std::to_string(num_values) + " values but only " + std::to_string(size) +
                       " remain");
  }
  data_ = data;
  size_ = needed;
  bit_width_ = bit_width;
  num_values_ = num_values;
  next_ = 0;
  // Level i starts in byte floor(i * w / 8); reading 4 bytes from there stays inside the
  // data while i * w < 8 * (size - 3).
  fast_limit_ = 0;
  if (bit_width > 0 && size_ >= 4) {
    const size_t limit = ((size_ - 3) * 8 + static_cast<size_t>(bit_width) - 1) / bit_width;
    fast_limit_ = std::min(limit, num_values);
  }
}

size_t BitPackedLevelDecoder::Decode(int16_t* out, size_t n) {
  n = std::min(n, values_left());
  if (bit_width_ == 0) {
    std::fill_n(out, n, int16_t{0});
    next_ += n;
    return n;
  }
  const int width = bit_width_;
  const uint32_t mask = (uint32_t{1} << width) - 1;
  size_t i = 0;
  // A level starts at most 7 bits into a byte and is at most 15 bits wide, so 4 bytes
  // (read as a big-endian word) always contain it.
  const size_t fast_end = next_ < fast_limit_ ? std::min(n, fast_limit_ - next_) : 0;
  size_t bit = next_ * static_cast<size_t>(width);
  for (; i < fast_end; ++i, bit += width) {
    const uint32_t word = LoadBigEndian32(data_ + bit / 8);
    out[i] = static_cast<int16_t>((word >> (32 - static_cast<int>(bit % 8) - width)) & mask);
  }
  for (; i < n; ++i, bit += width) {
    uint8_t bytes[4] = {0, 0, 0, 0};
    const size_t first = bit / 8;
    std::copy_n(data_ + first, std::min<size_t>(4, size_ - first), bytes);
    const uint32_t word = LoadBigEndian32(bytes);
    out[i] = static_cast<int16_t>((word >> (32 - static_cast<int>(bit % 8) - width)) & mask);
  }
  next_ += n;
  return n;
}

size_t BitPackedLevelDecoder::Skip(size_t n) {
  n = std::min(n, values_left());
  next_ += n;
  return n;
}

size_t DecodeBitPackedLevels(const uint8_t* data, size_t size, int bit_width, size_t num_values,
                             int16_t* out) {
  BitPackedLevelDecoder decoder;
  decoder.Reset(data, size, bit_width, num_values);
  decoder.Decode(out, num_values);
  return BitPackedLevelsByteCount(num_values, bit_width);
}

BitPackedLevelEncoder::BitPackedLevelEncoder(int bit_width) : bit_width_(bit_width) {
  CheckLevelBitWidth(bit_width);
}

void BitPackedLevelEncoder::Put(const int16_t* levels, size_t count) {
  const int max_level = (1 << bit_width_) - 1;
  for (size_t i = 0; i < count; ++i) {
    const int level = levels[i];
    if (level < 0 || level > max_level) {
      throw ParquetError("level " + std::to_string(level) + " does not fit in bit width " +
                         std::to_string(bit_width_));
    }
    pending_ = pending_ << bit_width_ | static_cast<uint32_t>(level);
    pending_bits_ += bit_width_;
    while (pending_bits_ >= 8) {
      pending_bits_ -= 8;
      encoded_.push_back(static_cast<char>(pending_ >> pending_bits_));
    }
    pending_ &= (uint32_t{1} << pending_bits_) - 1;
  }
}

void BitPackedLevelEncoder::Flush(std::string* out) {
  if (pending_bits_ > 0) encoded_.push_back(static_cast<char>(pending_ << (8 - pending_bits_)));
  pending_ = 0;
  pending_bits_ = 0;
  out->append(encoded_);
  encoded_.clear();
}

}  // namespace parquet

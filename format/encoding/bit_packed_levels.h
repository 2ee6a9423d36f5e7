// The deprecated BIT_PACKED level encoding (Encodings.md, BIT_PACKED = 4), still met in old
// data page v1 files for repetition and definition levels.
//
// Layout, in our words: the page's levels (one per value, nulls included) at a fixed bit
// width, back to back with no length prefix and no run headers; only the last byte is
// padded with zero bits. Unlike the RLE/bit-packing hybrid the order is MSB-first: the first
// value occupies the most significant bits of the first byte, and a value crossing a byte
// boundary continues in the high bits of the next byte. 30 levels of width 2 take 8 bytes.
// Example from the spec: 0..7 at width 3 are the bytes 0x05 0x39 0x77.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace parquet {

// Levels are int16_t, so widths run 0..15.
constexpr int kMaxBitPackedLevelWidth = 15;

// Bytes taken by `num_values` levels of `bit_width` bits: ceil(num_values * bit_width / 8).
// The page reader uses it to find where the next section starts.
size_t BitPackedLevelsByteCount(size_t num_values, int bit_width);

class BitPackedLevelDecoder {
 public:
  BitPackedLevelDecoder() = default;

  // Starts on `num_values` levels of `bit_width` bits at `data`; `size` may exceed what they
  // take. Throws ParquetError if the width is out of range or the bytes are too few.
  void Reset(const uint8_t* data, size_t size, int bit_width, size_t num_values);

  // Decodes the next min(n, remaining) levels; returns how many.
  size_t Decode(int16_t* out, size_t n);

  // Skips the next min(n, remaining) levels; returns how many.
  size_t Skip(size_t n);

  size_t values_left() const { return num_values_ - next_; }

 private:
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;  // bytes that belong to the levels
  int bit_width_ = 0;
  size_t num_values_ = 0;
  size_t next_ = 0;        // index of the next level
  size_t fast_limit_ = 0;  // levels below this index can load 4 bytes without passing the end
};

// Decodes all `num_values` levels at once; returns the bytes they took.
size_t DecodeBitPackedLevels(const uint8_t* data, size_t size, int bit_width, size_t num_values,
                             int16_t* out);

// Writes levels MSB-first; Flush pads the last byte with zero bits.
class BitPackedLevelEncoder {
 public:
  explicit BitPackedLevelEncoder(int bit_width);

  // Throws ParquetError for a negative level or one too wide for the bit width.
  void Put(const int16_t* levels, size_t count);

  // Appends the packed levels to *out and starts afresh.
  void Flush(std::string* out);

 private:
  int bit_width_;
  std::string encoded_;
  uint32_t pending_ = 0;  // the low pending_bits_ bits are not yet written, oldest highest
  int pending_bits_ = 0;  // < 8 between calls
};

}  // namespace parquet

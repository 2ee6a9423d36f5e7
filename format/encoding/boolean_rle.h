// BOOLEAN values in the RLE encoding (Encodings.md, RLE = 3, "boolean values in data
// pages, as an alternative to PLAIN encoding"). In both data page versions the values are
//   boolean-rle := <length: 4 bytes little-endian> <rle/bit-packed hybrid at bit width 1>
// where length counts the hybrid bytes that follow. 1 is true, 0 is false.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "format/encoding/rle_bit_packed_hybrid.h"
#include "format/encoding/value_decoder.h"

namespace parquet {

class BooleanRleDecoder : public ValueDecoder<bool> {
 public:
  // Reads and checks the length prefix; the hybrid data is the `length` bytes after it.
  void SetData(const uint8_t* data, size_t size, size_t num_values) override;
  // Throws ParquetError if the runs end before the promised number of values.
  size_t Decode(bool* out, size_t n) override;
  size_t Skip(size_t n) override;

  size_t values_left() const { return values_left_; }

 private:
  [[noreturn]] void ThrowTruncated(size_t decoded_in_call) const;

  RleBitPackedDecoder decoder_;
  size_t num_values_ = 0;
  size_t values_left_ = 0;
};

class BooleanRleEncoder {
 public:
  BooleanRleEncoder() : encoder_(1) {}
  void Put(const bool* values, size_t count);
  void Put(bool value) { encoder_.Put(value ? 1 : 0); }
  // Appends the length prefix and the runs put so far; starts afresh.
  void Flush(std::string* out);

 private:
  RleBitPackedEncoder encoder_;
};

}  // namespace parquet

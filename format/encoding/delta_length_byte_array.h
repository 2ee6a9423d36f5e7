// DELTA_LENGTH_BYTE_ARRAY (encoding 6) for BYTE_ARRAY columns: decoder and encoder.
//
// The stream, in our words (Encodings.md, "Delta-length byte array"):
//
//   stream := <lengths: a DELTA_BINARY_PACKED stream of INT32, one per value>
//             <bytes: every value's bytes, concatenated in order, nothing in between>
//
// e.g. "Hello", "World", "Foobar", "ABCDEF" -> lengths 5, 5, 6, 6, then
// "HelloWorldFoobarABCDEF".
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "format/encoding/delta_binary_packed.h"
#include "format/encoding/value_decoder.h"

namespace parquet {

// Decoded values are views into the data given to SetData.
class DeltaLengthByteArrayDecoder final : public ValueDecoder<ByteArray> {
 public:
  // Decodes all lengths and checks them (none negative, the sum within the data) here,
  // once. The lengths stream may hold fewer than num_values lengths (an upper bound), not more.
  void SetData(const uint8_t* data, size_t size, size_t num_values) override;
  size_t Decode(ByteArray* out, size_t n) override;
  size_t Skip(size_t n) override;
  // Number of values in the current page's stream.
  size_t ValueCount() const { return lengths_.size(); }

 private:
  DeltaBinaryPackedDecoder<int32_t> length_decoder_;
  std::vector<int32_t> lengths_;  // of all values of the page
  const uint8_t* bytes_ = nullptr;  // start of the concatenated bytes
  size_t next_value_ = 0;
  size_t next_byte_ = 0;           // offset in bytes_ of the next value
};

// Put values (any number of calls), then Finish appends the stream to `out` and resets.
class DeltaLengthByteArrayEncoder {
 public:
  void Put(const ByteArray* values, size_t count);
  size_t ValueCount() const { return lengths_.ValueCount(); }
  void Finish(std::string& out);

 private:
  DeltaBinaryPackedEncoder<int32_t> lengths_;
  std::vector<int32_t> length_batch_;
  std::string bytes_;
};

}  // namespace parquet

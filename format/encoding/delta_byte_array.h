// DELTA_BYTE_ARRAY (encoding 7, "delta strings", front compression) for BYTE_ARRAY and
// FIXED_LEN_BYTE_ARRAY columns: decoder and encoder.
//
// The stream, in our words (Encodings.md, "Delta Strings"):
//
//   stream := <prefix lengths: a DELTA_BINARY_PACKED stream of INT32, one per value>
//             <suffixes: a DELTA_LENGTH_BYTE_ARRAY stream, one per value>
//
// Value i is the first prefix_length[i] bytes of value i-1 followed by suffix[i]; the
// first value's prefix length is 0 (there is no value before it). A prefix longer than
// the previous value is malformed. FIXED_LEN_BYTE_ARRAY columns still store every length.
//
// e.g. "axis", "axle", "babble", "babyhood" -> prefix lengths 0, 2, 0, 3, suffix lengths
// 4, 2, 6, 5, suffix bytes "axislebabbleyhood".
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "format/encoding/delta_binary_packed.h"
#include "format/encoding/delta_length_byte_array.h"
#include "format/encoding/value_decoder.h"

namespace parquet {

// Lifetime of decoded values: the ByteArray views Decode produces point either into the
// data given to SetData or into a buffer owned by this decoder. They stay valid until the
// next call to Decode, Skip or SetData (or the decoder's destruction), whichever is first;
// copy them out before that.
//
// A value that only shortens or repeats the value before it (empty suffix) is a view of
// that value's bytes; a value with no shared prefix is a view of its suffix in the page.
// Other values are assembled in the decoder's buffer. Because values can grow by reusing
// the previous value, a small page can describe a huge amount of decoded bytes: one
// Decode call that would need more than kDeltaByteArrayMaxBatchBytes of assembled bytes
// throws ParquetError (decode smaller batches).
inline constexpr size_t kDeltaByteArrayMaxBatchBytes = size_t{1} << 30;

class DeltaByteArrayDecoder final : public ValueDecoder<ByteArray> {
 public:
  // For BYTE_ARRAY columns.
  DeltaByteArrayDecoder() = default;
  // For FIXED_LEN_BYTE_ARRAY columns: every value must be `fixed_length` bytes long.
  explicit DeltaByteArrayDecoder(uint32_t fixed_length) : fixed_length_(fixed_length) {}

  // Decodes and checks all prefix lengths (none negative) and sets up the suffixes.
  void SetData(const uint8_t* data, size_t size, size_t num_values) override;
  size_t Decode(ByteArray* out, size_t n) override;
  // Skipped values are not handed out, but the last one is kept: the next value may
  // share its prefix.
  size_t Skip(size_t n) override;

 private:
  void CheckLength(uint64_t length, size_t index) const;

  std::optional<uint32_t> fixed_length_;
  DeltaBinaryPackedDecoder<int32_t> prefix_decoder_;
  std::vector<int32_t> prefix_lengths_;  // of all values of the page
  DeltaLengthByteArrayDecoder suffix_decoder_;
  std::vector<ByteArray> suffixes_;      // scratch: the suffixes of one batch
  std::vector<uint8_t> assembled_;       // bytes of the latest Decode's assembled values
  std::vector<uint8_t> previous_;        // the last value decoded or skipped
  size_t next_value_ = 0;
};

// Put values (any number of calls), then Finish appends the stream to `out` and resets.
// For FIXED_LEN_BYTE_ARRAY, put values of the column's length.
class DeltaByteArrayEncoder {
 public:
  void Put(const ByteArray* values, size_t count);
  size_t ValueCount() const { return prefix_lengths_.ValueCount(); }
  void Finish(std::string& out);

 private:
  DeltaBinaryPackedEncoder<int32_t> prefix_lengths_;
  DeltaLengthByteArrayEncoder suffixes_;
  std::vector<int32_t> prefix_batch_;
  std::vector<ByteArray> suffix_batch_;
  std::string previous_;  // the last value put
};

}  // namespace parquet

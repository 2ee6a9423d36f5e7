// BYTE_STREAM_SPLIT (encoding 9) for FLOAT, DOUBLE, INT32, INT64 and FIXED_LEN_BYTE_ARRAY
// columns: decoders and encoders.
//
// The layout, in our words (Encodings.md, "Byte Stream Split"): for N values of K bytes
// each (K = 4 for FLOAT/INT32, 8 for DOUBLE/INT64, type_length for FIXED_LEN_BYTE_ARRAY,
// e.g. 2 for FLOAT16), the data is K streams of N bytes, stream k holding byte k of every
// value in order, stream 0 first:
//
//   data := stream_0 stream_1 ... stream_(K-1)      stream_k[i] = byte k of value i
//
// There is no header and no padding: the data is exactly N*K bytes (it ends where the
// page ends). e.g. three floats AA BB CC DD | 00 11 22 33 | A3 B4 C5 D6 are stored as
// AA 00 A3 BB 11 B4 CC 22 C5 DD 33 D6.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "format/encoding/value_decoder.h"

namespace parquet {

template <typename T>
class ByteStreamSplitDecoder final : public ValueDecoder<T> {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double> ||
                    std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>,
                "BYTE_STREAM_SPLIT of a fixed-size type: FLOAT, DOUBLE, INT32, INT64");

 public:
  // size must equal num_values * sizeof(T).
  void SetData(const uint8_t* data, size_t size, size_t num_values) override;
  size_t Decode(T* out, size_t n) override;
  size_t Skip(size_t n) override;

 private:
  const uint8_t* data_ = nullptr;
  size_t num_values_ = 0;
  size_t next_value_ = 0;
};

// FIXED_LEN_BYTE_ARRAY of type_length bytes (FLOAT16, DECIMAL, ...). The ByteArray views
// Decode produces point into a buffer owned by the decoder and stay valid until the next
// call to Decode, Skip or SetData (or the decoder's destruction).
class ByteStreamSplitFixedLenDecoder final : public ValueDecoder<ByteArray> {
 public:
  explicit ByteStreamSplitFixedLenDecoder(uint32_t type_length);

  // size must equal num_values * type_length.
  void SetData(const uint8_t* data, size_t size, size_t num_values) override;
  size_t Decode(ByteArray* out, size_t n) override;
  size_t Skip(size_t n) override;

 private:
  uint32_t type_length_;
  const uint8_t* data_ = nullptr;
  size_t num_values_ = 0;
  size_t next_value_ = 0;
  std::vector<uint8_t> buffer_;  // the latest Decode's values, back to back
};

// Put values (any number of calls), then Finish appends the split streams to `out` and
// resets. Values are buffered until Finish, which needs their count.
template <typename T>
class ByteStreamSplitEncoder {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double> ||
                    std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>,
                "BYTE_STREAM_SPLIT of a fixed-size type: FLOAT, DOUBLE, INT32, INT64");

 public:
  void Put(const T* values, size_t count);
  size_t ValueCount() const { return values_.size() / sizeof(T); }
  void Finish(std::string& out);

 private:
  std::string values_;  // the values' bytes as they are in memory (little-endian)
};

class ByteStreamSplitFixedLenEncoder {
 public:
  explicit ByteStreamSplitFixedLenEncoder(uint32_t type_length);

  // Every value must be type_length bytes long.
  void Put(const ByteArray* values, size_t count);
  size_t ValueCount() const { return values_.size() / type_length_; }
  void Finish(std::string& out);

 private:
  uint32_t type_length_;
  std::string values_;
};

extern template class ByteStreamSplitDecoder<float>;
extern template class ByteStreamSplitDecoder<double>;
extern template class ByteStreamSplitDecoder<int32_t>;
extern template class ByteStreamSplitDecoder<int64_t>;
extern template class ByteStreamSplitEncoder<float>;
extern template class ByteStreamSplitEncoder<double>;
extern template class ByteStreamSplitEncoder<int32_t>;
extern template class ByteStreamSplitEncoder<int64_t>;

}  // namespace parquet

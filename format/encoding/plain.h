// The PLAIN encoding (Encodings.md, PLAIN = 0): values back to back, per physical type:
//   BOOLEAN               one bit per value, packed LSB-first (value i is bit i % 8 of byte i / 8)
//   INT32 / INT64         4 / 8 bytes little-endian
//   INT96                 12 bytes little-endian
//   FLOAT / DOUBLE        4 / 8 bytes IEEE 754, little-endian
//   BYTE_ARRAY            4-byte little-endian length, then that many bytes
//   FIXED_LEN_BYTE_ARRAY  type_length bytes, nothing else
// Dictionary pages also hold their entries in this encoding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "format/encoding/value_decoder.h"
#include "format/common/error.h"
#include "format/common/physical_values.h"

namespace parquet {

static_assert(sizeof(Int96) == 12, "Int96 must be the 12 bytes it is stored as");

// Name of a physical type's in-memory form, for error messages.
template <typename T> constexpr const char* kPlainTypeName = "";
template <> inline constexpr const char* kPlainTypeName<int32_t> = "INT32";
template <> inline constexpr const char* kPlainTypeName<int64_t> = "INT64";
template <> inline constexpr const char* kPlainTypeName<Int96> = "INT96";
template <> inline constexpr const char* kPlainTypeName<float> = "FLOAT";
template <> inline constexpr const char* kPlainTypeName<double> = "DOUBLE";

// Fixed-width types (int32_t, int64_t, Int96, float, double): the page is checked once, in
// SetData, to hold every promised value; decoding is then a copy.
template <typename T>
class PlainDecoder : public ValueDecoder<T> {
 public:
  void SetData(const uint8_t* data, size_t size, size_t num_values) override {
    if (num_values > size / sizeof(T)) {
      throw ParquetError("plain " + std::string(kPlainTypeName<T>) + " data of " +
                         std::to_string(size) + " bytes is too short for " +
                         std::to_string(num_values) + " values of " + std::to_string(sizeof(T)) +
                         " bytes");
    }
    pos_ = data;
    values_left_ = num_values;
  }

  size_t Decode(T* out, size_t n) override {
    if (n > values_left_) n = values_left_;
    if (n == 0) return 0;
    std::memcpy(out, pos_, n * sizeof(T));
    pos_ += n * sizeof(T);
    values_left_ -= n;
    return n;
  }

  size_t Skip(size_t n) override {
    if (n > values_left_) n = values_left_;
    pos_ += n * sizeof(T);
    values_left_ -= n;
    return n;
  }

 private:
  const uint8_t* pos_ = nullptr;
  size_t values_left_ = 0;
};

// BOOLEAN: LSB-first bits.
template <>
class PlainDecoder<bool> : public ValueDecoder<bool> {
 public:
  void SetData(const uint8_t* data, size_t size, size_t num_values) override;
  size_t Decode(bool* out, size_t n) override;
  size_t Skip(size_t n) override;

 private:
  const uint8_t* data_ = nullptr;
  size_t next_bit_ = 0;
  size_t values_left_ = 0;
};

// BYTE_ARRAY: each 4-byte length is checked against the bytes that remain. The views point
// into the page data.
template <>
class PlainDecoder<ByteArray> : public ValueDecoder<ByteArray> {
 public:
  void SetData(const uint8_t* data, size_t size, size_t num_values) override;
  size_t Decode(ByteArray* out, size_t n) override;
  size_t Skip(size_t n) override;

 private:
  // Reads the next length prefix, checked; leaves pos_ after it.
  uint32_t ReadLength();

  const uint8_t* pos_ = nullptr;
  const uint8_t* end_ = nullptr;
  size_t values_left_ = 0;
};

// FIXED_LEN_BYTE_ARRAY: views of type_length bytes into the page data.
class PlainFixedLenDecoder : public ValueDecoder<ByteArray> {
 public:
  explicit PlainFixedLenDecoder(int type_length);

  void SetData(const uint8_t* data, size_t size, size_t num_values) override;
  size_t Decode(ByteArray* out, size_t n) override;
  size_t Skip(size_t n) override;

 private:
  uint32_t type_length_;
  const uint8_t* pos_ = nullptr;
  size_t values_left_ = 0;
};

// Encoders append PLAIN bytes to an internal buffer; Flush moves them to the caller's string.

// Fixed-width types (int32_t, int64_t, Int96, float, double).
template <typename T>
class PlainEncoder {
 public:
  void Put(const T* values, size_t count) {
    encoded_.append(reinterpret_cast<const char*>(values), count * sizeof(T));
  }
  void Put(const T& value) { Put(&value, 1); }
  size_t buffered_bytes() const { return encoded_.size(); }
  void Flush(std::string* out) {
    out->append(encoded_);
    encoded_.clear();
  }

 private:
  std::string encoded_;
};

template <>
class PlainEncoder<bool> {
 public:
  void Put(const bool* values, size_t count);
  void Put(bool value) { Put(&value, 1); }
  size_t buffered_bytes() const { return encoded_.size() + (pending_bits_ > 0); }
  // Pads the last byte with zero bits.
  void Flush(std::string* out);

 private:
  std::string encoded_;
  uint8_t pending_ = 0;
  int pending_bits_ = 0;
};

template <>
class PlainEncoder<ByteArray> {
 public:
  void Put(const ByteArray* values, size_t count);
  void Put(const ByteArray& value) { Put(&value, 1); }
  size_t buffered_bytes() const { return encoded_.size(); }
  void Flush(std::string* out);

 private:
  std::string encoded_;
};

class PlainFixedLenEncoder {
 public:
  explicit PlainFixedLenEncoder(int type_length);
  // Throws ParquetError if a value's length differs from type_length.
  void Put(const ByteArray* values, size_t count);
  void Put(const ByteArray& value) { Put(&value, 1); }
  size_t buffered_bytes() const { return encoded_.size(); }
  void Flush(std::string* out);

 private:
  uint32_t type_length_;
  std::string encoded_;
};

}  // namespace parquet

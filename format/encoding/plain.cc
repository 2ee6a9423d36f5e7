// PLAIN decoding and encoding for the types whose layout is not a plain copy: BOOLEAN
// (LSB-first bits), BYTE_ARRAY (4-byte little-endian length + bytes) and
// FIXED_LEN_BYTE_ARRAY (type_length bytes each). See plain.h for the full layout table.
#include "format/encoding/plain.h"

#include <algorithm>

namespace parquet {

// ---------------------------------------------------------------------------------------
// BOOLEAN

void PlainDecoder<bool>::SetData(const uint8_t* data, size_t size, size_t num_values) {
  if (num_values / 8 + (num_values % 8 != 0) > size) {
    throw ParquetError("plain BOOLEAN data of " + std::to_string(size) +
                       " bytes is too short for " + std::to_string(num_values) + " values");
  }
  data_ = data;
  next_bit_ = 0;
  values_left_ = num_values;
}

size_t PlainDecoder<bool>::Decode(bool* out, size_t n) {
  n = std::min(n, values_left_);
  size_t i = 0;
  // Up to the next byte boundary, then whole bytes, then the tail.
  for (; i < n && next_bit_ % 8 != 0; ++i, ++next_bit_) {
    out[i] = (data_[next_bit_ / 8] >> (next_bit_ % 8)) & 1;
  }
  for (; n - i >= 8; i += 8, next_bit_ += 8) {
    const uint8_t bits = data_[next_bit_ / 8];
    for (int b = 0; b < 8; ++b) out[i + b] = (bits >> b) & 1;
  }
  for (; i < n; ++i, ++next_bit_) {
    out[i] = (data_[next_bit_ / 8] >> (next_bit_ % 8)) & 1;
  }
  values_left_ -= n;
  return n;
}

size_t PlainDecoder<bool>::Skip(size_t n) {
  n = std::min(n, values_left_);
  next_bit_ += n;
  values_left_ -= n;
  return n;
}

void PlainEncoder<bool>::Put(const bool* values, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    pending_ |= static_cast<uint8_t>(values[i] ? 1 : 0) << pending_bits_;
    if (++pending_bits_ == 8) {
      encoded_.push_back(static_cast<char>(pending_));
      pending_ = 0;
      pending_bits_ = 0;
    }
  }
}

void PlainEncoder<bool>::Flush(std::string* out) {
  if (pending_bits_ > 0) encoded_.push_back(static_cast<char>(pending_));
  pending_ = 0;
  pending_bits_ = 0;
  out->append(encoded_);
  encoded_.clear();
}

// ---------------------------------------------------------------------------------------
// BYTE_ARRAY

void PlainDecoder<ByteArray>::SetData(const uint8_t* data, size_t size, size_t num_values) {
  pos_ = data;
  end_ = data + size;
  values_left_ = num_values;
}

uint32_t PlainDecoder<ByteArray>::ReadLength() {
  const size_t remaining = static_cast<size_t>(end_ - pos_);
  if (remaining < 4) {
    throw ParquetError("plain BYTE_ARRAY length is truncated: 4 bytes needed, " +
                       std::to_string(remaining) + " remain");
  }
  uint32_t length;
  std::memcpy(&length, pos_, 4);
  pos_ += 4;
  if (length > remaining - 4) {
    throw ParquetError("plain BYTE_ARRAY length " + std::to_string(length) + " exceeds the " +
                       std::to_string(remaining - 4) + " bytes that remain");
  }
  return length;
}

size_t PlainDecoder<ByteArray>::Decode(ByteArray* out, size_t n) {
  n = std::min(n, values_left_);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t length = ReadLength();
    out[i].ptr = pos_;
    out[i].len = length;
    pos_ += length;
  }
  values_left_ -= n;
  return n;
}

size_t PlainDecoder<ByteArray>::Skip(size_t n) {
  n = std::min(n, values_left_);
  for (size_t i = 0; i < n; ++i) pos_ += ReadLength();
  values_left_ -= n;
  return n;
}

void PlainEncoder<ByteArray>::Put(const ByteArray* values, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    const uint32_t length = values[i].len;
    encoded_.append(reinterpret_cast<const char*>(&length), 4);
    if (length > 0) encoded_.append(reinterpret_cast<const char*>(values[i].ptr), length);
  }
}

void PlainEncoder<ByteArray>::Flush(std::string* out) {
  out->append(encoded_);
  encoded_.clear();
}

// ---------------------------------------------------------------------------------------
// FIXED_LEN_BYTE_ARRAY

namespace {
uint32_t CheckTypeLength(int type_length) {
  if (type_length < 0) {
    throw ParquetError("fixed_len_byte_array type length " + std::to_string(type_length) +
                       " is negative");
  }
  return static_cast<uint32_t>(type_length);
}
}  // namespace

PlainFixedLenDecoder::PlainFixedLenDecoder(int type_length)
    : type_length_(CheckTypeLength(type_length)) {}

void PlainFixedLenDecoder::SetData(const uint8_t* data, size_t size, size_t num_values) {
  if (type_length_ > 0 && num_values > size / type_length_) {
    throw ParquetError("plain FIXED_LEN_BYTE_ARRAY data of " + std::to_string(size) +
                       " bytes is too short for " + std::to_string(num_values) + " values of " +
                       std::to_string(type_length_) + " bytes");
  }
  pos_ = data;
  values_left_ = num_values;
}

size_t PlainFixedLenDecoder::Decode(ByteArray* out, size_t n) {
  n = std::min(n, values_left_);
  for (size_t i = 0; i < n; ++i) {
    out[i].ptr = pos_;
    out[i].len = type_length_;
    pos_ += type_length_;
  }
  values_left_ -= n;
  return n;
}

size_t PlainFixedLenDecoder::Skip(size_t n) {
  n = std::min(n, values_left_);
  pos_ += n * type_length_;
  values_left_ -= n;
  return n;
}

PlainFixedLenEncoder::PlainFixedLenEncoder(int type_length)
    : type_length_(CheckTypeLength(type_length)) {}

void PlainFixedLenEncoder::Put(const ByteArray* values, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    if (values[i].len != type_length_) {
      throw ParquetError("fixed-length value of " + std::to_string(values[i].len) +
                         " bytes does not match type length " + std::to_string(type_length_));
    }
    if (type_length_ > 0) encoded_.append(reinterpret_cast<const char*>(values[i].ptr), type_length_);
  }
}

void PlainFixedLenEncoder::Flush(std::string* out) {
  out->append(encoded_);
  encoded_.clear();
}

}  // namespace parquet

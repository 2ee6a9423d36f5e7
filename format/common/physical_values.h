// In-memory forms of the eight Parquet physical types as decoders produce them.
//
//   BOOLEAN               -> bool
//   INT32 / INT64         -> int32_t / int64_t
//   INT96                 -> Int96 (three little-endian 32-bit words, as stored)
//   FLOAT / DOUBLE        -> float / double
//   BYTE_ARRAY            -> ByteArray (a view: pointer + length)
//   FIXED_LEN_BYTE_ARRAY  -> ByteArray (length = the column's type_length)
//
// ByteArray never owns its bytes: it points into a decompressed page buffer or into a
// dictionary, and stays valid only as long as the reader that produced it says so.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace parquet {

// The little-endian 32-bit number stored at `bytes` (lengths, words of the file format).
inline uint32_t LoadLittleEndian32(const uint8_t* bytes) {
  return uint32_t{bytes[0]} | (uint32_t{bytes[1]} << 8) | (uint32_t{bytes[2]} << 16) | (uint32_t{bytes[3]} << 24);
}

// The big-endian 32-bit number stored at `bytes` (hadoop-framed LZ4 sizes, bit-packed levels).
inline uint32_t LoadBigEndian32(const uint8_t* bytes) {
  return (uint32_t{bytes[0]} << 24) | (uint32_t{bytes[1]} << 16) | (uint32_t{bytes[2]} << 8) | uint32_t{bytes[3]};
}

struct Int96 {
  uint32_t words[3];  // words[0..1]: nanoseconds of the day (little-endian int64); words[2]: Julian day
};

struct ByteArray {
  const uint8_t* ptr = nullptr;
  uint32_t len = 0;

  std::string_view view() const { return {reinterpret_cast<const char*>(ptr), len}; }
  friend bool operator==(const ByteArray& a, const ByteArray& b) {
    return a.len == b.len && (a.len == 0 || std::memcmp(a.ptr, b.ptr, a.len) == 0);
  }
};

}  // namespace parquet

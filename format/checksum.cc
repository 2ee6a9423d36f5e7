// CRC-32 for page checksums, computed with zlib in pieces its 32-bit length argument accepts.
#include "format/checksum.h"

#include <zlib.h>

#include <algorithm>

namespace parquet {

namespace {
constexpr size_t kMaxCrcChunk = size_t{1} << 30;
}  // namespace

uint32_t Crc32(uint32_t running, const uint8_t* data, size_t size) {
  uLong crc = running;
  while (size > 0) {
    const size_t chunk = std::min(size, kMaxCrcChunk);
    crc = crc32(crc, data, static_cast<uInt>(chunk));
    data += chunk;
    size -= chunk;
  }
  return static_cast<uint32_t>(crc);
}

uint32_t Crc32(const uint8_t* data, size_t size) { return Crc32(0, data, size); }

}  // namespace parquet

// Page checksums: the CRC-32 that Parquet stores in PageHeader.crc, computed over the page
// body exactly as written to the file (after compression, excluding the page header).
#pragma once

#include <cstddef>
#include <cstdint>

namespace parquet {

// Standard CRC-32 (polynomial 0x04C11DB7, reflected, as in gzip and zlib) of data.
uint32_t Crc32(const uint8_t* data, size_t size);

// Continues a CRC-32: Crc32(Crc32(a), b) equals the CRC of a followed by b. Start from 0.
uint32_t Crc32(uint32_t running, const uint8_t* data, size_t size);

}  // namespace parquet

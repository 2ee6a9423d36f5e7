// Unit tests for format/checksum: the CRC-32 of Parquet page headers, against published
// check values and for incremental computation.
#include "format/checksum.h"

#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

namespace {

uint32_t Crc32Of(const std::string& text) {
  return parquet::Crc32(reinterpret_cast<const uint8_t*>(text.data()), text.size());
}

}  // namespace

TEST_CASE("crc32 matches the standard check values") {
  CHECK(Crc32Of("123456789") == 0xCBF43926u);
  CHECK(Crc32Of("") == 0u);
  CHECK(Crc32Of("a") == 0xE8B7BE43u);
  CHECK(Crc32Of("The quick brown fox jumps over the lazy dog") == 0x414FA339u);
  CHECK(parquet::Crc32(nullptr, 0) == 0u);
  // 32 zero bytes and 32 0xff bytes (RFC 3720 appendix test patterns use CRC-32C; these are
  // the plain CRC-32 values of the same patterns).
  const std::vector<uint8_t> zeros(32, 0x00);
  const std::vector<uint8_t> ones(32, 0xff);
  CHECK(parquet::Crc32(zeros.data(), zeros.size()) == 0x190A55ADu);
  CHECK(parquet::Crc32(ones.data(), ones.size()) == 0xFF6CAB0Bu);
}

TEST_CASE("crc32 can be computed in pieces") {
  std::vector<uint8_t> data(100000);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 31 + (i >> 8));
  const uint32_t whole = parquet::Crc32(data.data(), data.size());
  for (size_t split : {size_t{0}, size_t{1}, size_t{4096}, data.size() - 1, data.size()}) {
    CAPTURE(split);
    const uint32_t first = parquet::Crc32(data.data(), split);
    CHECK(parquet::Crc32(first, data.data() + split, data.size() - split) == whole);
  }
  CHECK(parquet::Crc32(0, data.data(), data.size()) == whole);
  // A single changed bit changes the checksum.
  data[50000] ^= 0x10;
  CHECK(parquet::Crc32(data.data(), data.size()) != whole);
}

// Unit tests for format/checksum: the CRC-32 of Parquet page headers, against published
// check values, for incremental computation, and against zlib's crc32 for every length,
// alignment and starting value class the carry-less-multiplication path can meet.
#include "format/codec/checksum.h"

#include <doctest/doctest.h>

#include <zlib.h>

#include <cstring>
#include <random>
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

TEST_CASE("crc32 equals zlib's on random buffers of every length, alignment and running value") {
  std::mt19937_64 random(20261121);
  std::vector<uint8_t> data(70000 + 64);
  for (uint8_t& byte : data) byte = static_cast<uint8_t>(random());
  auto zlib_crc = [](uint32_t running, const uint8_t* p, size_t n) {
    return static_cast<uint32_t>(crc32(running, p, static_cast<uInt>(n)));
  };
  // Every length up to 300 (below, at and across the 64-byte folding threshold and the
  // 16-byte steps) at each of 16 alignments, from 0 and from a random running value.
  for (size_t offset = 0; offset < 16; offset++) {
    for (size_t length = 0; length <= 300; length++) {
      const uint8_t* p = data.data() + offset;
      const uint32_t running = static_cast<uint32_t>(random());
      if (parquet::Crc32(p, length) != zlib_crc(0, p, length) ||
          parquet::Crc32(running, p, length) != zlib_crc(running, p, length)) {
        FAIL("offset " << offset << ", length " << length);
      }
    }
  }
  // Page-sized and odd large lengths.
  for (size_t length : {size_t{1} << 12, size_t{1} << 16, size_t{65537}, size_t{70000}, size_t{69999 - 13}}) {
    CAPTURE(length);
    for (size_t offset : {size_t{0}, size_t{3}, size_t{64}}) {
      CAPTURE(offset);
      CHECK(parquet::Crc32(data.data() + offset, length) == zlib_crc(0, data.data() + offset, length));
    }
  }
  // All-zero and all-one buffers (the folding constants see no data bits / all of them).
  const std::vector<uint8_t> zeros(4096, 0x00), ones(4096, 0xff);
  CHECK(parquet::Crc32(zeros.data(), zeros.size()) == zlib_crc(0, zeros.data(), zeros.size()));
  CHECK(parquet::Crc32(ones.data(), ones.size()) == zlib_crc(0, ones.data(), ones.size()));
}

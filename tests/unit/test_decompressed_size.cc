// Unit tests of MaxDecompressedSize (format/codec/compression.h): the bound a page's claimed
// uncompressed size is checked against before its buffer is allocated. For every codec the
// bound must hold for real data (never below what the data decompresses to) and be tight
// where the format records the size.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "format/codec/compression.h"

namespace parquet {
namespace {

std::string Compressed(CompressionCodec codec, const std::string& data) {
  std::string out;
  Compress(codec, reinterpret_cast<const uint8_t*>(data.data()), data.size(), std::nullopt, &out);
  return out;
}

uint64_t Bound(CompressionCodec codec, const std::string& compressed) {
  return MaxDecompressedSize(codec, reinterpret_cast<const uint8_t*>(compressed.data()), compressed.size());
}

TEST_CASE("MaxDecompressedSize never falls below the real size, for every codec") {
  std::mt19937 rng(3);
  std::string random(100000, '\0');
  for (auto& c : random) c = static_cast<char>(rng());
  const std::string zeros(1 << 20, '\0');
  const std::string text = [] {
    std::string t;
    for (int i = 0; i < 5000; i++) t += "row " + std::to_string(i % 17) + ";";
    return t;
  }();
  for (CompressionCodec codec : {CompressionCodec::SNAPPY, CompressionCodec::GZIP, CompressionCodec::LZ4,
                                 CompressionCodec::LZ4_RAW, CompressionCodec::ZSTD, CompressionCodec::BROTLI}) {
    for (const std::string* data : std::vector<const std::string*>{&random, &zeros, &text}) {
      CAPTURE(static_cast<int>(codec));
      CAPTURE(data->size());
      std::string compressed = Compressed(codec, *data);
      CHECK(Bound(codec, compressed) >= data->size());
      // And the data still decompresses to exactly its size.
      std::vector<uint8_t> out(data->size());
      Decompress(codec, reinterpret_cast<const uint8_t*>(compressed.data()), compressed.size(), out.data(), out.size());
      CHECK(std::string(out.begin(), out.end()) == *data);
    }
  }
}

TEST_CASE("MaxDecompressedSize is exact where the format records the size, a ratio limit elsewhere") {
  const std::string zeros(1 << 20, '\0');
  CHECK(Bound(CompressionCodec::SNAPPY, Compressed(CompressionCodec::SNAPPY, zeros)) == zeros.size());
  CHECK(Bound(CompressionCodec::ZSTD, Compressed(CompressionCodec::ZSTD, zeros)) == zeros.size());
  std::string gzip = Compressed(CompressionCodec::GZIP, zeros);
  CHECK(Bound(CompressionCodec::GZIP, gzip) == gzip.size() * 1032 + 64);
  std::string lz4 = Compressed(CompressionCodec::LZ4_RAW, zeros);
  CHECK(Bound(CompressionCodec::LZ4_RAW, lz4) == lz4.size() * 256 + 64);
  // Brotli: a policy, 16 MiB or 65536:1.
  CHECK(Bound(CompressionCodec::BROTLI, Compressed(CompressionCodec::BROTLI, zeros)) == (16u << 20));
  CHECK(Bound(CompressionCodec::BROTLI, std::string(1000, 'x')) == 1000u * 65536);
  CHECK(Bound(CompressionCodec::UNCOMPRESSED, "abc") == 3);
  // Corrupt headers are errors: no allocation is made for such a page.
  CHECK_THROWS_WITH(Bound(CompressionCodec::SNAPPY, std::string("\xff\xff\xff\xff\xff\xff", 6)),
                    "snappy data is corrupt: invalid length header in 6 bytes");
  CHECK_THROWS_WITH(Bound(CompressionCodec::ZSTD, "not zstd"), "zstd data is corrupt: its 8 bytes are not zstd frames");
}

}  // namespace
}  // namespace parquet

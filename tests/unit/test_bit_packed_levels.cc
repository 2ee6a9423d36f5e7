// Tests for the deprecated BIT_PACKED level encoding (format/encoding/bit_packed_levels.h):
// the spec's MSB-first example, sizes, round trips at every width, Skip and truncation.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "format/encoding/bit_packed_levels.h"
#include "format/common/error.h"

using namespace parquet;

namespace {

std::string EncodeLevels(int width, const std::vector<int16_t>& levels) {
  BitPackedLevelEncoder encoder(width);
  encoder.Put(levels.data(), levels.size());
  std::string out;
  encoder.Flush(&out);
  return out;
}

std::vector<int16_t> RandomLevels(std::mt19937& rng, int width, size_t count) {
  std::vector<int16_t> levels(count);
  const int max = (1 << width) - 1;
  for (auto& level : levels) level = static_cast<int16_t>(rng() % (max + 1));
  return levels;
}

}  // namespace

TEST_CASE("bit-packed levels: the spec's example 0..7 at width 3 is 0x05 0x39 0x77") {
  const std::vector<int16_t> levels = {0, 1, 2, 3, 4, 5, 6, 7};
  const std::string encoded = EncodeLevels(3, levels);
  // 00000101 00111001 01110111
  CHECK(std::vector<uint8_t>(encoded.begin(), encoded.end()) == std::vector<uint8_t>{0x05, 0x39, 0x77});

  const std::vector<uint8_t> data = {0x05, 0x39, 0x77};
  std::vector<int16_t> out(8);
  CHECK(DecodeBitPackedLevels(data.data(), data.size(), 3, 8, out.data()) == 3);
  CHECK(out == levels);
}

TEST_CASE("bit-packed levels: 30 levels of width 2 take 8 bytes, the last padded with zeros") {
  CHECK(BitPackedLevelsByteCount(30, 2) == 8);
  CHECK(BitPackedLevelsByteCount(0, 5) == 0);
  CHECK(BitPackedLevelsByteCount(7, 0) == 0);
  const std::vector<int16_t> levels(30, 3);
  const std::string encoded = EncodeLevels(2, levels);
  REQUIRE(encoded.size() == 8);
  CHECK(static_cast<uint8_t>(encoded[7]) == 0xF0);  // two levels of 0b11, then 4 zero bits
}

TEST_CASE("bit-packed levels: MSB-first order across byte boundaries") {
  // width 5: 1, 31, 0, 16 -> 00001 11111 00000 10000 -> 00001111 11000001 0000(pad)
  const std::vector<uint8_t> data = {0x0F, 0xC1, 0x00};
  BitPackedLevelDecoder decoder;
  decoder.Reset(data.data(), data.size(), 5, 4);
  int16_t out[4];
  REQUIRE(decoder.Decode(out, 4) == 4);
  CHECK(out[0] == 1);
  CHECK(out[1] == 31);
  CHECK(out[2] == 0);
  CHECK(out[3] == 16);
}

TEST_CASE("bit-packed levels: random round trips at every width 0..15") {
  std::mt19937 rng(1);
  for (int width = 0; width <= kMaxBitPackedLevelWidth; ++width) {
    for (size_t count : {0, 1, 2, 7, 8, 9, 30, 31, 100, 1001}) {
      CAPTURE(width);
      CAPTURE(count);
      const std::vector<int16_t> levels = RandomLevels(rng, width, count);
      const std::string encoded = EncodeLevels(width, levels);
      CHECK(encoded.size() == BitPackedLevelsByteCount(count, width));
      // An exact-size heap copy so a sanitizer would catch over-reads.
      const std::vector<uint8_t> data(encoded.begin(), encoded.end());
      BitPackedLevelDecoder decoder;
      decoder.Reset(data.data(), data.size(), width, count);
      std::vector<int16_t> out(count);
      size_t done = 0;
      while (done < count) {
        const size_t batch = std::min<size_t>(count - done, 1 + rng() % 13);
        REQUIRE(decoder.Decode(out.data() + done, batch) == batch);
        done += batch;
      }
      CHECK(out == levels);
      int16_t extra;
      CHECK(decoder.Decode(&extra, 1) == 0);
    }
  }
}

TEST_CASE("bit-packed levels: Skip then Decode equals the tail") {
  std::mt19937 rng(2);
  for (int width : {1, 2, 3, 7, 8, 9, 15}) {
    const std::vector<int16_t> levels = RandomLevels(rng, width, 301);
    const std::string encoded = EncodeLevels(width, levels);
    const std::vector<uint8_t> data(encoded.begin(), encoded.end());
    for (size_t skip : {0, 1, 5, 8, 13, 299, 301}) {
      BitPackedLevelDecoder decoder;
      decoder.Reset(data.data(), data.size(), width, levels.size());
      REQUIRE(decoder.Skip(skip) == skip);
      CHECK(decoder.values_left() == levels.size() - skip);
      std::vector<int16_t> tail(levels.size() - skip);
      REQUIRE(decoder.Decode(tail.data(), tail.size()) == tail.size());
      CHECK(std::equal(tail.begin(), tail.end(), levels.begin() + static_cast<long>(skip)));
    }
  }
}

TEST_CASE("bit-packed levels: truncated input at every length fails; extra bytes are ignored") {
  std::mt19937 rng(3);
  const std::vector<int16_t> levels = RandomLevels(rng, 3, 50);
  const std::string encoded = EncodeLevels(3, levels);
  for (size_t length = 0; length < encoded.size(); ++length) {
    BitPackedLevelDecoder decoder;
    CHECK_THROWS_AS(decoder.Reset(reinterpret_cast<const uint8_t*>(encoded.data()), length, 3, 50),
                    ParquetError);
  }
  std::string longer = encoded + "\xAB\xCD";
  std::vector<int16_t> out(50);
  CHECK(DecodeBitPackedLevels(reinterpret_cast<const uint8_t*>(longer.data()), longer.size(), 3, 50,
                              out.data()) == encoded.size());
  CHECK(out == levels);
}

TEST_CASE("bit-packed levels: bad widths and levels are errors") {
  BitPackedLevelDecoder decoder;
  const uint8_t data[4] = {};
  CHECK_THROWS_AS(decoder.Reset(data, 4, 16, 1), ParquetError);
  CHECK_THROWS_AS(decoder.Reset(data, 4, -1, 1), ParquetError);
  CHECK_THROWS_AS(BitPackedLevelEncoder(16), ParquetError);
  BitPackedLevelEncoder encoder(2);
  const int16_t too_big = 4;
  const int16_t negative = -1;
  CHECK_THROWS_AS(encoder.Put(&too_big, 1), ParquetError);
  CHECK_THROWS_AS(encoder.Put(&negative, 1), ParquetError);
}

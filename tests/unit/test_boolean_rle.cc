// Tests for RLE-encoded BOOLEAN values (format/encoding/boolean_rle.h): the 4-byte length
// prefix, hand-built RLE and bit-packed runs (LSB-first), round trips, Skip and truncation.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "format/encoding/boolean_rle.h"
#include "format/common/error.h"

using namespace parquet;

namespace {

std::vector<uint8_t> Bytes(const std::string& s) { return {s.begin(), s.end()}; }

std::vector<uint8_t> Encode(const std::vector<char>& values) {
  BooleanRleEncoder encoder;
  for (char v : values) encoder.Put(v != 0);
  std::string out;
  encoder.Flush(&out);
  return Bytes(out);
}

std::vector<char> RunnyBools(std::mt19937& rng, size_t count) {
  std::vector<char> values;
  while (values.size() < count) {
    const size_t length = std::min<size_t>(count - values.size(), 1 + rng() % 30);
    const bool run = rng() % 2;
    const char value = static_cast<char>(rng() % 2);
    for (size_t i = 0; i < length; ++i) values.push_back(run ? value : static_cast<char>(rng() % 2));
  }
  return values;
}

}  // namespace

TEST_CASE("boolean rle: an RLE run behind its length prefix") {
  const std::vector<uint8_t> data = {0x02, 0x00, 0x00, 0x00, 0x14, 0x01};  // 10 x true
  BooleanRleDecoder decoder;
  decoder.SetData(data.data(), data.size(), 10);
  bool out[10] = {};
  REQUIRE(decoder.Decode(out, 10) == 10);
  for (bool v : out) CHECK(v);
  CHECK(Encode(std::vector<char>(10, 1)) == data);
}

TEST_CASE("boolean rle: bit-packed values are LSB-first") {
  // One group: 0b00001101 -> true, false, true, true, false, false, false, false.
  const std::vector<uint8_t> data = {0x02, 0x00, 0x00, 0x00, 0x03, 0x0D};
  BooleanRleDecoder decoder;
  decoder.SetData(data.data(), data.size(), 8);
  bool out[8];
  REQUIRE(decoder.Decode(out, 3) == 3);
  REQUIRE(decoder.Decode(out + 3, 5) == 5);
  const bool expected[8] = {true, false, true, true, false, false, false, false};
  for (int i = 0; i < 8; ++i) CHECK(out[i] == expected[i]);
  CHECK(Encode({1, 0, 1, 1, 0, 0, 0, 0}) == data);
}

TEST_CASE("boolean rle: bytes after the prefixed length are not read") {
  // Length 2 covers one RLE run of 4 x true; the trailing byte would be a malformed header.
  const std::vector<uint8_t> data = {0x02, 0x00, 0x00, 0x00, 0x08, 0x01, 0xFF};
  BooleanRleDecoder decoder;
  decoder.SetData(data.data(), data.size(), 5);
  bool out[5];
  CHECK_THROWS_WITH_AS(decoder.Decode(out, 5), "rle boolean data ends after 4 of 5 values",
                       ParquetError);
}

TEST_CASE("boolean rle: random round trips with Skip") {
  std::mt19937 rng(23);
  for (size_t count : {1, 8, 9, 64, 100, 1000}) {
    const std::vector<char> values = RunnyBools(rng, count);
    const std::vector<uint8_t> data = Encode(values);
    for (size_t skip : {size_t{0}, size_t{1}, count / 3, count / 2, count}) {
      BooleanRleDecoder decoder;
      decoder.SetData(data.data(), data.size(), count);
      REQUIRE(decoder.Skip(skip) == skip);
      std::vector<bool> got;
      bool batch[17];
      size_t n;
      while ((n = decoder.Decode(batch, 1 + rng() % 17)) > 0) got.insert(got.end(), batch, batch + n);
      REQUIRE(got.size() == count - skip);
      for (size_t i = 0; i < got.size(); ++i) REQUIRE(got[i] == (values[skip + i] != 0));
      CHECK(decoder.values_left() == 0);
    }
  }
}

TEST_CASE("boolean rle: truncated input at every length is an error") {
  // 64 alternating values: full groups, no padding; every byte is needed.
  std::vector<char> values(64);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<char>(i % 3 == 0);
  const std::vector<uint8_t> data = Encode(values);
  for (size_t length = 0; length < data.size(); ++length) {
    CAPTURE(length);
    const std::vector<uint8_t> prefix(data.begin(), data.begin() + static_cast<long>(length));
    bool out[64];
    // Cut inside the prefix: the prefix is refused. Cut after it: the stated length no
    // longer fits the data.
    BooleanRleDecoder decoder;
    CHECK_THROWS_AS(decoder.SetData(prefix.data(), prefix.size(), 64), ParquetError);
    // Also with a length prefix rewritten to match the cut runs: decoding runs out.
    if (length >= 4) {
      std::vector<uint8_t> relabelled = prefix;
      relabelled[0] = static_cast<uint8_t>(length - 4);
      BooleanRleDecoder short_runs;
      short_runs.SetData(relabelled.data(), relabelled.size(), 64);
      CHECK_THROWS_AS(short_runs.Decode(out, 64), ParquetError);
      short_runs.SetData(relabelled.data(), relabelled.size(), 64);
      CHECK_THROWS_AS(short_runs.Skip(64), ParquetError);
    }
  }
}

// Tests for the PLAIN encoding (format/encoding/plain.h): exact bytes per physical type,
// LSB-first booleans, byte arrays with checked lengths, FIXED_LEN_BYTE_ARRAY, INT96,
// Skip, and short data.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "format/encoding/plain.h"
#include "format/common/error.h"

using namespace parquet;

namespace {

std::vector<uint8_t> Bytes(const std::string& s) { return {s.begin(), s.end()}; }

template <typename T>
std::vector<uint8_t> EncodePlain(const std::vector<T>& values) {
  PlainEncoder<T> encoder;
  encoder.Put(values.data(), values.size());
  std::string out;
  encoder.Flush(&out);
  return Bytes(out);
}

template <typename T>
void CheckFixedWidthRoundTrip(const std::vector<T>& values) {
  const std::vector<uint8_t> data = EncodePlain(values);
  REQUIRE(data.size() == values.size() * sizeof(T));
  PlainDecoder<T> decoder;
  decoder.SetData(data.data(), data.size(), values.size());
  std::vector<T> out(values.size());
  size_t done = 0;
  while (done < values.size()) {
    const size_t batch = std::min<size_t>(values.size() - done, 3);
    REQUIRE(decoder.Decode(out.data() + done, batch) == batch);
    done += batch;
  }
  CHECK(std::memcmp(out.data(), values.data(), values.size() * sizeof(T)) == 0);
  T extra;
  CHECK(decoder.Decode(&extra, 1) == 0);

  // Skip then Decode equals the tail; short data is refused up front.
  for (size_t skip = 0; skip <= values.size(); ++skip) {
    decoder.SetData(data.data(), data.size(), values.size());
    REQUIRE(decoder.Skip(skip) == skip);
    std::vector<T> tail(values.size() - skip);
    REQUIRE(decoder.Decode(tail.data(), tail.size()) == tail.size());
    if (!tail.empty()) {
      CHECK(std::memcmp(tail.data(), values.data() + skip, tail.size() * sizeof(T)) == 0);
    }
  }
  for (size_t length = 0; length < data.size(); ++length) {
    CHECK_THROWS_AS(decoder.SetData(data.data(), length, values.size()), ParquetError);
  }
}

}  // namespace

TEST_CASE("plain: fixed-width types are little-endian") {
  CHECK(EncodePlain<int32_t>({1, -2}) ==
        std::vector<uint8_t>{0x01, 0x00, 0x00, 0x00, 0xFE, 0xFF, 0xFF, 0xFF});
  CHECK(EncodePlain<int64_t>({0x0102030405060708}) ==
        std::vector<uint8_t>{0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01});
  CHECK(EncodePlain<float>({1.0f}) == std::vector<uint8_t>{0x00, 0x00, 0x80, 0x3F});
  CHECK(EncodePlain<double>({-2.0}) ==
        std::vector<uint8_t>{0, 0, 0, 0, 0, 0, 0x00, 0xC0});

  const std::vector<uint8_t> data = {0x2A, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0x7F};
  PlainDecoder<int32_t> decoder;
  decoder.SetData(data.data(), data.size(), 2);
  int32_t out[2];
  REQUIRE(decoder.Decode(out, 2) == 2);
  CHECK(out[0] == 42);
  CHECK(out[1] == std::numeric_limits<int32_t>::max());
}

TEST_CASE("plain: round trips, Skip and short data for every fixed-width type") {
  CheckFixedWidthRoundTrip<int32_t>({0, 1, -1, 123456789, std::numeric_limits<int32_t>::min(), 7, 8});
  CheckFixedWidthRoundTrip<int64_t>({0, -1, std::numeric_limits<int64_t>::max(), 5, 1LL << 40});
  CheckFixedWidthRoundTrip<float>({0.0f, -0.0f, 1.5f, std::numeric_limits<float>::quiet_NaN(),
                                   std::numeric_limits<float>::infinity()});
  CheckFixedWidthRoundTrip<double>({3.25, -0.0, std::numeric_limits<double>::denorm_min(), 1e300});
  CheckFixedWidthRoundTrip<Int96>({Int96{{1, 2, 3}}, Int96{{0xFFFFFFFF, 0, 2440588}}});
}

TEST_CASE("plain: INT96 is 12 little-endian bytes, the three words in order") {
  const Int96 value{{0x04030201, 0x08070605, 0x0C0B0A09}};
  const std::vector<uint8_t> data = EncodePlain<Int96>({value});
  CHECK(data == std::vector<uint8_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  PlainDecoder<Int96> decoder;
  decoder.SetData(data.data(), data.size(), 1);
  Int96 out;
  REQUIRE(decoder.Decode(&out, 1) == 1);
  CHECK(out.words[0] == 0x04030201u);
  CHECK(out.words[1] == 0x08070605u);
  CHECK(out.words[2] == 0x0C0B0A09u);
}

TEST_CASE("plain: booleans are bits, least significant first") {
  const std::vector<bool> values = {true, false, true, true, false, false, false, false, true};
  PlainEncoder<bool> encoder;
  for (bool v : values) encoder.Put(v);
  std::string encoded;
  encoder.Flush(&encoded);
  CHECK(Bytes(encoded) == std::vector<uint8_t>{0x0D, 0x01});

  const std::vector<uint8_t> data = {0x0D, 0x01};
  PlainDecoder<bool> decoder;
  decoder.SetData(data.data(), data.size(), 9);
  bool out[9];
  REQUIRE(decoder.Decode(out, 2) == 2);   // unaligned start for the next batch
  REQUIRE(decoder.Decode(out + 2, 7) == 7);
  for (size_t i = 0; i < 9; ++i) CHECK(out[i] == values[i]);
  CHECK_THROWS_AS(decoder.SetData(data.data(), 1, 9), ParquetError);
}

TEST_CASE("plain: random booleans round trip with Skip at every offset") {
  std::mt19937 rng(9);
  std::vector<char> values(203);
  for (auto& v : values) v = static_cast<char>(rng() % 2);
  PlainEncoder<bool> encoder;
  for (char v : values) encoder.Put(v != 0);
  std::string encoded;
  encoder.Flush(&encoded);
  const std::vector<uint8_t> data = Bytes(encoded);
  REQUIRE(data.size() == 26);
  for (size_t skip = 0; skip <= values.size(); ++skip) {
    PlainDecoder<bool> decoder;
    decoder.SetData(data.data(), data.size(), values.size());
    REQUIRE(decoder.Skip(skip) == skip);
    bool out[203];
    const size_t left = values.size() - skip;
    size_t done = 0;
    while (done < left) {
      const size_t batch = std::min<size_t>(left - done, 1 + rng() % 20);
      REQUIRE(decoder.Decode(out + done, batch) == batch);
      done += batch;
    }
    for (size_t i = 0; i < left; ++i) REQUIRE(out[i] == (values[skip + i] != 0));
  }
}

TEST_CASE("plain: byte arrays are a 4-byte length then the bytes; views point into the page") {
  const std::string hello = "hello";
  const std::vector<ByteArray> values = {
      {reinterpret_cast<const uint8_t*>(hello.data()), 5}, {nullptr, 0},
      {reinterpret_cast<const uint8_t*>(hello.data()), 2}};
  PlainEncoder<ByteArray> encoder;
  encoder.Put(values.data(), values.size());
  std::string encoded;
  encoder.Flush(&encoded);
  CHECK(encoded == std::string("\x05\0\0\0hello\0\0\0\0\x02\0\0\0he", 19));

  const std::vector<uint8_t> data = Bytes(encoded);
  PlainDecoder<ByteArray> decoder;
  decoder.SetData(data.data(), data.size(), 3);
  ByteArray out[3];
  REQUIRE(decoder.Decode(out, 3) == 3);
  CHECK(out[0].view() == "hello");
  CHECK(out[0].ptr == data.data() + 4);
  CHECK(out[1].len == 0);
  CHECK(out[2].view() == "he");

  decoder.SetData(data.data(), data.size(), 3);
  REQUIRE(decoder.Skip(2) == 2);
  REQUIRE(decoder.Decode(out, 3) == 1);
  CHECK(out[0].view() == "he");
}

TEST_CASE("plain: a byte array length past the end of the data is an error") {
  const std::vector<uint8_t> data = {0x06, 0, 0, 0, 'a', 'b', 'c', 'd', 'e'};
  PlainDecoder<ByteArray> decoder;
  decoder.SetData(data.data(), data.size(), 1);
  ByteArray out;
  CHECK_THROWS_WITH_AS(decoder.Decode(&out, 1),
                       "plain BYTE_ARRAY length 6 exceeds the 5 bytes that remain", ParquetError);
  // A huge length must not wrap around.
  const std::vector<uint8_t> huge = {0xFF, 0xFF, 0xFF, 0xFF, 'a'};
  decoder.SetData(huge.data(), huge.size(), 1);
  CHECK_THROWS_AS(decoder.Skip(1), ParquetError);
  // Truncation at every length of a valid page.
  const std::vector<uint8_t> valid = {2, 0, 0, 0, 'h', 'i', 0, 0, 0, 0, 1, 0, 0, 0, 'x'};
  for (size_t length = 0; length < valid.size(); ++length) {
    const std::vector<uint8_t> prefix(valid.begin(), valid.begin() + static_cast<long>(length));
    decoder.SetData(prefix.data(), prefix.size(), 3);
    ByteArray three[3];
    CHECK_THROWS_AS(decoder.Decode(three, 3), ParquetError);
    decoder.SetData(prefix.data(), prefix.size(), 3);
    CHECK_THROWS_AS(decoder.Skip(3), ParquetError);
  }
}

TEST_CASE("plain: FIXED_LEN_BYTE_ARRAY values are type_length bytes with no prefix") {
  const std::string raw = "abcdefghi";
  const std::vector<ByteArray> values = {{reinterpret_cast<const uint8_t*>(raw.data()), 3},
                                         {reinterpret_cast<const uint8_t*>(raw.data()) + 3, 3},
                                         {reinterpret_cast<const uint8_t*>(raw.data()) + 6, 3}};
  PlainFixedLenEncoder encoder(3);
  encoder.Put(values.data(), values.size());
  std::string encoded;
  encoder.Flush(&encoded);
  CHECK(encoded == raw);
  const ByteArray wrong{reinterpret_cast<const uint8_t*>(raw.data()), 2};
  CHECK_THROWS_AS(encoder.Put(wrong), ParquetError);

  const std::vector<uint8_t> data = Bytes(raw);
  PlainFixedLenDecoder decoder(3);
  decoder.SetData(data.data(), data.size(), 3);
  REQUIRE(decoder.Skip(1) == 1);
  ByteArray out[3];
  REQUIRE(decoder.Decode(out, 3) == 2);
  CHECK(out[0].view() == "def");
  CHECK(out[1].view() == "ghi");
  CHECK(out[1].ptr == data.data() + 6);
  for (size_t length = 0; length < data.size(); ++length) {
    CHECK_THROWS_AS(decoder.SetData(data.data(), length, 3), ParquetError);
  }
  CHECK_THROWS_AS(PlainFixedLenDecoder(-1), ParquetError);
}

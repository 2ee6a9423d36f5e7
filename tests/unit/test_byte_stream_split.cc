// Unit tests of BYTE_STREAM_SPLIT (format/encoding/byte_stream_split.h): the Encodings.md
// example, round trips for FLOAT, DOUBLE, INT32, INT64 and FIXED_LEN_BYTE_ARRAY widths,
// skipping, and data sizes that do not match the value count.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "format/encoding/byte_stream_split.h"
#include "format/common/error.h"

namespace parquet {
namespace {

const uint8_t* Bytes(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

std::string FromBytes(std::initializer_list<int> bytes) {
  std::string s;
  for (int b : bytes) s.push_back(char(uint8_t(b)));
  return s;
}

template <typename T>
std::string Encode(const std::vector<T>& values) {
  ByteStreamSplitEncoder<T> encoder;
  encoder.Put(values.data(), values.size());
  CHECK(encoder.ValueCount() == values.size());
  std::string out;
  encoder.Finish(out);
  return out;
}

// Compares bit patterns, so NaNs and -0.0 count too.
template <typename T>
bool SameBits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

TEST_CASE("byte stream split: Encodings.md example (three floats)") {
  const std::string raw = FromBytes({0xAA, 0xBB, 0xCC, 0xDD, 0x00, 0x11, 0x22, 0x33, 0xA3, 0xB4,
                                     0xC5, 0xD6});
  std::vector<float> floats(3);
  std::memcpy(floats.data(), raw.data(), 12);  // as stored: little-endian
  const std::string split =
      FromBytes({0xAA, 0x00, 0xA3, 0xBB, 0x11, 0xB4, 0xCC, 0x22, 0xC5, 0xDD, 0x33, 0xD6});
  CHECK(Encode(floats) == split);

  ByteStreamSplitDecoder<float> decoder;
  decoder.SetData(Bytes(split), split.size(), 3);
  std::vector<float> out(3);
  CHECK(decoder.Decode(out.data(), 10) == 3);
  CHECK(std::memcmp(out.data(), raw.data(), 12) == 0);
  CHECK(decoder.Decode(out.data(), 1) == 0);

  // The same bytes as a FIXED_LEN_BYTE_ARRAY(4) column.
  ByteStreamSplitFixedLenDecoder fixed(4);
  fixed.SetData(Bytes(split), split.size(), 3);
  ByteArray views[3];
  CHECK(fixed.Decode(views, 3) == 3);
  CHECK(views[0].view() == raw.substr(0, 4));
  CHECK(views[1].view() == raw.substr(4, 4));
  CHECK(views[2].view() == raw.substr(8, 4));
}

template <typename T>
std::vector<T> RandomValues(std::mt19937_64& rng, size_t count) {
  std::vector<T> values(count);
  for (auto& v : values) {
    const uint64_t bits = rng();
    std::memcpy(&v, &bits, sizeof(T));  // any bit pattern, NaNs included
  }
  if (count >= 4) {
    values[0] = std::numeric_limits<T>::lowest();
    values[1] = std::numeric_limits<T>::max();
    values[2] = T(0);
    values[3] = std::numeric_limits<T>::is_iec559 ? T(-0.0) : T(-1);
  }
  return values;
}

TEST_CASE_TEMPLATE("byte stream split: round trips, batches and skips", T, float, double,
                   int32_t, int64_t) {
  std::mt19937_64 rng(41);
  for (size_t count : {0u, 1u, 2u, 7u, 100u, 1001u}) {
    const std::vector<T> values = RandomValues<T>(rng, count);
    const std::string encoded = Encode(values);
    CHECK(encoded.size() == count * sizeof(T));
    // Stream k starts with byte k of value 0.
    for (size_t k = 0; k < sizeof(T) && count > 0; ++k) {
      CHECK(encoded[k * count] == reinterpret_cast<const char*>(values.data())[k]);
    }
    for (size_t batch : {1u, 3u, 1000u}) {
      ByteStreamSplitDecoder<T> decoder;
      decoder.SetData(Bytes(encoded), encoded.size(), count);
      std::vector<T> out(count);
      size_t done = 0;
      while (size_t got = decoder.Decode(out.data() + done, std::min(batch, count - done + 1))) {
        done += got;
      }
      CHECK(done == count);
      CHECK(SameBits(out, values));
    }
    for (size_t skip : {0u, 1u, 50u, 1001u, 2000u}) {
      ByteStreamSplitDecoder<T> decoder;
      decoder.SetData(Bytes(encoded), encoded.size(), count);
      const size_t skipped = std::min(skip, count);
      CHECK(decoder.Skip(skip) == skipped);
      std::vector<T> tail(count - skipped);
      CHECK(decoder.Decode(tail.data(), tail.size() + 1) == tail.size());
      CHECK(SameBits(tail, std::vector<T>(values.begin() + long(skipped), values.end())));
    }
  }
}

TEST_CASE("byte stream split: FIXED_LEN_BYTE_ARRAY widths (FLOAT16, odd sizes, DECIMAL)") {
  std::mt19937_64 rng(43);
  for (uint32_t width : {1u, 2u, 3u, 4u, 8u, 12u, 16u}) {
    const size_t count = 123;
    std::string raw;
    for (size_t i = 0; i < count * width; ++i) raw.push_back(char(rng()));
    std::vector<ByteArray> values(count);
    for (size_t i = 0; i < count; ++i) values[i] = ByteArray{Bytes(raw) + i * width, width};

    ByteStreamSplitFixedLenEncoder encoder(width);
    encoder.Put(values.data(), 100);
    encoder.Put(values.data() + 100, count - 100);
    CHECK(encoder.ValueCount() == count);
    std::string encoded;
    encoder.Finish(encoded);
    REQUIRE(encoded.size() == raw.size());
    for (size_t k = 0; k < width; ++k) CHECK(encoded[k * count + 5] == raw[5 * width + k]);

    ByteStreamSplitFixedLenDecoder decoder(width);
    decoder.SetData(Bytes(encoded), encoded.size(), count);
    CHECK(decoder.Skip(10) == 10);
    std::vector<ByteArray> out(count);
    CHECK(decoder.Decode(out.data(), 50) == 50);
    for (size_t i = 0; i < 50; ++i) REQUIRE(out[i] == values[10 + i]);
    CHECK(decoder.Decode(out.data(), count) == count - 60);
    for (size_t i = 0; i < count - 60; ++i) REQUIRE(out[i] == values[60 + i]);
  }
}

TEST_CASE("byte stream split: data size must match the value count") {
  const std::string data(12, 'x');
  ByteStreamSplitDecoder<float> floats;
  CHECK_THROWS_AS(floats.SetData(Bytes(data), 12, 4), ParquetError);
  CHECK_THROWS_AS(floats.SetData(Bytes(data), 12, 2), ParquetError);
  CHECK_THROWS_AS(floats.SetData(Bytes(data), 11, 3), ParquetError);
  CHECK_THROWS_AS(floats.SetData(Bytes(data), 12, size_t{1} << 62), ParquetError);  // overflow
  floats.SetData(Bytes(data), 12, 3);
  ByteStreamSplitDecoder<double> doubles;
  CHECK_THROWS_AS(doubles.SetData(Bytes(data), 12, 1), ParquetError);
  ByteStreamSplitDecoder<int64_t> int64s;
  CHECK_THROWS_AS(int64s.SetData(Bytes(data), 12, 2), ParquetError);
  ByteStreamSplitFixedLenDecoder fixed(5);
  CHECK_THROWS_AS(fixed.SetData(Bytes(data), 12, 2), ParquetError);
  CHECK_THROWS_AS(fixed.SetData(Bytes(data), 12, 3), ParquetError);
  ByteStreamSplitFixedLenDecoder fixed3(3);
  fixed3.SetData(Bytes(data), 12, 4);
  ByteStreamSplitDecoder<int32_t> empty;
  empty.SetData(nullptr, 0, 0);
  int32_t out;
  CHECK(empty.Decode(&out, 1) == 0);
}

TEST_CASE("byte stream split: invalid fixed lengths") {
  CHECK_THROWS_AS(ByteStreamSplitFixedLenDecoder(0), ParquetError);
  CHECK_THROWS_AS(ByteStreamSplitFixedLenEncoder(0), ParquetError);
  ByteStreamSplitFixedLenEncoder encoder(2);
  const std::string three = "abc";
  const ByteArray value{Bytes(three), 3};
  CHECK_THROWS_AS(encoder.Put(&value, 1), ParquetError);
}

}  // namespace
}  // namespace parquet

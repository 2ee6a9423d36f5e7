// Unit tests of DELTA_BINARY_PACKED (format/encoding/delta_binary_packed.h): the worked
// examples of Encodings.md (re-encoded with a valid 128-value block), round trips over
// every bit width and wrapping deltas, skipping, truncation and hostile headers.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "format/encoding/delta_binary_packed.h"
#include "format/common/error.h"

namespace parquet {
namespace {

template <typename T>
std::string EncodeDelta(const std::vector<T>& values) {
  DeltaBinaryPackedEncoder<T> encoder;
  encoder.Put(values.data(), values.size());
  std::string out;
  encoder.Finish(out);
  return out;
}

const uint8_t* Bytes(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

// Decodes every value, in batches of `batch` values.
template <typename T>
std::vector<T> DecodeDelta(const std::string& data, size_t count, size_t batch = 1000) {
  DeltaBinaryPackedDecoder<T> decoder;
  decoder.SetData(Bytes(data), data.size(), count);
  std::vector<T> out(count);
  size_t done = 0;
  while (done < count) {
    const size_t got = decoder.Decode(out.data() + done, std::min(batch, count - done));
    REQUIRE(got > 0);
    done += got;
  }
  T extra;
  CHECK(decoder.Decode(&extra, 1) == 0);
  return out;
}

std::string FromBytes(std::initializer_list<int> bytes) {
  std::string s;
  for (int b : bytes) s.push_back(char(uint8_t(b)));
  return s;
}

TEST_CASE("delta binary packed: Encodings.md example 1 (1, 2, 3, 4, 5)") {
  const std::vector<int32_t> values = {1, 2, 3, 4, 5};
  const std::string encoded = EncodeDelta(values);
  // header: block 128 (80 01), 4 miniblocks, 5 values, first value zigzag(1) = 2;
  // block: min delta zigzag(1) = 2, four bit widths of 0, no miniblock bodies.
  CHECK(encoded == FromBytes({0x80, 0x01, 0x04, 0x05, 0x02, 0x02, 0, 0, 0, 0}));
  CHECK(DecodeDelta<int32_t>(encoded, 5) == values);
  CHECK(DecodeDelta<int64_t>(encoded, 5) == std::vector<int64_t>{1, 2, 3, 4, 5});
}

TEST_CASE("delta binary packed: Encodings.md example 2 (7, 5, 3, 1, 2, 3, 4, 5)") {
  const std::vector<int32_t> values = {7, 5, 3, 1, 2, 3, 4, 5};
  const std::string encoded = EncodeDelta(values);
  // deltas -2 -2 -2 1 1 1 1, min -2 (zigzag 3), relative 0 0 0 3 3 3 3 at 2 bits:
  // byte 0 = 0,0,0,3 -> 0xC0; byte 1 = 3,3,3,(pad 0) -> 0x3F; then 6 zero padding bytes.
  CHECK(encoded == FromBytes({0x80, 0x01, 0x04, 0x08, 0x0E, 0x03, 0x02, 0, 0, 0, 0xC0, 0x3F, 0,
                              0, 0, 0, 0, 0}));
  CHECK(DecodeDelta<int32_t>(encoded, 8) == values);
}

TEST_CASE("delta binary packed: hand-written stream with one 128-value miniblock") {
  // Example 2 again, but one miniblock per block: the body is 128 * 2 bits = 32 bytes.
  std::string data = FromBytes({0x80, 0x01, 0x01, 0x08, 0x0E, 0x03, 0x02, 0xC0, 0x3F});
  data.append(30, '\0');
  DeltaBinaryPackedDecoder<int64_t> decoder;
  decoder.SetData(Bytes(data), data.size(), 8);
  CHECK(decoder.TotalValueCount() == 8);
  std::vector<int64_t> out(8);
  CHECK(decoder.Decode(out.data(), 8) == 8);
  CHECK(out == std::vector<int64_t>{7, 5, 3, 1, 2, 3, 4, 5});
  CHECK(decoder.BytesConsumed() == data.size());
}

TEST_CASE("delta binary packed: the examples' block size of 8 is rejected") {
  // Encodings.md notes its examples use an invalid block size of 8.
  const std::string data = FromBytes({0x08, 0x01, 0x05, 0x02, 0x02, 0x00});
  DeltaBinaryPackedDecoder<int32_t> decoder;
  CHECK_THROWS_AS(decoder.SetData(Bytes(data), data.size(), 5), ParquetError);
}

TEST_CASE("delta binary packed: the caller's count is an upper bound, the header's count is exact") {
  // A v1 data page announces its slots, nulls included: 6 here, of which 5 are values.
  const std::string data = FromBytes({0x80, 0x01, 0x04, 0x05, 0x02, 0x02, 0, 0, 0, 0});
  DeltaBinaryPackedDecoder<int32_t> decoder;
  decoder.SetData(Bytes(data), data.size(), 6);
  std::vector<int32_t> out(6);
  CHECK(decoder.Decode(out.data(), 6) == 5);
  CHECK(std::vector<int32_t>(out.begin(), out.begin() + 5) == std::vector<int32_t>{1, 2, 3, 4, 5});
}

TEST_CASE("delta binary packed: header checks") {
  DeltaBinaryPackedDecoder<int32_t> decoder;
  auto rejects = [&](const std::string& data, size_t count) {
    CHECK_THROWS_AS(decoder.SetData(Bytes(data), data.size(), count), ParquetError);
  };
  std::string padding(64, '\0');
  rejects(FromBytes({0x00, 0x01, 0x01, 0x00}) + padding, 1);        // block size 0
  rejects(FromBytes({0x80, 0x01, 0x03, 0x05, 0x00}) + padding, 5);  // 128 / 3
  rejects(FromBytes({0x80, 0x01, 0x08, 0x05, 0x00}) + padding, 5);  // 16 per miniblock
  rejects(FromBytes({0x80, 0x01, 0x00, 0x05, 0x00}) + padding, 5);  // 0 miniblocks
  // block size 2^35
  rejects(FromBytes({0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 0x04, 0x05, 0x00}) + padding, 5);
  // a ULEB128 longer than 10 bytes
  rejects(std::string(11, char(0x80)) + FromBytes({0x01}), 1);
  // truncated in the middle of the header
  rejects(FromBytes({0x80}), 1);
  rejects(FromBytes({0x80, 0x01, 0x04}), 1);
}

TEST_CASE("delta binary packed: a header claiming billions of values is rejected at once") {
  // 3,000,000,000 values in 128-value blocks would need over 100 MB; the data has 100 bytes.
  std::string data = FromBytes({0x80, 0x01, 0x04, 0x80, 0xBC, 0xC1, 0x96, 0x0B, 0x00});
  data.resize(100, '\0');
  DeltaBinaryPackedDecoder<int64_t> decoder;
  CHECK_THROWS_AS(decoder.SetData(Bytes(data), data.size(), 5), ParquetError);
  CHECK_THROWS_AS(decoder.SetData(Bytes(data), data.size(), 3000000000u), ParquetError);
  // Even with the largest block size accepted (65536 values, 1 miniblock).
  std::string big_block = FromBytes({0x80, 0x80, 0x04, 0x01, 0x80, 0xBC, 0xC1, 0x96, 0x0B, 0x00});
  big_block.resize(100, '\0');
  CHECK_THROWS_AS(decoder.SetData(Bytes(big_block), big_block.size(), 5), ParquetError);
}

TEST_CASE("delta binary packed: zero and one values") {
  for (size_t count : {0u, 1u}) {
    std::vector<int64_t> values(count, -42);
    const std::string encoded = EncodeDelta(values);
    CHECK(DecodeDelta<int64_t>(encoded, count) == values);
    DeltaBinaryPackedDecoder<int64_t> decoder;
    decoder.SetData(Bytes(encoded), encoded.size(), count);
    int64_t out[2];
    CHECK(decoder.Decode(out, 2) == count);
    CHECK(decoder.BytesConsumed() == encoded.size());
  }
  DeltaBinaryPackedDecoder<int32_t> empty;
  empty.SetData(nullptr, 0, 0);
  int32_t out;
  CHECK(empty.Decode(&out, 1) == 0);
  CHECK(empty.Skip(1) == 0);
}

TEST_CASE_TEMPLATE("delta binary packed: every bit width round-trips", T, int32_t, int64_t) {
  using U = std::make_unsigned_t<T>;
  constexpr int kBits = int(sizeof(T) * 8);
  std::mt19937_64 rng(7);
  for (int width = 0; width <= kBits; ++width) {
    // Deltas 0 and 2^width - 1 in every miniblock make the width exactly `width`; with the
    // full width, T's min and max deltas do (their difference wraps to all ones).
    const size_t count = 1 + 128 + 77;
    std::vector<T> values(count);
    U value = U(rng());
    values[0] = T(value);
    const U mask = width == 0 ? 0 : (width >= kBits ? U(~U(0)) : U((U(1) << width) - 1));
    for (size_t i = 1; i < count; ++i) {
      const size_t j = (i - 1) % 32;
      U delta;
      if (width == kBits) {
        delta = j == 0 ? U(std::numeric_limits<T>::min())
                       : j == 1 ? U(std::numeric_limits<T>::max()) : U(rng());
      } else {
        delta = j == 0 ? 0 : j == 1 ? mask : U(rng()) & mask;
      }
      value += delta;
      values[i] = T(value);
    }
    const std::string encoded = EncodeDelta(values);
    // The first block's four bit widths follow the four header fields and the min delta.
    size_t pos = 0;
    auto skip_uleb = [&] { while (uint8_t(encoded[pos++]) & 0x80) {} };
    for (int field = 0; field < 5; ++field) skip_uleb();  // 4 header fields + min delta
    for (int m = 0; m < 4; ++m) CHECK(int(uint8_t(encoded[pos + m])) == width);

    CHECK(DecodeDelta<T>(encoded, count) == values);
    CHECK(DecodeDelta<T>(encoded, count, 1) == values);
    CHECK(DecodeDelta<T>(encoded, count, 33) == values);
  }
}

template <typename T>
std::vector<T> RandomMix(std::mt19937_64& rng, size_t count) {
  constexpr T kMin = std::numeric_limits<T>::min();
  constexpr T kMax = std::numeric_limits<T>::max();
  std::vector<T> values(count);
  for (size_t i = 0; i < count; ++i) {
    switch ((i / 50) % 5) {
      case 0: values[i] = T(rng()); break;                                  // full range
      case 1: values[i] = (i % 2) ? kMin : kMax; break;                     // extreme jumps
      case 2: values[i] = T(1000 + i * 3); break;                           // constant delta
      case 3: values[i] = T(int64_t(rng() % 200) - 100); break;             // small
      default: values[i] = (rng() % 3 == 0) ? kMin : T(rng() % 4) + kMax - 3;  // near edges
    }
  }
  return values;
}

TEST_CASE_TEMPLATE("delta binary packed: random round trips with wrapping", T, int32_t,
                   int64_t) {
  std::mt19937_64 rng(12345);
  for (size_t count : {2u, 3u, 31u, 32u, 33u, 64u, 65u, 127u, 128u, 129u, 130u, 255u, 257u,
                       1000u, 4097u}) {
    const std::vector<T> values = RandomMix<T>(rng, count);
    const std::string encoded = EncodeDelta(values);
    CHECK(DecodeDelta<T>(encoded, count) == values);
    CHECK(DecodeDelta<T>(encoded, count, 7) == values);

    // Where the stream ends, with other bytes after it.
    const std::string with_tail = encoded + "trailing bytes";
    DeltaBinaryPackedDecoder<T> decoder;
    decoder.SetData(Bytes(with_tail), with_tail.size(), count);
    std::vector<T> out(count);
    CHECK_THROWS_AS(decoder.BytesConsumed(), ParquetError);  // not decoded yet
    CHECK(decoder.Decode(out.data(), count) == count);
    CHECK(decoder.BytesConsumed() == encoded.size());
  }
}

TEST_CASE("delta binary packed: INT32 and INT64 extremes") {
  const std::vector<int64_t> values = {
      std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(), 0, -1,
      std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min(), 1};
  CHECK(DecodeDelta<int64_t>(EncodeDelta(values), values.size()) == values);
  const std::vector<int32_t> values32 = {
      std::numeric_limits<int32_t>::max(), std::numeric_limits<int32_t>::min(),
      std::numeric_limits<int32_t>::max(), 0, std::numeric_limits<int32_t>::min()};
  CHECK(DecodeDelta<int32_t>(EncodeDelta(values32), values32.size()) == values32);
}

TEST_CASE_TEMPLATE("delta binary packed: skip then decode equals the tail", T, int32_t,
                   int64_t) {
  std::mt19937_64 rng(99);
  std::vector<T> values = RandomMix<T>(rng, 700);
  // A long constant run: miniblocks of bit width 0, which Skip jumps over whole.
  for (size_t i = 300; i < 560; ++i) values[i] = T(5);
  const std::string encoded = EncodeDelta(values);
  for (size_t skip : {0u, 1u, 2u, 31u, 32u, 33u, 64u, 100u, 128u, 129u, 300u, 333u, 560u, 699u,
                      700u, 5000u}) {
    DeltaBinaryPackedDecoder<T> decoder;
    decoder.SetData(Bytes(encoded), encoded.size(), values.size());
    const size_t expected_skipped = std::min<size_t>(skip, values.size());
    CHECK(decoder.Skip(skip) == expected_skipped);
    std::vector<T> tail(values.size() - expected_skipped);
    CHECK(decoder.Decode(tail.data(), tail.size() + 10) == tail.size());
    CHECK(tail == std::vector<T>(values.begin() + long(expected_skipped), values.end()));
    CHECK(decoder.BytesConsumed() == encoded.size());
  }
  // Interleaved skips and decodes of random sizes.
  DeltaBinaryPackedDecoder<T> decoder;
  decoder.SetData(Bytes(encoded), encoded.size(), values.size());
  size_t position = 0;
  while (position < values.size()) {
    const size_t n = rng() % 70;
    if (rng() % 2) {
      position += decoder.Skip(n);
    } else {
      std::vector<T> out(n);
      const size_t got = decoder.Decode(out.data(), n);
      for (size_t i = 0; i < got; ++i) REQUIRE(out[i] == values[position + i]);
      position += got;
    }
  }
  CHECK(position == values.size());
}

TEST_CASE_TEMPLATE("delta binary packed: truncation at every length is an error", T, int32_t,
                   int64_t) {
  std::mt19937_64 rng(3);
  // 1 + 96 + 128 values: both blocks end on a group boundary, so every byte matters.
  std::vector<T> values(1 + 128 + 96);
  for (auto& v : values) v = T(rng());
  const std::string encoded = EncodeDelta(values);
  for (size_t length = 0; length < encoded.size(); ++length) {
    const std::string cut = encoded.substr(0, length);
    CAPTURE(length);
    CHECK_THROWS_AS(DecodeDelta<T>(cut, values.size()), ParquetError);
    CHECK_THROWS_AS(
        {
          DeltaBinaryPackedDecoder<T> decoder;
          decoder.SetData(Bytes(cut), cut.size(), values.size());
          decoder.Skip(values.size());
        },
        ParquetError);
  }
}

TEST_CASE("delta binary packed: the last miniblock's padding may be missing") {
  const std::vector<int32_t> values = {7, 5, 3, 1, 2, 3, 4, 5};
  const std::string encoded = EncodeDelta(values);
  // 10 bytes of header and block header, then 2 bytes hold the 7 deltas at 2 bits.
  const std::string cut = encoded.substr(0, 12);
  CHECK(DecodeDelta<int32_t>(cut, 8) == values);
  CHECK_THROWS_AS(DecodeDelta<int32_t>(encoded.substr(0, 11), 8), ParquetError);
}

TEST_CASE("delta binary packed: bit widths of unused miniblocks are ignored") {
  std::string encoded = EncodeDelta(std::vector<int32_t>{7, 5, 3, 1, 2, 3, 4, 5});
  // Bytes 6..9 are the four bit widths; only the first miniblock holds values.
  encoded[7] = char(0xFF);
  encoded[8] = char(33);
  encoded[9] = char(200);
  CHECK(DecodeDelta<int32_t>(encoded, 8) == std::vector<int32_t>{7, 5, 3, 1, 2, 3, 4, 5});
}

TEST_CASE("delta binary packed: bit widths beyond the physical type are rejected") {
  std::string encoded = EncodeDelta(std::vector<int32_t>{7, 5, 3, 1, 2, 3, 4, 5});
  encoded.append(300, '\0');
  encoded[6] = char(33);
  CHECK_THROWS_AS(DecodeDelta<int32_t>(encoded, 8), ParquetError);
  CHECK(DecodeDelta<int64_t>(encoded, 8).size() == 8);  // 33 bits is fine for INT64
  encoded[6] = char(65);
  CHECK_THROWS_AS(DecodeDelta<int64_t>(encoded, 8), ParquetError);
}

TEST_CASE("delta binary packed: decoding fewer values than the header holds") {
  const std::vector<int64_t> values = {10, 20, 30, 40, 50, 60};
  const std::string encoded = EncodeDelta(values);
  DeltaBinaryPackedDecoder<int64_t> decoder;
  decoder.SetData(Bytes(encoded), encoded.size(), 4);
  std::vector<int64_t> out(6);
  CHECK(decoder.Decode(out.data(), 6) == 4);
  CHECK(std::vector<int64_t>(out.begin(), out.begin() + 4) ==
        std::vector<int64_t>{10, 20, 30, 40});
}

TEST_CASE("delta binary packed: the encoder starts over after Finish") {
  DeltaBinaryPackedEncoder<int32_t> encoder;
  const int32_t first[] = {1, 2, 3};
  encoder.Put(first, 3);
  CHECK(encoder.ValueCount() == 3);
  std::string page1;
  encoder.Finish(page1);
  CHECK(encoder.ValueCount() == 0);
  const int32_t second[] = {100, 50};
  encoder.Put(second, 1);
  encoder.Put(second + 1, 1);
  std::string page2;
  encoder.Finish(page2);
  CHECK(DecodeDelta<int32_t>(page1, 3) == std::vector<int32_t>{1, 2, 3});
  CHECK(DecodeDelta<int32_t>(page2, 2) == std::vector<int32_t>{100, 50});
}

}  // namespace
}  // namespace parquet

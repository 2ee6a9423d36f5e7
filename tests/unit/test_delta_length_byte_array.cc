// Unit tests of DELTA_LENGTH_BYTE_ARRAY (format/encoding/delta_length_byte_array.h): the
// Encodings.md example, round trips, skipping, and malformed lengths or truncated data.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "format/encoding/delta_binary_packed.h"
#include "format/encoding/delta_length_byte_array.h"
#include "format/common/error.h"

namespace parquet {
namespace {

const uint8_t* Bytes(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

ByteArray View(const std::string& s) { return ByteArray{Bytes(s), uint32_t(s.size())}; }

std::string EncodeStrings(const std::vector<std::string>& strings) {
  std::vector<ByteArray> views;
  for (const auto& s : strings) views.push_back(View(s));
  DeltaLengthByteArrayEncoder encoder;
  encoder.Put(views.data(), views.size());
  CHECK(encoder.ValueCount() == strings.size());
  std::string out;
  encoder.Finish(out);
  return out;
}

std::string EncodeLengths(const std::vector<int32_t>& lengths) {
  DeltaBinaryPackedEncoder<int32_t> encoder;
  encoder.Put(lengths.data(), lengths.size());
  std::string out;
  encoder.Finish(out);
  return out;
}

std::vector<std::string> DecodeStrings(const std::string& data, size_t count, size_t batch = 100) {
  DeltaLengthByteArrayDecoder decoder;
  decoder.SetData(Bytes(data), data.size(), count);
  std::vector<std::string> out;
  std::vector<ByteArray> views(batch);
  while (true) {
    const size_t got = decoder.Decode(views.data(), batch);
    if (got == 0) break;
    for (size_t i = 0; i < got; ++i) out.emplace_back(views[i].view());
  }
  return out;
}

std::string FromBytes(std::initializer_list<int> bytes) {
  std::string s;
  for (int b : bytes) s.push_back(char(uint8_t(b)));
  return s;
}

std::vector<std::string> RandomStrings(std::mt19937_64& rng, size_t count) {
  std::vector<std::string> strings(count);
  for (auto& s : strings) {
    const size_t length = rng() % 4 == 0 ? 0 : rng() % 5 == 0 ? 200 + rng() % 2000 : rng() % 20;
    for (size_t i = 0; i < length; ++i) s.push_back(char(rng()));
  }
  return strings;
}

TEST_CASE("delta length byte array: Encodings.md example (Hello World Foobar ABCDEF)") {
  const std::vector<std::string> strings = {"Hello", "World", "Foobar", "ABCDEF"};
  const std::string encoded = EncodeStrings(strings);
  // Lengths 5 5 6 6: header 128/4/4 values/first zigzag(5) = 10; deltas 0 1 0, min 0,
  // bit widths 1 0 0 0, one 32-value miniblock of 1 bit: 0b010 -> 02 00 00 00.
  const std::string lengths =
      FromBytes({0x80, 0x01, 0x04, 0x04, 0x0A, 0x00, 0x01, 0, 0, 0, 0x02, 0, 0, 0});
  CHECK(encoded == lengths + "HelloWorldFoobarABCDEF");
  CHECK(encoded == EncodeLengths({5, 5, 6, 6}) + "HelloWorldFoobarABCDEF");
  CHECK(DecodeStrings(encoded, 4) == strings);
  CHECK(DecodeStrings(encoded, 4, 1) == strings);
}

TEST_CASE("delta length byte array: values are views into the page") {
  const std::string encoded = EncodeStrings({"ab", "", "cde"});
  DeltaLengthByteArrayDecoder decoder;
  decoder.SetData(Bytes(encoded), encoded.size(), 3);
  ByteArray out[3];
  CHECK(decoder.Decode(out, 5) == 3);
  CHECK(out[0].view() == "ab");
  CHECK(out[1].len == 0);
  CHECK(out[2].view() == "cde");
  CHECK(out[0].ptr == Bytes(encoded) + encoded.size() - 5);
  CHECK(out[2].ptr == Bytes(encoded) + encoded.size() - 3);
  CHECK(decoder.Decode(out, 1) == 0);
  CHECK(decoder.Skip(1) == 0);
}

TEST_CASE("delta length byte array: random round trips, skip then decode") {
  std::mt19937_64 rng(17);
  for (size_t count : {0u, 1u, 2u, 31u, 32u, 33u, 129u, 1000u}) {
    const std::vector<std::string> strings = RandomStrings(rng, count);
    const std::string encoded = EncodeStrings(strings);
    CHECK(DecodeStrings(encoded, count) == strings);
    CHECK(DecodeStrings(encoded, count, 3) == strings);
    for (size_t skip : {0u, 1u, 5u, 64u, 500u, 1000u}) {
      if (skip > count) continue;
      DeltaLengthByteArrayDecoder decoder;
      decoder.SetData(Bytes(encoded), encoded.size(), count);
      CHECK(decoder.Skip(skip) == skip);
      std::vector<ByteArray> views(count - skip + 1);
      CHECK(decoder.Decode(views.data(), views.size()) == count - skip);
      for (size_t i = 0; i < count - skip; ++i) REQUIRE(views[i].view() == strings[skip + i]);
    }
  }
}

TEST_CASE("delta length byte array: trailing bytes after the values are ignored") {
  const std::string encoded = EncodeStrings({"x", "yz"}) + "junk";
  CHECK(DecodeStrings(encoded, 2) == std::vector<std::string>{"x", "yz"});
}

TEST_CASE("delta length byte array: the caller's count is an upper bound") {
  DeltaLengthByteArrayDecoder decoder;
  const std::string data = EncodeLengths({1, 1, 1}) + "abc";
  decoder.SetData(Bytes(data), data.size(), 4);  // 4 slots, one of them null
  std::vector<ByteArray> out(4);
  CHECK(decoder.Decode(out.data(), 4) == 3);
  CHECK(decoder.ValueCount() == 3);
}

TEST_CASE("delta length byte array: malformed lengths") {
  DeltaLengthByteArrayDecoder decoder;
  auto rejects = [&](const std::string& data, size_t count) {
    CHECK_THROWS_AS(decoder.SetData(Bytes(data), data.size(), count), ParquetError);
  };
  rejects(EncodeLengths({3, -1, 2}) + "abcd", 3);        // negative length
  rejects(EncodeLengths({3, 4}) + "abcdef", 2);          // 7 bytes promised, 6 present
  rejects(EncodeLengths({2147483647, 2147483647, 2147483647}) + "abc", 3);  // huge sum
  rejects(EncodeLengths({1, 1, 1}) + "abc", 2);          // more lengths than values
}

TEST_CASE("delta length byte array: truncation at every length is an error") {
  std::mt19937_64 rng(5);
  std::vector<std::string> strings(150);
  for (auto& s : strings) {
    s = std::string(1 + rng() % 12, '!');  // no empty strings: every byte of data matters
  }
  const std::string encoded = EncodeStrings(strings);
  for (size_t length = 0; length < encoded.size(); ++length) {
    CAPTURE(length);
    CHECK_THROWS_AS(DecodeStrings(encoded.substr(0, length), strings.size()), ParquetError);
  }
}

}  // namespace
}  // namespace parquet

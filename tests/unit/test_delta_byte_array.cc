// Unit tests of DELTA_BYTE_ARRAY (format/encoding/delta_byte_array.h): the Encodings.md
// example, round trips for BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY, skipping (which must keep
// the previous value), malformed prefixes, truncation, and large shared prefixes.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "format/encoding/delta_binary_packed.h"
#include "format/encoding/delta_byte_array.h"
#include "format/encoding/delta_length_byte_array.h"
#include "format/common/error.h"

namespace parquet {
namespace {

const uint8_t* Bytes(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

ByteArray View(const std::string& s) { return ByteArray{Bytes(s), uint32_t(s.size())}; }

std::string EncodeStrings(const std::vector<std::string>& strings) {
  std::vector<ByteArray> views;
  for (const auto& s : strings) views.push_back(View(s));
  DeltaByteArrayEncoder encoder;
  encoder.Put(views.data(), views.size());
  CHECK(encoder.ValueCount() == strings.size());
  std::string out;
  encoder.Finish(out);
  return out;
}

std::string EncodeInts(const std::vector<int32_t>& values) {
  DeltaBinaryPackedEncoder<int32_t> encoder;
  encoder.Put(values.data(), values.size());
  std::string out;
  encoder.Finish(out);
  return out;
}

// A hand-made stream: the given prefix lengths, then the given suffixes.
std::string MakeStream(const std::vector<int32_t>& prefixes,
                       const std::vector<std::string>& suffixes) {
  std::vector<int32_t> lengths;
  std::string bytes;
  for (const auto& s : suffixes) {
    lengths.push_back(int32_t(s.size()));
    bytes += s;
  }
  return EncodeInts(prefixes) + EncodeInts(lengths) + bytes;
}

std::vector<std::string> DecodeStrings(DeltaByteArrayDecoder& decoder, const std::string& data,
                                       size_t count, size_t batch = 100) {
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

std::vector<std::string> DecodeStrings(const std::string& data, size_t count, size_t batch = 100) {
  DeltaByteArrayDecoder decoder;
  return DecodeStrings(decoder, data, count, batch);
}

// Sorted strings from a small alphabet share long prefixes; some repeat, some are empty.
std::vector<std::string> RandomSortedStrings(std::mt19937_64& rng, size_t count) {
  std::vector<std::string> strings(count);
  for (auto& s : strings) {
    const size_t length = rng() % 10 == 0 ? 0 : 1 + rng() % 30;
    for (size_t i = 0; i < length; ++i) s.push_back(char('a' + rng() % 3));
    if (rng() % 20 == 0) s.assign(300, 'q');  // long repeated values
  }
  std::sort(strings.begin(), strings.end());
  // Also some unsorted stretches, where prefixes are short or zero.
  std::shuffle(strings.begin() + long(count / 2), strings.begin() + long(count * 3 / 4), rng);
  return strings;
}

TEST_CASE("delta byte array: Encodings.md example (axis axle babble babyhood)") {
  const std::vector<std::string> strings = {"axis", "axle", "babble", "babyhood"};
  const std::string encoded = EncodeStrings(strings);
  CHECK(encoded == EncodeInts({0, 2, 0, 3}) + EncodeInts({4, 2, 6, 5}) + "axislebabbleyhood");
  CHECK(DecodeStrings(encoded, 4) == strings);
  CHECK(DecodeStrings(encoded, 4, 1) == strings);
  CHECK(DecodeStrings(encoded, 4, 3) == strings);
}

TEST_CASE("delta byte array: random round trips in batches of every size") {
  std::mt19937_64 rng(23);
  for (size_t count : {0u, 1u, 2u, 33u, 200u, 2500u}) {
    const std::vector<std::string> strings = RandomSortedStrings(rng, count);
    const std::string encoded = EncodeStrings(strings);
    for (size_t batch : {1u, 2u, 7u, 100u, 5000u}) {
      CHECK(DecodeStrings(encoded, count, batch) == strings);
    }
  }
}

TEST_CASE("delta byte array: skip then decode equals the tail") {
  std::mt19937_64 rng(29);
  const std::vector<std::string> strings = RandomSortedStrings(rng, 3000);
  const std::string encoded = EncodeStrings(strings);
  for (size_t skip : {0u, 1u, 2u, 100u, 1023u, 1024u, 1025u, 2999u, 3000u}) {
    DeltaByteArrayDecoder decoder;
    decoder.SetData(Bytes(encoded), encoded.size(), strings.size());
    CHECK(decoder.Skip(skip) == skip);
    std::vector<ByteArray> views(strings.size());
    CHECK(decoder.Decode(views.data(), views.size()) == strings.size() - skip);
    for (size_t i = 0; i + skip < strings.size(); ++i) {
      REQUIRE(views[i].view() == strings[skip + i]);
    }
  }
  // Interleaved, with each batch checked before the next call invalidates it.
  DeltaByteArrayDecoder decoder;
  decoder.SetData(Bytes(encoded), encoded.size(), strings.size());
  size_t position = 0;
  while (position < strings.size()) {
    const size_t n = rng() % 50;
    if (rng() % 3 == 0) {
      position += decoder.Skip(n);
    } else {
      std::vector<ByteArray> views(n);
      const size_t got = decoder.Decode(views.data(), n);
      for (size_t i = 0; i < got; ++i) REQUIRE(views[i].view() == strings[position + i]);
      position += got;
    }
  }
  CHECK(position == strings.size());
}

TEST_CASE("delta byte array: FIXED_LEN_BYTE_ARRAY") {
  std::mt19937_64 rng(31);
  std::vector<std::string> values(500);
  for (auto& v : values) {
    v = std::string(16, '\0');  // like DECIMAL as FLBA(16): mostly leading zeros
    for (size_t i = 12; i < 16; ++i) v[i] = char(rng());
  }
  const std::string encoded = EncodeStrings(values);
  DeltaByteArrayDecoder fixed(16);
  CHECK(DecodeStrings(fixed, encoded, values.size(), 64) == values);
  DeltaByteArrayDecoder wrong_length(15);
  CHECK_THROWS_AS(DecodeStrings(wrong_length, encoded, values.size()), ParquetError);
  DeltaByteArrayDecoder wrong_length_skip(15);
  wrong_length_skip.SetData(Bytes(encoded), encoded.size(), values.size());
  CHECK_THROWS_AS(wrong_length_skip.Skip(1), ParquetError);
}

TEST_CASE("delta byte array: malformed prefixes") {
  // The first value has nothing to share a prefix with.
  CHECK_THROWS_AS(DecodeStrings(MakeStream({1, 0}, {"ab", "c"}), 2), ParquetError);
  // A prefix longer than the previous value, in Decode and in Skip.
  const std::string too_long = MakeStream({0, 3}, {"ab", "c"});
  CHECK_THROWS_AS(DecodeStrings(too_long, 2), ParquetError);
  CHECK_THROWS_AS(DecodeStrings(too_long, 2, 1), ParquetError);
  DeltaByteArrayDecoder decoder;
  decoder.SetData(Bytes(too_long), too_long.size(), 2);
  CHECK_THROWS_AS(decoder.Skip(2), ParquetError);
  // Negative prefix lengths are rejected when the page is set.
  const std::string negative = MakeStream({0, -1}, {"ab", "c"});
  CHECK_THROWS_AS(decoder.SetData(Bytes(negative), negative.size(), 2), ParquetError);
  // Prefix and suffix counts that disagree with the page's value count.
  const std::string three = MakeStream({0, 1, 1}, {"ab", "c", "d"});
  CHECK_THROWS_AS(decoder.SetData(Bytes(three), three.size(), 2), ParquetError);
  decoder.SetData(Bytes(three), three.size(), 4);  // an upper bound: 3 values
  std::vector<ByteArray> views(4);
  CHECK(decoder.Decode(views.data(), 4) == 3);
  const std::string short_suffixes = EncodeInts({0, 1, 1}) + EncodeInts({2, 1}) + "abc";
  CHECK_THROWS_AS(decoder.SetData(Bytes(short_suffixes), short_suffixes.size(), 3),
                  ParquetError);
  // The well-formed variant decodes.
  CHECK(DecodeStrings(three, 3) == std::vector<std::string>{"ab", "ac", "ad"});
}

TEST_CASE("delta byte array: truncation at every length is an error") {
  std::mt19937_64 rng(37);
  std::vector<std::string> strings = RandomSortedStrings(rng, 150);
  for (auto& s : strings) s += "!";  // every suffix non-empty: every data byte matters
  const std::string encoded = EncodeStrings(strings);
  for (size_t length = 0; length < encoded.size(); ++length) {
    CAPTURE(length);
    CHECK_THROWS_AS(DecodeStrings(encoded.substr(0, length), strings.size()), ParquetError);
  }
}

TEST_CASE("delta byte array: repeated long values share bytes instead of copying") {
  // 10,000 copies of a 100 KB value: 1 GB decoded, from a page of about 100 KB.
  const size_t count = 10000;
  const std::string big(100000, 'z');
  std::vector<int32_t> prefixes(count, int32_t(big.size())), suffix_lengths(count, 0);
  prefixes[0] = 0;
  suffix_lengths[0] = int32_t(big.size());
  const std::string encoded = EncodeInts(prefixes) + EncodeInts(suffix_lengths) + big;
  CHECK(encoded.size() < big.size() + 2000);
  DeltaByteArrayDecoder decoder;
  decoder.SetData(Bytes(encoded), encoded.size(), count);
  std::vector<ByteArray> views(count);
  CHECK(decoder.Decode(views.data(), views.size()) == count);
  for (const auto& v : views) {
    REQUIRE(v.len == big.size());
    REQUIRE(v.ptr == views[0].ptr);
  }
  CHECK(views.back().view() == big);
  // The encoder produces the same stream.
  const std::vector<std::string> few(3, big);
  CHECK(EncodeStrings(few) == EncodeInts({0, 100000, 100000}) + EncodeInts({100000, 0, 0}) + big);
}

TEST_CASE("delta byte array: a batch needing too many assembled bytes is refused") {
  // Value i is value i-1 plus one byte: 50,000 values need 1.25 GB in one batch.
  const size_t count = 50000;
  std::vector<int32_t> prefixes(count), suffix_lengths(count, 1);
  for (size_t i = 0; i < count; ++i) prefixes[i] = int32_t(i);
  const std::string encoded =
      EncodeInts(prefixes) + EncodeInts(suffix_lengths) + std::string(count, 'x');
  DeltaByteArrayDecoder decoder;
  decoder.SetData(Bytes(encoded), encoded.size(), count);
  std::vector<ByteArray> views(count);
  CHECK_THROWS_AS(decoder.Decode(views.data(), count), ParquetError);
  // Smaller batches work.
  decoder.SetData(Bytes(encoded), encoded.size(), count);
  CHECK(decoder.Decode(views.data(), 100) == 100);
  CHECK(views[99].view() == std::string(100, 'x'));
  CHECK(decoder.Skip(40000) == 40000);
  CHECK(decoder.Decode(views.data(), 1) == 1);
  CHECK(views[0].view() == std::string(40101, 'x'));
}

}  // namespace
}  // namespace parquet

// Tests for dictionary encoding (format/encoding/dictionary.h): hand-built index pages,
// out-of-range indices in RLE and bit-packed runs, round trips through the encoder for
// each physical type, DecodeIndices, Skip, truncation and bad headers.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "format/encoding/bit_packing.h"
#include "format/encoding/dictionary.h"
#include "format/encoding/plain.h"
#include "format/encoding/rle_bit_packed_hybrid.h"
#include "format/common/error.h"

using namespace parquet;

namespace {

std::vector<uint8_t> Bytes(const std::string& s) { return {s.begin(), s.end()}; }

ByteArray View(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), static_cast<uint32_t>(s.size())};
}

// A data page: the bit-width byte, then the given indices as hybrid runs.
std::vector<uint8_t> IndexPage(int width, const std::vector<uint32_t>& indices) {
  std::string page(1, static_cast<char>(width));
  RleBitPackedEncoder encoder(width);
  encoder.Put(indices.data(), indices.size());
  encoder.Flush(&page);
  return Bytes(page);
}

std::vector<int32_t> TwelveValues() {
  std::vector<int32_t> dictionary;
  for (int i = 0; i < 12; ++i) dictionary.push_back(100 + i);
  return dictionary;
}

}  // namespace

TEST_CASE("dictionary: a hand-built page of byte arrays") {
  const std::vector<std::string> words = {"zero", "one", "two"};
  const std::vector<ByteArray> dictionary = {View(words[0]), View(words[1]), View(words[2])};
  // width 2; RLE run of 3 x index 1; bit-packed group 0,1,2,0,1,2,0,0 (2 bits each).
  const std::vector<uint8_t> page = {0x02, 0x06, 0x01, 0x03, 0x24, 0x09};
  DictionaryDecoder<ByteArray> decoder;
  decoder.SetDictionary(dictionary.data(), dictionary.size());
  decoder.SetData(page.data(), page.size(), 10);
  ByteArray out[10];
  REQUIRE(decoder.Decode(out, 10) == 10);
  const char* expected[10] = {"one", "one", "one", "zero", "one", "two", "zero", "one", "two", "zero"};
  for (int i = 0; i < 10; ++i) CHECK(out[i].view() == expected[i]);
  CHECK(out[0].ptr == reinterpret_cast<const uint8_t*>(words[1].data()));  // no copies
  CHECK(decoder.Decode(out, 1) == 0);
}

TEST_CASE("dictionary: out-of-range indices are errors, in RLE and in bit-packed runs") {
  const std::vector<int32_t> dictionary = TwelveValues();
  DictionaryDecoder<int32_t> decoder;
  decoder.SetDictionary(dictionary.data(), dictionary.size());
  int32_t out[20];
  const char* message = "dictionary index 70 out of range for a dictionary of 12 values";

  SUBCASE("RLE run") {
    const std::vector<uint8_t> page = IndexPage(7, std::vector<uint32_t>(20, 70));
    decoder.SetData(page.data(), page.size(), 20);
    CHECK_THROWS_WITH_AS(decoder.Decode(out, 20), message, ParquetError);
  }
  SUBCASE("bit-packed run") {
    std::vector<uint32_t> indices = {1, 2, 3, 70, 4, 5, 6, 7, 8, 9, 10, 11};
    const std::vector<uint8_t> page = IndexPage(7, indices);
    decoder.SetData(page.data(), page.size(), indices.size());
    CHECK_THROWS_WITH_AS(decoder.Decode(out, 12), message, ParquetError);
  }
  SUBCASE("DecodeIndices") {
    const std::vector<uint8_t> page = IndexPage(7, {0, 11, 12});
    decoder.SetData(page.data(), page.size(), 3);
    uint32_t indices[3];
    CHECK_THROWS_WITH_AS(decoder.DecodeIndices(indices, 3),
                         "dictionary index 12 out of range for a dictionary of 12 values",
                         ParquetError);
  }
  SUBCASE("empty dictionary") {
    DictionaryDecoder<int32_t> empty;
    const std::vector<uint8_t> page = IndexPage(0, {0, 0});
    empty.SetData(page.data(), page.size(), 2);
    CHECK_THROWS_AS(empty.Decode(out, 2), ParquetError);
  }
}

// CheckIndexBatch checks four indices at a time, then the rest one by one: an index out of
// range is found in every lane and in the tail, whatever the batch length, and named as the
// largest of the batch; indices just below the dictionary's size pass.
TEST_CASE("dictionary: an out-of-range index is found at every position of a bit-packed batch") {
  const std::vector<int32_t> dictionary = TwelveValues();
  for (size_t count : {1u, 3u, 4u, 5u, 8u, 13u, 31u}) {
    for (size_t bad = 0; bad <= count; ++bad) {  // bad == count: none out of range
      CAPTURE(count);
      CAPTURE(bad);
      std::vector<uint32_t> indices(count);
      for (size_t i = 0; i < count; ++i) indices[i] = static_cast<uint32_t>((i * 7) % 12);
      if (bad < count) indices[bad] = 12 + static_cast<uint32_t>(bad);
      // Distinct neighbours, so that the encoder writes one bit-packed run.
      const std::vector<uint8_t> page = IndexPage(6, indices);
      DictionaryDecoder<int32_t> decoder;
      decoder.SetDictionary(dictionary.data(), dictionary.size());
      decoder.SetData(page.data(), page.size(), count);
      std::vector<int32_t> out(count);
      if (bad < count) {
        const std::string message = "dictionary index " + std::to_string(12 + bad) +
                                    " out of range for a dictionary of 12 values";
        CHECK_THROWS_WITH_AS(decoder.Decode(out.data(), count), message.c_str(), ParquetError);
      } else {
        REQUIRE(decoder.Decode(out.data(), count) == count);
        for (size_t i = 0; i < count; ++i) CHECK(out[i] == dictionary[indices[i]]);
      }
    }
  }
}

TEST_CASE("dictionary: bad bit width byte, missing data and truncation at every length") {
  const std::vector<int32_t> dictionary = TwelveValues();
  DictionaryDecoder<int32_t> decoder;
  decoder.SetDictionary(dictionary.data(), dictionary.size());
  const std::vector<uint8_t> wide = {33, 0x02, 0x00};
  CHECK_THROWS_AS(decoder.SetData(wide.data(), wide.size(), 1), ParquetError);
  CHECK_THROWS_AS(decoder.SetData(wide.data(), 0, 1), ParquetError);
  decoder.SetData(wide.data(), 0, 0);  // no values, no bytes: fine
  int32_t one;
  CHECK(decoder.Decode(&one, 1) == 0);

  // 96 indices with no repeats: every byte of the page is needed.
  std::vector<uint32_t> indices(96);
  for (size_t i = 0; i < indices.size(); ++i) indices[i] = static_cast<uint32_t>((i * 5 + i / 12) % 12);
  const std::vector<uint8_t> page = IndexPage(4, indices);
  std::vector<int32_t> out(indices.size());
  for (size_t length = 0; length < page.size(); ++length) {
    CAPTURE(length);
    const std::vector<uint8_t> prefix(page.begin(), page.begin() + static_cast<long>(length));
    CHECK_THROWS_AS(
        {
          decoder.SetData(prefix.data(), prefix.size(), indices.size());
          decoder.Decode(out.data(), out.size());
        },
        ParquetError);
    CHECK_THROWS_AS(
        {
          decoder.SetData(prefix.data(), prefix.size(), indices.size());
          decoder.Skip(indices.size());
        },
        ParquetError);
  }
  decoder.SetData(page.data(), page.size(), indices.size());
  REQUIRE(decoder.Decode(out.data(), out.size()) == out.size());
  for (size_t i = 0; i < indices.size(); ++i) CHECK(out[i] == 100 + static_cast<int32_t>(indices[i]));
}

TEST_CASE("dictionary: bit width 0 with a one-entry dictionary") {
  const double only = 2.5;
  DictionaryDecoder<double> decoder;
  decoder.SetDictionary(&only, 1);
  const std::vector<uint8_t> bare = {0x00};  // just the width byte, no runs
  decoder.SetData(bare.data(), bare.size(), 5);
  double out[5];
  REQUIRE(decoder.Decode(out, 5) == 5);
  for (double v : out) CHECK(v == 2.5);
  const std::vector<uint8_t> with_run = {0x00, 0x0A};  // RLE run of 5, no value bytes
  decoder.SetData(with_run.data(), with_run.size(), 5);
  REQUIRE(decoder.Decode(out, 5) == 5);
  CHECK(out[4] == 2.5);
}

TEST_CASE("dictionary: encoder and decoder round trip for int32 with Skip and DecodeIndices") {
  std::mt19937 rng(17);
  std::vector<int32_t> values(5000);
  for (size_t i = 0; i < values.size(); ++i) {
    values[i] = (i / 100) % 2 == 0 ? static_cast<int32_t>(rng() % 300) - 150 : 42;  // runs too
  }
  DictionaryEncoder<int32_t> encoder;
  encoder.Put(values.data(), values.size());
  CHECK(encoder.dictionary_size() <= 301);
  std::string dictionary_page;
  encoder.WriteDictionaryPage(&dictionary_page);
  CHECK(dictionary_page.size() == encoder.dictionary_page_bytes());
  std::string data_page;
  encoder.FlushIndices(&data_page);
  CHECK(static_cast<int>(data_page[0]) == MinimalBitWidth(encoder.dictionary_size() - 1));
  CHECK(encoder.buffered_indices() == 0);

  // Read the dictionary page back with the PLAIN decoder, as a reader would.
  std::vector<int32_t> dictionary(encoder.dictionary_size());
  PlainDecoder<int32_t> plain;
  plain.SetData(reinterpret_cast<const uint8_t*>(dictionary_page.data()), dictionary_page.size(),
                dictionary.size());
  REQUIRE(plain.Decode(dictionary.data(), dictionary.size()) == dictionary.size());

  const std::vector<uint8_t> page = Bytes(data_page);
  DictionaryDecoder<int32_t> decoder;
  decoder.SetDictionary(dictionary.data(), dictionary.size());
  decoder.SetData(page.data(), page.size(), values.size());
  std::vector<int32_t> out(values.size());
  size_t done = 0;
  while (done < values.size()) {
    const size_t batch = std::min<size_t>(values.size() - done, 1 + rng() % 1500);
    REQUIRE(decoder.Decode(out.data() + done, batch) == batch);
    done += batch;
  }
  CHECK(out == values);

  for (size_t skip : {0, 1, 7, 99, 100, 101, 2500, 4999, 5000}) {
    decoder.SetData(page.data(), page.size(), values.size());
    REQUIRE(decoder.Skip(skip) == skip);
    std::vector<int32_t> tail(values.size() - skip);
    REQUIRE(decoder.Decode(tail.data(), tail.size()) == tail.size());
    CHECK(std::equal(tail.begin(), tail.end(), values.begin() + static_cast<long>(skip)));
  }

  decoder.SetData(page.data(), page.size(), values.size());
  std::vector<uint32_t> indices(values.size());
  REQUIRE(decoder.DecodeIndices(indices.data(), indices.size()) == indices.size());
  for (size_t i = 0; i < values.size(); ++i) REQUIRE(dictionary[indices[i]] == values[i]);
  CHECK(decoder.values_left() == 0);
}

TEST_CASE("dictionary: doubles are keyed by their bits (NaN, -0.0 and +0.0)") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> values = {0.0, -0.0, nan, nan, 0.0, 1.0};
  DictionaryEncoder<double> encoder;
  encoder.Put(values.data(), values.size());
  CHECK(encoder.dictionary_size() == 4);
  std::string page;
  encoder.FlushIndices(&page);
  const std::vector<uint8_t> data = Bytes(page);
  DictionaryDecoder<double> decoder;
  decoder.SetDictionary(encoder.dictionary().data(), encoder.dictionary_size());
  decoder.SetData(data.data(), data.size(), values.size());
  double out[6];
  REQUIRE(decoder.Decode(out, 6) == 6);
  CHECK(out[0] == 0.0);
  CHECK_FALSE(std::signbit(out[0]));
  CHECK(std::signbit(out[1]));
  CHECK(std::isnan(out[2]));
  CHECK(std::isnan(out[3]));
  CHECK(out[5] == 1.0);
}

TEST_CASE("dictionary: byte arrays, fixed-length byte arrays and INT96 round trip") {
  std::vector<std::string> words;
  for (int i = 0; i < 40; ++i) words.push_back("word-" + std::to_string(i % 13) + std::string(i % 3 * 10, 'x'));
  std::vector<ByteArray> values;
  for (const auto& w : words) values.push_back(View(w));

  DictionaryEncoder<ByteArray> encoder;
  encoder.Put(values.data(), values.size());
  std::string dictionary_page;
  encoder.WriteDictionaryPage(&dictionary_page);
  CHECK(dictionary_page.size() == encoder.dictionary_page_bytes());
  std::string data_page;
  encoder.FlushIndices(&data_page);

  std::vector<ByteArray> dictionary(encoder.dictionary_size());
  PlainDecoder<ByteArray> plain;
  plain.SetData(reinterpret_cast<const uint8_t*>(dictionary_page.data()), dictionary_page.size(),
                dictionary.size());
  REQUIRE(plain.Decode(dictionary.data(), dictionary.size()) == dictionary.size());
  DictionaryDecoder<ByteArray> decoder;
  decoder.SetDictionary(dictionary.data(), dictionary.size());
  const std::vector<uint8_t> page = Bytes(data_page);
  decoder.SetData(page.data(), page.size(), values.size());
  std::vector<ByteArray> out(values.size());
  REQUIRE(decoder.Decode(out.data(), out.size()) == out.size());
  for (size_t i = 0; i < values.size(); ++i) CHECK(out[i] == values[i]);

  // FIXED_LEN_BYTE_ARRAY: no length prefixes in the dictionary page; lengths must match.
  const std::string a = "abcd", b = "wxyz", c = "abc";
  DictionaryEncoder<ByteArray> fixed(4);
  const ByteArray fixed_values[3] = {View(a), View(b), View(a)};
  fixed.Put(fixed_values, 3);
  std::string fixed_page;
  fixed.WriteDictionaryPage(&fixed_page);
  CHECK(fixed_page == "abcdwxyz");
  const ByteArray short_value = View(c);
  CHECK_THROWS_AS(fixed.Put(&short_value, 1), ParquetError);

  const std::vector<Int96> stamps = {Int96{{1, 2, 3}}, Int96{{4, 5, 6}}, Int96{{1, 2, 3}}};
  DictionaryEncoder<Int96> int96_encoder;
  int96_encoder.Put(stamps.data(), stamps.size());
  CHECK(int96_encoder.dictionary_size() == 2);
  std::string int96_page;
  int96_encoder.FlushIndices(&int96_page);
  const std::vector<uint8_t> int96_data = Bytes(int96_page);
  DictionaryDecoder<Int96> int96_decoder;
  int96_decoder.SetDictionary(int96_encoder.dictionary().data(), int96_encoder.dictionary_size());
  int96_decoder.SetData(int96_data.data(), int96_data.size(), 3);
  Int96 stamps_out[3];
  REQUIRE(int96_decoder.Decode(stamps_out, 3) == 3);
  CHECK(stamps_out[1].words[2] == 6);
  CHECK(stamps_out[2].words[0] == 1);
}

TEST_CASE("dictionary encoder: a single distinct value uses bit width 0") {
  DictionaryEncoder<int64_t> encoder;
  const std::vector<int64_t> values(20, 7);
  encoder.Put(values.data(), values.size());
  std::string page;
  encoder.FlushIndices(&page);
  CHECK(Bytes(page) == std::vector<uint8_t>{0x00, 0x28});  // width 0; RLE run of 20, no value bytes
}

TEST_CASE("dictionary encoder: buffered indices widen past 256 and 65536 entries, within a batch and across pages") {
  // Indices are buffered a byte each until the dictionary has 256 entries, then two bytes
  // until 65536, then four: each page must still read back whole.
  std::vector<int32_t> values;
  for (int32_t i = 0; i < 70000; ++i) {
    values.push_back(i);
    if (i % 3 == 0) values.push_back(i / 2);  // repeats of earlier entries
  }
  DictionaryEncoder<int32_t> encoder;
  encoder.set_page_index_hint(5000);
  std::vector<std::string> pages;
  std::vector<std::pair<size_t, size_t>> page_ranges;
  size_t page_start = 0;
  for (size_t first = 0; first < values.size(); first += 1000) {
    const size_t n = std::min<size_t>(1000, values.size() - first);
    encoder.Put(values.data() + first, n);
    if ((first / 1000) % 7 == 6 || first + n == values.size()) {  // a page every 7000 values
      CHECK(encoder.buffered_indices() == first + n - page_start);
      pages.emplace_back();
      encoder.FlushIndices(&pages.back());
      page_ranges.emplace_back(page_start, first + n);
      page_start = first + n;
    }
  }
  REQUIRE(encoder.dictionary_size() == 70000);
  DictionaryDecoder<int32_t> decoder;
  decoder.SetDictionary(encoder.dictionary().data(), encoder.dictionary_size());
  for (size_t p = 0; p < pages.size(); ++p) {
    const std::vector<uint8_t> page = Bytes(pages[p]);
    const size_t count = page_ranges[p].second - page_ranges[p].first;
    decoder.SetData(page.data(), page.size(), count);
    std::vector<uint32_t> indices(count);
    REQUIRE(decoder.DecodeIndices(indices.data(), count) == count);
    for (size_t i = 0; i < count; ++i) {
      REQUIRE(encoder.dictionary()[indices[i]] == values[page_ranges[p].first + i]);
    }
  }
}

TEST_CASE("dictionary encoder: many distinct values (table growth), empty and long byte arrays, first-seen order") {
  std::mt19937 rng(5);
  std::vector<std::string> storage;
  for (int i = 0; i < 20000; ++i) {
    // Distinct strings of 0..200000 bytes (one long), each put several times in random order.
    std::string s = i == 0 ? std::string() : i == 1 ? std::string(200000, 'L') : "v" + std::to_string(i) + std::string(i % 37, 'x');
    storage.push_back(std::move(s));
  }
  std::vector<size_t> order;
  for (size_t i = 0; i < storage.size(); ++i) order.push_back(i);
  for (size_t i = 0; i < 40000; ++i) order.push_back(rng() % storage.size());
  std::vector<ByteArray> values;
  for (size_t i : order) values.push_back(View(storage[i]));
  DictionaryEncoder<ByteArray> encoder;
  for (size_t first = 0; first < values.size(); first += 777) {
    encoder.Put(values.data() + first, std::min<size_t>(777, values.size() - first));
  }
  REQUIRE(encoder.dictionary_size() == storage.size());
  // Entries in the order first seen, holding the values' bytes.
  for (size_t i = 0; i < storage.size(); ++i) REQUIRE(encoder.dictionary()[i].view() == storage[i]);

  std::string data_page;
  encoder.FlushIndices(&data_page);
  const std::vector<uint8_t> page = Bytes(data_page);
  DictionaryDecoder<ByteArray> decoder;
  decoder.SetDictionary(encoder.dictionary().data(), encoder.dictionary_size());
  decoder.SetData(page.data(), page.size(), values.size());
  std::vector<uint32_t> indices(values.size());
  REQUIRE(decoder.DecodeIndices(indices.data(), indices.size()) == indices.size());
  for (size_t i = 0; i < values.size(); ++i) REQUIRE(indices[i] == order[i]);

  // int64 keys whose low bits collide.
  DictionaryEncoder<int64_t> ints;
  std::vector<int64_t> keys;
  for (int64_t i = 0; i < 5000; ++i) keys.push_back(i << 32);
  ints.Put(keys.data(), keys.size());
  ints.Put(keys.data(), keys.size());
  CHECK(ints.dictionary_size() == 5000);
  CHECK(ints.buffered_indices() == 10000);
}

// DecodeIndices into 1- and 2-byte indices: straight from runs as narrow as they are, or
// decoded wide and narrowed (a writer may use more bits than the dictionary needs); an
// index out of range is found at every position, in the 16-byte lanes and in the tail; a
// dictionary too large for the width is an error.
TEST_CASE("dictionary: DecodeIndices into narrow indices") {
  const std::vector<int32_t> dictionary = TwelveValues();
  DictionaryDecoder<int32_t> decoder;
  decoder.SetDictionary(dictionary.data(), dictionary.size());
  std::vector<uint32_t> indices;
  for (uint32_t i = 0; i < 53; ++i) indices.push_back((i * 5) % 12);
  for (int width : {4, 8, 12, 16}) {
    INFO("bit width " << width);
    const std::vector<uint8_t> page = IndexPage(width, indices);
    std::vector<uint8_t> bytes(indices.size());
    decoder.SetData(page.data(), page.size(), indices.size());
    REQUIRE(decoder.DecodeIndices(bytes.data(), 20) == 20);  // in two calls
    REQUIRE(decoder.DecodeIndices(bytes.data() + 20, bytes.size()) == indices.size() - 20);
    std::vector<uint16_t> shorts(indices.size());
    decoder.SetData(page.data(), page.size(), indices.size());
    REQUIRE(decoder.DecodeIndices(shorts.data(), shorts.size()) == indices.size());
    for (size_t i = 0; i < indices.size(); ++i) {
      CHECK(bytes[i] == indices[i]);
      CHECK(shorts[i] == indices[i]);
    }
  }
  for (size_t at = 0; at < indices.size(); ++at) {
    INFO("index 12 at " << at);
    std::vector<uint32_t> bad = indices;
    bad[at] = 12;
    for (int width : {4, 12}) {
      const std::vector<uint8_t> page = IndexPage(width, bad);
      std::vector<uint8_t> bytes(bad.size());
      decoder.SetData(page.data(), page.size(), bad.size());
      CHECK_THROWS_WITH_AS(decoder.DecodeIndices(bytes.data(), bytes.size()),
                           "dictionary index 12 out of range for a dictionary of 12 values", ParquetError);
    }
  }
  std::vector<int32_t> large(257);
  DictionaryDecoder<int32_t> wide;
  wide.SetDictionary(large.data(), large.size());
  const std::vector<uint8_t> page = IndexPage(9, {256, 3});
  wide.SetData(page.data(), page.size(), 2);
  uint8_t bytes[2];
  CHECK_THROWS_AS(wide.DecodeIndices(bytes, 2), ParquetError);
  uint16_t shorts[2];
  wide.SetData(page.data(), page.size(), 2);
  REQUIRE(wide.DecodeIndices(shorts, 2) == 2);
  CHECK(shorts[0] == 256);
  CHECK(shorts[1] == 3);
}

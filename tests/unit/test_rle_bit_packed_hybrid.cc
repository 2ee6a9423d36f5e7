// Tests for the LSB-first bit packing helpers and the RLE / bit-packing hybrid
// (format/encoding/bit_packing.h, format/encoding/rle_bit_packed_hybrid.h): the spec's
// worked examples, round trips at every bit width, Skip, truncation and malformed runs.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "format/encoding/bit_packing.h"
#include "format/encoding/rle_bit_packed_hybrid.h"
#include "format/common/error.h"

using namespace parquet;

namespace {

std::vector<uint8_t> Bytes(const std::string& s) { return {s.begin(), s.end()}; }

uint32_t MaxOfWidth(int width) {
  return width == 32 ? std::numeric_limits<uint32_t>::max() : (uint32_t{1} << width) - 1;
}

// Values with a mix of long runs, short runs and random stretches.
std::vector<uint32_t> RunnyValues(std::mt19937& rng, int width, size_t count) {
  std::vector<uint32_t> values;
  const uint32_t max = MaxOfWidth(width);
  std::uniform_int_distribution<uint32_t> any(0, max);
  while (values.size() < count) {
    const int kind = static_cast<int>(rng() % 3);
    const size_t length = std::min<size_t>(count - values.size(), 1 + rng() % (kind == 0 ? 40 : 20));
    if (kind == 0) {
      values.insert(values.end(), length, any(rng));
    } else {
      for (size_t i = 0; i < length; ++i) values.push_back(any(rng));
    }
  }
  return values;
}

std::string EncodeAll(int width, const std::vector<uint32_t>& values) {
  RleBitPackedEncoder encoder(width);
  encoder.Put(values.data(), values.size());
  std::string out;
  encoder.Flush(&out);
  return out;
}

// Decodes `count` values in batches of varying size.
std::vector<uint32_t> DecodeInBatches(const std::vector<uint8_t>& data, int width, size_t count,
                                      std::mt19937& rng) {
  RleBitPackedDecoder decoder(data.data(), data.size(), width);
  std::vector<uint32_t> out(count);
  size_t done = 0;
  while (done < count) {
    const size_t batch = std::min<size_t>(count - done, 1 + rng() % 37);
    const size_t got = decoder.Decode(out.data() + done, batch);
    REQUIRE(got == batch);
    done += got;
  }
  return out;
}

}  // namespace

TEST_CASE("bit packing: the spec's example 0..7 at width 3 is 0x88 0xC6 0xFA") {
  const uint32_t values[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  uint8_t packed[3] = {};
  PackBits(values, 8, 3, packed);
  CHECK(packed[0] == 0x88);  // 10001000
  CHECK(packed[1] == 0xC6);  // 11000110
  CHECK(packed[2] == 0xFA);  // 11111010

  const std::vector<uint8_t> input = {0x88, 0xC6, 0xFA};
  uint32_t unpacked[8] = {};
  UnpackBits(input.data(), 3, unpacked, 8);
  for (uint32_t i = 0; i < 8; ++i) CHECK(unpacked[i] == i);
}

TEST_CASE("bit packing: round trip at every width, reading exactly the packed bytes") {
  std::mt19937 rng(7);
  for (int width = 0; width <= 64; ++width) {
    for (size_t count : {0, 1, 5, 8, 9, 16, 23, 64, 100, 257}) {
      std::vector<uint64_t> values(count);
      const uint64_t mask = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
      for (auto& v : values) v = (uint64_t{rng()} << 32 | rng()) & mask;
      // A heap buffer of exactly the packed size, so a sanitizer catches any over-read.
      std::vector<uint8_t> packed(PackedByteCount(count, width));
      PackBits(values.data(), count, width, packed.data());
      std::vector<uint64_t> out(count, 12345);
      UnpackBits(packed.data(), width, out.data(), count);
      CHECK(out == values);
      if (width <= 32) {
        std::vector<uint32_t> out32(count, 12345);
        UnpackBits(packed.data(), width, out32.data(), count);
        for (size_t i = 0; i < count; ++i) CHECK(out32[i] == values[i]);
      }
    }
  }
}

TEST_CASE("bit packing: PackBits keeps only the low bits and zero-pads the last byte") {
  const uint32_t values[3] = {0xFF, 0xFF, 0xFF};
  uint8_t packed[2] = {0xAA, 0xAA};
  PackBits(values, 3, 3, packed);  // 9 bits: 0b1'11111111
  CHECK(packed[0] == 0xFF);
  CHECK(packed[1] == 0x01);
  CHECK(MinimalBitWidth(0) == 0);
  CHECK(MinimalBitWidth(1) == 1);
  CHECK(MinimalBitWidth(11) == 4);
  CHECK(MinimalBitWidth(0xFFFFFFFFu) == 32);
  uint32_t out[1];
  CHECK_THROWS_AS(UnpackBits(packed, 33, out, 1), ParquetError);
}

TEST_CASE("hybrid: the spec's bit-packed run of 0..7 at width 3") {
  const std::vector<uint8_t> data = {0x03, 0x88, 0xC6, 0xFA};  // header: 1 group << 1 | 1
  RleBitPackedDecoder decoder(data.data(), data.size(), 3);
  uint32_t out[10] = {};
  REQUIRE(decoder.Decode(out, 10) == 8);  // ends with the data
  for (uint32_t i = 0; i < 8; ++i) CHECK(out[i] == i);

  RleBitPackedEncoder encoder(3);
  for (uint32_t i = 0; i < 8; ++i) encoder.Put(i);
  std::string encoded;
  encoder.Flush(&encoded);
  CHECK(Bytes(encoded) == data);
}

TEST_CASE("hybrid: an RLE run of 1000 zeros (the spec's all-null definition levels)") {
  RleBitPackedEncoder encoder(1);
  encoder.PutRun(0, 1000);
  std::string encoded;
  encoder.Flush(&encoded);
  // header varint(1000 << 1) = 0xD0 0x0F, then the value in one byte.
  CHECK(Bytes(encoded) == std::vector<uint8_t>{0xD0, 0x0F, 0x00});

  const std::vector<uint8_t> data = Bytes(encoded);
  RleBitPackedDecoder decoder(data.data(), data.size(), 1);
  std::vector<int16_t> levels(1200, 9);
  REQUIRE(decoder.Decode(levels.data(), levels.size()) == 1000);
  for (size_t i = 0; i < 1000; ++i) REQUIRE(levels[i] == 0);
}

TEST_CASE("hybrid: RLE values take ceil(width / 8) little-endian bytes") {
  // width 17: 3 value bytes; run of 5 copies of 0x1ABCD.
  const std::vector<uint8_t> data = {0x0A, 0xCD, 0xAB, 0x01};
  RleBitPackedDecoder decoder(data.data(), data.size(), 17);
  uint32_t out[5];
  REQUIRE(decoder.Decode(out, 5) == 5);
  for (uint32_t v : out) CHECK(v == 0x1ABCDu);
  RleBitPackedEncoder encoder(17);
  encoder.PutRun(0x1ABCD, 5);
  std::string encoded;
  encoder.Flush(&encoded);
  CHECK(Bytes(encoded) == data);
}

TEST_CASE("hybrid: mixed runs decode across run boundaries") {
  // RLE 3 x 5, bit-packed group 0..7 (width 3), RLE 2 x 1.
  const std::vector<uint8_t> data = {0x06, 0x05, 0x03, 0x88, 0xC6, 0xFA, 0x04, 0x01};
  RleBitPackedDecoder decoder(data.data(), data.size(), 3);
  uint32_t out[13];
  REQUIRE(decoder.Decode(out, 13) == 13);
  const uint32_t expected[13] = {5, 5, 5, 0, 1, 2, 3, 4, 5, 6, 7, 1, 1};
  for (int i = 0; i < 13; ++i) CHECK(out[i] == expected[i]);
}

TEST_CASE("hybrid: random round trips at every bit width 0..32") {
  std::mt19937 rng(42);
  for (int width = 0; width <= 32; ++width) {
    for (size_t count : {1, 7, 8, 9, 63, 64, 65, 500, 3001}) {
      const std::vector<uint32_t> values = RunnyValues(rng, width, count);
      const std::vector<uint8_t> data = Bytes(EncodeAll(width, values));
      CAPTURE(width);
      CAPTURE(count);
      CHECK(DecodeInBatches(data, width, count, rng) == values);
      // Asking for more than there is returns only what the runs hold (count rounded up to
      // the padded group at most).
      RleBitPackedDecoder decoder(data.data(), data.size(), width);
      std::vector<uint32_t> all(count + 16);
      const size_t got = decoder.Decode(all.data(), all.size());
      CHECK(got >= count);
      CHECK(got < count + 8);
    }
  }
}

TEST_CASE("hybrid: narrow output types") {
  std::mt19937 rng(3);
  for (int width = 0; width <= 15; ++width) {
    const std::vector<uint32_t> values = RunnyValues(rng, width, 777);
    const std::vector<uint8_t> data = Bytes(EncodeAll(width, values));
    RleBitPackedDecoder decoder(data.data(), data.size(), width);
    std::vector<int16_t> levels(values.size());
    REQUIRE(decoder.Decode(levels.data(), levels.size()) == values.size());
    for (size_t i = 0; i < values.size(); ++i) REQUIRE(static_cast<uint32_t>(levels[i]) == values[i]);
  }
  const std::vector<uint32_t> bits = RunnyValues(rng, 1, 333);
  const std::vector<uint8_t> data = Bytes(EncodeAll(1, bits));
  RleBitPackedDecoder decoder(data.data(), data.size(), 1);
  bool as_bool[333];
  REQUIRE(decoder.Decode(as_bool, 333) == 333);
  for (size_t i = 0; i < bits.size(); ++i) CHECK(as_bool[i] == (bits[i] == 1));

  // A width wider than the output type is refused.
  RleBitPackedDecoder wide(data.data(), data.size(), 16);
  int16_t level;
  CHECK_THROWS_AS(wide.Decode(&level, 1), ParquetError);
  RleBitPackedDecoder two(data.data(), data.size(), 2);
  bool flag;
  CHECK_THROWS_AS(two.Decode(&flag, 1), ParquetError);
}

TEST_CASE("hybrid: Skip then Decode equals the tail of a full Decode") {
  std::mt19937 rng(5);
  for (int width : {0, 1, 2, 3, 5, 8, 13, 16, 20, 31, 32}) {
    const std::vector<uint32_t> values = RunnyValues(rng, width, 1000);
    const std::vector<uint8_t> data = Bytes(EncodeAll(width, values));
    for (size_t skip : {0, 1, 3, 7, 8, 9, 15, 16, 17, 100, 511, 999, 1000}) {
      RleBitPackedDecoder decoder(data.data(), data.size(), width);
      REQUIRE(decoder.Skip(skip) == skip);
      std::vector<uint32_t> tail(values.size() - skip);
      REQUIRE(decoder.Decode(tail.data(), tail.size()) == tail.size());
      CHECK(std::equal(tail.begin(), tail.end(), values.begin() + static_cast<long>(skip)));
    }
    // Random interleaving of Skip and Decode.
    RleBitPackedDecoder decoder(data.data(), data.size(), width);
    size_t pos = 0;
    while (pos < values.size()) {
      const size_t step = std::min<size_t>(values.size() - pos, 1 + rng() % 20);
      if (rng() % 2) {
        REQUIRE(decoder.Skip(step) == step);
      } else {
        std::vector<uint32_t> got(step);
        REQUIRE(decoder.Decode(got.data(), step) == step);
        CHECK(std::equal(got.begin(), got.end(), values.begin() + static_cast<long>(pos)));
      }
      pos += step;
    }
  }
}

TEST_CASE("hybrid: CountEqual and PeekRun") {
  RleBitPackedEncoder encoder(2);
  encoder.PutRun(3, 100);
  const uint32_t mixed[8] = {0, 3, 3, 1, 2, 3, 3, 0};
  encoder.Put(mixed, 8);
  encoder.PutRun(1, 50);
  std::string encoded;
  encoder.Flush(&encoded);
  const std::vector<uint8_t> data = Bytes(encoded);

  RleBitPackedDecoder decoder(data.data(), data.size(), 2);
  bool is_rle = false;
  uint32_t value = 0;
  CHECK(decoder.PeekRun(&is_rle, &value) == 100);
  CHECK(is_rle);
  CHECK(value == 3);
  size_t consumed = 0;
  CHECK(decoder.CountEqual(3, 104, &consumed) == 102);  // 100 + {3, 0, 3, 1}
  CHECK(consumed == 104);
  CHECK(decoder.PeekRun(&is_rle, &value) == 4);
  CHECK_FALSE(is_rle);
  CHECK(decoder.CountEqual(1, 1000, &consumed) == 50);
  CHECK(consumed == 54);
  CHECK(decoder.PeekRun(&is_rle, &value) == 0);
}

TEST_CASE("hybrid: width 0 means all zeros") {
  // With runs: RLE of 5 (no value bytes), bit-packed 2 groups (no data bytes).
  const std::vector<uint8_t> data = {0x0A, 0x05};
  RleBitPackedDecoder decoder(data.data(), data.size(), 0);
  uint32_t out[30];
  std::fill_n(out, 30, 9u);
  REQUIRE(decoder.Decode(out, 30) == 21);
  for (int i = 0; i < 21; ++i) CHECK(out[i] == 0);
  // Without any data: endless zeros, bounded by the caller.
  RleBitPackedDecoder empty(nullptr, 0, 0);
  std::fill_n(out, 30, 9u);
  REQUIRE(empty.Decode(out, 30) == 30);
  for (uint32_t v : out) CHECK(v == 0);
  CHECK(empty.Skip(1000) == 1000);
}

TEST_CASE("hybrid: truncated input at every length fails") {
  std::mt19937 rng(11);
  for (int width : {1, 3, 8, 12, 17, 32}) {
    for (bool runny : {false, true}) {
      // Without runs, 200 values are 25 full groups: every byte is needed. With runs the
      // last group may be padded, and cutting only padding may still yield every value.
      std::vector<uint32_t> values(200);
      if (runny) {
        values = RunnyValues(rng, width, 200);
      } else {
        for (size_t i = 0; i < values.size(); ++i) values[i] = (i % 2 == 0 ? i : i * 7) & MaxOfWidth(width);
      }
      const std::string encoded = EncodeAll(width, values);
      for (size_t length = 0; length < encoded.size(); ++length) {
        const std::vector<uint8_t> prefix(encoded.begin(), encoded.begin() + static_cast<long>(length));
        CAPTURE(width);
        CAPTURE(runny);
        CAPTURE(length);
        RleBitPackedDecoder decoder(prefix.data(), prefix.size(), width);
        std::vector<uint32_t> out(values.size());
        bool failed = false;
        try {
          failed = decoder.Decode(out.data(), out.size()) < values.size();
        } catch (const ParquetError&) {
          failed = true;
        }
        if (!failed) {
          CHECK(runny);
          CHECK(encoded.size() - length < static_cast<size_t>(width));  // padding < 8 values
          CHECK(out == values);
        }
        RleBitPackedDecoder skipper(prefix.data(), prefix.size(), width);
        bool skip_failed = false;
        try {
          skip_failed = skipper.Skip(values.size()) < values.size();
        } catch (const ParquetError&) {
          skip_failed = true;
        }
        CHECK(skip_failed == failed);
      }
    }
  }
}

TEST_CASE("hybrid: a final group cut inside its padding still yields the real values") {
  // 3 values at width 3 written as one padded group: 3 data bytes; the values need 2.
  const uint32_t values[3] = {1, 2, 3};
  RleBitPackedEncoder encoder(3);
  encoder.Put(values, 3);
  std::string encoded;
  encoder.Flush(&encoded);
  REQUIRE(encoded.size() == 4);
  const std::vector<uint8_t> cut(encoded.begin(), encoded.begin() + 3);
  RleBitPackedDecoder decoder(cut.data(), cut.size(), 3);
  uint32_t out[3];
  REQUIRE(decoder.Decode(out, 3) == 3);
  CHECK(out[0] == 1);
  CHECK(out[1] == 2);
  CHECK(out[2] == 3);
}

TEST_CASE("hybrid: malformed runs are errors") {
  uint32_t out[4];
  SUBCASE("header varint longer than 32 bits") {
    const std::vector<uint8_t> data = {0xFF, 0xFF, 0xFF, 0xFF, 0x1F, 0x00};
    RleBitPackedDecoder decoder(data.data(), data.size(), 1);
    CHECK_THROWS_AS(decoder.Decode(out, 4), ParquetError);
  }
  SUBCASE("header varint cut off") {
    const std::vector<uint8_t> data = {0x80, 0x80};
    RleBitPackedDecoder decoder(data.data(), data.size(), 1);
    CHECK_THROWS_AS(decoder.Skip(4), ParquetError);
  }
  SUBCASE("RLE value wider than the bit width") {
    const std::vector<uint8_t> data = {0x08, 0x09};  // 4 x 9 at width 3
    RleBitPackedDecoder decoder(data.data(), data.size(), 3);
    CHECK_THROWS_WITH_AS(decoder.Decode(out, 4), "rle run value 9 does not fit in bit width 3",
                         ParquetError);
  }
  SUBCASE("RLE value bytes missing") {
    const std::vector<uint8_t> data = {0x08, 0x01};  // width 9 needs two value bytes
    RleBitPackedDecoder decoder(data.data(), data.size(), 9);
    CHECK_THROWS_AS(decoder.Decode(out, 4), ParquetError);
  }
  SUBCASE("bit width out of range") {
    CHECK_THROWS_AS(RleBitPackedDecoder(nullptr, 0, 33), ParquetError);
    CHECK_THROWS_AS(RleBitPackedDecoder(nullptr, 0, -1), ParquetError);
    CHECK_THROWS_AS(RleBitPackedEncoder(33), ParquetError);
  }
  SUBCASE("a huge bit-packed run over little data yields only what is there") {
    // 2^31 - 1 groups claimed, 2 bytes present at width 4: 4 values.
    std::string data;
    AppendUleb128(((uint64_t{1} << 31) - 1) << 1 | 1, &data);
    data += "\x21\x43";
    const std::vector<uint8_t> bytes = Bytes(data);
    RleBitPackedDecoder decoder(bytes.data(), bytes.size(), 4);
    uint32_t got[8];
    REQUIRE(decoder.Decode(got, 8) == 4);
    CHECK(got[0] == 1);
    CHECK(got[1] == 2);
    CHECK(got[2] == 3);
    CHECK(got[3] == 4);
  }
}

TEST_CASE("hybrid encoder: value checks, long runs and runs split at 2^31 - 1") {
  RleBitPackedEncoder encoder(4);
  CHECK_THROWS_AS(encoder.Put(16), ParquetError);
  CHECK_THROWS_AS(encoder.PutRun(99, 3), ParquetError);

  const uint64_t huge = (uint64_t{1} << 31) + 100;
  RleBitPackedEncoder big(1);
  big.Put(0);
  big.PutRun(1, huge);
  big.Put(0);
  std::string encoded;
  big.Flush(&encoded);
  const std::vector<uint8_t> data = Bytes(encoded);
  RleBitPackedDecoder decoder(data.data(), data.size(), 1);
  size_t consumed = 0;
  CHECK(decoder.CountEqual(1, huge + 2, &consumed) == huge);
  CHECK(consumed == huge + 2);
  // Every RLE header stays within 31-bit run lengths: the run of ones needs two RLE runs.
  bool is_rle;
  uint32_t value;
  RleBitPackedDecoder runs(data.data(), data.size(), 1);
  // The first group mixes the 0 with seven 1s; the rest of the ones are RLE runs.
  uint32_t first[8];
  REQUIRE(runs.Decode(first, 8) == 8);
  CHECK(first[0] == 0);
  CHECK(first[7] == 1);
  CHECK(runs.PeekRun(&is_rle, &value) == (uint64_t{1} << 31) - 1);
  CHECK(is_rle);
  CHECK(runs.Skip((uint64_t{1} << 31) - 1) == (uint64_t{1} << 31) - 1);
  CHECK(runs.PeekRun(&is_rle, &value) == huge - 7 - ((uint64_t{1} << 31) - 1));
  CHECK(is_rle);
}

TEST_CASE("hybrid encoder: repeated values become RLE runs, others bit-packed groups") {
  RleBitPackedEncoder encoder(8);
  std::vector<uint32_t> values(1000, 200);
  encoder.Put(values.data(), values.size());
  std::string encoded;
  encoder.Flush(&encoded);
  CHECK(encoded.size() == 3);  // header varint(2000) is 2 bytes, then 1 value byte
  // Flush resets: a second page starts fresh.
  encoder.Put(7);
  std::string second;
  encoder.Flush(&second);
  CHECK(Bytes(second) == std::vector<uint8_t>{0x02, 0x07});
}

TEST_CASE("ReadRleLengthPrefix checks the prefix against the data") {
  const std::vector<uint8_t> ok = {3, 0, 0, 0, 0x06, 0x01, 0xEE};
  CHECK(ReadRleLengthPrefix(ok.data(), ok.size()) == 3);
  const std::vector<uint8_t> too_long = {4, 0, 0, 0, 0x06, 0x01, 0xEE};
  CHECK_THROWS_AS(ReadRleLengthPrefix(too_long.data(), too_long.size()), ParquetError);
  const std::vector<uint8_t> short_prefix = {3, 0, 0};
  CHECK_THROWS_AS(ReadRleLengthPrefix(short_prefix.data(), short_prefix.size()), ParquetError);
}

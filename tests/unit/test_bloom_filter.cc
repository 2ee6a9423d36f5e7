// Unit tests of split-block bloom filters (format/index/bloom_filter.h): sizing from the spec's
// table, no false negatives and a false-positive rate near the target, serialization round
// trips, the reference filter and files of parquet-testing, and rejection of bad input.
#include <doctest/doctest.h>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "format/index/bloom_filter.h"
#include "format/read/column_reader.h"
#include "format/common/error.h"
#include "format/read/file_reader.h"
#include "format/metadata/metadata.h"
#include "format/io/random_access_file.h"

namespace parquet {
namespace {

const std::string kTestingData = "../shared/parquet-testing/data/";

std::string ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

const uint8_t* Bytes(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

TEST_CASE("bloom filter: XXH64 of the PLAIN bytes") {
  // Reference values of XXH64 with seed 0 (the xxHash specification's test vectors).
  CHECK(BloomHash("", 0) == 0xEF46DB3751D8E999ULL);
  CHECK(BloomHashOf(std::string_view("a")) == 0xD24EC4F1A98C6E5BULL);
  CHECK(BloomHashOf(std::string_view("abc")) == 0x44BC2CF5AD770999ULL);
  // Numbers hash as their little-endian bytes, byte arrays without a length prefix.
  const int32_t i32 = 0x04030201;
  CHECK(BloomHashOf(i32) == BloomHash("\x01\x02\x03\x04", 4));
  const int64_t i64 = -1;
  CHECK(BloomHashOf(i64) == BloomHash("\xff\xff\xff\xff\xff\xff\xff\xff", 8));
  const std::string text = "parquet";
  CHECK(BloomHashOf(ByteArray{Bytes(text), 7}) == BloomHashOf(std::string_view(text)));
  const Int96 int96{{1, 2, 3}};
  CHECK(BloomHashOf(int96) == BloomHash("\x01\0\0\0\x02\0\0\0\x03\0\0\0", 12));
}

TEST_CASE("bloom filter: sizing follows the spec's table, in powers of two") {
  // 1 % needs 10.5 bits per value: 100000 values -> 131250 bytes -> 2^18.
  CHECK(BloomFilter::OptimalNumBytes(100000, 0.01) == (1u << 18));
  // 10 %: 6 bits per value: 1000 values -> 750 bytes -> 1024.
  CHECK(BloomFilter::OptimalNumBytes(1000, 0.1) == 1024);
  // 0.1 %: 16.9 bits: 1000 values -> 2113 bytes -> 4096.
  CHECK(BloomFilter::OptimalNumBytes(1000, 0.001) == 4096);
  // Smaller fpp never means a smaller filter.
  uint32_t previous = 0;
  for (double fpp : {0.5, 0.2, 0.1, 0.05, 0.01, 0.001, 1e-4, 1e-5, 1e-7}) {
    const uint32_t bytes = BloomFilter::OptimalNumBytes(50000, fpp);
    CHECK(bytes >= previous);
    CHECK((bytes & (bytes - 1)) == 0);
    previous = bytes;
  }
  // Clamped to one block and to 128 MiB.
  CHECK(BloomFilter::OptimalNumBytes(0, 0.01) == 32);
  CHECK(BloomFilter::OptimalNumBytes(1, 0.01) == 32);
  CHECK(BloomFilter::OptimalNumBytes(uint64_t{1} << 40, 0.01) == BloomFilter::kMaxBytes);
  CHECK_THROWS_AS(BloomFilter::OptimalNumBytes(10, 0.0), ParquetError);
  CHECK_THROWS_AS(BloomFilter::OptimalNumBytes(10, 1.0), ParquetError);
  CHECK_THROWS_AS(BloomFilter::OptimalNumBytes(10, -0.5), ParquetError);
}

TEST_CASE("bloom filter: no false negatives and a false-positive rate near the target") {
  std::mt19937_64 random(12345);
  for (double fpp : {0.1, 0.01, 0.001}) {
    CAPTURE(fpp);
    const uint64_t ndv = 20000;
    BloomFilter filter(BloomFilter::OptimalNumBytes(ndv, fpp));
    std::set<uint64_t> inserted;
    while (inserted.size() < ndv) {
      const uint64_t value = random();
      inserted.insert(value);
      filter.Insert(BloomHashOf(static_cast<int64_t>(value)));
    }
    for (uint64_t value : inserted) REQUIRE(filter.MightContain(BloomHashOf(static_cast<int64_t>(value))));
    size_t probes = 0, positives = 0;
    while (probes < 200000) {
      const uint64_t value = random();
      if (inserted.count(value)) continue;
      probes++;
      positives += filter.MightContain(BloomHashOf(static_cast<int64_t>(value)));
    }
    const double rate = static_cast<double>(positives) / static_cast<double>(probes);
    CAPTURE(rate);
    // Rounding the size up to a power of two only lowers the rate; it stays within the
    // target and not absurdly below it (the filter is at most twice the needed size).
    CHECK(rate <= fpp * 1.1);
    CHECK(rate >= fpp / 20);
  }
}

TEST_CASE("bloom filter: an exactly sized filter has the spec's false-positive rate") {
  // The spec's example: 1024 blocks holding 26214 values (10 bits each) give about 1.26 %.
  std::mt19937_64 random(7);
  BloomFilter filter(1024 * 32);
  for (int i = 0; i < 26214; i++) filter.Insert(random());
  size_t positives = 0;
  const size_t probes = 400000;
  for (size_t i = 0; i < probes; i++) positives += filter.MightContain(random());
  const double rate = static_cast<double>(positives) / probes;
  CAPTURE(rate);
  CHECK(rate > 0.010);
  CHECK(rate < 0.016);
}

TEST_CASE("bloom filter: serialization round trips") {
  BloomFilter filter(256);
  for (int i = 0; i < 50; i++) filter.Insert(BloomHashOf(static_cast<int32_t>(i)));
  std::string bytes;
  filter.Serialize(&bytes);
  size_t consumed = 0;
  std::optional<BloomFilter> back = ParseBloomFilter(Bytes(bytes), bytes.size(), &consumed);
  REQUIRE(back.has_value());
  CHECK(consumed == bytes.size());
  CHECK(back->num_bytes() == 256);
  size_t header_size = 0;
  const BloomFilterHeader header = ParseBloomFilterHeader(Bytes(bytes), bytes.size(), &header_size);
  CHECK(header.num_bytes == 256);
  CHECK(header_size + 256 == bytes.size());
  for (int i = 0; i < 50; i++) CHECK(back->MightContain(BloomHashOf(static_cast<int32_t>(i))));
  std::string again;
  back->Serialize(&again);
  CHECK(again == bytes);
}

TEST_CASE("bloom filter: the reference filter of parquet-testing") {
  // bloom_filter.xxhash.bin holds a header and a bitset with four strings inserted.
  const std::string bytes = ReadWholeFile(kTestingData + "bloom_filter.xxhash.bin");
  size_t consumed = 0;
  std::optional<BloomFilter> filter = ParseBloomFilter(Bytes(bytes), bytes.size(), &consumed);
  REQUIRE(filter.has_value());
  CHECK(consumed == bytes.size());
  for (const char* word : {"hello", "parquet", "bloom", "filter"}) {
    CAPTURE(word);
    CHECK(filter->MightContain(BloomHashOf(std::string_view(word))));
  }
  int absent_found = 0;
  for (int i = 0; i < 1000; i++) {
    absent_found += filter->MightContain(BloomHashOf(std::string_view("absent-" + std::to_string(i))));
  }
  CHECK(absent_found < 20);
}

// Every value of the string column of a parquet-testing file read through our reader, then
// looked up in the chunk's filter.
void CheckTestingFile(const std::string& name, bool expect_length) {
  CAPTURE(name);
  auto file = ParquetFileReader::Open(kTestingData + name);
  REQUIRE(file->num_row_groups() == 1);
  const ColumnMetaData& meta = file->column_metadata(0, 0);
  CHECK(meta.bloom_filter_length.has_value() == expect_length);
  std::optional<BloomFilter> filter = ReadBloomFilter(file->file(), meta);
  REQUIRE(filter.has_value());
  auto reader = ColumnChunkReader::Make(*file, 0, 0);
  ColumnBatch batch;
  size_t values = 0;
  while (reader->ReadBatch(1024, &batch) > 0) {
    const ByteArray* strings = batch.values<ByteArray>();
    for (size_t i = 0; i < batch.num_values; i++) {
      CAPTURE(std::string(strings[i].view()));
      CHECK(filter->MightContain(BloomHashOf(strings[i])));
      values++;
    }
  }
  CHECK(values == 14);
  int absent_found = 0;
  for (int i = 0; i < 1000; i++) {
    absent_found += filter->MightContain(BloomHashOf(std::string_view("not there " + std::to_string(i))));
  }
  CHECK(absent_found < 30);
}

TEST_CASE("bloom filter: the filters of parquet-testing files, with and without bloom_filter_length") {
  CheckTestingFile("data_index_bloom_encoding_stats.parquet", false);
  CheckTestingFile("data_index_bloom_encoding_with_length.parquet", true);
}

TEST_CASE("bloom filter: a chunk without a filter, and filters we cannot use") {
  ColumnMetaData meta;
  auto empty = OpenMemoryFile(nullptr, 0);
  CHECK_FALSE(ReadBloomFilter(*empty, meta).has_value());

  // A header naming a hash other than XXHASH (union member 2 of BloomFilterHash): parsed,
  // then declined. Compact protocol: num_bytes = 32, algorithm {BLOCK {}}, hash {2: {}},
  // compression {UNCOMPRESSED {}}, then a 32-byte bitset.
  const std::string other_bytes =
      std::string("\x15\x40\x1c\x1c\x00\x00\x1c\x2c\x00\x00\x1c\x1c\x00\x00\x00", 15) + std::string(32, '\0');
  const BloomFilterHeader other = ParseBloomFilterHeader(Bytes(other_bytes), other_bytes.size(), nullptr);
  CHECK(other.num_bytes == 32);
  CHECK(other.algorithm_is_block);
  CHECK_FALSE(other.hash_is_xxhash);
  size_t consumed = 0;
  CHECK_FALSE(ParseBloomFilter(Bytes(other_bytes), other_bytes.size(), &consumed).has_value());
  CHECK(consumed == other_bytes.size());
}

TEST_CASE("bloom filter: offsets, lengths and sizes from a file are checked") {
  BloomFilter filter(64);
  std::string bytes = "PAR1";
  const int64_t offset = static_cast<int64_t>(bytes.size());
  filter.Serialize(&bytes);
  const int32_t length = static_cast<int32_t>(bytes.size() - 4);
  auto file = OpenMemoryFile(Bytes(bytes), bytes.size());
  ColumnMetaData meta;
  meta.bloom_filter_offset = offset;
  CHECK(ReadBloomFilter(*file, meta).has_value());  // header first, then the bitset
  meta.bloom_filter_length = length;
  CHECK(ReadBloomFilter(*file, meta).has_value());

  meta.bloom_filter_length = length + 1;  // past the end of the file
  CHECK_THROWS_AS(ReadBloomFilter(*file, meta), ParquetError);
  meta.bloom_filter_length = length - 1;  // cuts the bitset short
  CHECK_THROWS_AS(ReadBloomFilter(*file, meta), ParquetError);
  meta.bloom_filter_length = 0;
  CHECK_THROWS_AS(ReadBloomFilter(*file, meta), ParquetError);
  meta.bloom_filter_length.reset();
  meta.bloom_filter_offset = -1;
  CHECK_THROWS_AS(ReadBloomFilter(*file, meta), ParquetError);
  meta.bloom_filter_offset = static_cast<int64_t>(bytes.size());
  CHECK_THROWS_AS(ReadBloomFilter(*file, meta), ParquetError);

  // The file ends inside the bitset the header announces.
  auto truncated = OpenMemoryFile(Bytes(bytes), bytes.size() - 1);
  meta.bloom_filter_offset = offset;
  CHECK_THROWS_AS(ReadBloomFilter(*truncated, meta), ParquetError);

  // Bitset sizes that are not a positive multiple of 32.
  for (int32_t bad : {0, -32, 33, 100}) {
    CAPTURE(bad);
    BloomFilterHeader header;
    header.num_bytes = bad;
    std::string bad_bytes = Serialize(header) + std::string(200, '\0');
    CHECK_THROWS_AS(ParseBloomFilter(Bytes(bad_bytes), bad_bytes.size()), ParquetError);
  }
  CHECK_THROWS_AS(BloomFilter(0), ParquetError);
  CHECK_THROWS_AS(BloomFilter(48), ParquetError);
  CHECK_THROWS_AS(BloomFilter::FromBitset(Bytes(bytes), 31), ParquetError);
  // Garbage instead of a header.
  std::string garbage(64, '\xff');
  CHECK_THROWS_AS(ParseBloomFilter(Bytes(garbage), garbage.size()), ParquetError);
}

}  // namespace
}  // namespace parquet

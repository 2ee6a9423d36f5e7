// Tests of content-defined chunking (content_defined_chunking.h, WriterOptions::cdc): the
// chunker's cut points depend on the content only; chunk sizes stay within the limits;
// and re-writing a 1M-row table after 10 rows were inserted in its middle changes few data
// pages with cdc (the share is printed), against about all pages after the insertion point
// without it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "format/common/error.h"
#include "format/index/bloom_filter.h"
#include "format/index/page_index.h"
#include "format/io/random_access_file.h"
#include "format/read/file_reader.h"
#include "format/write/content_defined_chunking.h"
#include "format/write/file_writer.h"
#include "tests/unit/schema_elements.h"
#include "tests/unit/temp_dir.h"

namespace parquet {
namespace {

using test_support::LeafElement;
using test_support::RootElement;
using test_support::TempDir;

// The offsets after which the chunker ends chunks, over `data` fed in slots of `slot`
// bytes (each slot's hash: XXH64 of its bytes, as the writer does for values).
std::vector<size_t> Cuts(const std::string& data, size_t slot, const ContentDefinedChunkingOptions& options) {
  ContentDefinedChunker chunker(options);
  std::vector<size_t> cuts;
  for (size_t i = 0; i < data.size(); i += slot) {
    const size_t size = std::min(slot, data.size() - i);
    if (chunker.AddSlot(BloomHash(data.data() + i, size), size)) cuts.push_back(i + size);
  }
  return cuts;
}

std::string PseudoRandomBytes(size_t n, uint32_t seed) {
  std::string out(n, '\0');
  uint32_t state = seed;
  for (char& c : out) {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    c = static_cast<char>(state);
  }
  return out;
}

TEST_CASE("content-defined chunking: cuts follow the content and respect the limits") {
  ContentDefinedChunkingOptions options;
  options.min_chunk_size = 4096;
  options.max_chunk_size = 16384;
  const std::string data = PseudoRandomBytes(1 << 20, 7);
  const std::vector<size_t> cuts = Cuts(data, 8, options);
  REQUIRE(cuts.size() > 20);
  size_t previous = 0;
  for (size_t cut : cuts) {
    CHECK(cut - previous >= options.min_chunk_size);
    CHECK(cut - previous <= options.max_chunk_size + 8);
    previous = cut;
  }
  // The same bytes after 24 inserted bytes: after the first few chunks, the cuts are the same ones, shifted.
  const std::string shifted = PseudoRandomBytes(24, 99) + data;
  const std::vector<size_t> shifted_cuts = Cuts(shifted, 8, options);
  std::set<size_t> moved;
  for (size_t cut : shifted_cuts) moved.insert(cut - 24);
  size_t shared = 0;
  for (size_t cut : cuts) shared += moved.count(cut);
  CHECK(shared + 3 >= cuts.size());
  // Structured data (short strings of a common prefix: 'word0' .. 'word49') still finds
  // content-defined cuts, not only forced ones at the maximum.
  std::string words;
  for (uint64_t id = 0; id < 200000; ++id) words += "word" + std::to_string((id * 0x9E3779B97F4A7C15ULL >> 40) % 50) + " ";
  const std::vector<size_t> word_cuts = Cuts(words, 7, options);
  size_t forced = 0;
  previous = 0;
  for (size_t cut : word_cuts) {
    forced += cut - previous >= options.max_chunk_size;
    previous = cut;
  }
  CHECK(word_cuts.size() > 50);
  CHECK(forced * 5 < word_cuts.size());
  // norm_level: a higher level, smaller chunks.
  ContentDefinedChunkingOptions finer = options;
  finer.norm_level = 2;
  CHECK(ContentDefinedChunker(finer).mask_bits() == ContentDefinedChunker(options).mask_bits() - 2);
  CHECK(Cuts(data, 8, finer).size() > cuts.size());
  // pyarrow's defaults.
  CHECK(ContentDefinedChunkingOptions().min_chunk_size == 256 * 1024);
  CHECK(ContentDefinedChunkingOptions().max_chunk_size == 1024 * 1024);
  CHECK(ContentDefinedChunkingOptions().norm_level == 0);
  options.max_chunk_size = options.min_chunk_size;
  CHECK_THROWS_AS(ContentDefinedChunker{options}, ParquetError);
}

// A well-mixed hash of an integer (splitmix64's finaliser).
uint64_t Mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

// Writes `ids` (id INT64 required, x DOUBLE optional: NULL every 13th, s BYTE_ARRAY
// optional, c BYTE_ARRAY: one of 50 words, picked by a hash of id) in one row group, the writer's defaults otherwise.
void WriteTable(const std::string& path, const std::vector<int64_t>& ids, bool cdc) {
  WriterOptions options;
  options.cdc.enabled = cdc;
  std::vector<SchemaElement> schema = {RootElement(4), LeafElement("id", FieldRepetitionType::REQUIRED, Type::INT64),
                                       LeafElement("x", FieldRepetitionType::OPTIONAL, Type::DOUBLE),
                                       LeafElement("s", FieldRepetitionType::OPTIONAL, Type::BYTE_ARRAY),
                                       LeafElement("c", FieldRepetitionType::OPTIONAL, Type::BYTE_ARRAY)};
  ParquetFileWriter writer(path, schema, options);
  writer.StartRowGroup();
  constexpr size_t kBatch = 4096;
  for (size_t start = 0; start < ids.size(); start += kBatch) {
    const size_t n = std::min(kBatch, ids.size() - start);
    std::vector<int16_t> x_def, s_def, c_def;
    std::vector<double> xs;
    std::vector<std::string> texts, words;
    for (size_t i = start; i < start + n; ++i) {
      const int64_t id = ids[i];
      x_def.push_back(id % 13 == 0 ? 0 : 1);
      if (id % 13 != 0) xs.push_back(static_cast<double>(id % 100003) * 0.25);
      s_def.push_back(1);
      texts.push_back("customer-" + std::to_string(id * 7919 % 1000003));
      c_def.push_back(1);
      words.push_back("word" + std::to_string(Mix(static_cast<uint64_t>(id)) % 50));
    }
    auto arrays = [](const std::vector<std::string>& strings) {
      std::vector<ByteArray> out;
      for (const std::string& t : strings) out.push_back(ByteArray{reinterpret_cast<const uint8_t*>(t.data()), static_cast<uint32_t>(t.size())});
      return out;
    };
    const std::vector<ByteArray> s = arrays(texts), c = arrays(words);
    writer.WriteBatch<int64_t>(0, n, nullptr, nullptr, ids.data() + start, n);
    writer.WriteBatch<double>(1, n, x_def.data(), nullptr, xs.data(), xs.size());
    writer.WriteBatch<ByteArray>(2, n, s_def.data(), nullptr, s.data(), s.size());
    writer.WriteBatch<ByteArray>(3, n, c_def.data(), nullptr, c.data(), c.size());
  }
  writer.EndRowGroup(static_cast<int64_t>(ids.size()));
  writer.Close();
}

// Each column's data pages' bytes (header and body).
std::vector<std::vector<std::string>> DataPages(const std::string& path) {
  auto file = ParquetFileReader::Open(path);
  std::vector<std::vector<std::string>> columns;
  for (int c = 0; c < file->schema().num_columns(); ++c) {
    std::optional<OffsetIndex> index = ReadOffsetIndex(*file, 0, c);
    REQUIRE(index.has_value());
    columns.emplace_back();
    for (const PageLocation& page : index->page_locations) {
      std::vector<uint8_t> bytes;
      file->file().ReadAt(static_cast<uint64_t>(page.offset), static_cast<size_t>(page.compressed_page_size), &bytes);
      columns.back().emplace_back(bytes.begin(), bytes.end());
    }
  }
  return columns;
}

// The share of the second file's data pages whose bytes are not among the first file's;
// *detail gets "changed/pages" per column.
double ChangedShare(const std::string& before, const std::string& after, size_t* pages, std::string* detail) {
  std::set<std::string> known;
  for (const auto& column : DataPages(before)) known.insert(column.begin(), column.end());
  size_t changed = 0;
  *pages = 0;
  for (const auto& column : DataPages(after)) {
    size_t column_changed = 0;
    for (const std::string& page : column) column_changed += known.count(page) == 0;
    *detail += (detail->empty() ? "" : ", ") + std::to_string(column_changed) + "/" + std::to_string(column.size());
    changed += column_changed;
    *pages += column.size();
  }
  return static_cast<double>(changed) / static_cast<double>(*pages);
}

TEST_CASE("content-defined chunking: re-writing a 1M-row table with 10 rows inserted in the middle changes few pages") {
  TempDir dir;
  constexpr int64_t kRows = 1000000;
  std::vector<int64_t> ids(kRows);
  for (int64_t i = 0; i < kRows; ++i) ids[static_cast<size_t>(i)] = i;
  std::vector<int64_t> inserted = ids;
  std::vector<int64_t> extra;
  for (int64_t i = 0; i < 10; ++i) extra.push_back(5000000 + i * 977);
  inserted.insert(inserted.begin() + kRows / 2, extra.begin(), extra.end());
  size_t pages_cdc = 0, pages_plain = 0;
  WriteTable(dir.File("cdc_before.parquet"), ids, true);
  WriteTable(dir.File("cdc_after.parquet"), inserted, true);
  std::string cdc_detail, plain_detail;
  const double cdc = ChangedShare(dir.File("cdc_before.parquet"), dir.File("cdc_after.parquet"), &pages_cdc, &cdc_detail);
  WriteTable(dir.File("plain_before.parquet"), ids, false);
  WriteTable(dir.File("plain_after.parquet"), inserted, false);
  const double plain = ChangedShare(dir.File("plain_before.parquet"), dir.File("plain_after.parquet"), &pages_plain, &plain_detail);
  MESSAGE("data pages changed by inserting 10 rows in the middle of 1,000,000: with cdc " << cdc * 100 << " % of "
                                                                                           << pages_cdc << " pages (per column " << cdc_detail << "), without "
                                                                                           << plain * 100 << " % of " << pages_plain << " (" << plain_detail << ")");
  CHECK(cdc < 0.10);
  CHECK(plain > 0.40);  // every page after the insertion point
}

}  // namespace
}  // namespace parquet

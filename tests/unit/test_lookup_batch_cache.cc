// Tests of the values a join-index scan keeps (ext/table/lookup_batch_cache.h): rows copied
// from the cache equal the file's, in any order and across row groups and blocks, with
// nulls, a few (block by block) and many (whole row groups once a quarter of the blocks are
// decoded, or eight blocks of one row group out of order); what is kept stays within the budget, even when one column alone would exceed it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "ext/table/lookup_batch_cache.h"
#include "format/read/column_reader.h"
#include "format/metadata/metadata.h"
#include "format/read/file_reader.h"
#include "format/write/file_writer.h"
#include "tests/unit/schema_elements.h"
#include "tests/unit/temp_dir.h"

using namespace parquet;
using sqlite_parquet::LookupBatchCache;
using test_support::LeafElement;
using test_support::RootElement;

namespace {

constexpr int64_t kRowGroupRows = 5000;  // not a multiple of the block: a short last block
constexpr int kRowGroups = 3;
constexpr int64_t kRows = kRowGroupRows * kRowGroups;

// The file's leaf columns, row r: id INT64 REQUIRED; v INT32 OPTIONAL and d DOUBLE
// OPTIONAL, both null in some rows when the file has nulls (else never).
enum Leaf { kId = 0, kV = 1, kD = 2 };
int64_t IdOf(int64_t r) { return r * 3 + 1; }
int32_t VOf(int64_t r) { return static_cast<int32_t>(r % 977); }
double DOf(int64_t r) { return static_cast<double>(r) * 0.5 + 1; }
bool IsNull(int leaf, int64_t r, bool nulls) {
  return nulls && ((leaf == kV && r % 13 == 5) || (leaf == kD && r % 7 == 3));
}

std::string WriteFile(const test_support::TempDir& dir, bool nulls) {
  const std::string path = dir.File(nulls ? "nulls.parquet" : "plain.parquet");
  WriterOptions options;
  options.page_size = 4 << 10;  // many pages a row group
  ParquetFileWriter writer(path,
                           {RootElement(3), LeafElement("id", FieldRepetitionType::REQUIRED, Type::INT64),
                            LeafElement("v", FieldRepetitionType::OPTIONAL, Type::INT32),
                            LeafElement("d", FieldRepetitionType::OPTIONAL, Type::DOUBLE)},
                           options);
  for (int g = 0; g < kRowGroups; g++) {
    writer.StartRowGroup();
    std::vector<int64_t> ids;
    std::vector<int32_t> vs;
    std::vector<double> ds;
    std::vector<int16_t> v_def, d_def;
    for (int64_t r = g * kRowGroupRows; r < (g + 1) * kRowGroupRows; r++) {
      ids.push_back(IdOf(r));
      v_def.push_back(IsNull(kV, r, nulls) ? 0 : 1);
      if (!IsNull(kV, r, nulls)) vs.push_back(VOf(r));
      d_def.push_back(IsNull(kD, r, nulls) ? 0 : 1);
      if (!IsNull(kD, r, nulls)) ds.push_back(DOf(r));
    }
    writer.WriteBatch<int64_t>(kId, ids.size(), nullptr, nullptr, ids.data(), ids.size());
    writer.WriteBatch<int32_t>(kV, v_def.size(), v_def.data(), nullptr, vs.data(), vs.size());
    writer.WriteBatch<double>(kD, d_def.size(), d_def.data(), nullptr, ds.data(), ds.size());
    writer.EndRowGroup(kRowGroupRows);
  }
  writer.Close();
  return path;
}

// Checks the n slots of `leaf` in `batch`, from file row `row`, against the values written.
void CheckSlots(const ColumnBatch& batch, int leaf, int64_t row, size_t n, bool nulls) {
  size_t value = 0;
  for (size_t s = 0; s < n; s++) {
    const int64_t r = row + static_cast<int64_t>(s);
    INFO("leaf " << leaf << ", row " << r);
    const bool is_null = IsNull(leaf, r, nulls);
    if (leaf != kId) CHECK(batch.def_levels[s] == (is_null ? 0 : 1));
    if (is_null) continue;
    REQUIRE(value < batch.num_values);
    switch (leaf) {
      case kId: CHECK(batch.values<int64_t>()[value] == IdOf(r)); break;
      case kV: CHECK(batch.values<int32_t>()[value] == VOf(r)); break;
      default: CHECK(batch.values<double>()[value] == DOf(r)); break;
    }
    value++;
  }
  CHECK(value == batch.num_values);
}

// Asks the cache for up to `count` slots of each of `leaves` at each of `rows` (file rows,
// in that order) and checks them against the values written; returns the most bytes the
// cache kept meanwhile.
uint64_t CheckRows(LookupBatchCache* cache, const ParquetFileReader& file, bool nulls, const std::vector<int64_t>& rows,
                   size_t count, const std::vector<int>& leaves) {
  ColumnReaderOptions options;
  ColumnBatch batch;
  uint64_t most_kept = 0;
  for (int64_t row : rows) {
    const int rg = static_cast<int>(row / kRowGroupRows);
    const int64_t in_group = row % kRowGroupRows;
    for (int leaf : leaves) {
      const size_t n = cache->Copy(file, 0, rg, leaf, in_group, count, options, &batch);
      REQUIRE(n >= 1);
      REQUIRE(n <= count);
      CHECK(in_group + static_cast<int64_t>(n) <= kRowGroupRows);
      REQUIRE(batch.num_levels == n);
      CheckSlots(batch, leaf, row, n, nulls);
      most_kept = std::max(most_kept, cache->kept_bytes());
    }
  }
  return most_kept;
}

// Every `step`-th row of the file, shuffled.
std::vector<int64_t> ShuffledRows(int64_t step) {
  std::vector<int64_t> rows;
  for (int64_t r = 0; r < kRows; r += step) rows.push_back(r);
  std::shuffle(rows.begin(), rows.end(), std::mt19937(7));
  return rows;
}

}  // namespace

TEST_CASE("lookup batch cache: a few rows, block by block, in any order") {
  test_support::TempDir dir;
  for (bool nulls : {false, true}) {
    INFO("nulls " << nulls);
    auto file = ParquetFileReader::Open(WriteFile(dir, nulls));
    LookupBatchCache cache(uint64_t{1} << 30);
    // Backwards within a row group, across row groups and blocks, the last row of a group.
    CheckRows(&cache, *file, nulls, {4999, 10, 1023, 1024, 7000, 2, 14999, 5000, 4998}, 3, {kD, kId, kV});
    // The same rows again, now kept.
    CheckRows(&cache, *file, nulls, {10, 4999, 14999}, 1, {kD, kId, kV});
  }
}

TEST_CASE("lookup batch cache: many rows in random order decode whole row groups") {
  test_support::TempDir dir;
  for (bool nulls : {false, true}) {
    INFO("nulls " << nulls);
    auto file = ParquetFileReader::Open(WriteFile(dir, nulls));
    LookupBatchCache cache(uint64_t{1} << 30);
    const std::vector<int64_t> rows = ShuffledRows(3);
    CheckRows(&cache, *file, nulls, rows, 5, {kD, kId, kV});
    CheckRows(&cache, *file, nulls, rows, 5, {kV, kD, kId});  // again, from the kept blocks
  }
}

TEST_CASE("lookup batch cache: what is kept stays within the budget, one column past it included") {
  test_support::TempDir dir;
  auto file = ParquetFileReader::Open(WriteFile(dir, true));
  // Column id alone takes 15,000 rows x 8 bytes: far past 40 KiB.
  constexpr uint64_t kBudget = 40 * 1024;
  LookupBatchCache cache(kBudget);
  const std::vector<int64_t> rows = ShuffledRows(97);
  CHECK(CheckRows(&cache, *file, true, rows, 5, {kId}) <= kBudget);
  CHECK(CheckRows(&cache, *file, true, rows, 5, {kId, kV, kD}) <= kBudget);
  CHECK(CheckRows(&cache, *file, true, rows, 5, {kD, kV, kId}) <= kBudget);  // blocks dropped are decoded again
}

TEST_CASE("lookup batch cache: eight blocks of a row group out of order, then the rest of that row group") {
  test_support::TempDir dir;
  // One INT64 column, row r = r * 5 - 3, in 4 row groups of 40 blocks each: the blocks
  // asked for below stay under a quarter of the file's 160.
  constexpr int64_t kBlock = LookupBatchCache::kSlots;
  constexpr int64_t kGroupRows = 40 * kBlock;
  const std::string path = dir.File("groups.parquet");
  {
    WriterOptions options;
    options.page_size = 4 << 10;
    ParquetFileWriter writer(path, {RootElement(1), LeafElement("k", FieldRepetitionType::REQUIRED, Type::INT64)},
                             options);
    for (int g = 0; g < 4; g++) {
      writer.StartRowGroup();
      std::vector<int64_t> keys;
      for (int64_t r = g * kGroupRows; r < (g + 1) * kGroupRows; r++) keys.push_back(r * 5 - 3);
      writer.WriteBatch<int64_t>(0, keys.size(), nullptr, nullptr, keys.data(), keys.size());
      writer.EndRowGroup(kGroupRows);
    }
    writer.Close();
  }
  auto file = ParquetFileReader::Open(path);
  LookupBatchCache cache(uint64_t{1} << 30);
  ColumnReaderOptions options;
  ColumnBatch batch;
  auto fetch = [&](int rg, int64_t row) {
    REQUIRE(cache.Copy(*file, 0, rg, 0, row, 1, options, &batch) == 1);
    CHECK(batch.values<int64_t>()[0] == (rg * kGroupRows + row) * 5 - 3);
  };
  const uint64_t block_bytes = kBlock * sizeof(int64_t);
  // Blocks 39, 37, ..., 25 of row group 1 (backwards: the reader starts over for each).
  for (uint32_t i = 0; i < LookupBatchCache::kAloneBeforeGroup; i++) fetch(1, (39 - 2 * i) * kBlock + 17);
  const uint64_t alone = cache.kept_bytes();
  CHECK(alone >= LookupBatchCache::kAloneBeforeGroup * block_bytes);
  CHECK(alone < (LookupBatchCache::kAloneBeforeGroup + 1) * block_bytes);
  // Row group 0 is apart: its blocks come alone, and in the order of rows (the reader
  // moving forward) as many as are asked for.
  for (int64_t b = 0; b < 20; b++) fetch(0, b * kBlock + 5);
  CHECK(cache.kept_bytes() == alone + 20 * block_bytes);
  // The next missing block of row group 1 brings its other 31.
  fetch(1, 2 * kBlock + 1);
  CHECK(cache.kept_bytes() == alone + 20 * block_bytes + 32 * block_bytes);
  // Every row of row group 1 is now kept, and right.
  for (int64_t row = 0; row < kGroupRows; row += 331) fetch(1, row);
  CHECK(cache.kept_bytes() == alone + 52 * block_bytes);
}

namespace {

// Rows of `leaf` (an INT64 column) from `rows`, one slot each, against value_of(row); the
// most bytes the cache kept meanwhile.
template <typename ValueOf>
uint64_t CheckInt64s(LookupBatchCache* cache, const ParquetFileReader& file, int leaf, int64_t group_rows,
                     const std::vector<int64_t>& rows, ValueOf value_of) {
  ColumnReaderOptions options;
  ColumnBatch batch;
  uint64_t most_kept = 0;
  for (int64_t row : rows) {
    INFO("row " << row);
    REQUIRE(cache->Copy(file, 0, static_cast<int>(row / group_rows), leaf, row % group_rows, 1, options, &batch) == 1);
    const std::optional<int64_t> want = value_of(row);
    if (file.schema().column(leaf).max_definition_level > 0) CHECK(batch.def_levels[0] == (want ? 1 : 0));
    REQUIRE(batch.num_values == (want ? 1u : 0u));
    if (want) CHECK(batch.values<int64_t>()[0] == *want);
    most_kept = std::max(most_kept, cache->kept_bytes());
  }
  return most_kept;
}

// Rewrites the footer of the file at `path` so that every chunk claims to be dictionary-
// encoded throughout (encodings RLE_DICTIONARY and RLE, no encoding_stats), whatever its
// pages are.
void ClaimDictionaryThroughout(const std::string& path) {
  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  REQUIRE(bytes.size() > 12);
  uint32_t footer = 0;
  std::memcpy(&footer, bytes.data() + bytes.size() - 8, 4);
  const size_t footer_start = bytes.size() - 8 - footer;
  FileMetaData meta = ParseFileMetaData(reinterpret_cast<const uint8_t*>(bytes.data()) + footer_start, footer);
  for (RowGroup& group : meta.row_groups) {
    for (ColumnChunk& chunk : group.columns) {
      REQUIRE(chunk.meta_data);
      chunk.meta_data->encodings = {Encoding::RLE_DICTIONARY, Encoding::RLE};
      chunk.meta_data->encoding_stats.reset();
    }
  }
  const std::string serialized = Serialize(meta);
  const uint32_t length = static_cast<uint32_t>(serialized.size());
  bytes.resize(footer_start);
  bytes += serialized;
  bytes.append(reinterpret_cast<const char*>(&length), 4);
  bytes += "PAR1";
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

}  // namespace

TEST_CASE("lookup batch cache: dictionary-encoded row groups keep 1- or 2-byte indices") {
  // q INT64 OPTIONAL: 50 values, some rows null (1-byte indices); w INT64 REQUIRED: 1,000
  // values (2-byte indices); in 3 row groups of 6,000 rows.
  test_support::TempDir dir;
  constexpr int64_t kGroup = 6000, kAll = 3 * kGroup;
  auto q_of = [](int64_t r) -> std::optional<int64_t> {
    if (r % 11 == 4) return std::nullopt;
    return (r * 7) % 50 - 20;
  };
  auto w_of = [](int64_t r) -> std::optional<int64_t> { return (r * 31) % 1000 * 1000003; };
  const std::string path = dir.File("dictionary.parquet");
  {
    WriterOptions options;
    options.page_size = 4 << 10;
    ParquetFileWriter writer(path,
                             {RootElement(2), LeafElement("q", FieldRepetitionType::OPTIONAL, Type::INT64),
                              LeafElement("w", FieldRepetitionType::REQUIRED, Type::INT64)},
                             options);
    for (int g = 0; g < 3; g++) {
      writer.StartRowGroup();
      std::vector<int64_t> qs, ws;
      std::vector<int16_t> q_def;
      for (int64_t r = g * kGroup; r < (g + 1) * kGroup; r++) {
        q_def.push_back(q_of(r) ? 1 : 0);
        if (q_of(r)) qs.push_back(*q_of(r));
        ws.push_back(*w_of(r));
      }
      writer.WriteBatch<int64_t>(0, q_def.size(), q_def.data(), nullptr, qs.data(), qs.size());
      writer.WriteBatch<int64_t>(1, ws.size(), nullptr, nullptr, ws.data(), ws.size());
      writer.EndRowGroup(kGroup);
    }
    writer.Close();
  }
  auto file = ParquetFileReader::Open(path);
  for (int g = 0; g < 3; g++) {
    REQUIRE(ChunkIsFullyDictionaryEncoded(file->column_metadata(g, 0)));
    REQUIRE(ChunkIsFullyDictionaryEncoded(file->column_metadata(g, 1)));
  }
  std::vector<int64_t> rows(kAll);
  for (int64_t r = 0; r < kAll; r++) rows[static_cast<size_t>(r)] = r;
  std::shuffle(rows.begin(), rows.end(), std::mt19937(11));
  {
    LookupBatchCache cache(uint64_t{1} << 30);
    const uint64_t kept = CheckInt64s(&cache, *file, 0, kGroup, rows, q_of);
    // Values would take 8 bytes a row and a level 2 more: an index takes 1.
    CHECK(kept <= static_cast<uint64_t>(kAll) * 3 + 3 * 50 * 8 + 2048);
    CHECK(CheckInt64s(&cache, *file, 0, kGroup, {5, 4, kAll - 1, kGroup}, q_of) == kept);  // kept, nothing more
  }
  {
    LookupBatchCache cache(uint64_t{1} << 30);
    const uint64_t kept = CheckInt64s(&cache, *file, 1, kGroup, rows, w_of);
    CHECK(kept <= static_cast<uint64_t>(kAll) * 2 + 3 * 1000 * 8 + 2048);
  }
  {
    // Two blocks of a row group kept as indices read one by one (backwards), then the next
    // missing one brings the rest of that row group: a byte and a level a row.
    LookupBatchCache cache(uint64_t{1} << 30);
    constexpr int64_t kBlock = LookupBatchCache::kSlots;
    const int64_t group1 = kGroup;
    CheckInt64s(&cache, *file, 0, kGroup, {group1 + 4 * kBlock + 3, group1 + 2 * kBlock + 9}, q_of);
    const uint64_t alone = cache.kept_bytes();
    CheckInt64s(&cache, *file, 0, kGroup, {group1 + 7}, q_of);
    CHECK(cache.kept_bytes() - alone == static_cast<uint64_t>(kGroup - 2 * kBlock) * 3);
  }
  {
    // Within a small budget, indices count as what they take.
    constexpr uint64_t kBudget = 8 * 1024;
    LookupBatchCache cache(kBudget);
    CHECK(CheckInt64s(&cache, *file, 0, kGroup, rows, q_of) <= kBudget);
  }
}

TEST_CASE("lookup batch cache: a chunk that leaves its dictionary keeps values, whatever its metadata says") {
  // k INT64 REQUIRED in 2 row groups of 8,000 rows: 10 values for the first 2,000 rows of
  // each, then every row its own; the dictionary passes its 200-byte limit and the pages
  // after it are PLAIN.
  test_support::TempDir dir;
  constexpr int64_t kGroup = 8000, kAll = 2 * kGroup;
  auto k_of = [](int64_t r) -> std::optional<int64_t> { return r % kGroup < 2000 ? r % 10 : r * 3; };
  const std::string path = dir.File("fallback.parquet");
  {
    WriterOptions options;
    options.page_size = 1 << 10;
    options.automatic_encoding = false;
    options.dictionary_page_size_limit = 200;
    ParquetFileWriter writer(path, {RootElement(1), LeafElement("k", FieldRepetitionType::REQUIRED, Type::INT64)},
                             options);
    for (int g = 0; g < 2; g++) {
      writer.StartRowGroup();
      std::vector<int64_t> ks;
      for (int64_t r = g * kGroup; r < (g + 1) * kGroup; r++) ks.push_back(*k_of(r));
      writer.WriteBatch<int64_t>(0, ks.size(), nullptr, nullptr, ks.data(), ks.size());
      writer.EndRowGroup(kGroup);
    }
    writer.Close();
  }
  std::vector<int64_t> shuffled(kAll);
  for (int64_t r = 0; r < kAll; r++) shuffled[static_cast<size_t>(r)] = r;
  std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937(5));
  // First a row of the dictionary pages, then of the PLAIN ones (the row group kept as
  // indices drops them), and the other way round; then every row.
  const std::vector<std::vector<int64_t>> orders = {
      {5, 7000, 1999, 2000, 0, kGroup + 3, kGroup + 7999}, {7000, 5, kGroup + 7999, kGroup + 3}, shuffled};
  for (bool lying : {false, true}) {
    INFO("metadata claims dictionary throughout: " << lying);
    if (lying) ClaimDictionaryThroughout(path);
    auto file = ParquetFileReader::Open(path);
    CHECK(ChunkIsFullyDictionaryEncoded(file->column_metadata(0, 0)) == lying);
    for (const std::vector<int64_t>& order : orders) {
      LookupBatchCache cache(uint64_t{1} << 30);
      CheckInt64s(&cache, *file, 0, kGroup, order, k_of);
      CheckInt64s(&cache, *file, 0, kGroup, order, k_of);  // again, kept
    }
  }
}

TEST_CASE("lookup batch cache: a dictionary too large to be worth its indices keeps values") {
  // n INT32 REQUIRED, 2 row groups of 5,000 rows, 4,000 distinct values each, all
  // dictionary-encoded: 16,000 bytes of entries and 10,000 of 2-byte indices are more than
  // 20,000 bytes of values.
  test_support::TempDir dir;
  constexpr int64_t kGroup = 5000;
  auto n_of = [](int64_t r) { return static_cast<int32_t>((r * 7) % 4000 - 1000); };
  const std::string path = dir.File("large_dictionary.parquet");
  {
    WriterOptions options;
    options.page_size = 2 << 10;
    options.automatic_encoding = false;
    ParquetFileWriter writer(path, {RootElement(1), LeafElement("n", FieldRepetitionType::REQUIRED, Type::INT32)},
                             options);
    for (int g = 0; g < 2; g++) {
      writer.StartRowGroup();
      std::vector<int32_t> ns;
      for (int64_t r = g * kGroup; r < (g + 1) * kGroup; r++) ns.push_back(n_of(r));
      writer.WriteBatch<int32_t>(0, ns.size(), nullptr, nullptr, ns.data(), ns.size());
      writer.EndRowGroup(kGroup);
    }
    writer.Close();
  }
  auto file = ParquetFileReader::Open(path);
  REQUIRE(ChunkIsFullyDictionaryEncoded(file->column_metadata(0, 0)));
  std::vector<int64_t> rows(2 * kGroup);
  for (int64_t r = 0; r < 2 * kGroup; r++) rows[static_cast<size_t>(r)] = r;
  std::shuffle(rows.begin(), rows.end(), std::mt19937(3));
  LookupBatchCache cache(uint64_t{1} << 30);
  ColumnReaderOptions options;
  ColumnBatch batch;
  for (int64_t row : rows) {
    INFO("row " << row);
    REQUIRE(cache.Copy(*file, 0, static_cast<int>(row / kGroup), 0, row % kGroup, 1, options, &batch) == 1);
    CHECK(batch.values<int32_t>()[0] == n_of(row));
  }
  // Values: 4 bytes a row.
  CHECK(cache.kept_bytes() >= 2 * kGroup * 4);
}

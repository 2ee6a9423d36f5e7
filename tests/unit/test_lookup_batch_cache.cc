// Tests of the values a join-index scan keeps (ext/table/lookup_batch_cache.h): rows copied
// from the cache equal the file's, in any order and across row groups and blocks, with
// nulls, a few (block by block) and many (whole row groups once a quarter of the blocks are
// decoded); what is kept stays within the budget, even when one column alone would exceed it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "ext/table/lookup_batch_cache.h"
#include "format/column_reader.h"
#include "format/file_reader.h"
#include "format/file_writer.h"
#include "tests/unit/schema_elements.h"
#include "tests/unit/temp_dir.h"

using namespace parquet;
using sqlite_parquet::LookupBatchCache;
using test_support::LeafElement;
using test_support::RootElement;

namespace {

constexpr int kGroups = 3;
constexpr int64_t kRowsPerGroup = 20000;

int64_t IdOf(int64_t row) { return row * 3 + 1; }
bool VIsNull(int64_t row) { return row % 13 == 5; }
int32_t VOf(int64_t row) { return static_cast<int32_t>(row % 977); }

// id: INT64 required; v: INT32 optional, null in some rows.
std::string WriteFile(const std::string& directory) {
  const std::string path = directory + "/kept.parquet";
  WriterOptions options;
  options.page_size = 4096;
  ParquetFileWriter writer(path,
                           {RootElement(2), LeafElement("id", FieldRepetitionType::REQUIRED, Type::INT64),
                            LeafElement("v", FieldRepetitionType::OPTIONAL, Type::INT32)},
                           options);
  for (int g = 0; g < kGroups; g++) {
    writer.StartRowGroup();
    std::vector<int64_t> ids;
    std::vector<int16_t> v_def;
    std::vector<int32_t> vs;
    for (int64_t r = g * kRowsPerGroup; r < (g + 1) * kRowsPerGroup; r++) {
      ids.push_back(IdOf(r));
      v_def.push_back(VIsNull(r) ? 0 : 1);
      if (!VIsNull(r)) vs.push_back(VOf(r));
    }
    writer.WriteBatch<int64_t>(0, ids.size(), nullptr, nullptr, ids.data(), ids.size());
    writer.WriteBatch<int32_t>(1, v_def.size(), v_def.data(), nullptr, vs.data(), vs.size());
    writer.EndRowGroup(kRowsPerGroup);
  }
  writer.Close();
  return path;
}

// Copies a few rows from each of `starts` (file rows) of column id (and of v, with
// `both`) through `cache` and checks them against the values written; returns the most
// bytes the cache kept.
uint64_t CopyAndCheck(const ParquetFileReader& file, LookupBatchCache* cache, const std::vector<int64_t>& starts,
                      bool both = true) {
  ColumnReaderOptions options;
  ColumnBatch batch;
  uint64_t most_kept = 0;
  for (int64_t start : starts) {
    const int rg = static_cast<int>(start / kRowsPerGroup);
    const int64_t row = start % kRowsPerGroup;
    size_t n = cache->Copy(file, 0, rg, 0, row, 5, options, &batch);
    REQUIRE(n >= 1);
    REQUIRE(batch.num_values == n);
    for (size_t i = 0; i < n; i++) CHECK(batch.values<int64_t>()[i] == IdOf(start + static_cast<int64_t>(i)));
    most_kept = std::max(most_kept, cache->kept_bytes());
    if (!both) continue;
    n = cache->Copy(file, 0, rg, 1, row, 5, options, &batch);
    REQUIRE(n >= 1);
    size_t value = 0;
    for (size_t i = 0; i < n; i++) {
      const int64_t r = start + static_cast<int64_t>(i);
      CHECK(batch.def_levels[i] == (VIsNull(r) ? 0 : 1));
      if (!VIsNull(r)) CHECK(batch.values<int32_t>()[value++] == VOf(r));
    }
    CHECK(batch.num_values == value);
    most_kept = std::max(most_kept, cache->kept_bytes());
  }
  return most_kept;
}

std::vector<int64_t> ShuffledStarts() {
  std::vector<int64_t> starts;
  for (int64_t row = 0; row < kGroups * kRowsPerGroup; row += 997) starts.push_back(row);
  std::shuffle(starts.begin(), starts.end(), std::mt19937(7));
  return starts;
}

}  // namespace

TEST_CASE("lookup batch cache: copied rows equal the file's, in any order") {
  test_support::TempDir dir;
  auto file = ParquetFileReader::Open(WriteFile(dir.path()));
  LookupBatchCache cache(uint64_t{1} << 30);
  const std::vector<int64_t> starts = ShuffledStarts();
  CopyAndCheck(*file, &cache, starts);
  CopyAndCheck(*file, &cache, starts);  // again, from the kept blocks
}

TEST_CASE("lookup batch cache: what is kept stays within the budget, one column past it included") {
  test_support::TempDir dir;
  auto file = ParquetFileReader::Open(WriteFile(dir.path()));
  // Column id alone takes 60,000 rows x 8 bytes: far past 100 KB.
  constexpr uint64_t kBudget = 100 * 1024;
  LookupBatchCache cache(kBudget);
  const std::vector<int64_t> starts = ShuffledStarts();
  CHECK(CopyAndCheck(*file, &cache, starts, false) <= kBudget);
  CHECK(CopyAndCheck(*file, &cache, starts) <= kBudget);
  CHECK(CopyAndCheck(*file, &cache, starts) <= kBudget);  // blocks dropped are decoded again
}

namespace doubles {

constexpr int64_t kRowGroupRows = 5000;  // not a multiple of the block: a short last block
constexpr int kRowGroups = 3;

// Row r of the file: "d" DOUBLE (OPTIONAL, every 7th row null when `nulls`), "i" INT64
// (REQUIRED).
bool IsNull(int64_t r, bool nulls) { return nulls && r % 7 == 3; }
double DoubleOf(int64_t r) { return static_cast<double>(r) * 0.5 + 1; }

std::string WriteDoubleFile(const test_support::TempDir& dir, bool nulls) {
  const std::string path = dir.File(nulls ? "nulls.parquet" : "plain.parquet");
  WriterOptions options;
  options.page_size = 4 << 10;  // many pages a row group
  ParquetFileWriter writer(path,
                           {test_support::RootElement(2),
                            test_support::LeafElement("d", FieldRepetitionType::OPTIONAL, Type::DOUBLE),
                            test_support::LeafElement("i", FieldRepetitionType::REQUIRED, Type::INT64)},
                           options);
  for (int g = 0; g < kRowGroups; g++) {
    writer.StartRowGroup();
    std::vector<int16_t> def;
    std::vector<double> d;
    std::vector<int64_t> i;
    for (int64_t r = g * kRowGroupRows; r < (g + 1) * kRowGroupRows; r++) {
      def.push_back(IsNull(r, nulls) ? 0 : 1);
      if (!IsNull(r, nulls)) d.push_back(DoubleOf(r));
      i.push_back(r * 3 - 7);
    }
    writer.WriteBatch<double>(0, def.size(), def.data(), nullptr, d.data(), d.size());
    writer.WriteBatch<int64_t>(1, i.size(), nullptr, nullptr, i.data(), i.size());
    writer.EndRowGroup(kRowGroupRows);
  }
  writer.Close();
  return path;
}

// Asks the cache for `count` slots of each of `rows` (file rows, in that order) and checks
// them against the values the file holds.
void CheckRows(LookupBatchCache* cache, const ParquetFileReader& file, bool nulls, const std::vector<int64_t>& rows,
               size_t count) {
  ColumnReaderOptions options;
  ColumnBatch batch;
  for (int64_t row : rows) {
    const int rg = static_cast<int>(row / kRowGroupRows);
    const int64_t in_group = row % kRowGroupRows;
    // The double column.
    const size_t n = cache->Copy(file, 0, rg, 0, in_group, count, options, &batch);
    REQUIRE(n >= 1);
    REQUIRE(n <= count);
    CHECK(in_group + static_cast<int64_t>(n) <= kRowGroupRows);
    REQUIRE(batch.num_levels == n);
    size_t value = 0;
    for (size_t s = 0; s < n; s++) {
      const int64_t r = row + static_cast<int64_t>(s);
      INFO("row " << r);
      CHECK(batch.def_levels[s] == (IsNull(r, nulls) ? 0 : 1));
      if (IsNull(r, nulls)) continue;
      REQUIRE(value < batch.num_values);
      CHECK(batch.values<double>()[value++] == DoubleOf(r));
    }
    CHECK(value == batch.num_values);
    // The integer column (no levels).
    const size_t m = cache->Copy(file, 0, rg, 1, in_group, 1, options, &batch);
    REQUIRE(m == 1);
    REQUIRE(batch.num_values == 1);
    CHECK(batch.values<int64_t>()[0] == row * 3 - 7);
  }
}

}  // namespace doubles

TEST_CASE("lookup batch cache: a few rows, block by block, in any order") {
  test_support::TempDir dir;
  for (bool nulls : {false, true}) {
    INFO("nulls " << nulls);
    auto file = ParquetFileReader::Open(doubles::WriteDoubleFile(dir, nulls));
    LookupBatchCache cache(uint64_t{1} << 30);
    // Backwards within a row group, across row groups and blocks, the last row of a group.
    doubles::CheckRows(&cache, *file, nulls, {4999, 10, 1023, 1024, 7000, 2, 14999, 5000, 4998}, 3);
    // The same rows again, now kept.
    doubles::CheckRows(&cache, *file, nulls, {10, 4999, 14999}, 1);
  }
}

TEST_CASE("lookup batch cache: many rows in random order decode whole row groups") {
  test_support::TempDir dir;
  for (bool nulls : {false, true}) {
    INFO("nulls " << nulls);
    auto file = ParquetFileReader::Open(doubles::WriteDoubleFile(dir, nulls));
    LookupBatchCache cache(uint64_t{1} << 30);
    std::vector<int64_t> rows;
    for (int64_t r = 0; r < doubles::kRowGroups * doubles::kRowGroupRows; r += 3) rows.push_back(r);
    std::shuffle(rows.begin(), rows.end(), std::mt19937(7));
    doubles::CheckRows(&cache, *file, nulls, rows, 5);
  }
}

// Tests of the values a join-index scan keeps (ext/table/lookup_batch_cache.h): rows asked
// for in any order, a few (block by block) and many (whole row groups once a quarter of the
// blocks are decoded), with and without nulls, across row groups and pages, read back
// exactly as a sequential read of the column gives them.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "ext/table/lookup_batch_cache.h"
#include "format/file_writer.h"
#include "tests/unit/schema_elements.h"
#include "tests/unit/temp_dir.h"

using namespace parquet;
using sqlite_parquet::LookupBatchCache;

namespace {

constexpr int64_t kRowGroupRows = 5000;  // not a multiple of the block: a short last block
constexpr int kRowGroups = 3;

// Row r of the file: "d" DOUBLE (OPTIONAL, every 7th row null when `nulls`), "i" INT64
// (REQUIRED).
bool IsNull(int64_t r, bool nulls) { return nulls && r % 7 == 3; }
double DoubleOf(int64_t r) { return static_cast<double>(r) * 0.5 + 1; }

std::string WriteFile(const test_support::TempDir& dir, bool nulls) {
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

}  // namespace

TEST_CASE("lookup batch cache: a few rows, block by block, in any order") {
  test_support::TempDir dir;
  for (bool nulls : {false, true}) {
    INFO("nulls " << nulls);
    auto file = ParquetFileReader::Open(WriteFile(dir, nulls));
    LookupBatchCache cache(uint64_t{1} << 30);
    // Backwards within a row group, across row groups and blocks, the last row of a group.
    CheckRows(&cache, *file, nulls, {4999, 10, 1023, 1024, 7000, 2, 14999, 5000, 4998}, 3);
    // The same rows again, now kept.
    CheckRows(&cache, *file, nulls, {10, 4999, 14999}, 1);
  }
}

TEST_CASE("lookup batch cache: many rows in random order decode whole row groups") {
  test_support::TempDir dir;
  for (bool nulls : {false, true}) {
    INFO("nulls " << nulls);
    auto file = ParquetFileReader::Open(WriteFile(dir, nulls));
    LookupBatchCache cache(uint64_t{1} << 30);
    std::vector<int64_t> rows;
    for (int64_t r = 0; r < kRowGroups * kRowGroupRows; r += 3) rows.push_back(r);
    std::shuffle(rows.begin(), rows.end(), std::mt19937(7));
    CheckRows(&cache, *file, nulls, rows, 5);
  }
}

TEST_CASE("lookup batch cache: over its budget it drops what it kept and goes on") {
  test_support::TempDir dir;
  auto file = ParquetFileReader::Open(WriteFile(dir, true));
  // Room for a few blocks: every new column drops the other one.
  LookupBatchCache cache(3 * LookupBatchCache::kSlots * 10);
  std::vector<int64_t> rows;
  for (int64_t r = 11; r < kRowGroups * kRowGroupRows; r += 997) rows.push_back(r);
  CheckRows(&cache, *file, true, rows, 2);
}

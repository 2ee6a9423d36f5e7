// Tests of row-group pruning (ext/row_group_pruning) on a file written for the purpose:
// each reason a row group is skipped (statistics, bloom filter, dictionary), the row
// groups that must be kept (NULLs, values inside the bounds), and the page index narrowing
// the rows of a kept row group.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "ext/table/constraints.h"
#include "ext/table/row_group_pruning.h"
#include "format/read/file_reader.h"
#include "format/write/file_writer.h"
#include "tests/unit/schema_elements.h"
#include "tests/unit/temp_dir.h"

using namespace sqlite_parquet;
using parquet::ByteArray;
using parquet::FieldRepetitionType;
using parquet::Type;

namespace {

constexpr int64_t kRows = 100;

// Three row groups of 100 rows: v INT64 (0..99; 100..199 with every 10th NULL; all NULL),
// s TEXT with a bloom filter (k000..k299), d TEXT dictionary-encoded ("apple"/"cherry";
// then only "apple"). Small pages, so that the page index has several pages per chunk.
std::string WriteTestFile(const test_support::TempDir& dir) {
  const std::string path = dir.File("pruning.parquet");
  auto text = [](const std::string& name, FieldRepetitionType repetition) {
    parquet::SchemaElement e = test_support::LeafElement(name, repetition, Type::BYTE_ARRAY);
    e.converted_type = parquet::ConvertedType::UTF8;
    return e;
  };
  parquet::WriterOptions options;
  options.page_size = 64;
  options.bloom_filter_columns = {1};
  options.column_encoding[2] = parquet::Encoding::RLE_DICTIONARY;
  parquet::ParquetFileWriter writer(
      path,
      {test_support::RootElement(3), test_support::LeafElement("v", FieldRepetitionType::OPTIONAL, Type::INT64),
       text("s", FieldRepetitionType::OPTIONAL), text("d", FieldRepetitionType::REQUIRED)},
      options);
  for (int rg = 0; rg < 3; rg++) {
    writer.StartRowGroup();
    std::vector<int16_t> v_def, s_def(kRows, 1);
    std::vector<int64_t> v;
    std::vector<std::string> s_text, d_text;
    for (int64_t i = 0; i < kRows; i++) {
      const int64_t value = rg * kRows + i;
      const bool null = rg == 2 || (rg == 1 && i % 10 == 0);
      v_def.push_back(null ? 0 : 1);
      if (!null) v.push_back(value);
      char key[16];
      std::snprintf(key, sizeof key, "k%03d", static_cast<int>(value));
      s_text.push_back(key);
      d_text.push_back(rg == 2 || i % 2 == 0 ? "apple" : "cherry");
    }
    auto views = [](const std::vector<std::string>& texts) {
      std::vector<ByteArray> out;
      for (const std::string& t : texts) out.push_back(ByteArray{reinterpret_cast<const uint8_t*>(t.data()), static_cast<uint32_t>(t.size())});
      return out;
    };
    const std::vector<ByteArray> s = views(s_text), d = views(d_text);
    writer.WriteBatch<int64_t>(0, kRows, v_def.data(), nullptr, v.data(), v.size());
    writer.WriteBatch<ByteArray>(1, kRows, s_def.data(), nullptr, s.data(), s.size());
    writer.WriteBatch<ByteArray>(2, kRows, nullptr, nullptr, d.data(), d.size());
    writer.EndRowGroup(kRows);
  }
  writer.Close();
  return path;
}

struct Fixture {
  test_support::TempDir dir;
  std::unique_ptr<parquet::ParquetFileReader> file = parquet::ParquetFileReader::Open(WriteTestFile(dir));
  std::vector<ColumnMapping> mappings;
  Fixture() {
    for (int c = 0; c < 3; c++) mappings.push_back(MapTopLevelField(file->schema(), c, MappingOptions()));
  }
  // The reason of each row group for one filter on column `column`, one letter each:
  // Keep, Statistics, Bloom filter, Dictionary, Page index.
  std::string Reasons(ConstraintOp op, std::vector<SqlValue> values, int column) {
    ColumnFilter filter;
    filter.column = column;
    filter.op = op;
    filter.values = std::move(values);
    RowGroupPruner pruner(*file, {FileColumnFilter{&filter, &mappings[static_cast<size_t>(column)]}});
    std::string reasons;
    parquet::ColumnReadCounters counters;
    for (int rg = 0; rg < file->num_row_groups(); rg++) reasons += "KSBDP"[static_cast<int>(pruner.Check(rg, {}, &counters))];
    return reasons;
  }
};

}  // namespace

TEST_CASE("row-group pruning by statistics: bounds, NULL counts, all-NULL chunks") {
  Fixture f;
  REQUIRE(f.file->num_row_groups() == 3);
  CHECK(f.Reasons(ConstraintOp::kEq, {SqlValue::Integer(155)}, 0) ==
        "SKS");
  // 150 is inside row group 1's bounds but NULL there: its dictionary lacks it.
  CHECK(f.Reasons(ConstraintOp::kEq, {SqlValue::Integer(150)}, 0) == "SDS");
  CHECK(f.Reasons(ConstraintOp::kEq, {SqlValue::Real(99.0)}, 0) ==
        "KSS");
  CHECK(f.Reasons(ConstraintOp::kGt, {SqlValue::Integer(199)}, 0) ==
        "SSS");
  CHECK(f.Reasons(ConstraintOp::kIsNull, {}, 0) == "SKK");
  CHECK(f.Reasons(ConstraintOp::kIsNotNull, {}, 0) == "KKS");
  // Text sorts after every number in SQLite: no INT64 value is >= '0'.
  CHECK(f.Reasons(ConstraintOp::kGe, {SqlValue::Text("0")}, 0) ==
        "SSS");
}

TEST_CASE("row-group pruning by bloom filter and by dictionary, inside the statistics bounds") {
  Fixture f;
  // 'k0505' lies between k000 and k099 but is not a value: only the bloom filter knows.
  CHECK(f.Reasons(ConstraintOp::kEq, {SqlValue::Text("k0505")}, 1) ==
        "BSS");
  CHECK(f.Reasons(ConstraintOp::kEq, {SqlValue::Text("k150")}, 1) ==
        "SKS");
  CHECK(f.Reasons(ConstraintOp::kIn, {SqlValue::Text("k0505"), SqlValue::Text("k250")}, 1) ==
        "BSK");
  // 'banana' lies between apple and cherry; the chunks are wholly dictionary-encoded.
  CHECK(f.Reasons(ConstraintOp::kEq, {SqlValue::Text("banana")}, 2) ==
        "DDS");
  CHECK(f.Reasons(ConstraintOp::kEq, {SqlValue::Text("cherry")}, 2) ==
        "KKS");
}

TEST_CASE("the page index narrows a kept row group to the pages that may match") {
  Fixture f;
  ColumnFilter filter;
  filter.column = 0;
  filter.op = ConstraintOp::kGe;
  filter.values = {SqlValue::Integer(190)};
  RowGroupPruner pruner(*f.file, {FileColumnFilter{&filter, &f.mappings[0]}});
  int64_t pages_pruned = 0;
  const parquet::RowRanges rows = pruner.MatchingRows(1, parquet::RowRanges::All(kRows), &pages_pruned);
  CHECK(pages_pruned > 0);
  CHECK(rows.num_rows() < kRows);
  CHECK(rows.num_rows() >= 10);                    // rows 90..99 hold 190..199
  CHECK(rows.last_end() == kRows);
  CHECK(rows.Intersect(parquet::RowRanges::FromRanges({{0, 10}})).empty());  // the first page is out
  // An unprunable filter keeps every row.
  ColumnFilter is_null;
  is_null.column = 0;
  is_null.op = ConstraintOp::kIsNull;
  RowGroupPruner keep_nulls(*f.file, {FileColumnFilter{&is_null, &f.mappings[0]}});
  pages_pruned = 0;
  CHECK(keep_nulls.MatchingRows(2, parquet::RowRanges::All(kRows), &pages_pruned).num_rows() == kRows);
}

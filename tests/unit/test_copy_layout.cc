// Unit tests for the layout of parquet_copy's output (ext/copy/copy_layout.h): column names
// made unique, partition and stored columns, types from schema=, declared types and storage
// classes, leaf ranges of nested columns, the per-leaf writer options (encoding.COL,
// compression.COL and compression_level.COL, bloom_filter), sorting_columns' keys, field ids,
// and the errors for options that name the wrong column or do not fit its type.
#include "ext/copy/copy_layout.h"

#include <doctest/doctest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ext/copy/copy_output.h"

namespace sqlite_parquet {
namespace {

using parquet::CompressionCodec;
using parquet::Encoding;

CopyType TypeOf(const std::string& text) {
  CopyType type;
  std::string error;
  REQUIRE_MESSAGE(ParseCopyType(text, &type, &error), error);
  return type;
}

ResultColumn Result(const std::string& name, std::optional<std::string> declared_type = std::nullopt) {
  ResultColumn column;
  column.name = name;
  column.declared_type = std::move(declared_type);
  return column;
}

// a INT64, b STRUCT<x INT32, y LIST<STRING>>, c MAP<STRING, INT64>, d DOUBLE: the nested
// types from schema=, the flat ones from the declared types.
std::vector<ResultColumn> NestedResult() {
  return {Result("a", "INTEGER"), Result("b"), Result("c"), Result("d", "REAL")};
}
void AddNestedSchema(CopySettings* settings) {
  settings->schema.push_back(CopyField{"b", TypeOf("STRUCT<x INT32, y LIST<STRING>>")});
  settings->schema.push_back(CopyField{"c", TypeOf("MAP<STRING, INT64>")});
}

// The message of the CopyError that making the layout (and resolving it) throws.
std::string LayoutError(const std::vector<ResultColumn>& result, const CopySettings& settings) {
  try {
    CopyLayout layout(result, settings);
    layout.Resolve(std::vector<unsigned>(layout.num_data_columns(), 0));
  } catch (const CopyError& e) {
    return e.what();
  }
  FAIL("no error");
  return "";
}

}  // namespace

TEST_CASE("copy layout: repeated names get a suffix, types come from declared types or the values seen") {
  CopySettings settings;
  CopyLayout layout({Result("id", "INTEGER"), Result("ID"), Result("id", "TEXT"), Result("x")}, settings);
  REQUIRE(layout.columns().size() == 4);
  CHECK(layout.columns()[0].name == "id");
  CHECK(layout.columns()[1].name == "ID_1");
  CHECK(layout.columns()[2].name == "id_2");  // "id_1" would clash with "ID_1"
  CHECK(layout.columns()[3].name == "x");
  CHECK(layout.columns()[2].result_index == 2);
  CHECK(layout.partition_columns().empty());
  CHECK_FALSE(layout.all_typed());
  CHECK_FALSE(layout.resolved());

  layout.Resolve({0, kSeenInteger | kSeenReal, kSeenBlob, 0});
  REQUIRE(layout.resolved());
  REQUIRE(layout.num_data_columns() == 4);
  CHECK(DescribeCopyType(*layout.data_column(0).type) == "INT64");   // declared INTEGER
  CHECK(DescribeCopyType(*layout.data_column(1).type) == "DOUBLE");  // INTEGER and REAL seen
  CHECK(DescribeCopyType(*layout.data_column(2).type) == "STRING");  // declared TEXT: the BLOB seen does not count
  CHECK(DescribeCopyType(*layout.data_column(3).type) == "STRING");  // only NULLs seen
  CHECK(layout.leaf_types() ==
        std::vector<parquet::Type>{parquet::Type::INT64, parquet::Type::DOUBLE, parquet::Type::BYTE_ARRAY,
                                   parquet::Type::BYTE_ARRAY});
  // A second Resolve changes nothing.
  layout.Resolve({kSeenBlob, kSeenBlob, kSeenBlob, kSeenBlob});
  CHECK(DescribeCopyType(*layout.data_column(1).type) == "DOUBLE");
}

TEST_CASE("copy layout: nested columns take a range of leaves, and the schema lists their elements") {
  CopySettings settings;
  AddNestedSchema(&settings);
  CopyLayout layout(NestedResult(), settings);
  CHECK(layout.all_typed());
  layout.Resolve({0, 0, 0, 0});
  REQUIRE(layout.num_data_columns() == 4);
  CHECK(layout.data_column(0).first_leaf == 0);
  CHECK(layout.data_column(1).first_leaf == 1);  // b.x, b.y.list.element
  CHECK(layout.data_column(2).first_leaf == 3);  // c.key_value.key, c.key_value.value
  CHECK(layout.data_column(3).first_leaf == 5);
  CHECK(layout.leaf_types() == std::vector<parquet::Type>{parquet::Type::INT64, parquet::Type::INT32,
                                                          parquet::Type::BYTE_ARRAY, parquet::Type::BYTE_ARRAY,
                                                          parquet::Type::INT64, parquet::Type::DOUBLE});
  const std::vector<parquet::SchemaElement>& schema = layout.schema();
  std::vector<std::string> names;
  for (const parquet::SchemaElement& element : schema) names.push_back(element.name);
  CHECK(names == std::vector<std::string>{"schema", "a", "b", "x", "y", "list", "element", "c", "key_value", "key",
                                          "value", "d"});
  CHECK(schema[0].num_children == 4);
  for (const parquet::SchemaElement& element : schema) CHECK_FALSE(element.field_id.has_value());
}

TEST_CASE("copy layout: field_ids numbers every element but the root, depth first") {
  CopySettings settings;
  settings.field_ids = true;
  AddNestedSchema(&settings);
  CopyLayout layout(NestedResult(), settings);
  layout.Resolve({0, 0, 0, 0});
  const std::vector<parquet::SchemaElement>& schema = layout.schema();
  REQUIRE(schema.size() == 12);
  CHECK_FALSE(schema[0].field_id.has_value());
  for (size_t i = 1; i < schema.size(); ++i) {
    CAPTURE(schema[i].name);
    CHECK(schema[i].field_id == static_cast<int32_t>(i));
  }
}

TEST_CASE("copy layout: encoding.COL goes to the leaves it applies to, and fails when it applies to none") {
  CopySettings settings;
  AddNestedSchema(&settings);
  settings.encodings = {{"b", Encoding::DELTA_BINARY_PACKED}, {"D", Encoding::BYTE_STREAM_SPLIT}};
  CopyLayout layout(NestedResult(), settings);
  layout.Resolve({0, 0, 0, 0});
  // b.x is INT32; b.y's elements are BYTE_ARRAY, which delta_binary_packed does not fit.
  CHECK(layout.writer_options().column_encoding ==
        std::map<int, Encoding>{{1, Encoding::DELTA_BINARY_PACKED}, {5, Encoding::BYTE_STREAM_SPLIT}});

  CopySettings wrong;
  wrong.encodings = {{"d", Encoding::DELTA_BINARY_PACKED}};
  CHECK(LayoutError(NestedResult(), wrong) == "encoding.d: delta_binary_packed does not apply to column d (DOUBLE)");
  CopySettings missing;
  missing.encodings = {{"zz", Encoding::PLAIN}};
  CHECK(LayoutError(NestedResult(), missing) == "encoding.zz: the query has no column named zz");
}

TEST_CASE("copy layout: a column's codec keeps the file's level only when it is the file's codec") {
  CopySettings settings;
  AddNestedSchema(&settings);
  settings.writer.codec = CompressionCodec::ZSTD;
  settings.writer.compression_level = 7;
  settings.codecs = {{"a", std::nullopt, 3},                    // compression_level.a=3
                     {"b", CompressionCodec::ZSTD, std::nullopt},  // compression.b=zstd
                     {"c", CompressionCodec::GZIP, std::nullopt},  // compression.c=gzip
                     {"d", CompressionCodec::GZIP, 4}};           // both
  CopyLayout layout(NestedResult(), settings);
  layout.Resolve({0, 0, 0, 0});
  const parquet::WriterOptions& w = layout.writer_options();
  CHECK(w.codec == CompressionCodec::ZSTD);
  CHECK(w.compression_level == 7);
  REQUIRE(w.column_compression.size() == 6);
  auto check = [&](int leaf, CompressionCodec codec, std::optional<int> level) {
    CAPTURE(leaf);
    REQUIRE(w.column_compression.count(leaf) == 1);
    CHECK(w.column_compression.at(leaf).codec == codec);
    CHECK(w.column_compression.at(leaf).level == level);
  };
  check(0, CompressionCodec::ZSTD, 3);
  check(1, CompressionCodec::ZSTD, 7);  // the file's codec: the file's level
  check(2, CompressionCodec::ZSTD, 7);
  check(3, CompressionCodec::GZIP, std::nullopt);  // another codec: its default level
  check(4, CompressionCodec::GZIP, std::nullopt);
  check(5, CompressionCodec::GZIP, 4);

  CopySettings missing;
  missing.codecs = {{"zz", std::nullopt, 3}};
  CHECK(LayoutError(NestedResult(), missing) == "compression_level.zz: the query has no column named zz");
  missing.codecs = {{"zz", CompressionCodec::GZIP, std::nullopt}};
  CHECK(LayoutError(NestedResult(), missing) == "compression.zz: the query has no column named zz");
}

TEST_CASE("copy layout: bloom_filter=* covers every leaf, bloom_filter=COL,... the leaves of those columns once") {
  CopySettings all;
  AddNestedSchema(&all);
  all.bloom_all = true;
  CopyLayout every(NestedResult(), all);
  every.Resolve({0, 0, 0, 0});
  CHECK(every.writer_options().bloom_filter_columns == std::vector<int>{0, 1, 2, 3, 4, 5});

  CopySettings named;
  AddNestedSchema(&named);
  named.bloom_columns = {"c", "a", "C"};
  CopyLayout some(NestedResult(), named);
  some.Resolve({0, 0, 0, 0});
  CHECK(some.writer_options().bloom_filter_columns == std::vector<int>{3, 4, 0});

  CopySettings missing;
  missing.bloom_columns = {"zz"};
  CHECK(LayoutError(NestedResult(), missing) == "bloom_filter: the query has no column named zz");
}

TEST_CASE("copy layout: sorting_columns gives sort keys and RowGroup entries, and refuses nested columns") {
  CopySettings settings;
  AddNestedSchema(&settings);
  settings.sorting = {SortingSpec{"d", true, false}, SortingSpec{"A", false, true}};
  CopyLayout layout(NestedResult(), settings);
  layout.Resolve({0, 0, 0, 0});
  REQUIRE(layout.sort_keys().size() == 2);
  CHECK(layout.sort_keys()[0].name == "d");
  CHECK(layout.sort_keys()[0].comparison == parquet::ValueComparison::kFloatingPoint);
  CHECK(layout.sort_keys()[0].descending);
  CHECK_FALSE(layout.sort_keys()[0].nulls_first);
  CHECK(layout.sort_keys()[1].name == "a");
  CHECK(layout.sort_keys()[1].comparison == parquet::ValueComparison::kSignedInteger);
  CHECK(layout.sort_columns() == std::vector<size_t>{3, 0});
  const std::vector<parquet::SortingColumn>& sorting = layout.writer_options().sorting_columns;
  REQUIRE(sorting.size() == 2);
  CHECK(sorting[0].column_idx == 5);  // d's leaf
  CHECK(sorting[0].descending);
  CHECK_FALSE(sorting[0].nulls_first);
  CHECK(sorting[1].column_idx == 0);
  CHECK_FALSE(sorting[1].descending);
  CHECK(sorting[1].nulls_first);

  CopySettings nested;
  AddNestedSchema(&nested);
  nested.sorting = {SortingSpec{"b", false, true}};
  CHECK(LayoutError(NestedResult(), nested) ==
        "sorting_columns: b is a nested column (STRUCT<x INT32, y LIST<STRING>>)");
}

TEST_CASE("copy layout: partition_by takes columns out of the files, and options may not name them") {
  const std::vector<ResultColumn> result = {Result("year", "INTEGER"), Result("v", "REAL"), Result("region", "TEXT")};
  CopySettings settings;
  settings.partition_by = {"Region", "year"};
  settings.schema.push_back(CopyField{"year", TypeOf("INT16")});  // schema= may type a partition column
  CopyLayout layout(result, settings);
  CHECK(layout.partition_columns() == std::vector<int>{2, 0});
  CHECK(layout.columns()[0].is_partition);
  CHECK(layout.columns()[2].is_partition);
  REQUIRE(layout.num_data_columns() == 1);
  CHECK(layout.data_column(0).name == "v");
  layout.Resolve({0});
  CHECK(layout.schema().size() == 2);
  CHECK(layout.data_column(0).first_leaf == 0);

  auto with = [&](auto change) {
    CopySettings s;
    s.partition_by = {"region"};
    change(&s);
    return LayoutError(result, s);
  };
  CHECK(with([](CopySettings* s) { s->encodings = {{"region", Encoding::PLAIN}}; }) ==
        "encoding.region: region is a partition column (not stored in the files)");
  CHECK(with([](CopySettings* s) { s->codecs = {{"region", CompressionCodec::GZIP, std::nullopt}}; }) ==
        "compression.region: region is a partition column (not stored in the files)");
  CHECK(with([](CopySettings* s) { s->bloom_columns = {"REGION"}; }) ==
        "bloom_filter: REGION is a partition column (not stored in the files)");
  CHECK(with([](CopySettings* s) { s->sorting = {SortingSpec{"region", false, true}}; }) ==
        "sorting_columns: region is a partition column (not stored in the files)");
  CHECK(with([](CopySettings* s) { s->partition_by.push_back("nope"); }) ==
        "partition_by: the query has no column named nope");
  CHECK(with([](CopySettings* s) { s->partition_by.push_back("REGION"); }) == "partition_by: REGION is named twice");
  CHECK(with([](CopySettings* s) { s->partition_by = {"year", "v", "region"}; }) ==
        "partition_by: no column is left to write into the files");
  CHECK(with([](CopySettings* s) { s->schema.push_back(CopyField{"nope", TypeOf("INT32")}); }) ==
        "schema: the query has no column named nope");
}

}  // namespace sqlite_parquet

// Tests of the schema tree: levels, paths, leaf numbering and malformed schema lists.
#include <doctest/doctest.h>

#include "format/common/error.h"
#include "format/metadata/schema.h"
#include "tests/unit/schema_elements.h"

using namespace parquet;

namespace {

using test_support::GroupElement;
using test_support::LeafElement;

}  // namespace

TEST_CASE("schema: flat columns get definition level 1 when optional, 0 when required") {
  std::vector<SchemaElement> elements = {
      GroupElement("schema", 3, std::nullopt),
      LeafElement("id", FieldRepetitionType::REQUIRED, Type::INT64),
      LeafElement("name", FieldRepetitionType::OPTIONAL, Type::BYTE_ARRAY),
      LeafElement("hash", FieldRepetitionType::OPTIONAL, Type::FIXED_LEN_BYTE_ARRAY, 16),
  };
  Schema schema = Schema::FromElements(elements);
  REQUIRE(schema.num_columns() == 3);
  CHECK(schema.top_level_fields().size() == 3);
  CHECK(schema.column(0).max_definition_level == 0);
  CHECK(schema.column(1).max_definition_level == 1);
  CHECK(schema.column(1).max_repetition_level == 0);
  CHECK(schema.column(2).type_length == 16);
  CHECK(schema.column(2).dotted_path == "hash");
  for (int f = 0; f < 3; f++) {
    CHECK(schema.first_column_of_field(f) == f);
    CHECK(schema.column_count_of_field(f) == 1);
  }
}

TEST_CASE("schema: nested levels follow the Dremel rules") {
  // message m { optional group a (LIST) { repeated group list { optional int32 element; } }
  //             required group s { optional binary x; repeated int64 y; } required int32 z; }
  std::vector<SchemaElement> elements = {
      GroupElement("m", 3, std::nullopt),
      GroupElement("a", 1, FieldRepetitionType::OPTIONAL),
      GroupElement("list", 1, FieldRepetitionType::REPEATED),
      LeafElement("element", FieldRepetitionType::OPTIONAL, Type::INT32),
      GroupElement("s", 2, FieldRepetitionType::REQUIRED),
      LeafElement("x", FieldRepetitionType::OPTIONAL, Type::BYTE_ARRAY),
      LeafElement("y", FieldRepetitionType::REPEATED, Type::INT64),
      LeafElement("z", FieldRepetitionType::REQUIRED, Type::INT32),
  };
  Schema schema = Schema::FromElements(elements);
  REQUIRE(schema.num_columns() == 4);
  const ColumnDescriptor& element = schema.column(0);
  CHECK(element.dotted_path == "a.list.element");
  CHECK(element.max_definition_level == 3);
  CHECK(element.max_repetition_level == 1);
  CHECK(element.top_level_field == 0);
  CHECK(schema.column(1).dotted_path == "s.x");
  CHECK(schema.column(1).max_definition_level == 1);
  CHECK(schema.column(2).max_definition_level == 1);
  CHECK(schema.column(2).max_repetition_level == 1);
  CHECK(schema.column(3).max_definition_level == 0);
  CHECK(schema.column(3).top_level_field == 2);
  CHECK(schema.first_column_of_field(1) == 1);
  CHECK(schema.column_count_of_field(1) == 2);
  CHECK(schema.node(schema.column(0).node).depth == 3);
}

TEST_CASE("schema: malformed lists are errors") {
  SUBCASE("children beyond the list") {
    std::vector<SchemaElement> elements = {GroupElement("m", 2, std::nullopt),
                                           LeafElement("a", FieldRepetitionType::REQUIRED, Type::INT32)};
    CHECK_THROWS_WITH_AS(Schema::FromElements(elements), doctest::Contains("claims 2 children"), ParquetError);
  }
  SUBCASE("elements outside the tree") {
    std::vector<SchemaElement> elements = {GroupElement("m", 1, std::nullopt),
                                           LeafElement("a", FieldRepetitionType::REQUIRED, Type::INT32),
                                           LeafElement("b", FieldRepetitionType::REQUIRED, Type::INT32)};
    CHECK_THROWS_WITH_AS(Schema::FromElements(elements), doctest::Contains("outside the tree"), ParquetError);
  }
  SUBCASE("fixed-length column without a length") {
    std::vector<SchemaElement> elements = {GroupElement("m", 1, std::nullopt),
                                           LeafElement("a", FieldRepetitionType::REQUIRED, Type::FIXED_LEN_BYTE_ARRAY)};
    CHECK_THROWS_WITH_AS(Schema::FromElements(elements), doctest::Contains("type_length 0"), ParquetError);
  }
  SUBCASE("unknown physical type") {
    std::vector<SchemaElement> elements = {GroupElement("m", 1, std::nullopt),
                                           LeafElement("a", FieldRepetitionType::REQUIRED, static_cast<Type>(-7))};
    CHECK_THROWS_WITH_AS(Schema::FromElements(elements), doctest::Contains("unknown physical type"), ParquetError);
  }
  SUBCASE("missing repetition") {
    std::vector<SchemaElement> elements = {GroupElement("m", 1, std::nullopt), LeafElement("a", FieldRepetitionType::REQUIRED, Type::INT32)};
    elements[1].repetition_type.reset();
    CHECK_THROWS_WITH_AS(Schema::FromElements(elements), doctest::Contains("no repetition type"), ParquetError);
  }
  SUBCASE("empty") {
    CHECK_THROWS_AS(Schema::FromElements({}), ParquetError);
  }
  SUBCASE("nesting deeper than the limit fails fast, without recursion") {
    std::vector<SchemaElement> elements = {GroupElement("m", 1, std::nullopt)};
    for (int i = 0; i < 100000; i++) elements.push_back(GroupElement("g" + std::to_string(i), 1, FieldRepetitionType::OPTIONAL));
    elements.push_back(LeafElement("leaf", FieldRepetitionType::OPTIONAL, Type::INT32));
    CHECK_THROWS_WITH_AS(Schema::FromElements(elements), doctest::Contains("deeper than 64"), ParquetError);
  }
}

TEST_CASE("schema: nesting up to the limit is accepted") {
  std::vector<SchemaElement> elements = {GroupElement("m", 1, std::nullopt)};
  for (int i = 0; i < kMaxSchemaDepth - 1; i++) elements.push_back(GroupElement("g", 1, FieldRepetitionType::REQUIRED));
  elements.push_back(LeafElement("leaf", FieldRepetitionType::OPTIONAL, Type::INT32));
  Schema schema = Schema::FromElements(elements);
  CHECK(schema.column(0).path.size() == static_cast<size_t>(kMaxSchemaDepth));
  CHECK(schema.column(0).max_definition_level == 1);
}

TEST_CASE("schema: the effective logical type of legacy converted types") {
  SchemaNode node;
  node.physical_type = Type::INT32;
  CHECK_FALSE(EffectiveLogicalType(node).has_value());

  node.converted_type = ConvertedType::UINT_16;
  auto logical = EffectiveLogicalType(node);
  REQUIRE(logical.has_value());
  CHECK(logical->kind == LogicalType::Kind::INTEGER);
  CHECK(logical->int_bit_width == 16);
  CHECK_FALSE(logical->int_is_signed);

  node.converted_type = ConvertedType::DECIMAL;
  node.scale = 2;
  node.precision = 9;
  logical = EffectiveLogicalType(node);
  REQUIRE(logical.has_value());
  CHECK(logical->kind == LogicalType::Kind::DECIMAL);
  CHECK(logical->decimal_scale == 2);
  CHECK(logical->decimal_precision == 9);

  node.physical_type = Type::INT64;
  node.converted_type = ConvertedType::TIMESTAMP_MICROS;
  logical = EffectiveLogicalType(node);
  REQUIRE(logical.has_value());
  CHECK(logical->kind == LogicalType::Kind::TIMESTAMP);
  CHECK(logical->time_unit == TimeUnit::MICROS);
  CHECK(logical->is_adjusted_to_utc);

  // A recognized LogicalType wins over the converted type.
  LogicalType date;
  date.kind = LogicalType::Kind::DATE;
  node.logical_type = date;
  CHECK(EffectiveLogicalType(node)->kind == LogicalType::Kind::DATE);
  // An unrecognized one falls back to the converted type.
  node.logical_type = LogicalType{};
  CHECK(EffectiveLogicalType(node)->kind == LogicalType::Kind::TIMESTAMP);

  SchemaNode interval;
  interval.physical_type = Type::FIXED_LEN_BYTE_ARRAY;
  interval.type_length = 12;
  interval.converted_type = ConvertedType::INTERVAL;
  CHECK_FALSE(EffectiveLogicalType(interval).has_value());
  CHECK(IsInterval(interval));
  CHECK_FALSE(IsInterval(node));
}

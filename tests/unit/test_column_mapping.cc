// Tests of the Parquet-to-SQLite type mapping: value kinds and declared types whose SQLite
// affinity matches the values returned.
#include <doctest/doctest.h>

#include "ext/common/column_mapping.h"
#include "tests/unit/schema_elements.h"

using namespace parquet;
using namespace sqlite_parquet;

namespace {

using test_support::RootElement;

SchemaElement Column(Type type, std::optional<LogicalType> logical = std::nullopt,
                     std::optional<ConvertedType> converted = std::nullopt, int32_t length = 0) {
  SchemaElement e;
  e.name = "c";
  e.type = type;
  e.repetition_type = FieldRepetitionType::OPTIONAL;
  e.logical_type = logical;
  e.converted_type = converted;
  if (length) e.type_length = length;
  return e;
}

LogicalType Logical(LogicalType::Kind kind) {
  LogicalType t;
  t.kind = kind;
  return t;
}

ColumnMapping Map(const SchemaElement& column, MappingOptions options = {}) {
  Schema schema = Schema::FromElements({RootElement(1), column});
  return MapTopLevelField(schema, 0, options);
}

}  // namespace

TEST_CASE("mapping: physical types") {
  CHECK(Map(Column(Type::BOOLEAN)).kind == ValueKind::kBoolean);
  CHECK(Map(Column(Type::INT32)).declared_type == "INTEGER");
  CHECK(Map(Column(Type::INT64)).kind == ValueKind::kInt64);
  CHECK(Map(Column(Type::FLOAT)).declared_type == "REAL FLOAT");
  CHECK(Map(Column(Type::DOUBLE)).declared_type == "REAL");
  CHECK(Map(Column(Type::INT96)).kind == ValueKind::kInt96Timestamp);
  CHECK(Map(Column(Type::BYTE_ARRAY)).declared_type == "BLOB");
  CHECK(Map(Column(Type::FIXED_LEN_BYTE_ARRAY, std::nullopt, std::nullopt, 4)).kind == ValueKind::kBlob);
  MappingOptions as_string;
  as_string.binary_as_string = true;
  CHECK(Map(Column(Type::BYTE_ARRAY), as_string).kind == ValueKind::kText);
}

TEST_CASE("mapping: logical types, and converted types when there is no logical type") {
  CHECK(Map(Column(Type::BYTE_ARRAY, Logical(LogicalType::Kind::STRING))).kind == ValueKind::kText);
  CHECK(Map(Column(Type::BYTE_ARRAY, std::nullopt, ConvertedType::UTF8)).kind == ValueKind::kText);
  CHECK(Map(Column(Type::BYTE_ARRAY, Logical(LogicalType::Kind::JSON))).kind == ValueKind::kJson);
  CHECK(Map(Column(Type::BYTE_ARRAY, Logical(LogicalType::Kind::BSON))).declared_type == "BLOB BSON");
  CHECK(Map(Column(Type::FIXED_LEN_BYTE_ARRAY, Logical(LogicalType::Kind::UUID), std::nullopt, 16)).kind == ValueKind::kUuid);
  CHECK(Map(Column(Type::FIXED_LEN_BYTE_ARRAY, Logical(LogicalType::Kind::FLOAT16), std::nullopt, 2)).kind == ValueKind::kFloat16);
  CHECK(Map(Column(Type::INT32, Logical(LogicalType::Kind::DATE))).declared_type == "TEXT DATE");
  CHECK(Map(Column(Type::INT32, Logical(LogicalType::Kind::UNKNOWN))).kind == ValueKind::kNull);
  CHECK(Map(Column(Type::FIXED_LEN_BYTE_ARRAY, std::nullopt, ConvertedType::INTERVAL, 12)).kind == ValueKind::kInterval);

  LogicalType timestamp = Logical(LogicalType::Kind::TIMESTAMP);
  timestamp.time_unit = TimeUnit::NANOS;
  ColumnMapping ts = Map(Column(Type::INT64, timestamp));
  CHECK(ts.kind == ValueKind::kTimestamp);
  CHECK(ts.time_unit == TimeUnit::NANOS);
  CHECK(ts.declared_type == "TEXT TIMESTAMP_NANOS");
  CHECK(Map(Column(Type::INT64, std::nullopt, ConvertedType::TIMESTAMP_MILLIS)).time_unit == TimeUnit::MILLIS);

  LogicalType decimal = Logical(LogicalType::Kind::DECIMAL);
  decimal.decimal_precision = 9;
  decimal.decimal_scale = 2;
  ColumnMapping d = Map(Column(Type::INT32, decimal));
  CHECK(d.kind == ValueKind::kDecimalInt32);
  CHECK(d.decimal_scale == 2);
  CHECK(d.declared_type == "REAL DECIMAL(9,2)");

  LogicalType unsigned_int = Logical(LogicalType::Kind::INTEGER);
  unsigned_int.int_bit_width = 32;
  unsigned_int.int_is_signed = false;
  CHECK(Map(Column(Type::INT32, unsigned_int)).kind == ValueKind::kUInt32);
  CHECK(Map(Column(Type::INT64, std::nullopt, ConvertedType::UINT_64)).kind == ValueKind::kUInt64);
}

TEST_CASE("mapping: an annotation that does not fit the physical type falls back to it") {
  CHECK(Map(Column(Type::BYTE_ARRAY, Logical(LogicalType::Kind::DATE))).kind == ValueKind::kBlob);
  CHECK(Map(Column(Type::FIXED_LEN_BYTE_ARRAY, Logical(LogicalType::Kind::UUID), std::nullopt, 8)).kind == ValueKind::kBlob);
  CHECK(Map(Column(Type::INT32, Logical(LogicalType::Kind::UNRECOGNIZED), ConvertedType::DATE)).kind == ValueKind::kDate);
}

TEST_CASE("mapping: every declared type has the affinity of the values it returns") {
  struct Case {
    SchemaElement column;
    MappingOptions options;
    char affinity;
  };
  LogicalType decimal = Logical(LogicalType::Kind::DECIMAL);
  decimal.decimal_precision = 38;
  decimal.decimal_scale = 10;
  LogicalType time = Logical(LogicalType::Kind::TIME);
  time.time_unit = TimeUnit::MICROS;
  LogicalType u8 = Logical(LogicalType::Kind::INTEGER);
  u8.int_bit_width = 8;
  u8.int_is_signed = false;
  MappingOptions text_decimals;
  text_decimals.decimal_as_text = true;
  std::vector<Case> cases;
  for (TimestampForm form : {TimestampForm::kText, TimestampForm::kUnixEpoch, TimestampForm::kUnixEpochMs,
                             TimestampForm::kUnixEpochUs, TimestampForm::kJulianDay}) {
    MappingOptions o;
    o.timestamp_form = form;
    char affinity = form == TimestampForm::kText ? 'T' : form == TimestampForm::kJulianDay ? 'R' : 'I';
    cases.push_back({Column(Type::INT96), o, affinity});
    cases.push_back({Column(Type::INT32, Logical(LogicalType::Kind::DATE)), o, affinity});
    cases.push_back({Column(Type::INT64, std::nullopt, ConvertedType::TIMESTAMP_MICROS), o, affinity});
  }
  cases.push_back({Column(Type::BOOLEAN), {}, 'I'});
  cases.push_back({Column(Type::INT32, u8), {}, 'I'});
  cases.push_back({Column(Type::FLOAT), {}, 'R'});
  cases.push_back({Column(Type::FIXED_LEN_BYTE_ARRAY, Logical(LogicalType::Kind::FLOAT16), std::nullopt, 2), {}, 'R'});
  cases.push_back({Column(Type::INT64, decimal), {}, 'R'});
  cases.push_back({Column(Type::INT64, decimal), text_decimals, 'T'});
  cases.push_back({Column(Type::INT64, time), {}, 'T'});
  cases.push_back({Column(Type::BYTE_ARRAY, Logical(LogicalType::Kind::ENUM)), {}, 'T'});
  cases.push_back({Column(Type::BYTE_ARRAY, Logical(LogicalType::Kind::JSON)), {}, 'T'});
  cases.push_back({Column(Type::FIXED_LEN_BYTE_ARRAY, Logical(LogicalType::Kind::UUID), std::nullopt, 16), {}, 'T'});
  cases.push_back({Column(Type::FIXED_LEN_BYTE_ARRAY, std::nullopt, ConvertedType::INTERVAL, 12), {}, 'T'});
  cases.push_back({Column(Type::BYTE_ARRAY, Logical(LogicalType::Kind::GEOGRAPHY)), {}, 'B'});
  cases.push_back({Column(Type::BYTE_ARRAY), {}, 'B'});
  for (const Case& c : cases) {
    ColumnMapping m = Map(c.column, c.options);
    INFO("declared type: " << m.declared_type);
    CHECK(AffinityOfDeclaredType(m.declared_type) == c.affinity);
  }
}

TEST_CASE("mapping: groups and repeated fields are nested") {
  SchemaElement group;
  group.name = "g";
  group.num_children = 1;
  group.repetition_type = FieldRepetitionType::OPTIONAL;
  SchemaElement repeated = Column(Type::INT32);
  repeated.repetition_type = FieldRepetitionType::REPEATED;
  Schema schema = Schema::FromElements({RootElement(2), group, Column(Type::INT32), repeated});
  CHECK(MapTopLevelField(schema, 0, {}).kind == ValueKind::kNested);
  CHECK(MapTopLevelField(schema, 0, {}).leaf_column == -1);
  CHECK(MapTopLevelField(schema, 1, {}).kind == ValueKind::kNested);
}

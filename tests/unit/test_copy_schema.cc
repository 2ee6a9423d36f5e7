// Unit tests for ext/copy_schema: the schema= type syntax, the option list parsers, the
// mapping of declared types (including the parquet table's own) and storage classes to
// Parquet types, and the SchemaElements written for flat and nested fields.
#include "ext/copy/copy_schema.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "format/metadata/schema.h"

using namespace sqlite_parquet;
using parquet::ConvertedType;
using parquet::FieldRepetitionType;
using parquet::LogicalType;
using parquet::TimeUnit;
using parquet::Type;

namespace {

CopyType Parse(const std::string& text) {
  CopyType type;
  std::string error;
  REQUIRE_MESSAGE(ParseCopyType(text, &type, &error), error);
  return type;
}

std::string ParseError(const std::string& text) {
  CopyType type;
  std::string error;
  CHECK_FALSE(ParseCopyType(text, &type, &error));
  return error;
}

std::string Declared(const std::string& declared_type) {
  const std::optional<CopyType> type = TypeFromDeclaredType(declared_type);
  return type ? DescribeCopyType(*type) : "(values decide)";
}

std::vector<parquet::SchemaElement> Elements(const std::string& name, const std::string& type, bool field_ids = false) {
  CopyField field;
  field.name = name;
  field.type = Parse(type);
  std::vector<parquet::SchemaElement> elements;
  int32_t next_id = 1;
  AppendSchemaElements(field, field_ids ? &next_id : nullptr, &elements);
  return elements;
}

}  // namespace

TEST_CASE("copy schema: every scalar type parses and prints back canonically") {
  const char* const canonical[] = {"INT8",   "INT16",  "INT32",   "INT64",  "UINT8",  "UINT16", "UINT32",
                                   "UINT64", "FLOAT",  "DOUBLE",  "FLOAT16", "BOOLEAN", "STRING", "BINARY",
                                   "UUID",   "JSON",   "ENUM",    "DATE",   "FIXED(7)", "DECIMAL(10,2)",
                                   "TIME(MILLIS)", "TIME(NANOS, UTC)", "TIMESTAMP(MICROS)", "TIMESTAMP(NANOS, UTC)"};
  for (const char* text : canonical) {
    CAPTURE(text);
    CHECK(DescribeCopyType(Parse(text)) == text);
  }
  // Case, spaces and defaults.
  CHECK(DescribeCopyType(Parse("  decimal ( 5 ) ")) == "DECIMAL(5,0)");
  CHECK(DescribeCopyType(Parse("timestamp")) == "TIMESTAMP(MICROS)");
  CHECK(DescribeCopyType(Parse("Timestamp(ms, utc)")) == "TIMESTAMP(MILLIS, UTC)");
  CHECK(DescribeCopyType(Parse("time")) == "TIME(MICROS)");
  CHECK(DescribeCopyType(Parse("time(us)")) == "TIME(MICROS)");
}

TEST_CASE("copy schema: nested types") {
  CHECK(DescribeCopyType(Parse("list<int64>")) == "LIST<INT64>");
  CHECK(DescribeCopyType(Parse("MAP<STRING, LIST<DOUBLE>>")) == "MAP<STRING, LIST<DOUBLE>>");
  const CopyType s = Parse("STRUCT<a INT32, \"b c\" LIST<STRUCT<x DATE>>, [d] MAP<INT32,STRING>>");
  CHECK(DescribeCopyType(s) == "STRUCT<a INT32, \"b c\" LIST<STRUCT<x DATE>>, d MAP<INT32, STRING>>");
  REQUIRE(s.children.size() == 3);
  CHECK(s.children[1].name == "b c");
  CHECK(LeafCount(s) == 4);
  CHECK(LeafCount(Parse("INT32")) == 1);
}

TEST_CASE("copy schema: type syntax errors name the problem") {
  CHECK(ParseError("INTEGER") == "unknown type: INTEGER");
  CHECK(ParseError("FIXED") == "expected FIXED(n) at: FIXEDend of text");
  CHECK(ParseError("FIXED(0)") == "FIXED length 0 is not between 1 and 65536");
  CHECK(ParseError("DECIMAL(0,0)") == "DECIMAL precision 0 is not between 1 and 76");
  CHECK(ParseError("DECIMAL(77,0)") == "DECIMAL precision 77 is not between 1 and 76");
  CHECK(ParseError("DECIMAL(4,5)") == "DECIMAL scale 5 is larger than the precision 4");
  CHECK(ParseError("TIME(SECONDS)") == "unknown time unit 'SECONDS' (expected MILLIS, MICROS or NANOS)");
  CHECK(ParseError("TIMESTAMP(MILLIS, LOCAL)") == "expected UTC at: LOCAL)");
  CHECK(ParseError("LIST<INT32") == "expected '>' at: end of text");
  CHECK(ParseError("MAP<LIST<INT32>, INT32>") == "MAP keys must be of a scalar type, not LIST<INT32>");
  CHECK(ParseError("STRUCT<a INT32, a INT64>") == "duplicate column name in schema: a");
  CHECK(ParseError("INT32 extra") == "unexpected text after type: extra");
  std::string deep;
  for (int i = 0; i < 40; ++i) deep += "LIST<";
  deep += "INT32";
  for (int i = 0; i < 40; ++i) deep += ">";
  CHECK(ParseError(deep) == "types nested deeper than 32 levels");
}

TEST_CASE("copy schema: the schema= option") {
  std::vector<CopyField> fields;
  std::string error;
  REQUIRE(ParseSchemaOverride("id INT32, \"Unit Price\" DECIMAL(9,2) , tags LIST<STRING>", &fields, &error));
  REQUIRE(fields.size() == 3);
  CHECK(fields[0].name == "id");
  CHECK(fields[1].name == "Unit Price");
  CHECK(DescribeCopyType(fields[1].type) == "DECIMAL(9,2)");
  CHECK(DescribeCopyType(fields[2].type) == "LIST<STRING>");

  CHECK_FALSE(ParseSchemaOverride("", &fields, &error));
  CHECK(error == "empty schema");
  CHECK_FALSE(ParseSchemaOverride("a INT32, A INT64", &fields, &error));
  CHECK(error == "duplicate column name in schema: A");
  CHECK_FALSE(ParseSchemaOverride("a INT32 b INT64", &fields, &error));
  CHECK(error == "expected ',' or the end at: b INT64");
  CHECK_FALSE(ParseSchemaOverride("a", &fields, &error));
  CHECK(error == "missing type for column a");
  CHECK_FALSE(ParseSchemaOverride("\"a INT32", &fields, &error));
  CHECK(error == "unterminated quote in name: \"a INT32");
}

TEST_CASE("copy schema: name lists, sorting columns and key/value metadata") {
  std::vector<std::string> names;
  std::string error;
  REQUIRE(ParseNameList("a, \"b,c\" ,[d e]", &names, &error));
  CHECK(names == std::vector<std::string>{"a", "b,c", "d e"});
  CHECK_FALSE(ParseNameList("a,,b", &names, &error));
  CHECK_FALSE(ParseNameList(" ", &names, &error));
  CHECK(error == "empty list of column names");

  std::vector<SortingSpec> sorting;
  REQUIRE(ParseSortingColumns("a, b DESC, c asc nulls first, d NULLS_LAST desc", &sorting, &error));
  REQUIRE(sorting.size() == 4);
  // Without NULLS, NULLs go where SQLite's ORDER BY puts them: first ascending, last descending.
  CHECK((sorting[0].name == "a" && !sorting[0].descending && sorting[0].nulls_first));
  CHECK((sorting[1].name == "b" && sorting[1].descending && !sorting[1].nulls_first));
  CHECK((sorting[2].name == "c" && !sorting[2].descending && sorting[2].nulls_first));
  CHECK((sorting[3].name == "d" && sorting[3].descending && !sorting[3].nulls_first));
  CHECK_FALSE(ParseSortingColumns("a NULLS SOMETIMES", &sorting, &error));
  CHECK(error == "expected NULLS FIRST or NULLS LAST for sorting column a");
  CHECK_FALSE(ParseSortingColumns("a DESC DESC", &sorting, &error));

  std::vector<parquet::KeyValue> kv;
  REQUIRE(ParseKeyValueMetadata(" k = v ; flag;; url=a=b ", &kv, &error));
  REQUIRE(kv.size() == 3);
  CHECK((kv[0].key == "k" && kv[0].value == "v"));
  CHECK((kv[1].key == "flag" && !kv[1].value.has_value()));
  CHECK((kv[2].key == "url" && kv[2].value == "a=b"));
  CHECK_FALSE(ParseKeyValueMetadata("k=1;k=2", &kv, &error));
  CHECK(error == "duplicate key in kv_metadata: k");
}

TEST_CASE("copy schema: SQL declared types") {
  CHECK(Declared("INTEGER") == "INT64");
  CHECK(Declared("int") == "INT64");
  CHECK(Declared("BIGINT") == "INT64");
  CHECK(Declared("INT8") == "INT64");  // PostgreSQL's int8 is a 64-bit integer
  CHECK(Declared("REAL") == "DOUBLE");
  CHECK(Declared("FLOAT") == "DOUBLE");  // SQLite's FLOAT is a double
  CHECK(Declared("double precision") == "DOUBLE");
  CHECK(Declared("TEXT") == "STRING");
  CHECK(Declared("VARCHAR(20)") == "STRING");
  CHECK(Declared("BLOB") == "BINARY");
  CHECK(Declared("BOOLEAN") == "BOOLEAN");
  CHECK(Declared("bool") == "BOOLEAN");
  CHECK(Declared("DATE") == "DATE");
  CHECK(Declared("DATETIME") == "TIMESTAMP(MICROS)");
  CHECK(Declared("timestamp") == "TIMESTAMP(MICROS)");
  CHECK(Declared("TIMESTAMP WITH TIME ZONE") == "TIMESTAMP(MICROS, UTC)");
  CHECK(Declared("TIME") == "TIME(MICROS)");
  CHECK(Declared("DECIMAL(10, 2)") == "DECIMAL(10,2)");
  CHECK(Declared("numeric(5)") == "DECIMAL(5,0)");
  CHECK(Declared("JSON") == "JSON");
  CHECK(Declared("UUID") == "UUID");
  // NUMERIC affinity without parameters, and no declared type: the values decide.
  CHECK(Declared("") == "(values decide)");
  CHECK(Declared("NUMERIC") == "(values decide)");
  CHECK(Declared("DECIMAL") == "(values decide)");
  CHECK(Declared("DECIMAL(99,1)") == "(values decide)");
}

TEST_CASE("copy schema: the parquet table's declared types map back to their Parquet types") {
  CHECK(Declared("INTEGER BOOLEAN") == "BOOLEAN");
  CHECK(Declared("INTEGER UINT8") == "UINT8");
  CHECK(Declared("INTEGER UINT16") == "UINT16");
  CHECK(Declared("INTEGER UINT32") == "UINT32");
  CHECK(Declared("INTEGER UINT64") == "UINT64");
  CHECK(Declared("REAL FLOAT") == "FLOAT");
  CHECK(Declared("REAL FLOAT16") == "FLOAT16");
  CHECK(Declared("TEXT ENUM") == "ENUM");
  CHECK(Declared("TEXT JSON") == "JSON");
  CHECK(Declared("TEXT UUID") == "UUID");
  CHECK(Declared("BLOB BSON") == "BINARY");
  CHECK(Declared("BLOB GEOMETRY") == "GEOMETRY");
  CHECK(Declared("BLOB GEOGRAPHY") == "GEOGRAPHY");
  CHECK(Declared("REAL DECIMAL(10,2)") == "DECIMAL(10,2)");
  CHECK(Declared("TEXT DECIMAL(25,2)") == "DECIMAL(25,2)");
  CHECK(Declared("TEXT DATE") == "DATE");
  CHECK(Declared("INTEGER DATE") == "DATE");
  CHECK(Declared("REAL DATE") == "DATE");
  CHECK(Declared("TEXT TIME_MILLIS") == "TIME(MILLIS)");
  CHECK(Declared("TEXT TIME_NANOS") == "TIME(NANOS)");
  CHECK(Declared("TEXT TIMESTAMP_MILLIS") == "TIMESTAMP(MILLIS)");
  CHECK(Declared("INTEGER TIMESTAMP_MICROS") == "TIMESTAMP(MICROS)");
  CHECK(Declared("TEXT TIMESTAMP") == "TIMESTAMP(NANOS)");  // INT96
  CHECK(Declared("INTEGER TIMESTAMP") == "TIMESTAMP(NANOS)");
  CHECK(Declared("REAL TIMESTAMP") == "TIMESTAMP(NANOS)");
  // Forms the table never declares fall back to SQLite's affinity rules.
  CHECK(Declared("TEXT FANCY") == "STRING");
  CHECK(Declared("INTEGER DECIMAL(4,2)") == "INT64");
}

TEST_CASE("copy schema: storage classes") {
  CHECK(DescribeCopyType(TypeFromStorageClasses(0)) == "STRING");
  CHECK(DescribeCopyType(TypeFromStorageClasses(kSeenInteger)) == "INT64");
  CHECK(DescribeCopyType(TypeFromStorageClasses(kSeenInteger | kSeenReal)) == "DOUBLE");
  CHECK(DescribeCopyType(TypeFromStorageClasses(kSeenReal)) == "DOUBLE");
  CHECK(DescribeCopyType(TypeFromStorageClasses(kSeenText)) == "STRING");
  CHECK(DescribeCopyType(TypeFromStorageClasses(kSeenText | kSeenInteger)) == "STRING");
  CHECK(DescribeCopyType(TypeFromStorageClasses(kSeenBlob)) == "BINARY");
  CHECK(DescribeCopyType(TypeFromStorageClasses(kSeenBlob | kSeenText | kSeenReal)) == "BINARY");
}

TEST_CASE("copy schema: physical storage of decimals") {
  CHECK(PhysicalTypeOf(Parse("DECIMAL(9,2)")) == Type::INT32);
  CHECK(PhysicalTypeOf(Parse("DECIMAL(10,2)")) == Type::INT64);
  CHECK(PhysicalTypeOf(Parse("DECIMAL(18,0)")) == Type::INT64);
  CHECK(PhysicalTypeOf(Parse("DECIMAL(19,0)")) == Type::FIXED_LEN_BYTE_ARRAY);
  // The fewest bytes whose two's complement holds 10^p - 1.
  CHECK(DecimalByteWidth(1) == 1);
  CHECK(DecimalByteWidth(2) == 1);
  CHECK(DecimalByteWidth(3) == 2);
  CHECK(DecimalByteWidth(9) == 4);
  CHECK(DecimalByteWidth(18) == 8);
  CHECK(DecimalByteWidth(19) == 9);
  CHECK(DecimalByteWidth(38) == 16);
  CHECK(DecimalByteWidth(76) == 32);
  CHECK(FixedLengthOf(Parse("DECIMAL(30,4)")) == 13);
  CHECK(FixedLengthOf(Parse("UUID")) == 16);
  CHECK(FixedLengthOf(Parse("FLOAT16")) == 2);
  CHECK(FixedLengthOf(Parse("FIXED(3)")) == 3);
  CHECK(FixedLengthOf(Parse("INT32")) == 0);
}

TEST_CASE("copy schema: schema elements of scalar fields") {
  auto one = [](const std::string& type) {
    std::vector<parquet::SchemaElement> elements = Elements("c", type);
    REQUIRE(elements.size() == 1);
    CHECK(elements[0].name == "c");
    CHECK(elements[0].repetition_type == FieldRepetitionType::OPTIONAL);
    return elements[0];
  };
  parquet::SchemaElement e = one("UINT16");
  CHECK(e.type == Type::INT32);
  CHECK(e.converted_type == ConvertedType::UINT_16);
  REQUIRE(e.logical_type.has_value());
  CHECK(e.logical_type->kind == LogicalType::Kind::INTEGER);
  CHECK(e.logical_type->int_bit_width == 16);
  CHECK_FALSE(e.logical_type->int_is_signed);

  e = one("DECIMAL(30,4)");
  CHECK(e.type == Type::FIXED_LEN_BYTE_ARRAY);
  CHECK(e.type_length == 13);
  CHECK(e.converted_type == ConvertedType::DECIMAL);
  CHECK(e.precision == 30);
  CHECK(e.scale == 4);
  CHECK(e.logical_type->decimal_precision == 30);

  e = one("TIMESTAMP(NANOS)");
  CHECK(e.type == Type::INT64);
  CHECK_FALSE(e.converted_type.has_value());  // no legacy annotation for local or nanosecond timestamps
  CHECK(e.logical_type->time_unit == TimeUnit::NANOS);
  CHECK_FALSE(e.logical_type->is_adjusted_to_utc);

  e = one("TIMESTAMP(MILLIS, UTC)");
  CHECK(e.converted_type == ConvertedType::TIMESTAMP_MILLIS);
  CHECK(e.logical_type->is_adjusted_to_utc);

  e = one("TIME(MILLIS)");
  CHECK(e.type == Type::INT32);
  CHECK_FALSE(e.converted_type.has_value());  // TIME_MILLIS would mean UTC-adjusted
  CHECK_FALSE(e.logical_type->is_adjusted_to_utc);

  e = one("TIME(MILLIS, UTC)");
  CHECK(e.converted_type == ConvertedType::TIME_MILLIS);
  CHECK(e.logical_type->is_adjusted_to_utc);

  e = one("STRING");
  CHECK(e.type == Type::BYTE_ARRAY);
  CHECK(e.converted_type == ConvertedType::UTF8);
  CHECK(e.logical_type->kind == LogicalType::Kind::STRING);

  e = one("BINARY");
  CHECK(e.type == Type::BYTE_ARRAY);
  CHECK_FALSE(e.converted_type.has_value());
  CHECK_FALSE(e.logical_type.has_value());

  e = one("FLOAT16");
  CHECK(e.type == Type::FIXED_LEN_BYTE_ARRAY);
  CHECK(e.type_length == 2);
  CHECK(e.logical_type->kind == LogicalType::Kind::FLOAT16);
}

TEST_CASE("copy schema: nested fields use the spec's three-level layouts") {
  std::vector<parquet::SchemaElement> elements =
      Elements("m", "STRUCT<id INT32, tags LIST<STRING>, attrs MAP<STRING, DOUBLE>>", true);
  REQUIRE(elements.size() == 9);
  const char* const names[] = {"m", "id", "tags", "list", "element", "attrs", "key_value", "key", "value"};
  const FieldRepetitionType repetitions[] = {
      FieldRepetitionType::OPTIONAL, FieldRepetitionType::OPTIONAL, FieldRepetitionType::OPTIONAL,
      FieldRepetitionType::REPEATED, FieldRepetitionType::OPTIONAL, FieldRepetitionType::OPTIONAL,
      FieldRepetitionType::REPEATED, FieldRepetitionType::REQUIRED, FieldRepetitionType::OPTIONAL};
  for (size_t i = 0; i < elements.size(); ++i) {
    CAPTURE(i);
    CHECK(elements[i].name == names[i]);
    CHECK(elements[i].repetition_type == repetitions[i]);
    CHECK(elements[i].field_id == static_cast<int32_t>(i + 1));
  }
  CHECK(elements[0].num_children == 3);
  CHECK(elements[2].converted_type == ConvertedType::LIST);
  CHECK(elements[2].logical_type->kind == LogicalType::Kind::LIST);
  CHECK(elements[5].converted_type == ConvertedType::MAP);
  CHECK(elements[5].logical_type->kind == LogicalType::Kind::MAP);
  CHECK(elements[6].num_children == 2);

  // The levels the reader's schema derives are the ones the converters write.
  std::vector<parquet::SchemaElement> flat(1);
  flat[0].name = "schema";
  flat[0].num_children = 1;
  flat.insert(flat.end(), elements.begin(), elements.end());
  const parquet::Schema schema = parquet::Schema::FromElements(flat);
  REQUIRE(schema.num_columns() == 4);
  CHECK(schema.column(0).max_definition_level == 2);  // m.id
  CHECK(schema.column(1).max_definition_level == 4);  // m.tags.list.element
  CHECK(schema.column(1).max_repetition_level == 1);
  CHECK(schema.column(2).max_definition_level == 3);  // m.attrs.key_value.key
  CHECK(schema.column(3).max_definition_level == 4);  // m.attrs.key_value.value
  CHECK(schema.column(3).max_repetition_level == 1);
}

// Issue 45, finding 3: no option string can exhaust the stack or take quadratic time.
namespace {

std::string ShreddingError(const std::string& text) {
  bool all_auto = false;
  std::vector<ShreddingSpec> specs;
  std::string error;
  if (ParseShreddingOption(text, &all_auto, &specs, &error)) return "ok";
  return error;
}

std::string Repeat(const std::string& piece, int times) {
  std::string text;
  for (int i = 0; i < times; ++i) text += piece;
  return text;
}

}  // namespace

TEST_CASE("copy schema: shredding shapes are bounded before they are built") {
  const std::string too_deep =
      "column v: shapes nested too deeply (their Parquet schema would be deeper than 64 levels: an array takes 3, "
      "an object 2)";
  // DuckDB's T[] suffixes: 20,000 of them overflowed the stack (the shape was built, then
  // copied and destroyed recursively); each now counts as an array's three schema levels
  // before it is added. Every shape accepted is one a Parquet file can hold (64 levels).
  CHECK(ShreddingError("v:INT64" + Repeat("[]", 20000)) == too_deep);
  CHECK(ShreddingError("v:INT64" + Repeat("[]", 20)) == "ok");  // 1 + 3 * 20 levels
  CHECK(ShreddingError("v:INT64" + Repeat("[]", 21)) == too_deep);
  // Brackets, braces and suffixes together: the levels above and below never more than 63.
  CHECK(ShreddingError("v:" + Repeat("[", 10) + "INT64" + Repeat("[]", 10) + Repeat("]", 10)) == "ok");
  CHECK(ShreddingError("v:" + Repeat("[", 10) + "INT64" + Repeat("[]", 11) + Repeat("]", 10)) == too_deep);
  CHECK(ShreddingError("v:" + Repeat("{a:", 10) + "INT64" + Repeat("[]", 14) + Repeat("}", 10)) == "ok");
  CHECK(ShreddingError("v:" + Repeat("{a:", 10) + "INT64" + Repeat("[]", 15) + Repeat("}", 10)) == too_deep);
  CHECK(ShreddingError("v:{a:INT64[]}[]" + Repeat("[]", 18)) == "ok");  // an object of 6 levels, 19 suffixes
  CHECK(ShreddingError("v:{a:INT64[]}[]" + Repeat("[]", 19)) == too_deep);
  CHECK(ShreddingError("v:" + Repeat("{a:", 31) + "INT64" + Repeat("}", 31)) == "ok");
  CHECK(ShreddingError("v:" + Repeat("{a:", 32) + "INT64" + Repeat("}", 32)) == too_deep);
  CHECK(ShreddingError("v:" + Repeat("STRUCT(a ", 31) + "INT64" + Repeat(")", 31)) == "ok");
  CHECK(ShreddingError("v:" + Repeat("[", 100000) + "INT64" + Repeat("]", 100000)) == too_deep);
  CHECK(ShreddingError("v:" + Repeat("STRUCT(a ", 100000)) == too_deep);
  CHECK(ShreddingError("v:" + Repeat("{a:[", 100000)) == too_deep);
}

TEST_CASE("copy schema: option names are counted and checked for duplicates in linear time") {
  // 10,000 names at most in one option (80,000 took 31 s to parse before: every name was
  // compared with every earlier one).
  std::string fields = "v:{";
  for (int i = 0; i < 9999; ++i) fields += (i ? ",f" : "f") + std::to_string(i) + ":INT64";
  CHECK(ShreddingError(fields + "}") == "ok");
  CHECK(ShreddingError(fields + ",g:INT64}") == "column v: more than 10000 names (columns and fields) in one option");
  std::string many = "v:{";
  for (int i = 0; i < 80000; ++i) many += (i ? ",f" : "f") + std::to_string(i) + ":INT64";
  CHECK(ShreddingError(many + "}") == "column v: more than 10000 names (columns and fields) in one option");
  // Duplicates are still found, anywhere in a long list, with the same messages.
  CHECK(ShreddingError(fields + ",f5000:STRING}").find("more than 10000") != std::string::npos);
  CHECK(ShreddingError("v:{a:INT64,b:INT64,c:STRING,b:DOUBLE}") == "column v: field b is named twice");
  CHECK(ShreddingError("v:{abc:INT64,x:INT64,ABC:DOUBLE}") ==
        "column v: fields abc and ABC differ only in case (DuckDB would read them wrongly)");
  CHECK(ShreddingError("v:{a:INT64,b:{a:INT64}}") == "ok");  // other objects' names are their own
  CHECK(ShreddingError("v:INT64, w:STRING, V:DOUBLE") == "column V is named twice");
  std::vector<CopyField> parsed;
  std::string error;
  std::string schema;
  for (int i = 0; i < 5000; ++i) schema += (i ? ", c" : "c") + std::to_string(i) + " STRUCT<x INT32>";
  CHECK(ParseSchemaOverride(schema, &parsed, &error));  // 10,000 names: 5,000 columns, a field each
  CHECK(!ParseSchemaOverride(schema + ", d INT32", &parsed, &error));
  CHECK(error == "more than 10000 names (columns and fields) in one option");
  CHECK(!ParseSchemaOverride("a INT32, b STRUCT<a INT32, b INT32, A INT64>", &parsed, &error));
  CHECK(error == "duplicate column name in schema: A");
  CHECK(!ParseSchemaOverride("a INT32, b INT32, A INT64", &parsed, &error));
  CHECK(error == "duplicate column name in schema: A");
  CHECK(ParseSchemaOverride("a INT32, b STRUCT<a INT32>", &parsed, &error));
  std::string deep = Repeat("STRUCT<a ", 100000);
  CHECK(!ParseSchemaOverride("c " + deep, &parsed, &error));
  CHECK(error == "types nested deeper than 32 levels");
  // A message quotes at most 80 bytes of the text left, cut at a character boundary.
  CHECK(!ParseSchemaOverride("a INT32 " + Repeat("x", 10000), &parsed, &error));
  CHECK(error == "expected ',' or the end at: " + Repeat("x", 80) + "...");
  CHECK(!ParseSchemaOverride("a INT32 " + Repeat("\xc3\xa9", 100), &parsed, &error));
  CHECK(error == "expected ',' or the end at: " + Repeat("\xc3\xa9", 40) + "...");
  CHECK(!ParseSchemaOverride("a INT32 x" + Repeat("\xc3\xa9", 100), &parsed, &error));
  CHECK(error == "expected ',' or the end at: x" + Repeat("\xc3\xa9", 39) + "...");
}

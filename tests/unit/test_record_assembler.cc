// Tests of record assembly (format/read/record_assembler.h) and of the JSON the extension makes of
// it (ext/common/nested_json.h): structs, lists and maps with nulls at every level, every leaf type
// inside JSON, map forms, rows that span batches and pages, row skipping (including the
// column reader's SkipToRowStart), corrupt levels, and cost on long lists and deep nesting.

#include <doctest/doctest.h>

#include <stdlib.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "ext/common/nested_json.h"
#include "format/read/column_reader.h"
#include "format/encoding/rle_bit_packed_hybrid.h"
#include "format/common/error.h"
#include "format/read/file_reader.h"
#include "format/write/file_writer.h"
#include "format/read/record_assembler.h"
#include "tests/unit/temp_dir.h"
#include "tests/unit/schema_elements.h"

using namespace parquet;
using sqlite_parquet::MappingOptions;
using sqlite_parquet::NestedJsonRenderer;

namespace {

using test_support::GroupElement;
using test_support::LeafElement;
using test_support::LogicalOfKind;
using test_support::WithConverted;
using test_support::WithLogical;

using R = FieldRepetitionType;

// A fresh directory under the system temp dir, removed with everything in it at the end.
using test_support::TempDir;

// Views: of a string that outlives the write, or of a string literal.
ByteArray Bytes(const std::string& s) {
  return ByteArray{reinterpret_cast<const uint8_t*>(s.data()), static_cast<uint32_t>(s.size())};
}
ByteArray Bytes(const char* literal) {
  return ByteArray{reinterpret_cast<const uint8_t*>(literal), static_cast<uint32_t>(std::strlen(literal))};
}

// Reads every row of top-level field `field` as JSON ("NULL" for a null value).
std::vector<std::string> ReadJson(const ParquetFileReader& file, int field, size_t batch_slots = 2048,
                                  MappingOptions options = {}) {
  RecordAssembler assembler(file, field, {}, batch_slots);
  NestedJsonRenderer renderer(file.schema(), assembler.shape(), options);
  std::vector<std::string> rows;
  std::string json;
  for (int rg = 0; rg < file.num_row_groups(); rg++) {
    assembler.Reset(rg);
    while (assembler.next_row() < assembler.rows_in_group()) {
      assembler.ReadRow();
      rows.push_back(renderer.Render(assembler, &json) ? json : "NULL");
    }
  }
  return rows;
}

std::vector<std::string> ReadJson(const std::string& path, int field, size_t batch_slots = 2048,
                                  MappingOptions options = {}) {
  auto file = ParquetFileReader::Open(path);
  return ReadJson(*file, field, batch_slots, options);
}

// ---------------------------------------------------------------------------------------
// A struct of a list and a map, written with every kind of null and empty value.
//
//   optional group s {
//     optional group a (LIST) { repeated group list { optional int32 element; } }
//     optional group m (MAP) { repeated group key_value { required binary key (UTF8); optional boolean value; } }
//   }
// Column s.a.list.element: max def 4, max rep 1. Column s.m.key_value.key: def 3, rep 1;
// s.m.key_value.value: def 4, rep 1.
std::vector<SchemaElement> StructOfListAndMap() {
  return {
      GroupElement("schema", 1, std::nullopt),
      GroupElement("s", 2, R::OPTIONAL),
      GroupElement("a", 1, R::OPTIONAL, ConvertedType::LIST),
      GroupElement("list", 1, R::REPEATED),
      LeafElement("element", R::OPTIONAL),
      GroupElement("m", 1, R::OPTIONAL, ConvertedType::MAP),
      GroupElement("key_value", 2, R::REPEATED),
      WithConverted(LeafElement("key", R::REQUIRED, Type::BYTE_ARRAY), ConvertedType::UTF8),
      LeafElement("value", R::OPTIONAL, Type::BOOLEAN),
  };
}

// Rows:
//   0: {"a":[1,null,3],"m":{"x":true,"y":null}}
//   1: NULL                                     (s null)
//   2: {"a":null,"m":null}
//   3: {"a":[],"m":{}}
//   4: {"a":[null],"m":{"z":false}}
//   5: {"a":[7],"m":null}
void WriteStructOfListAndMap(const std::string& path, WriterOptions options = {}) {
  ParquetFileWriter writer(path, StructOfListAndMap(), options);
  writer.StartRowGroup();
  {
    const std::vector<int16_t> def = {4, 3, 4, 0, 1, 2, 3, 4};
    const std::vector<int16_t> rep = {0, 1, 1, 0, 0, 0, 0, 0};
    const std::vector<int32_t> values = {1, 3, 7};
    writer.WriteBatch<int32_t>(0, def.size(), def.data(), rep.data(), values.data(), values.size());
  }
  {
    const std::vector<int16_t> def = {3, 3, 0, 1, 2, 3, 1};
    const std::vector<int16_t> rep = {0, 1, 0, 0, 0, 0, 0};
    const std::vector<ByteArray> keys = {Bytes("x"), Bytes("y"), Bytes("z")};
    writer.WriteBatch<ByteArray>(1, def.size(), def.data(), rep.data(), keys.data(), keys.size());
    const std::vector<int16_t> value_def = {4, 3, 0, 1, 2, 4, 1};
    const bool values[] = {true, false};
    writer.WriteBatch<bool>(2, value_def.size(), value_def.data(), rep.data(), values, 2);
  }
  writer.EndRowGroup(6);
  writer.Close();
}

const std::vector<std::string> kStructOfListAndMapJson = {
    R"({"a":[1,null,3],"m":{"x":true,"y":null}})",
    "NULL",
    R"({"a":null,"m":null})",
    R"({"a":[],"m":{}})",
    R"({"a":[null],"m":{"z":false}})",
    R"({"a":[7],"m":null})",
};

}  // namespace

TEST_CASE("record assembler: structs, lists and maps with nulls at every level") {
  TempDir dir;
  const std::string path = dir.File("s.parquet");
  WriteStructOfListAndMap(path);
  CHECK(ReadJson(path, 0) == kStructOfListAndMapJson);

  SUBCASE("the events of a row") {
    auto file = ParquetFileReader::Open(path);
    RecordAssembler assembler(*file, 0);
    assembler.Reset(0);
    assembler.ReadRow();
    using K = NestedEventKind;
    std::vector<K> kinds;
    for (const NestedEvent& e : assembler.events()) kinds.push_back(e.kind);
    CHECK(kinds == std::vector<K>{K::kBeginStruct, K::kBeginList, K::kValue, K::kNull, K::kValue, K::kEndList,
                                  K::kBeginMap, K::kValue, K::kValue, K::kValue, K::kNull, K::kEndMap,
                                  K::kEndStruct});
    const NestedEvent& third = assembler.events()[4];
    CHECK(assembler.values<int32_t>(0)[third.value] == 3);
    const NestedEvent& key_y = assembler.events()[9];
    CHECK(assembler.values<ByteArray>(1)[key_y.value].view() == "y");
    CHECK(assembler.shape().shape(key_y.shape).name == "key");
  }
  SUBCASE("tiny batches give the same rows") {
    for (size_t batch : {1, 2, 3, 5}) {
      CAPTURE(batch);
      CHECK(ReadJson(path, 0, batch) == kStructOfListAndMapJson);
    }
  }
  SUBCASE("data page v2 and no dictionary") {
    WriterOptions options;
    options.data_page_version = 2;
    options.dictionary = false;
    const std::string v2 = dir.File("v2.parquet");
    WriteStructOfListAndMap(v2, options);
    CHECK(ReadJson(v2, 0, 2) == kStructOfListAndMapJson);
  }
}

TEST_CASE("record assembler: skipping rows lands on the same values as reading them") {
  TempDir dir;
  const std::string path = dir.File("s.parquet");
  WriteStructOfListAndMap(path);
  auto file = ParquetFileReader::Open(path);
  for (size_t batch : {1, 3, 2048}) {
    for (int first = 0; first < 6; first++) {
      for (int gap = 0; first + gap < 6; gap++) {
        CAPTURE(batch);
        CAPTURE(first);
        CAPTURE(gap);
        RecordAssembler assembler(*file, 0, {}, batch);
        NestedJsonRenderer renderer(file->schema(), assembler.shape(), {});
        assembler.Reset(0);
        std::string json;
        assembler.SkipRows(first);
        assembler.ReadRow();
        CHECK((renderer.Render(assembler, &json) ? json : "NULL") == kStructOfListAndMapJson[static_cast<size_t>(first)]);
        if (first + 1 + gap < 6) {
          assembler.SkipRows(gap);
          assembler.ReadRow();
          CHECK((renderer.Render(assembler, &json) ? json : "NULL") ==
                kStructOfListAndMapJson[static_cast<size_t>(first + 1 + gap)]);
        }
      }
    }
  }
  RecordAssembler assembler(*file, 0);
  assembler.Reset(0);
  assembler.SkipRows(6);  // to the very end
  CHECK(assembler.next_row() == 6);
  CHECK_THROWS_AS(assembler.ReadRow(), ParquetError);
  assembler.Reset(0);
  CHECK_THROWS_WITH_AS(assembler.SkipRows(7), doctest::Contains("cannot skip to row 7"), ParquetError);
}

TEST_CASE("record assembler: every leaf type inside JSON") {
  TempDir dir;
  const std::string path = dir.File("types.parquet");
  LogicalType int8 = LogicalOfKind(LogicalType::Kind::INTEGER);
  int8.int_bit_width = 8;
  LogicalType dec = LogicalOfKind(LogicalType::Kind::DECIMAL);
  dec.decimal_precision = 38;
  dec.decimal_scale = 10;
  LogicalType time_ms = LogicalOfKind(LogicalType::Kind::TIME);
  time_ms.time_unit = TimeUnit::MILLIS;
  LogicalType time_ns = LogicalOfKind(LogicalType::Kind::TIME);
  time_ns.time_unit = TimeUnit::NANOS;
  LogicalType ts_us = LogicalOfKind(LogicalType::Kind::TIMESTAMP);
  ts_us.time_unit = TimeUnit::MICROS;
  ts_us.is_adjusted_to_utc = true;
  SchemaElement dec32 = WithConverted(LeafElement("dec32", R::OPTIONAL), ConvertedType::DECIMAL);
  dec32.precision = 9;
  dec32.scale = 2;
  SchemaElement dec64 = WithConverted(LeafElement("dec64", R::OPTIONAL, Type::INT64), ConvertedType::DECIMAL);
  dec64.precision = 18;
  dec64.scale = 3;
  SchemaElement decflba = WithConverted(LeafElement("decflba", R::OPTIONAL, Type::FIXED_LEN_BYTE_ARRAY, 5), ConvertedType::DECIMAL);
  decflba.precision = 10;
  decflba.scale = 0;
  std::vector<SchemaElement> schema = {
      GroupElement("schema", 1, std::nullopt),
      GroupElement("s", 24, R::OPTIONAL),
      LeafElement("b", R::OPTIONAL, Type::BOOLEAN),
      WithLogical(LeafElement("i8", R::OPTIONAL), int8),
      WithConverted(LeafElement("u32", R::OPTIONAL), ConvertedType::UINT_32),
      LeafElement("i64", R::OPTIONAL, Type::INT64),
      WithConverted(LeafElement("u64", R::OPTIONAL, Type::INT64), ConvertedType::UINT_64),
      LeafElement("f", R::OPTIONAL, Type::FLOAT),
      LeafElement("d", R::OPTIONAL, Type::DOUBLE),
      WithLogical(LeafElement("h", R::OPTIONAL, Type::FIXED_LEN_BYTE_ARRAY, 2), LogicalOfKind(LogicalType::Kind::FLOAT16)),
      WithConverted(LeafElement("str", R::OPTIONAL, Type::BYTE_ARRAY), ConvertedType::UTF8),
      WithConverted(LeafElement("e", R::OPTIONAL, Type::BYTE_ARRAY), ConvertedType::ENUM),
      WithConverted(LeafElement("j", R::OPTIONAL, Type::BYTE_ARRAY), ConvertedType::JSON),
      LeafElement("bin", R::OPTIONAL, Type::BYTE_ARRAY),
      WithLogical(LeafElement("uuid", R::OPTIONAL, Type::FIXED_LEN_BYTE_ARRAY, 16), LogicalOfKind(LogicalType::Kind::UUID)),
      dec32,
      dec64,
      decflba,
      WithLogical(LeafElement("decba", R::OPTIONAL, Type::BYTE_ARRAY), dec),
      WithConverted(LeafElement("date", R::OPTIONAL), ConvertedType::DATE),
      WithLogical(LeafElement("t_ms", R::OPTIONAL), time_ms),
      WithLogical(LeafElement("t_ns", R::OPTIONAL, Type::INT64), time_ns),
      WithLogical(LeafElement("ts_us", R::OPTIONAL, Type::INT64), ts_us),
      LeafElement("ts96", R::OPTIONAL, Type::INT96),
      WithConverted(LeafElement("iv", R::OPTIONAL, Type::FIXED_LEN_BYTE_ARRAY, 12), ConvertedType::INTERVAL),
      WithLogical(LeafElement("nul", R::OPTIONAL), LogicalOfKind(LogicalType::Kind::UNKNOWN)),
  };
  {
    WriterOptions options;
    options.write_statistics = false;
    ParquetFileWriter writer(path, schema, options);
    writer.StartRowGroup();
    // Row 0: values; row 1: every field null; row 2: the struct null.
    const int16_t def[] = {2, 1, 0};
    const int16_t* rep = nullptr;
    int column = 0;
    auto write = [&](auto value) {
      using T = decltype(value);
      writer.WriteBatch<T>(column++, 3, def, rep, &value, 1);
    };
    write(true);
    write(int32_t{-5});
    write(int32_t{-1});
    write(std::numeric_limits<int64_t>::min());
    write(int64_t{-1});
    write(1.1f);
    write(0.1);
    const uint8_t half[] = {0x55, 0x35};  // 0x3555, 0.333251953125
    write(ByteArray{half, 2});
    const std::string text = "a\"b\\c\n\x01\xc3\xa9/";
    write(Bytes(text));
    write(Bytes("RED"));
    write(Bytes(R"( { "x" : [1, 2.5e3] } )"));
    const std::string binary("\x00\xff\x10" "abc\x01", 7);
    write(Bytes(binary));
    const uint8_t uuid[16] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
                              0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff};
    write(ByteArray{uuid, 16});
    write(int32_t{-5});
    write(int64_t{123456});
    const uint8_t flba[5] = {0xff, 0xff, 0xff, 0xfe, 0xd4};  // -300
    write(ByteArray{flba, 5});
    const uint8_t big[9] = {0x05, 0x6b, 0xc7, 0x5e, 0x2d, 0x63, 0x10, 0x00, 0x00};  // 10^20
    write(ByteArray{big, 9});
    write(int32_t{19753});
    write(int32_t{43200500});
    write(int64_t{1});
    write(int64_t{1706702400000000});
    write(Int96{{0, 0, 2440588}});
    const uint8_t interval[12] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0};
    write(ByteArray{interval, 12});
    write(int32_t{7});
    writer.EndRowGroup(3);
    writer.Close();
  }
  std::vector<std::string> rows = ReadJson(path, 0);
  REQUIRE(rows.size() == 3);
  CHECK(rows[0] ==
        "{\"b\":true,\"i8\":-5,\"u32\":4294967295,\"i64\":-9223372036854775808,\"u64\":18446744073709551615,"
        "\"f\":1.1,\"d\":0.1,\"h\":0.3333,\"str\":\"a\\\"b\\\\c\\n\\u0001\xc3\xa9/\",\"e\":\"RED\","
        "\"j\":{\"x\":[1,2.5e3]},\"bin\":\"AP8QYWJjAQ==\",\"uuid\":\"00112233-4455-6677-8899-aabbccddeeff\","
        "\"dec32\":-0.05,\"dec64\":123.456,\"decflba\":-300,\"decba\":10000000000.0000000000,"
        "\"date\":\"2024-01-31\",\"t_ms\":\"12:00:00.5\",\"t_ns\":\"00:00:00.000000001\","
        "\"ts_us\":\"2024-01-31 12:00:00\",\"ts96\":\"1970-01-01 00:00:00\","
        "\"iv\":{\"months\":1,\"days\":2,\"millis\":3},\"nul\":null}");
  CHECK(rows[1] ==
        "{\"b\":null,\"i8\":null,\"u32\":null,\"i64\":null,\"u64\":null,\"f\":null,\"d\":null,\"h\":null,"
        "\"str\":null,\"e\":null,\"j\":null,\"bin\":null,\"uuid\":null,\"dec32\":null,\"dec64\":null,"
        "\"decflba\":null,\"decba\":null,\"date\":null,\"t_ms\":null,\"t_ns\":null,\"ts_us\":null,"
        "\"ts96\":null,\"iv\":null,\"nul\":null}");
  CHECK(rows[2] == "NULL");

  SUBCASE("decimal_as and timestamp_as do not change JSON; binary_as_string does") {
    MappingOptions options;
    options.decimal_as_text = true;
    options.timestamp_form = sqlite_parquet::TimestampForm::kUnixEpoch;
    options.binary_as_string = true;
    std::vector<std::string> as_text = ReadJson(path, 0, 2048, options);
    CHECK(as_text[0].find("\"dec64\":123.456,") != std::string::npos);
    CHECK(as_text[0].find("\"date\":\"2024-01-31\"") != std::string::npos);
    CHECK(as_text[0].find(std::string("\"bin\":\"\\u0000\xff\\u0010" "abc\\u0001\"")) != std::string::npos);
  }
}

TEST_CASE("nested JSON: JSON leaves are embedded when valid, strings otherwise; JSON map keys stay strings; repeated keys are kept") {
  TempDir dir;
  const std::string path = dir.File("json.parquet");
  // optional group m (MAP) { repeated group key_value { required binary key (JSON); optional binary value (JSON); } }
  std::vector<SchemaElement> schema = {
      GroupElement("schema", 1, std::nullopt),
      GroupElement("m", 1, R::OPTIONAL, ConvertedType::MAP),
      GroupElement("key_value", 2, R::REPEATED),
      WithConverted(LeafElement("key", R::REQUIRED, Type::BYTE_ARRAY), ConvertedType::JSON),
      WithConverted(LeafElement("value", R::OPTIONAL, Type::BYTE_ARRAY), ConvertedType::JSON),
  };
  {
    ParquetFileWriter writer(path, schema);
    writer.StartRowGroup();
    const int16_t rep[] = {0, 1, 1, 1, 1};
    const int16_t key_def[] = {2, 2, 2, 2, 2};
    const ByteArray keys[] = {Bytes("{\"k\":1}"), Bytes("b"), Bytes("b"), Bytes("d"), Bytes("e")};
    writer.WriteBatch<ByteArray>(0, 5, key_def, rep, keys, 5);
    const int16_t value_def[] = {3, 3, 3, 3, 2};
    const ByteArray values[] = {Bytes("[1, {\"a\" : \"x y\"}]"), Bytes("not json"), Bytes("{\"a\":1,}"), Bytes(" null ")};
    writer.WriteBatch<ByteArray>(1, 5, value_def, rep, values, 4);
    writer.EndRowGroup(1);
    writer.Close();
  }
  CHECK(ReadJson(path, 0) ==
        std::vector<std::string>{R"({"{\"k\":1}":[1,{"a":"x y"}],"b":"not json","b":"{\"a\":1,}","d":null,"e":null})"});
}

TEST_CASE("nested JSON: map forms") {
  TempDir dir;
  const std::string path = dir.File("maps.parquet");
  // int_map: MAP<int32, string>        -> array of {"key":..,"value":..}
  // keys_only: MAP without value field -> null values
  // opt_key: MAP<optional string, int32> (as written by some engines) -> a null key is ""
  // bin_key: MAP<binary, int32>        -> array form, object form with binary_as_string=1
  std::vector<SchemaElement> schema = {
      GroupElement("schema", 4, std::nullopt),
      GroupElement("int_map", 1, R::OPTIONAL, ConvertedType::MAP),
      GroupElement("key_value", 2, R::REPEATED),
      LeafElement("key", R::REQUIRED),
      WithConverted(LeafElement("value", R::OPTIONAL, Type::BYTE_ARRAY), ConvertedType::UTF8),
      GroupElement("keys_only", 1, R::REQUIRED, ConvertedType::MAP),
      GroupElement("key_value", 1, R::REPEATED),
      WithConverted(LeafElement("key", R::REQUIRED, Type::BYTE_ARRAY), ConvertedType::UTF8),
      GroupElement("opt_key", 1, R::OPTIONAL, ConvertedType::MAP),
      GroupElement("key_value", 2, R::REPEATED, ConvertedType::MAP_KEY_VALUE),
      WithConverted(LeafElement("key", R::OPTIONAL, Type::BYTE_ARRAY), ConvertedType::UTF8),
      LeafElement("value", R::OPTIONAL),
      GroupElement("bin_key", 1, R::OPTIONAL, ConvertedType::MAP),
      GroupElement("key_value", 2, R::REPEATED),
      LeafElement("key", R::REQUIRED, Type::BYTE_ARRAY),
      LeafElement("value", R::REQUIRED),
  };
  {
    ParquetFileWriter writer(path, schema);
    writer.StartRowGroup();
    const int16_t rep2[] = {0, 1};
    const int16_t map_def[] = {2, 2};
    const int32_t keys[] = {2, 1};
    writer.WriteBatch<int32_t>(0, 2, map_def, rep2, keys, 2);
    const int16_t value_def[] = {3, 2};
    const ByteArray values[] = {Bytes("two")};
    writer.WriteBatch<ByteArray>(1, 2, value_def, rep2, values, 1);
    const int16_t keys_only_def[] = {1, 1};
    const ByteArray names[] = {Bytes("a"), Bytes("b\"")};
    writer.WriteBatch<ByteArray>(2, 2, keys_only_def, rep2, names, 2);
    const int16_t opt_key_def[] = {3, 2};
    const ByteArray opt_keys[] = {Bytes("k")};
    writer.WriteBatch<ByteArray>(3, 2, opt_key_def, rep2, opt_keys, 1);
    const int16_t opt_value_def[] = {3, 3};
    const int32_t opt_values[] = {10, 20};
    writer.WriteBatch<int32_t>(4, 2, opt_value_def, rep2, opt_values, 2);
    const ByteArray bin_keys[] = {Bytes("x"), Bytes("y")};
    writer.WriteBatch<ByteArray>(5, 2, map_def, rep2, bin_keys, 2);
    writer.WriteBatch<int32_t>(6, 2, map_def, rep2, keys, 2);
    writer.EndRowGroup(1);
    writer.Close();
  }
  CHECK(ReadJson(path, 0) == std::vector<std::string>{R"([{"key":2,"value":"two"},{"key":1,"value":null}])"});
  CHECK(ReadJson(path, 1) == std::vector<std::string>{R"({"a":null,"b\"":null})"});
  CHECK(ReadJson(path, 2) == std::vector<std::string>{R"({"k":10,"":20})"});
  CHECK(ReadJson(path, 3) == std::vector<std::string>{R"([{"key":"eA==","value":2},{"key":"eQ==","value":1}])"});
  MappingOptions as_string;
  as_string.binary_as_string = true;
  CHECK(ReadJson(path, 3, 2048, as_string) == std::vector<std::string>{R"({"x":2,"y":1})"});
}

// A VARIANT inside a struct, shredded into an object with a primitive field `a` and an
// array field `b` of binary elements (VariantShredding.md):
//   optional group s {
//     optional group v (VARIANT) {
//       required binary metadata; optional binary value;
//       optional group typed_value {
//         required group a { optional binary value; optional int32 typed_value; }
//         required group b { optional binary value;
//           optional group typed_value (LIST) { repeated group list {
//             required group element { optional binary value; optional binary typed_value; } } } }
//       } } }
std::vector<SchemaElement> StructOfShreddedVariant(bool extra_field) {
  std::vector<SchemaElement> schema = {
      GroupElement("schema", 1, std::nullopt),
      GroupElement("s", 1, R::OPTIONAL),
      WithLogical(GroupElement("v", extra_field ? 4 : 3, R::OPTIONAL), LogicalOfKind(LogicalType::Kind::VARIANT)),
      LeafElement("metadata", R::REQUIRED, Type::BYTE_ARRAY),
      LeafElement("value", R::OPTIONAL, Type::BYTE_ARRAY),
      GroupElement("typed_value", 2, R::OPTIONAL),
      GroupElement("a", 2, R::REQUIRED),
      LeafElement("value", R::OPTIONAL, Type::BYTE_ARRAY),
      LeafElement("typed_value", R::OPTIONAL),
      GroupElement("b", 2, R::REQUIRED),
      LeafElement("value", R::OPTIONAL, Type::BYTE_ARRAY),
      GroupElement("typed_value", 1, R::OPTIONAL, ConvertedType::LIST),
      GroupElement("list", 1, R::REPEATED),
      GroupElement("element", 2, R::REQUIRED),
      LeafElement("value", R::OPTIONAL, Type::BYTE_ARRAY),
      LeafElement("typed_value", R::OPTIONAL, Type::BYTE_ARRAY),
  };
  if (extra_field) schema.push_back(LeafElement("extra", R::OPTIONAL));
  return schema;
}

ByteArray Bytes(const std::vector<uint8_t>& bytes) {
  return ByteArray{bytes.data(), static_cast<uint32_t>(bytes.size())};
}

TEST_CASE("nested JSON: shredded VARIANT objects and arrays inside a struct") {
  TempDir dir;
  const std::string path = dir.File("variant.parquet");
  // Metadata: sorted dictionary {"a", "c"}. Residual object {"a": int8 9, "c": int8 1}: its
  // "a" is shadowed by the shredded field a. Element values: short string "x", variant null.
  const std::vector<uint8_t> metadata = {0x11, 0x02, 0x00, 0x01, 0x02, 'a', 'c'};
  const std::vector<uint8_t> residual = {0x02, 0x02, 0x00, 0x01, 0x00, 0x02, 0x04, 0x0C, 0x09, 0x0C, 0x01};
  const std::vector<uint8_t> plain = {0x15, 'p', 'l', 'a', 'i', 'n'};
  const std::vector<uint8_t> short_x = {0x05, 'x'};
  const std::vector<uint8_t> variant_null = {0x00};
  // Rows: 0 s null; 1 v null; 2 shredded a and b with a residual object; 3 unshredded
  // string; 4 every shredded field missing; 5 b an empty array.
  auto write = [&](const std::string& file, const std::vector<uint8_t>& row2_residual) {
    ParquetFileWriter writer(file, StructOfShreddedVariant(false));
    writer.StartRowGroup();
    const int16_t metadata_def[] = {0, 1, 2, 2, 2, 2};
    const ByteArray metadatas[] = {Bytes(metadata), Bytes(metadata), Bytes(metadata), Bytes(metadata)};
    writer.WriteBatch<ByteArray>(0, 6, metadata_def, nullptr, metadatas, 4);
    const int16_t value_def[] = {0, 1, 3, 3, 2, 2};
    const ByteArray values[] = {Bytes(row2_residual), Bytes(plain)};
    writer.WriteBatch<ByteArray>(1, 6, value_def, nullptr, values, 2);
    const int16_t a_value_def[] = {0, 1, 3, 2, 3, 3};
    writer.WriteBatch<ByteArray>(2, 6, a_value_def, nullptr, nullptr, 0);
    const int16_t a_typed_def[] = {0, 1, 4, 2, 3, 3};
    const int32_t a_typed[] = {5};
    writer.WriteBatch<int32_t>(3, 6, a_typed_def, nullptr, a_typed, 1);
    writer.WriteBatch<ByteArray>(4, 6, a_value_def, nullptr, nullptr, 0);
    const int16_t element_rep[] = {0, 0, 0, 1, 1, 0, 0, 0};
    const int16_t element_value_def[] = {0, 1, 5, 6, 6, 2, 3, 4};
    const ByteArray element_values[] = {Bytes(short_x), Bytes(variant_null)};
    writer.WriteBatch<ByteArray>(5, 8, element_value_def, element_rep, element_values, 2);
    const int16_t element_typed_def[] = {0, 1, 6, 5, 5, 2, 3, 4};
    const ByteArray element_typed[] = {Bytes("hi")};
    writer.WriteBatch<ByteArray>(6, 8, element_typed_def, element_rep, element_typed, 1);
    writer.EndRowGroup(6);
    writer.Close();
  };
  write(path, residual);
  const std::vector<std::string> expected = {
      "NULL",
      R"({"v":null})",
      R"({"v":{"a":5,"b":["aGk=","x",null],"c":1}})",
      R"({"v":"plain"})",
      R"({"v":{}})",
      R"({"v":{"b":[]}})",
  };
  CHECK(ReadJson(path, 0) == expected);
  for (size_t batch : {1, 2, 3}) {
    CAPTURE(batch);
    CHECK(ReadJson(path, 0, batch) == expected);
  }
  MappingOptions as_string;  // binary inside a variant stays base64
  as_string.binary_as_string = true;
  CHECK(ReadJson(path, 0, 2048, as_string) == expected);

  SUBCASE("a residual value that is not an object next to shredded fields") {
    const std::string bad = dir.File("not_object.parquet");
    write(bad, plain);
    CHECK_THROWS_WITH_AS(ReadJson(bad, 0),
                         doctest::Contains("column 's.v.value', row group 0, row 2: invalid variant: a value that "
                                           "is not an object next to a shredded object"),
                         ParquetError);
  }
  SUBCASE("a malformed residual object names the value column") {
    const std::string bad = dir.File("truncated.parquet");
    write(bad, std::vector<uint8_t>(residual.begin(), residual.begin() + 6));
    CHECK_THROWS_WITH_AS(ReadJson(bad, 0), doctest::Contains("column 's.v.value', row group 0, row 2: variant value truncated"),
                         ParquetError);
  }
}

TEST_CASE("nested JSON: a VARIANT group with a field the shredding spec does not know is an error") {
  TempDir dir;
  const std::string path = dir.File("extra.parquet");
  {
    std::vector<SchemaElement> schema = StructOfShreddedVariant(true);
    schema[1].num_children = 1;
    ParquetFileWriter writer(path, schema);
    writer.StartRowGroup();
    const int16_t def[] = {2};
    const std::vector<uint8_t> metadata = {0x01, 0x00, 0x00};
    const ByteArray metadatas[] = {Bytes(metadata)};
    writer.WriteBatch<ByteArray>(0, 1, def, nullptr, metadatas, 1);
    const int16_t null_def[] = {2};
    const int16_t rep[] = {0};
    for (int column = 1; column < 7; column++) {
      if (column == 3) {
        writer.WriteBatch<int32_t>(column, 1, null_def, nullptr, nullptr, 0);
      } else {
        writer.WriteBatch<ByteArray>(column, 1, null_def, column >= 5 ? rep : nullptr, nullptr, 0);
      }
    }
    writer.WriteBatch<int32_t>(7, 1, null_def, nullptr, nullptr, 0);
    writer.EndRowGroup(1);
    writer.Close();
  }
  CHECK_THROWS_WITH_AS(ReadJson(path, 0),
                       doctest::Contains("invalid variant: the variant group 's.v' has a field 'extra'"), ParquetError);
}

TEST_CASE("record assembler: lists of structs of lists, bare repeated fields, list of lists") {
  TempDir dir;
  const std::string path = dir.File("deep.parquet");
  // required group outer (LIST) { repeated group list { required group element {
  //     optional group xs (LIST) { repeated group list { required int64 element; } }
  //     repeated binary tags (UTF8); } } }
  // optional group ll (LIST) { repeated group array (LIST) { repeated int32 array; } }   (2-level, rule 3)
  std::vector<SchemaElement> schema = {
      GroupElement("schema", 2, std::nullopt),
      GroupElement("outer", 1, R::REQUIRED, ConvertedType::LIST),
      GroupElement("list", 1, R::REPEATED),
      GroupElement("element", 2, R::REQUIRED),
      GroupElement("xs", 1, R::OPTIONAL, ConvertedType::LIST),
      GroupElement("list", 1, R::REPEATED),
      LeafElement("element", R::REQUIRED, Type::INT64),
      WithConverted(LeafElement("tags", R::REPEATED, Type::BYTE_ARRAY), ConvertedType::UTF8),
      GroupElement("ll", 1, R::OPTIONAL, ConvertedType::LIST),
      GroupElement("array", 1, R::REPEATED, ConvertedType::LIST),
      LeafElement("array", R::REPEATED),
  };
  // Row 0: outer = [{xs:[1,2], tags:["a"]}, {xs:null, tags:[]}, {xs:[], tags:["b","c"]}]; ll = [[1,2],[],[3]]
  // Row 1: outer = []; ll = null
  // Row 2: outer = [{xs:[3], tags:[]}]; ll = []
  {
    ParquetFileWriter writer(path, schema);
    writer.StartRowGroup();
    // outer.list.element.xs.list.element: max def 3 (list, xs, xs.list), max rep 2.
    const int16_t xs_def[] = {3, 3, 1, 2, 0, 3};
    const int16_t xs_rep[] = {0, 2, 1, 1, 0, 0};
    const int64_t xs_values[] = {1, 2, 3};
    writer.WriteBatch<int64_t>(0, 6, xs_def, xs_rep, xs_values, 3);
    // outer.list.element.tags: max def 2, max rep 2.
    const int16_t tags_def[] = {2, 1, 2, 2, 0, 1};
    const int16_t tags_rep[] = {0, 1, 1, 2, 0, 0};
    const ByteArray tags[] = {Bytes("a"), Bytes("b"), Bytes("c")};
    writer.WriteBatch<ByteArray>(1, 6, tags_def, tags_rep, tags, 3);
    // ll.array.array: max def 3, max rep 2.
    const int16_t ll_def[] = {3, 3, 2, 3, 0, 1};
    const int16_t ll_rep[] = {0, 2, 1, 1, 0, 0};
    const int32_t ll_values[] = {1, 2, 3};
    writer.WriteBatch<int32_t>(2, 6, ll_def, ll_rep, ll_values, 3);
    writer.EndRowGroup(3);
    writer.Close();
  }
  const std::vector<std::string> outer = {
      R"([{"xs":[1,2],"tags":["a"]},{"xs":null,"tags":[]},{"xs":[],"tags":["b","c"]}])",
      "[]",
      R"([{"xs":[3],"tags":[]}])",
  };
  const std::vector<std::string> ll = {"[[1,2],[],[3]]", "NULL", "[]"};
  for (size_t batch : {1, 2, 4, 2048}) {
    CAPTURE(batch);
    CHECK(ReadJson(path, 0, batch) == outer);
    CHECK(ReadJson(path, 1, batch) == ll);
  }
}

namespace {

// ---------------------------------------------------------------------------------------
// Files assembled by hand, for what the writer never produces: rows that span data pages,
// and corrupt levels. One leaf column in one row group.

using ByteVector = std::vector<uint8_t>;

void Append(ByteVector* out, const std::string& s) { out->insert(out->end(), s.begin(), s.end()); }

// 4-byte length + RLE/bit-packed hybrid runs, as data page v1 levels are stored.
ByteVector Levels(const std::vector<int16_t>& levels, int bit_width) {
  RleBitPackedEncoder encoder(bit_width);
  for (int16_t level : levels) encoder.Put(static_cast<uint32_t>(level));
  std::string runs;
  encoder.Flush(&runs);
  ByteVector out;
  for (int i = 0; i < 4; i++) out.push_back(static_cast<uint8_t>(runs.size() >> (8 * i)));
  Append(&out, runs);
  return out;
}

struct HandPage {
  std::vector<int16_t> rep;
  std::vector<int16_t> def;
  std::vector<int32_t> values;
};

// The leaf is the last element of `schema` (an INT32 column with rep and def levels).
std::unique_ptr<ParquetFileReader> HandBuiltFile(const std::vector<SchemaElement>& schema,
                                                 const std::vector<std::string>& path,
                                                 const std::vector<HandPage>& pages, int64_t num_rows,
                                                 int rep_width, int def_width) {
  ByteVector file = {'P', 'A', 'R', '1'};
  int64_t num_values = 0;
  for (const HandPage& page : pages) {
    ByteVector body;
    ByteVector rep = Levels(page.rep, rep_width);
    ByteVector def = Levels(page.def, def_width);
    body.insert(body.end(), rep.begin(), rep.end());
    body.insert(body.end(), def.begin(), def.end());
    for (int32_t v : page.values) {
      for (int i = 0; i < 4; i++) body.push_back(static_cast<uint8_t>(static_cast<uint32_t>(v) >> (8 * i)));
    }
    PageHeader header;
    header.type = PageType::DATA_PAGE;
    header.uncompressed_page_size = static_cast<int32_t>(body.size());
    header.compressed_page_size = static_cast<int32_t>(body.size());
    DataPageHeader h;
    h.num_values = static_cast<int32_t>(page.rep.size());
    h.encoding = Encoding::PLAIN;
    h.definition_level_encoding = Encoding::RLE;
    h.repetition_level_encoding = Encoding::RLE;
    header.data_page_header = h;
    Append(&file, Serialize(header));
    file.insert(file.end(), body.begin(), body.end());
    num_values += h.num_values;
  }
  FileMetaData meta;
  meta.schema = schema;
  meta.num_rows = num_rows;
  RowGroup rg;
  rg.num_rows = num_rows;
  ColumnChunk chunk;
  ColumnMetaData cmd;
  cmd.type = Type::INT32;
  cmd.encodings = {Encoding::PLAIN, Encoding::RLE};
  cmd.path_in_schema = path;
  cmd.codec = CompressionCodec::UNCOMPRESSED;
  cmd.num_values = num_values;
  cmd.total_compressed_size = static_cast<int64_t>(file.size()) - 4;
  cmd.total_uncompressed_size = cmd.total_compressed_size;
  cmd.data_page_offset = 4;
  chunk.meta_data = cmd;
  rg.columns = {chunk};
  meta.row_groups = {rg};
  std::string footer = Serialize(meta);
  Append(&file, footer);
  for (int i = 0; i < 4; i++) file.push_back(static_cast<uint8_t>(footer.size() >> (8 * i)));
  Append(&file, "PAR1");
  return ParquetFileReader::Open(OpenMemoryFile(file.data(), file.size(), "hand.parquet"));
}

// optional group a (LIST) { repeated group list { optional int32 element; } }: def 3, rep 1.
std::vector<SchemaElement> OptionalIntList() {
  return {GroupElement("schema", 1, std::nullopt), GroupElement("a", 1, R::OPTIONAL, ConvertedType::LIST),
          GroupElement("list", 1, R::REPEATED), LeafElement("element", R::OPTIONAL)};
}
const std::vector<std::string> kListPath = {"a", "list", "element"};

// optional group a (LIST) { repeated group list { optional group element (LIST) {
//   repeated group list { optional int32 element; } } } }: def 5, rep 2.
std::vector<SchemaElement> ListOfLists() {
  return {GroupElement("schema", 1, std::nullopt), GroupElement("a", 1, R::OPTIONAL, ConvertedType::LIST),
          GroupElement("list", 1, R::REPEATED),     GroupElement("element", 1, R::OPTIONAL, ConvertedType::LIST),
          GroupElement("list", 1, R::REPEATED),     LeafElement("element", R::OPTIONAL)};
}
const std::vector<std::string> kListOfListsPath = {"a", "list", "element", "list", "element"};

}  // namespace

TEST_CASE("record assembler: rows spanning data pages (v1), read and skipped") {
  // Rows: [1,2,3,4,5], NULL, [], [6,null,7], [8]; pages cut inside rows 0 and 3.
  std::vector<HandPage> pages = {
      {{0, 1, 1}, {3, 3, 3}, {1, 2, 3}},
      {{1, 1, 0, 0, 0, 1}, {3, 3, 0, 1, 3, 2}, {4, 5, 6}},
      {{1, 0}, {3, 3}, {7, 8}},
  };
  auto file = HandBuiltFile(OptionalIntList(), kListPath, pages, 5, 1, 2);
  const std::vector<std::string> expected = {"[1,2,3,4,5]", "NULL", "[]", "[6,null,7]", "[8]"};
  for (size_t batch : {1, 2, 1000}) {
    CAPTURE(batch);
    CHECK(ReadJson(*file, 0, batch) == expected);
    for (int skip = 0; skip < 5; skip++) {
      CAPTURE(skip);
      RecordAssembler assembler(*file, 0, {}, batch);
      NestedJsonRenderer renderer(file->schema(), assembler.shape(), {});
      assembler.Reset(0);
      assembler.SkipRows(skip);
      std::string json;
      for (int row = skip; row < 5; row++) {
        assembler.ReadRow();
        CHECK((renderer.Render(assembler, &json) ? json : "NULL") == expected[static_cast<size_t>(row)]);
      }
    }
  }

  SUBCASE("the column reader's row-aware skipping") {
    auto reader = ColumnChunkReader::Make(*file, 0, 0);
    CHECK(reader->SkipRows(1) == 1);  // row 0 spans pages 0 and 1
    ColumnBatch batch;
    REQUIRE(reader->ReadBatch(1, &batch) == 1);
    CHECK(batch.rep_levels[0] == 0);
    CHECK(batch.def_levels[0] == 0);  // row 1: NULL
    CHECK(reader->SkipToRowStart(1) == 1);  // nothing left of row 1: stands at row 2 already
    CHECK(reader->SkipToRowStart(2) == 2);  // past row 2 to the start of row 3
    REQUIRE(reader->ReadBatch(1, &batch) == 1);
    CHECK(batch.values<int32_t>()[0] == 6);
    CHECK(reader->SkipToRowStart(1) == 1);  // the rest of row 3 (across the page boundary)
    REQUIRE(reader->ReadBatch(10, &batch) == 1);
    CHECK(batch.values<int32_t>()[0] == 8);
    reader->Reset(0);
    CHECK(reader->SkipRows(10) == 5);
    CHECK(reader->ReadBatch(10, &batch) == 0);
  }
}

TEST_CASE("record assembler: v2 pages that rows cannot span are skipped without decompression") {
  TempDir dir;
  const std::string path = dir.File("pages.parquet");
  WriterOptions options;
  options.data_page_version = 2;
  options.page_size = 64;
  options.dictionary = false;
  {
    ParquetFileWriter writer(path, OptionalIntList(), options);
    writer.StartRowGroup();
    std::vector<int16_t> def, rep;
    std::vector<int32_t> values;
    for (int row = 0; row < 1000; row++) {
      for (int i = 0; i <= row % 4; i++) {
        def.push_back(3);
        rep.push_back(i == 0 ? 0 : 1);
        values.push_back(row * 10 + i);
      }
    }
    writer.WriteBatch<int32_t>(0, def.size(), def.data(), rep.data(), values.data(), values.size());
    writer.EndRowGroup(1000);
    writer.Close();
  }
  auto file = ParquetFileReader::Open(path);
  RecordAssembler assembler(*file, 0);
  NestedJsonRenderer renderer(file->schema(), assembler.shape(), {});
  assembler.Reset(0);
  assembler.SkipRows(997);
  assembler.ReadRow();
  std::string json;
  REQUIRE(renderer.Render(assembler, &json));
  CHECK(json == "[9970,9971]");
  CHECK(assembler.counters().pages_skipped > 10);
  CHECK(assembler.counters().pages_read <= 2);
  assembler.ReadRow();
  renderer.Render(assembler, &json);
  CHECK(json == "[9980,9981,9982]");
}

TEST_CASE("record assembler: corrupt levels end in errors") {
  SUBCASE("a chunk that starts inside a row") {
    auto file = HandBuiltFile(OptionalIntList(), kListPath, {{{1, 0}, {3, 3}, {1, 2}}}, 2, 1, 2);
    CHECK_THROWS_WITH_AS(ReadJson(*file, 0), doctest::Contains("row starts with repetition level 1"), ParquetError);
  }
  SUBCASE("a list of lists read correctly from hand-built pages") {
    auto file = HandBuiltFile(ListOfLists(), kListOfListsPath, {{{0, 2, 1, 1, 0}, {5, 4, 3, 5, 1}, {1, 2}}}, 2, 2, 3);
    CHECK(ReadJson(*file, 0) == std::vector<std::string>{"[[1,null],[],[2]]", "[]"});
  }
  SUBCASE("a definition level above the column's maximum") {
    // Levels of width 3 can hold 6 and 7, above the maximum 5 (the column reader catches it
    // before the assembler does, naming the page).
    auto file = HandBuiltFile(ListOfLists(), kListOfListsPath, {{{0}, {7}, {}}}, 1, 2, 3);
    CHECK_THROWS_WITH_AS(ReadJson(*file, 0), doctest::Contains("page 0: definition level 7 is above the column's maximum 5"),
                         ParquetError);
  }
  SUBCASE("a repetition level above the column's maximum") {
    auto file = HandBuiltFile(ListOfLists(), kListOfListsPath, {{{0, 3}, {5, 5}, {1, 2}}}, 1, 2, 3);
    CHECK_THROWS_WITH_AS(ReadJson(*file, 0), doctest::Contains("page 0: repetition level 3 is above the column's maximum 2"),
                         ParquetError);
  }
  SUBCASE("more rows than the row group says") {
    auto file = HandBuiltFile(OptionalIntList(), kListPath, {{{0, 0, 0}, {3, 3, 3}, {1, 2, 3}}}, 2, 1, 2);
    CHECK_THROWS_WITH_AS(ReadJson(*file, 0), doctest::Contains("more rows than the row group's 2"), ParquetError);
  }
  SUBCASE("fewer rows than the row group says") {
    auto file = HandBuiltFile(OptionalIntList(), kListPath, {{{0, 0}, {3, 3}, {1, 2}}}, 3, 1, 2);
    CHECK_THROWS_WITH_AS(ReadJson(*file, 0), doctest::Contains("ends after 2 rows but the row group has 3"),
                         ParquetError);
    RecordAssembler assembler(*file, 0);
    assembler.Reset(0);
    CHECK_THROWS_WITH_AS(assembler.SkipRows(3), doctest::Contains("ends before row 3"), ParquetError);
  }
  SUBCASE("columns of one field that disagree on the structure") {
    TempDir dir;
    const std::string path = dir.File("disagree.parquet");
    // optional group s { repeated int32 x; optional int32 y; }: x has two elements where the
    // first column (x) decides the struct is present, y says the struct is null.
    std::vector<SchemaElement> schema = {GroupElement("schema", 1, std::nullopt), GroupElement("s", 2, R::OPTIONAL),
                                         LeafElement("x", R::REPEATED), LeafElement("y", R::OPTIONAL)};
    {
      ParquetFileWriter writer(path, schema);
      writer.StartRowGroup();
      const int16_t x_def[] = {2, 2};
      const int16_t x_rep[] = {0, 1};
      const int32_t xs[] = {1, 2};
      writer.WriteBatch<int32_t>(0, 2, x_def, x_rep, xs, 2);
      const int16_t y_def[] = {0};
      writer.WriteBatch<int32_t>(1, 1, y_def, nullptr, xs, 0);
      writer.EndRowGroup(1);
      writer.Close();
    }
    CHECK_THROWS_WITH_AS(ReadJson(path, 0), doctest::Contains("contradicts the structure"), ParquetError);
  }
  SUBCASE("list columns of one struct with different element counts") {
    TempDir dir;
    const std::string path = dir.File("lists.parquet");
    // repeated group r { required int32 a; required int32 b; }: a list of structs whose
    // columns say 2 + 1 and 1 + 2 elements.
    std::vector<SchemaElement> schema = {GroupElement("schema", 1, std::nullopt), GroupElement("r", 2, R::REPEATED),
                                         LeafElement("a", R::REQUIRED), LeafElement("b", R::REQUIRED)};
    {
      ParquetFileWriter writer(path, schema);
      writer.StartRowGroup();
      const int16_t def[] = {1, 1, 1};
      const int16_t rep_a[] = {0, 1, 0};
      const int16_t rep_b[] = {0, 0, 1};
      const int32_t v[] = {1, 2, 3};
      writer.WriteBatch<int32_t>(0, 3, def, rep_a, v, 3);
      writer.WriteBatch<int32_t>(1, 3, def, rep_b, v, 3);
      writer.EndRowGroup(2);
      writer.Close();
    }
    CHECK_THROWS_WITH_AS(ReadJson(path, 0), doctest::Contains("column 'r.b'"), ParquetError);
  }
}

TEST_CASE("record assembler: cost grows with the data, not with list length or depth") {
  TempDir dir;
  SUBCASE("one row holding a list of 500000 elements, in batches of 1000") {
    const std::string path = dir.File("long.parquet");
    std::vector<SchemaElement> schema = {GroupElement("schema", 1, std::nullopt),
                                         WithConverted(LeafElement("s", R::REPEATED, Type::BYTE_ARRAY), ConvertedType::UTF8)};
    const int n = 500000;
    {
      ParquetFileWriter writer(path, schema);
      writer.StartRowGroup();
      std::vector<int16_t> rep(n, 1);
      rep[0] = 0;
      std::vector<int16_t> def(n, 1);
      std::vector<std::string> strings(n);
      std::vector<ByteArray> values(n);
      for (int i = 0; i < n; i++) {
        strings[static_cast<size_t>(i)] = std::to_string(i % 1000);
        values[static_cast<size_t>(i)] = Bytes(strings[static_cast<size_t>(i)]);
      }
      writer.WriteBatch<ByteArray>(0, n, def.data(), rep.data(), values.data(), values.size());
      writer.EndRowGroup(1);
      writer.Close();
    }
    auto start = std::chrono::steady_clock::now();
    std::vector<std::string> rows = ReadJson(path, 0, 1000);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].substr(0, 16) == "[\"0\",\"1\",\"2\",\"3\"");
    CHECK(rows[0].substr(rows[0].size() - 12) == "\"998\",\"999\"]");
    CHECK(seconds < 10.0);  // a quadratic walk would take minutes
  }
  SUBCASE("20 lists inside one another") {
    const std::string path = dir.File("deep.parquet");
    std::vector<SchemaElement> schema = {GroupElement("schema", 1, std::nullopt)};
    const int depth = 20;
    for (int i = 0; i < depth; i++) {
      schema.push_back(GroupElement(i == 0 ? "a" : "element", 1, R::OPTIONAL, ConvertedType::LIST));
      schema.push_back(GroupElement("list", 1, R::REPEATED));
    }
    schema.push_back(LeafElement("element", R::OPTIONAL));
    {
      ParquetFileWriter writer(path, schema);
      writer.StartRowGroup();
      // Row 0: 20 nested lists around [1, 2]; row 1: the 11th list empty (def 2 * 10 + 1);
      // row 2: NULL.
      const int16_t max_def = 2 * depth + 1;
      const int16_t def[] = {max_def, max_def, 2 * 10 + 1, 0};
      const int16_t rep[] = {0, depth, 0, 0};
      const int32_t values[] = {1, 2};
      writer.WriteBatch<int32_t>(0, 4, def, rep, values, 2);
      writer.EndRowGroup(3);
      writer.Close();
    }
    std::vector<std::string> rows = ReadJson(path, 0);
    REQUIRE(rows.size() == 3);
    CHECK(rows[0] == std::string(depth, '[') + "1,2" + std::string(depth, ']'));
    CHECK(rows[1] == std::string(11, '[') + std::string(11, ']'));
    CHECK(rows[2] == "NULL");
  }
}

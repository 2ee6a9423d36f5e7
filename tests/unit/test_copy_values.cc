// Unit tests for ext/copy_values: the row-group value buffer, the conversion of SQLite
// values to every Parquet type (and the rejection of values that do not fit), and the
// definition/repetition levels written for LIST, MAP and STRUCT values given as JSON.
#include "ext/copy/copy_values.h"
#include "format/values/logical_values.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace sqlite_parquet;

namespace {

CopyType TypeOf(const std::string& text) {
  CopyType type;
  std::string error;
  REQUIRE_MESSAGE(ParseCopyType(text, &type, &error), error);
  return type;
}

// A column of values described as "i:5", "r:1.5", "t:text", "b:<hex>", "n".
ValueColumn Column(const std::vector<std::string>& values) {
  ValueColumn column;
  for (const std::string& v : values) {
    if (v == "n") {
      column.AppendNull();
    } else if (v.rfind("i:", 0) == 0) {
      column.AppendInteger(std::stoll(v.substr(2)));
    } else if (v.rfind("r:", 0) == 0) {
      column.AppendReal(std::stod(v.substr(2)));
    } else if (v.rfind("t:", 0) == 0) {
      column.AppendText(v.data() + 2, v.size() - 2);
    } else if (v.rfind("b:", 0) == 0) {
      std::string bytes;
      for (size_t i = 2; i + 1 < v.size(); i += 2) bytes += static_cast<char>(std::stoi(v.substr(i, 2), nullptr, 16));
      column.AppendBlob(bytes.data(), bytes.size());
    } else {
      FAIL("bad test value " << v);
    }
  }
  return column;
}

struct Converted {
  ValueColumn column;  // flat STRING/BINARY leaves point into it
  bool ok = false;
  ConversionFailure failure;
  std::vector<LeafData> leaves;
};

Converted Convert(const std::string& type, const std::vector<std::string>& values, bool null_on_error = false) {
  Converted result;
  const CopyType copy_type = TypeOf(type);
  result.column = Column(values);
  PrepareLeaves(copy_type, &result.leaves);
  result.ok = ConvertColumn(copy_type, result.column, null_on_error, &result.leaves, &result.failure);
  return result;
}

// The leaf of a one-value conversion that must succeed. Kept alive (with the values its
// byte arrays may point into) until the next call.
const LeafData& One(const std::string& type, const std::string& value) {
  static Converted converted;
  converted = Convert(type, {value});
  REQUIRE_MESSAGE(converted.ok, converted.failure.message);
  REQUIRE(converted.leaves[0].def_levels() == std::vector<int16_t>{1});
  return converted.leaves[0];
}

std::string Failure(const std::string& type, const std::string& value) {
  Converted converted = Convert(type, {"n", value});
  CHECK_FALSE(converted.ok);
  CHECK(converted.failure.row == 1);
  return converted.failure.message;
}

std::string Hex(const parquet::ByteArray& bytes) {
  static const char kHex[] = "0123456789abcdef";
  std::string text;
  for (uint32_t i = 0; i < bytes.len; ++i) {
    text += kHex[bytes.ptr[i] >> 4];
    text += kHex[bytes.ptr[i] & 15];
  }
  return text;
}

std::string Text(const parquet::ByteArray& bytes) { return std::string(bytes.view()); }

}  // namespace

TEST_CASE("copy values: the value buffer keeps classes, values and bytes in order") {
  ValueColumn column;
  column.AppendInteger(-5);
  column.AppendNull();
  column.AppendReal(2.5);
  column.AppendText("hello", 5);
  column.AppendBlob("\x00\x01", 2);
  column.AppendText("", 0);
  std::string big(100000, 'x');
  column.AppendBlob(big.data(), big.size());  // larger than an arena block
  CHECK(column.size() == 7);
  CHECK(column.seen() == (kSeenInteger | kSeenReal | kSeenText | kSeenBlob));
  CHECK(column.memory_bytes() >= 100000);

  ValueColumn::Reader reader(column);
  SqlValue v = reader.Next();
  CHECK((v.type == SqlValue::Type::kInteger && v.integer == -5));
  CHECK(reader.Next().type == SqlValue::Type::kNull);
  v = reader.Next();
  CHECK((v.type == SqlValue::Type::kReal && v.real == 2.5));
  v = reader.Next();
  CHECK((v.type == SqlValue::Type::kText && v.bytes == "hello"));
  v = reader.Next();
  CHECK((v.type == SqlValue::Type::kBlob && v.bytes == std::string_view("\x00\x01", 2)));
  v = reader.Next();
  CHECK((v.type == SqlValue::Type::kText && v.bytes.empty()));
  v = reader.Next();
  CHECK((v.type == SqlValue::Type::kBlob && v.bytes == big));

  column.Clear();
  CHECK(column.size() == 0);
  CHECK(column.seen() == 0);
  column.AppendText("again", 5);
  ValueColumn::Reader again(column);
  CHECK(again.Next().bytes == "again");
}

TEST_CASE("copy values: integers") {
  CHECK(One("INT8", "i:-128").int32s == std::vector<int32_t>{-128});
  CHECK(One("INT16", "r:32767.0").int32s == std::vector<int32_t>{32767});
  CHECK(One("INT32", "i:-2147483648").int32s == std::vector<int32_t>{INT32_MIN});
  CHECK(One("INT64", "i:-9223372036854775808").int64s == std::vector<int64_t>{INT64_MIN});
  CHECK(One("UINT8", "i:255").int32s == std::vector<int32_t>{255});
  CHECK(One("UINT16", "i:65535").int32s == std::vector<int32_t>{65535});
  CHECK(One("UINT32", "i:4294967295").int32s == std::vector<int32_t>{-1});  // stored as its bit pattern
  CHECK(One("UINT64", "i:9223372036854775807").int64s == std::vector<int64_t>{INT64_MAX});
  CHECK(One("UINT64", "r:18446744073709549568").int64s == std::vector<int64_t>{static_cast<int64_t>(18446744073709549568ULL)});

  CHECK(Failure("INT8", "i:128") == "cannot convert INTEGER 128 to INT8");
  CHECK(Failure("INT16", "i:-32769") == "cannot convert INTEGER -32769 to INT16");
  CHECK(Failure("INT32", "r:1.5") == "cannot convert REAL 1.5 to INT32");
  CHECK(Failure("INT64", "r:9.3e18") == "cannot convert REAL 9.3e+18 to INT64");
  CHECK(Failure("INT64", "t:12") == "cannot convert TEXT '12' to INT64");
  CHECK(Failure("INT64", "b:01") == "cannot convert BLOB X'01' to INT64");
  CHECK(Failure("UINT8", "i:-1") == "cannot convert INTEGER -1 to UINT8");
  CHECK(Failure("UINT32", "i:4294967296") == "cannot convert INTEGER 4294967296 to UINT32");
  CHECK(One("UINT64", "r:18446744073709551616").int64s == std::vector<int64_t>{-1});  // UINT64_MAX
  CHECK(Failure("UINT64", "r:36893488147419103232") == "cannot convert REAL 36893488147419103232.0 to UINT64");
  CHECK(Failure("UINT64", "r:-1") == "cannot convert REAL -1.0 to UINT64");
}

TEST_CASE("copy values: booleans and floating point") {
  const LeafData& b = One("BOOLEAN", "i:1");
  REQUIRE(b.num_bools() == 1);
  CHECK(b.bools()[0]);
  CHECK_FALSE(One("BOOLEAN", "r:0").bools()[0]);
  CHECK(Failure("BOOLEAN", "i:2") == "cannot convert INTEGER 2 to BOOLEAN");
  CHECK(Failure("BOOLEAN", "t:true") == "cannot convert TEXT 'true' to BOOLEAN");

  CHECK(One("DOUBLE", "i:3").doubles == std::vector<double>{3.0});
  CHECK(One("DOUBLE", "r:-0.1").doubles == std::vector<double>{-0.1});
  CHECK(One("FLOAT", "r:0.1").floats == std::vector<float>{0.1f});
  CHECK(One("FLOAT", "r:inf").floats[0] == INFINITY);
  CHECK(Failure("FLOAT", "r:1e39") == "cannot convert REAL 1.0e+39 to FLOAT");
  CHECK(Failure("DOUBLE", "t:1.5") == "cannot convert TEXT '1.5' to DOUBLE");

  const LeafData& half = One("FLOAT16", "r:1.5");
  REQUIRE(half.byte_arrays.size() == 1);
  CHECK(Hex(half.byte_arrays[0]) == "003e");  // 0x3E00 little-endian
  CHECK(Hex(One("FLOAT16", "r:65504").byte_arrays[0]) == "ff7b");
  CHECK(Failure("FLOAT16", "r:65520") == "cannot convert REAL 65520.0 to FLOAT16");
}

TEST_CASE("copy values: strings and bytes") {
  CHECK(Text(One("STRING", "t:héllo").byte_arrays[0]) == "héllo");
  CHECK(Text(One("STRING", "i:-42").byte_arrays[0]) == "-42");
  CHECK(Text(One("STRING", "r:2").byte_arrays[0]) == "2.0");
  CHECK(Text(One("STRING", "r:0.1").byte_arrays[0]) == "0.1");
  CHECK(Text(One("JSON", "t:{\"a\":1}").byte_arrays[0]) == "{\"a\":1}");
  CHECK(Text(One("ENUM", "b:6869").byte_arrays[0]) == "hi");  // valid UTF-8 bytes
  CHECK(Failure("STRING", "b:ff") == "cannot convert BLOB X'FF' to STRING");
  CHECK(Failure("STRING", "b:c0af") == "cannot convert BLOB X'C0AF' to STRING");  // overlong '/'

  CHECK(Hex(One("BINARY", "b:00ff").byte_arrays[0]) == "00ff");
  CHECK(Text(One("BINARY", "t:abc").byte_arrays[0]) == "abc");
  CHECK(Text(One("BINARY", "i:7").byte_arrays[0]) == "7");
  CHECK(One("BINARY", "b:").byte_arrays[0].len == 0);

  CHECK(Text(One("FIXED(3)", "t:abc").byte_arrays[0]) == "abc");
  CHECK(Failure("FIXED(3)", "t:ab") == "cannot convert TEXT 'ab' to FIXED(3)");

  CHECK(Hex(One("UUID", "t:123E4567-e89b-12d3-a456-426614174000").byte_arrays[0]) == "123e4567e89b12d3a456426614174000");
  CHECK(Hex(One("UUID", "t:123e4567e89b12d3a456426614174000").byte_arrays[0]) == "123e4567e89b12d3a456426614174000");
  CHECK(Hex(One("UUID", "b:00112233445566778899aabbccddeeff").byte_arrays[0]) == "00112233445566778899aabbccddeeff");
  CHECK(Failure("UUID", "t:123e4567-e89b-12d3-a456_426614174000") ==
        "cannot convert TEXT '123e4567-e89b-12d3-a456_426614174000' to UUID");
  CHECK(Failure("UUID", "t:123e4567-e89b-12d3-a456-42661417400g") ==
        "cannot convert TEXT '123e4567-e89b-12d3-a456-42661417400g' to UUID");
  CHECK(Failure("UUID", "b:0011") == "cannot convert BLOB X'0011' to UUID");
}

TEST_CASE("copy values: decimals") {
  CHECK(One("DECIMAL(5,2)", "t:-123.45").int32s == std::vector<int32_t>{-12345});
  CHECK(One("DECIMAL(5,2)", "i:999").int32s == std::vector<int32_t>{99900});
  CHECK(One("DECIMAL(5,2)", "r:0.1").int32s == std::vector<int32_t>{10});
  // REAL values are rounded to the scale (1.005 is just below 1.005 as a double).
  CHECK(One("DECIMAL(5,2)", "r:1.005").int32s == std::vector<int32_t>{100});
  CHECK(One("DECIMAL(5,2)", "r:2.675").int32s == std::vector<int32_t>{267});
  CHECK(One("DECIMAL(5,2)", "r:-2.5").int32s == std::vector<int32_t>{-250});
  CHECK(One("DECIMAL(18,0)", "t:-999999999999999999").int64s == std::vector<int64_t>{-999999999999999999});
  CHECK(One("DECIMAL(12,3)", "t:1.5e3").int64s == std::vector<int64_t>{1500000});

  CHECK(Failure("DECIMAL(5,2)", "t:1000") == "cannot convert TEXT '1000' to DECIMAL(5,2)");  // 6 digits
  CHECK(Failure("DECIMAL(5,2)", "t:1.234") == "cannot convert TEXT '1.234' to DECIMAL(5,2)");
  CHECK(Failure("DECIMAL(5,2)", "t:abc") == "cannot convert TEXT 'abc' to DECIMAL(5,2)");
  CHECK(Failure("DECIMAL(5,2)", "r:nan") == "cannot convert REAL NaN to DECIMAL(5,2)");
  CHECK(Failure("DECIMAL(5,2)", "b:01") == "cannot convert BLOB X'01' to DECIMAL(5,2)");
  CHECK(Failure("DECIMAL(18,0)", "t:1000000000000000000") == "cannot convert TEXT '1000000000000000000' to DECIMAL(18,0)");

  // FIXED storage: big-endian two's complement of DecimalByteWidth(p) bytes, precision checked.
  const LeafData& wide = One("DECIMAL(20,2)", "t:-1.00");
  REQUIRE(wide.byte_arrays.size() == 1);
  CHECK(Hex(wide.byte_arrays[0]) == "ffffffffffffffff9c");
  CHECK(Hex(One("DECIMAL(20,0)", "t:99999999999999999999").byte_arrays[0]) == "056bc75e2d630fffff");
  CHECK(Hex(One("DECIMAL(20,0)", "t:-99999999999999999999").byte_arrays[0]) == "fa9438a1d29cf00001");
  CHECK(Failure("DECIMAL(20,0)", "t:100000000000000000000") == "cannot convert TEXT '100000000000000000000' to DECIMAL(20,0)");
  CHECK(Failure("DECIMAL(20,0)", "t:-100000000000000000000") == "cannot convert TEXT '-100000000000000000000' to DECIMAL(20,0)");
  CHECK(One("DECIMAL(76,0)", "t:" + std::string(76, '9')).byte_arrays[0].len == 32);
  CHECK(Failure("DECIMAL(76,0)", "t:1" + std::string(76, '0')) == "cannot convert TEXT '1" + std::string(59, '0') + "'... to DECIMAL(76,0)");
}

TEST_CASE("copy values: dates, times and timestamps") {
  CHECK(One("DATE", "t:1970-01-02").int32s == std::vector<int32_t>{1});
  CHECK(One("DATE", "t:1969-12-31 00:00:00").int32s == std::vector<int32_t>{-1});
  CHECK(One("DATE", "i:172800").int32s == std::vector<int32_t>{2});
  CHECK(One("DATE", "r:2440588.5").int32s == std::vector<int32_t>{1});
  CHECK(Failure("DATE", "t:2023-02-29") == "cannot convert TEXT '2023-02-29' to DATE");
  CHECK(Failure("DATE", "t:2024-01-01 12:00:00") == "cannot convert TEXT '2024-01-01 12:00:00' to DATE");
  CHECK(Failure("DATE", "i:100") == "cannot convert INTEGER 100 to DATE");
  CHECK(Failure("DATE", "r:2440588.0") == "cannot convert REAL 2440588.0 to DATE");

  CHECK(One("TIME(MILLIS)", "t:01:02:03.004").int32s == std::vector<int32_t>{3723004});
  CHECK(One("TIME(MICROS)", "i:86399").int64s == std::vector<int64_t>{86399000000});
  CHECK(One("TIME(NANOS)", "r:1.5").int64s == std::vector<int64_t>{1500000000});
  CHECK(Failure("TIME(MILLIS)", "t:24:00:00") == "cannot convert TEXT '24:00:00' to TIME(MILLIS)");
  CHECK(Failure("TIME(MILLIS)", "t:00:00:00.0001") == "cannot convert TEXT '00:00:00.0001' to TIME(MILLIS)");
  CHECK(Failure("TIME(MICROS)", "i:86400") == "cannot convert INTEGER 86400 to TIME(MICROS)");

  CHECK(One("TIMESTAMP(MILLIS)", "t:1970-01-01 00:00:01.5").int64s == std::vector<int64_t>{1500});
  CHECK(One("TIMESTAMP(MICROS)", "t:1970-01-01T01:00:00+01:00").int64s == std::vector<int64_t>{0});
  CHECK(One("TIMESTAMP(NANOS)", "i:-1").int64s == std::vector<int64_t>{-1000000000});
  CHECK(One("TIMESTAMP(MILLIS)", "r:2440587.5").int64s == std::vector<int64_t>{0});
  CHECK(One("TIMESTAMP(MICROS)", "r:2460000.25").int64s == std::vector<int64_t>{1677261600000000});
  CHECK(Failure("TIMESTAMP(NANOS)", "i:9300000000") == "cannot convert INTEGER 9300000000 to TIMESTAMP(NANOS)");
  CHECK(Failure("TIMESTAMP(MICROS)", "t:yesterday") == "cannot convert TEXT 'yesterday' to TIMESTAMP(MICROS)");
  CHECK(Failure("TIMESTAMP(MICROS)", "r:-1") == "cannot convert REAL -1.0 to TIMESTAMP(MICROS)");
}

TEST_CASE("copy values: NULLs and on_type_error=null") {
  Converted converted = Convert("INT32", {"i:1", "n", "t:x", "i:4"}, true);
  REQUIRE(converted.ok);
  CHECK(converted.leaves[0].def_levels() == std::vector<int16_t>{1, 0, 0, 1});
  CHECK(converted.leaves[0].int32s == std::vector<int32_t>{1, 4});

  converted = Convert("INT32", {"i:1", "n", "t:x", "i:4"});
  CHECK_FALSE(converted.ok);
  CHECK(converted.failure.row == 2);
}

TEST_CASE("copy values: text forms of values") {
  char buffer[32];
  auto real = [&](double value) { return std::string(buffer, FormatReal(value, buffer)); };
  CHECK(real(1) == "1.0");
  CHECK(real(0.1) == "0.1");
  CHECK(real(-2.5) == "-2.5");
  CHECK(real(1e20) == "1.0e+20");
  CHECK(real(1.5e-7) == "1.5e-07");
  CHECK(real(INFINITY) == "Inf");
  CHECK(real(-INFINITY) == "-Inf");

  SqlValue text = SqlValue::Text("it's");
  CHECK(QuoteValue(text) == "'it''s'");
  std::string accents;
  for (int i = 0; i < 40; ++i) accents += "é";  // 80 bytes: cut at 60, a character boundary
  text.bytes = accents;
  CHECK(QuoteValue(text) == "'" + accents.substr(0, 60) + "'...");
  accents = "x" + accents;  // now byte 60 is inside a character: cut before it
  text.bytes = accents;
  CHECK(QuoteValue(text) == "'" + accents.substr(0, 59) + "'...");
  std::string bytes(40, '\xab');
  const SqlValue blob = SqlValue::Blob(bytes);
  std::string hex;
  for (int i = 0; i < 32; ++i) hex += "AB";
  CHECK(QuoteValue(blob) == "X'" + hex + "'...");

}

// ---- Nested values from JSON --------------------------------------------------------------

TEST_CASE("copy values: LIST levels") {
  Converted c = Convert("LIST<INT64>", {"t:[1, 2]", "t:[]", "n", "t:[null, 3]", "t:null", "t:[4.0]"});
  REQUIRE_MESSAGE(c.ok, c.failure.message);
  REQUIRE(c.leaves.size() == 1);
  const LeafData& leaf = c.leaves[0];
  CHECK(leaf.max_definition_level == 3);
  CHECK(leaf.max_repetition_level == 1);
  CHECK(leaf.def_levels() == std::vector<int16_t>{3, 3, 1, 0, 2, 3, 0, 3});
  CHECK(leaf.rep_levels == std::vector<int16_t>{0, 1, 0, 0, 0, 1, 0, 0});
  CHECK(leaf.int64s == std::vector<int64_t>{1, 2, 3, 4});
}

TEST_CASE("copy values: nested LIST levels") {
  Converted c = Convert("LIST<LIST<STRING>>", {"t:[[\"a\", \"b\"], [], null, [\"c\"]]", "t:[[]]"});
  REQUIRE_MESSAGE(c.ok, c.failure.message);
  const LeafData& leaf = c.leaves[0];
  CHECK(leaf.max_definition_level == 5);
  CHECK(leaf.max_repetition_level == 2);
  CHECK(leaf.def_levels() == std::vector<int16_t>{5, 5, 3, 2, 5, 3});
  CHECK(leaf.rep_levels == std::vector<int16_t>{0, 2, 1, 1, 1, 0});
  REQUIRE(leaf.byte_arrays.size() == 3);
  CHECK(Text(leaf.byte_arrays[2]) == "c");
}

TEST_CASE("copy values: MAP levels, keys converted to the key type") {
  Converted c = Convert("MAP<INT32, STRING>", {"t:{\"1\": \"one\", \"2\": null}", "t:{}", "n"});
  REQUIRE_MESSAGE(c.ok, c.failure.message);
  REQUIRE(c.leaves.size() == 2);
  const LeafData& keys = c.leaves[0];
  const LeafData& values = c.leaves[1];
  CHECK(keys.max_definition_level == 2);
  CHECK(values.max_definition_level == 3);
  CHECK(keys.def_levels() == std::vector<int16_t>{2, 2, 1, 0});
  CHECK(keys.rep_levels == std::vector<int16_t>{0, 1, 0, 0});
  CHECK(keys.int32s == std::vector<int32_t>{1, 2});
  CHECK(values.def_levels() == std::vector<int16_t>{3, 2, 1, 0});
  CHECK(values.rep_levels == std::vector<int16_t>{0, 1, 0, 0});
  REQUIRE(values.byte_arrays.size() == 1);
  CHECK(Text(values.byte_arrays[0]) == "one");

  Converted bad = Convert("MAP<INT32, STRING>", {"t:{\"x\": \"one\"}"});
  CHECK_FALSE(bad.ok);
  CHECK(bad.failure.message == "cannot convert TEXT '{\"x\": \"one\"}' to MAP<INT32, STRING>: [\"x\"]: key \"x\" is not a valid INT32");
}

TEST_CASE("copy values: MAP from an array of key/value pairs") {
  Converted c = Convert("MAP<INT32, BOOLEAN>", {"t:[{\"key\": 1, \"value\": true}, {\"value\": null, \"key\": 2}, {\"key\": 3}]", "t:[]"});
  REQUIRE_MESSAGE(c.ok, c.failure.message);
  CHECK(c.leaves[0].def_levels() == std::vector<int16_t>{2, 2, 2, 1});
  CHECK(c.leaves[0].rep_levels == std::vector<int16_t>{0, 1, 1, 0});
  CHECK(c.leaves[0].int32s == std::vector<int32_t>{1, 2, 3});
  CHECK(c.leaves[1].def_levels() == std::vector<int16_t>{3, 2, 2, 1});
  REQUIRE(c.leaves[1].num_bools() == 1);

  auto failure = [](const std::string& json) {
    Converted bad = Convert("MAP<INT32, BOOLEAN>", {"t:" + json});
    CHECK_FALSE(bad.ok);
    const std::string prefix = " to MAP<INT32, BOOLEAN>: ";
    return bad.failure.message.substr(bad.failure.message.find(prefix) + prefix.size());
  };
  CHECK(failure("[{\"value\": true}]") == "[0]: a map entry needs a \"key\"");
  CHECK(failure("[{\"key\": null}]") == "[0].key: a map key cannot be null");
  CHECK(failure("[{\"key\": 1, \"extra\": 2}]") == "[0]: unexpected member \"extra\" in a map entry");
  CHECK(failure("[1]") == "[0]: expected a {\"key\": ..., \"value\": ...} object");
  CHECK(failure("[{\"key\": \"one\"}]") == "[0].key: \"one\" is not a valid INT32");
  CHECK(failure("7") == "expected a JSON object or an array of {\"key\": ..., \"value\": ...} objects");
}

TEST_CASE("copy values: STRUCT levels and field matching") {
  Converted c = Convert("STRUCT<a INT32, b LIST<STRING>, c STRUCT<d BOOLEAN>>",
                        {"t:{\"a\": 1, \"b\": [\"x\"], \"c\": {\"d\": true}}", "t:{\"B\": [], \"A\": 2}", "n", "t:{}"});
  REQUIRE_MESSAGE(c.ok, c.failure.message);
  REQUIRE(c.leaves.size() == 3);
  const LeafData& a = c.leaves[0];
  const LeafData& b = c.leaves[1];
  const LeafData& d = c.leaves[2];
  CHECK(a.def_levels() == std::vector<int16_t>{2, 2, 0, 1});
  CHECK(a.int32s == std::vector<int32_t>{1, 2});
  CHECK(b.max_definition_level == 4);
  CHECK(b.def_levels() == std::vector<int16_t>{4, 2, 0, 1});
  CHECK(b.rep_levels == std::vector<int16_t>{0, 0, 0, 0});
  CHECK(d.max_definition_level == 3);
  CHECK(d.def_levels() == std::vector<int16_t>{3, 1, 0, 1});
  REQUIRE(d.num_bools() == 1);
  CHECK(d.bools()[0]);

  Converted unknown = Convert("STRUCT<a INT32>", {"t:{\"a\": 1, \"z\": 2}"});
  CHECK_FALSE(unknown.ok);
  CHECK(unknown.failure.message == "cannot convert TEXT '{\"a\": 1, \"z\": 2}' to STRUCT<a INT32>: no field named \"z\" in STRUCT<a INT32>");
}

TEST_CASE("copy values: JSON scalars in leaves") {
  // Strings keep their escapes resolved; numbers and nested JSON become text in STRING leaves;
  // JSON leaves hold the element's JSON text.
  Converted c = Convert("LIST<STRING>", {"t:[\"a\\n\\u00e9\\ud83d\\ude00\", 12.50, [1, {\"k\": 2}], true]"});
  REQUIRE_MESSAGE(c.ok, c.failure.message);
  REQUIRE(c.leaves[0].byte_arrays.size() == 4);
  CHECK(Text(c.leaves[0].byte_arrays[0]) == "a\n\xc3\xa9\xf0\x9f\x98\x80");
  CHECK(Text(c.leaves[0].byte_arrays[1]) == "12.50");
  CHECK(Text(c.leaves[0].byte_arrays[2]) == "[1, {\"k\": 2}]");
  CHECK(Text(c.leaves[0].byte_arrays[3]) == "true");

  c = Convert("LIST<JSON>", {"t:[\"s\", 1, {\"a\": [true]}, false]"});
  REQUIRE_MESSAGE(c.ok, c.failure.message);
  REQUIRE(c.leaves[0].byte_arrays.size() == 4);
  CHECK(Text(c.leaves[0].byte_arrays[0]) == "\"s\"");
  CHECK(Text(c.leaves[0].byte_arrays[1]) == "1");
  CHECK(Text(c.leaves[0].byte_arrays[2]) == "{\"a\": [true]}");
  CHECK(Text(c.leaves[0].byte_arrays[3]) == "false");

  c = Convert("LIST<DOUBLE>", {"t:[1, -2.5e-3, 1E2]"});
  REQUIRE_MESSAGE(c.ok, c.failure.message);
  CHECK(c.leaves[0].doubles == std::vector<double>{1.0, -0.0025, 100.0});

  c = Convert("LIST<DATE>", {"t:[\"2024-01-01\"]"});
  REQUIRE_MESSAGE(c.ok, c.failure.message);
  CHECK(c.leaves[0].int32s == std::vector<int32_t>{19723});
}

TEST_CASE("copy values: malformed or mismatched JSON") {
  auto failure = [](const std::string& type, const std::string& json) {
    Converted c = Convert(type, {"t:" + json});
    CHECK_FALSE(c.ok);
    return c.failure.message;
  };
  CHECK(failure("LIST<INT32>", "[1,") == "cannot convert TEXT '[1,' to LIST<INT32>: malformed JSON (unexpected end at offset 3)");
  CHECK(failure("LIST<INT32>", "[1 2]") == "cannot convert TEXT '[1 2]' to LIST<INT32>: malformed JSON (expected ',' or ']' at offset 3)");
  CHECK(failure("LIST<INT32>", "[01]") == "cannot convert TEXT '[01]' to LIST<INT32>: malformed JSON (bad number at offset 3)");
  CHECK(failure("LIST<INT32>", "[1] x") == "cannot convert TEXT '[1] x' to LIST<INT32>: malformed JSON (unexpected text after the JSON value at offset 4)");
  CHECK(failure("LIST<INT32>", "{\"a\":1}") == "cannot convert TEXT '{\"a\":1}' to LIST<INT32>: expected a JSON array");
  CHECK(failure("LIST<INT32>", "[1, \"x\"]") == "cannot convert TEXT '[1, \"x\"]' to LIST<INT32>: [1]: \"x\" is not a valid INT32");
  CHECK(failure("LIST<INT8>", "[1, 300]") == "cannot convert TEXT '[1, 300]' to LIST<INT8>: [1]: 300 is not a valid INT8");
  CHECK(failure("STRUCT<a LIST<INT32>>", "{\"a\": [[1]]}") ==
        "cannot convert TEXT '{\"a\": [[1]]}' to STRUCT<a LIST<INT32>>: a[0]: [1] is not a valid INT32");
  CHECK(failure("MAP<STRING, INT32>", "\"x\"") ==
        "cannot convert TEXT '\"x\"' to MAP<STRING, INT32>: expected a JSON object or an array of {\"key\": ..., \"value\": ...} objects");
  std::string deep(70, '[');
  deep += std::string(70, ']');
  CHECK(failure("LIST<INT32>", deep).find("nested too deeply") != std::string::npos);

  Converted number = Convert("LIST<INT32>", {"i:5"});
  CHECK_FALSE(number.ok);
  CHECK(number.failure.message == "cannot convert INTEGER 5 to LIST<INT32>: expected JSON text");
}

TEST_CASE("copy values: on_type_error=null undoes a partly written nested row") {
  Converted c = Convert("STRUCT<a INT32, b LIST<INT32>>", {"t:{\"a\": 1, \"b\": [1]}", "t:{\"a\": 2, \"b\": [2, \"x\"]}", "t:{\"a\": 3}"}, true);
  REQUIRE_MESSAGE(c.ok, c.failure.message);
  CHECK(c.leaves[0].def_levels() == std::vector<int16_t>{2, 0, 2});
  CHECK(c.leaves[0].int32s == std::vector<int32_t>{1, 3});
  CHECK(c.leaves[1].def_levels() == std::vector<int16_t>{4, 0, 1});
  CHECK(c.leaves[1].rep_levels == std::vector<int16_t>{0, 0, 0});
  CHECK(c.leaves[1].int32s == std::vector<int32_t>{1});
}

TEST_CASE("copy values: the byte arena keeps addresses stable and reuses its blocks after Clear") {
  ByteArena arena;
  for (int round = 0; round < 3; ++round) {
    CAPTURE(round);
    std::vector<std::pair<const uint8_t*, std::string>> stored;
    // Small values over many 64 KiB blocks, and values larger than a block in between.
    for (int i = 0; i < 5000; ++i) {
      std::string value(static_cast<size_t>(i % 97) + (i % 1000 == 999 ? 70000 : 0), static_cast<char>('a' + (i + round) % 26));
      stored.emplace_back(arena.Append(value.data(), value.size()), value);
    }
    size_t total = 0;
    for (const auto& [pointer, value] : stored) {
      CHECK(std::memcmp(pointer, value.data(), value.size()) == 0);
      total += value.size();
    }
    CHECK(arena.bytes_used() == total);
    arena.Clear();
    CHECK(arena.bytes_used() == 0);
  }
}

TEST_CASE("copy values: the byte arena copies every size exactly (the inline short copies included)") {
  ByteArena arena;
  std::vector<std::pair<const uint8_t*, std::vector<uint8_t>>> stored;
  for (size_t size = 0; size <= 80; ++size) {
    std::vector<uint8_t> value(size);
    for (size_t i = 0; i < size; ++i) value[i] = static_cast<uint8_t>(size * 31 + i * 7 + 1);
    stored.emplace_back(arena.Append(value.data(), value.size()), value);
  }
  // Checked after every append: a copy that wrote past its value would show in its neighbour.
  for (const auto& entry : stored) {  // no structured binding: CAPTURE's lambda (clang 14)
    const std::vector<uint8_t>& value = entry.second;
    CAPTURE(value.size());
    if (!value.empty()) CHECK(std::memcmp(entry.first, value.data(), value.size()) == 0);
  }
}

TEST_CASE("copy values: counted definition levels come before later levels and on every read of them") {
  LeafData leaf;
  for (int i = 0; i < 3; i++) leaf.CountDefined();
  leaf.AppendLevel(0);
  leaf.CountDefined();
  leaf.CountDefined();
  const LeafData& same = leaf;
  CHECK(same.def_levels() == std::vector<int16_t>{1, 1, 1, 0, 1, 1});  // the const read sees them too
  CHECK(leaf.def_levels().size() == 6);  // appended once
  leaf.CountDefined();
  leaf.def_levels().push_back(2);
  CHECK(leaf.def_levels() == std::vector<int16_t>{1, 1, 1, 0, 1, 1, 1, 2});
  for (int i = 0; i < 4; i++) leaf.CountDefined();
  leaf.Clear();  // drops counted levels too
  CHECK(leaf.def_levels().empty());
  leaf.CountDefined();
  CHECK(leaf.def_levels() == std::vector<int16_t>{1});
}

TEST_CASE("copy values: the DATE parse cache gives what ParseDate gives, hit or miss") {
  DateParseCache cache;
  // Valid and invalid texts of ten bytes (the cached form), others, and an embedded NUL.
  std::vector<std::string> texts = {"1995-03-14", "1970-01-01", "0000-01-01", "9999-12-31", "1996-02-29",
                                    "1995-02-29", "1995-13-01", "1995-1-014", "abcdefghij", "1995-03-14 ",
                                    "1995-03-14T00:00:00", "", "-0001-01-01", std::string("1995-03\0" "14", 10)};
  for (int day = 0; day < 10000; day += 7) {  // more distinct texts than the cache has entries
    char text[11];
    const int year = 1900 + day / 365, month = 1 + day % 12, dom = 1 + day % 28;
    std::snprintf(text, sizeof text, "%04d-%02d-%02d", year, month, dom);
    texts.emplace_back(text, 10);
  }
  for (int pass = 0; pass < 3; pass++) {  // the second and third passes hit the entries kept
    for (const std::string& text : texts) {
      int32_t expected = -1, got = -2;
      const bool expected_ok = parquet::ParseDate(text, &expected);
      CHECK(cache.Parse(text, &got) == expected_ok);
      if (expected_ok) CHECK(got == expected);
    }
  }
}

// Tests of the Variant binary decoder (format/values/variant.h): every example of
// parquet-testing/variant against the JSON of its data_dictionary.json entry (in our text
// forms for timestamps, decimals and floats), and rejection of malformed buffers.
#include <doctest/doctest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "format/common/error.h"
#include "format/values/variant.h"

namespace {

const std::string kVariantDir = "../shared/parquet-testing/variant/";

std::vector<uint8_t> ReadBytes(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  REQUIRE_MESSAGE(file.good(), "cannot open ", path);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

std::string DecodeExample(const std::string& name) {
  const auto metadata = ReadBytes(kVariantDir + name + ".metadata");
  const auto value = ReadBytes(kVariantDir + name + ".value");
  return parquet::VariantToJson(metadata.data(), metadata.size(), value.data(), value.size());
}

std::string Decode(const std::vector<uint8_t>& metadata, const std::vector<uint8_t>& value) {
  return parquet::VariantToJson(metadata.data(), metadata.size(), value.data(), value.size());
}

// Metadata with an empty dictionary.
const std::vector<uint8_t> kEmptyMetadata = {0x01, 0x00, 0x00};

struct Example {
  const char* name;
  const char* json;
};

// data_dictionary.json's values. Where our documented text forms differ from that file's
// the comment gives the file's form: timestamps are written in UTC as
// "YYYY-MM-DD HH:MM:SS[.fraction]", time as "HH:MM:SS.fraction", decimals with exactly
// `scale` fraction digits, floats with the digits of the float's exact value.
const Example kExamples[] = {
    {"array_empty", "[]"},
    {"array_nested",
     R"([{"id":1,"thing":{"names":["Contrarian","Spider"]}},null,{"id":2,"names":["Apple","Ray",null],"type":"if"}])"},
    {"array_primitive", "[2,1,5,9]"},
    {"object_empty", "{}"},
    {"object_nested",
     R"({"id":1,"observation":{"location":"In the Volcano","time":"12:34:56","value":{"humidity":456,"temperature":123}},"species":{"name":"lava monster","population":6789}})"},
    {"object_primitive",
     R"({"boolean_false_field":false,"boolean_true_field":true,"double_field":1.23456789,"int_field":1,"null_field":null,"string_field":"Apache Parquet","timestamp_field":"2025-04-16T12:34:56.78"})"},
    {"primitive_binary", R"("AxM33q2+78r+")"},
    {"primitive_boolean_false", "false"},
    {"primitive_boolean_true", "true"},
    {"primitive_date", R"("2025-04-16")"},
    {"primitive_decimal16", "12345678912345678.90"},  // file: 1.2345678912345678e+16
    {"primitive_decimal4", "12.34"},
    {"primitive_decimal8", "12345678.90"},  // file: 12345678.9
    {"primitive_double", "1234567890.1234"},
    {"primitive_float", "1234568000.0"},  // file: 1234567940.0 (the shortest float digits)
    {"primitive_int16", "1234"},
    {"primitive_int32", "123456"},
    {"primitive_int64", "1234567890123456789"},
    {"primitive_int8", "42"},
    {"primitive_null", "null"},
    {"primitive_string",
     "\"This string is longer than 64 bytes and therefore does not fit in a short_string and it also "
     "includes several non ascii characters such as \xF0\x9F\x90\xA2, \xF0\x9F\x92\x96, "
     "\xE2\x99\xA5\xEF\xB8\x8F, \xF0\x9F\x8E\xA3 and \xF0\x9F\xA4\xA6!!\""},
    {"primitive_time", R"("12:33:54.123456")"},                  // file: "12:33:54:123456"
    {"primitive_timestamp", R"("2025-04-16 16:34:56.78")"},      // file: "2025-04-16 12:34:56.78-04:00"
    {"primitive_timestampntz", R"("2025-04-16 12:34:56.78")"},
    {"primitive_timestamp_nanos", R"("2024-11-07 12:33:54.123456789")"},    // file: ...T...+00:00
    {"primitive_timestampntz_nanos", R"("2024-11-07 12:33:54.123456789")"}, // file: ...T...
    {"primitive_uuid", R"("f24f9b64-81fa-49d1-b74e-8c09a6e31c56")"},
    {"short_string", "\"Less than 64 bytes (\xE2\x9D\xA4\xEF\xB8\x8F with utf8)\""},
};

}  // namespace

TEST_CASE("variant: every example of parquet-testing/variant") {
  for (const Example& example : kExamples) {
    CAPTURE(example.name);
    CHECK(DecodeExample(example.name) == example.json);
  }
}

TEST_CASE("variant: truncated copies of every example fail cleanly") {
  for (const Example& example : kExamples) {
    CAPTURE(example.name);
    const auto metadata = ReadBytes(kVariantDir + std::string(example.name) + ".metadata");
    const auto value = ReadBytes(kVariantDir + std::string(example.name) + ".value");
    for (size_t cut = 0; cut < value.size(); ++cut) {
      const std::vector<uint8_t> truncated(value.begin(), value.begin() + static_cast<long>(cut));
      // A cut may leave a shorter valid value only for containers (whose last element
      // ends at the end of the buffer); anything else must throw ParquetError.
      try {
        const std::string json = Decode(metadata, truncated);
        CHECK(json != example.json);
      } catch (const parquet::ParquetError&) {
      }
    }
    CHECK_THROWS_AS(Decode({}, value), parquet::ParquetError);
  }
}

TEST_CASE("variant: primitives built by hand") {
  CHECK(Decode(kEmptyMetadata, {0x0C, 0xFF}) == "-1");                           // int8
  CHECK(Decode(kEmptyMetadata, {0x20, 0x02, 0xFB, 0xFF, 0xFF, 0xFF}) == "-0.05");  // decimal4 scale 2
  CHECK(Decode(kEmptyMetadata, {0x2C, 0x00, 0x00, 0x00, 0x00, 0x00}) == R"("1970-01-01")");
  CHECK(Decode(kEmptyMetadata, {0x3C, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}) == R"("")");  // binary
  CHECK(Decode(kEmptyMetadata, {0x3C, 0x01, 0x00, 0x00, 0x00, 0xFF}) == R"("/w==")");
  CHECK(Decode(kEmptyMetadata, {0x09, '"', '\n'}) == R"("\"\n")");  // short string with escapes
  CHECK(Decode(kEmptyMetadata, {0x38, 0x00, 0x00, 0xC0, 0x7F}) == "null");  // float NaN
}

TEST_CASE("variant: floating point in JavaScript's number form") {
  auto double_json = [](double value) {
    std::vector<uint8_t> bytes = {0x1C};  // primitive type 7, double
    uint64_t bits;
    std::memcpy(&bits, &value, 8);
    for (int b = 0; b < 8; ++b) bytes.push_back(static_cast<uint8_t>(bits >> (8 * b)));
    return Decode(kEmptyMetadata, bytes);
  };
  auto float_json = [](float value) {
    std::vector<uint8_t> bytes = {0x38};  // primitive type 14, float
    uint32_t bits;
    std::memcpy(&bits, &value, 4);
    for (int b = 0; b < 4; ++b) bytes.push_back(static_cast<uint8_t>(bits >> (8 * b)));
    return Decode(kEmptyMetadata, bytes);
  };
  CHECK(double_json(1e21) == "1e+21");
  CHECK(double_json(1e20) == "100000000000000000000.0");
  CHECK(double_json(1e-7) == "1e-7");
  CHECK(double_json(0.000001) == "0.000001");
  CHECK(double_json(-0.0) == "-0.0");
  CHECK(double_json(1.5) == "1.5");
  CHECK(double_json(-123.0) == "-123.0");
  CHECK(double_json(2.5e-300) == "2.5e-300");
  CHECK(float_json(1.1f) == "1.1");
  CHECK(float_json(10.11f) == "10.11");
}

TEST_CASE("variant: malformed buffers throw ParquetError") {
  // Metadata: wrong version, truncated dictionary.
  CHECK_THROWS_AS(Decode({0x02, 0x00, 0x00}, {0x00}), parquet::ParquetError);
  CHECK_THROWS_AS(Decode({0x01, 0x05, 0x00}, {0x00}), parquet::ParquetError);
  // Metadata whose string offsets run past the end.
  CHECK_THROWS_AS(Decode({0x01, 0x01, 0x00, 0x09, 'a'}, {0x02, 0x01, 0x00, 0x00, 0x01, 0x00}),
                  parquet::ParquetError);
  // Empty value, truncated int64, string longer than the buffer, unknown type id.
  CHECK_THROWS_AS(Decode(kEmptyMetadata, {}), parquet::ParquetError);
  CHECK_THROWS_AS(Decode(kEmptyMetadata, {0x18, 0x01, 0x02}), parquet::ParquetError);
  CHECK_THROWS_AS(Decode(kEmptyMetadata, {0x40, 0xFF, 0xFF, 0xFF, 0x7F, 'a'}), parquet::ParquetError);
  CHECK_THROWS_AS(Decode(kEmptyMetadata, {0x09, 'a'}), parquet::ParquetError);
  CHECK_THROWS_AS(Decode(kEmptyMetadata, {0xFC}), parquet::ParquetError);
  // Decimal with scale beyond 38.
  CHECK_THROWS_AS(Decode(kEmptyMetadata, {0x20, 0x40, 0x01, 0x00, 0x00, 0x00}), parquet::ParquetError);
  // Object with a field id outside the (empty) dictionary.
  CHECK_THROWS_AS(Decode(kEmptyMetadata, {0x02, 0x01, 0x00, 0x00, 0x01, 0x00}), parquet::ParquetError);
  // Array whose element offset points past its values.
  CHECK_THROWS_AS(Decode(kEmptyMetadata, {0x03, 0x01, 0x00, 0x09, 0x00}), parquet::ParquetError);
  // Array with a huge element count in a tiny buffer.
  CHECK_THROWS_AS(Decode(kEmptyMetadata, {0x07, 0xFF, 0xFF, 0xFF, 0xFF, 0x00}), parquet::ParquetError);
}

TEST_CASE("variant: nesting beyond the depth limit is an error, not a stack overflow") {
  // Arrays of one element, each the next array: header 0x03, count 1, offsets 0 and rest.
  auto nested = [](int depth) {
    std::vector<uint8_t> value = {0x00};  // innermost: null
    for (int i = 0; i < depth; ++i) {
      // 4-byte offsets (offset_size_minus_one 3), as 1-byte offsets stop at 255 bytes.
      std::vector<uint8_t> outer = {static_cast<uint8_t>(0x03 | (3 << 2)), 0x01, 0, 0, 0, 0};
      const auto size = static_cast<uint32_t>(value.size());
      for (int b = 0; b < 4; ++b) outer.push_back(static_cast<uint8_t>(size >> (8 * b)));
      outer.insert(outer.end(), value.begin(), value.end());
      value = std::move(outer);
    }
    return value;
  };
  CHECK(Decode(kEmptyMetadata, nested(3)) == "[[[null]]]");
  CHECK_NOTHROW(Decode(kEmptyMetadata, nested(parquet::kMaxVariantDepth)));
  CHECK_THROWS_AS(Decode(kEmptyMetadata, nested(parquet::kMaxVariantDepth + 1)), parquet::ParquetError);
}

TEST_CASE("variant: the fields of an object, for merging with shredded fields") {
  // Dictionary {"a", "c"}; object {"a": int8 9, "c": short string "x"}.
  const std::vector<uint8_t> metadata_bytes = {0x11, 0x02, 0x00, 0x01, 0x02, 'a', 'c'};
  const parquet::VariantMetadata metadata(metadata_bytes.data(), metadata_bytes.size());
  const std::vector<uint8_t> object = {0x02, 0x02, 0x00, 0x01, 0x00, 0x02, 0x04, 0x0C, 0x09, 0x05, 'x'};
  std::vector<parquet::VariantField> fields;
  REQUIRE(parquet::ReadVariantObjectFields(metadata, object.data(), object.size(), &fields));
  REQUIRE(fields.size() == 2);
  CHECK(fields[0].key == "a");
  CHECK(fields[1].key == "c");
  std::string json;
  parquet::AppendVariantJson(metadata, fields[1].value, fields[1].length, &json);
  CHECK(json == "\"x\"");
  // Not objects: a short string, an array, variant null.
  const std::vector<uint8_t> short_string = {0x05, 'x'};
  CHECK_FALSE(parquet::ReadVariantObjectFields(metadata, short_string.data(), short_string.size(), &fields));
  const std::vector<uint8_t> array = {0x03, 0x00, 0x00};
  CHECK_FALSE(parquet::ReadVariantObjectFields(metadata, array.data(), array.size(), &fields));
  CHECK(fields.size() == 2);  // left alone
  // A truncated object and an empty value throw.
  CHECK_THROWS_AS(parquet::ReadVariantObjectFields(metadata, object.data(), 4, &fields), parquet::ParquetError);
  CHECK_THROWS_AS(parquet::ReadVariantObjectFields(metadata, object.data(), 0, &fields), parquet::ParquetError);
}

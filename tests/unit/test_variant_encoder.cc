// Tests of the JSON to Variant encoder (format/values/variant_encoder.h): every JSON value
// decodes back (format/values/variant.h) to the same JSON in our text forms, with the
// smallest integer type, the sorted key dictionary, and wide offsets where they are needed.
#include <doctest/doctest.h>

#include <functional>
#include <string>

#include "format/values/variant.h"
#include "format/values/variant_encoder.h"

namespace {

std::string RoundTrip(const std::string& json, std::string* metadata = nullptr, std::string* value = nullptr) {
  std::string m, v, error;
  REQUIRE_MESSAGE(parquet::EncodeJsonAsVariant(json, &m, &v, &error), error);
  parquet::VariantMetadata decoded(reinterpret_cast<const uint8_t*>(m.data()), m.size());
  std::string out;
  parquet::AppendVariantJson(decoded, reinterpret_cast<const uint8_t*>(v.data()), v.size(), &out);
  if (metadata) *metadata = m;
  if (value) *value = v;
  return out;
}

}  // namespace

TEST_CASE("variant encoder: primitives") {
  std::string m, v;
  CHECK(RoundTrip("null") == "null");
  CHECK(RoundTrip("true") == "true");
  CHECK(RoundTrip("false") == "false");
  CHECK(RoundTrip("5", &m, &v) == "5");
  CHECK(v == std::string("\x0c\x05", 2));  // int8
  CHECK(RoundTrip("-300", &m, &v) == "-300");
  CHECK(v.size() == 3);  // int16
  CHECK(RoundTrip("70000", &m, &v) == "70000");
  CHECK(v.size() == 5);  // int32
  CHECK(RoundTrip("-9223372036854775808", &m, &v) == "-9223372036854775808");
  CHECK(v.size() == 9);  // int64
  CHECK(RoundTrip("1.5") == "1.5");
  CHECK(RoundTrip("1e300") == "1e+300");
  CHECK(RoundTrip("18446744073709551616") == "18446744073709551616");  // beyond int64: decimal16
  CHECK(RoundTrip("\"\"") == "\"\"");
  CHECK(RoundTrip("\"a\\\"b\\u00e9\"") == "\"a\\\"b\xc3\xa9\"");
  const std::string long_text(100, 'x');
  CHECK(RoundTrip("\"" + long_text + "\"", &m, &v) == "\"" + long_text + "\"");
  CHECK(v[0] == static_cast<char>(16 << 2));  // a long string primitive
}

TEST_CASE("variant encoder: exact decimals, doubles where a decimal cannot hold the number") {
  std::string m, v;
  CHECK(RoundTrip("1.50", &m, &v) == "1.50");  // decimal4, scale 2, unscaled 150
  CHECK(v == std::string("\x20\x02\x96\x00\x00\x00", 6));
  CHECK(RoundTrip("-0.001", &m, &v) == "-0.001");
  CHECK(v == std::string("\x20\x03\xff\xff\xff\xff", 6));
  CHECK(RoundTrip("12345678901.5", &m, &v) == "12345678901.5");  // 12 digits: decimal8
  CHECK(v[0] == static_cast<char>(9 << 2));
  CHECK(v.size() == 10);
  const std::string digits38 = "1234567890123456789012345678.9012345678";
  CHECK(RoundTrip(digits38, &m, &v) == digits38);  // decimal16, scale 10
  CHECK(v[0] == static_cast<char>(10 << 2));
  CHECK(v[1] == 10);
  CHECK(RoundTrip("-" + digits38) == "-" + digits38);
  CHECK(RoundTrip("0.000") == "0.000");
  // More than 38 digits, an exponent, a negative zero: double.
  CHECK(RoundTrip("12345678901234567890123456789.0123456789", &m, &v) == "1.2345678901234568e+28");
  CHECK(v[0] == static_cast<char>(7 << 2));
  CHECK(RoundTrip("2.5e3", &m, &v) == "2500.0");
  CHECK(v[0] == static_cast<char>(7 << 2));
  CHECK(RoundTrip("-0.0", &m, &v) == "-0.0");
  CHECK(v[0] == static_cast<char>(7 << 2));
  CHECK(RoundTrip("0." + std::string(39, '1'), &m, &v).rfind("0.111", 0) == 0);  // 39 fraction digits
  CHECK(v[0] == static_cast<char>(7 << 2));
}

TEST_CASE("variant encoder: objects and arrays") {
  std::string m, v;
  CHECK(RoundTrip("[]") == "[]");
  CHECK(RoundTrip("{}") == "{}");
  CHECK(RoundTrip("{\"b\":1,\"a\":[true,null,{\"b\":\"x\"}],\"c\":{}}", &m, &v) ==
        "{\"a\":[true,null,{\"b\":\"x\"}],\"b\":1,\"c\":{}}");
  CHECK(m == std::string("\x11\x03\x00\x01\x02\x03" "abc", 9));  // sorted dictionary a, b, c
  CHECK(RoundTrip("{\"k\":1,\"k\":2}") == "{\"k\":2}");  // the last of repeated keys
  // Many elements and keys: 4-byte counts, 2-byte ids and offsets.
  std::string big = "{", array = "[";
  for (int i = 0; i < 400; i++) {
    big += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":" + std::to_string(i * 1000);
    array += (i ? ",\"" : "\"") + std::string(50, static_cast<char>('a' + i % 26)) + "\"";
  }
  big += "}";
  array += "]";
  const std::string decoded = RoundTrip(big);
  CHECK(decoded.find("\"k399\":399000") != std::string::npos);
  CHECK(decoded.size() > 4000);
  CHECK(RoundTrip(array) == array);
}

TEST_CASE("variant encoder: invalid JSON is an error") {
  std::string m, v, error;
  CHECK(!parquet::EncodeJsonAsVariant("{\"a\":", &m, &v, &error));
  CHECK(!error.empty());
  CHECK(!parquet::EncodeJsonAsVariant("", &m, &v, &error));
}

// Issue 45, finding 5: repeated keys were found by searching every earlier member (300,000
// keys: 20 s); the last one still wins, nested objects keep their own members, and a long
// value asks the interrupt check as it goes.
TEST_CASE("variant encoder: repeated keys keep the last, in nested objects too") {
  CHECK(RoundTrip("{\"a\":1,\"b\":2,\"a\":3,\"b\":{\"a\":4,\"a\":5},\"c\":6}") == "{\"a\":3,\"b\":{\"a\":5},\"c\":6}");
  CHECK(RoundTrip("[{\"x\":1,\"x\":2},{\"x\":3},{\"y\":1,\"x\":4,\"y\":2}]") == "[{\"x\":2},{\"x\":3},{\"x\":4,\"y\":2}]");
  // An object's repeated key set before a nested object that repeats it too.
  CHECK(RoundTrip("{\"k\":{\"k\":1,\"k\":{\"k\":2,\"k\":3}},\"k\":{\"k\":4,\"k\":5}}") == "{\"k\":{\"k\":5}}");
  std::string json = "{";
  for (int i = 0; i < 20000; i++) json += (i ? ",\"k" : "\"k") + std::to_string(i % 100) + "\":" + std::to_string(i);
  json += "}";
  const std::string decoded = RoundTrip(json);
  CHECK(decoded.find("\"k0\":19900,") != std::string::npos);
  CHECK(decoded.find("\"k99\":19999}") != std::string::npos);
}

TEST_CASE("variant encoder: a long value asks the interrupt check and stops when it says yes") {
  std::string json = "{";
  for (int i = 0; i < 100000; i++) json += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":[1,2]";
  json += "}";
  std::string m, v, error;
  int asked = 0;
  const std::function<bool()> never = [&asked] {
    ++asked;
    return false;
  };
  bool interrupted = true;
  REQUIRE(parquet::EncodeJsonAsVariant(json, &m, &v, &error, &never, &interrupted));
  CHECK(!interrupted);
  // 300,001 values (an object, 100,000 arrays of two) parsed, their keys collected, then
  // encoded: asked every kVariantInterruptInterval in each pass (73 times).
  CHECK(asked >= 3 * 300000 / static_cast<int>(parquet::kVariantInterruptInterval) - 3);
  for (int stop_at : {1, 50, 100, 200}) {  // while parsing, collecting keys, encoding
    INFO(stop_at);
    int calls = 0;
    const std::function<bool()> stop = [&calls, stop_at] { return ++calls >= stop_at; };
    CHECK(!parquet::EncodeJsonAsVariant(json, &m, &v, &error, &stop, &interrupted));
    CHECK(interrupted);
    CHECK(error == "interrupted");
    CHECK(calls == stop_at);
  }
  // Without a check nothing is asked; a short value never asks.
  int short_calls = 0;
  const std::function<bool()> count = [&short_calls] { return ++short_calls > 0; };
  CHECK(parquet::EncodeJsonAsVariant("{\"a\":[1,2,3]}", &m, &v, &error, &count, &interrupted));
  CHECK(short_calls == 0);
}

// Tests of the JSON text building blocks (format/values/json_text.h): numbers in the shortest
// form that reads back as the same double / float / half, strings with their escapes,
// base64, and the RFC 8259 check and minifier of embedded JSON.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "format/values/json_text.h"
#include "format/values/text.h"

using namespace parquet;

TEST_CASE("json_text: numbers in the shortest form that reads back, JavaScript style") {
  auto d = [](double v) {
    std::string s;
    AppendJsonDouble(v, &s);
    return s;
  };
  CHECK(d(0.1) == "0.1");
  CHECK(d(1.0) == "1.0");
  CHECK(d(-2.5) == "-2.5");
  CHECK(d(0.0) == "0.0");
  CHECK(d(-0.0) == "-0.0");
  CHECK(d(123456789.0) == "123456789.0");
  CHECK(d(1e20) == "100000000000000000000.0");
  CHECK(d(1e21) == "1e+21");
  CHECK(d(1.5e300) == "1.5e+300");
  CHECK(d(0.000001) == "0.000001");
  CHECK(d(1e-7) == "1e-7");
  CHECK(d(1.2345e-7) == "1.2345e-7");
  CHECK(d(5e-324) == "5e-324");
  CHECK(d(1.7976931348623157e308) == "1.7976931348623157e+308");
  CHECK(d(0.1 + 0.2) == "0.30000000000000004");
  CHECK(d(std::nan("")) == "null");
  CHECK(d(std::numeric_limits<double>::infinity()) == "null");
  CHECK(d(-std::numeric_limits<double>::infinity()) == "null");
  auto f = [](float v) {
    std::string s;
    AppendJsonFloat(v, &s);
    return s;
  };
  CHECK(f(1.1f) == "1.1");
  CHECK(f(3.4028235e38f) == "3.4028235e+38");
  CHECK(f(1e-45f) == "1e-45");
  CHECK(f(16777216.0f) == "16777216.0");
  auto h = [](uint16_t bits) {
    std::string s;
    AppendJsonHalf(bits, &s);
    return s;
  };
  CHECK(h(0x3c00) == "1.0");
  CHECK(h(0xc000) == "-2.0");
  CHECK(h(0x7bff) == "65500.0");  // the largest half, 65504: 65500 reads back as it
  CHECK(h(0x3555) == "0.3333");
  CHECK(h(0x0001) == "6e-8");  // 2^-24 = 5.96e-8: one digit reads back as the same half
  CHECK(h(0x8000) == "-0.0");
  CHECK(h(0x7c00) == "null");
  CHECK(h(0x7e00) == "null");
}

TEST_CASE("json_text: strings with JSON escapes and bytes as base64") {
  auto s = [](std::string_view text) {
    std::string out;
    AppendJsonString(text, &out);
    return out;
  };
  CHECK(s("") == "\"\"");
  CHECK(s("plain") == "\"plain\"");
  CHECK(s("\"\\\b\f\n\r\t") == "\"\\\"\\\\\\b\\f\\n\\r\\t\"");
  CHECK(s(std::string_view("\x00\x1f\x7f", 3)) == "\"\\u0000\\u001f\x7f\"");
  CHECK(s("\xe2\x82\xac") == "\"\xe2\x82\xac\"");
  auto b = [](const std::string& bytes) {
    std::string out;
    AppendJsonBase64(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), &out);
    return out;
  };
  // RFC 4648 test vectors.
  CHECK(b("") == "\"\"");
  CHECK(b("f") == "\"Zg==\"");
  CHECK(b("fo") == "\"Zm8=\"");
  CHECK(b("foo") == "\"Zm9v\"");
  CHECK(b("foob") == "\"Zm9vYg==\"");
  CHECK(b("fooba") == "\"Zm9vYmE=\"");
  CHECK(b("foobar") == "\"Zm9vYmFy\"");
  CHECK(b("\xff\xfe\xfd") == "\"//79\"");
}

TEST_CASE("json_text: AppendJsonUtf8String replaces each byte that begins no UTF-8 character") {
  auto s = [](std::string_view text) {
    std::string out;
    AppendJsonUtf8String(text, &out);
    return out;
  };
  CHECK(s("plain \xe2\x82\xac") == "\"plain \xe2\x82\xac\"");
  CHECK(s("a\xff" "b") == "\"a\xef\xbf\xbd" "b\"");
  // A truncated sequence, a lone continuation byte, an overlong form, a surrogate: each
  // byte that does not start a well-formed character is replaced, the rest kept.
  CHECK(s("\xe2\x82") == "\"\xef\xbf\xbd\xef\xbf\xbd\"");
  CHECK(s("\x80x") == "\"\xef\xbf\xbdx\"");
  CHECK(s("\xc0\xaf") == "\"\xef\xbf\xbd\xef\xbf\xbd\"");
  CHECK(s("\xed\xa0\x80") == "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"");
  CHECK(WithInvalidUtf8Replaced("ok\xf0\x9f\x98\x80") == "ok\xf0\x9f\x98\x80");
}

TEST_CASE("json_text: AppendJsonMinified accepts RFC 8259 JSON only") {
  auto minified = [](std::string_view text) {
    std::string out = "<";
    return AppendJsonMinified(text, &out) ? out : "rejected:" + out;
  };
  CHECK(minified(" { \"a\" : [ 1 , -0.5e+3 , true , false , null , \"\\u00e9\\n\" ] , \"b\" : { } } ") ==
        R"(<{"a":[1,-0.5e+3,true,false,null,"\u00e9\n"],"b":{}})");
  CHECK(minified("[]") == "<[]");
  CHECK(minified("\"s p\"") == "<\"s p\"");
  CHECK(minified("0") == "<0");
  for (std::string_view bad : {"", " ", "01", "1.", ".5", "1e", "+1", "[1,]", "{\"a\":1,}", "{\"a\"}", "{a:1}",
                               "[1 2]", "\"\\x\"", "\"\\u12\"", "\"a\nb\"", "\"open", "[", "]", "[1]]", "nul",
                               "truex", "'s'", "NaN", "1 2", "{\"a\":1}}"}) {
    CAPTURE(bad);
    CHECK(minified(bad) == "rejected:<");
  }
  std::string deep(kMaxEmbeddedJsonDepth, '[');
  deep += std::string(kMaxEmbeddedJsonDepth, ']');
  CHECK(minified(deep) == "<" + deep);
  CHECK(minified("[" + deep + "]") == "rejected:<");
}

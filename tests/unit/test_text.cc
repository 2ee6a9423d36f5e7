// Tests of the shared text helpers (format/text): UTF-8 decoding, validation and encoding,
// hexadecimal digits and ASCII lowercase.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "format/values/text.h"

using namespace parquet;

TEST_CASE("IsValidUtf8 accepts well-formed text and refuses the rest") {
  CHECK(IsValidUtf8(""));
  CHECK(IsValidUtf8("plain ascii"));
  CHECK(IsValidUtf8("\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80"));  // é € 😀
  CHECK(IsValidUtf8("\xF4\x8F\xBF\xBF"));                      // U+10FFFF
  CHECK_FALSE(IsValidUtf8("\xC0\xAF"));                        // overlong '/'
  CHECK_FALSE(IsValidUtf8("\xE0\x80\xAF"));                    // overlong
  CHECK_FALSE(IsValidUtf8("\xED\xA0\x80"));                    // surrogate U+D800
  CHECK_FALSE(IsValidUtf8("\xF4\x90\x80\x80"));                // past U+10FFFF
  CHECK_FALSE(IsValidUtf8("\xC3"));                            // truncated
  CHECK_FALSE(IsValidUtf8("a\x80" "b"));                       // stray continuation
  CHECK_FALSE(IsValidUtf8("\xFF"));
  CHECK(IsValidUtf8(std::string("a\0b", 3)));                  // NUL is a character
}

TEST_CASE("DecodeUtf8Character and AppendUtf8 round-trip every boundary code point") {
  for (uint32_t cp : {0x0u, 0x7Fu, 0x80u, 0x7FFu, 0x800u, 0xD7FFu, 0xE000u, 0xFFFFu, 0x10000u, 0x10FFFFu}) {
    std::string encoded;
    AppendUtf8(cp, &encoded);
    uint32_t decoded = 0;
    size_t length = 0;
    INFO(cp);
    REQUIRE(DecodeUtf8Character(reinterpret_cast<const uint8_t*>(encoded.data()), encoded.size(), &decoded, &length));
    CHECK(decoded == cp);
    CHECK(length == encoded.size());
    CHECK(length == (cp < 0x80 ? 1u : cp < 0x800 ? 2u : cp < 0x10000 ? 3u : 4u));
  }
  uint32_t cp;
  size_t length;
  CHECK_FALSE(DecodeUtf8Character(nullptr, 0, &cp, &length));
}

TEST_CASE("HexDigit and AsciiLowercase") {
  CHECK(HexDigit('0') == 0);
  CHECK(HexDigit('9') == 9);
  CHECK(HexDigit('a') == 10);
  CHECK(HexDigit('F') == 15);
  CHECK(HexDigit('g') == -1);
  CHECK(HexDigit('/') == -1);
  CHECK(AsciiLowercase("MiXeD Case_\xC3\x89") == "mixed case_\xC3\x89");  // É is left alone
}

// Small text helpers shared by the library and the extension, so each lives once: UTF-8
// validation, decoding and encoding, hexadecimal digits, ASCII lowercase and NUL bytes shown.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace parquet {

// Decodes the UTF-8 character at the start of [data, data + size): its code point and
// length, or false when the bytes do not start with one well-formed character (overlong
// forms, surrogates and code points past U+10FFFF are not well formed).
bool DecodeUtf8Character(const uint8_t* data, size_t size, uint32_t* code_point, size_t* length);

// Whether `bytes` is well-formed UTF-8 throughout.
bool IsValidUtf8(std::string_view bytes);

// `bytes` with each byte that does not begin a well-formed UTF-8 character replaced by
// U+FFFD, so that text of any bytes can go into a JSON document (which must be UTF-8).
std::string WithInvalidUtf8Replaced(std::string_view bytes);

// Appends the UTF-8 encoding of `code_point` (at most U+10FFFF) to *out.
void AppendUtf8(uint32_t code_point, std::string* out);

// The value of hexadecimal digit `c` (either case), or -1.
inline int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// `text` with ASCII letters lowercased (other bytes unchanged, so any encoding is safe).
inline std::string AsciiLowercase(std::string text) {
  for (char& c : text) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return text;
}

// `text` with each NUL byte written as the two characters \0, for messages.
inline std::string ShowNulBytes(std::string_view text) {
  std::string shown;
  for (char c : text) shown += c == '\0' ? std::string_view("\\0") : std::string_view(&c, 1);
  return shown;
}

}  // namespace parquet

// JSON text building blocks shared by everything that renders values as JSON (nested
// columns in ext/common/nested_json.cc, Variant values in format/values/variant.cc): strings with JSON
// escapes, bytes as base64 strings, and numbers in the shortest form that reads back as the
// same value, written the way JavaScript prints numbers (1e+21, 1e-7, 0.000001) with ".0"
// kept on integral values so they stay REAL in SQLite. NaN and infinities become null.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace parquet {

// Appends `text` as a JSON string (quotes included); bytes >= 0x80 are copied as they are.
void AppendJsonString(std::string_view text, std::string* out);
// AppendJsonString of `text` with each byte that does not begin a well-formed UTF-8
// character replaced by U+FFFD (WithInvalidUtf8Replaced): for documents whose text comes
// from files or queries and must be valid UTF-8 (parquet_full_metadata, return_stats).
void AppendJsonUtf8String(std::string_view text, std::string* out);
// Appends the RFC 4648 base64 of `bytes` as a JSON string.
void AppendJsonBase64(const uint8_t* bytes, size_t length, std::string* out);
// Appends a JSON number (or null for NaN/infinities) with the fewest digits that read back
// as the same double / float / FLOAT16 (given as its bits).
void AppendJsonDouble(double value, std::string* out);
void AppendJsonFloat(float value, std::string* out);
void AppendJsonHalf(uint16_t bits, std::string* out);

// When `text` is one valid JSON value (RFC 8259, nesting at most kMaxEmbeddedJsonDepth
// levels), appends it without the whitespace between tokens and returns true; otherwise
// returns false and leaves *out as it was. Strings and numbers are copied as written.
inline constexpr int kMaxEmbeddedJsonDepth = 1000;
bool AppendJsonMinified(std::string_view text, std::string* out);

}  // namespace parquet

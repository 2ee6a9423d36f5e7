// JSON text building blocks (see json_text.h).
#include "format/json_text.h"

#include <charconv>
#include <cmath>

#include "format/logical_values.h"

namespace parquet {

namespace {

// Writes the shortest-digit scientific form `text` (as std::to_chars writes it, sign
// removed: "d[.ddd]e[+-]xx") the way JavaScript's Number#toString would, plus ".0" when
// the result would otherwise read as an integer.
void AppendJavaScriptForm(const char* text, size_t length, bool negative, std::string* out) {
  char digits[40];
  size_t k = 0;
  size_t i = 0;
  for (; i < length && text[i] != 'e'; i++) {
    if (text[i] != '.') digits[k++] = text[i];
  }
  int exponent = 0;
  if (i < length) std::from_chars(text + i + 1 + (text[i + 1] == '+'), text + length, exponent);
  // value = 0.d1...dk * 10^n
  const int n = exponent + 1;
  const int kk = static_cast<int>(k);
  if (negative) out->push_back('-');
  if (kk <= n && n <= 21) {
    out->append(digits, k);
    out->append(static_cast<size_t>(n - kk), '0');
    out->append(".0");
  } else if (0 < n && n <= 21) {
    out->append(digits, static_cast<size_t>(n));
    out->push_back('.');
    out->append(digits + n, static_cast<size_t>(kk - n));
  } else if (-6 < n && n <= 0) {
    out->append("0.");
    out->append(static_cast<size_t>(-n), '0');
    out->append(digits, k);
  } else {
    out->push_back(digits[0]);
    if (k > 1) {
      out->push_back('.');
      out->append(digits + 1, k - 1);
    }
    out->push_back('e');
    const int e = n - 1;
    out->push_back(e < 0 ? '-' : '+');
    char buffer[8];
    auto result = std::to_chars(buffer, buffer + sizeof buffer, e < 0 ? -e : e);
    out->append(buffer, static_cast<size_t>(result.ptr - buffer));
  }
}

template <typename Float>
void AppendShortest(Float value, std::string* out) {
  if (!std::isfinite(value)) {
    out->append("null");
    return;
  }
  const bool negative = std::signbit(value);
  if (value == 0) {
    out->append(negative ? "-0.0" : "0.0");
    return;
  }
  char buffer[48];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, negative ? -value : value, std::chars_format::scientific);
  AppendJavaScriptForm(buffer, static_cast<size_t>(result.ptr - buffer), negative, out);
}

}  // namespace

void AppendJsonString(std::string_view text, std::string* out) {
  static const char kHex[] = "0123456789abcdef";
  out->push_back('"');
  const char* p = text.data();
  const char* end = p + text.size();
  const char* run = p;
  for (; p < end; p++) {
    const unsigned char c = static_cast<unsigned char>(*p);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out->append(run, static_cast<size_t>(p - run));
    run = p + 1;
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\b': out->append("\\b"); break;
      case '\f': out->append("\\f"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      default: {
        const char escape[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
        out->append(escape, sizeof escape);
      }
    }
  }
  out->append(run, static_cast<size_t>(end - run));
  out->push_back('"');
}

void AppendJsonBase64(const uint8_t* bytes, size_t length, std::string* out) {
  static const char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const size_t start = out->size();
  out->resize(start + 2 + (length + 2) / 3 * 4);
  char* p = out->data() + start;
  *p++ = '"';
  size_t i = 0;
  for (; i + 3 <= length; i += 3) {
    const uint32_t v = (uint32_t{bytes[i]} << 16) | (uint32_t{bytes[i + 1]} << 8) | bytes[i + 2];
    *p++ = kAlphabet[v >> 18];
    *p++ = kAlphabet[(v >> 12) & 63];
    *p++ = kAlphabet[(v >> 6) & 63];
    *p++ = kAlphabet[v & 63];
  }
  if (i < length) {
    const uint32_t v = (uint32_t{bytes[i]} << 16) | (i + 1 < length ? uint32_t{bytes[i + 1]} << 8 : 0);
    *p++ = kAlphabet[v >> 18];
    *p++ = kAlphabet[(v >> 12) & 63];
    *p++ = i + 1 < length ? kAlphabet[(v >> 6) & 63] : '=';
    *p++ = '=';
  }
  *p = '"';
}

void AppendJsonDouble(double value, std::string* out) { AppendShortest(value, out); }

void AppendJsonFloat(float value, std::string* out) { AppendShortest(value, out); }

void AppendJsonHalf(uint16_t bits, std::string* out) {
  const double value = HalfToDouble(bits);
  if (!std::isfinite(value) || value == 0) {
    AppendShortest(value, out);
    return;
  }
  // The fewest significant digits (a half has at most 5) that read back as the same half.
  const double magnitude = std::fabs(value);
  char buffer[48];
  std::to_chars_result result{};
  for (int precision = 0; precision < 5; precision++) {
    result = std::to_chars(buffer, buffer + sizeof buffer, magnitude, std::chars_format::scientific, precision);
    double parsed = 0;
    std::from_chars(buffer, result.ptr, parsed, std::chars_format::scientific);
    if ((DoubleToHalf(parsed) & 0x7fff) == (bits & 0x7fff)) break;
  }
  AppendJavaScriptForm(buffer, static_cast<size_t>(result.ptr - buffer), std::signbit(value), out);
}

}  // namespace parquet

// JSON text building blocks (see json_text.h).
#include "format/values/json_text.h"

#include <charconv>
#include <cmath>

#include "format/common/float_chars.h"
#include "format/common/text_to_double.h"
#include "format/values/logical_values.h"
#include "format/values/text.h"

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
  char* end = FloatToCharsScientific(buffer, buffer + sizeof buffer, negative ? -value : value);
  AppendJavaScriptForm(buffer, static_cast<size_t>(end - buffer), negative, out);
}

}  // namespace

void AppendJsonUtf8String(std::string_view text, std::string* out) {
  if (IsValidUtf8(text)) {
    AppendJsonString(text, out);
  } else {
    AppendJsonString(WithInvalidUtf8Replaced(text), out);
  }
}

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
  char* end = buffer;
  for (int precision = 0; precision < 5; precision++) {
    end = FloatToChars(buffer, buffer + sizeof buffer, magnitude, std::chars_format::scientific, precision);
    double parsed = 0;
    TextToDouble(buffer, end, parsed);
    if ((DoubleToHalf(parsed) & 0x7fff) == (bits & 0x7fff)) break;
  }
  AppendJavaScriptForm(buffer, static_cast<size_t>(end - buffer), std::signbit(value), out);
}

namespace {

bool IsJsonSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsHexDigit(char c) { return HexDigit(c) >= 0; }

// Scanners over text[i..): each returns the position after the token, or npos.
constexpr size_t kBad = std::string_view::npos;

size_t ScanString(std::string_view text, size_t i) {
  if (i >= text.size() || text[i] != '"') return kBad;
  for (i++; i < text.size(); i++) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '"') return i + 1;
    if (c < 0x20) return kBad;
    if (c != '\\') continue;
    if (++i >= text.size()) return kBad;
    switch (text[i]) {
      case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
        break;
      case 'u':
        if (i + 4 >= text.size() || !IsHexDigit(text[i + 1]) || !IsHexDigit(text[i + 2]) ||
            !IsHexDigit(text[i + 3]) || !IsHexDigit(text[i + 4])) {
          return kBad;
        }
        i += 4;
        break;
      default:
        return kBad;
    }
  }
  return kBad;
}

size_t ScanNumber(std::string_view text, size_t i) {
  const size_t n = text.size();
  if (i < n && text[i] == '-') i++;
  if (i >= n || !IsDigit(text[i])) return kBad;
  if (text[i] == '0') {
    i++;
  } else {
    while (i < n && IsDigit(text[i])) i++;
  }
  if (i < n && text[i] == '.') {
    if (++i >= n || !IsDigit(text[i])) return kBad;
    while (i < n && IsDigit(text[i])) i++;
  }
  if (i < n && (text[i] == 'e' || text[i] == 'E')) {
    i++;
    if (i < n && (text[i] == '+' || text[i] == '-')) i++;
    if (i >= n || !IsDigit(text[i])) return kBad;
    while (i < n && IsDigit(text[i])) i++;
  }
  return i;
}

}  // namespace

bool AppendJsonMinified(std::string_view text, std::string* out) {
  const size_t original_size = out->size();
  auto fail = [&] {
    out->resize(original_size);
    return false;
  };
  // in_object[d]: whether nesting level d + 1 is an object (else an array).
  bool in_object[kMaxEmbeddedJsonDepth];
  int depth = 0;
  size_t i = 0;
  const size_t n = text.size();
  auto skip_space = [&] {
    while (i < n && IsJsonSpace(text[i])) i++;
  };
  // Copies the key string and ':' at i, for an object member.
  auto member_key = [&] {
    skip_space();
    const size_t end = ScanString(text, i);
    if (end == kBad) return false;
    out->append(text.substr(i, end - i));
    i = end;
    skip_space();
    if (i >= n || text[i] != ':') return false;
    out->push_back(':');
    i++;
    return true;
  };
  skip_space();
  for (;;) {
    // A value starts at i.
    skip_space();
    if (i >= n) return fail();
    const char c = text[i];
    bool value_done = true;
    if (c == '{' || c == '[') {
      if (depth == kMaxEmbeddedJsonDepth) return fail();
      in_object[depth++] = c == '{';
      out->push_back(c);
      i++;
      skip_space();
      const char close = c == '{' ? '}' : ']';
      if (i < n && text[i] == close) {
        out->push_back(close);
        i++;
        depth--;
      } else if (c == '{') {
        if (!member_key()) return fail();
        value_done = false;
      } else {
        value_done = false;
      }
    } else {
      size_t end = kBad;
      if (c == '"') {
        end = ScanString(text, i);
      } else if (c == '-' || IsDigit(c)) {
        end = ScanNumber(text, i);
      } else {
        for (std::string_view literal : {std::string_view("true"), std::string_view("false"), std::string_view("null")}) {
          if (text.substr(i, literal.size()) == literal) end = i + literal.size();
        }
      }
      if (end == kBad) return fail();
      out->append(text.substr(i, end - i));
      i = end;
    }
    if (!value_done) continue;
    // After a complete value: close containers, or move on to the next element.
    for (;;) {
      skip_space();
      if (depth == 0) return i == n ? true : fail();
      if (i >= n) return fail();
      const char next = text[i];
      if (next == ',') {
        out->push_back(',');
        i++;
        if (in_object[depth - 1] && !member_key()) return fail();
        break;
      }
      if (next != (in_object[depth - 1] ? '}' : ']')) return fail();
      out->push_back(next);
      i++;
      depth--;
    }
  }
}

}  // namespace parquet

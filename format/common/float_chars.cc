// FloatToChars (float_chars.h): std::to_chars, or snprintf and a read-back check where the
// standard library has no floating-point std::to_chars.
#include "format/common/float_chars.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

#if defined(_LIBCPP_VERSION) && _LIBCPP_VERSION < 14000
#define PQ_FLOAT_TO_CHARS_FALLBACK 1
#else
#define PQ_FLOAT_TO_CHARS_FALLBACK 0
#endif

namespace parquet {

#if PQ_FLOAT_TO_CHARS_FALLBACK

namespace {

char* Printed(char* first, char* last, const char* format, int precision, double value) {
  const int length = std::snprintf(first, static_cast<size_t>(last - first), format, precision, value);
  return length < 0 || length >= last - first ? first : first + length;
}

// "%.*e" of `value` with the fewest digits after the point that reads back as `value` (as a
// double, or as a float when `single`). At a precision where the correctly rounded digits
// miss (the value lies exactly halfway between two of them), the neighbour digits on either
// side are tried too, as std::to_chars may take one of those.
char* ShortestScientific(char* first, char* last, double value, bool single) {
  const double neighbours[3] = {value, std::nextafter(value, HUGE_VAL), std::nextafter(value, -HUGE_VAL)};
  char buffer[64];
  for (int precision = 0; precision <= 17; precision++) {
    for (double printed : neighbours) {
      if (single) printed = value;  // a float's neighbours as doubles are far closer than its own
      std::snprintf(buffer, sizeof buffer, "%.*e", precision, printed);
      const bool back = single ? std::strtof(buffer, nullptr) == static_cast<float>(value)
                               : std::strtod(buffer, nullptr) == value;
      if (back || precision == 17) {
        const size_t length = std::strlen(buffer);
        if (length > static_cast<size_t>(last - first)) return first;
        std::memcpy(first, buffer, length);
        return first + length;
      }
      if (single) break;
    }
  }
  return first;
}

}  // namespace

char* FloatToCharsScientific(char* first, char* last, double value) {
  return ShortestScientific(first, last, value, false);
}

char* FloatToCharsScientific(char* first, char* last, float value) {
  return ShortestScientific(first, last, value, true);
}

char* FloatToChars(char* first, char* last, double value, std::chars_format format, int precision) {
  return Printed(first, last, format == std::chars_format::fixed ? "%.*f" : "%.*e", precision, value);
}

char* FloatToChars(char* first, char* last, double value) {
  char scientific[64];
  char* end = FloatToCharsScientific(scientific, scientific + sizeof scientific, value);
  // The same digits in fixed notation: sign, digits and the exponent of "d.ddde+xx".
  const char* text = scientific;
  std::string_view all(scientific, static_cast<size_t>(end - scientific));
  const size_t e = all.find('e');
  if (e == std::string_view::npos) {  // inf or nan
    std::memcpy(first, scientific, all.size());
    return first + all.size();
  }
  const bool negative = text[0] == '-';
  char digits[32];
  size_t count = 0;
  for (size_t i = negative ? 1 : 0; i < e; i++) {
    if (text[i] != '.') digits[count++] = text[i];
  }
  int exponent = 0;
  const char* exponent_text = text + e + 1;
  if (*exponent_text == '+') exponent_text++;
  std::from_chars(exponent_text, end, exponent);
  char fixed[400];
  size_t n = 0;
  if (negative) fixed[n++] = '-';
  if (exponent >= static_cast<int>(count) - 1) {
    // An integer: std::to_chars writes its exact digits, not the shortest ones and zeros.
    const int length = std::snprintf(fixed, sizeof fixed, "%.0f", value);
    n = length > 0 ? static_cast<size_t>(length) : 0;
  } else if (exponent >= 0) {
    for (int i = 0; i <= exponent || i < static_cast<int>(count); i++) {
      if (i == exponent + 1) fixed[n++] = '.';
      fixed[n++] = i < static_cast<int>(count) ? digits[i] : '0';
    }
  } else {
    fixed[n++] = '0';
    fixed[n++] = '.';
    for (int i = 0; i < -exponent - 1; i++) fixed[n++] = '0';
    for (size_t i = 0; i < count; i++) fixed[n++] = digits[i];
  }
  const size_t scientific_length = static_cast<size_t>(end - scientific);
  const char* chosen = n <= scientific_length ? fixed : scientific;
  const size_t length = n <= scientific_length ? n : scientific_length;
  if (length > static_cast<size_t>(last - first)) return first;
  std::memcpy(first, chosen, length);
  return first + length;
}

#else

char* FloatToChars(char* first, char* last, double value) { return std::to_chars(first, last, value).ptr; }

char* FloatToCharsScientific(char* first, char* last, double value) {
  return std::to_chars(first, last, value, std::chars_format::scientific).ptr;
}

char* FloatToCharsScientific(char* first, char* last, float value) {
  return std::to_chars(first, last, value, std::chars_format::scientific).ptr;
}

char* FloatToChars(char* first, char* last, double value, std::chars_format format, int precision) {
  return std::to_chars(first, last, value, format, precision).ptr;
}

#endif

}  // namespace parquet

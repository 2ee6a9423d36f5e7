// TextToDouble (text_to_double.h): std::from_chars, or strtod_l in the "C" locale.
#include "format/common/text_to_double.h"

#include <charconv>

#if !defined(__cpp_lib_to_chars)
#include <cerrno>
#include <cmath>
#include <clocale>
#include <cstdlib>
#include <string>
#if defined(__APPLE__) || defined(__FreeBSD__) || defined(__OpenBSD__) || defined(__NetBSD__)
#include <xlocale.h>
#endif
#endif

namespace parquet {

TextToDoubleResult TextToDouble(const char* begin, const char* end, double& value) {
#if defined(__cpp_lib_to_chars)
  const std::from_chars_result parsed = std::from_chars(begin, end, value);
  return {parsed.ptr, parsed.ec};
#else
  // strtod accepts more than from_chars (spaces, '+', hex, "inf"): only what from_chars
  // would read is handed to it, and it needs a terminating NUL.
  const char* stop = begin;
  if (stop != end && *stop == '-') ++stop;
  const char* digits = stop;
  while (stop != end && ((*stop >= '0' && *stop <= '9') || *stop == '.' || *stop == 'e' || *stop == 'E' ||
                         ((*stop == '-' || *stop == '+') && (stop[-1] == 'e' || stop[-1] == 'E')))) {
    ++stop;
  }
  if (stop == digits) return {begin, std::errc::invalid_argument};
  static const locale_t c_locale = newlocale(LC_ALL_MASK, "C", nullptr);
  const std::string text(begin, stop);
  char* parsed_end = nullptr;
  errno = 0;
  const double parsed = strtod_l(text.c_str(), &parsed_end, c_locale);
  if (parsed_end == text.c_str()) return {begin, std::errc::invalid_argument};
  const char* consumed = begin + (parsed_end - text.c_str());
  // strtod also says ERANGE for a subnormal result, which from_chars returns as a value:
  // out of range is only what overflows to infinity or underflows to zero.
  if (errno == ERANGE && (std::isinf(parsed) || parsed == 0)) return {consumed, std::errc::result_out_of_range};
  value = parsed;
  return {consumed, std::errc{}};
#endif
}

}  // namespace parquet

// Text to double, correctly rounded and independent of the process's locale: std::from_chars
// where the C++ library has it for floating point (libstdc++ 11+, MSVC), and strtod_l in the
// "C" locale where it does not (LLVM's libc++ before 20, as on macOS and the BSDs).
#pragma once

#include <system_error>

namespace parquet {

struct TextToDoubleResult {
  const char* end;  // the first character not parsed (begin when nothing was)
  std::errc error;  // {} or std::errc::result_out_of_range or std::errc::invalid_argument
};

// Parses a decimal floating-point number (fixed or scientific form, no leading '+' or space)
// from [begin, end) into `value`.
TextToDoubleResult TextToDouble(const char* begin, const char* end, double& value);

}  // namespace parquet

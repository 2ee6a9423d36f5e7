// Unit tests of TextToDouble (format/common/text_to_double.h): the same answers from
// std::from_chars (GCC's libstdc++) and from the strtod_l fallback (LLVM's libc++ before
// 20, the build-clang/ step of make test): correctly rounded, only what from_chars reads,
// out-of-range and invalid input reported.
#include <doctest/doctest.h>

#include <cstring>
#include <limits>
#include <string>
#include <system_error>

#include "format/common/text_to_double.h"

namespace {

struct Parsed {
  double value;
  size_t consumed;
  std::errc error;
};

Parsed Parse(const std::string& text) {
  double value = -1;
  const parquet::TextToDoubleResult result = parquet::TextToDouble(text.data(), text.data() + text.size(), value);
  return {value, static_cast<size_t>(result.end - text.data()), result.error};
}

}  // namespace

TEST_CASE("TextToDouble reads fixed and scientific forms, correctly rounded") {
  CHECK(Parse("0.1").value == 0.1);
  CHECK(Parse("-2.5e3").value == -2500.0);
  CHECK(Parse("1E-2").value == 0.01);
  // Halfway between two doubles: correctly rounded to even (2^53 + 1 -> 2^53).
  CHECK(Parse("9007199254740993").value == 9007199254740992.0);
  CHECK(Parse("2.2250738585072014e-308").value == std::numeric_limits<double>::min());
  // Subnormal results are values, not out of range (strtod says ERANGE for them).
  const Parsed subnormal = Parse("5e-324");
  CHECK(subnormal.value == std::numeric_limits<double>::denorm_min());
  CHECK(subnormal.error == std::errc{});
  const Parsed whole = Parse("123.25");
  CHECK(whole.consumed == 6);
  CHECK(whole.error == std::errc{});
}

TEST_CASE("TextToDouble stops where from_chars stops and reports bad input") {
  const Parsed tail = Parse("1.5,2");
  CHECK(tail.value == 1.5);
  CHECK(tail.consumed == 3);
  const Parsed plus = Parse("+1");  // from_chars takes no leading '+'
  CHECK(plus.error == std::errc::invalid_argument);
  CHECK(plus.consumed == 0);
  CHECK(Parse(" 1").error == std::errc::invalid_argument);
  CHECK(Parse("").error == std::errc::invalid_argument);
  CHECK(Parse("x").value == -1);  // untouched on failure
}

TEST_CASE("TextToDouble reports out-of-range values") {
  CHECK(Parse("1e400").error == std::errc::result_out_of_range);
  CHECK(Parse("-1e400").error == std::errc::result_out_of_range);
}

// What the files of the runtime test suite (tests/runtime/) share: the path of the
// extension under test, given by `--extension` to runtime_tests, and SQL quoting.
#pragma once

#include <string>

namespace runtime_support {

extern std::string g_extension;

// `text` as an SQL string literal ('it''s').
inline std::string Quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    out += c;
    if (c == '\'') out += '\'';
  }
  return out + "'";
}

}  // namespace runtime_support

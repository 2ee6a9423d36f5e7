// What the files of the runtime test suite (tests/runtime/) share: the path of the
// extension under test, given by `--extension` to runtime_tests.
#pragma once

#include <string>

namespace runtime_support {

extern std::string g_extension;

}  // namespace runtime_support

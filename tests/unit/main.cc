// The main() of the doctest unit tests (build/unit_tests); the tests themselves live in
// tests/unit/test_*.cc. Also linked into build/conformance_tests when that has no main().
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

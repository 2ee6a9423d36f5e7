// The version matrix of `make test` (scripts/run_tests.sh) runs the test programs against
// several SQLite libraries through LD_LIBRARY_PATH and names the one it means in
// SQLITE_EXPECTED_VERSION. Each program calls CheckExpectedSqlite first: it prints the
// SQLite that is really running and refuses to test another one than intended.
#pragma once

#include <sqlite3.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

// False (after saying why on stderr) when SQLITE_EXPECTED_VERSION is set and the running
// SQLite is another version.
inline bool CheckExpectedSqlite(const char* program) {
  const char* running = sqlite3_libversion();  // the loaded library's, not the header's
  std::printf("%s: running SQLite %s\n", program, running);
  const char* expected = std::getenv("SQLITE_EXPECTED_VERSION");
  if (expected == nullptr || *expected == '\0' || std::strcmp(expected, running) == 0) return true;
  std::fprintf(stderr, "%s: SQLITE_EXPECTED_VERSION is %s but SQLite %s is running (check LD_LIBRARY_PATH)\n",
               program, expected, running);
  return false;
}

// Shared pieces of the fuzz targets that run SQL on database files through the linked-in
// extension (fuzz_stored_schema.cc, fuzz_metadata_cache.cc): failing with the target's name,
// running SQL whose errors must carry a message, opening a database, a fixture directory.
#pragma once

#include <sqlite3.h>
#include <stdlib.h>

#include <cstdio>
#include <filesystem>
#include <string>

namespace parquet_fuzz {

// The target's name in failure messages (each target defines it).
extern const char* const kSqlFuzzTarget;

[[noreturn]] inline void Fail(const std::string& what) {
  std::fprintf(stderr, "%s: %s\n", kSqlFuzzTarget, what.c_str());
  std::abort();
}

// Runs `sql`, ignoring its rows; false with the error when it fails. An error must come with
// a message.
inline bool Exec(sqlite3* db, const std::string& sql, std::string* error = nullptr) {
  char* message = nullptr;
  const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message);
  if (rc != SQLITE_OK && error) *error = message ? message : "";
  if (rc != SQLITE_OK && message == nullptr && rc != SQLITE_NOMEM) Fail("an error without a message: " + sql);
  sqlite3_free(message);
  return rc == SQLITE_OK;
}

inline sqlite3* Open(const std::string& path) {
  sqlite3* db = nullptr;
  if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) Fail("cannot open " + path);
  return db;
}

// A new directory /tmp/<target>_XXXXXX for the fixture files of one process.
inline std::filesystem::path MakeFixtureDirectory() {
  std::string pattern = std::string("/tmp/") + kSqlFuzzTarget + "_XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) Fail("mkdtemp");
  return pattern;
}

}  // namespace parquet_fuzz

// Shared pieces of the fuzz targets that run SQL on database files through the linked-in
// extension (fuzz_stored_schema.cc, fuzz_metadata_cache.cc): failing with the target's name,
// running SQL whose errors must carry a message, opening a database, a fixture directory, a
// copy of the fixture database per input, registering the extension.
#pragma once

#include <sqlite3.h>
#include <stdlib.h>
#include <unistd.h>

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

// A copy of `fixture`/template.db for one input, removed when this goes out of scope.
class DatabaseCopy {
 public:
  explicit DatabaseCopy(const std::filesystem::path& fixture)
      : path_(fixture / ("run_" + std::to_string(getpid()) + ".db")) {
    std::filesystem::copy_file(fixture / "template.db", path_, std::filesystem::copy_options::overwrite_existing);
  }
  ~DatabaseCopy() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  DatabaseCopy(const DatabaseCopy&) = delete;
  DatabaseCopy& operator=(const DatabaseCopy&) = delete;
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace parquet_fuzz

extern "C" int sqlite3_parquet_init(sqlite3* db, char** error_message, const sqlite3_api_routines* api);

namespace parquet_fuzz {

// Every connection the target opens gets the linked-in extension (once per process).
inline void RegisterExtension() {
  static const bool registered = [] {
    sqlite3_auto_extension(reinterpret_cast<void (*)(void)>(sqlite3_parquet_init));
    return true;
  }();
  (void)registered;
}

}  // namespace parquet_fuzz

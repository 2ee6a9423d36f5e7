// What the files of the runtime test suite (tests/runtime/) share: the path of the
// extension under test, given by `--extension` to runtime_tests, a connection that loads
// it, and SQL quoting.
#pragma once

#include <doctest/doctest.h>
#include <sqlite3.h>

#include <string>

namespace runtime_support {

extern std::string g_extension;

// A connection to `path` whose extension is loaded only when Load is called.
class Connection {
 public:
  explicit Connection(const std::string& path, int extra_flags = 0) {
    REQUIRE(sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | extra_flags, nullptr) ==
            SQLITE_OK);
  }
  ~Connection() { sqlite3_close(db_); }
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;
  sqlite3* get() const { return db_; }

  void Load() {
    sqlite3_enable_load_extension(db_, 1);
    char* error = nullptr;
    const int rc = sqlite3_load_extension(db_, g_extension.c_str(), nullptr, &error);
    INFO("loading " << g_extension << ": " << (error ? error : ""));
    sqlite3_free(error);
    REQUIRE(rc == SQLITE_OK);
  }
  // Runs sql (all its statements, rows ignored); returns the result code, keeps the error.
  int Exec(const std::string& sql) {
    char* error = nullptr;
    const int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error);
    last_error_ = error ? error : "";
    sqlite3_free(error);
    return rc;
  }
  const std::string& last_error() const { return last_error_; }

 protected:
  sqlite3* db_ = nullptr;
  std::string last_error_;
};

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

// Fuzz target: the stored column list of a `parquet` table (`<table>_schema`,
// ext/table/stored_schema.h) as a hostile database file may hold it. The input rewrites the
// shadow table of a table over a small file: arbitrary rows (any storage class in any
// column, names with NULs, type words and not), or a shadow table of another shape (a view,
// other columns, a generated column). A new connection then connects the table and runs
// PRAGMA table_info, a full scan and a filtered scan.
//
// What must hold: no crash or sanitizer report; connecting never fails with anything but a
// message (SQLite's own errors included); every column PRAGMA table_info reports for a
// loaded list is one of the stored rows (or filename / file_row_number), so no row can add
// a column the rows did not name; and a scan either returns the file's three rows or fails
// with a message.
#include <sqlite3.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>

#include "tests/fuzz/fuzz_common.h"
#include "tests/fuzz/fuzz_sql.h"

const char* const parquet_fuzz::kSqlFuzzTarget = "fuzz_stored_schema";

namespace {

namespace fs = std::filesystem;
using parquet_fuzz::ByteSource;
using parquet_fuzz::Exec;
using parquet_fuzz::Fail;
using parquet_fuzz::Open;

// A directory with data.parquet (three rows: a INTEGER, b TEXT, c TEXT) and the
// database template.db holding `t` over it, made once per process.
const fs::path& Fixture() {
  static const fs::path dir = [] {
    const fs::path d = parquet_fuzz::MakeFixtureDirectory();
    sqlite3* db = Open((d / "template.db").string());
    std::string error;
    if (!Exec(db, "SELECT parquet_copy('SELECT 1 AS a, ''x1'' AS b, json_array(1, 2) AS c UNION ALL "
                  "SELECT 2, ''x2'', json_array(2, 2) UNION ALL SELECT 3, ''x3'', json_array(3, 2)', '" +
                  (d / "data.parquet").string() + "')", &error)) {
      Fail("cannot write the fixture file: " + error);
    }
    if (!Exec(db, "CREATE VIRTUAL TABLE t USING parquet('" + (d / "data.parquet").string() + "')", &error)) {
      Fail("cannot create the fixture table: " + error);
    }
    sqlite3_close(db);
    return d;
  }();
  return dir;
}

// Binds parameter `i` to a value whose storage class the input picks.
void BindValue(sqlite3_stmt* stmt, int i, ByteSource& in) {
  switch (in.Below(6)) {
    case 0: sqlite3_bind_null(stmt, i); break;
    case 1: sqlite3_bind_int64(stmt, i, static_cast<int64_t>(in.U64())); break;
    case 2: sqlite3_bind_double(stmt, i, static_cast<double>(static_cast<int64_t>(in.U64())) / 7.0); break;
    case 3: {
      const std::string blob = in.Bytes(40);
      sqlite3_bind_blob(stmt, i, blob.data(), static_cast<int>(blob.size()), SQLITE_TRANSIENT);
      break;
    }
    case 4: {
      static const char* const kWords[] = {"file", "hive", "a", "b", "c", "INTEGER", "TEXT", "REAL", "BLOB",
                                           "DECIMAL(4,2)", "TEXT HIDDEN", "INTEGER, evil TEXT", "filename", ""};
      sqlite3_bind_text(stmt, i, kWords[in.Below(sizeof(kWords) / sizeof(kWords[0]))], -1, SQLITE_STATIC);
      break;
    }
    default: {
      const std::string text = in.Bytes(40);  // may hold NULs and invalid UTF-8
      sqlite3_bind_text(stmt, i, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
      break;
    }
  }
}

// The names PRAGMA table_info reports for `t`, or false when it fails.
bool ColumnNames(sqlite3* db, std::set<std::string>* names) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, "SELECT name FROM pragma_table_info('t')", -1, &stmt, nullptr) != SQLITE_OK) {
    if (sqlite3_errmsg(db) == nullptr) Fail("no message");
    return false;
  }
  int rc;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    const unsigned char* name = sqlite3_column_text(stmt, 0);
    names->insert(name ? reinterpret_cast<const char*>(name) : "");
  }
  sqlite3_finalize(stmt);
  return rc == SQLITE_DONE;
}

void RunInput(ByteSource& in) {
  const parquet_fuzz::DatabaseCopy copy(Fixture());
  std::set<std::string> stored_names = {"filename", "file_row_number"};
  {
    sqlite3* db = Open(copy.path());
    Exec(db, "PRAGMA writable_schema=ON");
    switch (in.Below(8)) {
      case 0: Exec(db, "DROP TABLE t_schema"); break;  // no list
      case 1:
        Exec(db, "DROP TABLE t_schema");
        Exec(db, "CREATE VIEW t_schema AS SELECT 1 AS position, 'file' AS kind, 'a' AS name, 'INTEGER' AS "
                 "declared_type, 0 AS nested");
        break;
      case 2:
        Exec(db, "DROP TABLE t_schema");
        Exec(db, "CREATE TABLE t_schema(position INTEGER PRIMARY KEY, kind TEXT, name TEXT, declared_type TEXT, "
                 "nested INTEGER, extra)");
        break;
      case 3:
        Exec(db, "DROP TABLE t_schema");
        Exec(db, "CREATE TABLE t_schema(position INTEGER PRIMARY KEY, kind TEXT, name TEXT, declared_type TEXT "
                 "AS ('INTEGER'), nested INTEGER)");
        break;
      default: Exec(db, "DELETE FROM t_schema"); break;  // rows only
    }
    sqlite3_stmt* insert = nullptr;
    if (sqlite3_prepare_v2(db, "INSERT INTO t_schema(position, kind, name, declared_type, nested) VALUES (?, ?, ?, ?, ?)",
                           -1, &insert, nullptr) == SQLITE_OK) {
      const int rows = static_cast<int>(in.Below(8));
      for (int r = 0; r < rows && !in.empty(); r++) {
        for (int i = 1; i <= 5; i++) BindValue(insert, i, in);
        sqlite3_step(insert);  // a constraint may refuse the row: then it is not stored
        sqlite3_reset(insert);
      }
      sqlite3_finalize(insert);
    }
    // Every name stored, whatever its class, as SQLite would read it back as text.
    sqlite3_stmt* names = nullptr;
    if (sqlite3_prepare_v2(db, "SELECT CAST(name AS TEXT) FROM t_schema", -1, &names, nullptr) == SQLITE_OK) {
      while (sqlite3_step(names) == SQLITE_ROW) {
        const unsigned char* name = sqlite3_column_text(names, 0);
        if (name) stored_names.insert(reinterpret_cast<const char*>(name));
      }
      sqlite3_finalize(names);
    }
    sqlite3_close(db);
  }
  sqlite3* db = Open(copy.path());
  std::set<std::string> declared;
  if (ColumnNames(db, &declared)) {
    for (const std::string& name : declared) {
      // Names that repeat case-insensitively get a suffix _1, _2 ... (the table's manual).
      std::string base = name;
      const size_t underscore = base.rfind('_');
      if (!stored_names.count(name) && underscore != std::string::npos) base = base.substr(0, underscore);
      if (!stored_names.count(name) && !stored_names.count(base)) {
        Fail("PRAGMA table_info reports column '" + name + "', which no stored row names");
      }
    }
  }
  std::string error;
  Exec(db, "SELECT * FROM t", &error);
  Exec(db, "SELECT count(*) FROM t WHERE rowid > 0", &error);
  Exec(db, "SELECT filename, file_row_number FROM t LIMIT 2", &error);
  sqlite3_close(db);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  parquet_fuzz::RegisterExtension();
  ByteSource in(data, size);
  RunInput(in);
  return 0;
}

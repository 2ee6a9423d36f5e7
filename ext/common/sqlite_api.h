// Includes sqlite3ext.h the way every file of the loadable extension must: the API
// routines are reached through the pointer that sqlite3_parquet_init stores (defined once in
// extension.cc by SQLITE_EXTENSION_INIT1). The header is the vendored newest one
// (third_party/sqlite/), so routines newer than the host's SQLite compile; the running
// version decides whether they are called (below). Also the owner of a prepared statement.
#pragma once

#include <sqlite3ext.h>

SQLITE_EXTENSION_INIT3

namespace sqlite_parquet {

// Finalizes its statement when it goes out of scope.
struct StatementGuard {
  sqlite3_stmt* stmt = nullptr;
  ~StatementGuard() { sqlite3_finalize(stmt); }
};

// SQLite versions as sqlite3_libversion_number() gives them (3.38.0 -> 3038000). The API
// table grows at its end with each release: calling a routine newer than the running
// SQLite reads past the end of its table, so every such call is guarded by
// RunningSqliteAtLeast.
inline constexpr int kOldestSupportedSqlite = 3038000;  // sqlite3_vtab_in, sqlite3_vtab_rhs_value, LIMIT/OFFSET constraints
inline constexpr int kSqliteWithIsInterrupted = 3041000;  // sqlite3_is_interrupted
inline constexpr int kSqliteWithResultSubtype = 3045000;  // the SQLITE_RESULT_SUBTYPE function flag

// True when the SQLite the extension was loaded into is version `version` or newer.
inline bool RunningSqliteAtLeast(int version) { return sqlite3_libversion_number() >= version; }

}  // namespace sqlite_parquet

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
// RunningSqliteAtLeast (tests/sqlite_api_check.sh checks it).
inline constexpr int kOldestSupportedSqlite = 3031000;  // SQLITE_VTAB_DIRECTONLY, SQLITE_DIRECTONLY, SQLITE_INNOCUOUS
inline constexpr int kSqliteWithVtabIn = 3038000;  // sqlite3_vtab_in(_first/_next), sqlite3_vtab_rhs_value, LIMIT/OFFSET constraints
inline constexpr int kSqliteWithWritableSchemaReset = 3037000;  // PRAGMA writable_schema=RESET (3.37.2 has it, 3.34.1 not)
inline constexpr int kSqliteWithIsInterrupted = 3041000;  // sqlite3_is_interrupted
inline constexpr int kSqliteWithResultSubtype = 3045000;  // the SQLITE_RESULT_SUBTYPE function flag

// True when the SQLite the extension was loaded into is version `version` or newer.
inline bool RunningSqliteAtLeast(int version) { return sqlite3_libversion_number() >= version; }

// sqlite3_vtab_in(info, i, handle) where the running SQLite has it (3.38): with handle -1,
// whether constraint i is an IN; with 1, asks SQLite to hand its whole list to one xFilter.
// Below 3.38 false: SQLite presents an IN as = and runs the scan once per value.
inline bool VtabIn(sqlite3_index_info* info, int i, int handle) {
  return RunningSqliteAtLeast(kSqliteWithVtabIn) && sqlite3_vtab_in(info, i, handle) != 0;
}

// The right-hand value of xBestIndex constraint i when it is known at prepare time
// (sqlite3_vtab_rhs_value, 3.38); nullptr when it is not, and always below 3.38.
inline sqlite3_value* VtabRhsValue(sqlite3_index_info* info, int i) {
  sqlite3_value* rhs = nullptr;
  if (!RunningSqliteAtLeast(kSqliteWithVtabIn) || sqlite3_vtab_rhs_value(info, i, &rhs) != SQLITE_OK) return nullptr;
  return rhs;
}

// Whether LIKE and GLOB match BLOBs in the running SQLite: true unless it was compiled with
// SQLITE_LIKE_DOESNT_MATCH_BLOBS (Debian's and our test builds are; sqlite.org's sqlite3.exe,
// Python's on Windows and macOS's are not). Then SQLite's LIKE optimization hands a virtual
// table text bounds (c >= 'A' AND c < 'b' for c LIKE 'a%') that a BLOB never satisfies
// though it matches the LIKE, so those bounds must not filter BLOB columns (table_plan.cc).
// Also true where sqlite3_compileoption_used is compiled out: then only pushdown is lost.
inline bool LikeMatchesBlobs() { return sqlite3_compileoption_used("LIKE_DOESNT_MATCH_BLOBS") == 0; }

}  // namespace sqlite_parquet

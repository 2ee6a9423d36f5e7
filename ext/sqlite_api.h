// Includes sqlite3ext.h the way every file of the loadable extension must: the API
// routines are reached through the pointer that sqlite3_parquet_init stores (defined once in
// extension.cc by SQLITE_EXTENSION_INIT1). Also the owner of a prepared statement.
#pragma once

#include <sqlite3ext.h>

SQLITE_EXTENSION_INIT3

namespace sqlite_parquet {

// Finalizes its statement when it goes out of scope.
struct StatementGuard {
  sqlite3_stmt* stmt = nullptr;
  ~StatementGuard() { sqlite3_finalize(stmt); }
};

}  // namespace sqlite_parquet

// Keeps what the application's statement left in last_insert_rowid() and changes() across
// the statements the extension runs on the application's connection to write its own rows
// (the metadata cache's rows, a parquet table's stored column list). SQLite counts those
// like the application's: an INSERT sets last_insert_rowid(), and every INSERT, UPDATE or
// DELETE that completes sets changes(), even when it runs nested inside the application's
// SELECT. StatementEffectsGuard notes both values before such writes and puts them back
// after: last_insert_rowid() with sqlite3_set_last_insert_rowid (SQLite 3.18), changes()
// (which SQLite lets nothing set) by ending with a statement that changes exactly as many
// rows as the application's did, an INSERT of that many rows into the eponymous table
// ChangesRestorerName() of this module, which keeps nothing (cost: a loop of that many rows
// in memory, only after a write of the extension changed the value). The table's name holds
// random digits chosen once per process, so no database file can have a table of that name
// stand in for it (it is also checked: none may exist in main). That INSERT writes no row
// but is a write statement of main: where main cannot be written (opened read-only, PRAGMA
// query_only, an authorizer's refusal, a lock another connection holds past the busy
// timeout) changes() keeps the value the extension's write left. total_changes() counts
// both.
#pragma once

#include <string>

#include "ext/common/sqlite_api.h"

namespace sqlite_parquet {

class StatementEffectsGuard {
 public:
  explicit StatementEffectsGuard(sqlite3* db);
  ~StatementEffectsGuard();
  StatementEffectsGuard(const StatementEffectsGuard&) = delete;
  StatementEffectsGuard& operator=(const StatementEffectsGuard&) = delete;

 private:
  sqlite3* db_;
  sqlite3_int64 last_insert_rowid_;
  int changes_;
};

// The name of the restoring table ("parquet_changes_" and 16 random hexadecimal digits).
const std::string& ChangesRestorerName();

// Registers the restoring table's module on `db` (eponymous only, SQLITE_VTAB_DIRECTONLY).
int RegisterChangesRestorer(sqlite3* db);

}  // namespace sqlite_parquet

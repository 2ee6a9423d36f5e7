// Noticing sqlite3_interrupt() on a connection from the extension's own work, and letting
// the remote requests (HTTP, S3) made meanwhile notice it too: a scan, CREATE VIRTUAL TABLE
// and its connect, planning (xBestIndex: S3 listing, the first footer), the metadata
// functions and parquet_copy's uploads. format/ knows nothing of SQLite: it is handed the
// check as a callback (parquet::HttpInterruptScope).
#pragma once

#include "ext/common/sqlite_api.h"
#include "format/io/http_client.h"

namespace sqlite_parquet {

// Whether sqlite3_interrupt() was called on `db` (and not yet cleared). SQLite 3.41 and
// later say so directly (sqlite3_is_interrupted). Before 3.41, preparing a statement fails
// with SQLITE_INTERRUPT while the flag is set and some statement is active (the parser
// checks the flag; with no statement active, preparing or stepping clears it first): a
// trivial one is prepared and finalized (microseconds).
bool ConnectionInterrupted(sqlite3* db);

// While alive, the remote requests made on the constructing thread end with
// parquet::HttpInterrupted soon after sqlite3_interrupt(db) (http_client.h). Before SQLite
// 3.41, when no statement of `db` is active (planning: xBestIndex runs while a statement
// is prepared), the scope keeps one of its own active ("SELECT 1" stepped to its row) so
// that ConnectionInterrupted can see the flag without clearing it.
class ConnectionInterruptScope {
 public:
  explicit ConnectionInterruptScope(sqlite3* db);
  ~ConnectionInterruptScope();
  ConnectionInterruptScope(const ConnectionInterruptScope&) = delete;
  ConnectionInterruptScope& operator=(const ConnectionInterruptScope&) = delete;

 private:
  sqlite3_stmt* active_ = nullptr;  // the statement kept active, or null
  parquet::HttpInterruptScope scope_;
};

}  // namespace sqlite_parquet

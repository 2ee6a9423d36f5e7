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
// with SQLITE_INTERRUPT while the flag is set (the parser checks it, and preparing never
// clears it, unlike the first step of a statement when none is active: so this works
// during planning too, before the statement being planned is active): a trivial one is
// prepared and finalized (microseconds).
bool ConnectionInterrupted(sqlite3* db);

// While alive, the remote requests made on the constructing thread end with
// parquet::HttpInterrupted soon after sqlite3_interrupt(db) (http_client.h).
class ConnectionInterruptScope {
 public:
  explicit ConnectionInterruptScope(sqlite3* db) : scope_([db] { return ConnectionInterrupted(db); }) {}

 private:
  parquet::HttpInterruptScope scope_;
};

}  // namespace sqlite_parquet

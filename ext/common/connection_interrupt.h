// Noticing sqlite3_interrupt() on a connection from the extension's own work, and letting
// the remote requests (HTTP, S3) made meanwhile notice it too: a scan, CREATE VIRTUAL TABLE
// and its connect, planning (xBestIndex: S3 listing, the first footer), the metadata
// functions and parquet_copy's uploads. format/ knows nothing of SQLite: it is handed the
// check as a callback (parquet::HttpInterruptScope).
#pragma once

#include "ext/common/sqlite_api.h"
#include "format/io/http_client.h"

namespace sqlite_parquet {

// Whether sqlite3_interrupt() was called on `db` while a statement runs. SQLite 3.41 and
// later say so directly (sqlite3_is_interrupted). Before 3.41, a statement stepped (or
// prepared) while another runs on the same connection fails with SQLITE_INTERRUPT once
// sqlite3_interrupt() was called (the flag is cleared only when no statement is active), so
// a trivial one, *probe (prepared on first use; the caller finalizes it), is stepped.
bool ConnectionInterrupted(sqlite3* db, sqlite3_stmt** probe);

// While alive, the remote requests made on the constructing thread end with
// parquet::HttpInterrupted soon after sqlite3_interrupt(db) (http_client.h).
class ConnectionInterruptScope {
 public:
  explicit ConnectionInterruptScope(sqlite3* db)
      : db_(db), scope_([this] { return ConnectionInterrupted(db_, &probe_); }) {}
  ~ConnectionInterruptScope() { sqlite3_finalize(probe_); }
  ConnectionInterruptScope(const ConnectionInterruptScope&) = delete;
  ConnectionInterruptScope& operator=(const ConnectionInterruptScope&) = delete;

 private:
  sqlite3* db_;
  sqlite3_stmt* probe_ = nullptr;
  parquet::HttpInterruptScope scope_;
};

}  // namespace sqlite_parquet

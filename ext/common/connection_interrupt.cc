// The connection's interrupt check (see connection_interrupt.h).
#include "ext/common/connection_interrupt.h"

namespace sqlite_parquet {

namespace {

bool AnyStatementActive(sqlite3* db) {
  for (sqlite3_stmt* statement = sqlite3_next_stmt(db, nullptr); statement != nullptr;
       statement = sqlite3_next_stmt(db, statement)) {
    if (sqlite3_stmt_busy(statement)) return true;
  }
  return false;
}

}  // namespace

bool ConnectionInterrupted(sqlite3* db) {
  if (RunningSqliteAtLeast(kSqliteWithIsInterrupted)) return sqlite3_is_interrupted(db) != 0;
  sqlite3_stmt* probe = nullptr;
  const int rc = sqlite3_prepare_v2(db, "SELECT 1", -1, &probe, nullptr);
  sqlite3_finalize(probe);
  return rc == SQLITE_INTERRUPT;
}

ConnectionInterruptScope::ConnectionInterruptScope(sqlite3* db)
    : scope_([db] { return ConnectionInterrupted(db); }) {
  if (RunningSqliteAtLeast(kSqliteWithIsInterrupted) || AnyStatementActive(db)) return;
  if (sqlite3_prepare_v2(db, "SELECT 1", -1, &active_, nullptr) != SQLITE_OK || sqlite3_step(active_) != SQLITE_ROW) {
    sqlite3_finalize(active_);  // then requests go on uninterruptible, as before 3.41 they would
    active_ = nullptr;
  }
}

ConnectionInterruptScope::~ConnectionInterruptScope() { sqlite3_finalize(active_); }

}  // namespace sqlite_parquet

// The connection's interrupt check (see connection_interrupt.h).
#include "ext/common/connection_interrupt.h"

namespace sqlite_parquet {

bool ConnectionInterrupted(sqlite3* db) {
  if (RunningSqliteAtLeast(kSqliteWithIsInterrupted)) return sqlite3_is_interrupted(db) != 0;
  sqlite3_stmt* probe = nullptr;
  const int rc = sqlite3_prepare_v2(db, "SELECT 1", -1, &probe, nullptr);
  sqlite3_finalize(probe);
  return rc == SQLITE_INTERRUPT;
}

}  // namespace sqlite_parquet

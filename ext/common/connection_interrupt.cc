// The connection's interrupt check (see connection_interrupt.h).
#include "ext/common/connection_interrupt.h"

namespace sqlite_parquet {

bool ConnectionInterrupted(sqlite3* db, sqlite3_stmt** probe) {
  if (RunningSqliteAtLeast(kSqliteWithIsInterrupted)) return sqlite3_is_interrupted(db) != 0;
  if (*probe == nullptr) {
    // Preparing fails with SQLITE_INTERRUPT too once the connection is interrupted (the
    // parser checks the flag): the first probe may come after the interrupt.
    const int rc = sqlite3_prepare_v2(db, "SELECT 1", -1, probe, nullptr);
    if (rc != SQLITE_OK) {
      sqlite3_finalize(*probe);
      *probe = nullptr;
      return rc == SQLITE_INTERRUPT;
    }
  }
  const int rc = sqlite3_step(*probe);
  sqlite3_reset(*probe);
  return rc == SQLITE_INTERRUPT;
}

}  // namespace sqlite_parquet

// StatementEffectsGuard and the module of its restoring table (statement_effects.h).
#include "ext/common/statement_effects.h"

#include <cstdint>
#include <cstring>

#include "ext/common/options.h"

namespace sqlite_parquet {

namespace {

// The restoring table: one column, no rows; an INSERT keeps nothing and succeeds.
int Connect(sqlite3* db, void*, int, const char* const*, sqlite3_vtab** out, char**) {
  *out = nullptr;
  const int rc = sqlite3_declare_vtab(db, "CREATE TABLE x(v)");
  if (rc != SQLITE_OK) return rc;
  sqlite3_vtab_config(db, SQLITE_VTAB_DIRECTONLY);
  auto* table = static_cast<sqlite3_vtab*>(sqlite3_malloc(sizeof(sqlite3_vtab)));
  if (table == nullptr) return SQLITE_NOMEM;
  std::memset(table, 0, sizeof(*table));
  *out = table;
  return SQLITE_OK;
}

int Disconnect(sqlite3_vtab* table) {
  sqlite3_free(table);
  return SQLITE_OK;
}

int BestIndex(sqlite3_vtab*, sqlite3_index_info* info) {
  info->estimatedCost = 1;
  info->estimatedRows = 1;
  return SQLITE_OK;
}

int Open(sqlite3_vtab*, sqlite3_vtab_cursor** out) {
  auto* cursor = static_cast<sqlite3_vtab_cursor*>(sqlite3_malloc(sizeof(sqlite3_vtab_cursor)));
  if (cursor == nullptr) return SQLITE_NOMEM;
  std::memset(cursor, 0, sizeof(*cursor));
  *out = cursor;
  return SQLITE_OK;
}

int Close(sqlite3_vtab_cursor* cursor) {
  sqlite3_free(cursor);
  return SQLITE_OK;
}

int Filter(sqlite3_vtab_cursor*, int, const char*, int, sqlite3_value**) { return SQLITE_OK; }
int Next(sqlite3_vtab_cursor*) { return SQLITE_OK; }
int Eof(sqlite3_vtab_cursor*) { return 1; }

int Column(sqlite3_vtab_cursor*, sqlite3_context* ctx, int) {
  sqlite3_result_null(ctx);
  return SQLITE_OK;
}

int Rowid(sqlite3_vtab_cursor*, sqlite3_int64* rowid) {
  *rowid = 0;
  return SQLITE_OK;
}

int Update(sqlite3_vtab*, int, sqlite3_value**, sqlite3_int64* rowid) {
  *rowid = 0;
  return SQLITE_OK;
}

sqlite3_module changes_restorer_module = {
    /* iVersion    */ 0,
    /* xCreate     */ nullptr,
    /* xConnect    */ Connect,
    /* xBestIndex  */ BestIndex,
    /* xDisconnect */ Disconnect,
    /* xDestroy    */ Disconnect,
    /* xOpen       */ Open,
    /* xClose      */ Close,
    /* xFilter     */ Filter,
    /* xNext       */ Next,
    /* xEof        */ Eof,
    /* xColumn     */ Column,
    /* xRowid      */ Rowid,
    /* xUpdate     */ Update,
    /* xBegin      */ nullptr,
    /* xSync       */ nullptr,
    /* xCommit     */ nullptr,
    /* xRollback   */ nullptr,
    /* xFindMethod */ nullptr,
    /* xRename     */ nullptr,
    /* xSavepoint  */ nullptr,
    /* xRelease    */ nullptr,
    /* xRollbackTo */ nullptr,
    /* xShadowName */ nullptr,
    /* xIntegrity  */ nullptr,  // SQLite 3.44+; not read at iVersion 0
};

std::string RandomName() {
  // SQLite's generator, seeded from the OS: std::random_device would pull arc4random (glibc
  // 2.36) from the static libstdc++ of the dist build, whose floor is glibc 2.28.
  uint64_t bits = 0;
  sqlite3_randomness(static_cast<int>(sizeof(bits)), &bits);
  static const char kHex[] = "0123456789abcdef";
  std::string name = "parquet_changes_";
  for (int shift = 60; shift >= 0; shift -= 4) name += kHex[(bits >> shift) & 15];
  return name;
}

// Makes changes() say `changes`: an INSERT of that many rows into the restoring table, unless
// main holds an object of its name (then changes() stays as the extension's write left it).
void RestoreChanges(sqlite3* db, int changes) {
  StatementGuard existing;
  if (sqlite3_prepare_v2(db, "SELECT 1 FROM main.sqlite_master WHERE name = ?1 COLLATE NOCASE", -1, &existing.stmt,
                         nullptr) != SQLITE_OK) {
    return;
  }
  sqlite3_bind_text(existing.stmt, 1, ChangesRestorerName().c_str(), -1, SQLITE_STATIC);
  if (sqlite3_step(existing.stmt) != SQLITE_DONE) return;
  const std::string sql = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n LIMIT ?1) INSERT INTO main." +
                          QuoteIdentifier(ChangesRestorerName()) + "(v) SELECT i FROM n";
  StatementGuard insert;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &insert.stmt, nullptr) != SQLITE_OK) return;
  sqlite3_bind_int64(insert.stmt, 1, changes);
  sqlite3_step(insert.stmt);
}

}  // namespace

const std::string& ChangesRestorerName() {
  static const std::string name = RandomName();
  return name;
}

int RegisterChangesRestorer(sqlite3* db) {
  return sqlite3_create_module_v2(db, ChangesRestorerName().c_str(), &changes_restorer_module, nullptr, nullptr);
}

StatementEffectsGuard::StatementEffectsGuard(sqlite3* db)
    : db_(db), last_insert_rowid_(sqlite3_last_insert_rowid(db)), changes_(sqlite3_changes(db)) {}

StatementEffectsGuard::~StatementEffectsGuard() {
  if (sqlite3_changes(db_) != changes_ && changes_ >= 0) RestoreChanges(db_, changes_);
  sqlite3_set_last_insert_rowid(db_, last_insert_rowid_);
}

}  // namespace sqlite_parquet

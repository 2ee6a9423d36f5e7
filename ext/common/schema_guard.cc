// The defences against schema objects calling the extension's file-writing function (see
// schema_guard.h).
#include "ext/common/schema_guard.h"

#include <cstring>
#include <stdexcept>
#include <vector>

#include "ext/common/options.h"
#include "ext/common/schema_text.h"

namespace sqlite_parquet {

namespace {

std::string ColumnText(sqlite3_stmt* stmt, int column) {
  const unsigned char* text = sqlite3_column_text(stmt, column);
  return text == nullptr ? std::string()
                         : std::string(reinterpret_cast<const char*>(text), static_cast<size_t>(sqlite3_column_bytes(stmt, column)));
}

// Runs `sql` and returns its rows' first `columns` columns as text; throws on an error.
std::vector<std::vector<std::string>> Rows(sqlite3* db, const std::string& sql, int columns) {
  StatementGuard statement;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &statement.stmt, nullptr) != SQLITE_OK) {
    throw std::runtime_error("cannot read the schema: " + std::string(sqlite3_errmsg(db)));
  }
  std::vector<std::vector<std::string>> rows;
  int rc;
  while ((rc = sqlite3_step(statement.stmt)) == SQLITE_ROW) {
    std::vector<std::string>& row = rows.emplace_back();
    for (int c = 0; c < columns; ++c) row.push_back(ColumnText(statement.stmt, c));
  }
  if (rc != SQLITE_DONE) throw std::runtime_error("cannot read the schema: " + std::string(sqlite3_errmsg(db)));
  return rows;
}

// ReloadSchemas before PRAGMA writable_schema=RESET: a schema change undone by ROLLBACK TO
// makes SQLite reset every schema of the connection. The change is a temp table, so no
// database file is written.
int ReloadSchemasBySavepoint(sqlite3* db) {
  int rc = sqlite3_exec(db, "SAVEPOINT parquet_reload_schemas", nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) return rc;
  // Fails when a schema not read yet cannot load now: then there is nothing to read again.
  rc = sqlite3_exec(db, "CREATE TEMP TABLE parquet_reload_schemas(x)", nullptr, nullptr, nullptr);
  const int undone = sqlite3_exec(db, "ROLLBACK TO parquet_reload_schemas; RELEASE parquet_reload_schemas",
                                  nullptr, nullptr, nullptr);
  return rc != SQLITE_OK ? rc : undone;
}

// The names of the databases of `db` in the order SQLite resolves an unqualified table
// name: temp, main, then the attached ones. The PRAGMA statement, not the table-valued
// pragma_database_list, which a table of that name in a database file would shadow.
std::vector<std::string> DatabasesInLookupOrder(sqlite3* db) {
  std::vector<std::string> names;
  for (const std::vector<std::string>& database : Rows(db, "PRAGMA database_list", 2)) {
    if (database[1] == "temp") {
      names.insert(names.begin(), database[1]);
    } else {
      names.push_back(database[1]);
    }
  }
  return names;
}

}  // namespace

bool IsOrdinaryTableEntry(const char* type, sqlite3_int64 rootpage, const char* sql) {
  return type != nullptr && std::strcmp(type, "table") == 0 && rootpage > 0 && sql != nullptr &&
         sqlite3_strnicmp(sql, "CREATE TABLE", 12) == 0;
}

std::string ResolveOrdinaryTable(sqlite3* db, const std::string& name, std::string* refusal) {
  for (const std::string& database : DatabasesInLookupOrder(db)) {
    StatementGuard lookup;
    const std::string sql = "SELECT type, rootpage, sql FROM " + QuoteIdentifier(database) +
                            ".sqlite_master WHERE type IN ('table', 'view') AND name = ?1 COLLATE NOCASE";
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &lookup.stmt, nullptr) != SQLITE_OK) {
      throw std::runtime_error("cannot read the schema: " + std::string(sqlite3_errmsg(db)));
    }
    sqlite3_bind_text(lookup.stmt, 1, name.c_str(), -1, SQLITE_TRANSIENT);
    const int rc = sqlite3_step(lookup.stmt);
    if (rc == SQLITE_DONE) continue;
    if (rc != SQLITE_ROW) throw std::runtime_error("cannot read the schema: " + std::string(sqlite3_errmsg(db)));
    const char* type = reinterpret_cast<const char*>(sqlite3_column_text(lookup.stmt, 0));
    const char* create = reinterpret_cast<const char*>(sqlite3_column_text(lookup.stmt, 2));
    if (IsOrdinaryTableEntry(type, sqlite3_column_int64(lookup.stmt, 1), create)) return database;
    *refusal = type != nullptr && std::strcmp(type, "view") == 0 ? "a view" : "a virtual table";
    return "";
  }
  refusal->clear();
  return "";
}

int ReloadSchemas(sqlite3* db) {
  if (!RunningSqliteAtLeast(kSqliteWithWritableSchemaReset)) return ReloadSchemasBySavepoint(db);
  int writable = 0;
  {
    StatementGuard statement;
    int rc = sqlite3_prepare_v2(db, "PRAGMA writable_schema", -1, &statement.stmt, nullptr);
    if (rc != SQLITE_OK) return rc;
    rc = sqlite3_step(statement.stmt);
    if (rc == SQLITE_ROW) writable = sqlite3_column_int(statement.stmt, 0);
    else if (rc != SQLITE_DONE) return rc;
  }
  int rc = sqlite3_exec(db, "PRAGMA writable_schema=RESET", nullptr, nullptr, nullptr);
  if (rc == SQLITE_OK && writable != 0) rc = sqlite3_exec(db, "PRAGMA writable_schema=ON", nullptr, nullptr, nullptr);
  return rc;
}

std::string FindSchemaObjectCalling(sqlite3* db, std::string_view name) {
  for (const std::string& database_name : DatabasesInLookupOrder(db)) {
    // temp holds only what this connection created itself.
    if (database_name == "temp") continue;
    const std::string sql = "SELECT type, name, sql FROM " + QuoteIdentifier(database_name) +
                            ".sqlite_master WHERE type IN ('table', 'index')";
    for (const std::vector<std::string>& object : Rows(db, sql, 3)) {
      if (CallsFunction(object[2], name)) {
        return object[0] + " '" + object[1] + "' of database '" + database_name + "'";
      }
    }
  }
  return "";
}

}  // namespace sqlite_parquet

// The shadow table `<table>_schema` holding a `parquet` table's column list (stored_schema.h).
#include "ext/table/stored_schema.h"

#include <cstring>
#include <iterator>
#include <new>

#include "ext/common/options.h"
#include "ext/common/schema_guard.h"
#include "ext/common/statement_effects.h"

namespace sqlite_parquet {

namespace {

constexpr const char* kSuffix = "schema";
// The shadow table's columns, as CREATE TABLE declares them and PRAGMA table_xinfo reports
// them back.
struct ShadowColumn {
  const char* name;
  const char* type;
};
constexpr ShadowColumn kShadowColumns[] = {
    {"position", "INTEGER"}, {"kind", "TEXT"}, {"name", "TEXT"}, {"declared_type", "TEXT"}, {"nested", "INTEGER"}};
constexpr const char* kShadowDefinition =
    "(position INTEGER PRIMARY KEY, kind TEXT NOT NULL, name TEXT NOT NULL, declared_type TEXT NOT NULL, "
    "nested INTEGER NOT NULL)";
// Bounds on what a stored list may hold: SQLite's largest column count, and a name length
// far beyond any real file's.
constexpr int kMaxStoredColumns = 32767;
constexpr int kMaxStoredText = 65536;

std::string ShadowName(const std::string& table) { return table + "_" + kSuffix; }

// `"schema"."name"` with both quoted.
std::string Qualified(const std::string& schema, const std::string& name) {
  return QuoteIdentifier(schema) + "." + QuoteIdentifier(name);
}

bool Run(sqlite3* db, const std::string& sql, std::string* error) {
  char* message = nullptr;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message) == SQLITE_OK) return true;
  *error = message ? message : sqlite3_errmsg(db);
  sqlite3_free(message);
  return false;
}

const char* KindName(StoredColumn::Kind kind) { return kind == StoredColumn::Kind::kFile ? "file" : "hive"; }

// A TEXT value of at most kMaxStoredText bytes without a NUL byte, into *out.
bool ReadText(sqlite3_stmt* statement, int column, std::string* out) {
  if (sqlite3_column_type(statement, column) != SQLITE_TEXT) return false;
  const unsigned char* text = sqlite3_column_text(statement, column);
  const int bytes = sqlite3_column_bytes(statement, column);
  if (text == nullptr || bytes > kMaxStoredText) return false;
  if (std::memchr(text, 0, static_cast<size_t>(bytes)) != nullptr) return false;
  out->assign(reinterpret_cast<const char*>(text), static_cast<size_t>(bytes));
  return true;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Whether the shadow table found under the name is an ordinary table with exactly the
// columns this module creates, none generated: reading it runs nothing of the schema.
bool CheckShadowTable(sqlite3* db, const std::string& schema, const std::string& shadow, std::string* problem) {
  char* sql = sqlite3_mprintf("PRAGMA \"%w\".table_xinfo(\"%w\")", schema.c_str(), shadow.c_str());
  if (sql == nullptr) throw std::bad_alloc();
  StatementGuard guard;
  const int rc = sqlite3_prepare_v2(db, sql, -1, &guard.stmt, nullptr);
  sqlite3_free(sql);
  if (rc != SQLITE_OK) {
    *problem = sqlite3_errmsg(db);
    return false;
  }
  size_t index = 0;
  while (sqlite3_step(guard.stmt) == SQLITE_ROW) {
    // cid, name, type, notnull, dflt_value, pk, hidden
    const char* name = reinterpret_cast<const char*>(sqlite3_column_text(guard.stmt, 1));
    const char* type = reinterpret_cast<const char*>(sqlite3_column_text(guard.stmt, 2));
    const bool matches = index < std::size(kShadowColumns) && name && type &&
                         std::strcmp(name, kShadowColumns[index].name) == 0 &&
                         sqlite3_stricmp(type, kShadowColumns[index].type) == 0 &&
                         sqlite3_column_int(guard.stmt, 6) == 0;
    if (!matches) {
      *problem = "its columns are not the ones this extension creates";
      return false;
    }
    index++;
  }
  if (index != std::size(kShadowColumns)) {
    *problem = "its columns are not the ones this extension creates";
    return false;
  }
  return true;
}

}  // namespace

bool IsStoredSchemaSuffix(const char* suffix) { return sqlite3_stricmp(suffix, kSuffix) == 0; }

bool IsStorableDeclaredType(const std::string& type) {
  if (type.empty()) return true;
  const size_t space = type.find(' ');
  const std::string first = type.substr(0, space);
  if (first != "INTEGER" && first != "REAL" && first != "TEXT" && first != "BLOB") return false;
  if (space == std::string::npos) return true;
  const std::string word = type.substr(space + 1);
  static const char* const kWords[] = {"BOOLEAN",          "FLOAT",            "FLOAT16",         "JSON",
                                       "ENUM",             "BSON",             "GEOMETRY",        "GEOGRAPHY",
                                       "UUID",             "DATE",             "TIMESTAMP",       "TIMESTAMP_MILLIS",
                                       "TIMESTAMP_MICROS", "TIMESTAMP_NANOS",  "TIME_MILLIS",     "TIME_MICROS",
                                       "TIME_NANOS"};
  for (const char* known : kWords) {
    if (word == known) return true;
  }
  // Whether word[i..] is digits followed by `end` ('\0': the word's end); *after: past it.
  auto digits = [&word](size_t i, char end, size_t* after) {
    const size_t start = i;
    while (i < word.size() && IsDigit(word[i])) i++;
    if (i == start) return false;
    if (end == '\0') return i == word.size();
    if (i == word.size() || word[i] != end) return false;
    *after = i + 1;
    return true;
  };
  size_t after = 0;
  if (word.rfind("UINT", 0) == 0) return digits(4, '\0', &after);
  if (word.rfind("DECIMAL(", 0) == 0) {
    return digits(8, ',', &after) && digits(after, ')', &after) && after == word.size();
  }
  return false;
}

bool SaveStoredSchema(sqlite3* db, const std::string& schema, const std::string& table,
                      const std::vector<StoredColumn>& columns, std::string* error) {
  const std::string shadow = Qualified(schema, ShadowName(table));
  // The rows' INSERT leaves last_insert_rowid() and changes() as they were.
  const StatementEffectsGuard effects(db);
  if (!Run(db, "CREATE TABLE " + shadow + kShadowDefinition, error)) return false;
  StatementGuard guard;
  const std::string insert =
      "INSERT INTO " + shadow + "(position, kind, name, declared_type, nested) VALUES (?1, ?2, ?3, ?4, ?5)";
  bool saved = sqlite3_prepare_v2(db, insert.c_str(), -1, &guard.stmt, nullptr) == SQLITE_OK;
  for (size_t i = 0; saved && i < columns.size(); i++) {
    const StoredColumn& column = columns[i];
    sqlite3_bind_int64(guard.stmt, 1, static_cast<sqlite3_int64>(i));
    sqlite3_bind_text(guard.stmt, 2, KindName(column.kind), -1, SQLITE_STATIC);
    sqlite3_bind_text(guard.stmt, 3, column.name.data(), static_cast<int>(column.name.size()), SQLITE_TRANSIENT);
    sqlite3_bind_text(guard.stmt, 4, column.declared_type.data(), static_cast<int>(column.declared_type.size()),
                      SQLITE_TRANSIENT);
    sqlite3_bind_int(guard.stmt, 5, column.nested ? 1 : 0);
    saved = sqlite3_step(guard.stmt) == SQLITE_DONE && sqlite3_reset(guard.stmt) == SQLITE_OK;
  }
  if (!saved) {
    *error = sqlite3_errmsg(db);
    std::string ignored;
    Run(db, "DROP TABLE " + shadow, &ignored);
  }
  return saved;
}

StoredSchemaState LoadStoredSchema(sqlite3* db, const std::string& schema, const std::string& table,
                                   std::vector<StoredColumn>* columns, std::string* problem) {
  const std::string shadow = ShadowName(table);
  {
    // The catalog of the table's own schema (temp's is reached as temp.sqlite_master).
    char* sql = sqlite3_mprintf("SELECT type, rootpage, sql FROM \"%w\".sqlite_master WHERE name = ?1 COLLATE NOCASE",
                                schema.c_str());
    if (sql == nullptr) throw std::bad_alloc();
    StatementGuard guard;
    const int rc = sqlite3_prepare_v2(db, sql, -1, &guard.stmt, nullptr);
    sqlite3_free(sql);
    if (rc != SQLITE_OK) {
      *problem = sqlite3_errmsg(db);
      return StoredSchemaState::kInvalid;
    }
    sqlite3_bind_text(guard.stmt, 1, shadow.c_str(), -1, SQLITE_TRANSIENT);
    if (sqlite3_step(guard.stmt) != SQLITE_ROW) return StoredSchemaState::kMissing;
    const char* type = reinterpret_cast<const char*>(sqlite3_column_text(guard.stmt, 0));
    const char* create = reinterpret_cast<const char*>(sqlite3_column_text(guard.stmt, 2));
    if (!IsOrdinaryTableEntry(type, sqlite3_column_int64(guard.stmt, 1), create)) {
      *problem = "'" + shadow + "' is not an ordinary table";
      return StoredSchemaState::kInvalid;
    }
  }
  std::string why;
  if (!CheckShadowTable(db, schema, shadow, &why)) {
    *problem = "'" + shadow + "': " + why;
    return StoredSchemaState::kInvalid;
  }
  const std::string select =
      "SELECT kind, name, declared_type, nested FROM " + Qualified(schema, shadow) + " ORDER BY position";
  StatementGuard guard;
  if (sqlite3_prepare_v2(db, select.c_str(), -1, &guard.stmt, nullptr) != SQLITE_OK) {
    *problem = "'" + shadow + "' cannot be read: " + sqlite3_errmsg(db);
    return StoredSchemaState::kInvalid;
  }
  columns->clear();
  bool any_file = false, any_hive = false;
  int rc;
  while ((rc = sqlite3_step(guard.stmt)) == SQLITE_ROW) {
    StoredColumn column;
    std::string kind;
    const bool readable = static_cast<int>(columns->size()) < kMaxStoredColumns && ReadText(guard.stmt, 0, &kind) &&
                          ReadText(guard.stmt, 1, &column.name) && ReadText(guard.stmt, 2, &column.declared_type) &&
                          sqlite3_column_type(guard.stmt, 3) == SQLITE_INTEGER;
    const sqlite3_int64 nested = readable ? sqlite3_column_int64(guard.stmt, 3) : -1;
    bool valid = readable && (nested == 0 || nested == 1) && !column.name.empty();
    if (valid && kind == "file") {
      column.kind = StoredColumn::Kind::kFile;
      valid = !any_hive && IsStorableDeclaredType(column.declared_type);
      any_file = true;
    } else if (valid && kind == "hive") {
      column.kind = StoredColumn::Kind::kHive;
      valid = nested == 0 && (column.declared_type == "INTEGER" || column.declared_type == "REAL" ||
                              column.declared_type == "TEXT");
      any_hive = true;
    } else {
      valid = false;
    }
    if (!valid) {
      *problem = "'" + shadow + "' holds a row this extension does not write (row " +
                 std::to_string(columns->size() + 1) + ")";
      return StoredSchemaState::kInvalid;
    }
    column.nested = nested == 1;
    columns->push_back(std::move(column));
  }
  if (rc != SQLITE_DONE) {
    *problem = "'" + shadow + "' cannot be read: " + sqlite3_errmsg(db);
    return StoredSchemaState::kInvalid;
  }
  if (!any_file) {
    *problem = "'" + shadow + "' holds no file column";
    return StoredSchemaState::kInvalid;
  }
  return StoredSchemaState::kLoaded;
}

bool DropStoredSchema(sqlite3* db, const std::string& schema, const std::string& table, std::string* error) {
  return Run(db, "DROP TABLE " + Qualified(schema, ShadowName(table)), error);
}

bool RenameStoredSchema(sqlite3* db, const std::string& schema, const std::string& table,
                        const std::string& new_table, std::string* error) {
  char* sql = sqlite3_mprintf("ALTER TABLE \"%w\".\"%w\" RENAME TO \"%w\"", schema.c_str(), ShadowName(table).c_str(),
                              ShadowName(new_table).c_str());
  if (sql == nullptr) throw std::bad_alloc();
  const std::string text = sql;
  sqlite3_free(sql);
  return Run(db, text, error);
}

}  // namespace sqlite_parquet

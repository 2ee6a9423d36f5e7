// The parquet table's persistent metadata cache: a MetadataStore over an ordinary table of
// the table's database (metadata_cache.h).
#include "ext/table/metadata_cache.h"

#include <algorithm>
#include <cstring>
#include <ctime>
#include <new>

#include "ext/common/options.h"
#include "ext/common/schema_guard.h"
#include "ext/common/statement_effects.h"

namespace sqlite_parquet {

namespace {

constexpr const char* kDefinition =
    "(file_key TEXT PRIMARY KEY, file TEXT NOT NULL, size INTEGER NOT NULL, validator TEXT NOT NULL, "
    "tail_offset INTEGER NOT NULL, tail BLOB NOT NULL, last_used INTEGER NOT NULL)";
constexpr size_t kMaxNameBytes = 128;
constexpr size_t kRowsPerInsert = 64;     // 7 parameters each: within SQLite's 999 before 3.32
constexpr size_t kKeysPerStatement = 500;
constexpr int64_t kLastUseGranularity = 3600;  // seconds: a row's last use is rewritten at most hourly

// The statement that creates cache table `name`, as SQLite keeps it in sqlite_master.
std::string TableSql(const std::string& name) { return "CREATE TABLE " + QuoteIdentifier(name) + kDefinition; }

int64_t Now() { return static_cast<int64_t>(std::time(nullptr)); }

const char* Text(sqlite3_stmt* statement, int column) {
  return reinterpret_cast<const char*>(sqlite3_column_text(statement, column));
}

bool EqualNoCase(const char* a, const std::string& b) {
  return a != nullptr && std::strlen(a) == b.size() && sqlite3_strnicmp(a, b.c_str(), static_cast<int>(b.size())) == 0;
}

bool Prepare(sqlite3* db, const std::string& sql, StatementGuard* guard) {
  return sqlite3_prepare_v2(db, sql.c_str(), -1, &guard->stmt, nullptr) == SQLITE_OK;
}

void BindText(sqlite3_stmt* statement, int index, const std::string& text) {
  sqlite3_bind_text(statement, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
}

// "?1, ?2, ..., ?n" from `first`.
std::string Parameters(size_t first, size_t count) {
  std::string list;
  for (size_t i = 0; i < count; i++) list += (i ? ", ?" : "?") + std::to_string(first + i);
  return list;
}

}  // namespace

std::string MetadataCacheNameProblem(const std::string& name) {
  if (name.empty()) return "metadata_cache needs a table name";
  if (name.size() > kMaxNameBytes || name.find('\0') != std::string::npos || sqlite3_strnicmp(name.c_str(), "sqlite_", 7) == 0) {
    return "invalid metadata_cache table name '" + name.substr(0, std::min(name.find('\0'), kMaxNameBytes)) +
           "': a name of 1 to 128 bytes, without NUL bytes, not starting with sqlite_";
  }
  return "";
}

bool CreateMetadataCacheTable(sqlite3* db, const std::string& schema, const std::string& name, std::string* error) {
  SqliteMetadataStore probe(db, schema, name, 0);
  std::string problem;
  switch (probe.Check(&problem)) {
    case SqliteMetadataStore::State::kReady: return true;
    case SqliteMetadataStore::State::kInvalid: *error = problem; return false;
    case SqliteMetadataStore::State::kMissing: break;
  }
  const std::string sql = "CREATE TABLE " + QuoteIdentifier(schema) + "." + QuoteIdentifier(name) + kDefinition;
  char* message = nullptr;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message) == SQLITE_OK) return true;
  *error = "cannot create metadata_cache table '" + name + "': " + (message ? message : sqlite3_errmsg(db));
  sqlite3_free(message);
  return false;
}

SqliteMetadataStore::SqliteMetadataStore(sqlite3* db, std::string schema, std::string table, int64_t max_bytes,
                                         std::shared_ptr<const std::atomic<bool>> from_file_writes)
    : db_(db), schema_(std::move(schema)), table_(std::move(table)),
      qualified_(QuoteIdentifier(schema_) + "." + QuoteIdentifier(table_)), max_bytes_(max_bytes),
      from_file_writes_(std::move(from_file_writes)) {}

SqliteMetadataStore::State SqliteMetadataStore::Check(std::string* problem) {
  ready_ = writable_ = false;
  const std::string where = "metadata_cache table '" + table_ + "' of database '" + schema_ + "'";
  StatementGuard objects;
  if (!Prepare(db_,
               "SELECT type, name, rootpage, sql FROM " + QuoteIdentifier(schema_) +
                   ".sqlite_master WHERE tbl_name = ?1 COLLATE NOCASE OR name = ?1 COLLATE NOCASE",
               &objects)) {
    *problem = "cannot read the schema for " + where + ": " + sqlite3_errmsg(db_);
    return State::kInvalid;
  }
  BindText(objects.stmt, 1, table_);
  bool table_found = false;
  std::string stored_name;
  while (sqlite3_step(objects.stmt) == SQLITE_ROW) {
    const char* type = Text(objects.stmt, 0);
    const char* name = Text(objects.stmt, 1);
    const char* sql = Text(objects.stmt, 3);
    if (type && std::strcmp(type, "table") == 0 && EqualNoCase(name, table_)) {
      if (!IsOrdinaryTableEntry(type, sqlite3_column_int64(objects.stmt, 2), sql) || TableSql(name) != sql) {
        *problem = where + " is not a metadata cache table (its definition is not " + TableSql(table_) + ")";
        return State::kInvalid;
      }
      table_found = true;
      stored_name = name;
      continue;
    }
    if (type && std::strcmp(type, "index") == 0 && sql == nullptr && EqualNoCase(name, "sqlite_autoindex_" + table_ + "_1")) {
      continue;  // its primary key
    }
    *problem = where + " is not a metadata cache table (" + (type ? type : "an object") + " '" + (name ? name : "") +
               "' names it)";
    return State::kInvalid;
  }
  if (!table_found) return State::kMissing;
  ready_ = true;
  writable_ = sqlite3_db_readonly(db_, schema_.c_str()) == 0;
  // A foreign key pointing at the cache would make its deletes act on other tables.
  StatementGuard foreign_keys;
  if (writable_ && Prepare(db_, "PRAGMA foreign_keys", &foreign_keys) && sqlite3_step(foreign_keys.stmt) == SQLITE_ROW &&
      sqlite3_column_int(foreign_keys.stmt, 0) != 0) {
    StatementGuard tables;
    if (!Prepare(db_,
                 "SELECT name FROM " + QuoteIdentifier(schema_) +
                     ".sqlite_master WHERE type = 'table' AND sql LIKE '%references%'",
                 &tables)) {
      writable_ = false;
    }
    while (writable_ && sqlite3_step(tables.stmt) == SQLITE_ROW) {
      const char* child = Text(tables.stmt, 0);
      StatementGuard list;
      if (child == nullptr ||
          !Prepare(db_, "PRAGMA " + QuoteIdentifier(schema_) + ".foreign_key_list(" + QuoteIdentifier(child) + ")", &list)) {
        writable_ = false;
        break;
      }
      while (sqlite3_step(list.stmt) == SQLITE_ROW) {
        if (EqualNoCase(Text(list.stmt, 2), table_)) writable_ = false;
      }
    }
  }
  return State::kReady;
}

std::shared_ptr<const parquet::StoredTail> SqliteMetadataStore::Find(const std::string& key) {
  if (!ready_) return nullptr;
  if (auto it = pending_.find(key); it != pending_.end()) {
    return std::make_shared<parquet::StoredTail>(parquet::StoredTail{it->second.version, *it->second.tail});
  }
  StatementGuard find;
  if (!Prepare(db_,
               "SELECT size, validator, tail_offset, CASE WHEN typeof(tail) = 'blob' AND length(tail) <= ?2 THEN tail END, "
               "last_used, file FROM " + qualified_ + " WHERE file_key = ?1 LIMIT 4",
               &find)) {
    return nullptr;
  }
  BindText(find.stmt, 1, key);
  sqlite3_bind_int64(find.stmt, 2, static_cast<sqlite3_int64>(parquet::kMaxStoredTailBytes));
  while (sqlite3_step(find.stmt) == SQLITE_ROW) {
    // Every value is checked for its type: the row may have been written by anyone.
    if (sqlite3_column_type(find.stmt, 0) != SQLITE_INTEGER || sqlite3_column_type(find.stmt, 1) != SQLITE_TEXT ||
        sqlite3_column_type(find.stmt, 2) != SQLITE_INTEGER || sqlite3_column_type(find.stmt, 3) != SQLITE_BLOB) {
      continue;
    }
    const sqlite3_int64 size = sqlite3_column_int64(find.stmt, 0), offset = sqlite3_column_int64(find.stmt, 2);
    const auto* bytes = static_cast<const uint8_t*>(sqlite3_column_blob(find.stmt, 3));
    const int length = sqlite3_column_bytes(find.stmt, 3);
    if (size < 0 || offset < 0 || bytes == nullptr || length <= 0) continue;
    auto stored = std::make_shared<parquet::StoredTail>();
    stored->version.key = key;
    stored->version.size = static_cast<uint64_t>(size);
    const char* validator = static_cast<const char*>(sqlite3_column_blob(find.stmt, 1));
    stored->version.validator.assign(validator ? validator : "", static_cast<size_t>(sqlite3_column_bytes(find.stmt, 1)));
    stored->tail.offset = static_cast<uint64_t>(offset);
    stored->tail.bytes.assign(bytes, bytes + length);
    if (!parquet::FitsFileEnd(stored->tail, stored->version.size)) continue;
    if (sqlite3_column_type(find.stmt, 4) != SQLITE_INTEGER ||
        sqlite3_column_int64(find.stmt, 4) < Now() - kLastUseGranularity) {
      used_.push_back(key);
    }
    return stored;
  }
  return nullptr;
}

void SqliteMetadataStore::Remember(const parquet::FileVersion& version, std::shared_ptr<const parquet::FileTail> tail) {
  if (!ready_ || !writable_ || !WritesAllowed() || !tail || static_cast<int64_t>(tail->bytes.size()) > max_bytes_) return;
  // A table read from a database file never stores what ambient credentials fetched.
  if (from_file_writes_ && version.ambient_credentials) return;
  // A file opened from the process's own footer cache may have its row already (one Find
  // would use: a forgotten row is replaced).
  StatementGuard stored;
  const bool forgotten = std::find(forgotten_.begin(), forgotten_.end(), version.key) != forgotten_.end();
  if (!forgotten && Prepare(db_,
                            "SELECT 1 FROM " + qualified_ +
                                " WHERE file_key = ?1 AND size = ?2 AND validator = ?3 AND typeof(tail) = 'blob' AND "
                                "typeof(tail_offset) = 'integer' AND tail_offset + length(tail) = size",
                            &stored)) {
    BindText(stored.stmt, 1, version.key);
    sqlite3_bind_int64(stored.stmt, 2, static_cast<sqlite3_int64>(version.size));
    BindText(stored.stmt, 3, version.validator);
    if (sqlite3_step(stored.stmt) == SQLITE_ROW) return;
  }
  pending_[version.key] = Pending{version, std::move(tail)};
}

void SqliteMetadataStore::Forget(const parquet::FileVersion& version) {
  pending_.erase(version.key);
  if (ready_ && writable_ && WritesAllowed()) forgotten_.push_back(version.key);
}

bool SqliteMetadataStore::Execute(const std::string& sql, const std::vector<std::string>& texts) {
  StatementGuard statement;
  if (!Prepare(db_, sql, &statement)) return false;
  for (size_t i = 0; i < texts.size(); i++) BindText(statement.stmt, static_cast<int>(i + 1), texts[i]);
  return sqlite3_step(statement.stmt) == SQLITE_DONE;
}

void SqliteMetadataStore::Flush() {
  if (ready_ && writable_ && WritesAllowed() && (!forgotten_.empty() || !used_.empty() || !pending_.empty())) {
    // The writes leave last_insert_rowid() and changes() as the application's statement left them.
    const StatementEffectsGuard effects(db_);
    // Keys in statements of at most kKeysPerStatement: each statement is one write.
    auto for_keys = [this](const std::string& head, std::vector<std::string>* keys) {
      for (size_t done = 0; done < keys->size(); done += kKeysPerStatement) {
        const size_t count = std::min(kKeysPerStatement, keys->size() - done);
        Execute(head + "(" + Parameters(1, count) + ")",
                std::vector<std::string>(keys->begin() + static_cast<std::ptrdiff_t>(done),
                                         keys->begin() + static_cast<std::ptrdiff_t>(done + count)));
      }
    };
    for_keys("DELETE FROM " + qualified_ + " WHERE file_key IN ", &forgotten_);
    for_keys("UPDATE " + qualified_ + " SET last_used = " + std::to_string(Now()) + " WHERE file_key IN ", &used_);
    if (!pending_.empty()) {
      WritePending();
      Evict();
    }
  }
  pending_.clear();
  forgotten_.clear();
  used_.clear();
}

void SqliteMetadataStore::WritePending() {
  std::vector<const Pending*> rows;
  for (const auto& [key, entry] : pending_) rows.push_back(&entry);
  const int64_t now = Now();
  for (size_t done = 0; done < rows.size(); done += kRowsPerInsert) {
    const size_t count = std::min(kRowsPerInsert, rows.size() - done);
    std::string sql = "INSERT OR REPLACE INTO " + qualified_ +
                      "(file_key, file, size, validator, tail_offset, tail, last_used) VALUES ";
    for (size_t i = 0; i < count; i++) sql += (i ? ", (" : "(") + Parameters(i * 7 + 1, 7) + ")";
    StatementGuard insert;
    if (!Prepare(db_, sql, &insert)) return;
    for (size_t i = 0; i < count; i++) {
      const Pending& entry = *rows[done + i];
      const int p = static_cast<int>(i * 7);
      BindText(insert.stmt, p + 1, entry.version.key);
      BindText(insert.stmt, p + 2, entry.version.name);
      sqlite3_bind_int64(insert.stmt, p + 3, static_cast<sqlite3_int64>(entry.version.size));
      BindText(insert.stmt, p + 4, entry.version.validator);
      sqlite3_bind_int64(insert.stmt, p + 5, static_cast<sqlite3_int64>(entry.tail->offset));
      sqlite3_bind_blob(insert.stmt, p + 6, entry.tail->bytes.data(), static_cast<int>(entry.tail->bytes.size()),
                        SQLITE_STATIC);
      sqlite3_bind_int64(insert.stmt, p + 7, now);
    }
    if (sqlite3_step(insert.stmt) != SQLITE_DONE) return;
  }
}

void SqliteMetadataStore::Evict() {
  StatementGuard total;
  if (!Prepare(db_, "SELECT total(length(tail)) FROM " + qualified_, &total) || sqlite3_step(total.stmt) != SQLITE_ROW) {
    return;
  }
  double excess = sqlite3_column_double(total.stmt, 0) - static_cast<double>(max_bytes_);
  if (excess <= 0) return;
  StatementGuard oldest;
  if (!Prepare(db_, "SELECT length(tail) FROM " + qualified_ + " ORDER BY last_used, rowid", &oldest)) return;
  int64_t count = 0;
  while (excess > 0 && sqlite3_step(oldest.stmt) == SQLITE_ROW) {
    excess -= sqlite3_column_double(oldest.stmt, 0);
    count++;
  }
  sqlite3_finalize(oldest.stmt);
  oldest.stmt = nullptr;
  Execute("DELETE FROM " + qualified_ + " WHERE rowid IN (SELECT rowid FROM " + qualified_ +
              " ORDER BY last_used, rowid LIMIT " + std::to_string(count) + ")",
          {});
}

}  // namespace sqlite_parquet

// The defences against schema objects calling the extension's file-writing function (see
// schema_guard.h).
#include "ext/schema_guard.h"

#include <stdexcept>
#include <vector>

#include "ext/options.h"

namespace sqlite_parquet {

namespace {

// sqlite3IsIdChar: the bytes SQLite's tokenizer takes as part of an identifier.
bool IsIdentifierByte(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
         c >= 0x80;
}

unsigned char LowerAscii(unsigned char c) { return c >= 'A' && c <= 'Z' ? static_cast<unsigned char>(c - 'A' + 'a') : c; }

// Owns a prepared statement.
struct Statement {
  sqlite3_stmt* stmt = nullptr;
  ~Statement() { sqlite3_finalize(stmt); }
};

std::string ColumnText(sqlite3_stmt* stmt, int column) {
  const unsigned char* text = sqlite3_column_text(stmt, column);
  return text == nullptr ? std::string()
                         : std::string(reinterpret_cast<const char*>(text), static_cast<size_t>(sqlite3_column_bytes(stmt, column)));
}

// Runs `sql` and returns its rows' first `columns` columns as text; throws on an error.
std::vector<std::vector<std::string>> Rows(sqlite3* db, const std::string& sql, int columns) {
  Statement statement;
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

// Whether the first byte at or after `at` that is not white space or inside a comment is
// '(' (an unterminated comment runs to the end).
bool OpeningParenthesisFollows(std::string_view sql, size_t at) {
  while (at < sql.size()) {
    const char c = sql[at];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r') {
      ++at;
    } else if (sql.compare(at, 2, "--") == 0) {
      const size_t end = sql.find('\n', at);
      if (end == std::string_view::npos) return false;
      at = end + 1;
    } else if (sql.compare(at, 2, "/*") == 0) {
      const size_t end = sql.find("*/", at + 2);
      if (end == std::string_view::npos) return false;
      at = end + 2;
    } else {
      return c == '(';
    }
  }
  return false;
}

char ClosingQuote(char opening) {
  switch (opening) {
    case '"': return '"';
    case '`': return '`';
    case '\'': return '\'';
    case '[': return ']';
    default: return 0;
  }
}

}  // namespace

int ReloadSchemas(sqlite3* db) {
  int writable = 0;
  {
    Statement statement;
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

bool CallsFunction(std::string_view sql, std::string_view name) {
  if (name.empty() || sql.size() < name.size()) return false;
  for (size_t start = 0; start + name.size() <= sql.size(); ++start) {
    const char before = start > 0 ? sql[start - 1] : ' ';
    if (IsIdentifierByte(static_cast<unsigned char>(before))) continue;
    size_t i = 0;
    while (i < name.size() && LowerAscii(static_cast<unsigned char>(sql[start + i])) == static_cast<unsigned char>(name[i])) ++i;
    if (i < name.size()) continue;
    const size_t end = start + name.size();
    // The bare name, or the name quoted on its own ("x", `x`, [x], 'x'): each tried, so that
    // a quote that ends an earlier token does not hide a bare name after it.
    if (end < sql.size() && IsIdentifierByte(static_cast<unsigned char>(sql[end]))) continue;
    if (OpeningParenthesisFollows(sql, end)) return true;
    const char closing = ClosingQuote(before);
    if (closing != 0 && end < sql.size() && sql[end] == closing && OpeningParenthesisFollows(sql, end + 1)) return true;
  }
  return false;
}

std::string FindSchemaObjectCalling(sqlite3* db, std::string_view name) {
  for (const std::vector<std::string>& database : Rows(db, "SELECT name FROM pragma_database_list", 1)) {
    // temp holds only what this connection created itself.
    if (database[0] == "temp") continue;
    const std::string sql = "SELECT type, name, sql FROM " + QuoteIdentifier(database[0]) +
                            ".sqlite_master WHERE type IN ('table', 'index')";
    for (const std::vector<std::string>& object : Rows(db, sql, 3)) {
      if (CallsFunction(object[2], name)) {
        return object[0] + " '" + object[1] + "' of database '" + database[0] + "'";
      }
    }
  }
  return "";
}

}  // namespace sqlite_parquet

// parquet_copy's query (copy_query.h): preparing and checking it, and running it through the
// row sink or step by step.
#include "ext/copy/copy_query.h"

#include <cctype>
#include <new>
#include <utility>

#include "format/values/text.h"

namespace sqlite_parquet {

CopyQuery::CopyQuery(sqlite3* db, const std::string& query) : db_(db) {
  const char* tail = nullptr;
  if (sqlite3_prepare_v2(db_, query.c_str(), static_cast<int>(query.size()), &statement_.stmt, &tail) != SQLITE_OK) {
    throw CopyError(sqlite3_errmsg(db_));
  }
  if (statement_.stmt == nullptr) throw CopyError("the query is empty");
  text_.assign(query.c_str(), tail != nullptr ? static_cast<size_t>(tail - query.c_str()) : query.size());
  while (!text_.empty() && (text_.back() == ';' || std::isspace(static_cast<unsigned char>(text_.back())))) {
    text_.pop_back();
  }
  if (tail != nullptr && *tail != '\0') {
    StatementGuard rest;
    if (sqlite3_prepare_v2(db_, tail, -1, &rest.stmt, nullptr) != SQLITE_OK || rest.stmt != nullptr) {
      throw CopyError("the query must be a single statement");
    }
  }
  if (!sqlite3_stmt_readonly(statement_.stmt)) throw CopyError("the query must not modify the database");
  // Nothing would bind a parameter: SQLite would read it as NULL and write the wrong rows.
  if (const int parameters = sqlite3_bind_parameter_count(statement_.stmt); parameters > 0) {
    const char* name = nullptr;  // NULL for a plain "?" (and for the gaps before a "?N")
    for (int i = 1; i <= parameters && name == nullptr; ++i) name = sqlite3_bind_parameter_name(statement_.stmt, i);
    throw CopyError("the query has a parameter (" + std::string(name ? name : "?") +
                    ") that nothing binds: write its value into the query");
  }
  const int count = sqlite3_column_count(statement_.stmt);
  if (count == 0) throw CopyError("the query returns no columns");
  for (int i = 0; i < count; ++i) {
    const char* name = sqlite3_column_name(statement_.stmt, i);
    if (name == nullptr) throw std::bad_alloc();
    ResultColumn column;
    column.name = name;
    if (const char* declared = sqlite3_column_decltype(statement_.stmt, i)) column.declared_type = declared;
    columns_.push_back(std::move(column));
  }
}

bool CopyQuery::RunThroughRowSink(CopyRowSink* sink) {
  // A query naming a table like the wrapper's subquery would see the subquery instead.
  if (parquet::AsciiLowercase(text_).find("parquet_copy query") != std::string::npos) return false;
  std::string sql = "WITH \"parquet_copy query\"(";
  std::string arguments = ":parquet_copy_rows_copier";
  for (size_t i = 0; i < columns_.size(); ++i) {
    const std::string name = "c" + std::to_string(i);
    sql += (i > 0 ? ", " : "") + name;
    arguments += ", " + name;
  }
  // The newline ends a trailing "--" comment of the query.
  sql += ") AS (\n" + text_ + "\n) SELECT parquet_copy_rows(" + arguments + ") FROM \"parquet_copy query\"";
  StatementGuard wrapped;
  if (sqlite3_prepare_v2(db_, sql.c_str(), static_cast<int>(sql.size()), &wrapped.stmt, nullptr) != SQLITE_OK ||
      wrapped.stmt == nullptr) {
    return false;
  }
  const int parameter = sqlite3_bind_parameter_index(wrapped.stmt, ":parquet_copy_rows_copier");
  if (parameter == 0 ||
      sqlite3_bind_pointer(wrapped.stmt, parameter, sink, kCopyRowSinkPointerType, nullptr) != SQLITE_OK) {
    return false;
  }
  int rc = sqlite3_step(wrapped.stmt);
  if (rc == SQLITE_ROW) rc = sqlite3_step(wrapped.stmt);  // the aggregate's one row, then done
  if (sink->error) std::rethrow_exception(sink->error);
  if (rc != SQLITE_DONE) ThrowQueryError(rc);
  return true;
}

bool CopyQuery::StepRow(sqlite3_value** cells) {
  const int rc = sqlite3_step(statement_.stmt);
  if (rc == SQLITE_DONE) return false;
  if (rc != SQLITE_ROW) ThrowQueryError(rc);
  for (size_t i = 0; i < columns_.size(); ++i) cells[i] = sqlite3_column_value(statement_.stmt, static_cast<int>(i));
  return true;
}

void CopyQuery::ThrowQueryError(int rc) {
  const std::string message = sqlite3_errmsg(db_);
  throw QueryError(rc, rc == SQLITE_INTERRUPT ? std::string("interrupted") : "parquet_copy: query failed: " + message);
}

void CopyRowSinkFinal(sqlite3_context* ctx) { sqlite3_result_null(ctx); }

}  // namespace sqlite_parquet

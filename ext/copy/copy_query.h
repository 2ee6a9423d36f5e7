// parquet_copy's query: prepared on the calling connection and checked (CopyQuery), then run
// with every row handed to a receiver (CopyQuery::Run). The rows come through the internal
// aggregate parquet_copy_rows, the row sink, when the query can be wrapped in it:
//
//   WITH "parquet_copy query"(c0, c1, ...) AS (<query>)
//   SELECT parquet_copy_rows(:parquet_copy_rows_copier, c0, c1, ...) FROM "parquet_copy query"
//
// so that each row reaches the receiver as the aggregate's argument array, from inside one
// sqlite3_step: no step per row and no sqlite3_column_value per cell, which take the
// connection's mutex and together cost SQLite about as much as producing the row (on the
// 14-column benchmark table, 1M rows: 0.43 s through the aggregate against 0.75-0.99 s
// stepped). SQLite keeps the rows in the query's order: a FROM clause with one subquery and
// no ORDER BY of its own neither drops nor reorders the subquery's ORDER BY. A query that
// names "parquet_copy query", or whose wrapped form does not prepare (a PRAGMA, EXPLAIN,
// more columns than a function takes arguments), is stepped row by row instead.
//
// The aggregate's step calls the receiver directly (a template on its type, no indirect
// call per row), so parquet_copy_rows is registered for one receiver type
// (RegisterCopyRowSink<Receiver>) and only CopyQuery::Run<Receiver> may use it. Any other
// call of parquet_copy_rows fails: its first argument must be the pointer Run binds.
#pragma once

#include <cstddef>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include "ext/common/sqlite_api.h"
#include "ext/copy/copy_layout.h"
#include "ext/copy/copy_output.h"

namespace sqlite_parquet {

// An error of the query itself, reported with its own SQLite result code.
class QueryError : public std::runtime_error {
 public:
  QueryError(int code, const std::string& message) : std::runtime_error(message), code_(code) {}
  int code() const { return code_; }

 private:
  int code_;
};

// What CopyQuery::Run binds as parquet_copy_rows' first argument, under this pointer type.
inline constexpr const char* kCopyRowSinkPointerType = "sqlite_parquet_copier";
struct CopyRowSink {
  void* receiver = nullptr;  // the Receiver of Run
  size_t width = 0;          // cells per row
  std::exception_ptr error;  // what the receiver threw (SQLite stops at that row)
};

class CopyQuery {
 public:
  // Prepares `query` on `db`. It must be one read-only statement without parameters that
  // returns columns; otherwise throws CopyError saying which rule it breaks (or SQLite's
  // message when it does not prepare).
  CopyQuery(sqlite3* db, const std::string& query);

  // The result columns, in order.
  const std::vector<ResultColumn>& columns() const { return columns_; }

  // Runs the query once, calling receiver.ReceiveRow(cells) with each row's cells in result
  // column order (valid during the call). What ReceiveRow throws stops the query and is
  // thrown again here; a failing query throws QueryError ("interrupted" on an interrupt).
  template <class Receiver>
  void Run(Receiver& receiver) {
    CopyRowSink sink;
    sink.receiver = &receiver;
    sink.width = columns_.size();
    if (RunThroughRowSink(&sink)) return;
    std::vector<sqlite3_value*> cells(columns_.size());
    while (StepRow(cells.data())) receiver.ReceiveRow(cells.data());
  }

 private:
  // Runs the wrapped query with `sink` bound; false, having run nothing, when the query
  // cannot be wrapped.
  bool RunThroughRowSink(CopyRowSink* sink);
  // Steps the query itself: false when done, else the row's cells in *cells.
  bool StepRow(sqlite3_value** cells);
  [[noreturn]] void ThrowQueryError(int rc);

  sqlite3* db_;
  StatementGuard statement_;  // the query (run by StepRow when the row sink cannot take it)
  std::string text_;          // its text, without a trailing ';'
  std::vector<ResultColumn> columns_;
};

// parquet_copy_rows(sink, cell, ...): the row sink's step, for CopyQuery::Run<Receiver>.
// The sink comes from the first argument of the aggregate's first row and is kept in the
// aggregate's context for its other rows (the wrapped query passes the same bound pointer
// in every row): one sqlite3_aggregate_context call a row instead of sqlite3_value_pointer's
// type check.
template <class Receiver>
void CopyRowSinkStep(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  auto** kept = static_cast<CopyRowSink**>(sqlite3_aggregate_context(ctx, sizeof(CopyRowSink*)));
  if (kept == nullptr) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  CopyRowSink* sink = *kept;
  if (sink == nullptr) {
    sink = argc > 0 ? static_cast<CopyRowSink*>(sqlite3_value_pointer(argv[0], kCopyRowSinkPointerType)) : nullptr;
    if (sink == nullptr) {
      sqlite3_result_error(ctx, "parquet_copy_rows: internal to parquet_copy, not for direct use", -1);
      return;
    }
    *kept = sink;
  }
  try {
    if (argc - 1 != static_cast<int>(sink->width)) throw CopyError("the row sink got a row of the wrong width");
    static_cast<Receiver*>(sink->receiver)->ReceiveRow(argv + 1);
  } catch (...) {
    sink->error = std::current_exception();
    sqlite3_result_error(ctx, "parquet_copy_rows: the row was not written", -1);
  }
}

void CopyRowSinkFinal(sqlite3_context* ctx);

// Registers parquet_copy_rows on `db` for CopyQuery::Run<Receiver>.
template <class Receiver>
int RegisterCopyRowSink(sqlite3* db) {
  return sqlite3_create_function_v2(db, "parquet_copy_rows", -1, SQLITE_UTF8 | SQLITE_DIRECTONLY, nullptr, nullptr,
                                    CopyRowSinkStep<Receiver>, CopyRowSinkFinal, nullptr);
}

}  // namespace sqlite_parquet

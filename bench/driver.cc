// bench_driver: times one SQL query inside SQLite (prepare + sqlite3_step loop + finalize,
// reading every column of every result row), the in-process equivalent of the shell's
// `.timer`. The benchmark harness (bench/run.mjs) starts one driver process per query and
// engine, so each process's peak RSS belongs to that query alone.
//
//   bench_driver --db PATH|:memory: [--readonly] [--extension build/parquet]...
//                [--setup SQL]... --sql SQL [--versus SQL] [--runs 3] [--warmup 1]
//                [--keep-rows 20] [--after SQL]
//
// --setup statements run first and are not timed (e.g. CREATE VIRTUAL TABLE temp.t USING
// parquet('f.parquet')). Then --warmup untimed runs and --runs timed runs of --sql. --after
// runs once at the end (e.g. a statistics query); its rows are reported as "after".
// Prints one JSON object: times_ms (each timed run, wall clock), cpu_times_ms (the same
// runs in process CPU time), rows (result rows of the last run),
// columns (the result's column names), result (its first --keep-rows rows), rss_base_kb / rss_peak_kb / rss_delta_kb (resident
// memory after set-up, the peak during the runs, and the growth), after ({columns, rows}).
// --versus times a second statement in the same process, alternating with --sql run by run
// (A B, B A, A B, ...), so that both see the same machine: on a shared machine whose speed
// drifts over tens of seconds, a ratio of two separately timed medians moves by more than the
// 5% some targets ask for. Its runs are reported as versus_times_ms, versus_cpu_times_ms,
// versus_rows and versus_result.
// Exit status 1 with a message on stderr when a statement fails.
#include <sqlite3.h>

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/bench_util.h"

namespace {

struct QueryResult {
  int64_t rows = 0;
  std::vector<std::string> column_names;
  std::vector<std::string> kept_rows;  // JSON arrays
};

std::string ValueJson(sqlite3_stmt* stmt, int column) {
  switch (sqlite3_column_type(stmt, column)) {
    case SQLITE_INTEGER: return std::to_string(sqlite3_column_int64(stmt, column));
    case SQLITE_FLOAT: return bench::JsonNumber(sqlite3_column_double(stmt, column));
    case SQLITE_TEXT: {
      const char* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, column));
      return bench::JsonString(std::string_view(text, static_cast<size_t>(sqlite3_column_bytes(stmt, column))));
    }
    case SQLITE_BLOB: return "\"<blob " + std::to_string(sqlite3_column_bytes(stmt, column)) + " bytes>\"";
    default: return "null";
  }
}

// Runs one statement to completion, reading every value of every row (as a client would)
// and keeping the first keep_rows rows as JSON.
QueryResult Run(sqlite3* db, const std::string& sql, size_t keep_rows) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    throw std::runtime_error(std::string("prepare: ") + sqlite3_errmsg(db) + "\n  in: " + sql);
  }
  QueryResult result;
  const int columns = sqlite3_column_count(stmt);
  for (int c = 0; c < columns; c++) {
    const char* name = sqlite3_column_name(stmt, c);
    result.column_names.push_back(name ? name : "");
  }
  int rc;
  uint64_t touched = 0;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    if (result.kept_rows.size() < keep_rows) {
      std::string row = "[";
      for (int c = 0; c < columns; c++) row += (c ? "," : "") + ValueJson(stmt, c);
      result.kept_rows.push_back(row + "]");
    } else {
      for (int c = 0; c < columns; c++) {
        switch (sqlite3_column_type(stmt, c)) {
          case SQLITE_INTEGER: touched += static_cast<uint64_t>(sqlite3_column_int64(stmt, c)); break;
          case SQLITE_FLOAT: touched += static_cast<uint64_t>(sqlite3_column_double(stmt, c) != 0); break;
          case SQLITE_TEXT: touched += static_cast<uint64_t>(sqlite3_column_bytes(stmt, c)); break;
          case SQLITE_BLOB: touched += static_cast<uint64_t>(sqlite3_column_bytes(stmt, c)); break;
          default: break;
        }
      }
    }
    result.rows++;
  }
  std::string error = rc == SQLITE_DONE ? "" : sqlite3_errmsg(db);
  sqlite3_finalize(stmt);
  if (!error.empty()) throw std::runtime_error("step: " + error + "\n  in: " + sql);
  if (touched == 0x5eed) std::fputc(' ', stderr);  // keeps the value reads from being optimised away
  return result;
}

std::string RowsJson(const std::vector<std::string>& rows) {
  std::string out = "[";
  for (size_t i = 0; i < rows.size(); i++) out += (i ? "," : "") + rows[i];
  return out + "]";
}

std::string NamesJson(const QueryResult& result) {
  std::string names = "[";
  for (size_t i = 0; i < result.column_names.size(); i++) {
    names += (i ? "," : "") + bench::JsonString(result.column_names[i]);
  }
  return names + "]";
}

// {"columns":[names],"rows":[[values]...]}
std::string TableJson(const QueryResult& result) {
  return "{\"columns\":" + NamesJson(result) + ",\"rows\":" + RowsJson(result.kept_rows) + "}";
}

}  // namespace

int main(int argc, char** argv) {
  bench::Flags flags(argc, argv);
  const std::string db_path = flags.Get("--db");
  const std::string sql = flags.Get("--sql");
  if (db_path.empty() || sql.empty()) {
    std::fputs("usage: bench_driver --db PATH [--readonly] [--extension PATH]... [--setup SQL]... --sql SQL "
               "[--versus SQL] [--runs N] [--warmup N] [--keep-rows N] [--after SQL]\n",
               stderr);
    return 2;
  }
  const int64_t runs = flags.GetInt("--runs", 3);
  const int64_t warmup = flags.GetInt("--warmup", 1);
  const size_t keep_rows = static_cast<size_t>(flags.GetInt("--keep-rows", 20));

  sqlite3* db = nullptr;
  const int open_flags = flags.Has("--readonly") ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  if (sqlite3_open_v2(db_path.c_str(), &db, open_flags, nullptr) != SQLITE_OK) {
    std::fprintf(stderr, "bench_driver: cannot open %s: %s\n", db_path.c_str(), sqlite3_errmsg(db));
    return 1;
  }
  try {
    for (const std::string& extension : flags.GetAll("--extension")) {
      sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 1, nullptr);
      char* error = nullptr;
      if (sqlite3_load_extension(db, extension.c_str(), nullptr, &error) != SQLITE_OK) {
        std::string message = error ? error : "unknown error";
        sqlite3_free(error);
        throw std::runtime_error("cannot load " + extension + ": " + message);
      }
    }
    for (const std::string& setup : flags.GetAll("--setup")) {
      char* error = nullptr;
      if (sqlite3_exec(db, setup.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
        std::string message = error ? error : "unknown error";
        sqlite3_free(error);
        throw std::runtime_error("setup: " + message + "\n  in: " + setup);
      }
    }

    const std::string versus_sql = flags.Get("--versus");
    bench::PeakRss rss;
    rss.Start();
    QueryResult result, versus;
    for (int64_t i = 0; i < warmup; i++) {
      result = Run(db, sql, keep_rows);
      if (!versus_sql.empty()) versus = Run(db, versus_sql, keep_rows);
    }
    std::vector<double> times, cpu_times, versus_times, versus_cpu_times;
    auto timed = [&](const std::string& statement, QueryResult* out, std::vector<double>* wall, std::vector<double>* cpu) {
      const double start = bench::NowMs();
      const double cpu_start = bench::CpuMs();
      *out = Run(db, statement, keep_rows);
      cpu->push_back(bench::CpuMs() - cpu_start);
      wall->push_back(bench::NowMs() - start);
    };
    for (int64_t i = 0; i < runs; i++) {
      const bool versus_first = !versus_sql.empty() && i % 2 == 1;
      if (versus_first) timed(versus_sql, &versus, &versus_times, &versus_cpu_times);
      timed(sql, &result, &times, &cpu_times);
      if (!versus_sql.empty() && !versus_first) timed(versus_sql, &versus, &versus_times, &versus_cpu_times);
    }
    const int64_t peak = rss.peak_kb();
    std::string after = "null";
    const std::string after_sql = flags.Get("--after");
    if (!after_sql.empty()) after = TableJson(Run(db, after_sql, 1000));

    std::string versus_json;
    if (!versus_sql.empty()) {
      versus_json = ",\"versus_times_ms\":" + bench::JsonTimes(versus_times) + ",\"versus_cpu_times_ms\":" +
                    bench::JsonTimes(versus_cpu_times) + ",\"versus_rows\":" + std::to_string(versus.rows) +
                    ",\"versus_result\":" + RowsJson(versus.kept_rows);
    }
    std::printf("{\"times_ms\":%s,\"cpu_times_ms\":%s,\"rows\":%lld,\"columns\":%s,\"result\":%s,\"rss_base_kb\":%lld,\"rss_peak_kb\":%lld,"
                "\"rss_delta_kb\":%lld,\"rss_reset\":%s,\"after\":%s%s}\n",
                bench::JsonTimes(times).c_str(), bench::JsonTimes(cpu_times).c_str(), static_cast<long long>(result.rows),
                NamesJson(result).c_str(), RowsJson(result.kept_rows).c_str(), static_cast<long long>(rss.baseline_kb()),
                static_cast<long long>(peak), static_cast<long long>(peak - rss.baseline_kb()),
                rss.reset_ok() ? "true" : "false", after.c_str(), versus_json.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_driver: %s\n", e.what());
    sqlite3_close(db);
    return 1;
  }
  sqlite3_close(db);
  return 0;
}

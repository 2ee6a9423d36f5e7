// The per-connection record of the last completed scan of each parquet table and the SQL
// function parquet_scan_stats (see scan_stats.h).
//
// USAGE
//
//   SELECT parquet_scan_stats('t');
//
// Returns a JSON object describing the last scan of parquet table `t` on this connection
// that reached its end or was closed (NULL before the first one):
//   {"files_total":1,"files_pruned":0,"row_groups_total":8,"row_groups_pruned_by_statistics":7,
//    ..., "rows_returned":3}
// The name is matched case-insensitively against the table names of this connection (a
// schema prefix "main." is accepted and ignored). The record is kept in memory per
// connection and forgotten when the table is dropped or the connection closes.
#include "ext/scan_stats.h"

#include <map>
#include <mutex>
#include <utility>

namespace sqlite_parquet {

namespace {

std::string Lower(std::string s) {
  for (char& c : s) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return s;
}

struct Registry {
  std::mutex mutex;
  std::map<std::pair<sqlite3*, std::string>, ScanStats> stats;
};

Registry& TheRegistry() {
  static Registry* registry = new Registry();  // never destroyed: used until unload
  return *registry;
}

void ScanStatsFunction(sqlite3_context* ctx, int, sqlite3_value** argv) {
  const unsigned char* text = sqlite3_value_text(argv[0]);
  if (text == nullptr) {
    sqlite3_result_null(ctx);
    return;
  }
  std::string name = Lower(reinterpret_cast<const char*>(text));
  if (name.rfind("main.", 0) == 0) name = name.substr(5);
  std::string json;
  {
    Registry& registry = TheRegistry();
    std::lock_guard<std::mutex> lock(registry.mutex);
    auto it = registry.stats.find({sqlite3_context_db_handle(ctx), name});
    if (it == registry.stats.end()) {
      sqlite3_result_null(ctx);
      return;
    }
    json = it->second.ToJson();
  }
  sqlite3_result_text64(ctx, json.data(), json.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
}

}  // namespace

std::string ScanStats::ToJson() const {
  const std::pair<const char*, int64_t> fields[] = {
      {"files_total", files_total},
      {"files_pruned", files_pruned},
      {"row_groups_total", row_groups_total},
      {"row_groups_pruned_by_statistics", row_groups_pruned_by_statistics},
      {"row_groups_pruned_by_dictionary", row_groups_pruned_by_dictionary},
      {"row_groups_pruned_by_bloom_filter", row_groups_pruned_by_bloom_filter},
      {"row_groups_pruned_by_row_position", row_groups_pruned_by_row_position},
      {"pages_total", pages_read + pages_skipped},
      {"pages_read", pages_read},
      {"pages_skipped", pages_skipped},
      {"dictionary_pages_read", dictionary_pages_read},
      {"bytes_read", bytes_read},
      {"rows_decoded", rows_decoded},
      {"rows_returned", rows_returned},
  };
  std::string json = "{";
  for (const auto& field : fields) {
    if (json.size() > 1) json += ",";
    json += "\"";
    json += field.first;
    json += "\":" + std::to_string(field.second);
  }
  return json + "}";
}

void RecordScanStats(sqlite3* db, const std::string& name, const ScanStats& stats) {
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  registry.stats[{db, Lower(name)}] = stats;
}

void ForgetScanStats(sqlite3* db, const std::string& name) {
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  registry.stats.erase({db, Lower(name)});
}

int RegisterScanStatsFunction(sqlite3* db) {
  return sqlite3_create_function_v2(db, "parquet_scan_stats", 1, SQLITE_UTF8 | SQLITE_DIRECTONLY, nullptr,
                                    ScanStatsFunction, nullptr, nullptr, nullptr);
}

}  // namespace sqlite_parquet

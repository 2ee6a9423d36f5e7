// The per-connection record of the last completed scan of each parquet table and the SQL
// function parquet_scan_stats (see scan_stats.h).
//
// USAGE
//
//   SELECT parquet_scan_stats('t');
//   SELECT * FROM parquet_scan_stats;        -- a row per table scanned on this connection
//   SELECT * FROM parquet_scan_stats('t');   -- the row of table t
//
// The scalar function returns a JSON object describing the last scan of parquet table `t`
// on this connection that reached its end or was closed (NULL before the first one):
//   {"files_total":1,"files_pruned":0,"row_groups_total":8,"row_groups_pruned_by_statistics":7,
//    ..., "rows_returned":3}
// The table-valued function has the same members as columns, after `table_name`. The name
// is matched case-insensitively against the table names of this connection (a schema
// prefix "main." is accepted and ignored). The record is kept in memory per connection and
// forgotten when the table is dropped or the connection closes.
#include "ext/table/scan_stats.h"
#include "ext/common/sqlite_values.h"

#include <cstring>
#include <map>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

namespace sqlite_parquet {

namespace {

std::string Lower(std::string s) {
  for (char& c : s) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return s;
}

struct Recorded {
  std::string name;  // as the table was created
  ScanStats stats;
};

struct Registry {
  std::mutex mutex;
  std::map<std::pair<sqlite3*, std::string>, Recorded> stats;  // by connection and lowercase name
};

// The members of ScanStats in their JSON / column order.
struct Field {
  const char* name;
  int64_t (*get)(const ScanStats&);
};

#define PQ_FIELD(member) {#member, [](const ScanStats& s) { return s.member; }}
const Field kFields[] = {
    PQ_FIELD(files_total),
    PQ_FIELD(files_pruned),
    PQ_FIELD(files_opened),
    PQ_FIELD(row_groups_total),
    PQ_FIELD(row_groups_pruned_by_statistics),
    PQ_FIELD(row_groups_pruned_by_dictionary),
    PQ_FIELD(row_groups_pruned_by_bloom_filter),
    PQ_FIELD(row_groups_pruned_by_page_index),
    PQ_FIELD(row_groups_pruned_by_row_position),
    {"pages_total", [](const ScanStats& s) { return s.pages_read + s.pages_skipped; }},
    PQ_FIELD(pages_read),
    PQ_FIELD(pages_skipped),
    PQ_FIELD(pages_pruned_by_page_index),
    PQ_FIELD(dictionary_pages_read),
    PQ_FIELD(pages_decompressed_ahead),
    PQ_FIELD(bytes_read),
    PQ_FIELD(rows_decoded),
    PQ_FIELD(rows_returned),
    PQ_FIELD(http_requests),
    PQ_FIELD(http_bytes_fetched),
    PQ_FIELD(http_read_ahead_peak),
    PQ_FIELD(list_requests),
    PQ_FIELD(objects_listed),
    PQ_FIELD(listing_fallbacks),
    PQ_FIELD(join_index_built),
    PQ_FIELD(join_index_bytes),
    PQ_FIELD(join_index_hits),
    PQ_FIELD(row_groups_pruned_by_join_index),
    PQ_FIELD(files_pruned_by_partition),
    PQ_FIELD(files_pruned_by_lake_statistics),
    PQ_FIELD(rows_deleted),
    PQ_FIELD(files_counted),
    PQ_FIELD(manifests_total),
    PQ_FIELD(manifests_pruned),
    PQ_FIELD(files_pruned_by_manifest),
};
#undef PQ_FIELD
constexpr int kNumFields = static_cast<int>(sizeof(kFields) / sizeof(kFields[0]));

std::string NormalName(const unsigned char* text) {
  std::string name = Lower(reinterpret_cast<const char*>(text));
  if (name.rfind("main.", 0) == 0) name = name.substr(5);
  return name;
}

Registry& TheRegistry() {
  static Registry registry;  // destroyed when the extension is unloaded
  return registry;
}

void ScanStatsFunction(sqlite3_context* ctx, int, sqlite3_value** argv) {
  const unsigned char* text = sqlite3_value_text(argv[0]);
  if (text == nullptr) {
    sqlite3_result_null(ctx);
    return;
  }
  const std::string name = NormalName(text);
  std::string json;
  {
    Registry& registry = TheRegistry();
    std::lock_guard<std::mutex> lock(registry.mutex);
    auto it = registry.stats.find({sqlite3_context_db_handle(ctx), name});
    if (it == registry.stats.end()) {
      sqlite3_result_null(ctx);
      return;
    }
    json = it->second.stats.ToJson();
  }
  sqlite3_result_text64(ctx, json.data(), json.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  sqlite3_result_subtype(ctx, kJsonSubtype);  // json_object() etc. embed it as an object
}

// ---- The table-valued form: an eponymous virtual table. ----

struct StatsTable {
  sqlite3_vtab base;  // must come first
  sqlite3* db;        // whose records it shows
};

struct StatsCursor {
  sqlite3_vtab_cursor base;  // must come first
  std::vector<Recorded> rows;
  size_t row = 0;
};

int StatsConnect(sqlite3* db, void* aux, int, const char* const*, sqlite3_vtab** out, char**) {
  std::string sql = "CREATE TABLE x(table_name TEXT";
  for (const Field& field : kFields) sql += std::string(", ") + field.name + " INTEGER";
  sql += ", name HIDDEN)";
  int rc = sqlite3_declare_vtab(db, sql.c_str());
  if (rc != SQLITE_OK) return rc;
  StatsTable* table = static_cast<StatsTable*>(sqlite3_malloc(sizeof(StatsTable)));
  if (!table) return SQLITE_NOMEM;
  std::memset(table, 0, sizeof(*table));
  table->db = static_cast<sqlite3*>(aux);
  sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS);
  *out = &table->base;
  return SQLITE_OK;
}

int StatsDisconnect(sqlite3_vtab* vtab) {
  sqlite3_free(vtab);
  return SQLITE_OK;
}

// idxNum 1: the hidden `name` column is constrained by = (argv[0]).
int StatsBestIndex(sqlite3_vtab*, sqlite3_index_info* info) {
  constexpr int kNameColumn = 1 + kNumFields;
  info->idxNum = 0;
  for (int i = 0; i < info->nConstraint; i++) {
    const auto& c = info->aConstraint[i];
    if (c.iColumn != kNameColumn || c.op != SQLITE_INDEX_CONSTRAINT_EQ) continue;
    if (!c.usable) return SQLITE_CONSTRAINT;
    info->aConstraintUsage[i].argvIndex = 1;
    info->aConstraintUsage[i].omit = 1;
    info->idxNum = 1;
    info->estimatedCost = 1;
    info->estimatedRows = 1;
    return SQLITE_OK;
  }
  info->estimatedCost = 100;
  info->estimatedRows = 10;
  return SQLITE_OK;
}

int StatsOpen(sqlite3_vtab*, sqlite3_vtab_cursor** out) {
  StatsCursor* cursor = new (std::nothrow) StatsCursor();
  if (!cursor) return SQLITE_NOMEM;
  std::memset(&cursor->base, 0, sizeof(cursor->base));
  *out = &cursor->base;
  return SQLITE_OK;
}

int StatsClose(sqlite3_vtab_cursor* base) {
  delete reinterpret_cast<StatsCursor*>(base);
  return SQLITE_OK;
}

int StatsFilter(sqlite3_vtab_cursor* base, int idx_num, const char*, int argc, sqlite3_value** argv) {
  StatsCursor* cursor = reinterpret_cast<StatsCursor*>(base);
  cursor->rows.clear();
  cursor->row = 0;
  std::string wanted;
  if (idx_num == 1 && argc > 0) {
    const unsigned char* text = sqlite3_value_text(argv[0]);
    if (!text) return SQLITE_OK;
    wanted = NormalName(text);
  }
  try {
    Registry& registry = TheRegistry();
    std::lock_guard<std::mutex> lock(registry.mutex);
    for (const auto& entry : registry.stats) {
      if (entry.first.first != reinterpret_cast<StatsTable*>(base->pVtab)->db) continue;
      if (idx_num == 1 && entry.first.second != wanted) continue;
      cursor->rows.push_back(entry.second);
    }
  } catch (const std::bad_alloc&) {
    return SQLITE_NOMEM;
  }
  return SQLITE_OK;
}

int StatsNext(sqlite3_vtab_cursor* base) {
  reinterpret_cast<StatsCursor*>(base)->row++;
  return SQLITE_OK;
}

int StatsEof(sqlite3_vtab_cursor* base) {
  StatsCursor* cursor = reinterpret_cast<StatsCursor*>(base);
  return cursor->row >= cursor->rows.size();
}

int StatsColumn(sqlite3_vtab_cursor* base, sqlite3_context* ctx, int column) {
  StatsCursor* cursor = reinterpret_cast<StatsCursor*>(base);
  const Recorded& row = cursor->rows[cursor->row];
  if (column == 0) {
    sqlite3_result_text64(ctx, row.name.data(), row.name.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  } else if (column <= kNumFields) {
    sqlite3_result_int64(ctx, kFields[column - 1].get(row.stats));
  } else {
    sqlite3_result_null(ctx);
  }
  return SQLITE_OK;
}

int StatsRowid(sqlite3_vtab_cursor* base, sqlite3_int64* rowid) {
  *rowid = static_cast<sqlite3_int64>(reinterpret_cast<StatsCursor*>(base)->row);
  return SQLITE_OK;
}

sqlite3_module stats_module = {
    /* iVersion    */ 0,
    /* xCreate     */ nullptr,
    /* xConnect    */ StatsConnect,
    /* xBestIndex  */ StatsBestIndex,
    /* xDisconnect */ StatsDisconnect,
    /* xDestroy    */ StatsDisconnect,
    /* xOpen       */ StatsOpen,
    /* xClose      */ StatsClose,
    /* xFilter     */ StatsFilter,
    /* xNext       */ StatsNext,
    /* xEof        */ StatsEof,
    /* xColumn     */ StatsColumn,
    /* xRowid      */ StatsRowid,
    /* xUpdate     */ nullptr,
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

}  // namespace

std::string ScanStats::ToJson() const {
  std::string json = "{";
  for (const Field& field : kFields) {
    if (json.size() > 1) json += ",";
    json += "\"";
    json += field.name;
    json += "\":" + std::to_string(field.get(*this));
  }
  return json + "}";
}

void RecordScanStats(sqlite3* db, const std::string& name, const ScanStats& stats) {
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  registry.stats[{db, Lower(name)}] = Recorded{name, stats};
}

void ForgetScanStats(sqlite3* db, const std::string& name) {
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  registry.stats.erase({db, Lower(name)});
}

int RegisterScanStatsFunction(sqlite3* db) {
  // From 3.45 a function that sets a subtype must say so (SQLITE_RESULT_SUBTYPE), or the
  // subtype may be dropped (an error under SQLITE_STRICT_SUBTYPE); older versions ignore
  // flags they do not know, but the flag is passed only where it exists.
  const int flags = SQLITE_UTF8 | SQLITE_INNOCUOUS |
                    (RunningSqliteAtLeast(kSqliteWithResultSubtype) ? SQLITE_RESULT_SUBTYPE : 0);
  int rc = sqlite3_create_function_v2(db, "parquet_scan_stats", 1, flags, nullptr, ScanStatsFunction, nullptr,
                                      nullptr, nullptr);
  if (rc == SQLITE_OK) rc = sqlite3_create_module_v2(db, "parquet_scan_stats", &stats_module, db, nullptr);
  return rc;
}

}  // namespace sqlite_parquet

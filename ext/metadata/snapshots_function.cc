// parquet_snapshots('path' [, 'option=value', ...]) (snapshots_function.h): an eponymous
// virtual table whose hidden column `path` takes the table's directory or s3:// prefix (the
// hidden option1..option5 take remote options: s3_endpoint, credentials); the rows come
// from ReadDeltaHistory or ReadIcebergHistory (the same LakeHistoryEntry). Like the metadata functions it
// reads files, so it is direct-only: a schema object or trigger of a database file cannot
// make it read anything.
#include "ext/metadata/snapshots_function.h"

#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "ext/common/connection_interrupt.h"
#include "ext/common/remote_options.h"
#include "ext/common/vtab_errors.h"
#include "format/common/error.h"
#include "format/crypto/secret.h"
#include "format/io/remote_file.h"
#include "format/lake/delta_log.h"
#include "format/lake/iceberg_snapshot.h"
#include "format/lake/lake_storage.h"
#include "format/values/logical_values.h"

namespace sqlite_parquet {

namespace {

using parquet::lake::LakeHistoryEntry;

enum Column : int {
  kFormat, kVersion, kSnapshotId, kParentId, kTimestamp, kTimestampMs, kOperation, kParameters,
  kFilesAdded, kFilesRemoved, kRowsAdded, kRowsRemoved, kPath, kOption1
};
constexpr int kSnapshotOptions = 5;  // option1..option5

struct SnapshotsCursor {
  sqlite3_vtab_cursor base;  // must come first
  std::string format;
  std::vector<LakeHistoryEntry> rows;
  size_t row = 0;
};

int SnapshotsConnect(sqlite3* db, void*, int, const char* const*, sqlite3_vtab** out, char**) {
  const int rc = sqlite3_declare_vtab(
      db,
      "CREATE TABLE x(format TEXT, version INTEGER, snapshot_id INTEGER, parent_id INTEGER, timestamp TEXT, "
      "timestamp_ms INTEGER, operation TEXT, parameters TEXT, files_added INTEGER, files_removed INTEGER, "
      "rows_added INTEGER, rows_removed INTEGER, path HIDDEN, option1 HIDDEN, option2 HIDDEN, option3 HIDDEN, "
      "option4 HIDDEN, option5 HIDDEN)");
  if (rc != SQLITE_OK) return rc;
  sqlite3_vtab* table = static_cast<sqlite3_vtab*>(sqlite3_malloc(sizeof(sqlite3_vtab)));
  if (!table) return SQLITE_NOMEM;
  std::memset(table, 0, sizeof(*table));
  sqlite3_vtab_config(db, SQLITE_VTAB_DIRECTONLY);
  *out = table;
  return SQLITE_OK;
}

int SnapshotsDisconnect(sqlite3_vtab* vtab) {
  sqlite3_free(vtab);
  return SQLITE_OK;
}

// The hidden `path` must be given by =: idxNum 1. argv holds it, then the options given
// (option1..option5, in column order).
int SnapshotsBestIndex(sqlite3_vtab* vtab, sqlite3_index_info* info) {
  int constraint_of[1 + kSnapshotOptions];
  for (int& c : constraint_of) c = -1;
  for (int i = 0; i < info->nConstraint; i++) {
    const auto& c = info->aConstraint[i];
    if (c.iColumn < kPath || c.iColumn > kPath + kSnapshotOptions || c.op != SQLITE_INDEX_CONSTRAINT_EQ) continue;
    if (!c.usable) return SQLITE_CONSTRAINT;
    constraint_of[c.iColumn - kPath] = i;
  }
  if (constraint_of[0] < 0) {
    SetVtabError(vtab, "parquet_snapshots needs a table path: SELECT * FROM parquet_snapshots('dir')");
    return SQLITE_ERROR;
  }
  int next = 1;
  for (int i : constraint_of) {
    if (i < 0) continue;
    info->aConstraintUsage[i].argvIndex = next++;
    info->aConstraintUsage[i].omit = 1;
  }
  info->idxNum = 1;
  info->estimatedCost = 100;
  info->estimatedRows = 100;
  return SQLITE_OK;
}

int SnapshotsOpen(sqlite3_vtab*, sqlite3_vtab_cursor** out) {
  SnapshotsCursor* cursor = new (std::nothrow) SnapshotsCursor();
  if (!cursor) return SQLITE_NOMEM;
  std::memset(&cursor->base, 0, sizeof(cursor->base));
  *out = &cursor->base;
  return SQLITE_OK;
}

int SnapshotsClose(sqlite3_vtab_cursor* base) {
  delete reinterpret_cast<SnapshotsCursor*>(base);
  return SQLITE_OK;
}

int SnapshotsFilter(sqlite3_vtab_cursor* base, int idx_num, const char*, int argc, sqlite3_value** argv) {
  SnapshotsCursor* cursor = reinterpret_cast<SnapshotsCursor*>(base);
  cursor->rows.clear();
  cursor->row = 0;
  if (idx_num != 1 || argc < 1) return SQLITE_OK;
  const unsigned char* text = sqlite3_value_text(argv[0]);
  if (!text) return SQLITE_OK;
  try {
    std::string root = reinterpret_cast<const char*>(text);
    while (root.size() > 1 && root.back() == '/') root.pop_back();
    std::vector<parquet::SecretString> arguments;  // options may hold keys: wiped when freed
    for (int i = 1; i < argc; i++) {
      const unsigned char* option = sqlite3_value_text(argv[i]);
      if (option != nullptr) arguments.emplace_back(reinterpret_cast<const char*>(option));
    }
    std::shared_ptr<const parquet::RemoteOptions> remote = std::make_shared<const parquet::RemoteOptions>();
    if (!arguments.empty()) {
      OptionSet set;
      AddRemoteOptions(&set);
      std::vector<std::string_view> views(arguments.begin(), arguments.end());
      ParsedOptions parsed;
      std::string error;
      if (!set.Parse(views, &parsed, &error) || !MakeRemoteOptions(parsed, &remote, &error)) {
        throw parquet::ParquetError("parquet_snapshots: " + error);
      }
    }
    std::unique_ptr<parquet::lake::LakeStorage> storage;
    if (parquet::IsS3Url(root)) {
      storage = parquet::lake::MakeS3Storage(remote);
    } else if (parquet::IsRemoteUrl(root)) {
      throw parquet::ParquetError("parquet_snapshots reads local directories and s3:// prefixes only");
    } else {
      storage = parquet::lake::MakeLocalStorage();
    }

    if (!parquet::lake::IsDeltaTable(*storage, root) && parquet::lake::IsIcebergTable(*storage, root)) {
      cursor->format = "iceberg";
      cursor->rows = parquet::lake::ReadIcebergHistory(*storage, root);
    } else {
      cursor->format = "delta";
      cursor->rows = parquet::lake::ReadDeltaHistory(*storage, root);
    }
    return SQLITE_OK;
  } catch (...) {
    return CursorCallbackError(base->pVtab, nullptr);
  }
}

int SnapshotsNext(sqlite3_vtab_cursor* base) {
  reinterpret_cast<SnapshotsCursor*>(base)->row++;
  return SQLITE_OK;
}

int SnapshotsEof(sqlite3_vtab_cursor* base) {
  SnapshotsCursor* cursor = reinterpret_cast<SnapshotsCursor*>(base);
  return cursor->row >= cursor->rows.size();
}

void ResultCount(sqlite3_context* ctx, int64_t value) {
  if (value < 0) {
    sqlite3_result_null(ctx);
  } else {
    sqlite3_result_int64(ctx, value);
  }
}

int SnapshotsColumn(sqlite3_vtab_cursor* base, sqlite3_context* ctx, int column) {
  SnapshotsCursor* cursor = reinterpret_cast<SnapshotsCursor*>(base);
  const LakeHistoryEntry& row = cursor->rows[cursor->row];
  switch (column) {
    case kFormat: sqlite3_result_text(ctx, cursor->format.c_str(), -1, SQLITE_TRANSIENT); break;
    case kVersion: ResultCount(ctx, row.version); break;
    case kSnapshotId: ResultCount(ctx, row.snapshot_id); break;
    case kParentId: ResultCount(ctx, row.parent_id); break;
    case kTimestamp: {
      char buffer[parquet::kTimestampTextCapacity];
      const size_t n = parquet::FormatTimestamp(row.timestamp_ms, parquet::TimeUnit::MILLIS, buffer);
      sqlite3_result_text(ctx, buffer, static_cast<int>(n), SQLITE_TRANSIENT);
      break;
    }
    case kTimestampMs: sqlite3_result_int64(ctx, row.timestamp_ms); break;
    case kOperation:
      if (row.operation.empty()) {
        sqlite3_result_null(ctx);
      } else {
        sqlite3_result_text(ctx, row.operation.c_str(), -1, SQLITE_TRANSIENT);
      }
      break;
    case kParameters: sqlite3_result_text(ctx, row.parameters_json.c_str(), -1, SQLITE_TRANSIENT); break;
    case kFilesAdded: ResultCount(ctx, row.files_added < 0 ? 0 : row.files_added); break;
    case kFilesRemoved: ResultCount(ctx, row.files_removed < 0 ? 0 : row.files_removed); break;
    case kRowsAdded: ResultCount(ctx, row.files_added < 0 ? 0 : row.rows_added); break;
    case kRowsRemoved: ResultCount(ctx, row.files_removed < 0 ? 0 : row.rows_removed); break;
    default: sqlite3_result_null(ctx); break;
  }
  return SQLITE_OK;
}

int SnapshotsRowid(sqlite3_vtab_cursor* base, sqlite3_int64* rowid) {
  *rowid = static_cast<sqlite3_int64>(reinterpret_cast<SnapshotsCursor*>(base)->row);
  return SQLITE_OK;
}

sqlite3_module snapshots_module = {
    /* iVersion    */ 0,
    /* xCreate     */ nullptr,
    /* xConnect    */ SnapshotsConnect,
    /* xBestIndex  */ SnapshotsBestIndex,
    /* xDisconnect */ SnapshotsDisconnect,
    /* xDestroy    */ SnapshotsDisconnect,
    /* xOpen       */ SnapshotsOpen,
    /* xClose      */ SnapshotsClose,
    /* xFilter     */ SnapshotsFilter,
    /* xNext       */ SnapshotsNext,
    /* xEof        */ SnapshotsEof,
    /* xColumn     */ SnapshotsColumn,
    /* xRowid      */ SnapshotsRowid,
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
    /* xIntegrity  */ nullptr,
};

}  // namespace

int RegisterSnapshotsFunction(sqlite3* db) {
  return sqlite3_create_module_v2(db, "parquet_snapshots", &snapshots_module, nullptr, nullptr);
}

}  // namespace sqlite_parquet

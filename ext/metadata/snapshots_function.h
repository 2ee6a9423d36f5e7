// parquet_snapshots('path'): the history of a lake table, one row per version (Delta) or
// snapshot (Iceberg), from format/lake's LakeHistoryEntry: version, snapshot id, parent,
// commit time, operation and its parameters (JSON), files and rows added and removed.
#pragma once

#include "ext/common/sqlite_api.h"

namespace sqlite_parquet {

// Registers the eponymous table-valued function parquet_snapshots on `db`.
int RegisterSnapshotsFunction(sqlite3* db);

}  // namespace sqlite_parquet

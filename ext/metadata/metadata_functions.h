// The metadata table-valued functions parquet_metadata, parquet_schema,
// parquet_file_metadata and parquet_kv_metadata (see metadata_functions.cc for their manual).
#pragma once

#include "ext/common/sqlite_api.h"

namespace sqlite_parquet {

// Registers the four eponymous virtual tables on `db`; returns an SQLite result code.
int RegisterMetadataFunctions(sqlite3* db);

}  // namespace sqlite_parquet

// The metadata table-valued functions parquet_metadata, parquet_schema,
// parquet_file_metadata, parquet_kv_metadata, parquet_bloom_probe and
// parquet_full_metadata (see metadata_functions.cc for their manual).
#pragma once

#include "ext/common/sqlite_api.h"

namespace sqlite_parquet {

// Registers the six eponymous virtual tables on `db`; returns an SQLite result code.
int RegisterMetadataFunctions(sqlite3* db);

}  // namespace sqlite_parquet

// The `parquet` virtual-table module (see parquet_vtab.cc for its manual).
#pragma once

#include "ext/common/sqlite_api.h"

namespace sqlite_parquet {

int RegisterParquetModule(sqlite3* db);

}  // namespace sqlite_parquet

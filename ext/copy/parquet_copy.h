// The parquet_copy(query, path, options...) SQL function (see parquet_copy.cc for its manual).
#pragma once

#include "ext/common/sqlite_api.h"

namespace sqlite_parquet {

int RegisterParquetCopy(sqlite3* db);

}  // namespace sqlite_parquet

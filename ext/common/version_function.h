// parquet_version(): the extension's version and what it was built with, as JSON text, so a
// bug report can say exactly what was loaded.
#pragma once

#include "ext/common/sqlite_api.h"

namespace sqlite_parquet {

int RegisterVersionFunction(sqlite3* db);

}  // namespace sqlite_parquet

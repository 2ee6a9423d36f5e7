// The `parquet` virtual-table module (see parquet_vtab.cc for its manual).
#pragma once

#include <memory>

#include "ext/common/credential_rule.h"
#include "ext/common/sqlite_api.h"

namespace sqlite_parquet {

// Registers the module on `db`; its tables follow `rule`, the connection's credential rule.
int RegisterParquetModule(sqlite3* db, std::shared_ptr<CredentialRule> rule);

}  // namespace sqlite_parquet

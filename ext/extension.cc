// Entry point of the loadable extension: `.load ./build/parquet` (or
// sqlite3_load_extension) calls sqlite3_parquet_init, which checks that the host's SQLite
// is new enough, registers the `parquet` virtual-table module and the functions, then has
// SQLite re-read the connection's schemas.
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT1

#include "ext/common/sqlite_api.h"

#include <mutex>

#include "ext/metadata/snapshots_function.h"
#include "ext/metadata/metadata_functions.h"
#include "ext/copy/parquet_copy.h"
#include "ext/table/bbox_function.h"
#include "ext/table/parquet_vtab.h"
#include "ext/table/scan_stats.h"
#include "ext/common/credential_rule.h"
#include "ext/common/schema_guard.h"
#include "ext/common/version_function.h"

// The one exported symbol: a DLL exports what is marked dllexport (and then nothing else),
// an ELF module what has default visibility (the version script hides the rest).
#ifdef _WIN32
#define PQ_EXPORT __declspec(dllexport)
#else
#define PQ_EXPORT __attribute__((visibility("default")))
#endif

extern "C" PQ_EXPORT int sqlite3_parquet_init(sqlite3* db, char** error_message, const sqlite3_api_routines* api) {
  // The API table pointer is process-wide; connections loading the extension in several
  // threads must not all write it (a data race, even if each writes the same value).
  static std::once_flag api_set;
  std::call_once(api_set, [api] { SQLITE_EXTENSION_INIT2(api); });
  // sqlite3_libversion_number has been in the API table since it exists; nothing newer
  // than the running version may be called before this check.
  const int running = sqlite3_libversion_number();
  if (running < sqlite_parquet::kOldestSupportedSqlite) {
    if (error_message != nullptr) {
      *error_message = sqlite3_mprintf(
          "the parquet extension needs SQLite %d.%d.%d or later; this is SQLite %s",
          sqlite_parquet::kOldestSupportedSqlite / 1000000, sqlite_parquet::kOldestSupportedSqlite / 1000 % 1000,
          sqlite_parquet::kOldestSupportedSqlite % 1000, sqlite3_libversion());
    }
    return SQLITE_ERROR;
  }
  // One credential rule per connection, shared by the module and the function that lifts it.
  auto credential_rule = std::make_shared<sqlite_parquet::CredentialRule>();
  int rc = sqlite_parquet::RegisterParquetModule(db, credential_rule);
  if (rc == SQLITE_OK) rc = sqlite_parquet::RegisterAmbientCredentialsFunction(db, credential_rule);
  if (rc == SQLITE_OK) rc = sqlite_parquet::RegisterMetadataFunctions(db);
  if (rc == SQLITE_OK) rc = sqlite_parquet::RegisterParquetCopy(db);
  if (rc == SQLITE_OK) rc = sqlite_parquet::RegisterScanStatsFunction(db);
  if (rc == SQLITE_OK) rc = sqlite_parquet::RegisterVersionFunction(db);
  if (rc == SQLITE_OK) rc = sqlite_parquet::RegisterBboxFunction(db);
  if (rc == SQLITE_OK) rc = sqlite_parquet::RegisterSnapshotsFunction(db);
  // A schema read before this load was resolved without our functions and their
  // SQLITE_DIRECTONLY flags: have SQLite read it again (schema_guard.h). A failure here
  // (the next statement reports a schema that cannot load) leaves parquet_copy's own check.
  if (rc == SQLITE_OK) sqlite_parquet::ReloadSchemas(db);
  if (rc != SQLITE_OK && error_message != nullptr) {
    *error_message = sqlite3_mprintf("cannot register the parquet module: %s", sqlite3_errstr(rc));
  }
  return rc;
}

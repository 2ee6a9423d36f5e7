// The state of one `parquet` virtual table, shared by the modules that implement it:
// table_definition.cc (options, the file list, the declared columns: xCreate/xConnect),
// table_plan.cc (xBestIndex), table_order.cc (which columns the files are sorted by) and
// table_cursor.h (the cursor: xFilter/xNext/xColumn, the scan). parquet_vtab.cc has the user's manual
// and registers the module.
#pragma once

#include <cstddef>
#include <cstdint>
#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ext/common/column_mapping.h"
#include "ext/common/credential_rule.h"
#include "ext/common/file_list.h"
#include "ext/table/constraints.h"
#include "ext/common/hive_partitions.h"
#include "ext/table/join_index.h"
#include "ext/table/metadata_cache.h"
#include "ext/table/remote_prefetch.h"
#include "ext/common/sqlite_api.h"
#include "format/crypto/encryption.h"
#include "format/lake/lake_snapshot.h"
#include "format/read/file_reader.h"

namespace sqlite_parquet {

// Values a column reader decodes at a time (a cursor's batch, the ORDER BY check).
constexpr size_t kBatchSlots = 2048;
// max_memory's default: a page may claim up to 1 GiB (column_reader.cc), so the default
// holds one such page with its compressed body and the pages of other columns, or a
// thousand columns of 1 MB pages; a small hostile file (wide rows of highly compressed
// pages) cannot make one query take more.
constexpr int64_t kDefaultMaxMemory = int64_t{2} << 30;

struct TableOptions {
  std::string filename;
  MappingOptions mapping;
  bool verify_crc = true;
  bool decompress_ahead = true;  // full scans decompress each column's next page on a second thread
  int64_t max_memory = kDefaultMaxMemory;  // bytes of page buffers per cursor
  bool union_by_name = false;
  std::optional<bool> hive_partitioning;  // unset: automatic
  std::shared_ptr<const parquet::FileDecryptionProperties> decryption;  // null: no key options
  int64_t join_index_memory = kDefaultJoinIndexMemory;  // 0: no join index (join_index.h)
  std::shared_ptr<const parquet::RemoteOptions> remote;  // https:// and s3:// files (remote_options.h)
  std::string metadata_cache;  // the cache table's name (metadata_cache.h); empty: none
  int64_t metadata_cache_size = kDefaultMetadataCacheSize;
  // Lake tables (lake_table.h): "auto" reads a directory holding _delta_log/ as a Delta
  // table, "delta" insists on it, "files" reads the Parquet files below the path as they are.
  std::string format = "auto";
  std::optional<int64_t> version;       // version=N
  std::optional<int64_t> timestamp_ms;  // timestamp='...': the last version committed at or before it
  std::optional<int64_t> snapshot_id;   // Iceberg: snapshot_id=N
  std::optional<std::string> ref;       // Iceberg: ref='branch-or-tag'
  // Iceberg: paths under the location the metadata records resolve below where the table
  // was found (never outside it, so a stored table may hold it).
  bool allow_moved_paths = false;
  // allow_external_paths=1, honoured only by CREATE VIRTUAL TABLE in this connection (never
  // from a table stored in a database file): a lake table's log may name files outside its root.
  bool allow_external_paths = false;
  // Iceberg: catalog='catalog.db', table='namespace.table' (catalog_name='...'): the table a
  // PyIceberg SQLite catalog names (iceberg_catalog.h); filename is then empty.
  std::string catalog;
  std::string catalog_table;
  std::optional<std::string> catalog_name;
};

// A table column that comes from the files' top-level fields.
struct FileColumn {
  std::string name;           // as in the file
  std::string declared_type;  // from the first file that has it
  bool nested = false;
};

// What xBestIndex may do with constraints on one column of the table.
struct ColumnPushdown {
  bool pushable = false;      // constraints on it may be pushed (not nested JSON)
  ValueClass value_class = ValueClass::kNull;
  bool exact = false;         // every file gives values of value_class (not union_by_name), so
                              // a pushed comparison can be omitted
  bool ordered = false;       // first file: row groups in ascending order of it (cost, ORDER BY)
  bool unprunable = false;    // first file: an integer column whose equality lookups keep a
                              // quarter of the rows or more by statistics, and no bloom filter
                              // or dictionary-only chunk (the join index)
  int64_t rows_per_page = 0;  // first file, ordered columns: rows per data page (what one
                              // lookup of a value decodes; 0 when not known)
};

// The files one scan reads, in path order, with their partition values: the table's whole
// listing, or a listing narrowed by the scan's partition constraints (listing_pruning.h).
struct FileSet {
  std::vector<std::string> paths;
  std::vector<std::vector<HiveValue>> hive_values;  // [file][key]
  mutable std::vector<int64_t> rows;                // rows of each file, -1 until a scan opened it
  // A lake table's snapshot (lake_table.h): lake->files[i] is paths[i], with its statistics
  // and its deleted rows; null for a table of plain files.
  std::shared_ptr<const parquet::lake::LakeSnapshot> lake;
};

struct ParquetTable {
  sqlite3_vtab base;  // must come first
  sqlite3* db = nullptr;
  std::string name;   // the table's name, for parquet_scan_stats
  std::string schema_name;  // main, temp or the attached database holding it
  TableOptions options;
  // The columns come from the stored schema (stored_schema.h) when connecting; the file
  // list, the partition values and the row estimate wait for the first planning
  // (ListTableFiles), so that connecting touches no file. Null until listed, then kept
  // for the table's lifetime (the connection's).
  std::shared_ptr<const FileSet> files;
  // A dataset with partition keys whose planning lists nothing: each scan lists what its
  // partition constraints leave (listing_pruning.h) unless the whole listing is there.
  std::optional<bool> listing_prunable;  // unset: not decided yet (ListingPrunable)
  DirectoryListings listings;            // directory reads and s3 listings kept for reuse
  ListingCounts unreported_listing;      // listing work no scan's stats counted yet
  bool owns_stored_schema = false;  // `<name>_schema` is this table's (xDestroy drops it)
  // A remote table connected from a database file (not created here): planning it makes no
  // request (no listing, footer or ORDER BY check); the scan (xFilter) lists its files.
  bool plan_without_io = false;
  std::string unusable;             // why a table without a usable stored schema cannot be read
  // A table read from a database file that names a Windows network path: ListFiles refuses
  // while the connection has not opted in (credential_rule.h). Null otherwise.
  std::shared_ptr<const NetworkPathGate> network_path_gate;
  // A catalog table read from a database file (Windows): the connection's opt-in, which a
  // network path the catalog row names waits for (lake_table.cc). Null otherwise.
  std::shared_ptr<const std::atomic<bool>> catalog_network_paths_allowed;
  std::vector<FileColumn> file_columns;
  std::vector<HiveKey> hive_keys;
  // A lake table (lake_table.h): whether the table is one (unset: not decided yet), and per
  // file column, then per partition key, its index in the snapshot's columns.
  std::optional<bool> is_lake;
  std::string lake_format;  // the lake table's format once decided ("delta"; Iceberg adds "iceberg")
  std::vector<int> lake_columns;
  std::vector<std::string> column_names;            // every column, as declared
  std::vector<ColumnPushdown> pushdown;             // every column
  // ORDER BY: a single file whose row groups' sorting_columns declare this column
  // ascending, and whose statistics show the row groups in order without NULL or NaN. The
  // declaration is only believed once the column's values were read and found ascending in
  // SQLite's order (OrderVerified, on the first ORDER BY that could use it).
  int order_candidate_column = -1;
  enum class OrderCheck : uint8_t { kUnchecked, kAscending, kNotAscending };
  OrderCheck order_check = OrderCheck::kUnchecked;
  bool order_statistics_read = false;  // FindOrderedColumns ran (ReadOrderStatistics)
  int64_t estimated_rows = 0;
  std::unique_ptr<NumericAffinity> numeric_affinity;  // converts text compared with numbers
  mutable JoinIndexCache join_indexes;                // by column, while the files are unchanged
  ColumnsUsedHandles columns_used_handles;            // idxNum of each plan (xBestIndex to xFilter)
  // The metadata_cache table (null without the option), checked at each scan.
  std::unique_ptr<SqliteMetadataStore> metadata_store;
  // Column numbers: [0, file_columns) file columns, then hive keys, then the hidden two.
  int hive_column() const { return static_cast<int>(file_columns.size()); }
  int filename_column() const { return hive_column() + static_cast<int>(hive_keys.size()); }
  int file_row_number_column() const { return filename_column() + 1; }
};

// table_definition.cc: the name of top-level field `field`.
std::string FieldName(const parquet::Schema& schema, size_t field);
// The table's files, partition values and row counts, listed at the first planning of a
// connected table (after SQLite's SQLITE_VTAB_DIRECTONLY check); throws on a listing error.
void ListTableFiles(ParquetTable* table);
// Throws the table's network path refusal while the connection has not opted in
// (ParquetTable::network_path_gate); ListTableFiles and ListFiles call it.
void CheckNetworkPathGate(const ParquetTable& table);
// The files `paths` with their partition values (the table's keys) and unknown row counts.
std::shared_ptr<const FileSet> MakeFileSet(const ParquetTable& table, std::vector<std::string> paths);
// The files of the table's path (file_list.h) listed with `listing`. A plain path that does
// not exist is passed on as it is, so that opening it reports the system's error.
std::vector<std::string> ListFiles(const ParquetTable& table, const ListingOptions& listing);
// The mappings of the table's file columns for one file; throws (naming the file) when
// the file does not fit the table (manual: schemas of many files).
std::vector<ColumnMapping> MapFileColumns(const ParquetTable& table, const parquet::ParquetFileReader& file,
                                          const std::string& path);

// table_order.cc: the row-group order of the first file's columns (ColumnPushdown::ordered,
// order_candidate_column), read at the first planning; and the check of the candidate's
// values before ORDER BY relies on it. A file that cannot be read is simply not known to be
// ordered; only parquet::HttpInterrupted (sqlite3_interrupt during a remote request) comes
// out, leaving the question open for the next planning.
void ReadOrderStatistics(ParquetTable* table);
bool OrderVerified(ParquetTable* table);

// table_plan.cc: whether the join index (join_index.h) may answer `op` on `column`.
bool JoinIndexApplies(const ParquetTable& table, int column, ConstraintOp op);

// Whether parquet_bbox_intersects is pushed on file column `column`: a BLOB column (BLOB
// GEOMETRY, BLOB GEOGRAPHY, or plain BLOB as GeoParquet 1.x stores WKB).
bool IsGeospatialColumn(const ParquetTable& table, int column);

// The module's callbacks (parquet_vtab.cc registers them).
namespace vtab {

// table_definition.cc: xCreate, xConnect, xDisconnect (also xDestroy).
int Create(sqlite3* db, void* aux, int argc, const char* const* argv, sqlite3_vtab** out, char** error_out);
int Connect(sqlite3* db, void* aux, int argc, const char* const* argv, sqlite3_vtab** out, char** error_out);
int Disconnect(sqlite3_vtab* vtab);
// xDestroy (DROP TABLE drops the stored columns too), xRename, xShadowName.
int Destroy(sqlite3_vtab* vtab);
int Rename(sqlite3_vtab* vtab, const char* new_name);
int ShadowName(const char* suffix);
// Overloads parquet_bbox_intersects(col, box) as the constraint kBboxConstraintOp.
int FindFunction(sqlite3_vtab* vtab, int argc, const char* name, void (**function)(sqlite3_context*, int, sqlite3_value**),
                 void** user_data);

// table_plan.cc: xBestIndex.
int BestIndex(sqlite3_vtab* vtab, sqlite3_index_info* info);

// table_cursor.cc (and xColumn in table_cursor_columns.cc): the cursor callbacks.
int Open(sqlite3_vtab* vtab, sqlite3_vtab_cursor** out);
int Close(sqlite3_vtab_cursor* base);
int Filter(sqlite3_vtab_cursor* base, int idx_num, const char* idx_str, int argc, sqlite3_value** argv);
int Next(sqlite3_vtab_cursor* base);
int Eof(sqlite3_vtab_cursor* base);
int Column(sqlite3_vtab_cursor* base, sqlite3_context* ctx, int column);
int Rowid(sqlite3_vtab_cursor* base, sqlite3_int64* rowid);

}  // namespace vtab

}  // namespace sqlite_parquet

// The `parquet` virtual table: one Parquet file, or a dataset of many, presented as a
// read-only SQLite table.
//
// USAGE
//
//   CREATE VIRTUAL TABLE t USING parquet('path' [, key=value ...]);
//   CREATE VIRTUAL TABLE t USING parquet(filename='path', ...);
//
// PATH is a file, a directory (every *.parquet file below it, recursively) or a glob
// (`*`, `?`, `[...]` within a path segment, `**` for any number of directories); the rules
// are in file_list.h. The files are read in sorted path order as one table.
//
// Options (values may be quoted with '...' or "..."; keys are case-insensitive; an unknown
// or repeated key is an error naming it):
//
//   filename=PATH          the file, directory or glob (also the first, unnamed argument)
//   binary_as_string=0|1   unannotated BYTE_ARRAY columns as TEXT instead of BLOB (default 0)
//   decimal_as=real|text   DECIMAL columns as REAL (default) or as exact decimal TEXT
//   timestamp_as=text|unixepoch|unixepoch_ms|unixepoch_us|julianday
//                          how DATE, TIMESTAMP and INT96 columns are presented (default text)
//   verify_crc=0|1         check page CRCs where the writer stored them (default 1)
//   max_memory=BYTES       page buffers one scan may hold across its columns (default 2 GiB)
//   union_by_name=0|1      combine files whose columns differ, by column name (default 0)
//   hive_partitioning=0|1  key=value directories as columns (default: on when the first
//                          file's path has a key=value directory)
//   footer_key=KEY         key of an encrypted file's footer (and of the columns encrypted
//                          with it); KEY is hex:..., base64:... or the raw text (16, 24 or
//                          32 bytes), see encryption_options.h
//   column_keys='PATH:KEY,...'  keys of columns encrypted with their own key (dotted path)
//   aad_prefix=TEXT        the AAD prefix of files written without storing it
//   key_table=NAME         a table (key_metadata, key) to find keys by the key_metadata
//                          the file stores; read when the table is created or connected
//   kms_master_keys='ID:KEY,...'  master keys unwrapping parquet-mr key material
//   verify_footer_signature=0|1  check a plaintext footer's signature (default 1; needs
//                          the footer key)
//   allow_plaintext_files=0|1  with key options, read files that are not encrypted
//                          (default 0: refused)
//   format=auto|delta|iceberg|files  a directory holding _delta_log/ is a Delta table, one
//                          whose metadata/ holds version-hint.text or *.metadata.json (or a
//                          .metadata.json file) an Iceberg table (auto; delta and iceberg
//                          insist; files: the Parquet files as they are), see lake_table.h
//                          and docs/lake-tables.md
//   version=N, timestamp='YYYY-MM-DD HH:MM:SS'  an earlier version of a lake table
//   snapshot_id=N, ref='name'  an Iceberg table's snapshot, branch or tag
//   allow_moved_paths=0|1  an Iceberg table's paths under the location its metadata records
//                          are read below where the table was found
//   allow_external_paths=0|1  a lake table's log may name files outside its directory
//                          (only in the application's own CREATE, never when connected)
//   catalog='catalog.db', table='namespace.table', catalog_name='name'  instead of a path:
//                          the Iceberg table a PyIceberg SQLite catalog names (iceberg_catalog.h)
//   http_headers, bearer_token, http_retries, http_read_ahead, s3_*   for https:// and s3:// paths
//                          (remote_options.h, format/io/remote_file.h)
//
// COLUMNS
//
// One column per top-level field, named as in the file (a name that repeats
// case-insensitively gets a suffix _1, _2, ...), with the declared types of
// column_mapping.h. A nested field (group, LIST, MAP or repeated field) is one column of
// JSON text with the JSON subtype (nested_json.h). Then the hive partition keys, then two
// HIDDEN columns (not in SELECT *): filename (TEXT, the file's path as the file list gave
// it) and file_row_number (INTEGER, 0-based row within its file). The rowid is the row's
// 0-based position in the whole dataset (rows of earlier files first).
//
// SCHEMAS OF MANY FILES
//
// By default every file must have the first file's top-level fields: same names, same order,
// same SQLite types (the first word of the declared type, so DECIMAL(4,2) and DECIMAL(10,2)
// match as REAL; each file's values are converted by its own mapping), nested in both or
// in neither; the first file that differs is an error naming it and the first file
// (checked when a scan reaches it). With union_by_name=1 every file's footer is read at
// CREATE time: the columns are the first file's, then each name first seen in a later file,
// in file order (names match exactly); a file without a column reads NULL there. A column
// whose type differs between files is declared with the type of the first file that has
// it; each file's values are converted by that file's own mapping (so an INTEGER column
// may hold the REAL or TEXT values of another file; SQLite's column affinity applies to
// comparisons). A column nested (JSON) in one file and flat in another is an error.
//
// HIVE PARTITIONING
//
// Every directory segment `key=value` of a file's path (percent-escapes decoded) gives a
// partition column `key`, in order of first appearance over the files; a file without the
// key reads NULL, as does the value __HIVE_DEFAULT_PARTITION__. A key's declared type is
// INTEGER when all its values are 64-bit integers, else REAL when all are numbers, else
// TEXT; values are converted to that type. A key whose name equals a file column gets the
// usual suffix. A key named again deeper in a path must repeat its value. A connected
// table with partition keys over a directory or glob is planned without listing, and each
// scan lists only the key=value directories its partition constraints leave
// (listing_pruning.h), unless the connection has the whole listing already.
//
// HOW A SCAN WORKS
//
// A cursor opens one file at a time, in order: it opens the next file only after closing
// the previous one, so a scan holds at most one file descriptor whatever the number of
// files. No footer is cached beyond the cursor's current file (the table keeps only paths,
// the column list and the partition values). The cursor walks the file's row groups in
// order. Columns are decoded lazily: the first time xColumn asks for column i in a row
// group, that column's chunk is read and decoded in batches of up to kBatchSlots values;
// columns the query never asks for are never read, and rows a column is not asked for are
// skipped (whole pages without decompression). Memory is bounded by one row group's chunks
// of the columns in use.
//
// CONSTRAINTS
//
// xBestIndex takes the WHERE terms it can reproduce exactly (constraints.h has the rules
// and the idxStr encoding, e.g. `id=? AND s LIKE ?`), LIMIT/OFFSET when nothing is left
// for SQLite to filter, and ORDER BY of the one column a single file is proven sorted by.
// xFilter turns the arguments into ColumnFilters; then files are skipped by partition
// values and filename, row groups by row position (rowid, file_row_number), by
// statistics and bloom filters (row_group_pruning.h), and xNext tests every remaining row
// on the decoded filter columns before any other column is converted (late
// materialization). What the scan did is kept for parquet_scan_stats (scan_stats.h).
// xBestIndex's costs come from plan_cost.h; an equality a statement looks up again and
// again is answered by the table's join index (join_index.h, ChooseJoinIndex), whose scans
// visit only the rows it names and keep their decoded batches (lookup_batch_cache.h).
//
// STORED COLUMNS AND CONNECTING
//
// The module is registered with SQLITE_VTAB_DIRECTONLY, so views and triggers of a
// database someone else made cannot make it read files. SQLite connects a table before it
// can check that (and for PRAGMA table_info, PRAGMA table_list and `.schema`), so
// connecting touches no file: CREATE VIRTUAL TABLE reads the files once and stores the
// declared columns (file columns, then partition keys with their types) in the shadow
// table `<table>_schema` of the table's own schema (stored_schema.h; dropped and renamed
// with the table), and xConnect declares the table from that list. The file list, the
// partition values, the row estimate and the row-group order statistics wait for the
// first planning (xBestIndex, which SQLite runs only for a direct use; for a remote or
// hive-partitioned table, the first scan); the columns stay
// as CREATE found them: a file that no longer fits them is an error naming it when a scan
// reaches it (a new column of a union_by_name table, or a new partition key, is not read).
// A table without a usable stored list (created by an older version, or a `_schema`
// table this extension did not write) declares only filename and file_row_number, and any
// query of it is an error saying to recreate it: reading its files to learn the columns
// is what a hostile database would ask for. A key_table that is a virtual table is
// refused (encryption_options.h), as reading it at connect could read files. Files are
// opened only if regular, without blocking (OpenLocalFile). A connected table whose
// options route its S3 requests gets no ambient credentials (credential_rule.h).
//
// SOURCE
//
// This file registers the module. The table's state is in parquet_table.h; the callbacks
// are in table_definition.cc (options, files, columns: xCreate/xConnect), table_plan.cc
// (xBestIndex), table_order.cc (sorted columns, ORDER BY) and table_cursor.h (the scan);
// hive paths in hive_partitions.cc, constraint rules in constraints.h, row-group pruning
// in row_group_pruning.h.
#include "ext/table/parquet_vtab.h"

#include "ext/table/parquet_table.h"

namespace sqlite_parquet {

namespace {

sqlite3_module parquet_module = {
    /* iVersion    */ 3,  // xShadowName (SQLite 3.26+)
    /* xCreate     */ vtab::Create,
    /* xConnect    */ vtab::Connect,
    /* xBestIndex  */ vtab::BestIndex,
    /* xDisconnect */ vtab::Disconnect,
    /* xDestroy    */ vtab::Destroy,
    /* xOpen       */ vtab::Open,
    /* xClose      */ vtab::Close,
    /* xFilter     */ vtab::Filter,
    /* xNext       */ vtab::Next,
    /* xEof        */ vtab::Eof,
    /* xColumn     */ vtab::Column,
    /* xRowid      */ vtab::Rowid,
    /* xUpdate     */ nullptr,
    /* xBegin      */ nullptr,
    /* xSync       */ nullptr,
    /* xCommit     */ nullptr,
    /* xRollback   */ nullptr,
    /* xFindMethod */ vtab::FindFunction,
    /* xRename     */ vtab::Rename,
    /* xSavepoint  */ nullptr,
    /* xRelease    */ nullptr,
    /* xRollbackTo */ nullptr,
    /* xShadowName */ vtab::ShadowName,
    /* xIntegrity  */ nullptr,  // SQLite 3.44+; not read at iVersion 3
};

void DeleteRule(void* rule) { delete static_cast<std::shared_ptr<CredentialRule>*>(rule); }

}  // namespace

int RegisterParquetModule(sqlite3* db, std::shared_ptr<CredentialRule> rule) {
  return sqlite3_create_module_v2(db, "parquet", &parquet_module, new std::shared_ptr<CredentialRule>(std::move(rule)),
                                  DeleteRule);
}

}  // namespace sqlite_parquet

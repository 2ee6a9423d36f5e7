// What the last completed scan of each parquet table did (files and row groups pruned,
// pages and bytes read, rows decoded and returned), kept per connection and table, and the
// SQL function parquet_scan_stats('t') that returns it as JSON.
#pragma once

#include <cstdint>
#include <string>

#include "ext/common/sqlite_api.h"

namespace sqlite_parquet {

struct ScanStats {
  int64_t files_total = 0;     // files of the table
  int64_t files_pruned = 0;    // skipped without reading (partition values, filename) or by row position
  int64_t files_opened = 0;
  // Lake tables (lake_table.h): files skipped before opening by their partition values and
  // by the statistics of the table's log (both also counted in files_pruned), and rows of
  // the scanned row groups removed by deletion vectors.
  int64_t files_pruned_by_partition = 0;
  int64_t files_pruned_by_lake_statistics = 0;
  int64_t rows_deleted = 0;    // footers read (not a file an earlier scan of the statement kept open)
  // Lake files whose rows a scan reading no file column counted from the metadata's record
  // counts without opening them (not in files_opened).
  int64_t files_counted = 0;
  // Iceberg: the manifests holding the scan's data files, those whose partition summaries
  // (from the manifest list) ruled out the constraints, and the files skipped with them
  // (also in files_pruned) without testing each.
  int64_t manifests_total = 0;
  int64_t manifests_pruned = 0;
  int64_t files_pruned_by_manifest = 0;
  int64_t row_groups_total = 0;  // row groups of the files the scan opened
  int64_t row_groups_pruned_by_statistics = 0;
  int64_t row_groups_pruned_by_dictionary = 0;
  int64_t row_groups_pruned_by_bloom_filter = 0;
  int64_t row_groups_pruned_by_page_index = 0;    // every page of a filter column ruled out
  int64_t row_groups_pruned_by_row_position = 0;  // rowid / file_row_number ranges
  int64_t pages_pruned_by_page_index = 0;  // pages of filter columns whose bounds rule them out
  int64_t pages_read = 0;      // data pages decompressed and decoded
  int64_t pages_skipped = 0;   // data pages passed over without decompression
  int64_t dictionary_pages_read = 0;
  int64_t pages_decompressed_ahead = 0;  // of pages_read: decompressed by the second thread
  int64_t bytes_read = 0;      // column chunk bytes read from the files
  int64_t rows_decoded = 0;    // rows the scan looked at (filter columns decoded)
  int64_t rows_returned = 0;   // rows handed to SQLite
  int64_t http_requests = 0;   // requests to remote files (https://, s3://), retries included
  int64_t http_bytes_fetched = 0;  // bytes received from them
  int64_t http_read_ahead_peak = 0;  // the most bytes one file's read-ahead held at once
  // The listing of the scan's files (none when an earlier statement of the connection
  // listed them): directories read or ListObjectsV2 requests, and the names or objects
  // and common prefixes they returned (listing_pruning.h).
  int64_t list_requests = 0;
  int64_t objects_listed = 0;
  // S3 levels whose delimiter listing named no directory though objects lay below (a
  // server without delimiter support there): listed whole instead (file_list.h).
  int64_t listing_fallbacks = 0;
  // The join index (join_index.h): 1 when this scan built it, its size in bytes when the
  // scan used one, the lookups it answered since it was built (this one included), and
  // the row groups skipped because the index has no row of the looked-up values in them.
  int64_t join_index_built = 0;
  int64_t join_index_bytes = 0;
  int64_t join_index_hits = 0;
  int64_t row_groups_pruned_by_join_index = 0;

  std::string ToJson() const;
};

// Records `stats` as the last completed scan of table `name` (case-insensitive) on `db`.
void RecordScanStats(sqlite3* db, const std::string& name, const ScanStats& stats);
// Forgets table `name` of `db` (at xDisconnect).
void ForgetScanStats(sqlite3* db, const std::string& name);

// Registers parquet_scan_stats(name) on `db`.
int RegisterScanStatsFunction(sqlite3* db);

}  // namespace sqlite_parquet

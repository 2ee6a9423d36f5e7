// Lake tables as `parquet` tables: a directory holding a Delta log (`_delta_log/`) read as
// the snapshot its log describes (format/lake/delta_log.h) rather than as the Parquet files
// below it. The snapshot (format/lake/lake_snapshot.h, which Iceberg fills too) gives the
// columns (column mapping: each file's columns are found by field id or physical name, a
// column a file lacks reads as NULL), the live files with their partition values (the
// table's partition keys), their statistics (files skipped before opening, by MayMatch as
// for row groups) and their deleted rows (removed from each row group's row ranges by
// RemoveDeletedRows, so that they hold whatever else prunes).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ext/table/parquet_table.h"
#include "format/lake/lake_snapshot.h"
#include "format/read/row_ranges.h"

namespace sqlite_parquet {

// Whether the table reads a lake table (decided once, from format= and the path: a local
// directory holding _delta_log/ or Iceberg metadata, an s3:// prefix holding _delta_log/).
// Without `may_probe_remote` (connecting a stored table) an s3:// prefix is not probed:
// false, and the question stays open for the first scan.
bool IsLakeTable(ParquetTable* table, bool may_probe_remote = true);

// Whether the table is, or (not decided yet) may be, a lake table.
bool MayBeLakeTable(const ParquetTable& table);

// The most rows a lake file's metadata may claim and be believed without opening the file
// (counted scans, rowids of later files): 2^38, so that the claims of the most files a
// snapshot holds (ten million) add up within an int64_t. A larger claim makes the file be
// opened and its count checked against its footer (an error when they differ).
inline constexpr int64_t kMaxTrustedRecordCount = int64_t{1} << 38;

// xCreate of a lake table: reads the snapshot, sets the table's file columns, partition
// keys and files.
void CreateLakeTable(ParquetTable* table);

// The files of a connected lake table (its snapshot read now), for ListTableFiles.
std::shared_ptr<const FileSet> ListLakeFiles(ParquetTable* table);

// The mappings of the table's file columns in one data file of a lake table (by field id or
// physical name; absent columns kNull).
std::vector<ColumnMapping> MapLakeFileColumns(const ParquetTable& table, const parquet::ParquetFileReader& file,
                                              const std::string& path);

// Whether the log's statistics of file `index` leave a row that may satisfy `filter` on
// file column `column` (true when there are none).
bool LakeStatisticsMayMatch(const ParquetTable& table, const FileSet& files, size_t index, const ColumnFilter& filter);

// Whether the files of group `group` (an Iceberg manifest: LakeSnapshot::file_groups) may
// hold a row satisfying every one of `filters`, by the group's summary (true when it has
// none).
bool LakeGroupMayMatch(const ParquetTable& table, const FileSet& files, int32_t group,
                       const std::vector<ColumnFilter>& filters);

// `ranges` (rows of a row group whose first row is file row `first`) without the rows in
// `deleted`; *removed counts the rows taken out.
parquet::RowRanges RemoveDeletedRows(const parquet::RowRanges& ranges, const parquet::lake::DeletedRows& deleted,
                                     int64_t first, int64_t* removed);

}  // namespace sqlite_parquet

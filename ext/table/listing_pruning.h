// Which files a scan of a hive-partitioned dataset lists. A table whose path is a directory
// or glob and that has partition keys is not listed whole at planning: each scan lists what
// its pushed constraints on the partition keys leave (local walks skip the `key=value`
// directories no wanted file can be below; s3 listings enumerate such levels with a
// delimiter and list below the wanted prefixes only), unless the whole listing is already
// there (made by CREATE in this connection, or by an earlier scan without such
// constraints), which then serves every scan.
//
// SOUNDNESS. A directory `key=value` is skipped only when the scan's filters on the key
// reject its value exactly as they reject a file's (RowMatches on the value the key's
// declared type gives it, the test OpenNextFile prunes files with): every file below has
// that value, since a key repeated deeper must repeat its value (hive_partitions.h). A
// value that is not of the key's type is never skipped (the file's error is reported as
// for a whole listing). So `month = 3` finds `month=03/` and `month=3/`: levels are
// enumerated and compared by value, never guessed from the constant's spelling.
//
// REUSE. Each directory read and s3 listing is kept in the table (DirectoryListings) for
// the connection, as the whole listing is: the scans of a join or of an IN list
// (SQLite before 3.38 scans once per value) list each prefix once, and a new connection
// lists again.
#pragma once

#include <memory>
#include <vector>

#include "ext/table/constraints.h"
#include "ext/table/parquet_table.h"

namespace sqlite_parquet {

// Whether the table's scans list only what their partition constraints leave: its path
// names a dataset (a directory or glob) and it has partition keys. Decided once.
bool ListingPrunable(ParquetTable* table);

// The files of a scan with pushed `filters`: the whole listing (ListTableFiles) when there
// is one, when `whole_needed` (rowid constraints: row positions count every file) or when
// no active filter is on a partition key; else the listing those filters narrow.
std::shared_ptr<const FileSet> ScanFiles(ParquetTable* table, const std::vector<ColumnFilter>& filters, bool whole_needed);

}  // namespace sqlite_parquet

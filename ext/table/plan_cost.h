// The cost model of the parquet table's xBestIndex (issue 18): estimatedCost and
// estimatedRows from what the file can actually do with each pushed constraint, so that
// SQLite orders joins by real costs. The unit is one value decoded (sqlite's own full scan
// of a native table is about one unit per row and column).
//
//   - a full scan decodes the filter columns for every row, and the other columns SQLite
//     reads only for the rows that match (late materialization);
//   - a range on the row position (rowid, file_row_number) or on a column the file is
//     sorted by (row groups in order: statistics and the page index find the rows) scans
//     only the fraction of rows it selects, but at least a page of each column read;
//   - an equality (or IN) answered by the join index (join_index.h) reads no key column:
//     each matching row costs a page fetch of each column read, part of a page decoded;
//   - a hive partition key selects whole files: a value is assumed to hold a twentieth of
//     the rows (the values are not known before listing), nothing decoded to test it;
//   - any other constraint (unsorted, statistics rarely prune it) scans the filter columns
//     of every row: one lookup is a full column scan, which is what SQLite must compare
//     with putting the table in the outer loop.
#pragma once

#include <vector>

#include "ext/table/constraints.h"

namespace sqlite_parquet {

enum class ConstraintReach : uint8_t {
  kFullScan,   // no pruning to count on
  kSorted,     // row position or a sorted column: only the selected rows are scanned
  kJoinIndex,  // equality answered from the join index: only matching rows are fetched
};

struct CostedConstraint {
  ConstraintOp op = ConstraintOp::kEq;
  ConstraintReach reach = ConstraintReach::kFullScan;
  bool row_position = false;  // rowid or file_row_number (unique values)
  bool partition_key = false;  // a hive key: each value keeps kPartitionValueShare of the rows
  double rows_per_key = 0;    // kJoinIndex: average rows per value when known (0: unknown)
};

struct PlanEstimate {
  double cost = 0;
  double rows = 1;
};

// Rows of a page assumed when the file does not say (a small page of a typical writer).
constexpr double kAssumedRowsPerPage = 20000;

// The estimate of a scan of `table_rows` rows with `constraints` pushed, reading
// `used_columns` columns of which `filter_columns` carry constraints.
PlanEstimate EstimateScan(double table_rows, const std::vector<CostedConstraint>& constraints, int used_columns,
                          int filter_columns);

}  // namespace sqlite_parquet

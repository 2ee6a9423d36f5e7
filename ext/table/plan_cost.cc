// The cost model of the parquet table's xBestIndex (see plan_cost.h).
#include "ext/table/plan_cost.h"

#include <algorithm>

namespace sqlite_parquet {

namespace {

// A matching row fetched through the join index costs, per column read, the decoding of
// part of its page (the reader skips whole pages before it, then decodes up to the row).
constexpr double kFetchCostPerRowColumn = 200;
// Opening a scan (the file's readers, the first pages).
constexpr double kScanOverhead = 10;
// Rows per value of a column looked up by equality when nothing better is known: SQLite's
// own assumption for an equality on an index without ANALYZE statistics.
constexpr double kDefaultRowsPerKey = 10;

// The fraction of rows a constraint is expected to keep.
double Selectivity(const CostedConstraint& c, double table_rows) {
  switch (c.op) {
    case ConstraintOp::kEq:
    case ConstraintOp::kIs:
      if (c.row_position) return 1.0 / table_rows;
      return std::min(1.0, (c.rows_per_key > 0 ? c.rows_per_key : kDefaultRowsPerKey) / table_rows);
    case ConstraintOp::kIn:  // as SQLite, ten values when the list is not known yet
      if (c.row_position) return std::min(1.0, 10.0 / table_rows);
      return std::min(1.0, 10.0 * (c.rows_per_key > 0 ? c.rows_per_key : kDefaultRowsPerKey) / table_rows);
    case ConstraintOp::kIsNull: return 0.1;
    case ConstraintOp::kNe:
    case ConstraintOp::kIsNot:
    case ConstraintOp::kIsNotNull: return 0.9;
    case ConstraintOp::kLike:
    case ConstraintOp::kGlob: return 0.1;
    default: return 0.3;
  }
}

}  // namespace

PlanEstimate EstimateScan(double table_rows, const std::vector<CostedConstraint>& constraints, int used_columns,
                          int filter_columns) {
  const double rows = std::max(table_rows, 1.0);
  double selectivity = 1.0;
  double scan_fraction = 1.0;
  bool sorted = false, indexed = false;
  for (const CostedConstraint& c : constraints) {
    const double s = Selectivity(c, rows);
    selectivity *= s;
    if (c.reach == ConstraintReach::kSorted) {
      scan_fraction *= s;
      sorted = true;
    }
    if (c.reach == ConstraintReach::kJoinIndex && (c.op == ConstraintOp::kEq || c.op == ConstraintOp::kIs ||
                                                   c.op == ConstraintOp::kIn)) {
      indexed = true;
    }
  }
  PlanEstimate estimate;
  const double matching = std::max(1.0, rows * selectivity);
  estimate.rows = matching;
  if (indexed) {
    // Only the matching rows are visited, each on its own page of every column read.
    estimate.cost = kScanOverhead + matching * (1.0 + used_columns) * kFetchCostPerRowColumn;
    return estimate;
  }
  double scanned = rows * scan_fraction;
  // A sorted lookup still decodes a page of each filter column and of each column read.
  const double page = std::min(rows, kAssumedRowsPerPage);
  if (sorted) scanned = std::max(scanned, page);
  estimate.cost = kScanOverhead + scanned * (1.0 + filter_columns) +
                  (sorted ? std::max(matching, page / 2) : matching) * (1.0 + used_columns);
  return estimate;
}

}  // namespace sqlite_parquet

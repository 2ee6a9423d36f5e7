// The cost model of the parquet table's xBestIndex (see plan_cost.h).
#include "ext/table/plan_cost.h"

#include <algorithm>
#include <cmath>

namespace sqlite_parquet {

namespace {

// A lookup answered by the join index: finding the key's rows (a probe or a bisection,
// and xFilter's set-up), then per matching row and column read its share of a decoded
// block. Rows are decoded in blocks kept for the statement (lookup_batch_cache.h); the
// lookups that make a plan's cost matter are many (SQLite assumes a million rows in a
// table it has no statistics for), and many lookups fall in blocks already decoded.
constexpr double kIndexedLookupCost = 10;
constexpr double kFetchCostPerRowColumn = 2;
// Opening a scan (the file's readers, the first pages).
constexpr double kScanOverhead = 10;
// Rows per value of a column looked up by equality when nothing better is known: SQLite's
// own assumption for an equality on an index without ANALYZE statistics.
constexpr double kDefaultRowsPerKey = 10;

// The share of rows assumed for one value of a hive partition key.
constexpr double kPartitionValueShare = 0.05;

// The fraction of rows a constraint is expected to keep.
double Selectivity(const CostedConstraint& c, double table_rows) {
  if (c.partition_key) {
    switch (c.op) {
      case ConstraintOp::kEq:
      case ConstraintOp::kIs: return kPartitionValueShare;
      case ConstraintOp::kIn: return std::min(1.0, 10.0 * kPartitionValueShare);  // ten values, as SQLite
      default: break;
    }
  }
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
    case ConstraintOp::kBboxIntersects: return 0.1;
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
    // Only the matching rows are visited.
    estimate.cost = kIndexedLookupCost + std::log2(rows) + matching * (1.0 + used_columns) * kFetchCostPerRowColumn;
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

// The `parquet` table's query planning (xBestIndex): which WHERE terms, LIMIT/OFFSET and
// ORDER BY the scan takes over (the rules are in constraints.h), the idxStr plan handed to
// xFilter, and the estimated cost and rows SQLite chooses between plans with.
#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "ext/common/connection_interrupt.h"
#include "ext/table/bbox_function.h"
#include "ext/table/constraints.h"
#include "ext/table/listing_pruning.h"
#include "ext/table/parquet_table.h"
#include "ext/table/plan_cost.h"
#include "ext/table/remote_prefetch.h"
#include "ext/common/vtab_errors.h"
#include "format/io/remote_file.h"

namespace sqlite_parquet {

namespace {

// The operator of an xBestIndex constraint, or nullopt when it is not one we push.
std::optional<ConstraintOp> OperatorOf(sqlite3_index_info* info, int i) {
  switch (info->aConstraint[i].op) {
    case SQLITE_INDEX_CONSTRAINT_EQ: return VtabIn(info, i, -1) ? ConstraintOp::kIn : ConstraintOp::kEq;
    case SQLITE_INDEX_CONSTRAINT_NE: return ConstraintOp::kNe;
    case SQLITE_INDEX_CONSTRAINT_LT: return ConstraintOp::kLt;
    case SQLITE_INDEX_CONSTRAINT_LE: return ConstraintOp::kLe;
    case SQLITE_INDEX_CONSTRAINT_GT: return ConstraintOp::kGt;
    case SQLITE_INDEX_CONSTRAINT_GE: return ConstraintOp::kGe;
    case SQLITE_INDEX_CONSTRAINT_IS: return ConstraintOp::kIs;
    case SQLITE_INDEX_CONSTRAINT_ISNOT: return ConstraintOp::kIsNot;
    case SQLITE_INDEX_CONSTRAINT_ISNULL: return ConstraintOp::kIsNull;
    case SQLITE_INDEX_CONSTRAINT_ISNOTNULL: return ConstraintOp::kIsNotNull;
    case SQLITE_INDEX_CONSTRAINT_LIKE: return ConstraintOp::kLike;
    case SQLITE_INDEX_CONSTRAINT_GLOB: return ConstraintOp::kGlob;
    case SQLITE_INDEX_CONSTRAINT_LIMIT: return ConstraintOp::kLimit;  // offered from 3.38 only
    case SQLITE_INDEX_CONSTRAINT_OFFSET: return ConstraintOp::kOffset;
    case kBboxConstraintOp: return ConstraintOp::kBboxIntersects;
    default: return std::nullopt;
  }
}

// Whether usable constraint i (not LIMIT/OFFSET) can be pushed, and whether our filtering
// of it is exactly SQLite's (*omit). See constraints.h for the rules.
bool AcceptConstraint(const ParquetTable& table, sqlite3_index_info* info, int i, ConstraintOp op, bool* omit) {
  const int column = info->aConstraint[i].iColumn;
  ColumnPushdown p{true, ValueClass::kNumeric, true, false};  // the rowid
  if (column >= 0) {
    if (static_cast<size_t>(column) >= table.pushdown.size()) return false;
    p = table.pushdown[static_cast<size_t>(column)];
  }
  if (!p.pushable) return false;
  *omit = false;
  if (op == ConstraintOp::kBboxIntersects) {
    // Only on the columns IsGeospatialColumn names; SQLite still calls the function on
    // each row read (omit stays false): the table prunes row groups.
    return column >= 0 && IsGeospatialColumn(table, column);
  }
  switch (op) {
    case ConstraintOp::kIsNull:
    case ConstraintOp::kIsNotNull:
      *omit = true;  // NULL tests mean the same in every storage class
      return true;
    case ConstraintOp::kLike:
    case ConstraintOp::kGlob:
      return p.value_class == ValueClass::kText;  // a prefix range only: SQLite checks the pattern
    default: break;
  }
  if (p.value_class == ValueClass::kText) {
    const char* collation = sqlite3_vtab_collation(info, i);
    if (collation && sqlite3_stricmp(collation, "BINARY") != 0) return false;
    // No IN on TEXT columns: SQLite turns `c = 'a' COLLATE NOCASE OR c = 'b' COLLATE NOCASE`
    // into `c IN ('a', 'b')` and then reports the column's collation (BINARY) for that IN,
    // while its own evaluation keeps NOCASE, so our BINARY test would drop matching rows.
    // The values of an IN list carry no collation we could check. (Below 3.38 such an IN
    // comes as =, one value at a time, but no right-hand value is known there.)
    if (op == ConstraintOp::kIn) return false;
    sqlite3_value* rhs = VtabRhsValue(info, i);
    if (rhs == nullptr) return false;
    const int type = sqlite3_value_type(rhs);
    if (type == SQLITE_INTEGER || type == SQLITE_FLOAT) return false;
  }
  if (p.value_class == ValueClass::kBlob && LikeMatchesBlobs() &&
      (op == ConstraintOp::kLt || op == ConstraintOp::kLe || op == ConstraintOp::kGt || op == ConstraintOp::kGe)) {
    // Maybe a bound of SQLite's LIKE optimization (sqlite_api.h, LikeMatchesBlobs): SQLite
    // keeps its check, and a text bound filters nothing here (MakeColumnFilter).
    return true;
  }
  // Columns whose conversion can fail (timestamps to epoch units) keep SQLite's check, so
  // that the error is not lost with the row.
  bool can_fail = false;
  if (column >= 0 && static_cast<size_t>(column) < table.file_columns.size()) {
    const std::string& declared = table.file_columns[static_cast<size_t>(column)].declared_type;
    can_fail = declared.rfind("INTEGER", 0) == 0 && declared.find("TIME") != std::string::npos;
  }
  *omit = p.exact && !can_fail;
  return true;
}

// What the file can do with a constraint on `column` (plan_cost.h).
CostedConstraint CostOf(const ParquetTable& table, int column, ConstraintOp op) {
  CostedConstraint c;
  c.op = op;
  c.row_position = column < 0 || column == table.file_row_number_column();
  if (!c.row_position && JoinIndexApplies(table, column, op)) {
    // Equality, sorted or not: repeated lookups are answered by the join index (a sorted
    // column's once they have decoded a quarter of the rows, see ChooseJoinIndex).
    c.reach = ConstraintReach::kJoinIndex;
    c.rows_per_key = table.join_indexes.RowsPerKey(column);
  } else if (c.row_position || (column < static_cast<int>(table.pushdown.size()) &&
                                table.pushdown[static_cast<size_t>(column)].ordered)) {
    c.reach = ConstraintReach::kSorted;
  } else if (column >= table.hive_column() && column < table.filename_column()) {
    // A partition key skips whole files (and their directories) without decoding anything.
    c.reach = ConstraintReach::kSorted;
    c.partition_key = true;
  }
  return c;
}

}  // namespace

// Whether an equality (=, IS, IN) on `column` can be answered by a join index: a plain
// file column, with join_index_memory above 0. (A sorted column's lookups are costed as
// sorted: see CostOf.) Not for remote files: a kept index is reused while the files' sizes
// and times are unchanged, which a URL does not have.
bool JoinIndexApplies(const ParquetTable& table, int column, ConstraintOp op) {
  if (table.options.join_index_memory <= 0 || table.options.union_by_name) return false;
  if (parquet::IsRemoteUrl(table.options.filename)) return false;
  if (column < 0 || column >= table.hive_column()) return false;
  if (op != ConstraintOp::kEq && op != ConstraintOp::kIs && op != ConstraintOp::kIn) return false;
  const ColumnPushdown& p = table.pushdown[static_cast<size_t>(column)];
  return p.pushable && p.value_class != ValueClass::kNull;
}

namespace {

// xBestIndex once the files are listed and the first one's statistics read.
int PlanScan(ParquetTable* table, sqlite3_index_info* info) {
  // A table planned without I/O (whose footers planning never reads): a fixed guess, which
  // the pushed constraints scale as for any table.
  constexpr int64_t kUnreadRowEstimate = 1000000;
  const int64_t known_rows = table->order_statistics_read ? table->estimated_rows : kUnreadRowEstimate;
  const double rows = static_cast<double>(std::max<int64_t>(known_rows, 1));
  std::vector<PlanTerm> terms;
  int limit_index = -1, offset_index = -1;
  bool all_omitted = true;
  std::vector<CostedConstraint> costed;  // plan_cost.h
  uint64_t filter_columns = 0;  // bit per column a pushed constraint decodes
  std::vector<int> argv_of_constraint(static_cast<size_t>(info->nConstraint), 0);
  for (int i = 0; i < info->nConstraint; i++) {
    const auto& constraint = info->aConstraint[i];
    std::optional<ConstraintOp> op = OperatorOf(info, i);
    if (op == ConstraintOp::kLimit || op == ConstraintOp::kOffset) {
      if (constraint.usable) (op == ConstraintOp::kLimit ? limit_index : offset_index) = i;
      continue;
    }
    bool omit = false;
    if (op == ConstraintOp::kIn && !VtabIn(info, i, 1)) {
      // SQLite cannot hand over the list at once: it runs the scan once per value, as =
      // (and then refuses a plan that takes LIMIT).
      op = ConstraintOp::kEq;
      all_omitted = false;
    }
    if (!constraint.usable || !op || !AcceptConstraint(*table, info, i, *op, &omit)) {
      all_omitted = false;
      continue;
    }
    terms.push_back(PlanTerm{constraint.iColumn, *op});
    argv_of_constraint[static_cast<size_t>(i)] = TermHasArgument(*op) ? 1 : 0;
    info->aConstraintUsage[i].omit = omit ? 1 : 0;
    all_omitted = all_omitted && omit;
    costed.push_back(CostOf(*table, constraint.iColumn, *op));
    // Partition keys and filename are per file: nothing is decoded to test them.
    if (constraint.iColumn >= 0 && constraint.iColumn < table->hive_column() && constraint.iColumn < 64) {
      filter_columns |= uint64_t{1} << constraint.iColumn;
    }
  }
  // ORDER BY one column the single file is sorted by, ascending (checked on first use).
  const bool order_consumed = info->nOrderBy == 1 && info->aOrderBy[0].desc == 0 &&
                              table->order_candidate_column >= 0 &&
                              info->aOrderBy[0].iColumn == table->order_candidate_column && OrderVerified(table);
  if (order_consumed) info->orderByConsumed = 1;
  // LIMIT and OFFSET only when SQLite filters and sorts nothing after us.
  if (all_omitted && limit_index >= 0 && (info->nOrderBy == 0 || order_consumed)) {
    terms.push_back(PlanTerm{kRowidColumn, ConstraintOp::kLimit});
    argv_of_constraint[static_cast<size_t>(limit_index)] = 1;
    info->aConstraintUsage[limit_index].omit = 1;
    if (offset_index >= 0) {
      // The LIMIT value excludes the OFFSET, which SQLite still applies (omit would make
      // the table skip it, but SQLite 3.40 then shares one offset counter between the
      // members of a compound SELECT and each member would skip the whole offset).
      terms.push_back(PlanTerm{kRowidColumn, ConstraintOp::kOffset});
      argv_of_constraint[static_cast<size_t>(offset_index)] = 1;
    }
  }
  // xFilter arguments in the order of `terms` (which follow the constraint order, LIMIT and
  // OFFSET last).
  int next_argv = 1;
  for (int i = 0; i < info->nConstraint; i++) {
    if (!argv_of_constraint[static_cast<size_t>(i)]) continue;
    const std::optional<ConstraintOp> op = OperatorOf(info, i);
    if (op == ConstraintOp::kLimit || op == ConstraintOp::kOffset) continue;
    info->aConstraintUsage[i].argvIndex = next_argv++;
  }
  if (limit_index >= 0 && argv_of_constraint[static_cast<size_t>(limit_index)]) {
    info->aConstraintUsage[limit_index].argvIndex = next_argv++;
    if (offset_index >= 0) info->aConstraintUsage[offset_index].argvIndex = next_argv++;
  }
  int used = 0;
  for (int i = 0; i < 64; i++) used += (info->colUsed >> i) & 1;
  int filtered = 0;
  for (int i = 0; i < 64; i++) filtered += (filter_columns >> i) & 1;
  const PlanEstimate estimate = EstimateScan(rows, costed, used, filtered);
  info->estimatedRows = static_cast<sqlite3_int64>(estimate.rows);
  info->estimatedCost = estimate.cost;
  // Every table, so that EXPLAIN QUERY PLAN reads alike for local and remote files (only a
  // remote scan uses it).
  info->idxNum = table->columns_used_handles.HandleOf(info->colUsed);
  if (!terms.empty()) {
    const std::string plan = EncodePlan(terms, table->column_names);
    info->idxStr = static_cast<char*>(sqlite3_malloc64(plan.size() + 1));
    if (!info->idxStr) return SQLITE_NOMEM;
    std::memcpy(info->idxStr, plan.c_str(), plan.size() + 1);
    info->needToFreeIdxStr = 1;
  }
  return SQLITE_OK;
}

}  // namespace

bool IsGeospatialColumn(const ParquetTable& table, int column) {
  if (column < 0 || column >= table.hive_column()) return false;
  // Any BLOB column: GeoParquet 1.x files (DuckDB's default, Overture) store WKB as plain
  // binary, named only in the `geo` metadata. Pruning needs GeospatialStatistics or a
  // covering column, which other columns do not have; a value that is not WKB is kept
  // for SQLite's call of the function to report.
  return table.file_columns[static_cast<size_t>(column)].declared_type.rfind("BLOB", 0) == 0;
}

namespace vtab {

int FindFunction(sqlite3_vtab*, int argc, const char* name, void (**function)(sqlite3_context*, int, sqlite3_value**),
                 void** user_data) {
  if (argc != 2 || sqlite3_stricmp(name, "parquet_bbox_intersects") != 0) return 0;
  *function = BboxIntersectsFunction;
  *user_data = nullptr;
  // Before 3.25 SQLite knows no function constraints: an overload only.
  return RunningSqliteAtLeast(3025000) ? kBboxConstraintOp : 1;
}

int BestIndex(sqlite3_vtab* vtab, sqlite3_index_info* info) {
  ParquetTable* table = reinterpret_cast<ParquetTable*>(vtab);
  // The first file work of a connected table: SQLite plans only a direct use.
  if (!table->unusable.empty()) {
    SetVtabError(vtab, table->unusable);
    return SQLITE_ERROR;
  }
  try {
    // Planning's remote requests (the listing, the first file's footer, the ORDER BY check)
    // end at sqlite3_interrupt() too, and the statement with them: the interrupt is not lost.
    std::optional<ConnectionInterruptScope> interruptible;
    if (parquet::IsRemoteUrl(table->options.filename)) interruptible.emplace(table->db);
    // A dataset with partition keys not listed yet is planned without listing: each scan
    // lists what its partition constraints leave (listing_pruning.h).
    if (!table->plan_without_io && (table->files || !ListingPrunable(table))) {
      ListTableFiles(table);
      ReadOrderStatistics(table);  // a table planned without I/O never consumes ORDER BY
    }
    return PlanScan(table, info);
  } catch (const std::bad_alloc&) {
    return SQLITE_NOMEM;
  } catch (const parquet::HttpInterrupted&) {
    SetVtabError(vtab, "interrupted");
    return SQLITE_INTERRUPT;
  } catch (const std::exception& e) {
    SetVtabError(vtab, e.what());
    return SQLITE_ERROR;
  }
}

}  // namespace vtab

}  // namespace sqlite_parquet

// The constraints the parquet table takes from SQLite (xBestIndex -> xFilter): what a plan
// is, how it travels in idxStr, how each constraint's right-hand value is turned into the
// value SQLite would compare the column with, and the two questions the scan asks:
// does this row match (RowMatches), and can any row with values in these bounds match
// (MayMatch).
//
// PLAN ENCODING (idxStr). The pushed terms joined by " AND ", in the order of their
// xFilter arguments, each "<column><operator>":
//
//   col=?  col!=?  col<?  col<=?  col>?  col>=?  col IS ?  col IS NOT ?  col IS NULL
//   col IS NOT NULL  col IN (?)  col LIKE ?  col GLOB ?  col BBOX_INTERSECTS ?  LIMIT ?  OFFSET ?
//
// Every "?" is one xFilter argument (IN: the whole list, read with sqlite3_vtab_in_first,
// which SQLite 3.38 brought: below it an IN is planned as =, one value per xFilter;
// OFFSET only tells how many rows past LIMIT SQLite will skip itself).
// <column> is the table's column name as declared, double-quoted (with "" for ") unless
// it is a plain identifier other than rowid, limit or offset; `rowid` is the rowid. idxNum
// carries the columns read (ColumnsUsedHandles, remote_prefetch.h). So EXPLAIN QUERY PLAN
// shows e.g. `VIRTUAL TABLE INDEX 3:l_orderkey=? AND l_shipdate<?`.
//
// SEMANTICS. SQLite compares `column op value` after applying an affinity to both sides:
// the column's when the value has none (a literal, a parameter), NUMERIC when either side
// is INTEGER/REAL, nothing when both are TEXT/BLOB. For a column of numbers the affinity
// is therefore always NUMERIC whatever the right-hand side is: a text value that looks
// like a number becomes that number (sqlite3_value_numeric_type does exactly this, on a
// value of the connection: see NumericAffinity). A
// column of BLOBs or NULLs compares the same whatever affinity applies. For a TEXT column
// the right side's own affinity matters (a CAST to INTEGER makes the comparison numeric),
// which xBestIndex cannot see: only text and blob constants known when the statement is
// prepared (sqlite3_vtab_rhs_value, so none below SQLite 3.38) are pushed, and no IN lists
// (SQLite makes an IN of `c = x COLLATE NOCASE OR c = y COLLATE NOCASE` and reports BINARY
// for it).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ext/common/sql_value.h"
#include "ext/common/sqlite_api.h"

namespace sqlite_parquet {

enum class ConstraintOp : uint8_t {
  kEq, kNe, kLt, kLe, kGt, kGe, kIs, kIsNot, kIsNull, kIsNotNull, kIn, kLike, kGlob, kLimit, kOffset,
  kBboxIntersects,  // parquet_bbox_intersects(col, box) (bbox_function.h)
};

constexpr int kRowidColumn = -1;

struct PlanTerm {
  int column = kRowidColumn;  // table column; kRowidColumn; unused for LIMIT/OFFSET
  ConstraintOp op = ConstraintOp::kEq;
};

// Whether the term takes an xFilter argument.
bool TermHasArgument(ConstraintOp op);

// idxStr of a plan; `names` are the table's column names by column number.
std::string EncodePlan(const std::vector<PlanTerm>& terms, const std::vector<std::string>& names);
// The plan back from idxStr; false when idxStr is not one EncodePlan made for these names.
bool DecodePlan(const char* idx_str, const std::vector<std::string>& names, std::vector<PlanTerm>* terms);

// One pushed constraint in xFilter, with its right-hand values ready to compare.
struct ColumnFilter {
  int column = kRowidColumn;
  ConstraintOp op = ConstraintOp::kEq;
  // Comparison values after affinity (IN: all of them). LIKE/GLOB: pairs (lo, hi) of text
  // ranges [lo, hi) one of which holds every match (hi NULL: no upper end).
  // BBOX_INTERSECTS: xmin, ymin, xmax, ymax as REALs.
  std::vector<SqlValue> values;
  std::vector<std::string> storage;  // owns the bytes of text/blob values
  // False: the constraint could not be turned into an exact test (SQLite checks it);
  // RowMatches and MayMatch then accept everything.
  bool active = true;

  ColumnFilter() = default;
  ColumnFilter(const ColumnFilter&) = delete;
  ColumnFilter& operator=(const ColumnFilter&) = delete;
  ColumnFilter(ColumnFilter&&) = default;
  ColumnFilter& operator=(ColumnFilter&&) = default;
};

// Text compared with a column of numbers, converted as NUMERIC affinity converts it by
// SQLite itself: sqlite3_value_numeric_type needs a value that belongs to a connection
// (from 3.52 it takes the connection's mutex, and a sqlite3_value_dup copy has none) and
// changes the value in place, which xFilter's arguments must not see, so the value is
// passed through `SELECT ?1` on the table's connection, prepared on first use and kept
// until the table is disconnected (one statement per table, not one per value).
class NumericAffinity {
 public:
  explicit NumericAffinity(sqlite3* db) : db_(db) {}
  ~NumericAffinity();
  NumericAffinity(const NumericAffinity&) = delete;
  NumericAffinity& operator=(const NumericAffinity&) = delete;
  // The value of text `raw` after NUMERIC affinity; text that stays text is copied to
  // *storage (which `out` then views). False when it could not be computed.
  bool Convert(sqlite3_value* raw, SqlValue* out, std::string* storage);

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

// Builds the filter of `term` from its xFilter argument (nullptr for IS NULL / IS NOT
// NULL) for a column of value class `value_class`; `affinity` converts text compared with
// numbers (null: such a comparison is left to SQLite). Throws std::bad_alloc only.
ColumnFilter MakeColumnFilter(NumericAffinity* affinity, const PlanTerm& term, sqlite3_value* argument,
                              ValueClass value_class);

// Whether a row whose column value is `value` satisfies the filter as SQLite would decide
// (an inactive filter accepts every row; LIKE/GLOB only reject rows outside their range).
bool RowMatches(const ColumnFilter& filter, const SqlValue& value);

// What is known about the values of a column in a row group, page or file.
struct ValueBounds {
  std::optional<SqlValue> min;  // every non-null value is >= min (SQLite order)
  std::optional<SqlValue> max;  // every non-null value is <= max
  bool may_have_null = true;
  bool may_have_non_null = true;
  std::string min_bytes, max_bytes;  // own the bytes of text/blob bounds (not copyable safely)

  ValueBounds() = default;
  ValueBounds(const ValueBounds&) = delete;
  ValueBounds& operator=(const ValueBounds&) = delete;
};

// False when no row with values in `bounds` can satisfy the filter.
bool MayMatch(const ColumnFilter& filter, const ValueBounds& bounds);

// For filters on an integer-valued column (rowid, file_row_number): narrows [*lo, *hi) to
// a superset of the values the filter accepts.
void NarrowIntegerRange(const ColumnFilter& filter, int64_t* lo, int64_t* hi);

// The literal prefixes a text must start with to match a LIKE or GLOB pattern: GLOB's up
// to the first wildcard; for LIKE every ASCII case variant of it (up to its third letter,
// so at most 8). Empty when the pattern starts with a wildcard. Exposed for tests.
std::vector<std::string> PatternPrefixes(std::string_view pattern, bool glob);

}  // namespace sqlite_parquet

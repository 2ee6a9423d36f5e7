// The part of constraints.h that reads SQLite values: xFilter's arguments turned into
// ColumnFilters, with the affinity SQLite would apply to them (MakeColumnFilter,
// NumericAffinity).
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "ext/common/sqlite_values.h"
#include "ext/table/bbox_function.h"
#include "ext/table/constraints.h"

namespace sqlite_parquet {

namespace {

// Reads `raw` after NUMERIC affinity, the conversion SQLite applies to the right-hand
// side when the column holds numbers (NumericAffinity: the running library's own rules);
// false when it could not be computed.
bool ReadWithNumericAffinity(NumericAffinity* affinity, sqlite3_value* raw, ColumnFilter* filter, SqlValue* out) {
  if (sqlite3_value_type(raw) == SQLITE_TEXT) {
    std::string storage;
    if (affinity == nullptr || !affinity->Convert(raw, out, &storage)) return false;
    if (out->type == SqlValue::Type::kText || out->type == SqlValue::Type::kBlob) filter->storage.push_back(std::move(storage));
    return true;
  }
  *out = ReadSqlValue(raw);
  if (out->type == SqlValue::Type::kText || out->type == SqlValue::Type::kBlob) filter->storage.emplace_back(out->bytes);
  return true;
}

// Appends `raw` compared as SQLite would against a column of `value_class`; false when
// that comparison cannot be reproduced exactly.
bool AddComparisonValue(NumericAffinity* affinity, sqlite3_value* raw, ValueClass value_class, ColumnFilter* filter,
                        std::vector<SqlValue>* pending) {
  if (value_class == ValueClass::kNumeric) {
    SqlValue v;
    if (!ReadWithNumericAffinity(affinity, raw, filter, &v)) return false;
    pending->push_back(v);
    return true;
  }
  SqlValue v = ReadSqlValue(raw);
  if (value_class == ValueClass::kText && v.is_numeric()) return false;
  if (v.type == SqlValue::Type::kText || v.type == SqlValue::Type::kBlob) filter->storage.emplace_back(v.bytes);
  pending->push_back(v);
  return true;
}

}  // namespace

NumericAffinity::~NumericAffinity() { sqlite3_finalize(stmt_); }

bool NumericAffinity::Convert(sqlite3_value* raw, SqlValue* out, std::string* storage) {
  if (db_ == nullptr) return false;
  if (stmt_ == nullptr && sqlite3_prepare_v2(db_, "SELECT ?1", -1, &stmt_, nullptr) != SQLITE_OK) {
    sqlite3_finalize(stmt_);
    stmt_ = nullptr;
    return false;
  }
  bool converted = false;
  if (sqlite3_bind_value(stmt_, 1, raw) == SQLITE_OK && sqlite3_step(stmt_) == SQLITE_ROW) {
    sqlite3_value* result = sqlite3_column_value(stmt_, 0);
    sqlite3_value_numeric_type(result);
    try {
      *out = ReadSqlValue(result);
    } catch (...) {  // out of memory: the statement is left ready for the next call
      sqlite3_reset(stmt_);
      sqlite3_clear_bindings(stmt_);
      throw;
    }
    // Text that stays text is copied before the statement is reset.
    if (out->type == SqlValue::Type::kText || out->type == SqlValue::Type::kBlob) {
      storage->assign(out->bytes);
      out->bytes = *storage;
    }
    converted = true;
  }
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
  return converted;
}

ColumnFilter MakeColumnFilter(NumericAffinity* affinity, const PlanTerm& term, sqlite3_value* argument,
                              ValueClass value_class) {
  ColumnFilter filter;
  filter.column = term.column;
  filter.op = term.op;
  if (!TermHasArgument(term.op)) return filter;
  if (term.op == ConstraintOp::kBboxIntersects) {
    parquet::QueryBox box;
    std::string error;
    // A box that is not one: SQLite's call of the function reports it.
    if (argument == nullptr || !QueryBoxOf(argument, &box, &error)) {
      filter.active = false;
      return filter;
    }
    for (double bound : {box.xmin, box.ymin, box.xmax, box.ymax}) filter.values.push_back(SqlValue::Real(bound));
    return filter;
  }
  if (term.op == ConstraintOp::kLike || term.op == ConstraintOp::kGlob) {
    filter.active = false;
    if (value_class != ValueClass::kText || argument == nullptr || sqlite3_value_type(argument) != SQLITE_TEXT) {
      return filter;
    }
    std::string_view pattern(reinterpret_cast<const char*>(sqlite3_value_text(argument)),
                             static_cast<size_t>(sqlite3_value_bytes(argument)));
    const std::vector<std::string> prefixes = PatternPrefixes(pattern, term.op == ConstraintOp::kGlob);
    if (prefixes.empty()) return filter;
    // Ranges [prefix, successor): the successor drops trailing 0xFF bytes and increments
    // the last byte; none (NULL) when nothing is left.
    filter.storage.reserve(prefixes.size() * 2);
    for (const std::string& prefix : prefixes) {
      std::string above = prefix;
      while (!above.empty() && static_cast<unsigned char>(above.back()) == 0xFF) above.pop_back();
      if (!above.empty()) above.back() = static_cast<char>(static_cast<unsigned char>(above.back()) + 1);
      filter.storage.push_back(prefix);
      filter.storage.push_back(std::move(above));
    }
    for (size_t i = 0; i < filter.storage.size(); i += 2) {
      filter.values.push_back(SqlValue::Text(filter.storage[i]));
      filter.values.push_back(filter.storage[i + 1].empty() ? SqlValue::Null() : SqlValue::Text(filter.storage[i + 1]));
    }
    filter.active = true;
    return filter;
  }
  if (value_class == ValueClass::kBlob && argument != nullptr && sqlite3_value_type(argument) == SQLITE_TEXT &&
      (term.op == ConstraintOp::kLt || term.op == ConstraintOp::kLe || term.op == ConstraintOp::kGt ||
       term.op == ConstraintOp::kGe) &&
      LikeMatchesBlobs()) {
    // Perhaps a bound of SQLite's LIKE optimization, which BLOBs matching the LIKE do not
    // satisfy (sqlite_api.h): SQLite checks it (table_plan.cc), nothing is filtered here.
    filter.active = false;
    return filter;
  }
  std::vector<SqlValue> pending;
  bool exact = true;
  if (term.op == ConstraintOp::kIn) {
    // Only SQLite 3.38 and later hand over IN lists (table_plan.cc plans IN nowhere else):
    // without the list the term is not ours to test, SQLite's own check decides.
    exact = RunningSqliteAtLeast(kSqliteWithVtabIn);
    sqlite3_value* v = nullptr;
    for (int rc = exact ? sqlite3_vtab_in_first(argument, &v) : SQLITE_DONE; rc == SQLITE_OK && v;
         rc = sqlite3_vtab_in_next(argument, &v)) {
      exact = AddComparisonValue(affinity, v, value_class, &filter, &pending) && exact;
    }
  } else {
    exact = AddComparisonValue(affinity, argument, value_class, &filter, &pending);
  }
  if (!exact) {
    filter.active = false;
    filter.storage.clear();
    return filter;
  }
  // The views point into `storage`, filled in the same order and no longer growing.
  size_t next_storage = 0;
  for (SqlValue& v : pending) {
    if (v.type == SqlValue::Type::kText || v.type == SqlValue::Type::kBlob) {
      v.bytes = filter.storage[next_storage++];
    }
  }
  if (term.op == ConstraintOp::kIn) {
    // Sorted (NULLs first), so that RowMatches can search the list.
    std::sort(pending.begin(), pending.end(),
              [](const SqlValue& a, const SqlValue& b) { return CompareSqlValues(a, b) < 0; });
  }
  filter.values = std::move(pending);
  return filter;
}

}  // namespace sqlite_parquet

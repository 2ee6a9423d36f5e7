// Constraint capture for the parquet table: plan encoding in idxStr, right-hand values
// with SQLite's affinity rules, row tests and bound tests (see constraints.h).
#include "ext/constraints.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace sqlite_parquet {

namespace {

struct OpSpelling {
  ConstraintOp op;
  const char* text;  // after the column name
};

// Longer spellings first where one is a prefix of another.
constexpr OpSpelling kOps[] = {
    {ConstraintOp::kIsNotNull, " IS NOT NULL"}, {ConstraintOp::kIsNull, " IS NULL"}, {ConstraintOp::kIsNot, " IS NOT ?"},
    {ConstraintOp::kIs, " IS ?"},     {ConstraintOp::kIn, " IN (?)"},     {ConstraintOp::kLike, " LIKE ?"},
    {ConstraintOp::kGlob, " GLOB ?"}, {ConstraintOp::kNe, "!=?"},         {ConstraintOp::kLe, "<=?"},
    {ConstraintOp::kGe, ">=?"},       {ConstraintOp::kLt, "<?"},          {ConstraintOp::kGt, ">?"},
    {ConstraintOp::kEq, "=?"},
};

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); i++) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

bool IsPlainIdentifier(const std::string& name) {
  if (name.empty() || EqualsIgnoreCase(name, "rowid") || EqualsIgnoreCase(name, "limit") ||
      EqualsIgnoreCase(name, "offset")) {
    return false;
  }
  for (size_t i = 0; i < name.size(); i++) {
    const char c = name[i];
    const bool letter = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
    if (!letter && !(i > 0 && c >= '0' && c <= '9')) return false;
  }
  return true;
}

void AppendName(int column, const std::vector<std::string>& names, std::string* out) {
  if (column == kRowidColumn) {
    *out += "rowid";
    return;
  }
  const std::string& name = names[static_cast<size_t>(column)];
  if (IsPlainIdentifier(name)) {
    *out += name;
    return;
  }
  *out += '"';
  for (char c : name) {
    *out += c;
    if (c == '"') *out += '"';
  }
  *out += '"';
}

// Reads a column name at *p; sets *column.
bool ParseName(const char** p, const std::vector<std::string>& names, int* column) {
  std::string name;
  const char* s = *p;
  if (*s == '"') {
    s++;
    while (true) {
      if (*s == '\0') return false;
      if (*s == '"') {
        if (s[1] != '"') break;
        s++;
      }
      name += *s++;
    }
    s++;
  } else {
    while ((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_' || (*s >= '0' && *s <= '9')) name += *s++;
    if (name == "rowid") {
      *column = kRowidColumn;
      *p = s;
      return true;
    }
  }
  for (size_t i = 0; i < names.size(); i++) {
    if (names[i] == name) {
      *column = static_cast<int>(i);
      *p = s;
      return true;
    }
  }
  return false;
}

SqlValue ReadValue(sqlite3_value* v) {
  switch (sqlite3_value_type(v)) {
    case SQLITE_INTEGER: return SqlValue::Integer(sqlite3_value_int64(v));
    case SQLITE_FLOAT: return SqlValue::Real(sqlite3_value_double(v));
    case SQLITE_TEXT: {
      const unsigned char* text = sqlite3_value_text(v);
      return SqlValue::Text(std::string_view(reinterpret_cast<const char*>(text), static_cast<size_t>(sqlite3_value_bytes(v))));
    }
    case SQLITE_BLOB: {
      const void* blob = sqlite3_value_blob(v);
      const size_t n = static_cast<size_t>(sqlite3_value_bytes(v));
      return SqlValue::Blob(n ? std::string_view(static_cast<const char*>(blob), n) : std::string_view());
    }
    default: return SqlValue::Null();
  }
}

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
  *out = ReadValue(raw);
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
  SqlValue v = ReadValue(raw);
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
    *out = ReadValue(result);
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

bool TermHasArgument(ConstraintOp op) { return op != ConstraintOp::kIsNull && op != ConstraintOp::kIsNotNull; }

std::string EncodePlan(const std::vector<PlanTerm>& terms, const std::vector<std::string>& names) {
  std::string out;
  for (const PlanTerm& term : terms) {
    if (!out.empty()) out += " AND ";
    if (term.op == ConstraintOp::kLimit) {
      out += "LIMIT ?";
      continue;
    }
    if (term.op == ConstraintOp::kOffset) {
      out += "OFFSET ?";
      continue;
    }
    AppendName(term.column, names, &out);
    for (const OpSpelling& spelling : kOps) {
      if (spelling.op == term.op) out += spelling.text;
    }
  }
  return out;
}

bool DecodePlan(const char* idx_str, const std::vector<std::string>& names, std::vector<PlanTerm>* terms) {
  terms->clear();
  if (idx_str == nullptr || *idx_str == '\0') return true;
  const char* p = idx_str;
  while (true) {
    PlanTerm term;
    if (std::strncmp(p, "LIMIT ?", 7) == 0) {
      term.op = ConstraintOp::kLimit;
      p += 7;
    } else if (std::strncmp(p, "OFFSET ?", 8) == 0) {
      term.op = ConstraintOp::kOffset;
      p += 8;
    } else {
      if (!ParseName(&p, names, &term.column)) return false;
      bool found = false;
      for (const OpSpelling& spelling : kOps) {
        const size_t n = std::strlen(spelling.text);
        if (std::strncmp(p, spelling.text, n) == 0) {
          term.op = spelling.op;
          p += n;
          found = true;
          break;
        }
      }
      if (!found) return false;
    }
    terms->push_back(term);
    if (*p == '\0') return true;
    if (std::strncmp(p, " AND ", 5) != 0) return false;
    p += 5;
  }
}

std::vector<std::string> PatternPrefixes(std::string_view pattern, bool glob) {
  std::vector<std::string> prefixes = {""};
  int letters = 0;
  for (char c : pattern) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (glob ? (c == '*' || c == '?' || c == '[') : (c == '%' || c == '_')) break;
    // LIKE folds ASCII case unless case_sensitive_like is on, which a virtual table cannot
    // see: every case variant is a prefix (the first three letters; then the prefix ends).
    // Other bytes may fold under a replaced like() (ICU): the prefix ends there too.
    const bool letter = (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z');
    if (!glob && (u >= 0x80 || (letter && letters == 3))) break;
    if (!glob && letter) {
      letters++;
      const size_t n = prefixes.size();
      for (size_t i = 0; i < n; i++) {
        prefixes.push_back(prefixes[i] + static_cast<char>(u ^ 0x20));
        prefixes[i] += c;
      }
    } else {
      for (std::string& prefix : prefixes) prefix += c;
    }
  }
  if (prefixes[0].empty()) return {};
  return prefixes;
}

ColumnFilter MakeColumnFilter(NumericAffinity* affinity, const PlanTerm& term, sqlite3_value* argument,
                              ValueClass value_class) {
  ColumnFilter filter;
  filter.column = term.column;
  filter.op = term.op;
  if (!TermHasArgument(term.op)) return filter;
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
  std::vector<SqlValue> pending;
  bool exact = true;
  if (term.op == ConstraintOp::kIn) {
    sqlite3_value* v = nullptr;
    for (int rc = sqlite3_vtab_in_first(argument, &v); rc == SQLITE_OK && v; rc = sqlite3_vtab_in_next(argument, &v)) {
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

bool RowMatches(const ColumnFilter& f, const SqlValue& value) {
  if (!f.active) return true;
  switch (f.op) {
    case ConstraintOp::kIsNull: return value.is_null();
    case ConstraintOp::kIsNotNull: return !value.is_null();
    case ConstraintOp::kIs:
    case ConstraintOp::kIsNot: {
      const SqlValue& c = f.values[0];
      bool same;
      if (value.is_null() || c.is_null()) {
        same = value.is_null() && c.is_null();
      } else {
        same = CompareSqlValues(value, c) == 0;
      }
      return f.op == ConstraintOp::kIs ? same : !same;
    }
    case ConstraintOp::kIn: {
      if (value.is_null()) return false;
      auto it = std::lower_bound(f.values.begin(), f.values.end(), value,
                                 [](const SqlValue& a, const SqlValue& b) { return CompareSqlValues(a, b) < 0; });
      return it != f.values.end() && CompareSqlValues(*it, value) == 0;
    }
    case ConstraintOp::kLike:
    case ConstraintOp::kGlob:
      if (value.type != SqlValue::Type::kText) return value.type != SqlValue::Type::kNull;
      for (size_t i = 0; i + 1 < f.values.size(); i += 2) {
        if (CompareSqlValues(value, f.values[i]) >= 0 &&
            (f.values[i + 1].is_null() || CompareSqlValues(value, f.values[i + 1]) < 0)) {
          return true;
        }
      }
      return false;
    case ConstraintOp::kLimit:
    case ConstraintOp::kOffset: return true;
    default: break;
  }
  const SqlValue& c = f.values[0];
  if (value.is_null() || c.is_null()) return false;
  const int cmp = CompareSqlValues(value, c);
  switch (f.op) {
    case ConstraintOp::kEq: return cmp == 0;
    case ConstraintOp::kNe: return cmp != 0;
    case ConstraintOp::kLt: return cmp < 0;
    case ConstraintOp::kLe: return cmp <= 0;
    case ConstraintOp::kGt: return cmp > 0;
    case ConstraintOp::kGe: return cmp >= 0;
    default: return true;
  }
}

bool MayMatch(const ColumnFilter& f, const ValueBounds& b) {
  if (!f.active) return true;
  auto in_bounds = [&](const SqlValue& c) {
    return (!b.min || CompareSqlValues(*b.min, c) <= 0) && (!b.max || CompareSqlValues(c, *b.max) <= 0);
  };
  auto all_equal = [&](const SqlValue& c) {
    return b.min && b.max && CompareSqlValues(*b.min, c) == 0 && CompareSqlValues(*b.max, c) == 0;
  };
  switch (f.op) {
    case ConstraintOp::kIsNull: return b.may_have_null;
    case ConstraintOp::kIsNotNull: return b.may_have_non_null;
    case ConstraintOp::kIs:
      if (f.values[0].is_null()) return b.may_have_null;
      return b.may_have_non_null && in_bounds(f.values[0]);
    case ConstraintOp::kIsNot:
      if (f.values[0].is_null()) return b.may_have_non_null;
      return b.may_have_null || (b.may_have_non_null && !all_equal(f.values[0]));
    case ConstraintOp::kLimit:
    case ConstraintOp::kOffset: return true;
    default: break;
  }
  if (!b.may_have_non_null) return false;
  switch (f.op) {
    case ConstraintOp::kIn:
      for (const SqlValue& c : f.values) {
        if (!c.is_null() && in_bounds(c)) return true;
      }
      return false;
    case ConstraintOp::kLike:
    case ConstraintOp::kGlob:
      for (size_t i = 0; i + 1 < f.values.size(); i += 2) {
        if (b.max && CompareSqlValues(*b.max, f.values[i]) < 0) continue;
        if (!f.values[i + 1].is_null() && b.min && CompareSqlValues(*b.min, f.values[i + 1]) >= 0) continue;
        return true;
      }
      return false;
    default: break;
  }
  const SqlValue& c = f.values[0];
  if (c.is_null()) return false;
  switch (f.op) {
    case ConstraintOp::kEq: return in_bounds(c);
    case ConstraintOp::kNe: return !all_equal(c);
    case ConstraintOp::kLt: return !b.min || CompareSqlValues(*b.min, c) < 0;
    case ConstraintOp::kLe: return !b.min || CompareSqlValues(*b.min, c) <= 0;
    case ConstraintOp::kGt: return !b.max || CompareSqlValues(*b.max, c) > 0;
    case ConstraintOp::kGe: return !b.max || CompareSqlValues(*b.max, c) >= 0;
    default: return true;
  }
}

void NarrowIntegerRange(const ColumnFilter& f, int64_t* lo, int64_t* hi) {
  if (!f.active) return;
  // Integer bounds of a numeric value, widened by one for reals (a superset is enough).
  auto floor_of = [](const SqlValue& c, int64_t* out) {
    if (c.type == SqlValue::Type::kInteger) {
      *out = c.integer;
      return true;
    }
    if (c.type != SqlValue::Type::kReal || !(c.real > -9.2e18 && c.real < 9.2e18)) return false;
    *out = static_cast<int64_t>(std::floor(c.real));
    return true;
  };
  int64_t v = 0;
  switch (f.op) {
    case ConstraintOp::kEq:
    case ConstraintOp::kIs:
      if (floor_of(f.values[0], &v) && v < INT64_MAX) {
        if (v > *lo) *lo = v;
        if (v + 1 < *hi) *hi = v + 1;
      }
      return;
    case ConstraintOp::kIn: {
      int64_t min = INT64_MAX, max = INT64_MIN;
      for (const SqlValue& c : f.values) {
        if (c.is_null()) continue;
        if (!floor_of(c, &v) || v == INT64_MAX) return;
        if (v < min) min = v;
        if (v > max) max = v;
      }
      if (min > max) {  // only NULLs: nothing matches (an empty [lo, hi); lo - 1 could overflow)
        *hi = *lo;
        return;
      }
      if (min > *lo) *lo = min;
      if (max + 1 < *hi) *hi = max + 1;
      return;
    }
    case ConstraintOp::kLt:
    case ConstraintOp::kLe:
      if (floor_of(f.values[0], &v) && v < INT64_MAX && v + 1 < *hi) *hi = v + 1;
      return;
    case ConstraintOp::kGt:
    case ConstraintOp::kGe:
      if (floor_of(f.values[0], &v) && v > *lo) *lo = v;
      return;
    default: return;
  }
}

}  // namespace sqlite_parquet

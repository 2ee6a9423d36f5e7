// Constraints of the parquet table without the SQLite API (see constraints.h): the plan's
// encoding in idxStr, row tests and bound tests. constraint_arguments.cc makes the filters
// from xFilter's arguments.
#include "ext/table/constraints.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "format/values/wkb.h"

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
    {ConstraintOp::kEq, "=?"},        {ConstraintOp::kBboxIntersects, " BBOX_INTERSECTS ?"},
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

}  // namespace

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
    case ConstraintOp::kBboxIntersects: {
      if (value.is_null()) return false;
      // Not WKB: kept, for SQLite's call of the function to report.
      if (value.type != SqlValue::Type::kBlob) return true;
      parquet::WkbSummary summary;
      std::string error;
      if (!parquet::SummarizeWkb(reinterpret_cast<const uint8_t*>(value.bytes.data()), value.bytes.size(), &summary,
                                 &error)) {
        return true;
      }
      const parquet::QueryBox box{f.values[0].real, f.values[1].real, f.values[2].real, f.values[3].real};
      return parquet::EnvelopeIntersects(summary, box);
    }
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
    case ConstraintOp::kBboxIntersects: return b.may_have_non_null;  // boxes: row_group_pruning.cc
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

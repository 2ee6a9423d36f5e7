// SQLite values and SQLite's ordering without the SQLite API (see sql_value.h); the
// differential tests (tests/differential) check that filtering with them gives SQLite's own
// answers.
#include "ext/common/sql_value.h"

#include <cmath>
#include <cstring>

#include "format/values/json_text.h"

namespace sqlite_parquet {

namespace {

int CompareIntegerToReal(int64_t i, double r) {
  // Exact, as sqlite3IntFloatCompare: no rounding of either side decides the result.
  if (r < -9223372036854775808.0) return 1;
  if (r >= 9223372036854775808.0) return -1;
  const int64_t truncated = static_cast<int64_t>(r);
  if (i < truncated) return -1;
  if (i > truncated) return 1;
  const double as_real = static_cast<double>(i);
  if (as_real < r) return -1;
  if (as_real > r) return 1;
  return 0;
}

int CompareBytes(std::string_view a, std::string_view b) {
  const size_t n = a.size() < b.size() ? a.size() : b.size();
  const int c = n ? std::memcmp(a.data(), b.data(), n) : 0;
  if (c != 0) return c;
  return a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0;
}

int ClassRank(SqlValue::Type type) {
  switch (type) {
    case SqlValue::Type::kNull: return 0;
    case SqlValue::Type::kInteger:
    case SqlValue::Type::kReal: return 1;
    case SqlValue::Type::kText: return 2;
    case SqlValue::Type::kBlob: return 3;
  }
  return 0;
}

}  // namespace

int CompareSqlValues(const SqlValue& a, const SqlValue& b) {
  const int ra = ClassRank(a.type), rb = ClassRank(b.type);
  if (ra != rb) return ra < rb ? -1 : 1;
  switch (a.type) {
    case SqlValue::Type::kNull: return 0;
    case SqlValue::Type::kInteger:
      if (b.type == SqlValue::Type::kInteger) return a.integer < b.integer ? -1 : a.integer > b.integer ? 1 : 0;
      return CompareIntegerToReal(a.integer, b.real);
    case SqlValue::Type::kReal:
      if (b.type == SqlValue::Type::kInteger) return -CompareIntegerToReal(b.integer, a.real);
      return a.real < b.real ? -1 : a.real > b.real ? 1 : 0;
    case SqlValue::Type::kText:
    case SqlValue::Type::kBlob: return CompareBytes(a.bytes, b.bytes);
  }
  return 0;
}

ValueClass ValueClassOfDeclaredType(const std::string& declared_type) {
  const std::string first = declared_type.substr(0, declared_type.find(' '));
  if (first == "INTEGER" || first == "REAL") return ValueClass::kNumeric;
  if (first == "TEXT") return ValueClass::kText;
  if (first == "BLOB") return ValueClass::kBlob;
  return ValueClass::kNull;
}

ValueClass ValueClassOfKind(const ColumnMapping& mapping) {
  if (mapping.kind == ValueKind::kNull) return ValueClass::kNull;
  if (mapping.kind == ValueKind::kNested) return ValueClass::kText;
  return ValueClassOfDeclaredType(mapping.declared_type);
}

void AppendJsonSqlValue(const SqlValue& v, std::string* out) {
  static const char kHex[] = "0123456789ABCDEF";
  switch (v.type) {
    case SqlValue::Type::kNull: *out += "null"; return;
    case SqlValue::Type::kInteger: *out += std::to_string(v.integer); return;
    case SqlValue::Type::kReal: parquet::AppendJsonDouble(v.real, out); return;
    case SqlValue::Type::kText: parquet::AppendJsonUtf8String(v.bytes, out); return;  // JSON is UTF-8
    case SqlValue::Type::kBlob: {
      std::string hex;
      for (unsigned char c : v.bytes) {
        hex += kHex[c >> 4];
        hex += kHex[c & 15];
      }
      parquet::AppendJsonString(hex, out);
      return;
    }
  }
}

}  // namespace sqlite_parquet

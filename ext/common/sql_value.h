// SQLite values without the SQLite API: one value as SQLite sees it (what a column of the
// parquet table gives for a decoded Parquet value, made by parquet_to_sql.h; a value of
// parquet_copy's query on its way to Parquet, copy_values.h), and
// SQLite's own ordering of values (NULL < INTEGER/REAL < TEXT < BLOB, integers and reals
// compared exactly, TEXT and BLOB by memcmp then length: the BINARY collation). Constraint
// pushdown compares typed values with these in its hot loop instead of sqlite3_value
// objects, and maps statistics bounds into the same space to prune.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

#include "ext/common/column_mapping.h"

namespace sqlite_parquet {

// One value as SQLite sees it. `bytes` is a view (TEXT or BLOB) that lives as long as
// whatever it was made from.
struct SqlValue {
  enum class Type : uint8_t { kNull = 0, kInteger = 1, kReal = 2, kText = 3, kBlob = 4 };
  Type type = Type::kNull;
  bool terminated = false;  // TEXT: bytes.data()[bytes.size()] is a NUL, and bytes hold none
  int64_t integer = 0;
  double real = 0;
  std::string_view bytes;

  static SqlValue Null() { return SqlValue(); }
  static SqlValue Integer(int64_t v) {
    SqlValue s;
    s.type = Type::kInteger;
    s.integer = v;
    return s;
  }
  static SqlValue Real(double v) {  // NaN is NULL, as in SQLite
    if (std::isnan(v)) return SqlValue();
    SqlValue s;
    s.type = Type::kReal;
    s.real = v;
    return s;
  }
  static SqlValue Text(std::string_view v) {
    SqlValue s;
    s.type = Type::kText;
    s.bytes = v;
    return s;
  }
  // TEXT whose bytes are followed by a NUL and hold none: SQLite can take it as a C string.
  static SqlValue TerminatedText(std::string_view v) {
    SqlValue s = Text(v);
    s.terminated = true;
    return s;
  }
  static SqlValue Blob(std::string_view v) {
    SqlValue s;
    s.type = Type::kBlob;
    s.bytes = v;
    return s;
  }
  bool is_null() const { return type == Type::kNull; }
  bool is_numeric() const { return type == Type::kInteger || type == Type::kReal; }
};

// A SqlValue that owns its bytes: a constant of every row of a file (a lake column's
// default where the file lacks the column, ColumnMapping::constant).
struct OwnedSqlValue {
  SqlValue::Type type = SqlValue::Type::kNull;
  int64_t integer = 0;
  double real = 0;
  std::string bytes;
  static OwnedSqlValue Of(const SqlValue& v) {
    OwnedSqlValue o;
    o.type = v.type;
    o.integer = v.integer;
    o.real = v.real;
    o.bytes.assign(v.bytes.data(), v.bytes.size());
    return o;
  }
  SqlValue value() const {
    switch (type) {
      case SqlValue::Type::kInteger: return SqlValue::Integer(integer);
      case SqlValue::Type::kReal: return SqlValue::Real(real);
      case SqlValue::Type::kText:
        return bytes.find('\0') == std::string::npos ? SqlValue::TerminatedText(bytes) : SqlValue::Text(bytes);
      case SqlValue::Type::kBlob: return SqlValue::Blob(bytes);
      default: return SqlValue::Null();
    }
  }
};

// <0, 0, >0 in SQLite's order (sqlite3MemCompare with the BINARY collation). NULLs compare
// equal to each other here; callers handle SQL's NULL semantics.
int CompareSqlValues(const SqlValue& a, const SqlValue& b);

// The storage class every value of a column has, from the first word of its declared type
// (column_mapping.h): INTEGER and REAL columns give numbers, TEXT columns text, BLOB columns
// blobs, an untyped column only NULLs. NULLs are possible in every class.
enum class ValueClass : uint8_t { kNull, kNumeric, kText, kBlob };
ValueClass ValueClassOfDeclaredType(const std::string& declared_type);
ValueClass ValueClassOfKind(const ColumnMapping& mapping);

// Appends `v` as a JSON value: null, a number, a string (invalid UTF-8 replaced by
// U+FFFD: TEXT may hold any bytes, JSON may not); a BLOB as a string of its bytes in
// uppercase hex (as SQLite's hex()).
void AppendJsonSqlValue(const SqlValue& v, std::string* out);

}  // namespace sqlite_parquet

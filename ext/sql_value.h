// SQLite values without the SQLite API: the value a column of the parquet table gives for
// one decoded Parquet value (exactly what xColumn returns, see sqlite_values.h), and
// SQLite's own ordering of values (NULL < INTEGER/REAL < TEXT < BLOB, integers and reals
// compared exactly, TEXT and BLOB by memcmp then length: the BINARY collation). Constraint
// pushdown compares typed values with these in its hot loop instead of sqlite3_value
// objects, and maps statistics bounds into the same space to prune.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "ext/column_mapping.h"
#include "format/column_reader.h"
#include "format/statistics.h"

namespace sqlite_parquet {

// One value as SQLite sees it. `bytes` is a view (TEXT or BLOB) that lives as long as
// whatever it was made from.
struct SqlValue {
  enum class Type : uint8_t { kNull = 0, kInteger = 1, kReal = 2, kText = 3, kBlob = 4 };
  Type type = Type::kNull;
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
  static SqlValue Real(double v);  // NaN is NULL, as in SQLite
  static SqlValue Text(std::string_view v) {
    SqlValue s;
    s.type = Type::kText;
    s.bytes = v;
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

// <0, 0, >0 in SQLite's order (sqlite3MemCompare with the BINARY collation). NULLs compare
// equal to each other here; callers handle SQL's NULL semantics.
int CompareSqlValues(const SqlValue& a, const SqlValue& b);

// The storage class every value of a column has, from the first word of its declared type
// (column_mapping.h): INTEGER and REAL columns give numbers, TEXT columns text, BLOB columns
// blobs, an untyped column only NULLs. NULLs are possible in every class.
enum class ValueClass : uint8_t { kNull, kNumeric, kText, kBlob };
ValueClass ValueClassOfDeclaredType(const std::string& declared_type);
ValueClass ValueClassOfKind(const ColumnMapping& mapping);

// The text of DATE values formatted recently (a scan's, for xColumn and the row filters), by
// day: a direct-mapped table of 4096 entries (64 KiB, allocated on first use), so 4096
// consecutive days never evict each other. Dates repeat (a few thousand distinct days in
// millions of rows), so most rows copy ten bytes instead of running the calendar
// computation.
class DateTextCache {
 public:
  // The text of `days` (NUL-terminated, valid until the next call) and its length.
  const char* Format(int32_t days, size_t* length);

 private:
  static constexpr size_t kEntries = 4096;
  struct Entry {
    int32_t days;
    char text[12];  // YYYY-MM-DD and a NUL
  };
  std::unique_ptr<Entry[]> entries_;
  char other_[64];  // dates outside years 0000..9999
};

// Buffer for values formatted as text (dates, timestamps, ...), big enough for any of them
// except decimals as text, which use `scratch`. With `dates` set, DATE text comes from that
// cache instead of `text`.
struct FormatBuffer {
  char text[64];
  std::string scratch;
  DateTextCache* dates = nullptr;
};

// The value xColumn gives for value `index` of `batch` (an index into its non-null values)
// under `mapping`; TEXT made by formatting points into *buffer. Returns false when
// xColumn would raise an error for it (a timestamp out of range for the chosen unit).
// Nested columns are not handled (false).
bool ColumnSqlValue(const ColumnMapping& mapping, const parquet::ColumnBatch& batch, size_t index,
                    FormatBuffer* buffer, SqlValue* out);

// The value xColumn would give for a value equal to the statistics value `stat`, when the
// map from stored values to SQLite values is monotone (non-decreasing) for this mapping and
// the statistics' comparison, so that statistics bounds map to bounds of the SQLite values.
// False when it is not (text dates outside years 0..9999, decimals as text, times,
// INT96, intervals, UUIDs, ...) or the value cannot be converted.
bool StatisticsSqlValue(const ColumnMapping& mapping, const parquet::StatisticsValue& stat,
                        parquet::ValueComparison comparison, FormatBuffer* buffer, SqlValue* out);

// Whether NaN values (read as NULL) can occur in a column of this mapping.
bool MappingHasNaN(const ColumnMapping& mapping);

}  // namespace sqlite_parquet

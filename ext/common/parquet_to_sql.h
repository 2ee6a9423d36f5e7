// The one place where a decoded Parquet value becomes a SQLite value: ToSqlValue converts a
// physical value (ParquetValue) as its column's mapping prescribes (column_mapping.h, the
// docs/type-mapping.md's table) into a SqlValue (sql_value.h). Everything that shows a
// Parquet value to SQLite goes through it: xColumn (ResultBatchValue in sqlite_values.h,
// besides its fast path for plain dense batches, DirectCell in table_cursor.h), the row
// filters and the ORDER BY check (BatchSqlValue), statistics bounds for row-group pruning
// (StatisticsSqlValue), the statistics columns of the metadata functions
// (StatisticsParquetValue) and the leaves of nested JSON (nested_json.cc renders the
// converted value). Free of the SQLite API.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "ext/common/column_mapping.h"
#include "ext/common/sql_value.h"
#include "format/read/column_reader.h"
#include "format/values/logical_values.h"
#include "format/common/physical_values.h"
#include "format/index/statistics.h"

namespace sqlite_parquet {

// The error a timestamp or date raises when it does not fit the unit of timestamp_as
// (ToSqlValue returns false for it).
inline constexpr const char* kTimestampRangeError = "timestamp out of range for the requested unit";

// The text of DATE values formatted recently (a scan's, for xColumn and the row filters), by
// day: a direct-mapped table of 4096 entries (64 KiB, allocated on first use), so 4096
// consecutive days never evict each other. Dates repeat (a few thousand distinct days in
// millions of rows), so most rows copy ten bytes instead of running the calendar
// computation.
class DateTextCache {
 public:
  // The text of `days` (NUL-terminated, valid until the next call) and its length.
  const char* Format(int32_t days, size_t* length);

  // The cached text of `days` (ten characters and a NUL, valid until the next Format), or
  // null when it is not cached: Format's hit, inline, for xColumn's hot path.
  const char* Find(int32_t days) const {
    if (!entries_) return nullptr;
    const Entry& entry = entries_[SlotOf(days)];
    return entry.days == days ? entry.text : nullptr;
  }

 private:
  static constexpr size_t kEntries = 4096;
  static size_t SlotOf(int32_t days) { return static_cast<uint32_t>(days) % kEntries; }
  struct Entry {
    int32_t days;
    char text[12];  // YYYY-MM-DD and a NUL
  };
  std::unique_ptr<Entry[]> entries_;
  char other_[64];  // dates outside years 0000..9999
};

// Where ToSqlValue puts the text it formats (dates, timestamps, ...): `text` is big enough
// for any of them except decimals as text, which use `scratch`. With `dates` set, DATE text
// comes from that cache instead of `text`. A converted TEXT value is valid until the
// buffer's next use.
struct FormatBuffer {
  char text[parquet::kIntervalTextCapacity + 1];  // the longest formatted text and a NUL
  std::string scratch;
  DateTextCache* dates = nullptr;
};

// One decoded Parquet value. The member that holds it is the one of its physical type,
// which the kind of its column's mapping implies (a kDate value is an INT32, ...).
struct ParquetValue {
  int64_t integer = 0;             // BOOLEAN (0 or 1), INT32 (sign-extended), INT64
  double real = 0;                 // FLOAT, DOUBLE
  parquet::Int96 int96{};          // INT96
  parquet::ByteArray bytes;        // BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY
  bool bytes_terminated = false;   // bytes.ptr[bytes.len] is a NUL and the bytes hold none
};

// Value `index` of `values`, the decoded values of a column whose mapping has kind `kind`:
// an array of its physical type (ColumnBatch::values, RecordAssembler::values).
// `text_terminated` says the byte arrays are NUL-terminated (ColumnBatch::text_terminated).
[[gnu::always_inline]] inline ParquetValue ParquetValueAt(ValueKind kind, const void* values, size_t index,
                                                         bool text_terminated = false) {
  ParquetValue v;
  switch (kind) {
    case ValueKind::kNull:
    case ValueKind::kNested: break;
    case ValueKind::kBoolean: v.integer = static_cast<const bool*>(values)[index] ? 1 : 0; break;
    case ValueKind::kInt32:
    case ValueKind::kUInt32:
    case ValueKind::kDecimalInt32:
    case ValueKind::kDate:
    case ValueKind::kTime32: v.integer = static_cast<const int32_t*>(values)[index]; break;
    case ValueKind::kInt64:
    case ValueKind::kUInt64:
    case ValueKind::kDecimalInt64:
    case ValueKind::kTime64:
    case ValueKind::kTimestamp: v.integer = static_cast<const int64_t*>(values)[index]; break;
    case ValueKind::kFloat: v.real = static_cast<const float*>(values)[index]; break;
    case ValueKind::kDouble: v.real = static_cast<const double*>(values)[index]; break;
    case ValueKind::kInt96Timestamp: v.int96 = static_cast<const parquet::Int96*>(values)[index]; break;
    case ValueKind::kFloat16:
    case ValueKind::kText:
    case ValueKind::kJson:
    case ValueKind::kBlob:
    case ValueKind::kUuid:
    case ValueKind::kDecimalBytes:
    case ValueKind::kInterval:
      v.bytes = static_cast<const parquet::ByteArray*>(values)[index];
      v.bytes_terminated = text_terminated;
      break;
  }
  return v;
}

// The SQLite value of `value` in a column mapped by `mapping`: what xColumn returns for it.
// TEXT made by formatting points into *buffer, TEXT and BLOB of the value itself into the
// value's bytes; TEXT is marked `terminated` when it is NUL-terminated. kNull and kNested
// give NULL (nested values are rendered by nested_json.h). Returns false when xColumn raises
// an error instead (kTimestampRangeError: a date or timestamp outside the range of the unit
// of timestamp_as). Throws std::bad_alloc only (decimals as text).
inline bool ToSqlValue(const ColumnMapping& mapping, const ParquetValue& value, FormatBuffer* buffer, SqlValue* out);

// ToSqlValue of the kinds whose values are computed or formatted (dates, times, timestamps,
// decimals, UUID, INTERVAL, FLOAT16); ToSqlValue itself converts the others inline, so that
// xColumn and the row filters convert them without a call.
bool ToComputedSqlValue(const ColumnMapping& mapping, const ParquetValue& value, FormatBuffer* buffer, SqlValue* out);

// ToSqlValue of the value `read()` returns, read only once the kind is known: with
// ParquetValueAt as `read`, the compiler folds its switch into this one (one switch per
// value in xColumn's general path and the row filters).
template <typename Read>
inline bool ToSqlValueOf(const ColumnMapping& m, Read read, FormatBuffer* buffer, SqlValue* out) {
  switch (m.kind) {
    case ValueKind::kNull:
    case ValueKind::kNested: *out = SqlValue::Null(); return true;
    case ValueKind::kBoolean:
    case ValueKind::kInt32:
    case ValueKind::kInt64: *out = SqlValue::Integer(read().integer); return true;
    case ValueKind::kUInt32: *out = SqlValue::Integer(static_cast<uint32_t>(read().integer)); return true;
    case ValueKind::kUInt64: {
      const uint64_t u = static_cast<uint64_t>(read().integer);
      *out = u <= static_cast<uint64_t>(INT64_MAX) ? SqlValue::Integer(static_cast<int64_t>(u))
                                                    : SqlValue::Real(static_cast<double>(u));
      return true;
    }
    case ValueKind::kFloat:
    case ValueKind::kDouble: *out = SqlValue::Real(read().real); return true;
    case ValueKind::kText:
    case ValueKind::kJson: {
      const ParquetValue v = read();
      *out = v.bytes_terminated ? SqlValue::TerminatedText(v.bytes.view()) : SqlValue::Text(v.bytes.view());
      return true;
    }
    case ValueKind::kBlob: *out = SqlValue::Blob(read().bytes.view()); return true;
    default: return ToComputedSqlValue(m, read(), buffer, out);
  }
}

inline bool ToSqlValue(const ColumnMapping& mapping, const ParquetValue& value, FormatBuffer* buffer, SqlValue* out) {
  return ToSqlValueOf(mapping, [&value]() -> const ParquetValue& { return value; }, buffer, out);
}

// ToSqlValue of value `index` of `batch` (an index into its non-null values).
bool BatchSqlValue(const ColumnMapping& mapping, const parquet::ColumnBatch& batch, size_t index, FormatBuffer* buffer,
                   SqlValue* out);

// The statistics value `stat` (decoded for the column's leaf) as a value of a column mapped
// by `mapping`. False when its bytes cannot be one (a UUID, INTERVAL or FLOAT16 of another
// length, more than 4 GiB). *out points into stat.bytes.
bool StatisticsParquetValue(const ColumnMapping& mapping, const parquet::StatisticsValue& stat, ParquetValue* out);

// The value xColumn would give for a value equal to the statistics value `stat`, when the
// map from stored values to SQLite values is monotone (non-decreasing) for this mapping and
// the statistics' comparison, so that statistics bounds map to bounds of the SQLite values.
// False when it is not (text dates outside years 0..9999, decimals as text, times,
// INT96, intervals, UUIDs, NaN, ...) or the value cannot be converted.
bool StatisticsSqlValue(const ColumnMapping& mapping, const parquet::StatisticsValue& stat,
                        parquet::ValueComparison comparison, FormatBuffer* buffer, SqlValue* out);

// Whether NaN values (read as NULL) can occur in a column of this mapping.
bool MappingHasNaN(const ColumnMapping& mapping);

}  // namespace sqlite_parquet

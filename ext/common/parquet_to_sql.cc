// Conversion of decoded Parquet values to SQLite values (see parquet_to_sql.h): the kinds
// that are computed or formatted (ToSqlValue in the header converts the others inline), and
// the adapters for statistics values.
#include "ext/common/parquet_to_sql.h"

#include <cmath>
#include <cstring>
#include <string_view>

#include "format/values/logical_values.h"

namespace sqlite_parquet {

namespace {

static_assert(parquet::kDateTextCapacity <= parquet::kIntervalTextCapacity &&
                  parquet::kTimeTextCapacity <= parquet::kIntervalTextCapacity &&
                  parquet::kTimestampTextCapacity <= parquet::kIntervalTextCapacity &&
                  parquet::kUuidTextCapacity <= parquet::kIntervalTextCapacity,
              "FormatBuffer::text holds every formatted value and its NUL");

// Text formatted into buffer->text (never with a NUL inside),
// terminated in place so that SQLite can take it as a C string.
SqlValue FormattedText(FormatBuffer* buffer, size_t length) {
  buffer->text[length] = '\0';
  return SqlValue::TerminatedText(std::string_view(buffer->text, length));
}

parquet::EpochUnit EpochUnitOf(TimestampForm form) {
  switch (form) {
    case TimestampForm::kUnixEpochMs: return parquet::EpochUnit::MILLIS;
    case TimestampForm::kUnixEpochUs: return parquet::EpochUnit::MICROS;
    default: return parquet::EpochUnit::SECONDS;
  }
}

// A date or timestamp as a number (timestamp_as other than text): a Julian day, or the
// epoch count in the unit of the form, which `to_epoch` computes (false: out of range).
template <typename ToEpoch, typename ToJulianDay>
bool TemporalNumber(TimestampForm form, ToEpoch to_epoch, ToJulianDay to_julian_day, SqlValue* out) {
  if (form == TimestampForm::kJulianDay) {
    *out = SqlValue::Real(to_julian_day());
    return true;
  }
  int64_t epoch = 0;
  if (!to_epoch(EpochUnitOf(form), &epoch)) return false;
  *out = SqlValue::Integer(epoch);
  return true;
}

bool DateValue(const ColumnMapping& m, int32_t days, FormatBuffer* buffer, SqlValue* out) {
  if (m.timestamp_form == TimestampForm::kText) {
    if (buffer->dates) {
      size_t n = 0;
      const char* text = buffer->dates->Format(days, &n);
      *out = SqlValue::TerminatedText(std::string_view(text, n));
    } else {
      *out = FormattedText(buffer, parquet::FormatDate(days, buffer->text));
    }
    return true;
  }
  return TemporalNumber(
      m.timestamp_form, [days](parquet::EpochUnit unit, int64_t* epoch) { return parquet::DateToEpoch(days, unit, epoch); },
      [days] { return parquet::DateToJulianDay(days); }, out);
}

bool TimestampValue(const ColumnMapping& m, int64_t v, FormatBuffer* buffer, SqlValue* out) {
  if (m.timestamp_form == TimestampForm::kText) {
    *out = FormattedText(buffer, parquet::FormatTimestamp(v, m.time_unit, buffer->text));
    return true;
  }
  return TemporalNumber(
      m.timestamp_form,
      [&m, v](parquet::EpochUnit unit, int64_t* epoch) { return parquet::TimestampToEpoch(v, m.time_unit, unit, epoch); },
      [&m, v] { return parquet::TimestampToJulianDay(v, m.time_unit); }, out);
}

bool Int96Value(const ColumnMapping& m, const parquet::Int96& v, FormatBuffer* buffer, SqlValue* out) {
  if (m.timestamp_form == TimestampForm::kText) {
    *out = FormattedText(buffer, parquet::FormatInt96Timestamp(v, buffer->text));
    return true;
  }
  return TemporalNumber(
      m.timestamp_form, [&v](parquet::EpochUnit unit, int64_t* epoch) { return parquet::Int96ToEpoch(v, unit, epoch); },
      [&v] { return parquet::Int96ToJulianDay(v); }, out);
}

// DECIMAL as exact text (decimal_as=text), in buffer->scratch: the only conversion that
// allocates.
SqlValue DecimalText(const ColumnMapping& m, const ParquetValue& v, FormatBuffer* buffer) {
  size_t n = 0;
  if (m.kind == ValueKind::kDecimalBytes) {
    const size_t capacity = parquet::DecimalTextCapacity(v.bytes.len, m.decimal_scale);
    if (buffer->scratch.size() < capacity) buffer->scratch.resize(capacity);
    n = parquet::FormatDecimalBigEndian(v.bytes.ptr, v.bytes.len, m.decimal_scale, buffer->scratch.data(), capacity);
  } else {
    const size_t capacity = parquet::DecimalTextCapacity(8, m.decimal_scale);
    if (buffer->scratch.size() < capacity) buffer->scratch.resize(capacity);
    n = parquet::FormatDecimal(v.integer, m.decimal_scale, buffer->scratch.data());
  }
  return SqlValue::Text(std::string_view(buffer->scratch.data(), n));
}

// Text dates and timestamps sort like the instants they show only for years 0000..9999
// (a leading '-' or a fifth year digit breaks the text order).
bool FourDigitYear(const SqlValue& v) {
  return v.type != SqlValue::Type::kText || (v.bytes.size() >= 10 && v.bytes[0] != '-' && v.bytes[4] == '-');
}

// Whether the statistics' comparison orders the stored values of a column mapped by `m` as
// SQLite orders their converted values (for every value StatisticsSqlValue converts).
bool StatisticsOrderIsSqlOrder(const ColumnMapping& m, parquet::ValueComparison comparison) {
  using parquet::ValueComparison;
  switch (m.kind) {
    case ValueKind::kBoolean: return comparison == ValueComparison::kBoolean;
    case ValueKind::kInt32:
    case ValueKind::kInt64:
    case ValueKind::kDate:       // text only for four-digit years (FourDigitYear)
    case ValueKind::kTimestamp:  // likewise
      return comparison == ValueComparison::kSignedInteger;
    case ValueKind::kUInt32:
    case ValueKind::kUInt64: return comparison == ValueComparison::kUnsignedInteger;
    case ValueKind::kFloat:
    case ValueKind::kDouble:
    case ValueKind::kFloat16: return comparison == ValueComparison::kFloatingPoint;
    case ValueKind::kText:
    case ValueKind::kJson:
    case ValueKind::kBlob: return comparison == ValueComparison::kUnsignedBytes;
    // The nearest double is a monotone function of the exact value, so bounds stay bounds.
    case ValueKind::kDecimalInt32:
    case ValueKind::kDecimalInt64: return !m.decimal_as_text && comparison == ValueComparison::kSignedInteger;
    case ValueKind::kDecimalBytes: return !m.decimal_as_text && comparison == ValueComparison::kSignedBigEndian;
    default: return false;
  }
}

}  // namespace

bool ToComputedSqlValue(const ColumnMapping& m, const ParquetValue& v, FormatBuffer* buffer, SqlValue* out) {
  switch (m.kind) {
    case ValueKind::kFloat16:
      *out = SqlValue::Real(parquet::HalfToDouble(static_cast<uint16_t>(v.bytes.ptr[0] | (v.bytes.ptr[1] << 8))));
      return true;
    case ValueKind::kUuid: *out = FormattedText(buffer, parquet::FormatUuid(v.bytes.ptr, buffer->text)); return true;
    case ValueKind::kInterval:
      *out = FormattedText(buffer, parquet::FormatInterval(v.bytes.ptr, buffer->text));
      return true;
    case ValueKind::kDecimalInt32:
    case ValueKind::kDecimalInt64:
      *out = m.decimal_as_text ? DecimalText(m, v, buffer) : SqlValue::Real(parquet::DecimalToDouble(v.integer, m.decimal_scale));
      return true;
    case ValueKind::kDecimalBytes:
      *out = m.decimal_as_text ? DecimalText(m, v, buffer)
                               : SqlValue::Real(parquet::DecimalBigEndianToDouble(v.bytes.ptr, v.bytes.len, m.decimal_scale));
      return true;
    case ValueKind::kDate: return DateValue(m, static_cast<int32_t>(v.integer), buffer, out);
    case ValueKind::kTime32:
    case ValueKind::kTime64: *out = FormattedText(buffer, parquet::FormatTime(v.integer, m.time_unit, buffer->text)); return true;
    case ValueKind::kTimestamp: return TimestampValue(m, v.integer, buffer, out);
    case ValueKind::kInt96Timestamp: return Int96Value(m, v.int96, buffer, out);
    default: return ToSqlValue(m, v, buffer, out);  // the kinds ToSqlValue converts inline
  }
}

bool BatchSqlValue(const ColumnMapping& m, const parquet::ColumnBatch& batch, size_t index, FormatBuffer* buffer,
                   SqlValue* out) {
  return ToSqlValueOf(
      m,
      [&]() __attribute__((always_inline)) {
        return ParquetValueAt(m.kind, batch.values<uint8_t>(), index, batch.text_terminated);
      },
      buffer, out);
}

bool StatisticsParquetValue(const ColumnMapping& m, const parquet::StatisticsValue& stat, ParquetValue* out) {
  *out = ParquetValue();
  switch (stat.physical_type) {
    case parquet::Type::BOOLEAN: out->integer = stat.boolean ? 1 : 0; return true;
    // An unsigned INT32's statistics are zero-extended; a decoded INT32 is sign-extended.
    case parquet::Type::INT32: out->integer = static_cast<int32_t>(stat.integer); return true;
    case parquet::Type::INT64: out->integer = stat.integer; return true;
    case parquet::Type::INT96: out->int96 = stat.int96; return true;
    case parquet::Type::FLOAT: out->real = static_cast<float>(stat.real); return true;
    case parquet::Type::DOUBLE: out->real = stat.real; return true;
    case parquet::Type::BYTE_ARRAY:
    case parquet::Type::FIXED_LEN_BYTE_ARRAY: {
      size_t required = 0;  // the length the mapping reads, 0 when any will do
      switch (m.kind) {
        case ValueKind::kUuid: required = 16; break;
        case ValueKind::kInterval: required = 12; break;
        case ValueKind::kFloat16: required = 2; break;
        default: break;
      }
      if ((required != 0 && stat.bytes.size() != required) || stat.bytes.size() > UINT32_MAX) return false;
      out->bytes.ptr = reinterpret_cast<const uint8_t*>(stat.bytes.data());
      out->bytes.len = static_cast<uint32_t>(stat.bytes.size());
      return true;
    }
  }
  return false;
}

bool StatisticsSqlValue(const ColumnMapping& m, const parquet::StatisticsValue& stat,
                        parquet::ValueComparison comparison, FormatBuffer* buffer, SqlValue* out) {
  if (!StatisticsOrderIsSqlOrder(m, comparison)) return false;
  if (m.kind == ValueKind::kDate && (stat.integer < INT32_MIN || stat.integer > INT32_MAX)) return false;
  if (m.kind == ValueKind::kDecimalBytes && stat.bytes.empty()) return false;
  ParquetValue value;
  if (!StatisticsParquetValue(m, stat, &value) || !ToSqlValue(m, value, buffer, out)) return false;
  if (out->is_null()) return false;  // NaN
  return (m.kind != ValueKind::kDate && m.kind != ValueKind::kTimestamp) || FourDigitYear(*out);
}

bool MappingHasNaN(const ColumnMapping& mapping) {
  return mapping.kind == ValueKind::kFloat || mapping.kind == ValueKind::kDouble || mapping.kind == ValueKind::kFloat16;
}

const char* DateTextCache::Format(int32_t days, size_t* length) {
  if (!entries_) {
    entries_.reset(new Entry[kEntries]);
    // An empty entry holds a day of another slot, so no lookup matches it.
    for (size_t i = 0; i < kEntries; i++) entries_[i].days = static_cast<int32_t>(i + 1);
  }
  if (const char* cached = Find(days)) {
    *length = 10;
    return cached;
  }
  Entry& entry = entries_[SlotOf(days)];
  char text[sizeof other_];
  const size_t n = parquet::FormatDate(days, text);
  if (n == 10) {
    std::memcpy(entry.text, text, 10);
    entry.text[10] = '\0';
    entry.days = days;
    *length = 10;
    return entry.text;
  }
  std::memcpy(other_, text, n);
  other_[n] = '\0';
  *length = n;
  return other_;
}

}  // namespace sqlite_parquet

// SQLite values and SQLite's ordering without the SQLite API (see sql_value.h). The
// conversions mirror ResultValue in sqlite_values.cc case by case; the differential tests
// (tests/differential) check that filtering with them gives SQLite's own answers.
#include "ext/sql_value.h"

#include <cmath>
#include <cstring>

#include "format/logical_values.h"

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

parquet::EpochUnit EpochUnitOf(TimestampForm form) {
  switch (form) {
    case TimestampForm::kUnixEpochMs: return parquet::EpochUnit::MILLIS;
    case TimestampForm::kUnixEpochUs: return parquet::EpochUnit::MICROS;
    default: return parquet::EpochUnit::SECONDS;
  }
}

bool DateValue(const ColumnMapping& m, int32_t days, FormatBuffer* buffer, SqlValue* out) {
  if (m.timestamp_form == TimestampForm::kText) {
    if (buffer->dates) {
      size_t n = 0;
      const char* text = buffer->dates->Format(days, &n);
      *out = SqlValue::Text(std::string_view(text, n));
    } else {
      *out = SqlValue::Text(std::string_view(buffer->text, parquet::FormatDate(days, buffer->text)));
    }
    return true;
  }
  if (m.timestamp_form == TimestampForm::kJulianDay) {
    *out = SqlValue::Real(parquet::DateToJulianDay(days));
    return true;
  }
  int64_t epoch = 0;
  if (!parquet::DateToEpoch(days, EpochUnitOf(m.timestamp_form), &epoch)) return false;
  *out = SqlValue::Integer(epoch);
  return true;
}

bool TimestampValue(const ColumnMapping& m, int64_t v, FormatBuffer* buffer, SqlValue* out) {
  if (m.timestamp_form == TimestampForm::kText) {
    *out = SqlValue::Text(std::string_view(buffer->text, parquet::FormatTimestamp(v, m.time_unit, buffer->text)));
    return true;
  }
  if (m.timestamp_form == TimestampForm::kJulianDay) {
    *out = SqlValue::Real(parquet::TimestampToJulianDay(v, m.time_unit));
    return true;
  }
  int64_t epoch = 0;
  if (!parquet::TimestampToEpoch(v, m.time_unit, EpochUnitOf(m.timestamp_form), &epoch)) return false;
  *out = SqlValue::Integer(epoch);
  return true;
}

// Text dates and timestamps sort like the instants they show only for years 0000..9999
// (a leading '-' or a fifth year digit breaks the text order).
bool FourDigitYear(const SqlValue& v) {
  return v.type != SqlValue::Type::kText || (v.bytes.size() >= 10 && v.bytes[0] != '-' && v.bytes[4] == '-');
}

}  // namespace

SqlValue SqlValue::Real(double v) {
  if (std::isnan(v)) return SqlValue();
  SqlValue s;
  s.type = Type::kReal;
  s.real = v;
  return s;
}

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

bool MappingHasNaN(const ColumnMapping& mapping) {
  return mapping.kind == ValueKind::kFloat || mapping.kind == ValueKind::kDouble || mapping.kind == ValueKind::kFloat16;
}

bool ColumnSqlValue(const ColumnMapping& m, const parquet::ColumnBatch& batch, size_t index, FormatBuffer* buffer,
                    SqlValue* out) {
  using parquet::ByteArray;
  switch (m.kind) {
    case ValueKind::kNull:
      *out = SqlValue::Null();
      return true;
    case ValueKind::kNested: return false;
    case ValueKind::kBoolean: *out = SqlValue::Integer(batch.values<bool>()[index] ? 1 : 0); return true;
    case ValueKind::kInt32: *out = SqlValue::Integer(batch.values<int32_t>()[index]); return true;
    case ValueKind::kUInt32:
      *out = SqlValue::Integer(static_cast<uint32_t>(batch.values<int32_t>()[index]));
      return true;
    case ValueKind::kInt64: *out = SqlValue::Integer(batch.values<int64_t>()[index]); return true;
    case ValueKind::kUInt64: {
      const uint64_t v = static_cast<uint64_t>(batch.values<int64_t>()[index]);
      *out = v <= static_cast<uint64_t>(INT64_MAX) ? SqlValue::Integer(static_cast<int64_t>(v))
                                                    : SqlValue::Real(static_cast<double>(v));
      return true;
    }
    case ValueKind::kFloat: *out = SqlValue::Real(batch.values<float>()[index]); return true;
    case ValueKind::kDouble: *out = SqlValue::Real(batch.values<double>()[index]); return true;
    case ValueKind::kFloat16: {
      const ByteArray& v = batch.values<ByteArray>()[index];
      *out = SqlValue::Real(parquet::HalfToDouble(static_cast<uint16_t>(v.ptr[0] | (v.ptr[1] << 8))));
      return true;
    }
    case ValueKind::kText:
    case ValueKind::kJson: *out = SqlValue::Text(batch.values<ByteArray>()[index].view()); return true;
    case ValueKind::kBlob: *out = SqlValue::Blob(batch.values<ByteArray>()[index].view()); return true;
    case ValueKind::kUuid: {
      const size_t n = parquet::FormatUuid(batch.values<ByteArray>()[index].ptr, buffer->text);
      *out = SqlValue::Text(std::string_view(buffer->text, n));
      return true;
    }
    case ValueKind::kInterval: {
      const size_t n = parquet::FormatInterval(batch.values<ByteArray>()[index].ptr, buffer->text);
      *out = SqlValue::Text(std::string_view(buffer->text, n));
      return true;
    }
    case ValueKind::kDecimalInt32:
    case ValueKind::kDecimalInt64: {
      const int64_t unscaled = m.kind == ValueKind::kDecimalInt32 ? batch.values<int32_t>()[index]
                                                                  : batch.values<int64_t>()[index];
      if (m.decimal_as_text) {
        buffer->scratch.resize(parquet::DecimalTextCapacity(8, m.decimal_scale));
        const size_t n = parquet::FormatDecimal(unscaled, m.decimal_scale, buffer->scratch.data());
        *out = SqlValue::Text(std::string_view(buffer->scratch.data(), n));
      } else {
        *out = SqlValue::Real(parquet::DecimalToDouble(unscaled, m.decimal_scale));
      }
      return true;
    }
    case ValueKind::kDecimalBytes: {
      const ByteArray& v = batch.values<ByteArray>()[index];
      if (m.decimal_as_text) {
        const size_t capacity = parquet::DecimalTextCapacity(v.len, m.decimal_scale);
        if (buffer->scratch.size() < capacity) buffer->scratch.resize(capacity);
        const size_t n = parquet::FormatDecimalBigEndian(v.ptr, v.len, m.decimal_scale, buffer->scratch.data(), capacity);
        *out = SqlValue::Text(std::string_view(buffer->scratch.data(), n));
      } else {
        *out = SqlValue::Real(parquet::DecimalBigEndianToDouble(v.ptr, v.len, m.decimal_scale));
      }
      return true;
    }
    case ValueKind::kDate: return DateValue(m, batch.values<int32_t>()[index], buffer, out);
    case ValueKind::kTime32: {
      const size_t n = parquet::FormatTime(batch.values<int32_t>()[index], m.time_unit, buffer->text);
      *out = SqlValue::Text(std::string_view(buffer->text, n));
      return true;
    }
    case ValueKind::kTime64: {
      const size_t n = parquet::FormatTime(batch.values<int64_t>()[index], m.time_unit, buffer->text);
      *out = SqlValue::Text(std::string_view(buffer->text, n));
      return true;
    }
    case ValueKind::kTimestamp: return TimestampValue(m, batch.values<int64_t>()[index], buffer, out);
    case ValueKind::kInt96Timestamp: {
      const parquet::Int96& v = batch.values<parquet::Int96>()[index];
      if (m.timestamp_form == TimestampForm::kText) {
        *out = SqlValue::Text(std::string_view(buffer->text, parquet::FormatInt96Timestamp(v, buffer->text)));
        return true;
      }
      if (m.timestamp_form == TimestampForm::kJulianDay) {
        *out = SqlValue::Real(parquet::Int96ToJulianDay(v));
        return true;
      }
      int64_t epoch = 0;
      if (!parquet::Int96ToEpoch(v, EpochUnitOf(m.timestamp_form), &epoch)) return false;
      *out = SqlValue::Integer(epoch);
      return true;
    }
  }
  return false;
}

bool StatisticsSqlValue(const ColumnMapping& m, const parquet::StatisticsValue& stat,
                        parquet::ValueComparison comparison, FormatBuffer* buffer, SqlValue* out) {
  using parquet::ValueComparison;
  switch (m.kind) {
    case ValueKind::kBoolean:
      if (comparison != ValueComparison::kBoolean) return false;
      *out = SqlValue::Integer(stat.boolean ? 1 : 0);
      return true;
    case ValueKind::kInt32:
    case ValueKind::kInt64:
      if (comparison != ValueComparison::kSignedInteger) return false;
      *out = SqlValue::Integer(stat.integer);
      return true;
    case ValueKind::kUInt32:
      if (comparison != ValueComparison::kUnsignedInteger) return false;
      *out = SqlValue::Integer(static_cast<int64_t>(static_cast<uint32_t>(stat.integer)));
      return true;
    case ValueKind::kUInt64: {
      if (comparison != ValueComparison::kUnsignedInteger) return false;
      const uint64_t v = static_cast<uint64_t>(stat.integer);
      *out = v <= static_cast<uint64_t>(INT64_MAX) ? SqlValue::Integer(static_cast<int64_t>(v))
                                                    : SqlValue::Real(static_cast<double>(v));
      return true;
    }
    case ValueKind::kFloat:
    case ValueKind::kDouble:
    case ValueKind::kFloat16:
      if (comparison != ValueComparison::kFloatingPoint || std::isnan(stat.real)) return false;
      *out = SqlValue::Real(stat.real);
      return true;
    case ValueKind::kText:
    case ValueKind::kJson:
      if (comparison != ValueComparison::kUnsignedBytes) return false;
      *out = SqlValue::Text(stat.bytes);
      return true;
    case ValueKind::kBlob:
      if (comparison != ValueComparison::kUnsignedBytes) return false;
      *out = SqlValue::Blob(stat.bytes);
      return true;
    case ValueKind::kDecimalInt32:
    case ValueKind::kDecimalInt64:
      // The nearest double is a monotone function of the exact value, so bounds stay bounds.
      if (m.decimal_as_text || comparison != ValueComparison::kSignedInteger) return false;
      *out = SqlValue::Real(parquet::DecimalToDouble(stat.integer, m.decimal_scale));
      return true;
    case ValueKind::kDecimalBytes:
      if (m.decimal_as_text || comparison != ValueComparison::kSignedBigEndian || stat.bytes.empty()) return false;
      *out = SqlValue::Real(parquet::DecimalBigEndianToDouble(reinterpret_cast<const uint8_t*>(stat.bytes.data()),
                                                              stat.bytes.size(), m.decimal_scale));
      return true;
    case ValueKind::kDate:
      if (comparison != ValueComparison::kSignedInteger || stat.integer < INT32_MIN || stat.integer > INT32_MAX) return false;
      return DateValue(m, static_cast<int32_t>(stat.integer), buffer, out) && FourDigitYear(*out);
    case ValueKind::kTimestamp:
      if (comparison != ValueComparison::kSignedInteger) return false;
      return TimestampValue(m, stat.integer, buffer, out) && FourDigitYear(*out);
    default: return false;
  }
}

const char* DateTextCache::Format(int32_t days, size_t* length) {
  if (!entries_) {
    entries_.reset(new Entry[kEntries]);
    // An empty entry holds a day of another slot, so no lookup matches it.
    for (size_t i = 0; i < kEntries; i++) entries_[i].days = static_cast<int32_t>(i + 1);
  }
  Entry& entry = entries_[static_cast<uint32_t>(days) % kEntries];
  if (entry.days == days) {
    *length = 10;
    return entry.text;
  }
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

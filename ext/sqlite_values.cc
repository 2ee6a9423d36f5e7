// Conversion of decoded Parquet values to SQLite values (see sqlite_values.h).
#include "ext/sqlite_values.h"

#include <cstring>
#include <exception>
#include <new>

#include "ext/sql_value.h"
#include "format/logical_values.h"

namespace sqlite_parquet {

namespace {

// Text this file formatted into `buffer` (capacity kFormatCapacity): never has an embedded
// NUL, so it is terminated in place and given with length -1 without a copy or a scan.
constexpr size_t kFormatCapacity = 64;
void ResultFormatted(sqlite3_context* ctx, char* buffer, size_t length) {
  if (length >= kFormatCapacity) {
    sqlite3_result_text64(ctx, buffer, length, SQLITE_TRANSIENT, SQLITE_UTF8);
    return;
  }
  buffer[length] = '\0';
  sqlite3_result_text(ctx, buffer, -1, SQLITE_TRANSIENT);
}

void ResultTemporal(sqlite3_context* ctx, TimestampForm form, bool ok, int64_t epoch, double julian) {
  if (form == TimestampForm::kJulianDay) {
    sqlite3_result_double(ctx, julian);
  } else if (ok) {
    sqlite3_result_int64(ctx, epoch);
  } else {
    sqlite3_result_error(ctx, "timestamp out of range for the requested unit", -1);
  }
}

parquet::EpochUnit EpochUnitOf(TimestampForm form) {
  switch (form) {
    case TimestampForm::kUnixEpochMs: return parquet::EpochUnit::MILLIS;
    case TimestampForm::kUnixEpochUs: return parquet::EpochUnit::MICROS;
    default: return parquet::EpochUnit::SECONDS;
  }
}

// DECIMAL as exact text (decimal_as=text), in `scratch`; the only conversion that allocates.
[[gnu::noinline]] int ResultDecimalText(sqlite3_context* ctx, const ColumnMapping& m, const parquet::ColumnBatch& batch,
                                        size_t index, std::string* scratch) {
  try {
    size_t n = 0;
    if (m.kind == ValueKind::kDecimalBytes) {
      const parquet::ByteArray& v = batch.values<parquet::ByteArray>()[index];
      const size_t capacity = parquet::DecimalTextCapacity(v.len, m.decimal_scale);
      if (scratch->size() < capacity) scratch->resize(capacity);
      n = parquet::FormatDecimalBigEndian(v.ptr, v.len, m.decimal_scale, scratch->data(), capacity);
    } else {
      const int64_t unscaled = m.kind == ValueKind::kDecimalInt32 ? batch.values<int32_t>()[index]
                                                                  : batch.values<int64_t>()[index];
      scratch->resize(parquet::DecimalTextCapacity(8, m.decimal_scale));
      n = parquet::FormatDecimal(unscaled, m.decimal_scale, scratch->data());
    }
    ResultText(ctx, scratch->data(), n);
    return SQLITE_OK;
  } catch (const std::bad_alloc&) {
    sqlite3_result_error_nomem(ctx);
    return SQLITE_NOMEM;
  } catch (const std::exception& e) {
    sqlite3_result_error(ctx, e.what(), -1);
    return SQLITE_ERROR;
  }
}

}  // namespace

// SQLite marks a text value as NUL-terminated only when it measures the length itself;
// text given with an explicit length is re-allocated by the first function that needs the
// terminator (length(), most string functions), once per value. Short values without an
// embedded NUL therefore go through a terminated stack copy and length -1.
void ResultText(sqlite3_context* ctx, const char* text, size_t length) {
  char terminated[256];
  if (length < sizeof terminated && (length == 0 || std::memchr(text, 0, length) == nullptr)) {
    if (length) std::memcpy(terminated, text, length);
    terminated[length] = '\0';
    sqlite3_result_text(ctx, terminated, -1, SQLITE_TRANSIENT);
    return;
  }
  sqlite3_result_text64(ctx, text, length, SQLITE_TRANSIENT, SQLITE_UTF8);
}

int ResultValue(sqlite3_context* ctx, const ColumnMapping& m, const parquet::ColumnBatch& batch, size_t index,
                std::string* scratch, DateTextCache* dates) {
  using parquet::ByteArray;
  char buffer[kFormatCapacity];
  switch (m.kind) {
    case ValueKind::kNull:
    case ValueKind::kNested:
      sqlite3_result_null(ctx);
      return SQLITE_OK;
    case ValueKind::kBoolean:
      sqlite3_result_int(ctx, batch.values<bool>()[index] ? 1 : 0);
      return SQLITE_OK;
    case ValueKind::kInt32:
      sqlite3_result_int64(ctx, batch.values<int32_t>()[index]);
      return SQLITE_OK;
    case ValueKind::kUInt32:
      sqlite3_result_int64(ctx, static_cast<uint32_t>(batch.values<int32_t>()[index]));
      return SQLITE_OK;
    case ValueKind::kInt64:
      sqlite3_result_int64(ctx, batch.values<int64_t>()[index]);
      return SQLITE_OK;
    case ValueKind::kUInt64: {
      uint64_t v = static_cast<uint64_t>(batch.values<int64_t>()[index]);
      if (v <= static_cast<uint64_t>(INT64_MAX)) {
        sqlite3_result_int64(ctx, static_cast<int64_t>(v));
      } else {
        sqlite3_result_double(ctx, static_cast<double>(v));
      }
      return SQLITE_OK;
    }
    case ValueKind::kFloat:
      sqlite3_result_double(ctx, batch.values<float>()[index]);
      return SQLITE_OK;
    case ValueKind::kDouble:
      sqlite3_result_double(ctx, batch.values<double>()[index]);
      return SQLITE_OK;
    case ValueKind::kFloat16: {
      const ByteArray& v = batch.values<ByteArray>()[index];
      sqlite3_result_double(ctx, parquet::HalfToDouble(static_cast<uint16_t>(v.ptr[0] | (v.ptr[1] << 8))));
      return SQLITE_OK;
    }
    case ValueKind::kText:
    case ValueKind::kJson: {
      const ByteArray& v = batch.values<ByteArray>()[index];
      if (batch.text_terminated) {
        sqlite3_result_text(ctx, reinterpret_cast<const char*>(v.ptr), -1, SQLITE_TRANSIENT);
      } else {
        ResultText(ctx, reinterpret_cast<const char*>(v.ptr), v.len);
      }
      if (m.kind == ValueKind::kJson) sqlite3_result_subtype(ctx, kJsonSubtype);
      return SQLITE_OK;
    }
    case ValueKind::kBlob: {
      const ByteArray& v = batch.values<ByteArray>()[index];
      if (v.len == 0) {
        sqlite3_result_zeroblob(ctx, 0);
      } else {
        sqlite3_result_blob64(ctx, v.ptr, v.len, SQLITE_TRANSIENT);
      }
      return SQLITE_OK;
    }
    case ValueKind::kUuid: {
      size_t n = parquet::FormatUuid(batch.values<ByteArray>()[index].ptr, buffer);
      ResultFormatted(ctx, buffer, n);
      return SQLITE_OK;
    }
    case ValueKind::kInterval: {
      size_t n = parquet::FormatInterval(batch.values<ByteArray>()[index].ptr, buffer);
      ResultFormatted(ctx, buffer, n);
      return SQLITE_OK;
    }
    case ValueKind::kDecimalInt32:
    case ValueKind::kDecimalInt64: {
      if (m.decimal_as_text) return ResultDecimalText(ctx, m, batch, index, scratch);
      int64_t unscaled = m.kind == ValueKind::kDecimalInt32 ? batch.values<int32_t>()[index]
                                                            : batch.values<int64_t>()[index];
      sqlite3_result_double(ctx, parquet::DecimalToDouble(unscaled, m.decimal_scale));
      return SQLITE_OK;
    }
    case ValueKind::kDecimalBytes: {
      if (m.decimal_as_text) return ResultDecimalText(ctx, m, batch, index, scratch);
      const ByteArray& v = batch.values<ByteArray>()[index];
      sqlite3_result_double(ctx, parquet::DecimalBigEndianToDouble(v.ptr, v.len, m.decimal_scale));
      return SQLITE_OK;
    }
    case ValueKind::kDate: {
      int32_t days = batch.values<int32_t>()[index];
      if (m.timestamp_form == TimestampForm::kText) {
        if (dates) {
          size_t n = 0;
          sqlite3_result_text(ctx, dates->Format(days, &n), -1, SQLITE_TRANSIENT);
        } else {
          ResultFormatted(ctx, buffer, parquet::FormatDate(days, buffer));
        }
      } else {
        int64_t epoch = 0;
        bool ok = m.timestamp_form != TimestampForm::kJulianDay &&
                  parquet::DateToEpoch(days, EpochUnitOf(m.timestamp_form), &epoch);
        ResultTemporal(ctx, m.timestamp_form, ok, epoch,
                       m.timestamp_form == TimestampForm::kJulianDay ? parquet::DateToJulianDay(days) : 0);
      }
      return SQLITE_OK;
    }
    case ValueKind::kTime32:
      ResultFormatted(ctx, buffer, parquet::FormatTime(batch.values<int32_t>()[index], m.time_unit, buffer));
      return SQLITE_OK;
    case ValueKind::kTime64:
      ResultFormatted(ctx, buffer, parquet::FormatTime(batch.values<int64_t>()[index], m.time_unit, buffer));
      return SQLITE_OK;
    case ValueKind::kTimestamp: {
      int64_t v = batch.values<int64_t>()[index];
      if (m.timestamp_form == TimestampForm::kText) {
        ResultFormatted(ctx, buffer, parquet::FormatTimestamp(v, m.time_unit, buffer));
      } else {
        int64_t epoch = 0;
        bool ok = m.timestamp_form != TimestampForm::kJulianDay &&
                  parquet::TimestampToEpoch(v, m.time_unit, EpochUnitOf(m.timestamp_form), &epoch);
        ResultTemporal(ctx, m.timestamp_form, ok, epoch,
                       m.timestamp_form == TimestampForm::kJulianDay ? parquet::TimestampToJulianDay(v, m.time_unit) : 0);
      }
      return SQLITE_OK;
    }
    case ValueKind::kInt96Timestamp: {
      const parquet::Int96& v = batch.values<parquet::Int96>()[index];
      if (m.timestamp_form == TimestampForm::kText) {
        ResultFormatted(ctx, buffer, parquet::FormatInt96Timestamp(v, buffer));
      } else {
        int64_t epoch = 0;
        bool ok = m.timestamp_form != TimestampForm::kJulianDay &&
                  parquet::Int96ToEpoch(v, EpochUnitOf(m.timestamp_form), &epoch);
        ResultTemporal(ctx, m.timestamp_form, ok, epoch,
                       m.timestamp_form == TimestampForm::kJulianDay ? parquet::Int96ToJulianDay(v) : 0);
      }
      return SQLITE_OK;
    }
  }
  sqlite3_result_null(ctx);
  return SQLITE_OK;
}

}  // namespace sqlite_parquet

// SqlValue and the SQLite API (see sqlite_values.h).
#include "ext/common/sqlite_values.h"

#include <cstring>
#include <exception>
#include <new>
#include <string_view>

namespace sqlite_parquet {

// SQLite marks a text value as NUL-terminated only when it measures the length itself;
// text given with an explicit length is re-allocated by the first function that needs the
// terminator (length(), most string functions), once per value. Short values without an
// embedded NUL therefore go through a terminated stack copy and length -1.
void ResultText(sqlite3_context* ctx, const char* text, size_t length) {
  char terminated[256];
  if (length < sizeof terminated && (length == 0 || std::memchr(text, 0, length) == nullptr)) {
    if (length) std::memcpy(terminated, text, length);
    terminated[length] = '\0';
    ResultTerminatedText(ctx, terminated);
    return;
  }
  sqlite3_result_text64(ctx, text, length, SQLITE_TRANSIENT, SQLITE_UTF8);
}

namespace {

// ResultSqlValue, inlined into the conversions below (xColumn's general path).
[[gnu::always_inline]] inline void SetResult(sqlite3_context* ctx, const SqlValue& value) {
  switch (value.type) {
    case SqlValue::Type::kNull: sqlite3_result_null(ctx); return;
    case SqlValue::Type::kInteger: sqlite3_result_int64(ctx, value.integer); return;
    case SqlValue::Type::kReal: sqlite3_result_double(ctx, value.real); return;
    case SqlValue::Type::kText:
      if (value.terminated) {
        ResultTerminatedText(ctx, value.bytes.data());
      } else {
        ResultText(ctx, value.bytes.data(), value.bytes.size());
      }
      return;
    case SqlValue::Type::kBlob:
      if (value.bytes.empty()) {
        sqlite3_result_zeroblob(ctx, 0);
      } else {
        sqlite3_result_blob64(ctx, value.bytes.data(), value.bytes.size(), SQLITE_TRANSIENT);
      }
      return;
  }
  sqlite3_result_null(ctx);
}

// ResultParquetValue, inlined into both entry points so that the batch read, the
// conversion and the result call are one function.
template <typename Read>
[[gnu::always_inline]] inline int SetConvertedResult(sqlite3_context* ctx, const ColumnMapping& mapping, Read read,
                                                     FormatBuffer* buffer) {
  SqlValue converted;
  try {
    if (!ToSqlValueOf(mapping, read, buffer, &converted)) {
      sqlite3_result_error(ctx, kTimestampRangeError, -1);
      return SQLITE_ERROR;
    }
  } catch (const std::bad_alloc&) {
    sqlite3_result_error_nomem(ctx);
    return SQLITE_NOMEM;
  } catch (const std::exception& e) {
    sqlite3_result_error(ctx, e.what(), -1);
    return SQLITE_ERROR;
  }
  SetResult(ctx, converted);
  if (mapping.kind == ValueKind::kJson) sqlite3_result_subtype(ctx, kJsonSubtype);
  return SQLITE_OK;
}

}  // namespace

void ResultSqlValue(sqlite3_context* ctx, const SqlValue& value) { SetResult(ctx, value); }

SqlValue ReadSqlValue(sqlite3_value* value) {
  switch (sqlite3_value_type(value)) {
    case SQLITE_INTEGER: return SqlValue::Integer(sqlite3_value_int64(value));
    case SQLITE_FLOAT: return SqlValue::Real(sqlite3_value_double(value));  // never NaN: SQLite holds none
    case SQLITE_TEXT: {
      const unsigned char* text = sqlite3_value_text(value);
      if (text == nullptr) throw std::bad_alloc();
      return SqlValue::Text(
          std::string_view(reinterpret_cast<const char*>(text), static_cast<size_t>(sqlite3_value_bytes(value))));
    }
    case SQLITE_BLOB: {
      const void* blob = sqlite3_value_blob(value);
      const size_t size = static_cast<size_t>(sqlite3_value_bytes(value));
      if (blob == nullptr && size > 0) throw std::bad_alloc();
      return SqlValue::Blob(size > 0 ? std::string_view(static_cast<const char*>(blob), size) : std::string_view());
    }
    default: return SqlValue::Null();
  }
}

int ResultParquetValue(sqlite3_context* ctx, const ColumnMapping& mapping, const ParquetValue& value,
                       FormatBuffer* buffer) {
  return SetConvertedResult(ctx, mapping, [&value]() -> const ParquetValue& { return value; }, buffer);
}

int ResultBatchValue(sqlite3_context* ctx, const ColumnMapping& mapping, const parquet::ColumnBatch& batch,
                     size_t index, FormatBuffer* buffer) {
  return SetConvertedResult(
      ctx, mapping,
      [&]() __attribute__((always_inline)) {
        return ParquetValueAt(mapping.kind, batch.values<uint8_t>(), index, batch.text_terminated);
      },
      buffer);
}

}  // namespace sqlite_parquet

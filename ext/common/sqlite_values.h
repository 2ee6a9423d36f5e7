// SqlValue and the SQLite API: Parquet values as SQLite results (the "set as sqlite3
// result" adapter of the conversion in parquet_to_sql.h; see column_mapping.h and the
// docs/type-mapping.md's table), and a sqlite3_value read as an SqlValue.
#pragma once

#include <cstddef>

#include "ext/common/column_mapping.h"
#include "ext/common/parquet_to_sql.h"
#include "ext/common/sql_value.h"
#include "ext/common/sqlite_api.h"
#include "format/read/column_reader.h"

namespace sqlite_parquet {

// The subtype SQLite's JSON functions recognise on TEXT values ('J').
inline constexpr int kJsonSubtype = 74;

// Sets the result of `ctx` to the text `text` of `length` bytes (copied by SQLite). Short
// text goes through a NUL-terminated stack copy with length -1, so that SQLite marks it
// terminated (see sqlite_values.cc).
void ResultText(sqlite3_context* ctx, const char* text, size_t length);

// Sets the result of `ctx` to the NUL-terminated text `text` holding no other NUL (copied
// by SQLite, which measures it and marks it terminated).
inline void ResultTerminatedText(sqlite3_context* ctx, const char* text) {
  sqlite3_result_text(ctx, text, -1, SQLITE_TRANSIENT);
}

// Sets the result of `ctx` to `value` (TEXT and BLOB copied by SQLite).
void ResultSqlValue(sqlite3_context* ctx, const SqlValue& value);

// The value SQLite holds in `value`, its TEXT or BLOB bytes viewed where SQLite keeps them
// (valid until `value` changes or is freed). Throws std::bad_alloc when SQLite runs out of
// memory producing the bytes.
SqlValue ReadSqlValue(sqlite3_value* value);

// Sets the result of `ctx` to `value` converted as `mapping` prescribes (ToSqlValue), with
// the JSON subtype in a JSON column. Does not throw: returns SQLITE_OK, or the error code it
// set as the result (SQLITE_NOMEM, SQLITE_ERROR), so xColumn can return its value directly.
int ResultParquetValue(sqlite3_context* ctx, const ColumnMapping& mapping, const ParquetValue& value,
                       FormatBuffer* buffer);

// ResultParquetValue of value `index` of `batch` (an index into the batch's non-null values).
int ResultBatchValue(sqlite3_context* ctx, const ColumnMapping& mapping, const parquet::ColumnBatch& batch,
                     size_t index, FormatBuffer* buffer);

}  // namespace sqlite_parquet

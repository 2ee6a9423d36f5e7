// Conversion of decoded Parquet values to SQLite values, following a ColumnMapping (see
// column_mapping.h and the README's type-mapping table).
#pragma once

#include <string>

#include "ext/column_mapping.h"
#include "ext/sqlite_api.h"
#include "format/column_reader.h"

namespace sqlite_parquet {

// The subtype SQLite's JSON functions recognise on TEXT values ('J').
inline constexpr int kJsonSubtype = 74;

class DateTextCache;  // sql_value.h

// Sets the result of `ctx` to the text `text` of `length` bytes (copied by SQLite). Short
// text goes through a NUL-terminated stack copy with length -1, so that SQLite marks it
// terminated (see sqlite_values.cc).
void ResultText(sqlite3_context* ctx, const char* text, size_t length);

// Sets the result of `ctx` to value `index` of `batch` (an index into the batch's non-null
// values), converted as `mapping` prescribes. `scratch` is reused for formatted text.
// Does not throw: returns SQLITE_OK, or the error code it set as the result (SQLITE_NOMEM,
// SQLITE_ERROR), so xColumn can return its value directly.
// `dates`, when given, serves DATE values as text (see DateTextCache).
int ResultValue(sqlite3_context* ctx, const ColumnMapping& mapping, const parquet::ColumnBatch& batch,
                size_t index, std::string* scratch, DateTextCache* dates = nullptr);

}  // namespace sqlite_parquet

// Conversion of decoded Parquet values to SQLite values, following a ColumnMapping (see
// column_mapping.h and the README's type-mapping table).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "ext/column_mapping.h"
#include "ext/sqlite_api.h"
#include "format/column_reader.h"

namespace sqlite_parquet {

// The subtype SQLite's JSON functions recognise on TEXT values ('J').
inline constexpr int kJsonSubtype = 74;

// The text of the DATE values one column formatted recently, by day: a direct-mapped table
// of 4096 entries (64 KiB, allocated on first use), so 4096 consecutive days never evict
// each other. A column's dates repeat (a few thousand distinct days in millions of rows),
// so most rows copy ten bytes instead of running the calendar computation.
class DateTextCache {
 public:
  // The text of `days` (NUL-terminated, valid until the next call) and its length.
  const char* Format(int32_t days, size_t* length);

 private:
  static constexpr size_t kEntries = 4096;
  struct Entry {
    int32_t days;   // INT32_MIN: empty (its text is longer than ten characters, never cached)
    char text[12];  // YYYY-MM-DD and a NUL
  };
  std::unique_ptr<Entry[]> entries_;
  char other_[64];  // dates outside years 0000..9999
};

// Sets the result of `ctx` to value `index` of `batch` (an index into the batch's non-null
// values), converted as `mapping` prescribes. `scratch` is reused for formatted text.
// Does not throw: returns SQLITE_OK, or the error code it set as the result (SQLITE_NOMEM,
// SQLITE_ERROR), so xColumn can return its value directly.
// `dates`, when given, serves DATE values as text (see DateTextCache).
int ResultValue(sqlite3_context* ctx, const ColumnMapping& mapping, const parquet::ColumnBatch& batch,
                size_t index, std::string* scratch, DateTextCache* dates = nullptr);

}  // namespace sqlite_parquet

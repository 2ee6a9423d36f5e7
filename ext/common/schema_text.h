// Finds calls of a function in the SQL text of a schema object (sqlite_master.sql), for
// schema_guard.h. Pure C++ (no SQLite), so that the unit tests and the fuzzers run it on
// any bytes: the text comes from a database file someone else made.
#pragma once

#include <string_view>

namespace sqlite_parquet {

// Whether `sql` may call the function `name` (lowercase ASCII). Searched, not parsed, and
// erring on the side of a call: `name` compared ignoring ASCII case (as SQLite compares
// function names), not preceded or followed by a byte SQLite takes as part of an
// identifier (letters, digits, '_', '$', bytes >= 0x80), bare or in quotes of its own
// ("x", `x`, [x], 'x'), then '(' after any white space and comments, wherever it is (in a
// string literal too).
bool CallsFunction(std::string_view sql, std::string_view name);

}  // namespace sqlite_parquet

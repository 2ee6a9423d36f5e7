// Tests of CallsFunction (ext/schema_text): which spellings of a function call in a schema
// object's SQL are found (every one SQLite would parse as a call, and some more), and which
// mere mentions of the name are not.
#include <doctest/doctest.h>

#include <string>

#include "ext/common/schema_text.h"

using sqlite_parquet::CallsFunction;

TEST_CASE("CallsFunction finds every spelling of a call") {
  for (const std::string sql : {
           "CREATE TABLE c(a CHECK (parquet_copy('q', 'p') >= 0))",
           "CREATE TABLE c(a CHECK (PARQUET_COPY('q', 'p')))",
           "CREATE TABLE c(a CHECK (Parquet_Copy ('q', 'p')))",
           "CREATE TABLE c(a CHECK (\"parquet_copy\"('q', 'p')))",
           "CREATE TABLE c(a CHECK (`parquet_copy`('q', 'p')))",
           "CREATE TABLE c(a CHECK ([parquet_copy]('q', 'p')))",
           "CREATE TABLE c(a CHECK ('parquet_copy'('q', 'p')))",
           "CREATE TABLE c(a CHECK (parquet_copy /* ( */ -- )\n ('q', 'p')))",
           "CREATE TABLE c(a CHECK (parquet_copy\t\r\n\f\v('q')))",
           "CREATE TABLE c(\"b\"parquet_copy(1))",  // a quote ending the token before the name
           "CREATE TABLE c(a, b AS (1+parquet_copy('q', 'p')))",
           "parquet_copy(",
       }) {
    INFO(sql);
    CHECK(CallsFunction(sql, "parquet_copy"));
  }
}

TEST_CASE("CallsFunction ignores names that contain the function's name or are not called") {
  for (const std::string sql : {
           "CREATE TABLE parquet_copy_log(parquet_copy_rows INTEGER, \"parquet_copy query\" TEXT)",
           "CREATE TABLE c(xparquet_copy(1), $parquet_copy)",
           "CREATE TABLE c(a parquet_copy_x(1))",
           "CREATE TABLE c(parquet_copy, b)",
           "CREATE TABLE c(\"parquet_copy\"\"\" (1))",  // the identifier parquet_copy"
           "CREATE TABLE c(a DEFAULT (parquet_copy -- (\n))",
           "CREATE TABLE c(a DEFAULT (parquet_copy /* ( ",
           "CREATE TABLE c(a CHECK (parquet_cop('q')))",
           "CREATE TABLE c(a CHECK (\xc3\xa9parquet_copy('q')))",  // a non-ASCII byte is part of the identifier
           "",
           "parquet_copy",
       }) {
    INFO(sql);
    CHECK(!CallsFunction(sql, "parquet_copy"));
  }
}

TEST_CASE("CallsFunction compares ASCII case only, as SQLite does") {
  // U+212A KELVIN SIGN is not 'k' to SQLite, so neither here.
  CHECK(CallsFunction("x(KEY(1))", "key"));
  CHECK(!CallsFunction("x(\xe2\x84\xaa" "EY(1))", "key"));
}

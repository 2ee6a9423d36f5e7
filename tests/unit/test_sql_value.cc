// Tests of SQLite's value order as constraint pushdown reproduces it (ext/common/sql_value.h).
#include <doctest/doctest.h>

#include <cmath>
#include <climits>
#include <limits>
#include <string>

#include "ext/common/sql_value.h"

using namespace sqlite_parquet;

namespace {

int Sign(int v) { return v < 0 ? -1 : v > 0 ? 1 : 0; }

}  // namespace

TEST_CASE("sql value order: storage classes NULL < numbers < TEXT < BLOB") {
  const SqlValue values[] = {SqlValue::Null(), SqlValue::Integer(-5), SqlValue::Real(2.5), SqlValue::Integer(3),
                             SqlValue::Text(""), SqlValue::Text("a"), SqlValue::Text("ab"), SqlValue::Blob(""),
                             SqlValue::Blob("\x01")};
  for (size_t i = 0; i < std::size(values); i++) {
    for (size_t j = 0; j < std::size(values); j++) {
      CHECK(Sign(CompareSqlValues(values[i], values[j])) == (i < j ? -1 : i > j ? 1 : 0));
    }
  }
  // Text and blob compare bytes as unsigned, then length.
  CHECK(CompareSqlValues(SqlValue::Text("\xc3\xa9"), SqlValue::Text("z")) > 0);
  CHECK(CompareSqlValues(SqlValue::Blob(std::string_view("\x00", 1)), SqlValue::Blob("")) > 0);
}

TEST_CASE("sql value order: integers and reals compare exactly") {
  const int64_t big = (int64_t{1} << 53) + 1;  // no double equals it
  CHECK(CompareSqlValues(SqlValue::Integer(big), SqlValue::Real(static_cast<double>(big))) > 0);
  CHECK(CompareSqlValues(SqlValue::Real(9007199254740992.0), SqlValue::Integer(big)) < 0);
  CHECK(CompareSqlValues(SqlValue::Integer(3), SqlValue::Real(3.0)) == 0);
  CHECK(CompareSqlValues(SqlValue::Integer(INT64_MAX), SqlValue::Real(9223372036854775808.0)) < 0);
  CHECK(CompareSqlValues(SqlValue::Integer(INT64_MIN), SqlValue::Real(-9223372036854775808.0)) == 0);
  CHECK(CompareSqlValues(SqlValue::Real(-0.0), SqlValue::Integer(0)) == 0);
  CHECK(SqlValue::Real(std::numeric_limits<double>::quiet_NaN()).is_null());
}

TEST_CASE("sql value classes of declared types") {
  CHECK(ValueClassOfDeclaredType("INTEGER UINT64") == ValueClass::kNumeric);
  CHECK(ValueClassOfDeclaredType("REAL DECIMAL(9,2)") == ValueClass::kNumeric);
  CHECK(ValueClassOfDeclaredType("TEXT DATE") == ValueClass::kText);
  CHECK(ValueClassOfDeclaredType("BLOB") == ValueClass::kBlob);
  CHECK(ValueClassOfDeclaredType("") == ValueClass::kNull);
}

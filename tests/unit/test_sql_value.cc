// Tests of SQLite's value order as constraint pushdown reproduces it (ext/sql_value.h), and
// of statistics bounds mapped into SQLite values only where the mapping keeps their order.
#include <doctest/doctest.h>

#include <cmath>
#include <climits>
#include <limits>
#include <string>

#include "ext/sql_value.h"
#include "format/logical_values.h"

using namespace parquet;
using namespace sqlite_parquet;

namespace {

int Sign(int v) { return v < 0 ? -1 : v > 0 ? 1 : 0; }

ColumnMapping Mapping(ValueKind kind, const std::string& declared) {
  ColumnMapping m;
  m.kind = kind;
  m.declared_type = declared;
  return m;
}

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

TEST_CASE("statistics bounds as sql values") {
  FormatBuffer buffer;
  SqlValue v;
  SUBCASE("UINT64 above INT64_MAX is REAL, as xColumn gives it") {
    ColumnMapping m = Mapping(ValueKind::kUInt64, "INTEGER UINT64");
    REQUIRE(StatisticsSqlValue(m, StatisticsValue::Integer(Type::INT64, -1), ValueComparison::kUnsignedInteger, &buffer, &v));
    CHECK(v.type == SqlValue::Type::kReal);
    CHECK(v.real == 18446744073709551615.0);
    CHECK_FALSE(StatisticsSqlValue(m, StatisticsValue::Integer(Type::INT64, 1), ValueComparison::kSignedInteger, &buffer, &v));
  }
  SUBCASE("text dates only in years 0000..9999") {
    ColumnMapping m = Mapping(ValueKind::kDate, "TEXT DATE");
    REQUIRE(StatisticsSqlValue(m, StatisticsValue::Integer(Type::INT32, 0), ValueComparison::kSignedInteger, &buffer, &v));
    CHECK(v.bytes == "1970-01-01");
    CHECK_FALSE(StatisticsSqlValue(m, StatisticsValue::Integer(Type::INT32, 3000000), ValueComparison::kSignedInteger,
                                   &buffer, &v));  // year 10183
    CHECK_FALSE(StatisticsSqlValue(m, StatisticsValue::Integer(Type::INT32, -800000), ValueComparison::kSignedInteger,
                                   &buffer, &v));  // a negative year
    m.timestamp_form = TimestampForm::kUnixEpoch;
    REQUIRE(StatisticsSqlValue(m, StatisticsValue::Integer(Type::INT32, 3000000), ValueComparison::kSignedInteger,
                               &buffer, &v));
    CHECK(v.integer == int64_t{3000000} * 86400);
  }
  SUBCASE("decimals as REAL are the nearest double; as text they are never bounds") {
    ColumnMapping m = Mapping(ValueKind::kDecimalInt32, "REAL DECIMAL(9,2)");
    m.decimal_scale = 2;
    REQUIRE(StatisticsSqlValue(m, StatisticsValue::Integer(Type::INT32, 1234), ValueComparison::kSignedInteger, &buffer, &v));
    CHECK(v.real == 12.34);
    m.decimal_as_text = true;
    CHECK_FALSE(StatisticsSqlValue(m, StatisticsValue::Integer(Type::INT32, 1234), ValueComparison::kSignedInteger, &buffer, &v));
  }
  SUBCASE("a NaN bound and types without a kept order are not used") {
    ColumnMapping m = Mapping(ValueKind::kDouble, "REAL");
    CHECK_FALSE(StatisticsSqlValue(m, StatisticsValue::Real(Type::DOUBLE, std::nan("")), ValueComparison::kFloatingPoint,
                                   &buffer, &v));
    CHECK_FALSE(StatisticsSqlValue(Mapping(ValueKind::kTime64, "TEXT TIME_MICROS"),
                                   StatisticsValue::Integer(Type::INT64, 5), ValueComparison::kSignedInteger, &buffer, &v));
    CHECK_FALSE(StatisticsSqlValue(Mapping(ValueKind::kText, "TEXT"), StatisticsValue::Bytes(Type::BYTE_ARRAY, "a"),
                                   ValueComparison::kNone, &buffer, &v));
  }
}

TEST_CASE("column values as sql values follow the mapping") {
  ColumnBatch batch;
  int64_t* values = batch.mutable_values<int64_t>(2);
  values[0] = -1;  // UINT64 max
  values[1] = 7;
  batch.num_values = batch.num_levels = 2;
  FormatBuffer buffer;
  SqlValue v;
  REQUIRE(ColumnSqlValue(Mapping(ValueKind::kUInt64, "INTEGER UINT64"), batch, 0, &buffer, &v));
  CHECK(v.type == SqlValue::Type::kReal);
  REQUIRE(ColumnSqlValue(Mapping(ValueKind::kUInt64, "INTEGER UINT64"), batch, 1, &buffer, &v));
  CHECK((v.type == SqlValue::Type::kInteger && v.integer == 7));
  ColumnMapping timestamp = Mapping(ValueKind::kTimestamp, "TEXT TIMESTAMP_MILLIS");
  REQUIRE(ColumnSqlValue(timestamp, batch, 1, &buffer, &v));
  CHECK(v.bytes == "1970-01-01 00:00:00.007");
}

TEST_CASE("DateTextCache gives FormatDate's text for every day, hits, evictions and long dates alike") {
  DateTextCache cache;
  char expected[64];
  // Days 4096 apart share a slot; the first lookups of slots 1.. meet the initial entries;
  // INT32_MIN and INT32_MAX are dates outside years 0000..9999 (longer text, not cached).
  const int32_t days[] = {INT32_MIN, 2, 0, 1, 4096, 1, 4097, 4097, -4096, 0, 2932896, 2932897, INT32_MIN, INT32_MAX, -719528, 4095};
  for (int round = 0; round < 2; round++) {
    for (int32_t d : days) {
      size_t n = 0;
      const char* text = cache.Format(d, &n);
      const size_t expected_length = parquet::FormatDate(d, expected);
      REQUIRE(n == expected_length);
      CHECK(std::string(text, n) == std::string(expected, expected_length));
      CHECK(text[n] == '\0');
    }
  }
  // A wide sweep with repeats, as a scan sees them.
  for (int32_t d = -30000; d < 30000; d += 7) {
    for (int32_t repeat : {d, d + 4096 * 3, d}) {
      size_t n = 0;
      const char* text = cache.Format(repeat, &n);
      const size_t expected_length = parquet::FormatDate(repeat, expected);
      if (std::string(text, n) != std::string(expected, expected_length)) FAIL("day " << repeat << ": " << text);
    }
  }
  // With the cache in a FormatBuffer, a DATE value's text comes from it.
  FormatBuffer buffer;
  buffer.dates = &cache;
  ColumnMapping m = Mapping(ValueKind::kDate, "TEXT DATE");
  SqlValue v;
  REQUIRE(StatisticsSqlValue(m, StatisticsValue::Integer(Type::INT32, 11016), ValueComparison::kSignedInteger, &buffer, &v));
  CHECK(v.type == SqlValue::Type::kText);
  CHECK(v.bytes == "2000-02-29");
}

// Tests of the one conversion from a decoded Parquet value to a SQLite value
// (ext/common/parquet_to_sql.h): ToSqlValue for every value kind and presentation option, reading
// values from arrays of each physical type, statistics values, and the DATE text cache.
#include <doctest/doctest.h>

#include <cmath>
#include <climits>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>

#include "ext/common/parquet_to_sql.h"
#include "format/values/logical_values.h"

using namespace parquet;
using namespace sqlite_parquet;

namespace {

ColumnMapping MappingOf(ValueKind kind, const std::string& declared) {
  ColumnMapping m;
  m.kind = kind;
  m.declared_type = declared;
  return m;
}

ParquetValue IntegerValue(int64_t v) {
  ParquetValue p;
  p.integer = v;
  return p;
}

ParquetValue RealValue(double v) {
  ParquetValue p;
  p.real = v;
  return p;
}

ParquetValue BytesValue(const void* bytes, size_t length) {
  ParquetValue p;
  p.bytes.ptr = static_cast<const uint8_t*>(bytes);
  p.bytes.len = static_cast<uint32_t>(length);
  return p;
}

// ToSqlValue that must succeed.
SqlValue Converted(const ColumnMapping& m, const ParquetValue& v, FormatBuffer* buffer) {
  SqlValue out;
  REQUIRE(ToSqlValue(m, v, buffer, &out));
  return out;
}

bool IsInteger(const SqlValue& v, int64_t expected) { return v.type == SqlValue::Type::kInteger && v.integer == expected; }
bool IsReal(const SqlValue& v, double expected) { return v.type == SqlValue::Type::kReal && v.real == expected; }
bool IsText(const SqlValue& v, std::string_view expected) { return v.type == SqlValue::Type::kText && v.bytes == expected; }

}  // namespace

TEST_CASE("ToSqlValue: numbers") {
  FormatBuffer buffer;
  CHECK(IsInteger(Converted(MappingOf(ValueKind::kBoolean, "INTEGER BOOLEAN"), IntegerValue(1), &buffer), 1));
  CHECK(IsInteger(Converted(MappingOf(ValueKind::kInt32, "INTEGER"), IntegerValue(-7), &buffer), -7));
  // An unsigned INT32 holding all ones is 4294967295, whether it was read sign-extended or not.
  CHECK(IsInteger(Converted(MappingOf(ValueKind::kUInt32, "INTEGER UINT32"), IntegerValue(-1), &buffer), 4294967295));
  CHECK(IsInteger(Converted(MappingOf(ValueKind::kUInt32, "INTEGER UINT32"), IntegerValue(4294967295), &buffer),
                  4294967295));
  CHECK(IsInteger(Converted(MappingOf(ValueKind::kInt64, "INTEGER"), IntegerValue(INT64_MIN), &buffer), INT64_MIN));
  const ColumnMapping uint64 = MappingOf(ValueKind::kUInt64, "INTEGER UINT64");
  CHECK(IsInteger(Converted(uint64, IntegerValue(INT64_MAX), &buffer), INT64_MAX));
  CHECK(IsReal(Converted(uint64, IntegerValue(-1), &buffer), 18446744073709551615.0));  // above INT64_MAX: REAL
  CHECK(IsReal(Converted(MappingOf(ValueKind::kFloat, "REAL FLOAT"), RealValue(1.1f), &buffer), static_cast<double>(1.1f)));
  CHECK(IsReal(Converted(MappingOf(ValueKind::kDouble, "REAL"), RealValue(-2.5), &buffer), -2.5));
  CHECK(Converted(MappingOf(ValueKind::kDouble, "REAL"), RealValue(std::nan("")), &buffer).is_null());  // NaN is NULL
  const uint8_t half_one_and_half[2] = {0x00, 0x3E};  // 1.5 as binary16, little-endian
  CHECK(IsReal(Converted(MappingOf(ValueKind::kFloat16, "REAL FLOAT16"), BytesValue(half_one_and_half, 2), &buffer), 1.5));
}

TEST_CASE("ToSqlValue: decimals as REAL and as exact text") {
  FormatBuffer buffer;
  ColumnMapping m = MappingOf(ValueKind::kDecimalInt32, "REAL DECIMAL(9,2)");
  m.decimal_scale = 2;
  CHECK(IsReal(Converted(m, IntegerValue(-1234), &buffer), -12.34));
  m.decimal_as_text = true;
  CHECK(IsText(Converted(m, IntegerValue(-1234), &buffer), "-12.34"));
  m.kind = ValueKind::kDecimalInt64;
  CHECK(IsText(Converted(m, IntegerValue(5), &buffer), "0.05"));
  const uint8_t big_endian[3] = {0x01, 0xE2, 0x40};  // 123456
  ColumnMapping bytes = MappingOf(ValueKind::kDecimalBytes, "REAL DECIMAL(20,3)");
  bytes.decimal_scale = 3;
  CHECK(IsReal(Converted(bytes, BytesValue(big_endian, 3), &buffer), 123.456));
  bytes.decimal_as_text = true;
  CHECK(IsText(Converted(bytes, BytesValue(big_endian, 3), &buffer), "123.456"));
}

TEST_CASE("ToSqlValue: text, JSON, blobs, UUID and INTERVAL") {
  FormatBuffer buffer;
  const char text[] = "héllo";  // followed by its NUL
  ParquetValue value = BytesValue(text, std::strlen(text));
  SqlValue v = Converted(MappingOf(ValueKind::kText, "TEXT"), value, &buffer);
  CHECK(IsText(v, "héllo"));
  CHECK_FALSE(v.terminated);
  CHECK(v.bytes.data() == text);  // the value's own bytes, not a copy
  value.bytes_terminated = true;
  v = Converted(MappingOf(ValueKind::kJson, "TEXT JSON"), value, &buffer);
  CHECK(IsText(v, "héllo"));
  CHECK(v.terminated);
  v = Converted(MappingOf(ValueKind::kBlob, "BLOB"), BytesValue("\0\1", 2), &buffer);
  CHECK((v.type == SqlValue::Type::kBlob && v.bytes == std::string_view("\0\1", 2)));
  const uint8_t uuid[16] = {0x12, 0x3e, 0x45, 0x67, 0xe8, 0x9b, 0x12, 0xd3, 0xa4, 0x56, 0x42, 0x66, 0x14, 0x17, 0x40, 0x00};
  v = Converted(MappingOf(ValueKind::kUuid, "TEXT UUID"), BytesValue(uuid, 16), &buffer);
  CHECK(IsText(v, "123e4567-e89b-12d3-a456-426614174000"));
  CHECK(v.terminated);  // formatted text is NUL-terminated in the buffer
  CHECK(v.bytes.data()[v.bytes.size()] == '\0');
  const uint8_t interval[12] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0};
  CHECK(IsText(Converted(MappingOf(ValueKind::kInterval, "TEXT"), BytesValue(interval, 12), &buffer),
               "{\"months\":1,\"days\":2,\"millis\":3}"));
  CHECK(Converted(MappingOf(ValueKind::kNull, ""), IntegerValue(3), &buffer).is_null());
  CHECK(Converted(MappingOf(ValueKind::kNested, "TEXT JSON"), IntegerValue(3), &buffer).is_null());
}

TEST_CASE("ToSqlValue: dates, times and timestamps in every timestamp_as form") {
  FormatBuffer buffer;
  ColumnMapping date = MappingOf(ValueKind::kDate, "TEXT DATE");
  CHECK(IsText(Converted(date, IntegerValue(11016), &buffer), "2000-02-29"));
  CHECK(IsText(Converted(date, IntegerValue(-719529), &buffer), "-0001-12-31"));
  date.timestamp_form = TimestampForm::kUnixEpoch;
  CHECK(IsInteger(Converted(date, IntegerValue(1), &buffer), 86400));
  date.timestamp_form = TimestampForm::kUnixEpochMs;
  CHECK(IsInteger(Converted(date, IntegerValue(-1), &buffer), -86400000));
  date.timestamp_form = TimestampForm::kJulianDay;
  CHECK(IsReal(Converted(date, IntegerValue(0), &buffer), 2440587.5));

  ColumnMapping time = MappingOf(ValueKind::kTime32, "TEXT TIME_MILLIS");
  CHECK(IsText(Converted(time, IntegerValue(3723004), &buffer), "01:02:03.004"));
  time.kind = ValueKind::kTime64;
  time.time_unit = TimeUnit::MICROS;
  CHECK(IsText(Converted(time, IntegerValue(43200500000), &buffer), "12:00:00.5"));

  ColumnMapping timestamp = MappingOf(ValueKind::kTimestamp, "TEXT TIMESTAMP_MILLIS");
  CHECK(IsText(Converted(timestamp, IntegerValue(-1), &buffer), "1969-12-31 23:59:59.999"));
  timestamp.timestamp_form = TimestampForm::kUnixEpochUs;
  CHECK(IsInteger(Converted(timestamp, IntegerValue(-1), &buffer), -1000));
  timestamp.time_unit = TimeUnit::NANOS;
  timestamp.timestamp_form = TimestampForm::kUnixEpoch;
  CHECK(IsInteger(Converted(timestamp, IntegerValue(1999999999), &buffer), 1));
  // A unit too fine for the value is an error, as in xColumn.
  timestamp.time_unit = TimeUnit::MILLIS;
  timestamp.timestamp_form = TimestampForm::kUnixEpochUs;
  SqlValue out;
  CHECK_FALSE(ToSqlValue(timestamp, IntegerValue(INT64_MAX), &buffer, &out));

  ColumnMapping int96 = MappingOf(ValueKind::kInt96Timestamp, "TEXT TIMESTAMP");
  ParquetValue noon;
  const int64_t nanos = int64_t{12} * 3600 * 1000000000;
  std::memcpy(noon.int96.words, &nanos, 8);
  noon.int96.words[2] = 2440589;  // 1970-01-02
  CHECK(IsText(Converted(int96, noon, &buffer), "1970-01-02 12:00:00"));
  int96.timestamp_form = TimestampForm::kUnixEpoch;
  CHECK(IsInteger(Converted(int96, noon, &buffer), 86400 + 43200));
}

TEST_CASE("ParquetValueAt reads the array of the kind's physical type") {
  const bool booleans[] = {false, true};
  const int32_t int32s[] = {5, -3};
  const int64_t int64s[] = {6, INT64_MIN};
  const float floats[] = {0.5f, 2.25f};
  const double doubles[] = {1.5, -0.25};
  ByteArray byte_arrays[2];
  byte_arrays[1].ptr = reinterpret_cast<const uint8_t*>("xy");
  byte_arrays[1].len = 2;
  CHECK(ParquetValueAt(ValueKind::kBoolean, booleans, 1).integer == 1);
  CHECK(ParquetValueAt(ValueKind::kDate, int32s, 1).integer == -3);  // sign-extended
  CHECK(ParquetValueAt(ValueKind::kUInt32, int32s, 1).integer == -3);
  CHECK(ParquetValueAt(ValueKind::kTimestamp, int64s, 1).integer == INT64_MIN);
  CHECK(ParquetValueAt(ValueKind::kFloat, floats, 1).real == 2.25);
  CHECK(ParquetValueAt(ValueKind::kDouble, doubles, 1).real == -0.25);
  const ParquetValue text = ParquetValueAt(ValueKind::kText, byte_arrays, 1, true);
  CHECK(text.bytes.view() == "xy");
  CHECK(text.bytes_terminated);
  CHECK_FALSE(ParquetValueAt(ValueKind::kBlob, byte_arrays, 1).bytes_terminated);
}

TEST_CASE("StatisticsParquetValue: statistics values as values of the column") {
  ParquetValue v;
  // Statistics of an unsigned INT32 are zero-extended; the value is the column's.
  REQUIRE(StatisticsParquetValue(MappingOf(ValueKind::kUInt32, "INTEGER UINT32"),
                                 StatisticsValue::Integer(Type::INT32, 4294967295), &v));
  CHECK(v.integer == -1);
  SqlValue out;
  FormatBuffer buffer;
  REQUIRE(ToSqlValue(MappingOf(ValueKind::kUInt32, "INTEGER UINT32"), v, &buffer, &out));
  CHECK(IsInteger(out, 4294967295));
  // Bytes of the wrong length for the mapping are not a value of it.
  CHECK_FALSE(StatisticsParquetValue(MappingOf(ValueKind::kUuid, "TEXT UUID"),
                                     StatisticsValue::Bytes(Type::FIXED_LEN_BYTE_ARRAY, "too short"), &v));
  CHECK_FALSE(StatisticsParquetValue(MappingOf(ValueKind::kFloat16, "REAL FLOAT16"),
                                     StatisticsValue::Bytes(Type::FIXED_LEN_BYTE_ARRAY, "abc"), &v));
  const StatisticsValue text = StatisticsValue::Bytes(Type::BYTE_ARRAY, "any length");
  REQUIRE(StatisticsParquetValue(MappingOf(ValueKind::kText, "TEXT"), text, &v));
  CHECK(v.bytes.view() == "any length");
  CHECK(reinterpret_cast<const char*>(v.bytes.ptr) == text.bytes.data());
  StatisticsValue flag;
  flag.physical_type = Type::BOOLEAN;
  flag.boolean = true;
  REQUIRE(StatisticsParquetValue(MappingOf(ValueKind::kBoolean, "INTEGER BOOLEAN"), flag, &v));
  CHECK(v.integer == 1);
}

TEST_CASE("statistics bounds as sql values") {
  FormatBuffer buffer;
  SqlValue v;
  SUBCASE("UINT64 above INT64_MAX is REAL, as xColumn gives it") {
    ColumnMapping m = MappingOf(ValueKind::kUInt64, "INTEGER UINT64");
    REQUIRE(StatisticsSqlValue(m, StatisticsValue::Integer(Type::INT64, -1), ValueComparison::kUnsignedInteger, &buffer, &v));
    CHECK(v.type == SqlValue::Type::kReal);
    CHECK(v.real == 18446744073709551615.0);
    CHECK_FALSE(StatisticsSqlValue(m, StatisticsValue::Integer(Type::INT64, 1), ValueComparison::kSignedInteger, &buffer, &v));
  }
  SUBCASE("text dates only in years 0000..9999") {
    ColumnMapping m = MappingOf(ValueKind::kDate, "TEXT DATE");
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
    ColumnMapping m = MappingOf(ValueKind::kDecimalInt32, "REAL DECIMAL(9,2)");
    m.decimal_scale = 2;
    REQUIRE(StatisticsSqlValue(m, StatisticsValue::Integer(Type::INT32, 1234), ValueComparison::kSignedInteger, &buffer, &v));
    CHECK(v.real == 12.34);
    m.decimal_as_text = true;
    CHECK_FALSE(StatisticsSqlValue(m, StatisticsValue::Integer(Type::INT32, 1234), ValueComparison::kSignedInteger, &buffer, &v));
  }
  SUBCASE("a NaN bound and types without a kept order are not used") {
    ColumnMapping m = MappingOf(ValueKind::kDouble, "REAL");
    CHECK_FALSE(StatisticsSqlValue(m, StatisticsValue::Real(Type::DOUBLE, std::nan("")), ValueComparison::kFloatingPoint,
                                   &buffer, &v));
    CHECK_FALSE(StatisticsSqlValue(MappingOf(ValueKind::kTime64, "TEXT TIME_MICROS"),
                                   StatisticsValue::Integer(Type::INT64, 5), ValueComparison::kSignedInteger, &buffer, &v));
    CHECK_FALSE(StatisticsSqlValue(MappingOf(ValueKind::kText, "TEXT"), StatisticsValue::Bytes(Type::BYTE_ARRAY, "a"),
                                   ValueComparison::kNone, &buffer, &v));
  }
}

TEST_CASE("BatchSqlValue converts value `index` of a batch") {
  ColumnBatch batch;
  int64_t* values = batch.mutable_values<int64_t>(2);
  values[0] = -1;  // UINT64 max
  values[1] = 7;
  batch.num_values = batch.num_levels = 2;
  FormatBuffer buffer;
  SqlValue v;
  REQUIRE(BatchSqlValue(MappingOf(ValueKind::kUInt64, "INTEGER UINT64"), batch, 0, &buffer, &v));
  CHECK(v.type == SqlValue::Type::kReal);
  REQUIRE(BatchSqlValue(MappingOf(ValueKind::kUInt64, "INTEGER UINT64"), batch, 1, &buffer, &v));
  CHECK((v.type == SqlValue::Type::kInteger && v.integer == 7));
  ColumnMapping timestamp = MappingOf(ValueKind::kTimestamp, "TEXT TIMESTAMP_MILLIS");
  REQUIRE(BatchSqlValue(timestamp, batch, 1, &buffer, &v));
  CHECK(v.bytes == "1970-01-01 00:00:00.007");

  // Text of a batch whose values are NUL-terminated is marked so; of another batch, not.
  ColumnBatch text_batch;
  ByteArray* texts = text_batch.mutable_values<ByteArray>(1);
  texts[0].ptr = reinterpret_cast<const uint8_t*>("abc");
  texts[0].len = 3;
  text_batch.num_values = text_batch.num_levels = 1;
  text_batch.text_terminated = true;
  REQUIRE(BatchSqlValue(MappingOf(ValueKind::kText, "TEXT"), text_batch, 0, &buffer, &v));
  CHECK((IsText(v, "abc") && v.terminated));
  text_batch.text_terminated = false;
  REQUIRE(BatchSqlValue(MappingOf(ValueKind::kJson, "TEXT JSON"), text_batch, 0, &buffer, &v));
  CHECK((IsText(v, "abc") && !v.terminated));
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
  ColumnMapping m = MappingOf(ValueKind::kDate, "TEXT DATE");
  SqlValue v;
  REQUIRE(StatisticsSqlValue(m, StatisticsValue::Integer(Type::INT32, 11016), ValueComparison::kSignedInteger, &buffer, &v));
  CHECK(v.type == SqlValue::Type::kText);
  CHECK(v.bytes == "2000-02-29");
}

// Unit tests for format/logical_values: text and numeric forms of Parquet logical-type
// values and the parsers the writer uses. Expected strings were computed independently
// (Python's datetime/decimal, SQLite's julianday()).
#include "format/values/logical_values.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

using namespace parquet;

namespace {

constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

std::string Date(int32_t days) {
  char buffer[kDateTextCapacity];
  const size_t length = FormatDate(days, buffer);
  REQUIRE(length <= kDateTextCapacity);
  return std::string(buffer, length);
}

std::string Time(int64_t value, TimeUnit unit) {
  char buffer[kTimeTextCapacity];
  const size_t length = FormatTime(value, unit, buffer);
  REQUIRE(length <= kTimeTextCapacity);
  return std::string(buffer, length);
}

std::string Timestamp(int64_t value, TimeUnit unit) {
  char buffer[kTimestampTextCapacity];
  const size_t length = FormatTimestamp(value, unit, buffer);
  REQUIRE(length <= kTimestampTextCapacity);
  return std::string(buffer, length);
}

Int96 MakeInt96(int64_t nanos_of_day, int32_t julian_day) {
  Int96 value;
  const uint64_t bits = static_cast<uint64_t>(nanos_of_day);
  value.words[0] = static_cast<uint32_t>(bits);
  value.words[1] = static_cast<uint32_t>(bits >> 32);
  value.words[2] = static_cast<uint32_t>(julian_day);
  return value;
}

std::string Int96Text(const Int96& value) {
  char buffer[kTimestampTextCapacity];
  const size_t length = FormatInt96Timestamp(value, buffer);
  REQUIRE(length <= kTimestampTextCapacity);
  return std::string(buffer, length);
}

std::string Decimal(int64_t unscaled, int32_t scale) {
  std::vector<char> buffer(DecimalTextCapacity(8, scale));
  const size_t length = FormatDecimal(unscaled, scale, buffer.data());
  REQUIRE(length <= buffer.size());
  return std::string(buffer.data(), length);
}

std::string DecimalBytes(const std::vector<uint8_t>& bytes, int32_t scale) {
  std::vector<char> buffer(DecimalTextCapacity(bytes.size(), scale));
  const size_t length =
      FormatDecimalBigEndian(bytes.data(), bytes.size(), scale, buffer.data(), buffer.size());
  REQUIRE(length > 0);
  return std::string(buffer.data(), length);
}

// Big-endian two's complement of `value` in `width` bytes.
std::vector<uint8_t> BigEndian(int64_t value, size_t width) {
  std::vector<uint8_t> bytes(width, value < 0 ? 0xFF : 0x00);
  for (size_t i = 0; i < width && i < 8; ++i) {
    bytes[width - 1 - i] = static_cast<uint8_t>(static_cast<uint64_t>(value) >> (8 * i));
  }
  return bytes;
}

// `width` bytes: first byte `top`, then `fill`.
std::vector<uint8_t> Bytes(size_t width, uint8_t top, uint8_t fill) {
  std::vector<uint8_t> bytes(width, fill);
  bytes[0] = top;
  return bytes;
}

double HexDouble(uint64_t bits) {
  double value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

uint64_t DoubleBits(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

}  // namespace

TEST_CASE("FormatDate: known dates") {
  CHECK(Date(0) == "1970-01-01");
  CHECK(Date(-1) == "1969-12-31");
  CHECK(Date(11016) == "2000-02-29");
  CHECK(Date(11017) == "2000-03-01");
  CHECK(Date(-25508) == "1900-03-01");
  CHECK(Date(-25509) == "1900-02-28");  // 1900 is not a leap year
  CHECK(Date(-719528) == "0000-01-01");
  CHECK(Date(-719529) == "-0001-12-31");
  CHECK(Date(2932896) == "9999-12-31");
  CHECK(Date(2932897) == "10000-01-01");
  CHECK(Date(std::numeric_limits<int32_t>::min()) == "-5877641-06-23");
  CHECK(Date(std::numeric_limits<int32_t>::max()) == "5881580-07-11");
}

TEST_CASE("FormatDate / ParseDate round trip over a wide sample") {
  for (int64_t days = std::numeric_limits<int32_t>::min(); days <= std::numeric_limits<int32_t>::max();
       days += 7919 * 13) {
    const std::string text = Date(static_cast<int32_t>(days));
    int32_t parsed = 0;
    REQUIRE_MESSAGE(ParseDate(text, &parsed), text);
    REQUIRE(parsed == days);
  }
  // Every day of 1999..2001 (leap and non-leap years).
  for (int32_t days = 10592; days < 11688; ++days) {
    int32_t parsed = 0;
    REQUIRE(ParseDate(Date(days), &parsed));
    REQUIRE(parsed == days);
  }
}

TEST_CASE("FormatDate: every day of years 0..9999 (the fast path) and its edges round-trip") {
  CHECK(Date(-719469) == "0000-02-29");  // year 0 is a leap year; before the fast path's start
  CHECK(Date(-719468) == "0000-03-01");
  CHECK(Date(2932836) == "9999-11-01");
  std::string previous;
  for (int32_t days = -719528; days <= 2932897; days += 1) {
    const std::string text = Date(days);
    int32_t parsed = 0;
    if (!ParseDate(text, &parsed) || parsed != days || (days <= 2932896 && text.size() != 10) ||
        (days <= 2932896 && text <= previous)) {
      FAIL("day " << days << " formats as " << text << " after " << previous);
    }
    previous = text;
  }
}

TEST_CASE("ParseDate rejects malformed and impossible dates") {
  int32_t days = 0;
  CHECK(ParseDate("2000-02-29", &days));
  CHECK(days == 11016);
  CHECK(ParseDate("+1970-01-01", &days));
  CHECK(days == 0);
  CHECK(ParseDate("-0001-12-31", &days));
  CHECK(days == -719529);
  CHECK_FALSE(ParseDate("1900-02-29", &days));
  CHECK_FALSE(ParseDate("2001-13-01", &days));
  CHECK_FALSE(ParseDate("2001-00-01", &days));
  CHECK_FALSE(ParseDate("2001-04-31", &days));
  CHECK_FALSE(ParseDate("2001-04-00", &days));
  CHECK_FALSE(ParseDate("01-04-01", &days));
  CHECK_FALSE(ParseDate("2001-4-01", &days));
  CHECK_FALSE(ParseDate("2001-04-01 ", &days));
  CHECK_FALSE(ParseDate(" 2001-04-01", &days));
  CHECK_FALSE(ParseDate("", &days));
  CHECK_FALSE(ParseDate("5881580-07-12", &days));  // one past INT32_MAX days
  CHECK(ParseDate("5881580-07-11", &days));
  CHECK(days == std::numeric_limits<int32_t>::max());
}

TEST_CASE("FormatTime") {
  CHECK(Time(0, TimeUnit::MILLIS) == "00:00:00");
  CHECK(Time(43200500, TimeUnit::MILLIS) == "12:00:00.5");
  CHECK(Time(1000123, TimeUnit::MICROS) == "00:00:01.000123");
  CHECK(Time(86399999999999, TimeUnit::NANOS) == "23:59:59.999999999");
  CHECK(Time(3723000000, TimeUnit::MICROS) == "01:02:03");
  CHECK(Time(10, TimeUnit::NANOS) == "00:00:00.00000001");
  // Outside one day: hours keep counting, negatives get a sign.
  CHECK(Time(90000000, TimeUnit::MILLIS) == "25:00:00");
  CHECK(Time(-1000, TimeUnit::MILLIS) == "-00:00:01");
  CHECK(Time(-1, TimeUnit::MICROS) == "-00:00:00.000001");
  CHECK(Time(kInt64Max, TimeUnit::NANOS) == "2562047:47:16.854775807");
  CHECK(Time(kInt64Min, TimeUnit::NANOS) == "-2562047:47:16.854775808");
  CHECK(Time(kInt64Min, TimeUnit::MILLIS) == "-2562047788015:12:55.808");
}

TEST_CASE("FormatTimestamp at each unit") {
  CHECK(Timestamp(0, TimeUnit::MILLIS) == "1970-01-01 00:00:00");
  CHECK(Timestamp(1710506096789, TimeUnit::MILLIS) == "2024-03-15 12:34:56.789");
  CHECK(Timestamp(1710506096789000, TimeUnit::MICROS) == "2024-03-15 12:34:56.789");
  CHECK(Timestamp(1710506096789000100, TimeUnit::NANOS) == "2024-03-15 12:34:56.7890001");
  CHECK(Timestamp(-1, TimeUnit::MILLIS) == "1969-12-31 23:59:59.999");
  CHECK(Timestamp(-1, TimeUnit::MICROS) == "1969-12-31 23:59:59.999999");
  CHECK(Timestamp(-1, TimeUnit::NANOS) == "1969-12-31 23:59:59.999999999");
  CHECK(Timestamp(-86400000, TimeUnit::MILLIS) == "1969-12-31 00:00:00");
  CHECK(Timestamp(kInt64Min, TimeUnit::MILLIS) == "-292275055-05-16 16:47:04.192");
  CHECK(Timestamp(kInt64Max, TimeUnit::MILLIS) == "292278994-08-17 07:12:55.807");
  CHECK(Timestamp(kInt64Min, TimeUnit::MICROS) == "-290308-12-21 19:59:05.224192");
  CHECK(Timestamp(kInt64Max, TimeUnit::MICROS) == "294247-01-10 04:00:54.775807");
  CHECK(Timestamp(kInt64Min, TimeUnit::NANOS) == "1677-09-21 00:12:43.145224192");
  CHECK(Timestamp(kInt64Max, TimeUnit::NANOS) == "2262-04-11 23:47:16.854775807");
}

TEST_CASE("FormatInt96Timestamp") {
  CHECK(Int96Text(MakeInt96(0, 2440588)) == "1970-01-01 00:00:00");
  CHECK(Int96Text(MakeInt96(45296789000000, 2440588)) == "1970-01-01 12:34:56.789");
  CHECK(Int96Text(MakeInt96(1, 2440587)) == "1969-12-31 00:00:00.000000001");
  // Year 290000: beyond the int64 nanosecond range.
  CHECK(Int96Text(MakeInt96(45296789000000, 107641385)) == "290000-01-01 12:34:56.789");
  CHECK(Int96Text(MakeInt96(0, 0)) == "-4713-11-24 00:00:00");
  // Spark writes a timestamp of 9089380393200000000 us (year 290000) with wrapping 64-bit
  // arithmetic: Julian day -105862232 and -32509551616000 ns. Read the way Spark reads it
  // (outside the int64-microsecond range, reduce modulo 2^64), it comes back.
  CHECK(Int96Text(MakeInt96(-32509551616000, -105862232)) == "290000-12-30 23:00:00");
  // So does every other value outside that range: the largest Julian day wraps as well.
  CHECK(Int96Text(MakeInt96(0, std::numeric_limits<int32_t>::max())) == "29357-12-05 15:41:44.48384");
  // Nanoseconds outside one day carry into neighbouring days.
  CHECK(Int96Text(MakeInt96(86400000000000 + 5, 2440588)) == "1970-01-02 00:00:00.000000005");
  CHECK(Int96Text(MakeInt96(-1, 2440588)) == "1969-12-31 23:59:59.999999999");
  char buffer[kTimestampTextCapacity];
  CHECK(FormatInt96Timestamp(MakeInt96(kInt64Min, std::numeric_limits<int32_t>::min()), buffer) <=
        kTimestampTextCapacity);
}

TEST_CASE("Epoch integer conversions") {
  int64_t result = 0;
  CHECK(TimestampToEpoch(-1, TimeUnit::MILLIS, EpochUnit::SECONDS, &result));
  CHECK(result == -1);
  CHECK(TimestampToEpoch(1999, TimeUnit::MILLIS, EpochUnit::SECONDS, &result));
  CHECK(result == 1);
  CHECK(TimestampToEpoch(-1001, TimeUnit::MICROS, EpochUnit::MILLIS, &result));
  CHECK(result == -2);
  CHECK(TimestampToEpoch(1234, TimeUnit::MILLIS, EpochUnit::MICROS, &result));
  CHECK(result == 1234000);
  CHECK(TimestampToEpoch(1234, TimeUnit::NANOS, EpochUnit::NANOS, &result));
  CHECK(result == 1234);
  CHECK(TimestampToEpoch(kInt64Min, TimeUnit::NANOS, EpochUnit::SECONDS, &result));
  CHECK(result == -9223372037);
  result = 42;
  CHECK_FALSE(TimestampToEpoch(kInt64Max, TimeUnit::MILLIS, EpochUnit::MICROS, &result));
  CHECK(result == 42);

  CHECK(Int96ToEpoch(MakeInt96(1500000000, 2440588), EpochUnit::SECONDS, &result));
  CHECK(result == 1);
  CHECK(Int96ToEpoch(MakeInt96(1, 2440587), EpochUnit::MICROS, &result));
  CHECK(result == -86400000000);
  CHECK(Int96ToEpoch(MakeInt96(1, 2440587), EpochUnit::NANOS, &result));
  CHECK(result == -86399999999999);
  CHECK(Int96ToEpoch(MakeInt96(0, 107641385), EpochUnit::SECONDS, &result));
  CHECK(result == int64_t{105200797} * 86400);
  CHECK_FALSE(Int96ToEpoch(MakeInt96(0, 107641385), EpochUnit::NANOS, &result));

  CHECK(DateToEpoch(-1, EpochUnit::MILLIS, &result));
  CHECK(result == -86400000);
  CHECK(DateToEpoch(std::numeric_limits<int32_t>::max(), EpochUnit::MILLIS, &result));
  CHECK(result == int64_t{2147483647} * 86400000);
  CHECK_FALSE(DateToEpoch(std::numeric_limits<int32_t>::max(), EpochUnit::MICROS, &result));
}

TEST_CASE("Julian day numbers match SQLite's julianday()") {
  CHECK(TimestampToJulianDay(0, TimeUnit::MILLIS) == 2440587.5);
  CHECK(TimestampToJulianDay(0, TimeUnit::NANOS) == 2440587.5);
  CHECK(TimestampToJulianDay(1710506096789, TimeUnit::MILLIS) == 2460385.024268391);
  CHECK(TimestampToJulianDay(1710506096789000, TimeUnit::MICROS) == 2460385.024268391);
  CHECK(TimestampToJulianDay(-1, TimeUnit::MILLIS) == 2440587.4999999884);
  CHECK(DateToJulianDay(-719528) == 1721059.5);
  CHECK(DateToJulianDay(11016) == 2451603.5);
  CHECK(Int96ToJulianDay(MakeInt96(21600000000000, 2451604)) == 2451603.75);
  // A sub-millisecond part moves the value up.
  CHECK(TimestampToJulianDay(1710506096789500, TimeUnit::MICROS) > 2460385.024268391);
}

TEST_CASE("FormatDecimal from int64") {
  CHECK(Decimal(-12345, 2) == "-123.45");
  CHECK(Decimal(5, 2) == "0.05");
  CHECK(Decimal(-5, 2) == "-0.05");
  CHECK(Decimal(100, 0) == "100");
  CHECK(Decimal(100, 2) == "1.00");
  CHECK(Decimal(0, 0) == "0");
  CHECK(Decimal(0, 3) == "0.000");
  CHECK(Decimal(0, -3) == "0");
  CHECK(Decimal(123, 5) == "0.00123");
  CHECK(Decimal(123, 3) == "0.123");
  CHECK(Decimal(123, -2) == "12300");
  CHECK(Decimal(-123, -2) == "-12300");
  CHECK(Decimal(kInt64Min, 0) == "-9223372036854775808");
  CHECK(Decimal(kInt64Min, 18) == "-9.223372036854775808");
  CHECK(Decimal(kInt64Max, 19) == "0.9223372036854775807");
  CHECK(Decimal(kInt64Max, 25) == "0.0000009223372036854775807");
}

TEST_CASE("FormatDecimalBigEndian of several widths") {
  CHECK(DecimalBytes({}, 0) == "0");
  CHECK(DecimalBytes({}, 2) == "0.00");
  // 1 byte
  CHECK(DecimalBytes({0x85}, 2) == "-1.23");
  CHECK(DecimalBytes({0x7F}, 0) == "127");
  CHECK(DecimalBytes({0x80}, 0) == "-128");
  CHECK(DecimalBytes({0x7B}, 5) == "0.00123");
  // 9 bytes: too wide for int64, and sign extensions that still fit.
  CHECK(DecimalBytes(Bytes(9, 0x00, 0xFF), 5) == "184467440737095.51615");
  CHECK(DecimalBytes(Bytes(9, 0xFF, 0x00), 0) == "-18446744073709551616");
  CHECK(DecimalBytes(BigEndian(-123, 9), 5) == "-0.00123");
  CHECK(DecimalBytes(BigEndian(kInt64Min, 9), 0) == "-9223372036854775808");
  CHECK(DecimalBytes({0xFF, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}, 0) ==
        "-9223372036854775809");
  // 16 bytes
  CHECK(DecimalBytes(Bytes(16, 0x7F, 0xFF), 0) == "170141183460469231731687303715884105727");
  CHECK(DecimalBytes(Bytes(16, 0x80, 0x00), 38) == "-1.70141183460469231731687303715884105728");
  CHECK(DecimalBytes(BigEndian(-1, 16), 3) == "-0.001");
  CHECK(DecimalBytes(BigEndian(1, 16), 40) == "0.0000000000000000000000000000000000000001");
  // 17 bytes: 2^128
  std::vector<uint8_t> two_to_128(17, 0);
  two_to_128[0] = 0x01;
  CHECK(DecimalBytes(two_to_128, 0) == "340282366920938463463374607431768211456");
  CHECK(DecimalBytes(two_to_128, -2) == "34028236692093846346337460743176821145600");
  // 32 bytes
  CHECK(DecimalBytes(Bytes(32, 0x80, 0x00), 0) ==
        "-57896044618658097711785492504343953926634992332820282019728792003956564819968");
  CHECK(DecimalBytes(Bytes(32, 0x7F, 0xFF), 3) ==
        "57896044618658097711785492504343953926634992332820282019728792003956564819.967");
  // 1000 bytes of zeros and of -1 (heap path, sign extension).
  CHECK(DecimalBytes(std::vector<uint8_t>(1000, 0x00), 1) == "0.0");
  CHECK(DecimalBytes(std::vector<uint8_t>(1000, 0xFF), 0) == "-1");
}

TEST_CASE("FormatDecimalBigEndian: wide value against a digit-by-digit reference") {
  // 10^k for k = 0..200 built as big-endian bytes must print as "1" + k zeros.
  std::vector<uint8_t> value(100, 0);
  value.back() = 1;
  for (int k = 0; k <= 200; ++k) {
    CHECK(DecimalBytes(value, 0) == "1" + std::string(static_cast<size_t>(k), '0'));
    unsigned carry = 0;
    for (size_t i = value.size(); i-- > 0;) {
      const unsigned product = value[i] * 10u + carry;
      value[i] = static_cast<uint8_t>(product);
      carry = product >> 8;
    }
  }
}

TEST_CASE("FormatDecimalBigEndian reports a too small buffer") {
  const std::vector<uint8_t> bytes = Bytes(16, 0x7F, 0xFF);
  char buffer[64];
  CHECK(FormatDecimalBigEndian(bytes.data(), bytes.size(), 0, buffer, 38) == 0);
  CHECK(FormatDecimalBigEndian(bytes.data(), bytes.size(), 0, buffer, 39) == 39);
  const uint8_t one = 1;
  CHECK(FormatDecimalBigEndian(&one, 1, 5, buffer, 6) == 0);
  CHECK(FormatDecimalBigEndian(&one, 1, 5, buffer, 7) == 7);
}

TEST_CASE("DecimalToDouble is correctly rounded") {
  CHECK(DecimalToDouble(1, 1) == 0.1);
  CHECK(DecimalToDouble(-12345, 2) == -123.45);
  CHECK(DecimalToDouble(7, -3) == 7000.0);
  CHECK(DecimalToDouble(0, 400) == 0.0);
  // Slow path: more than 53 bits, or scales beyond the exact powers of ten.
  CHECK(DecimalToDouble(9007199254740993, 0) == 9007199254740992.0);
  CHECK(DecimalToDouble(9007199254740995, 0) == 9007199254740996.0);
  CHECK(DecimalToDouble(1, -23) == 1e23);
  CHECK(DecimalToDouble(123456789012345678, 25) == 1.2345678901234567e-08);
  CHECK(DecimalToDouble(-4503599627370497, -30) == -4.503599627370497e+45);
  CHECK(DecimalToDouble(22250738585072011, 324) == 2.225073858507201e-308);
  CHECK(DecimalToDouble(49, 325) == 5e-324);
  CHECK(DecimalToDouble(3, 324) == 5e-324);
  CHECK(DecimalToDouble(1, 400) == 0.0);
  CHECK(std::signbit(DecimalToDouble(-1, 400)));
  CHECK(DecimalToDouble(1, -400) == std::numeric_limits<double>::infinity());
  CHECK(DecimalToDouble(-1, -400) == -std::numeric_limits<double>::infinity());
  CHECK(DecimalToDouble(kInt64Min, 0) == -9223372036854775808.0);
  CHECK(DecimalToDouble(1, std::numeric_limits<int32_t>::max()) == 0.0);
  CHECK(DecimalToDouble(1, std::numeric_limits<int32_t>::min()) ==
        std::numeric_limits<double>::infinity());

  CHECK(DecimalBigEndianToDouble(nullptr, 0, 3) == 0.0);
  const uint8_t small[2] = {0xFF, 0x85};
  CHECK(DecimalBigEndianToDouble(small, 2, 2) == -1.23);
  const std::vector<uint8_t> max128 = Bytes(16, 0x7F, 0xFF);
  CHECK(DecimalBigEndianToDouble(max128.data(), max128.size(), 0) == 1.7014118346046923e+38);
  const std::vector<uint8_t> min128 = Bytes(16, 0x80, 0x00);
  CHECK(DecimalBigEndianToDouble(min128.data(), min128.size(), 38) == -1.7014118346046923);
  const std::vector<uint8_t> max256 = Bytes(32, 0x7F, 0xFF);
  CHECK(DecimalBigEndianToDouble(max256.data(), max256.size(), -100) == 5.78960446186581e+176);
  CHECK(DecimalBigEndianToDouble(max256.data(), max256.size(), -300) ==
        std::numeric_limits<double>::infinity());
  const std::vector<uint8_t> nine = Bytes(9, 0x00, 0xFF);
  CHECK(DecimalBigEndianToDouble(nine.data(), nine.size(), 5) == 184467440737095.53);
}

TEST_CASE("FormatUuid and FormatInterval") {
  const uint8_t uuid[16] = {0x12, 0x3e, 0x45, 0x67, 0xe8, 0x9b, 0x12, 0xd3,
                            0xa4, 0x56, 0x42, 0x66, 0x14, 0x17, 0x40, 0x00};
  char buffer[kIntervalTextCapacity];
  CHECK(std::string(buffer, FormatUuid(uuid, buffer)) == "123e4567-e89b-12d3-a456-426614174000");
  const uint8_t interval[12] = {14, 0, 0, 0, 0x2C, 0x01, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF};
  CHECK(std::string(buffer, FormatInterval(interval, buffer)) ==
        "{\"months\":14,\"days\":300,\"millis\":4294967295}");
  const uint8_t zero_interval[12] = {};
  CHECK(std::string(buffer, FormatInterval(zero_interval, buffer)) ==
        "{\"months\":0,\"days\":0,\"millis\":0}");
}

TEST_CASE("HalfToDouble") {
  CHECK(HalfToDouble(0x3C00) == 1.0);
  CHECK(HalfToDouble(0xC000) == -2.0);
  CHECK(HalfToDouble(0x3555) == 0.333251953125);
  CHECK(HalfToDouble(0x7BFF) == 65504.0);
  CHECK(HalfToDouble(0x0400) == std::ldexp(1.0, -14));
  CHECK(HalfToDouble(0x0001) == std::ldexp(1.0, -24));
  CHECK(HalfToDouble(0x03FF) == std::ldexp(1023.0, -24));
  CHECK(HalfToDouble(0x0000) == 0.0);
  CHECK_FALSE(std::signbit(HalfToDouble(0x0000)));
  CHECK(std::signbit(HalfToDouble(0x8000)));
  CHECK(HalfToDouble(0x7C00) == std::numeric_limits<double>::infinity());
  CHECK(HalfToDouble(0xFC00) == -std::numeric_limits<double>::infinity());
  CHECK(std::isnan(HalfToDouble(0x7E00)));
  CHECK(std::isnan(HalfToDouble(0xFC01)));
}

TEST_CASE("DoubleToHalf rounds to nearest even") {
  CHECK(DoubleToHalf(1.0) == 0x3C00);
  CHECK(DoubleToHalf(-2.0) == 0xC000);
  CHECK(DoubleToHalf(0.0) == 0x0000);
  CHECK(DoubleToHalf(-0.0) == 0x8000);
  CHECK(DoubleToHalf(65504.0) == 0x7BFF);
  CHECK(DoubleToHalf(65519.99) == 0x7BFF);
  CHECK(DoubleToHalf(65520.0) == 0x7C00);  // tie rounds to even, which overflows
  CHECK(DoubleToHalf(1e300) == 0x7C00);
  CHECK(DoubleToHalf(-1e300) == 0xFC00);
  CHECK(DoubleToHalf(std::numeric_limits<double>::infinity()) == 0x7C00);
  CHECK((DoubleToHalf(std::nan("")) & 0x7E00) == 0x7E00);
  CHECK(DoubleToHalf(1.0 + std::ldexp(1.0, -11)) == 0x3C00);      // tie, even stays
  CHECK(DoubleToHalf(1.0 + 3 * std::ldexp(1.0, -11)) == 0x3C02);  // tie, odd goes up
  CHECK(DoubleToHalf(1.0 + std::ldexp(1.0, -11) + 1e-12) == 0x3C01);
  CHECK(DoubleToHalf(std::ldexp(1.0, -25)) == 0x0000);            // tie to even zero
  CHECK(DoubleToHalf(std::ldexp(1.0, -25) * 1.000001) == 0x0001);
  CHECK(DoubleToHalf(3 * std::ldexp(1.0, -25)) == 0x0002);
  CHECK(DoubleToHalf(std::ldexp(2047.0, -25)) == 0x0400);  // rounds up into the normals
  CHECK(DoubleToHalf(1e-300) == 0x0000);
  CHECK(DoubleToHalf(std::numeric_limits<double>::denorm_min()) == 0x0000);
  CHECK(DoubleToHalf(-std::numeric_limits<double>::denorm_min()) == 0x8000);
  CHECK(DoubleToHalf(HexDouble(0x3FF0000000000001)) == 0x3C00);
}

TEST_CASE("Every half round-trips through double") {
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    const uint16_t half = static_cast<uint16_t>(bits);
    const double value = HalfToDouble(half);
    if (std::isnan(value)) {
      CHECK((DoubleToHalf(value) | 0x0200) == (half | 0x0200));  // quietened, payload kept
      CHECK((DoubleBits(value) >> 63) == (bits >> 15));
    } else {
      REQUIRE(DoubleToHalf(value) == half);
    }
  }
}

TEST_CASE("ParseTimestamp accepted forms") {
  int64_t value = 0;
  CHECK(ParseTimestamp("1970-01-01", TimeUnit::MILLIS, &value));
  CHECK(value == 0);
  CHECK(ParseTimestamp("2024-03-15 12:34", TimeUnit::MILLIS, &value));
  CHECK(value == 1710506040000);
  CHECK(ParseTimestamp("2024-03-15T12:34:56", TimeUnit::MILLIS, &value));
  CHECK(value == 1710506096000);
  CHECK(ParseTimestamp("2024-03-15 12:34:56.789", TimeUnit::MILLIS, &value));
  CHECK(value == 1710506096789);
  CHECK(ParseTimestamp("2024-03-15 12:34:56.789Z", TimeUnit::MICROS, &value));
  CHECK(value == 1710506096789000);
  CHECK(ParseTimestamp("2024-03-15T12:34:56.789+00:00", TimeUnit::NANOS, &value));
  CHECK(value == 1710506096789000000);
  CHECK(ParseTimestamp("2024-03-15T14:34:56.789+02:00", TimeUnit::MILLIS, &value));
  CHECK(value == 1710506096789);
  CHECK(ParseTimestamp("2024-03-15T07:04:56.789-05:30", TimeUnit::MILLIS, &value));
  CHECK(value == 1710506096789);
  CHECK(ParseTimestamp("1969-12-31 23:59:59.999", TimeUnit::MILLIS, &value));
  CHECK(value == -1);
  CHECK(ParseTimestamp("2024-03-15 12:34:56.7890000000", TimeUnit::MILLIS, &value));
  CHECK(value == 1710506096789);
}

TEST_CASE("ParseTimestamp rejects malformed and out-of-range text") {
  int64_t value = 0;
  CHECK_FALSE(ParseTimestamp("2024-03-15 12:34:56.7891", TimeUnit::MILLIS, &value));  // lossy
  CHECK_FALSE(ParseTimestamp("2024-03-15 24:00:00", TimeUnit::MILLIS, &value));
  CHECK_FALSE(ParseTimestamp("2024-03-15 12:60", TimeUnit::MILLIS, &value));
  CHECK_FALSE(ParseTimestamp("2024-03-15 12:34:60", TimeUnit::MILLIS, &value));
  CHECK_FALSE(ParseTimestamp("2024-03-15 12", TimeUnit::MILLIS, &value));
  CHECK_FALSE(ParseTimestamp("2024-03-15 12:34:56.", TimeUnit::MILLIS, &value));
  CHECK_FALSE(ParseTimestamp("2024-03-15 12:34:56Zx", TimeUnit::MILLIS, &value));
  CHECK_FALSE(ParseTimestamp("2024-03-15 12:34:56+0100", TimeUnit::MILLIS, &value));
  CHECK_FALSE(ParseTimestamp("2024-03-15x12:34:56", TimeUnit::MILLIS, &value));
  CHECK_FALSE(ParseTimestamp("2024-03-15 ", TimeUnit::MILLIS, &value));
  CHECK_FALSE(ParseTimestamp("2262-04-11 23:47:16.854775808", TimeUnit::NANOS, &value));
  CHECK(ParseTimestamp("2262-04-11 23:47:16.854775807", TimeUnit::NANOS, &value));
  CHECK(value == kInt64Max);
  CHECK(ParseTimestamp("1677-09-21 00:12:43.145224192", TimeUnit::NANOS, &value));
  CHECK(value == kInt64Min);
  CHECK_FALSE(ParseTimestamp("1677-09-21 00:12:43.145224191", TimeUnit::NANOS, &value));
}

TEST_CASE("Timestamps round-trip through text at every unit") {
  const TimeUnit units[3] = {TimeUnit::MILLIS, TimeUnit::MICROS, TimeUnit::NANOS};
  const int64_t samples[] = {0, 1, -1, 999, -999, 1710506096789, -62135596800000, kInt64Min,
                             kInt64Max, kInt64Min + 1, kInt64Max - 1, 86399999, -86400001,
                             4611686018427387904, -4611686018427387904};
  for (TimeUnit unit : units) {
    for (int64_t sample : samples) {
      const std::string text = Timestamp(sample, unit);
      int64_t parsed = 0;
      REQUIRE_MESSAGE(ParseTimestamp(text, unit, &parsed), text);
      CHECK_MESSAGE(parsed == sample, text);
    }
    // A pseudo-random walk over the whole range.
    uint64_t state = 0x9E3779B97F4A7C15u;
    for (int i = 0; i < 2000; ++i) {
      state = state * 6364136223846793005u + 1442695040888963407u;
      const int64_t sample = static_cast<int64_t>(state);
      const std::string text = Timestamp(sample, unit);
      int64_t parsed = 0;
      REQUIRE_MESSAGE(ParseTimestamp(text, unit, &parsed), text);
      REQUIRE_MESSAGE(parsed == sample, text);
    }
  }
}

TEST_CASE("ParseTime") {
  int64_t value = 0;
  CHECK(ParseTime("12:00:00.5", TimeUnit::MILLIS, &value));
  CHECK(value == 43200500);
  CHECK(ParseTime("00:00:01.000123", TimeUnit::MICROS, &value));
  CHECK(value == 1000123);
  CHECK(ParseTime("23:59:59.999999999", TimeUnit::NANOS, &value));
  CHECK(value == 86399999999999);
  CHECK(ParseTime("01:02", TimeUnit::MILLIS, &value));
  CHECK(value == 3720000);
  CHECK_FALSE(ParseTime("24:00:00", TimeUnit::MILLIS, &value));
  CHECK_FALSE(ParseTime("1:02:03", TimeUnit::MILLIS, &value));
  CHECK_FALSE(ParseTime("01:02:03.0001", TimeUnit::MILLIS, &value));
  CHECK_FALSE(ParseTime("01:02:03Z", TimeUnit::MILLIS, &value));
  CHECK_FALSE(ParseTime("", TimeUnit::MILLIS, &value));
  for (int64_t nanos = 0; nanos < 86400000000000; nanos += 7777777777) {
    REQUIRE(ParseTime(Time(nanos, TimeUnit::NANOS), TimeUnit::NANOS, &value));
    REQUIRE(value == nanos);
  }
}

TEST_CASE("ParseDecimal to int64") {
  int64_t unscaled = 0;
  CHECK(ParseDecimal("-123.45", 2, &unscaled));
  CHECK(unscaled == -12345);
  CHECK(ParseDecimal("0.05", 2, &unscaled));
  CHECK(unscaled == 5);
  CHECK(ParseDecimal("1", 3, &unscaled));
  CHECK(unscaled == 1000);
  CHECK(ParseDecimal("+.5", 1, &unscaled));
  CHECK(unscaled == 5);
  CHECK(ParseDecimal("7.", 0, &unscaled));
  CHECK(unscaled == 7);
  CHECK(ParseDecimal("1.25e3", 0, &unscaled));
  CHECK(unscaled == 1250);
  CHECK(ParseDecimal("125E-4", 4, &unscaled));
  CHECK(unscaled == 125);
  CHECK(ParseDecimal("12300", -2, &unscaled));
  CHECK(unscaled == 123);
  CHECK(ParseDecimal("1.500", 1, &unscaled));  // trailing zeros beyond the scale are fine
  CHECK(unscaled == 15);
  CHECK(ParseDecimal("-0", 2, &unscaled));
  CHECK(unscaled == 0);
  CHECK(ParseDecimal("0e999999999999", 2, &unscaled));
  CHECK(unscaled == 0);
  CHECK(ParseDecimal("-9223372036854775808", 0, &unscaled));
  CHECK(unscaled == kInt64Min);
  CHECK(ParseDecimal("9223372036854775807", 0, &unscaled));
  CHECK(unscaled == kInt64Max);
  CHECK_FALSE(ParseDecimal("9223372036854775808", 0, &unscaled));
  CHECK_FALSE(ParseDecimal("-9223372036854775809", 0, &unscaled));
  CHECK_FALSE(ParseDecimal("1e19", 0, &unscaled));
  CHECK_FALSE(ParseDecimal("1e999999999999", 0, &unscaled));
  CHECK_FALSE(ParseDecimal("1.234", 2, &unscaled));  // would lose a digit
  CHECK_FALSE(ParseDecimal("12350", -2, &unscaled));
  CHECK_FALSE(ParseDecimal("", 0, &unscaled));
  CHECK_FALSE(ParseDecimal("-", 0, &unscaled));
  CHECK_FALSE(ParseDecimal(".", 0, &unscaled));
  CHECK_FALSE(ParseDecimal("1.2.3", 0, &unscaled));
  CHECK_FALSE(ParseDecimal("1e", 0, &unscaled));
  CHECK_FALSE(ParseDecimal(" 1", 0, &unscaled));
  CHECK_FALSE(ParseDecimal("1x", 0, &unscaled));
  CHECK_FALSE(ParseDecimal("0x10", 0, &unscaled));
}

TEST_CASE("ParseDecimal to big-endian bytes, and round trips") {
  uint8_t one_byte[1];
  CHECK(ParseDecimal("-1.28", 2, one_byte, 1));
  CHECK(one_byte[0] == 0x80);
  CHECK(ParseDecimal("1.27", 2, one_byte, 1));
  CHECK(one_byte[0] == 0x7F);
  CHECK_FALSE(ParseDecimal("1.28", 2, one_byte, 1));
  CHECK_FALSE(ParseDecimal("-1.29", 2, one_byte, 1));

  const std::vector<std::pair<std::string, int32_t>> cases = {
      {"-1.70141183460469231731687303715884105728", 38},
      {"170141183460469231731687303715884105727", 0},
      {"57896044618658097711785492504343953926634992332820282019728792003956564819.967", 3},
      {"-0.00123", 5},
      {"184467440737095.51615", 5},
      {"0.0000000000000000000000000000000000000001", 40},
  };
  for (const auto& entry : cases) {  // no structured binding: CHECK_MESSAGE's lambda (clang 14)
    const auto& text = entry.first;
    const auto& scale = entry.second;
    for (size_t width : {size_t{16}, size_t{17}, size_t{32}}) {
      std::vector<uint8_t> bytes(width);
      if (!ParseDecimal(text, scale, bytes.data(), width)) {
        CHECK_MESSAGE(text.size() > 60, text);  // only the 32-byte value is too wide
        CHECK_MESSAGE(width < 32, text);
        continue;
      }
      CHECK_MESSAGE(DecimalBytes(bytes, scale) == text, text);
    }
  }
  std::vector<uint8_t> bytes(16);
  CHECK_FALSE(ParseDecimal("170141183460469231731687303715884105728", 0, bytes.data(), 16));
  CHECK(ParseDecimal("-170141183460469231731687303715884105728", 0, bytes.data(), 16));
  CHECK(bytes == Bytes(16, 0x80, 0x00));
  CHECK(ParseDecimal("-1", 0, bytes.data(), 16));
  CHECK(bytes == Bytes(16, 0xFF, 0xFF));

  // int64 decimals round-trip at several scales.
  const int64_t samples[] = {0, 1, -1, 5, -12345, 1000000007, kInt64Min, kInt64Max};
  for (int64_t sample : samples) {
    for (int32_t scale : {0, 2, 9, 18, 25, -3}) {
      int64_t parsed = 0;
      const std::string text = Decimal(sample, scale);
      REQUIRE_MESSAGE(ParseDecimal(text, scale, &parsed), text);
      CHECK_MESSAGE(parsed == sample, text);
    }
  }
}

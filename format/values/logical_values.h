// Conversions of Parquet logical-type values (DATE, TIME, TIMESTAMP, INT96 timestamps,
// DECIMAL, UUID, INTERVAL, FLOAT16) to the text and numeric forms the SQLite mapping
// uses, and parsing of those text forms back into stored values for the writer.
//
// The Format* functions run once per value in a scan: they write into a caller-provided
// buffer (at least the documented capacity), return the number of characters written,
// never write a terminating NUL, never allocate (except FormatDecimalBigEndian and
// DecimalToDouble for decimals wider than 256 bytes) and never consult the locale.
//
// Dates and times use the proleptic Gregorian calendar, UTC, and astronomical year
// numbering (1 BC is year 0000, 2 BC is -0001). Years 0..9999 print as four digits,
// larger years with as many digits as they need, negative years as "-" + at least four
// digits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "format/metadata/enums.h"
#include "format/common/physical_values.h"

namespace parquet {

// ---- Buffer capacities (characters, no NUL) ------------------------------------------

// FormatDate for any int32 day count; the longest is "-5877641-06-23".
inline constexpr size_t kDateTextCapacity = 16;
// FormatTime for any int64 value of any unit.
inline constexpr size_t kTimeTextCapacity = 32;
// FormatTimestamp (any int64, any unit) and FormatInt96Timestamp (any INT96).
inline constexpr size_t kTimestampTextCapacity = 48;
// FormatUuid: exactly 36 characters.
inline constexpr size_t kUuidTextCapacity = 36;
// FormatInterval for any three uint32 fields.
inline constexpr size_t kIntervalTextCapacity = 64;

// Enough characters for FormatDecimal / FormatDecimalBigEndian of any value stored in
// `byte_length` bytes (8 for an int64) at `scale`: sign, digits, "0." and the leading
// zeros a positive scale needs, or the trailing zeros a negative scale needs.
constexpr size_t DecimalTextCapacity(size_t byte_length, int32_t scale) {
  // Digits of 2^(8 * byte_length), rounded up generously (log10(2) < 0.30103).
  const size_t max_digits = (byte_length * 8 * 30103 + 99999) / 100000 + 1;
  if (scale > 0) {
    const size_t scale_digits = static_cast<size_t>(scale);
    return 1 + 2 + (max_digits > scale_digits ? max_digits : scale_digits);
  }
  return 1 + max_digits + static_cast<size_t>(-static_cast<int64_t>(scale));
}

// ---- Dates, times, timestamps as text ------------------------------------------------

// "YYYY-MM-DD" for days since 1970-01-01. Every int32 is accepted.
size_t FormatDate(int32_t days_since_epoch, char* out);

// "HH:MM:SS", plus "." and the sub-second digits (trailing zeros removed) only when the
// sub-second part is non-zero: "12:00:00.5", "00:00:01.000123".
// Values outside one day are still printed, never rejected: a negative value prints as
// "-" followed by its magnitude ("-00:00:01" for -1 s), and the hour field keeps
// counting past 23 with as many digits as needed ("25:00:00", "2562047:47:16.854775807").
size_t FormatTime(int64_t value, TimeUnit unit, char* out);

// "YYYY-MM-DD HH:MM:SS[.fraction]" (UTC) for a count of `unit`s since the Unix epoch,
// with the fraction rule of FormatTime. Negative values count back from the epoch:
// -1 ms is "1969-12-31 23:59:59.999". Every int64 is accepted.
size_t FormatTimestamp(int64_t value, TimeUnit unit, char* out);

// The same form for a legacy INT96 timestamp: words[0..1] are the nanoseconds of the
// day (a little-endian int64), words[2] the Julian day number (read as a signed int32;
// 2440588 is 1970-01-01). Days and nanoseconds are combined without going through an
// int64 nanosecond count, so values far outside 1677..2262 (e.g. year 290000) print
// correctly. Nanoseconds outside [0, 1 day) carry into neighbouring days.
size_t FormatInt96Timestamp(const Int96& value, char* out);

// ---- Dates, times, timestamps as numbers ---------------------------------------------

// Target unit of the integer epoch conversions.
enum class EpochUnit : int32_t {
  SECONDS = 0,
  MILLIS = 1,
  MICROS = 2,
  NANOS = 3,
};

// Count of `target` units since 1970-01-01 00:00:00 UTC, rounded toward negative
// infinity when the target is coarser than the source (-1 ms is -1 s).
// Return false (leaving *result unchanged) when the result does not fit in an int64,
// e.g. a far-future millisecond timestamp converted to microseconds.
bool TimestampToEpoch(int64_t value, TimeUnit unit, EpochUnit target, int64_t* result);
bool Int96ToEpoch(const Int96& value, EpochUnit target, int64_t* result);
bool DateToEpoch(int32_t days_since_epoch, EpochUnit target, int64_t* result);

// Julian day number as SQLite's julianday() gives it: 2440587.5 at 1970-01-01 00:00:00.
// The whole-millisecond part is computed exactly as SQLite does (milliseconds since the
// Julian epoch divided by 86400000.0), so values with no sub-millisecond part give the
// identical double; a sub-millisecond part is added on top.
double TimestampToJulianDay(int64_t value, TimeUnit unit);
double Int96ToJulianDay(const Int96& value);
double DateToJulianDay(int32_t days_since_epoch);

// Splits an INT96 timestamp into days since 1970-01-01 and nanoseconds of that day
// (0 <= *nanos_of_day < 86400 * 10^9).
void SplitInt96(const Int96& value, int64_t* days_since_epoch, int64_t* nanos_of_day);

// ---- Decimals ------------------------------------------------------------------------

// Exact text of unscaled * 10^-scale: "-123.45", "0.05", "1.00" (the fraction always has
// `scale` digits), "100" for scale 0, "12300" for unscaled 123 at scale -2, "0" for zero
// at a negative scale. `out` needs DecimalTextCapacity(8, scale) characters.
size_t FormatDecimal(int64_t unscaled, int32_t scale, char* out);

// The same for an unscaled value of any length stored as big-endian two's complement
// (how Parquet stores FIXED_LEN_BYTE_ARRAY and BYTE_ARRAY decimals); len 0 means zero.
// Returns 0 (and writes nothing useful) when out_capacity is too small;
// DecimalTextCapacity(len, scale) is always enough.
size_t FormatDecimalBigEndian(const uint8_t* twos_complement_be, size_t len, int32_t scale,
                              char* out, size_t out_capacity);

// The double nearest to the exact decimal value (ties to even), ±inf when it is beyond
// the double range, ±0 when below it.
double DecimalToDouble(int64_t unscaled, int32_t scale);
double DecimalBigEndianToDouble(const uint8_t* twos_complement_be, size_t len, int32_t scale);

// ---- UUID, INTERVAL, FLOAT16 ---------------------------------------------------------

// Lowercase "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" of the 16 bytes in stored order.
size_t FormatUuid(const uint8_t bytes[16], char* out);

// {"months":m,"days":d,"millis":n} from the three little-endian uint32 of an INTERVAL
// (FIXED_LEN_BYTE_ARRAY(12)).
size_t FormatInterval(const uint8_t bytes[12], char* out);

// Exact value of an IEEE 754 binary16 (FLOAT16) bit pattern, including subnormals,
// signed zeros, infinities and NaN (the NaN keeps its sign and payload bits).
double HalfToDouble(uint16_t bits);

// The nearest binary16 (ties to even); overflow gives ±inf, NaN a quiet NaN with the
// sign and the top payload bits kept.
uint16_t DoubleToHalf(double value);

// ---- Parsing (for the writer) --------------------------------------------------------
// All parsers are strict: no surrounding whitespace, and false is returned for malformed
// text, impossible dates/times, and results that do not fit the target. On false the
// output is unspecified.

// "YYYY-MM-DD" with an optional leading '-' or '+' and four or more year digits (as
// FormatDate writes). Fails when the date is outside the int32 day range.
bool ParseDate(std::string_view text, int32_t* days_since_epoch);

// "YYYY-MM-DD", or that followed by ' ' or 'T' and "HH:MM", "HH:MM:SS" or
// "HH:MM:SS.fraction", then optionally 'Z' or a "+HH:MM"/"-HH:MM" UTC offset (the
// result is converted to UTC). Fraction digits beyond the unit's precision must be zeros
// (precision is never silently dropped). Fails when the result does not fit an int64.
bool ParseTimestamp(std::string_view text, TimeUnit unit, int64_t* value);

// "HH:MM", "HH:MM:SS" or "HH:MM:SS.fraction" with hours 00..23, as units since midnight;
// the fraction rule is that of ParseTimestamp.
bool ParseTime(std::string_view text, TimeUnit unit, int64_t* value);

// A decimal number ("-12.5", "+3", ".5", "7.", "1.25e3") to its unscaled value at
// `scale`. Fails when digits would be lost (non-zero digits beyond the scale) or when
// the unscaled value does not fit.
bool ParseDecimal(std::string_view text, int32_t scale, int64_t* unscaled);
// Same, written as `width` bytes of big-endian two's complement (width >= 1).
bool ParseDecimal(std::string_view text, int32_t scale, uint8_t* twos_complement_be,
                  size_t width);

}  // namespace parquet

// Text and numeric forms of Parquet logical-type values; see logical_values.h.
#include "format/values/logical_values.h"

#include "format/common/text_to_double.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <system_error>
#include <utility>
#include <vector>

namespace parquet {

namespace {

__extension__ typedef __int128 Int128;  // GCC/Clang extension; exact intermediate arithmetic

constexpr int64_t kSecondsPerDay = 86400;
constexpr int64_t kNanosPerSecond = 1000000000;
constexpr int64_t kNanosPerDay = kSecondsPerDay * kNanosPerSecond;
constexpr int64_t kMillisPerDay = kSecondsPerDay * 1000;
// Julian day number of 1970-01-01 (the day that starts at noon of JD 2440587.5).
constexpr int64_t kJulianDayOfUnixEpoch = 2440588;
// Milliseconds from the Julian epoch (JD 0.0) to 1970-01-01 00:00:00 (JD 2440587.5).
constexpr int64_t kJulianEpochToUnixEpochMillis = 210866760000000;
// Days from 0000-03-01 to 1970-01-01 in the proleptic Gregorian calendar.
constexpr int64_t kDaysFromMarchYear0ToUnixEpoch = 719468;
constexpr int64_t kDaysPer400Years = 146097;

constexpr int64_t FloorDiv(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

// The remainder matching FloorDiv, with the sign of b; never overflows.
constexpr int64_t FloorMod(int64_t a, int64_t b) {
  const int64_t r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

int64_t UnitsPerSecond(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::MILLIS: return 1000;
    case TimeUnit::MICROS: return 1000000;
    case TimeUnit::NANOS: return kNanosPerSecond;
  }
  return 1000000;  // unreachable for valid units
}

int FractionDigits(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::MILLIS: return 3;
    case TimeUnit::MICROS: return 6;
    case TimeUnit::NANOS: return 9;
  }
  return 6;
}

int64_t UnitsPerSecond(EpochUnit unit) {
  switch (unit) {
    case EpochUnit::SECONDS: return 1;
    case EpochUnit::MILLIS: return 1000;
    case EpochUnit::MICROS: return 1000000;
    case EpochUnit::NANOS: return kNanosPerSecond;
  }
  return 1;
}

// ---- Digit writing ----

// Writes `value` in decimal with at least `min_width` digits (zero-padded).
size_t WriteUnsigned(uint64_t value, int min_width, char* out) {
  char reversed[20];
  int count = 0;
  do {
    reversed[count++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0);
  while (count < min_width) reversed[count++] = '0';
  for (int i = 0; i < count; ++i) out[i] = reversed[count - 1 - i];
  return static_cast<size_t>(count);
}

void WriteTwoDigits(int value, char* out) {
  out[0] = static_cast<char>('0' + value / 10);
  out[1] = static_cast<char>('0' + value % 10);
}

// Writes "." and the `digits`-digit zero-padded sub-second part without trailing zeros,
// or nothing when it is zero.
size_t WriteFraction(uint64_t sub_second, int digits, char* out) {
  if (sub_second == 0) return 0;
  while (sub_second % 10 == 0) {
    sub_second /= 10;
    --digits;
  }
  out[0] = '.';
  return 1 + WriteUnsigned(sub_second, digits, out + 1);
}

// "HH:MM:SS" with the hours possibly wider than two digits.
size_t WriteClock(uint64_t seconds, char* out) {
  size_t length = WriteUnsigned(seconds / 3600, 2, out);
  out[length++] = ':';
  WriteTwoDigits(static_cast<int>(seconds / 60 % 60), out + length);
  length += 2;
  out[length++] = ':';
  WriteTwoDigits(static_cast<int>(seconds % 60), out + length);
  return length + 2;
}

// ---- Calendar ----

struct CivilDate {
  int64_t year;
  int month;  // 1..12
  int day;    // 1..31
};

// Proleptic Gregorian date of a day count. Years are counted from March so that the
// leap day is the last day of its year; a 400-year cycle has 146097 days.
CivilDate CivilFromDays(int64_t days_since_epoch) {
  const int64_t days_since_march_year0 = days_since_epoch + kDaysFromMarchYear0ToUnixEpoch;
  const int64_t cycle = FloorDiv(days_since_march_year0, kDaysPer400Years);
  const int64_t day_of_cycle = days_since_march_year0 - cycle * kDaysPer400Years;  // 0..146096
  const int64_t year_of_cycle =
      (day_of_cycle - day_of_cycle / 1460 + day_of_cycle / 36524 - day_of_cycle / 146096) / 365;
  const int64_t day_of_year =
      day_of_cycle - (365 * year_of_cycle + year_of_cycle / 4 - year_of_cycle / 100);  // 0..365
  const int64_t month_from_march = (5 * day_of_year + 2) / 153;                        // 0..11
  CivilDate date;
  date.day = static_cast<int>(day_of_year - (153 * month_from_march + 2) / 5 + 1);
  date.month = static_cast<int>(month_from_march < 10 ? month_from_march + 3 : month_from_march - 9);
  date.year = cycle * 400 + year_of_cycle + (date.month <= 2 ? 1 : 0);
  return date;
}

// Inverse of CivilFromDays. |year| must stay below about 2^50 to avoid overflow.
int64_t DaysFromCivil(int64_t year, int month, int day) {
  const int64_t march_year = month <= 2 ? year - 1 : year;
  const int64_t cycle = FloorDiv(march_year, 400);
  const int64_t year_of_cycle = march_year - cycle * 400;
  const int64_t month_from_march = month > 2 ? month - 3 : month + 9;
  const int64_t day_of_year = (153 * month_from_march + 2) / 5 + day - 1;
  const int64_t day_of_cycle =
      year_of_cycle * 365 + year_of_cycle / 4 - year_of_cycle / 100 + day_of_year;
  return cycle * kDaysPer400Years + day_of_cycle - kDaysFromMarchYear0ToUnixEpoch;
}

bool IsLeapYear(int64_t year) {
  return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

int DaysInMonth(int64_t year, int month) {
  static constexpr int kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && IsLeapYear(year) ? 29 : kDays[month - 1];
}

// Days from 0000-03-01 to 10000-03-01: dates in [0000-03-01, 9999-12-31] take WriteDate's
// fast path (CivilFromDays in unsigned 32-bit arithmetic, four-digit year).
constexpr int64_t kDaysOfYears0To9999 = 25 * kDaysPer400Years;

size_t WriteDate(int64_t days_since_epoch, char* out) {
  const int64_t days_since_march_year0 = days_since_epoch + kDaysFromMarchYear0ToUnixEpoch;
  if (days_since_march_year0 >= 0 && days_since_march_year0 < kDaysOfYears0To9999) {
    // CivilFromDays without signed division (the per-row cost of DATE columns as text).
    const uint32_t z = static_cast<uint32_t>(days_since_march_year0);
    const uint32_t cycle = z / 146097;
    const uint32_t day_of_cycle = z - cycle * 146097;
    const uint32_t year_of_cycle = (day_of_cycle - day_of_cycle / 1460 + day_of_cycle / 36524 - day_of_cycle / 146096) / 365;
    const uint32_t day_of_year = day_of_cycle - (365 * year_of_cycle + year_of_cycle / 4 - year_of_cycle / 100);
    const uint32_t month_from_march = (5 * day_of_year + 2) / 153;
    const uint32_t day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    const uint32_t month = month_from_march < 10 ? month_from_march + 3 : month_from_march - 9;
    const uint32_t year = cycle * 400 + year_of_cycle + (month <= 2 ? 1 : 0);
    if (year <= 9999) {
      WriteTwoDigits(static_cast<int>(year / 100), out);
      WriteTwoDigits(static_cast<int>(year % 100), out + 2);
      out[4] = '-';
      WriteTwoDigits(static_cast<int>(month), out + 5);
      out[7] = '-';
      WriteTwoDigits(static_cast<int>(day), out + 8);
      return 10;
    }
  }
  const CivilDate date = CivilFromDays(days_since_epoch);
  size_t length = 0;
  uint64_t year_magnitude;
  if (date.year < 0) {
    out[length++] = '-';
    year_magnitude = static_cast<uint64_t>(-date.year);
  } else {
    year_magnitude = static_cast<uint64_t>(date.year);
  }
  length += WriteUnsigned(year_magnitude, 4, out + length);
  out[length++] = '-';
  WriteTwoDigits(date.month, out + length);
  length += 2;
  out[length++] = '-';
  WriteTwoDigits(date.day, out + length);
  return length + 2;
}

// "YYYY-MM-DD HH:MM:SS[.fraction]" from a day, a second of that day and a sub-second
// count of `fraction_digits` digits.
size_t WriteDateTime(int64_t days_since_epoch, int64_t second_of_day, uint64_t sub_second,
                     int fraction_digits, char* out) {
  size_t length = WriteDate(days_since_epoch, out);
  out[length++] = ' ';
  length += WriteClock(static_cast<uint64_t>(second_of_day), out + length);
  return length + WriteFraction(sub_second, fraction_digits, out + length);
}

// ---- Julian day ----

double JulianDayFromDayAndNanos(int64_t days_since_epoch, int64_t nanos_of_day) {
  const Int128 julian_millis = static_cast<Int128>(days_since_epoch) * kMillisPerDay +
                               nanos_of_day / 1000000 + kJulianEpochToUnixEpochMillis;
  const int64_t sub_milli_nanos = nanos_of_day % 1000000;
  double julian_day = static_cast<double>(julian_millis) / static_cast<double>(kMillisPerDay);
  if (sub_milli_nanos != 0) {
    julian_day += static_cast<double>(sub_milli_nanos) / static_cast<double>(kNanosPerDay);
  }
  return julian_day;
}

bool StoreIfInt64(Int128 value, int64_t* result) {
  if (value < std::numeric_limits<int64_t>::min() || value > std::numeric_limits<int64_t>::max()) {
    return false;
  }
  *result = static_cast<int64_t>(value);
  return true;
}

// Epoch count in `target` units of a (day, nanosecond of day) pair, floored.
bool EpochFromDayAndNanos(int64_t days_since_epoch, int64_t nanos_of_day, EpochUnit target,
                          int64_t* result) {
  const int64_t per_second = UnitsPerSecond(target);
  const Int128 value = static_cast<Int128>(days_since_epoch) * kSecondsPerDay * per_second +
                       nanos_of_day / (kNanosPerSecond / per_second);
  return StoreIfInt64(value, result);
}

// ---- Decimals ----

constexpr double kExactPowersOfTen[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                          1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                          1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

// Writes sign, digits and the decimal point / zeros `scale` calls for. `digits` holds
// the magnitude's digits without leading zeros ("0" for zero).
size_t LayoutDecimal(bool negative, const char* digits, size_t digit_count, int32_t scale,
                     char* out) {
  size_t length = 0;
  if (negative) out[length++] = '-';
  if (scale <= 0) {
    std::memcpy(out + length, digits, digit_count);
    length += digit_count;
    const bool is_zero = digit_count == 1 && digits[0] == '0';
    if (!is_zero && scale < 0) {
      const size_t zeros = static_cast<size_t>(-static_cast<int64_t>(scale));
      std::memset(out + length, '0', zeros);
      length += zeros;
    }
    return length;
  }
  const size_t fraction_digits = static_cast<size_t>(scale);
  if (digit_count <= fraction_digits) {
    out[length++] = '0';
    out[length++] = '.';
    const size_t zeros = fraction_digits - digit_count;
    std::memset(out + length, '0', zeros);
    length += zeros;
    std::memcpy(out + length, digits, digit_count);
    return length + digit_count;
  }
  const size_t integer_digits = digit_count - fraction_digits;
  std::memcpy(out + length, digits, integer_digits);
  length += integer_digits;
  out[length++] = '.';
  std::memcpy(out + length, digits + integer_digits, fraction_digits);
  return length + fraction_digits;
}

size_t LayoutLength(bool negative, size_t digit_count, bool is_zero, int32_t scale) {
  size_t length = (negative ? 1 : 0);
  if (scale <= 0) {
    return length + digit_count + (is_zero ? 0 : static_cast<size_t>(-static_cast<int64_t>(scale)));
  }
  const size_t fraction_digits = static_cast<size_t>(scale);
  if (digit_count <= fraction_digits) return length + 2 + fraction_digits;
  return length + digit_count + 1;
}

uint64_t Magnitude(int64_t value) {
  return value < 0 ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
}

// Reads big-endian two's complement into an int64 when it fits (every byte above the
// low eight is a sign extension of the value).
bool BigEndianFitsInt64(const uint8_t* bytes, size_t len, int64_t* value) {
  if (len == 0) {
    *value = 0;
    return true;
  }
  const bool negative = (bytes[0] & 0x80) != 0;
  const uint8_t extension = negative ? 0xFF : 0x00;
  size_t start = 0;
  if (len > 8) {
    start = len - 8;
    for (size_t i = 0; i < start; ++i) {
      if (bytes[i] != extension) return false;
    }
    // The sign of the low eight bytes must match too.
    if (((bytes[start] & 0x80) != 0) != negative) return false;
  }
  uint64_t bits = negative ? ~uint64_t{0} : 0;
  for (size_t i = start; i < len; ++i) bits = (bits << 8) | bytes[i];
  *value = static_cast<int64_t>(bits);
  return true;
}

// Scratch space that lives on the stack for common sizes and on the heap beyond.
template <typename T, size_t kInline>
class ScratchBuffer {
 public:
  explicit ScratchBuffer(size_t size) {
    if (size > kInline) {
      heap_.resize(size);
      data_ = heap_.data();
    } else {
      data_ = inline_;
    }
  }
  T* data() { return data_; }

 private:
  T inline_[kInline];
  std::vector<T> heap_;
  T* data_;
};

constexpr size_t kInlineLimbs = 64;  // magnitudes up to 256 bytes avoid the heap

size_t MaxDigitsForBytes(size_t len) { return (len * 8 * 30103 + 99999) / 100000 + 1; }

// Decimal digits of the magnitude of a big-endian two's complement number of len >= 1
// bytes into `digits` (room for MaxDigitsForBytes(len)); returns the count, "0" for zero.
size_t BigEndianMagnitudeDigits(const uint8_t* bytes, size_t len, bool negative, char* digits) {
  // Little-endian-ordered 32-bit limbs of the sign-extended value, then negated.
  const size_t limb_count = (len + 3) / 4;
  ScratchBuffer<uint32_t, kInlineLimbs> scratch(limb_count);
  uint32_t* limbs = scratch.data();
  for (size_t i = 0; i < limb_count; ++i) limbs[i] = negative ? 0xFFFFFFFFu : 0u;
  for (size_t i = 0; i < len; ++i) {
    const size_t bit_position = 8 * (len - 1 - i);  // from the least significant end
    uint32_t& limb = limbs[bit_position / 32];
    const unsigned shift = static_cast<unsigned>(bit_position % 32);
    limb = (limb & ~(0xFFu << shift)) | (static_cast<uint32_t>(bytes[i]) << shift);
  }
  if (negative) {
    uint64_t carry = 1;
    for (size_t i = 0; i < limb_count; ++i) {
      const uint64_t sum = static_cast<uint64_t>(~limbs[i]) + carry;
      limbs[i] = static_cast<uint32_t>(sum);
      carry = sum >> 32;
    }
  }
  // Repeated division by 10^9 yields nine digits at a time from the low end; they are
  // written least significant first and reversed at the end.
  size_t used = limb_count;
  while (used > 0 && limbs[used - 1] == 0) --used;
  size_t reversed_count = 0;
  while (used > 0) {
    uint64_t remainder = 0;
    for (size_t i = used; i-- > 0;) {
      const uint64_t current = (remainder << 32) | limbs[i];
      limbs[i] = static_cast<uint32_t>(current / 1000000000u);
      remainder = current % 1000000000u;
    }
    while (used > 0 && limbs[used - 1] == 0) --used;
    // Nine digits of this chunk, least significant first; the last chunk stops early.
    for (int i = 0; i < 9; ++i) {
      digits[reversed_count++] = static_cast<char>('0' + remainder % 10);
      remainder /= 10;
      if (used == 0 && remainder == 0) break;
    }
  }
  if (reversed_count == 0) {
    digits[0] = '0';
    return 1;
  }
  for (size_t i = 0, j = reversed_count - 1; i < j; ++i, --j) std::swap(digits[i], digits[j]);
  return reversed_count;
}

// Parses `text` as a double with TextToDouble, which is exact (correctly rounded) and
// locale-independent. Out-of-range results are mapped to ±inf or ±0 using
// `decimal_exponent`, the power of ten of the leading digit.
double ParseExactDouble(const char* begin, const char* end, bool negative,
                        int64_t decimal_exponent) {
  double value = 0;
  const TextToDoubleResult parsed = TextToDouble(begin, end, value);
  if (parsed.error == std::errc::result_out_of_range) {
    value = decimal_exponent > 0 ? std::numeric_limits<double>::infinity() : 0.0;
    return negative ? -value : value;
  }
  return value;
}

// "[-]digits" + "e" + exponent into `text`; returns its length.
size_t WriteScientific(bool negative, const char* digits, size_t digit_count, int32_t scale,
                       char* text) {
  size_t length = 0;
  if (negative) text[length++] = '-';
  std::memcpy(text + length, digits, digit_count);
  length += digit_count;
  text[length++] = 'e';
  const int64_t exponent = -static_cast<int64_t>(scale);
  if (exponent < 0) text[length++] = '-';
  return length + WriteUnsigned(Magnitude(exponent), 1, text + length);
}

// ---- Parsing helpers ----

class TextCursor {
 public:
  explicit TextCursor(std::string_view text) : text_(text) {}
  bool AtEnd() const { return position_ == text_.size(); }
  char Peek() const { return AtEnd() ? '\0' : text_[position_]; }
  bool Consume(char expected) {
    if (Peek() != expected || AtEnd()) return false;
    ++position_;
    return true;
  }
  // Exactly `count` digits as a number.
  bool Digits(int count, int64_t* value) {
    int64_t result = 0;
    for (int i = 0; i < count; ++i) {
      if (AtEnd() || !IsDigit(text_[position_])) return false;
      result = result * 10 + (text_[position_++] - '0');
    }
    *value = result;
    return true;
  }
  // Between min_count and max_count digits.
  bool DigitRun(int min_count, int max_count, int64_t* value) {
    int count = 0;
    int64_t result = 0;
    while (!AtEnd() && IsDigit(text_[position_])) {
      if (++count > max_count) return false;
      result = result * 10 + (text_[position_++] - '0');
    }
    *value = result;
    return count >= min_count;
  }
  // A fraction's digits scaled to `precision` digits; extra digits must be zeros.
  bool Fraction(int precision, int64_t* value) {
    int count = 0;
    int64_t result = 0;
    while (!AtEnd() && IsDigit(text_[position_])) {
      const int digit = text_[position_++] - '0';
      if (count < precision) {
        result = result * 10 + digit;
      } else if (digit != 0) {
        return false;
      }
      ++count;
    }
    if (count == 0) return false;
    for (int i = count; i < precision; ++i) result *= 10;
    *value = result;
    return true;
  }
  static bool IsDigit(char c) { return c >= '0' && c <= '9'; }

 private:
  std::string_view text_;
  size_t position_ = 0;
};

bool ParseDatePart(TextCursor* cursor, int64_t* days_since_epoch) {
  bool negative = false;
  if (cursor->Consume('-')) {
    negative = true;
  } else {
    cursor->Consume('+');
  }
  int64_t year = 0;
  int64_t month = 0;
  int64_t day = 0;
  // Twelve year digits are far beyond any int64 timestamp and well inside DaysFromCivil.
  if (!cursor->DigitRun(4, 12, &year) || !cursor->Consume('-') || !cursor->Digits(2, &month) ||
      !cursor->Consume('-') || !cursor->Digits(2, &day)) {
    return false;
  }
  if (negative) year = -year;
  if (month < 1 || month > 12 || day < 1 || day > DaysInMonth(year, static_cast<int>(month))) {
    return false;
  }
  *days_since_epoch = DaysFromCivil(year, static_cast<int>(month), static_cast<int>(day));
  return true;
}

// "HH:MM[:SS[.fraction]]" as units of 10^-precision seconds since midnight.
bool ParseClockPart(TextCursor* cursor, int precision, int64_t units_per_second, Int128* value) {
  int64_t hours = 0;
  int64_t minutes = 0;
  int64_t seconds = 0;
  int64_t fraction = 0;
  if (!cursor->Digits(2, &hours) || !cursor->Consume(':') || !cursor->Digits(2, &minutes)) {
    return false;
  }
  if (cursor->Consume(':')) {
    if (!cursor->Digits(2, &seconds)) return false;
    if (cursor->Consume('.') && !cursor->Fraction(precision, &fraction)) return false;
  }
  if (hours > 23 || minutes > 59 || seconds > 59) return false;
  *value = static_cast<Int128>(hours * 3600 + minutes * 60 + seconds) * units_per_second + fraction;
  return true;
}

// Big-endian magnitude arithmetic for ParseDecimal: bytes = bytes * 10 + digit.
// Returns false when the result needs more than `width` bytes.
bool MultiplyAddBigEndian(uint8_t* bytes, size_t width, unsigned digit) {
  unsigned carry = digit;
  for (size_t i = width; i-- > 0;) {
    const unsigned product = bytes[i] * 10u + carry;
    bytes[i] = static_cast<uint8_t>(product);
    carry = product >> 8;
  }
  return carry == 0;
}

}  // namespace

// ---- Dates, times, timestamps as text ----

size_t FormatDate(int32_t days_since_epoch, char* out) { return WriteDate(days_since_epoch, out); }

size_t FormatTime(int64_t value, TimeUnit unit, char* out) {
  size_t length = 0;
  if (value < 0) out[length++] = '-';
  const uint64_t magnitude = Magnitude(value);
  const uint64_t per_second = static_cast<uint64_t>(UnitsPerSecond(unit));
  length += WriteClock(magnitude / per_second, out + length);
  return length + WriteFraction(magnitude % per_second, FractionDigits(unit), out + length);
}

size_t FormatTimestamp(int64_t value, TimeUnit unit, char* out) {
  const int64_t per_second = UnitsPerSecond(unit);
  const int64_t seconds = FloorDiv(value, per_second);
  const int64_t sub_second = FloorMod(value, per_second);
  const int64_t days = FloorDiv(seconds, kSecondsPerDay);
  return WriteDateTime(days, FloorMod(seconds, kSecondsPerDay), static_cast<uint64_t>(sub_second),
                       FractionDigits(unit), out);
}

// INT96 = (Julian day, nanoseconds of day). Spark computes both from an int64 count of
// microseconds with wrapping 64-bit arithmetic, so a timestamp near the edge of that range
// (e.g. year 290000) is stored with a wrapped-around Julian day. The exact instant is
// recovered the way Spark reads it: when the stored value, taken as microseconds since the
// epoch, lies outside the int64 range, it is reduced modulo 2^64. Values inside the range
// (every timestamp other writers produce) are read exactly, to the nanosecond.
void SplitInt96(const Int96& value, int64_t* days_since_epoch, int64_t* nanos_of_day) {
  const int64_t nanos =
      static_cast<int64_t>((static_cast<uint64_t>(value.words[1]) << 32) | value.words[0]);
  const int64_t julian_day = static_cast<int32_t>(value.words[2]);
  const int64_t days = julian_day - kJulianDayOfUnixEpoch;
  const Int128 micros = static_cast<Int128>(days) * (kNanosPerDay / 1000) + FloorDiv(nanos, 1000);
  if (micros > INT64_MAX || micros < INT64_MIN) {
    const int64_t wrapped = static_cast<int64_t>(static_cast<uint64_t>(static_cast<unsigned __int128>(micros)));
    *days_since_epoch = FloorDiv(wrapped, kNanosPerDay / 1000);
    *nanos_of_day = FloorMod(wrapped, kNanosPerDay / 1000) * 1000 + FloorMod(nanos, 1000);
    return;
  }
  *days_since_epoch = days + FloorDiv(nanos, kNanosPerDay);
  *nanos_of_day = FloorMod(nanos, kNanosPerDay);
}

size_t FormatInt96Timestamp(const Int96& value, char* out) {
  int64_t days = 0;
  int64_t nanos_of_day = 0;
  SplitInt96(value, &days, &nanos_of_day);
  return WriteDateTime(days, nanos_of_day / kNanosPerSecond,
                       static_cast<uint64_t>(nanos_of_day % kNanosPerSecond), 9, out);
}

// ---- Dates, times, timestamps as numbers ----

bool TimestampToEpoch(int64_t value, TimeUnit unit, EpochUnit target, int64_t* result) {
  const int64_t source_per_second = UnitsPerSecond(unit);
  const int64_t target_per_second = UnitsPerSecond(target);
  if (target_per_second >= source_per_second) {
    return StoreIfInt64(static_cast<Int128>(value) * (target_per_second / source_per_second),
                        result);
  }
  *result = FloorDiv(value, source_per_second / target_per_second);
  return true;
}

bool Int96ToEpoch(const Int96& value, EpochUnit target, int64_t* result) {
  int64_t days = 0;
  int64_t nanos_of_day = 0;
  SplitInt96(value, &days, &nanos_of_day);
  return EpochFromDayAndNanos(days, nanos_of_day, target, result);
}

bool DateToEpoch(int32_t days_since_epoch, EpochUnit target, int64_t* result) {
  return EpochFromDayAndNanos(days_since_epoch, 0, target, result);
}

double TimestampToJulianDay(int64_t value, TimeUnit unit) {
  const int64_t per_second = UnitsPerSecond(unit);
  const int64_t seconds = FloorDiv(value, per_second);
  const int64_t sub_second = FloorMod(value, per_second);
  const int64_t days = FloorDiv(seconds, kSecondsPerDay);
  const int64_t nanos_of_day = FloorMod(seconds, kSecondsPerDay) * kNanosPerSecond +
                               sub_second * (kNanosPerSecond / per_second);
  return JulianDayFromDayAndNanos(days, nanos_of_day);
}

double Int96ToJulianDay(const Int96& value) {
  int64_t days = 0;
  int64_t nanos_of_day = 0;
  SplitInt96(value, &days, &nanos_of_day);
  return JulianDayFromDayAndNanos(days, nanos_of_day);
}

double DateToJulianDay(int32_t days_since_epoch) {
  return JulianDayFromDayAndNanos(days_since_epoch, 0);
}

// ---- Decimals ----

size_t FormatDecimal(int64_t unscaled, int32_t scale, char* out) {
  char digits[20];
  const size_t digit_count = WriteUnsigned(Magnitude(unscaled), 1, digits);
  return LayoutDecimal(unscaled < 0, digits, digit_count, scale, out);
}

size_t FormatDecimalBigEndian(const uint8_t* twos_complement_be, size_t len, int32_t scale,
                              char* out, size_t out_capacity) {
  int64_t small_value = 0;
  if (BigEndianFitsInt64(twos_complement_be, len, &small_value)) {
    char digits[20];
    const uint64_t magnitude = Magnitude(small_value);
    const size_t digit_count = WriteUnsigned(magnitude, 1, digits);
    if (LayoutLength(small_value < 0, digit_count, magnitude == 0, scale) > out_capacity) return 0;
    return LayoutDecimal(small_value < 0, digits, digit_count, scale, out);
  }
  const bool negative = (twos_complement_be[0] & 0x80) != 0;
  ScratchBuffer<char, 640> digits(MaxDigitsForBytes(len) + 9);
  const size_t digit_count = BigEndianMagnitudeDigits(twos_complement_be, len, negative, digits.data());
  // A value that did not fit in an int64 is never zero.
  if (LayoutLength(negative, digit_count, false, scale) > out_capacity) return 0;
  return LayoutDecimal(negative, digits.data(), digit_count, scale, out);
}

double DecimalToDouble(int64_t unscaled, int32_t scale) {
  constexpr int64_t kExactIntegerLimit = int64_t{1} << 53;
  if (unscaled >= -kExactIntegerLimit && unscaled <= kExactIntegerLimit) {
    // One IEEE operation on two exact operands is correctly rounded.
    if (scale >= 0 && scale <= 22) return static_cast<double>(unscaled) / kExactPowersOfTen[scale];
    if (scale < 0 && scale >= -22) return static_cast<double>(unscaled) * kExactPowersOfTen[-scale];
  }
  char digits[20];
  const size_t digit_count = WriteUnsigned(Magnitude(unscaled), 1, digits);
  char text[48];
  const size_t length = WriteScientific(unscaled < 0, digits, digit_count, scale, text);
  return ParseExactDouble(text, text + length, unscaled < 0,
                          static_cast<int64_t>(digit_count) - 1 - scale);
}

double DecimalBigEndianToDouble(const uint8_t* twos_complement_be, size_t len, int32_t scale) {
  int64_t small_value = 0;
  if (BigEndianFitsInt64(twos_complement_be, len, &small_value)) {
    return DecimalToDouble(small_value, scale);
  }
  const bool negative = (twos_complement_be[0] & 0x80) != 0;
  const size_t max_digits = MaxDigitsForBytes(len) + 9;
  ScratchBuffer<char, 640> digits(max_digits);
  const size_t digit_count = BigEndianMagnitudeDigits(twos_complement_be, len, negative, digits.data());
  ScratchBuffer<char, 680> text(max_digits + 16);
  const size_t length = WriteScientific(negative, digits.data(), digit_count, scale, text.data());
  return ParseExactDouble(text.data(), text.data() + length, negative,
                          static_cast<int64_t>(digit_count) - 1 - scale);
}

// ---- UUID, INTERVAL, FLOAT16 ----

size_t FormatUuid(const uint8_t bytes[16], char* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  size_t length = 0;
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out[length++] = '-';
    out[length++] = kHex[bytes[i] >> 4];
    out[length++] = kHex[bytes[i] & 0x0F];
  }
  return length;
}

size_t FormatInterval(const uint8_t bytes[12], char* out) {
  static constexpr std::string_view kLabels[3] = {"{\"months\":", ",\"days\":", ",\"millis\":"};
  size_t length = 0;
  for (int field = 0; field < 3; ++field) {
    const uint8_t* p = bytes + 4 * field;
    const uint32_t value = static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
                           (static_cast<uint32_t>(p[2]) << 16) | (static_cast<uint32_t>(p[3]) << 24);
    std::memcpy(out + length, kLabels[field].data(), kLabels[field].size());
    length += kLabels[field].size();
    length += WriteUnsigned(value, 1, out + length);
  }
  out[length++] = '}';
  return length;
}

double HalfToDouble(uint16_t bits) {
  const uint64_t sign = static_cast<uint64_t>(bits >> 15) << 63;
  const uint32_t exponent = (bits >> 10) & 0x1F;
  const uint64_t mantissa = bits & 0x3FF;
  uint64_t double_bits;
  if (exponent == 0) {
    // Zero or subnormal: mantissa * 2^-24, exact in a double.
    const double magnitude = static_cast<double>(mantissa) * 0x1p-24;
    return sign != 0 ? -magnitude : magnitude;
  }
  if (exponent == 0x1F) {
    double_bits = sign | (uint64_t{0x7FF} << 52) | (mantissa << 42);
  } else {
    double_bits = sign | (static_cast<uint64_t>(exponent - 15 + 1023) << 52) | (mantissa << 42);
  }
  double result;
  std::memcpy(&result, &double_bits, sizeof result);
  return result;
}

uint16_t DoubleToHalf(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  const uint16_t sign = static_cast<uint16_t>((bits >> 63) << 15);
  const int biased_exponent = static_cast<int>((bits >> 52) & 0x7FF);
  const uint64_t fraction = bits & ((uint64_t{1} << 52) - 1);
  if (biased_exponent == 0x7FF) {
    if (fraction == 0) return sign | 0x7C00;                              // infinity
    return static_cast<uint16_t>(sign | 0x7E00 | (fraction >> 42));      // quiet NaN
  }
  if (biased_exponent == 0) return sign;  // zero or double subnormal: far below 2^-25
  // value = significand * 2^(exponent - 52), significand has 53 bits.
  const uint64_t significand = fraction | (uint64_t{1} << 52);
  const int exponent = biased_exponent - 1023;
  if (exponent > 15) return sign | 0x7C00;
  // Half values are multiples of 2^-24 (subnormal) or of 2^(exponent - 10) (normal):
  // shift the significand right to that unit, rounding to nearest, ties to even.
  const int shift = exponent < -14 ? 28 - exponent : 42;
  uint64_t rounded;
  if (shift >= 64) {
    rounded = 0;  // the value is below 2^-25: rounds to zero
  } else {
    rounded = significand >> shift;
    const uint64_t remainder = significand & ((uint64_t{1} << shift) - 1);
    const uint64_t half = uint64_t{1} << (shift - 1);
    if (remainder > half || (remainder == half && (rounded & 1) != 0)) ++rounded;
  }
  if (exponent < -14) {
    // Subnormal result in units of 2^-24; rounding up to 1024 gives the smallest normal,
    // whose encoding is the same number.
    return static_cast<uint16_t>(sign | rounded);
  }
  // rounded is in [1024, 2048]; 2048 moves to the next binade.
  int half_exponent = exponent + 15;
  if (rounded == 2048) {
    rounded = 1024;
    ++half_exponent;
  }
  if (half_exponent >= 31) return sign | 0x7C00;
  return static_cast<uint16_t>(sign | (half_exponent << 10) | (rounded - 1024));
}

// ---- Parsing ----

bool ParseDate(std::string_view text, int32_t* days_since_epoch) {
  // Fast path for the common form, exactly "YYYY-MM-DD".
  if (text.size() == 10 && text[4] == '-' && text[7] == '-') {
    unsigned d[10];
    bool digits = true;
    for (size_t i = 0; i < 10; ++i) {
      d[i] = static_cast<unsigned>(static_cast<unsigned char>(text[i]) - '0');
      if (i != 4 && i != 7) digits = digits && d[i] < 10;
    }
    if (digits) {
      const int64_t year = d[0] * 1000 + d[1] * 100 + d[2] * 10 + d[3];
      const int month = static_cast<int>(d[5] * 10 + d[6]);
      const int day = static_cast<int>(d[8] * 10 + d[9]);
      if (month < 1 || month > 12 || day < 1 || day > DaysInMonth(year, month)) return false;
      *days_since_epoch = static_cast<int32_t>(DaysFromCivil(year, month, day));
      return true;
    }
  }
  TextCursor cursor(text);
  int64_t days = 0;
  if (!ParseDatePart(&cursor, &days) || !cursor.AtEnd()) return false;
  if (days < std::numeric_limits<int32_t>::min() || days > std::numeric_limits<int32_t>::max()) {
    return false;
  }
  *days_since_epoch = static_cast<int32_t>(days);
  return true;
}

bool ParseTimestamp(std::string_view text, TimeUnit unit, int64_t* value) {
  const int64_t per_second = UnitsPerSecond(unit);
  TextCursor cursor(text);
  int64_t days = 0;
  if (!ParseDatePart(&cursor, &days)) return false;
  Int128 total = static_cast<Int128>(days) * kSecondsPerDay * per_second;
  if (cursor.AtEnd()) return StoreIfInt64(total, value);
  if (!cursor.Consume(' ') && !cursor.Consume('T')) return false;
  Int128 time_of_day = 0;
  if (!ParseClockPart(&cursor, FractionDigits(unit), per_second, &time_of_day)) return false;
  total += time_of_day;
  if (cursor.Consume('Z')) {
    // UTC
  } else if (cursor.Peek() == '+' || cursor.Peek() == '-') {
    const bool east = cursor.Consume('+');
    if (!east) cursor.Consume('-');
    int64_t offset_hours = 0;
    int64_t offset_minutes = 0;
    if (!cursor.Digits(2, &offset_hours) || !cursor.Consume(':') ||
        !cursor.Digits(2, &offset_minutes) || offset_hours > 23 || offset_minutes > 59) {
      return false;
    }
    const Int128 offset = static_cast<Int128>(offset_hours * 3600 + offset_minutes * 60) * per_second;
    total += east ? -offset : offset;  // local time minus the offset is UTC
  }
  if (!cursor.AtEnd()) return false;
  return StoreIfInt64(total, value);
}

bool ParseTime(std::string_view text, TimeUnit unit, int64_t* value) {
  TextCursor cursor(text);
  Int128 time_of_day = 0;
  if (!ParseClockPart(&cursor, FractionDigits(unit), UnitsPerSecond(unit), &time_of_day) ||
      !cursor.AtEnd()) {
    return false;
  }
  *value = static_cast<int64_t>(time_of_day);
  return true;
}

bool ParseDecimal(std::string_view text, int32_t scale, uint8_t* twos_complement_be, size_t width) {
  if (width == 0) return false;
  size_t position = 0;
  bool negative = false;
  if (position < text.size() && (text[position] == '-' || text[position] == '+')) {
    negative = text[position] == '-';
    ++position;
  }
  // Mantissa: digits with at most one '.', at least one digit.
  const size_t mantissa_begin = position;
  size_t digit_count = 0;
  size_t fraction_count = 0;
  bool seen_point = false;
  for (; position < text.size(); ++position) {
    const char c = text[position];
    if (TextCursor::IsDigit(c)) {
      ++digit_count;
      if (seen_point) ++fraction_count;
    } else if (c == '.' && !seen_point) {
      seen_point = true;
    } else {
      break;
    }
  }
  const size_t mantissa_end = position;
  if (digit_count == 0) return false;
  // Optional exponent, clamped: anything beyond a million only matters for zero.
  int64_t exponent = 0;
  if (position < text.size() && (text[position] == 'e' || text[position] == 'E')) {
    ++position;
    bool negative_exponent = false;
    if (position < text.size() && (text[position] == '-' || text[position] == '+')) {
      negative_exponent = text[position] == '-';
      ++position;
    }
    const size_t exponent_begin = position;
    for (; position < text.size() && TextCursor::IsDigit(text[position]); ++position) {
      if (exponent < 1000000) exponent = exponent * 10 + (text[position] - '0');
    }
    if (position == exponent_begin) return false;
    if (negative_exponent) exponent = -exponent;
  }
  if (position != text.size()) return false;

  // unscaled = mantissa digits * 10^shift.
  const int64_t shift = exponent - static_cast<int64_t>(fraction_count) + scale;
  // With a negative shift, the last -shift digits are dropped and must be zeros.
  const size_t dropped = shift < 0 ? static_cast<size_t>(std::min<int64_t>(-shift, static_cast<int64_t>(digit_count))) : 0;
  const size_t kept = digit_count - dropped;
  std::memset(twos_complement_be, 0, width);
  bool is_zero = true;
  size_t digit_index = 0;
  for (size_t i = mantissa_begin; i < mantissa_end; ++i) {
    const char c = text[i];
    if (c == '.') continue;
    const unsigned digit = static_cast<unsigned>(c - '0');
    if (digit_index++ >= kept) {
      if (digit != 0) return false;
      continue;
    }
    if (digit != 0) is_zero = false;
    if (!MultiplyAddBigEndian(twos_complement_be, width, digit)) return false;
  }
  if (!is_zero && shift > 0) {
    // Each multiplication by ten needs more than three bits; give up early on huge shifts.
    if (shift > static_cast<int64_t>(width) * 8) return false;
    for (int64_t i = 0; i < shift; ++i) {
      if (!MultiplyAddBigEndian(twos_complement_be, width, 0)) return false;
    }
  }
  // The magnitude must fit: below 2^(8w-1), or equal to it for a negative value.
  if ((twos_complement_be[0] & 0x80) != 0) {
    if (!negative) return false;
    if (twos_complement_be[0] != 0x80) return false;
    for (size_t i = 1; i < width; ++i) {
      if (twos_complement_be[i] != 0) return false;
    }
    return true;  // -2^(8w-1) is its own two's complement
  }
  if (negative) {
    unsigned carry = 1;
    for (size_t i = width; i-- > 0;) {
      const unsigned sum = static_cast<uint8_t>(~twos_complement_be[i]) + carry;
      twos_complement_be[i] = static_cast<uint8_t>(sum);
      carry = sum >> 8;
    }
  }
  return true;
}

bool ParseDecimal(std::string_view text, int32_t scale, int64_t* unscaled) {
  uint8_t bytes[8];
  if (!ParseDecimal(text, scale, bytes, sizeof bytes)) return false;
  uint64_t bits = 0;
  for (uint8_t byte : bytes) bits = (bits << 8) | byte;
  *unscaled = static_cast<int64_t>(bits);
  return true;
}

}  // namespace parquet

// parquet_copy's conversions of scalar values (see copy_values.h): each SQLite value put
// into the LeafData of its flat column's Parquet type, or refused (PutScalar), a buffered
// column converted whole (ConvertColumn) or one value at a time (AppendFlatValue).
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <system_error>

#include "ext/copy/copy_conversion.h"
#include "ext/copy/copy_values.h"
#include "format/common/float_chars.h"
#include "format/values/logical_values.h"
#include "format/values/text.h"
#include "format/values/wkb.h"

namespace sqlite_parquet {

namespace {

using parquet::ByteArray;
using parquet::TimeUnit;

constexpr int64_t kSecondsPerDay = 86400;
// Milliseconds from the Julian epoch (JD 0.0) to 1970-01-01 00:00:00 (JD 2440587.5).
constexpr int64_t kJulianEpochToUnixEpochMillis = 210866760000000;
constexpr double kJulianDayOfUnixEpoch = 2440587.5;

int64_t UnitsPerSecond(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::MILLIS: return 1000;
    case TimeUnit::MICROS: return 1000000;
    case TimeUnit::NANOS: return 1000000000;
  }
  return 1000000;
}

const char* ClassName(SqlValue::Type type) {
  switch (type) {
    case SqlValue::Type::kInteger: return "INTEGER";
    case SqlValue::Type::kReal: return "REAL";
    case SqlValue::Type::kText: return "TEXT";
    case SqlValue::Type::kBlob: return "BLOB";
    case SqlValue::Type::kNull: return "NULL";
  }
  return "NULL";
}


// ---- Scalar conversions. Each appends one value to the leaf or returns false. ----

// An INTEGER, or a REAL holding an integral value, within [min, max].
bool IntegralValue(const SqlValue& v, int64_t min, int64_t max, int64_t* out) {
  if (v.type == SqlValue::Type::kInteger) {
    if (v.integer < min || v.integer > max) return false;
    *out = v.integer;
    return true;
  }
  if (v.type == SqlValue::Type::kReal) {
    const double d = v.real;
    // -2^63 <= d < 2^63 keeps the cast defined.
    if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0) || std::trunc(d) != d) return false;
    const int64_t i = static_cast<int64_t>(d);
    if (i < min || i > max) return false;
    *out = i;
    return true;
  }
  return false;
}

bool PutUInt64(const SqlValue& v, LeafData* leaf) {
  uint64_t value = 0;
  if (v.type == SqlValue::Type::kInteger) {
    if (v.integer < 0) return false;
    value = static_cast<uint64_t>(v.integer);
  } else if (v.type == SqlValue::Type::kReal) {
    const double d = v.real;
    // 2^64 itself is what a REAL holding a value near UINT64_MAX becomes (the parquet table
    // reads UINT64 values above INT64_MAX as REAL): it stands for UINT64_MAX.
    if (d == 18446744073709551616.0) {
      value = UINT64_MAX;
    } else {
      if (!(d >= 0 && d < 18446744073709551616.0) || std::trunc(d) != d) return false;
      value = static_cast<uint64_t>(d);
    }
  } else {
    return false;
  }
  leaf->int64s.push_back(static_cast<int64_t>(value));
  return true;
}

bool PutInt32Range(const SqlValue& v, int64_t min, int64_t max, LeafData* leaf) {
  int64_t value = 0;
  if (!IntegralValue(v, min, max, &value)) return false;
  // UINT32 values above INT32_MAX are stored as their two's-complement bit pattern.
  leaf->int32s.push_back(static_cast<int32_t>(static_cast<uint32_t>(value)));
  return true;
}

bool PutInt64(const SqlValue& v, LeafData* leaf) {
  int64_t value = 0;
  if (!IntegralValue(v, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(), &value)) {
    return false;
  }
  leaf->int64s.push_back(value);
  return true;
}

bool PutBoolean(const SqlValue& v, LeafData* leaf) {
  int64_t value = 0;
  if (!IntegralValue(v, 0, 1, &value)) return false;
  leaf->AppendBool(value != 0);
  return true;
}

bool NumericValue(const SqlValue& v, double* out) {
  if (v.type == SqlValue::Type::kInteger) {
    *out = static_cast<double>(v.integer);
    return true;
  }
  if (v.type == SqlValue::Type::kReal) {
    *out = v.real;
    return true;
  }
  return false;
}

bool PutFloat(const SqlValue& v, LeafData* leaf) {
  double d = 0;
  if (!NumericValue(v, &d)) return false;
  const float f = static_cast<float>(d);
  if (std::isinf(f) && !std::isinf(d)) return false;
  leaf->floats.push_back(f);
  return true;
}

bool PutDouble(const SqlValue& v, LeafData* leaf) {
  double d = 0;
  if (!NumericValue(v, &d)) return false;
  leaf->doubles.push_back(d);
  return true;
}

bool PutFloat16(const SqlValue& v, LeafData* leaf) {
  double d = 0;
  if (!NumericValue(v, &d)) return false;
  const uint16_t half = parquet::DoubleToHalf(d);
  if ((half & 0x7fff) == 0x7c00 && !std::isinf(d)) return false;  // overflow to infinity
  uint8_t* bytes = leaf->arena.Allocate(2);
  bytes[0] = static_cast<uint8_t>(half);
  bytes[1] = static_cast<uint8_t>(half >> 8);
  leaf->byte_arrays.push_back(ByteArray{bytes, 2});
  return true;
}

// Text of an INTEGER or REAL into `buffer` (at least 32 characters).
size_t NumberText(const SqlValue& v, char* buffer) {
  if (v.type == SqlValue::Type::kInteger) {
    return static_cast<size_t>(std::to_chars(buffer, buffer + 32, v.integer).ptr - buffer);
  }
  return FormatReal(v.real, buffer);
}

void PutBytes(std::string_view bytes, bool copy, LeafData* leaf) {
  const uint8_t* data = reinterpret_cast<const uint8_t*>(bytes.data());
  if (copy && !bytes.empty()) data = leaf->arena.Append(bytes.data(), bytes.size());
  leaf->byte_arrays.push_back(ByteArray{data, static_cast<uint32_t>(bytes.size())});
}

// STRING, ENUM, JSON. `copy`: the bytes of `v` do not outlive the call.
bool PutText(const SqlValue& v, bool copy, LeafData* leaf) {
  if (v.type == SqlValue::Type::kText || (v.type == SqlValue::Type::kBlob && parquet::IsValidUtf8(v.bytes))) {
    PutBytes(v.bytes, copy, leaf);
    return true;
  }
  if (v.type == SqlValue::Type::kInteger || v.type == SqlValue::Type::kReal) {
    char buffer[32];
    PutBytes(std::string_view(buffer, NumberText(v, buffer)), true, leaf);
    return true;
  }
  return false;
}

bool PutBinary(const SqlValue& v, bool copy, LeafData* leaf) {
  if (IsBytes(v)) {
    PutBytes(v.bytes, copy, leaf);
    return true;
  }
  return PutText(v, copy, leaf);
}

// GEOMETRY and GEOGRAPHY: a BLOB holding valid WKB (WkbProblem says what is wrong).
bool PutWkb(const SqlValue& v, bool copy, LeafData* leaf) {
  if (v.type != SqlValue::Type::kBlob) return false;
  parquet::WkbSummary summary;
  std::string error;
  if (!parquet::SummarizeWkb(reinterpret_cast<const uint8_t*>(v.bytes.data()), v.bytes.size(), &summary, &error)) {
    return false;
  }
  PutBytes(v.bytes, copy, leaf);
  return true;
}

// Why PutWkb refused `v`: " (invalid WKB: <what is wrong>)" for a BLOB, empty otherwise.
std::string WkbProblem(const SqlValue& v) {
  if (v.type != SqlValue::Type::kBlob) return std::string();
  parquet::WkbSummary summary;
  std::string error;
  if (parquet::SummarizeWkb(reinterpret_cast<const uint8_t*>(v.bytes.data()), v.bytes.size(), &summary, &error)) {
    return std::string();
  }
  return " (invalid WKB: " + error + ")";
}

bool PutFixed(const SqlValue& v, int32_t length, bool copy, LeafData* leaf) {
  if (!IsBytes(v) || v.bytes.size() != static_cast<size_t>(length)) return false;
  PutBytes(v.bytes, copy, leaf);
  return true;
}

bool PutUuid(const SqlValue& v, LeafData* leaf) {
  if (v.type == SqlValue::Type::kBlob) {
    if (v.bytes.size() != 16) return false;
    PutBytes(v.bytes, true, leaf);
    return true;
  }
  if (v.type != SqlValue::Type::kText) return false;
  const std::string_view text = v.bytes;
  const bool dashed = text.size() == 36;
  if (!dashed && text.size() != 32) return false;
  uint8_t bytes[16];
  size_t pos = 0;
  for (int i = 0; i < 16; ++i) {
    if (dashed && (pos == 8 || pos == 13 || pos == 18 || pos == 23)) {
      if (text[pos] != '-') return false;
      ++pos;
    }
    const int high = parquet::HexDigit(text[pos]), low = parquet::HexDigit(text[pos + 1]);
    if (high < 0 || low < 0) return false;
    bytes[i] = static_cast<uint8_t>(high * 16 + low);
    pos += 2;
  }
  leaf->byte_arrays.push_back(ByteArray{leaf->arena.Append(bytes, 16), 16});
  return true;
}

// 10^precision as an unsigned big-endian number of DecimalByteWidth(precision) bytes.
const std::array<uint8_t, 32>& PowerOfTenBytes(int32_t precision) {
  static const auto table = [] {
    std::array<std::array<uint8_t, 32>, 77> powers{};
    for (int p = 0; p <= 76; ++p) {
      std::array<uint8_t, 32> value{};  // big-endian over the full 32 bytes
      value[31] = 1;
      for (int i = 0; i < p; ++i) {
        unsigned carry = 0;
        for (int b = 31; b >= 0; --b) {
          const unsigned product = value[static_cast<size_t>(b)] * 10u + carry;
          value[static_cast<size_t>(b)] = static_cast<uint8_t>(product);
          carry = product >> 8;
        }
      }
      powers[static_cast<size_t>(p)] = value;
    }
    return powers;
  }();
  return table[static_cast<size_t>(precision)];
}

// Whether the two's-complement big-endian value has fewer than `precision` + 1 digits.
bool FitsPrecision(const uint8_t* bytes, size_t width, int32_t precision) {
  uint8_t magnitude[32] = {};
  const size_t offset = 32 - width;
  std::memcpy(magnitude + offset, bytes, width);
  if (bytes[0] & 0x80) {  // negate: invert and add one
    unsigned carry = 1;
    for (int b = 31; b >= static_cast<int>(offset); --b) {
      const unsigned sum = static_cast<uint8_t>(~magnitude[b]) + carry;
      magnitude[b] = static_cast<uint8_t>(sum);
      carry = sum >> 8;
    }
  }
  return std::memcmp(magnitude, PowerOfTenBytes(precision).data(), 32) < 0;
}

// The decimal text of `v` that ParseDecimal reads: TEXT as is, INTEGER exactly, REAL
// rounded to `scale` fraction digits. Empty for values that have none.
std::string_view DecimalText(const SqlValue& v, int32_t scale, char* buffer, size_t capacity) {
  if (v.type == SqlValue::Type::kText) return v.bytes;
  if (v.type == SqlValue::Type::kInteger) {
    return std::string_view(buffer, static_cast<size_t>(std::to_chars(buffer, buffer + capacity, v.integer).ptr - buffer));
  }
  if (v.type == SqlValue::Type::kReal && std::isfinite(v.real)) {
    char* end = parquet::FloatToChars(buffer, buffer + capacity, v.real, std::chars_format::fixed, scale);
    if (end == buffer) return {};
    return std::string_view(buffer, static_cast<size_t>(end - buffer));
  }
  return {};
}

bool PutDecimal(const SqlValue& v, const CopyType& type, LeafData* leaf) {
  char buffer[512];
  const std::string_view text = DecimalText(v, type.scale, buffer, sizeof(buffer));
  if (text.empty()) return false;
  if (type.precision <= 18) {
    int64_t unscaled = 0;
    if (!parquet::ParseDecimal(text, type.scale, &unscaled)) return false;
    int64_t limit = 1;
    for (int i = 0; i < type.precision; ++i) limit *= 10;
    if (unscaled >= limit || unscaled <= -limit) return false;
    if (type.precision <= 9) {
      leaf->int32s.push_back(static_cast<int32_t>(unscaled));
    } else {
      leaf->int64s.push_back(unscaled);
    }
    return true;
  }
  const size_t width = static_cast<size_t>(DecimalByteWidth(type.precision));
  uint8_t bytes[32];
  if (!parquet::ParseDecimal(text, type.scale, bytes, width)) return false;
  if (!FitsPrecision(bytes, width, type.precision)) return false;
  leaf->byte_arrays.push_back(ByteArray{leaf->arena.Append(bytes, width), static_cast<uint32_t>(width)});
  return true;
}

// Milliseconds since the Unix epoch of a Julian day number, rounded as SQLite rounds it.
bool JulianDayToUnixMillis(double julian_day, int64_t* millis) {
  if (!(julian_day >= 0 && julian_day < 1e8)) return false;
  *millis = static_cast<int64_t>(julian_day * 86400000.0 + 0.5) - kJulianEpochToUnixEpochMillis;
  return true;
}

bool PutDate(const SqlValue& v, LeafData* leaf) {
  int64_t days = 0;
  if (v.type == SqlValue::Type::kText) {
    int32_t parsed = 0;
    if (parquet::ParseDate(v.bytes, &parsed)) {
      leaf->int32s.push_back(parsed);
      return true;
    }
    int64_t seconds = 0;
    if (!parquet::ParseTimestamp(v.bytes, TimeUnit::MILLIS, &seconds) || seconds % (kSecondsPerDay * 1000) != 0) {
      return false;
    }
    days = seconds / (kSecondsPerDay * 1000);
  } else if (v.type == SqlValue::Type::kInteger) {
    if (v.integer % kSecondsPerDay != 0) return false;
    days = v.integer / kSecondsPerDay;
  } else if (v.type == SqlValue::Type::kReal) {
    const double offset = v.real - kJulianDayOfUnixEpoch;
    if (!(offset >= -2147483648.0 && offset <= 2147483647.0) || std::trunc(offset) != offset) return false;
    days = static_cast<int64_t>(offset);
  } else {
    return false;
  }
  if (days < std::numeric_limits<int32_t>::min() || days > std::numeric_limits<int32_t>::max()) return false;
  leaf->int32s.push_back(static_cast<int32_t>(days));
  return true;
}

bool PutTime(const SqlValue& v, TimeUnit unit, LeafData* leaf) {
  const int64_t per_second = UnitsPerSecond(unit);
  int64_t value = 0;
  if (v.type == SqlValue::Type::kText) {
    if (!parquet::ParseTime(v.bytes, unit, &value)) return false;
  } else if (v.type == SqlValue::Type::kInteger) {
    if (v.integer < 0 || v.integer >= kSecondsPerDay) return false;
    value = v.integer * per_second;
  } else if (v.type == SqlValue::Type::kReal) {
    if (!(v.real >= 0 && v.real < static_cast<double>(kSecondsPerDay))) return false;
    value = std::llround(v.real * static_cast<double>(per_second));
    if (value >= kSecondsPerDay * per_second) return false;
  } else {
    return false;
  }
  if (unit == TimeUnit::MILLIS) {
    leaf->int32s.push_back(static_cast<int32_t>(value));
  } else {
    leaf->int64s.push_back(value);
  }
  return true;
}

bool PutTimestamp(const SqlValue& v, TimeUnit unit, LeafData* leaf) {
  int64_t value = 0;
  if (v.type == SqlValue::Type::kText) {
    if (!parquet::ParseTimestamp(v.bytes, unit, &value)) return false;
  } else if (v.type == SqlValue::Type::kInteger) {
    if (__builtin_mul_overflow(v.integer, UnitsPerSecond(unit), &value)) return false;
  } else if (v.type == SqlValue::Type::kReal) {
    int64_t millis = 0;
    if (!JulianDayToUnixMillis(v.real, &millis)) return false;
    if (__builtin_mul_overflow(millis, UnitsPerSecond(unit) / 1000, &value)) return false;
  } else {
    return false;
  }
  leaf->int64s.push_back(value);
  return true;
}

}  // namespace

// Appends `v` converted to the scalar type `type`; false when it does not fit. `copy`: the
// bytes of `v` must be copied (they do not live as long as the row group).
bool PutScalar(const CopyType& type, const SqlValue& v, bool copy, LeafData* leaf) {
  switch (type.kind) {
    case CopyKind::kBoolean: return PutBoolean(v, leaf);
    case CopyKind::kInt8: return PutInt32Range(v, -128, 127, leaf);
    case CopyKind::kInt16: return PutInt32Range(v, -32768, 32767, leaf);
    case CopyKind::kInt32: return PutInt32Range(v, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max(), leaf);
    case CopyKind::kInt64: return PutInt64(v, leaf);
    case CopyKind::kUInt8: return PutInt32Range(v, 0, 255, leaf);
    case CopyKind::kUInt16: return PutInt32Range(v, 0, 65535, leaf);
    case CopyKind::kUInt32: return PutInt32Range(v, 0, 4294967295LL, leaf);
    case CopyKind::kUInt64: return PutUInt64(v, leaf);
    case CopyKind::kFloat: return PutFloat(v, leaf);
    case CopyKind::kDouble: return PutDouble(v, leaf);
    case CopyKind::kFloat16: return PutFloat16(v, leaf);
    case CopyKind::kString:
    case CopyKind::kEnum:
    case CopyKind::kJson: return PutText(v, copy, leaf);
    case CopyKind::kBinary: return PutBinary(v, copy, leaf);
    case CopyKind::kGeometry:
    case CopyKind::kGeography: return PutWkb(v, copy, leaf);
    case CopyKind::kFixed: return PutFixed(v, type.length, copy, leaf);
    case CopyKind::kUuid: return PutUuid(v, leaf);
    case CopyKind::kDecimal: return PutDecimal(v, type, leaf);
    case CopyKind::kDate: return PutDate(v, leaf);
    case CopyKind::kTime: return PutTime(v, type.unit, leaf);
    case CopyKind::kTimestamp: return PutTimestamp(v, type.unit, leaf);
    default: return false;  // nested kinds never reach here
  }
}

std::string DescribeFailure(const SqlValue& v, const CopyType& type) {
  std::string message = "cannot convert ";
  message += ClassName(v.type);
  message += ' ';
  message += QuoteValue(v);
  message += " to ";
  message += DescribeCopyType(type);
  if (type.kind == CopyKind::kGeometry || type.kind == CopyKind::kGeography) message += WkbProblem(v);
  return message;
}

namespace {

// Converts a flat column: one leaf, def level 0 (NULL) or 1.
template <typename Put>
bool ConvertFlat(const CopyType& type, const ValueColumn& column, bool null_on_error, LeafData* leaf,
                 ConversionFailure* failure, Put put) {
  ValueColumn::Reader reader(column);
  const size_t rows = column.size();
  leaf->def_levels().resize(rows);
  int16_t* def = leaf->def_levels().data();
  for (size_t row = 0; row < rows; ++row) {
    const SqlValue v = reader.Next();
    if (v.type == SqlValue::Type::kNull) {
      def[row] = 0;
    } else if (put(v, leaf)) {
      def[row] = 1;
    } else if (null_on_error) {
      def[row] = 0;
    } else {
      failure->row = row;
      failure->message = DescribeFailure(v, type);
      return false;
    }
  }
  return true;
}

}  // namespace

bool ConvertColumn(const CopyType& type, const ValueColumn& column, bool null_on_error, std::vector<LeafData>* leaves,
                   ConversionFailure* failure) {
  if (type.is_nested()) return ConvertNested(type, column, null_on_error, leaves, failure);
  LeafData* leaf = &(*leaves)[0];
  // One loop per kind, so that the per-value work is a direct call.
  switch (type.kind) {
    case CopyKind::kInt64:
      return ConvertFlat(type, column, null_on_error, leaf, failure,
                         [](const SqlValue& v, LeafData* out) { return PutInt64(v, out); });
    case CopyKind::kDouble:
      return ConvertFlat(type, column, null_on_error, leaf, failure,
                         [](const SqlValue& v, LeafData* out) { return PutDouble(v, out); });
    case CopyKind::kString:
    case CopyKind::kEnum:
    case CopyKind::kJson:
      return ConvertFlat(type, column, null_on_error, leaf, failure,
                         [](const SqlValue& v, LeafData* out) { return PutText(v, false, out); });
    case CopyKind::kBinary:
      return ConvertFlat(type, column, null_on_error, leaf, failure,
                         [](const SqlValue& v, LeafData* out) { return PutBinary(v, false, out); });
    case CopyKind::kBoolean:
      return ConvertFlat(type, column, null_on_error, leaf, failure,
                         [](const SqlValue& v, LeafData* out) { return PutBoolean(v, out); });
    default:
      return ConvertFlat(type, column, null_on_error, leaf, failure,
                         [&type](const SqlValue& v, LeafData* out) { return PutScalar(type, v, false, out); });
  }
}

bool AppendFlatValue(const CopyType& type, const SqlValue& value, bool null_on_error, LeafData* leaf,
                     std::string* message) {
  if (value.type == SqlValue::Type::kNull) {
    leaf->AppendLevel(0);
    return true;
  }
  bool fits = false;
  switch (type.kind) {
    case CopyKind::kInt64: fits = PutInt64(value, leaf); break;
    case CopyKind::kDouble: fits = PutDouble(value, leaf); break;
    case CopyKind::kString:
    case CopyKind::kEnum:
    case CopyKind::kJson: fits = PutText(value, true, leaf); break;
    case CopyKind::kDate: fits = PutDate(value, leaf); break;
    default: fits = PutScalar(type, value, true, leaf); break;
  }
  if (fits || null_on_error) {
    leaf->AppendLevel(fits ? 1 : 0);
    return true;
  }
  *message = DescribeFailure(value, type);
  return false;
}

}  // namespace sqlite_parquet

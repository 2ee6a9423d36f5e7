// parquet_copy's value buffers and conversions (see copy_values.h).
#include "ext/copy/copy_values.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <system_error>

#include "format/values/json_document.h"
#include "format/values/logical_values.h"
#include "format/values/text.h"
#include "format/values/variant_encoder.h"
#include "format/values/wkb.h"

namespace sqlite_parquet {

namespace {

using parquet::ByteArray;
using parquet::JsonDocument;
using parquet::JsonNode;
using parquet::UnescapeJsonString;
using parquet::TimeUnit;

constexpr size_t kArenaBlockSize = 16 * 1024;
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

bool IsBytes(const SqlValue& v) { return v.type == SqlValue::Type::kText || v.type == SqlValue::Type::kBlob; }

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
    const std::to_chars_result result =
        std::to_chars(buffer, buffer + capacity, v.real, std::chars_format::fixed, scale);
    if (result.ec != std::errc()) return {};
    return std::string_view(buffer, static_cast<size_t>(result.ptr - buffer));
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

// Writes JSON values into the leaves of a nested field (Dremel levels).
class NestedWriter {
 public:
  NestedWriter(std::vector<LeafData>* leaves) : leaves_(*leaves) {}

  // Writes the value of a top-level OPTIONAL field; `node` null means NULL.
  bool WriteTop(const CopyType& type, const JsonDocument* document, std::string* detail) {
    document_ = document;
    detail_ = detail;
    return WriteField(type, 0, document != nullptr ? 0 : -1, 0, 0, 0, "");
  }

 private:
  // Every leaf under `type` (starting at leaf `leaf`) gets an entry at (def, rep) and no value.
  int EmitEmpty(const CopyType& type, int leaf, int16_t def, int16_t rep) {
    if (!type.is_nested()) {
      LeafData& data = leaves_[static_cast<size_t>(leaf)];
      data.AppendLevel(def);
      if (data.max_repetition_level > 0) data.rep_levels.push_back(rep);
      return 1;
    }
    int count = 0;
    for (const CopyField& child : type.children) count += EmitEmpty(child.type, leaf + count, def, rep);
    return count;
  }

  const JsonNode& Node(int32_t index) const { return document_->node(index); }

  bool Failed(const std::string& path, const std::string& what) {
    *detail_ = (path.empty() ? std::string() : path + ": ") + what;
    return false;
  }

  // The key of an object member, unescaped if needed.
  std::string_view KeyOf(const JsonNode& node) {
    if (!node.key_escaped) return node.key;
    UnescapeJsonString(node.key, &key_scratch_);
    return key_scratch_;
  }

  // A JSON scalar (or a whole array/object for STRING, BINARY and JSON leaves) as an SqlValue.
  bool ScalarValue(const CopyType& type, const JsonNode& node, SqlValue* v) {
    if (type.kind == CopyKind::kJson) {
      v->type = SqlValue::Type::kText;
      v->bytes = node.kind == JsonNode::Kind::kString
                     ? std::string_view(node.text.data() - 1, node.text.size() + 2)
                     : node.kind == JsonNode::Kind::kNumber || node.kind == JsonNode::Kind::kArray ||
                               node.kind == JsonNode::Kind::kObject
                           ? node.text
                           : std::string_view(node.kind == JsonNode::Kind::kTrue ? "true" : "false");
      return true;
    }
    const bool textual = type.kind == CopyKind::kString || type.kind == CopyKind::kEnum || type.kind == CopyKind::kBinary;
    switch (node.kind) {
      case JsonNode::Kind::kTrue:
      case JsonNode::Kind::kFalse:
        v->type = SqlValue::Type::kInteger;
        v->integer = node.kind == JsonNode::Kind::kTrue ? 1 : 0;
        if (textual) {
          v->type = SqlValue::Type::kText;
          v->bytes = v->integer ? "true" : "false";
        }
        return true;
      case JsonNode::Kind::kNumber: {
        if (textual) {
          v->type = SqlValue::Type::kText;
          v->bytes = node.text;
          return true;
        }
        const char* begin = node.text.data();
        const char* end = begin + node.text.size();
        const std::from_chars_result integer = std::from_chars(begin, end, v->integer);
        if (integer.ec == std::errc() && integer.ptr == end) {
          v->type = SqlValue::Type::kInteger;
          return true;
        }
        const std::from_chars_result real = std::from_chars(begin, end, v->real);
        if (real.ec != std::errc() || real.ptr != end) return false;  // out of double range
        v->type = SqlValue::Type::kReal;
        return true;
      }
      case JsonNode::Kind::kString:
        v->type = SqlValue::Type::kText;
        if (node.escaped) {
          UnescapeJsonString(node.text, &string_scratch_);
          v->bytes = string_scratch_;
        } else {
          v->bytes = node.text;
        }
        return true;
      case JsonNode::Kind::kArray:
      case JsonNode::Kind::kObject:
        if (!textual) return false;
        v->type = SqlValue::Type::kText;
        v->bytes = node.text;
        return true;
      case JsonNode::Kind::kNull:
        return false;
    }
    return false;
  }

  bool WriteScalar(const CopyType& type, int leaf, const JsonNode& node, int16_t def, int16_t rep,
                   const std::string& path) {
    SqlValue v;
    LeafData& data = leaves_[static_cast<size_t>(leaf)];
    if (!ScalarValue(type, node, &v) || !PutScalar(type, v, true, &data)) {
      std::string shown = node.kind == JsonNode::Kind::kString ? "\"" + std::string(node.text) + "\"" : std::string(node.text);
      if (node.kind == JsonNode::Kind::kTrue) shown = "true";
      if (node.kind == JsonNode::Kind::kFalse) shown = "false";
      if (shown.size() > 60) shown = shown.substr(0, 57) + "...";
      return Failed(path, shown + " is not a valid " + DescribeCopyType(type));
    }
    data.AppendLevel(def);
    if (data.max_repetition_level > 0) data.rep_levels.push_back(rep);
    return true;
  }

  // Writes an OPTIONAL field (or the REQUIRED map key when `required`) of type `type` whose
  // leaves start at `leaf`; `node` is the JSON node or -1 for NULL/missing. `def` is the
  // definition level of the parent, `rep` the repetition level of this entry and
  // `rep_depth` the number of repeated ancestors.
  bool WriteField(const CopyType& type, int leaf, int32_t node_index, int16_t def, int16_t rep, int16_t rep_depth,
                  const std::string& path, bool required = false) {
    if (node_index < 0 || Node(node_index).kind == JsonNode::Kind::kNull) {
      if (required) return Failed(path, "a map key cannot be null");
      EmitEmpty(type, leaf, def, rep);
      return true;
    }
    const int16_t here = required ? def : static_cast<int16_t>(def + 1);
    const JsonNode& node = Node(node_index);
    switch (type.kind) {
      case CopyKind::kList: {
        if (node.kind != JsonNode::Kind::kArray) return Failed(path, "expected a JSON array");
        if (node.first_child < 0) {
          EmitEmpty(type.children[0].type, leaf, here, rep);
          return true;
        }
        const int16_t element_depth = static_cast<int16_t>(rep_depth + 1);
        int index = 0;
        for (int32_t child = node.first_child; child >= 0; child = Node(child).next_sibling, ++index) {
          if (!WriteField(type.children[0].type, leaf, child, static_cast<int16_t>(here + 1),
                          index == 0 ? rep : element_depth, element_depth, path + "[" + std::to_string(index) + "]")) {
            return false;
          }
        }
        return true;
      }
      case CopyKind::kMap: {
        // An object {"key": value, ...}, or an array of {"key": k, "value": v} entries (the
        // form the parquet table reads maps with non-text keys in).
        const bool pairs = node.kind == JsonNode::Kind::kArray;
        if (node.kind != JsonNode::Kind::kObject && !pairs) {
          return Failed(path, "expected a JSON object or an array of {\"key\": ..., \"value\": ...} objects");
        }
        const int value_leaf = leaf + LeafCount(type.children[0].type);
        if (node.first_child < 0) {
          EmitEmpty(type.children[0].type, leaf, here, rep);
          EmitEmpty(type.children[1].type, value_leaf, here, rep);
          return true;
        }
        const int16_t entry_depth = static_cast<int16_t>(rep_depth + 1);
        const int16_t entry_def = static_cast<int16_t>(here + 1);
        int index = 0;
        for (int32_t child = node.first_child; child >= 0; child = Node(child).next_sibling, ++index) {
          const int16_t entry_rep = index == 0 ? rep : entry_depth;
          if (!pairs) {
            const std::string key(KeyOf(Node(child)));
            const std::string entry_path = path + "[\"" + key + "\"]";
            if (!WriteKey(type.children[0].type, leaf, key, entry_def, entry_rep, entry_path) ||
                !WriteField(type.children[1].type, value_leaf, child, entry_def, entry_rep, entry_depth, entry_path)) {
              return false;
            }
            continue;
          }
          const std::string entry_path = path + "[" + std::to_string(index) + "]";
          const JsonNode& entry = Node(child);
          if (entry.kind != JsonNode::Kind::kObject) {
            return Failed(entry_path, "expected a {\"key\": ..., \"value\": ...} object");
          }
          int32_t key_node = -1, value_node = -1;
          for (int32_t member = entry.first_child; member >= 0; member = Node(member).next_sibling) {
            const std::string_view name = KeyOf(Node(member));
            if (name == "key") {
              key_node = member;
            } else if (name == "value") {
              value_node = member;
            } else {
              return Failed(entry_path, "unexpected member \"" + std::string(name) + "\" in a map entry");
            }
          }
          if (key_node < 0) return Failed(entry_path, "a map entry needs a \"key\"");
          if (!WriteField(type.children[0].type, leaf, key_node, entry_def, entry_rep, entry_depth, entry_path + ".key", true) ||
              !WriteField(type.children[1].type, value_leaf, value_node, entry_def, entry_rep, entry_depth, entry_path + ".value")) {
            return false;
          }
        }
        return true;
      }
      case CopyKind::kStruct: {
        if (node.kind != JsonNode::Kind::kObject) return Failed(path, "expected a JSON object");
        // Every member must name a field.
        for (int32_t child = node.first_child; child >= 0; child = Node(child).next_sibling) {
          const std::string_view key = KeyOf(Node(child));
          bool known = false;
          for (const CopyField& field : type.children) known = known || SameName(field.name, key);
          if (!known) return Failed(path, "no field named \"" + std::string(key) + "\" in " + DescribeCopyType(type));
        }
        int child_leaf = leaf;
        for (const CopyField& field : type.children) {
          int32_t match = -1;
          for (int32_t child = node.first_child; child >= 0 && match < 0; child = Node(child).next_sibling) {
            if (KeyOf(Node(child)) == field.name) match = child;
          }
          for (int32_t child = node.first_child; child >= 0 && match < 0; child = Node(child).next_sibling) {
            if (SameName(KeyOf(Node(child)), field.name)) match = child;
          }
          if (!WriteField(field.type, child_leaf, match, here, rep, rep_depth,
                          path.empty() ? field.name : path + "." + field.name)) {
            return false;
          }
          child_leaf += LeafCount(field.type);
        }
        return true;
      }
      default:
        return WriteScalar(type, leaf, node, here, rep, path);
    }
  }

  // A map key comes from a JSON object key (a string): numbers and booleans are read from it.
  bool WriteKey(const CopyType& type, int leaf, const std::string& key, int16_t def, int16_t rep,
                const std::string& path) {
    SqlValue v;
    v.type = SqlValue::Type::kText;
    v.bytes = key;
    const char* begin = key.data();
    const char* end = begin + key.size();
    const bool numeric = type.kind != CopyKind::kString && type.kind != CopyKind::kEnum && type.kind != CopyKind::kJson &&
                         type.kind != CopyKind::kBinary && type.kind != CopyKind::kFixed && type.kind != CopyKind::kUuid &&
                         type.kind != CopyKind::kDecimal && type.kind != CopyKind::kDate && type.kind != CopyKind::kTime &&
                         type.kind != CopyKind::kTimestamp;
    std::string json_key;
    if (numeric && !key.empty()) {
      int64_t integer = 0;
      double real = 0;
      if (std::from_chars(begin, end, integer).ptr == end) {
        v.type = SqlValue::Type::kInteger;
        v.integer = integer;
      } else if (std::from_chars(begin, end, real).ptr == end) {
        v.type = SqlValue::Type::kReal;
        v.real = real;
      } else if (key == "true" || key == "false") {
        v.type = SqlValue::Type::kInteger;
        v.integer = key == "true" ? 1 : 0;
      }
    } else if (type.kind == CopyKind::kJson) {
      json_key = "\"" + key + "\"";  // a JSON key is a JSON string
      v.bytes = json_key;
    }
    LeafData& data = leaves_[static_cast<size_t>(leaf)];
    if (!PutScalar(type, v, true, &data)) {
      return Failed(path, "key \"" + key + "\" is not a valid " + DescribeCopyType(type));
    }
    data.AppendLevel(def);
    if (data.max_repetition_level > 0) data.rep_levels.push_back(rep);
    return true;
  }

  std::vector<LeafData>& leaves_;
  const JsonDocument* document_ = nullptr;
  std::string* detail_ = nullptr;
  std::string string_scratch_;
  std::string key_scratch_;
};

// Sizes of a leaf's buffers, to undo a partly written row.
struct LeafMark {
  size_t def = 0, rep = 0, values = 0;
};

LeafMark MarkOf(const LeafData& leaf) {
  return LeafMark{leaf.def_levels().size(), leaf.rep_levels.size(), leaf.num_values()};
}

void PrepareLeaf(const CopyType& type, int16_t def, int16_t rep, std::vector<LeafData>* leaves, size_t* next) {
  if (!type.is_nested()) {
    LeafData& leaf = (*leaves)[(*next)++];
    leaf.Clear();
    leaf.max_definition_level = def;
    leaf.max_repetition_level = rep;
    leaf.physical_type = PhysicalTypeOf(type);
    return;
  }
  if (type.kind == CopyKind::kVariant) {  // required metadata and value
    for (const CopyField& child : type.children) PrepareLeaf(child.type, def, rep, leaves, next);
  } else if (type.kind == CopyKind::kStruct) {
    for (const CopyField& child : type.children) PrepareLeaf(child.type, static_cast<int16_t>(def + 1), rep, leaves, next);
  } else if (type.kind == CopyKind::kList) {
    PrepareLeaf(type.children[0].type, static_cast<int16_t>(def + 2), static_cast<int16_t>(rep + 1), leaves, next);
  } else {  // MAP: repeated key_value, required key, optional value
    PrepareLeaf(type.children[0].type, static_cast<int16_t>(def + 1), static_cast<int16_t>(rep + 1), leaves, next);
    PrepareLeaf(type.children[1].type, static_cast<int16_t>(def + 2), static_cast<int16_t>(rep + 1), leaves, next);
  }
}

void TruncateLeaf(LeafData* leaf, const LeafMark& mark);

bool ConvertNested(const CopyType& type, const ValueColumn& column, bool null_on_error, std::vector<LeafData>* leaves,
                   ConversionFailure* failure) {
  ValueColumn::Reader reader(column);
  JsonDocument document;
  NestedWriter writer(leaves);
  std::vector<LeafMark> marks(leaves->size());
  std::string detail;
  for (size_t row = 0; row < column.size(); ++row) {
    const SqlValue v = reader.Next();
    if (v.type == SqlValue::Type::kNull) {
      writer.WriteTop(type, nullptr, &detail);
      continue;
    }
    for (size_t i = 0; i < leaves->size(); ++i) marks[i] = MarkOf((*leaves)[i]);
    bool ok = false;
    if (IsBytes(v)) {
      ok = document.Parse(v.bytes, &detail) && writer.WriteTop(type, &document, &detail);
    } else {
      detail = "expected JSON text";
    }
    if (ok) continue;
    if (!null_on_error) {
      failure->row = row;
      failure->message = DescribeFailure(v, type) + ": " + detail;
      return false;
    }
    for (size_t i = 0; i < leaves->size(); ++i) TruncateLeaf(&(*leaves)[i], marks[i]);
    writer.WriteTop(type, nullptr, &detail);
  }
  return true;
}

void TruncateLeaf(LeafData* leaf, const LeafMark& mark) {
  leaf->def_levels().resize(mark.def);
  leaf->rep_levels.resize(mark.rep);
  switch (leaf->physical_type) {
    case parquet::Type::INT32: leaf->int32s.resize(mark.values); break;
    case parquet::Type::INT64: leaf->int64s.resize(mark.values); break;
    case parquet::Type::FLOAT: leaf->floats.resize(mark.values); break;
    case parquet::Type::DOUBLE: leaf->doubles.resize(mark.values); break;
    case parquet::Type::BYTE_ARRAY:
    case parquet::Type::FIXED_LEN_BYTE_ARRAY: leaf->byte_arrays.resize(mark.values); break;
    case parquet::Type::BOOLEAN:
      leaf->TruncateBools(mark.values);
      break;
    default: break;
  }
}

}  // namespace

// ---- ByteArena ----

bool DateParseCache::ParseAndKeep(std::string_view text, uint64_t head, uint16_t tail, int32_t* days) {
  if (!parquet::ParseDate(text, days)) return false;
  if (entries_ == nullptr) entries_ = std::make_unique<Entry[]>(kEntries);
  Entry& entry = entries_[Slot(head, tail)];
  entry.head = head;
  entry.tail = tail;
  entry.days = *days;
  entry.valid = true;
  return true;
}

void ByteArena::CopyLongBytes(uint8_t* target, const uint8_t* source, size_t size) {
  std::memcpy(target, source, size);
}

uint8_t* ByteArena::AllocateInNewBlock(size_t size) {
  if (!blocks_.empty() && current_ + 1 < blocks_.size() && blocks_[current_ + 1].size >= size &&
      next_ != nullptr) {
    ++current_;  // a block kept by Clear
  } else if (blocks_.empty() || next_ != nullptr) {
    Block block;
    block.size = std::max(kArenaBlockSize, size);
    block.data.reset(new uint8_t[block.size]);  // not zero-filled
    const size_t position = blocks_.empty() ? 0 : current_ + 1;
    blocks_.insert(blocks_.begin() + static_cast<std::ptrdiff_t>(position), std::move(block));
    current_ = position;
  } else if (blocks_[current_].size < size) {
    // After Clear, before anything was handed out: blocks_[0] is too small for this one.
    Block block;
    block.size = std::max(kArenaBlockSize, size);
    block.data.reset(new uint8_t[block.size]);
    blocks_.insert(blocks_.begin() + static_cast<std::ptrdiff_t>(current_), std::move(block));
  }
  next_ = blocks_[current_].data.get() + size;
  left_in_block_ = blocks_[current_].size - size;
  used_total_ += size;
  return blocks_[current_].data.get();
}

void ByteArena::Clear() {
  constexpr size_t kKeptBlocks = 16;
  size_t kept = 0;
  for (Block& block : blocks_) {
    if (block.size == kArenaBlockSize && kept < kKeptBlocks) {
      if (&blocks_[kept] != &block) blocks_[kept] = std::move(block);
      ++kept;
    }
  }
  blocks_.resize(kept);
  current_ = 0;
  next_ = nullptr;  // blocks_[0], if any, is taken at the next allocation
  left_in_block_ = 0;
  used_total_ = 0;
}

// ---- ValueColumn ----

void ValueColumn::AppendNull() {
  types_.push_back(SqlValue::Type::kNull);
  payloads_.push_back(Payload{0});
}

void ValueColumn::AppendInteger(int64_t value) {
  types_.push_back(SqlValue::Type::kInteger);
  Payload payload;
  payload.integer = value;
  payloads_.push_back(payload);
  seen_ |= kSeenInteger;
}

void ValueColumn::AppendReal(double value) {
  types_.push_back(SqlValue::Type::kReal);
  Payload payload;
  payload.real = value;
  payloads_.push_back(payload);
  seen_ |= kSeenReal;
}

void ValueColumn::AppendBytes(SqlValue::Type type, const void* data, size_t size) {
  Payload payload;
  payload.bytes = size > 0 ? arena_.Append(data, size) : nullptr;
  types_.push_back(type);
  payloads_.push_back(payload);
  lengths_.push_back(static_cast<uint32_t>(size));
}

void ValueColumn::AppendText(const void* data, size_t size) {
  AppendBytes(SqlValue::Type::kText, data, size);
  seen_ |= kSeenText;
}

void ValueColumn::AppendBlob(const void* data, size_t size) {
  AppendBytes(SqlValue::Type::kBlob, data, size);
  seen_ |= kSeenBlob;
}

void ValueColumn::Append(const SqlValue& value) {
  switch (value.type) {
    case SqlValue::Type::kInteger: AppendInteger(value.integer); return;
    case SqlValue::Type::kReal: AppendReal(value.real); return;
    case SqlValue::Type::kText: AppendText(value.bytes.data(), value.bytes.size()); return;
    case SqlValue::Type::kBlob: AppendBlob(value.bytes.data(), value.bytes.size()); return;
    case SqlValue::Type::kNull: AppendNull(); return;
  }
}

void ValueColumn::Clear() {
  types_.clear();
  payloads_.clear();
  lengths_.clear();
  arena_.Clear();
  seen_ = 0;
}

SqlValue ValueColumn::Reader::Next() {
  SqlValue value;
  value.type = column_.types_[row_];
  const Payload& payload = column_.payloads_[row_];
  ++row_;
  switch (value.type) {
    case SqlValue::Type::kInteger: value.integer = payload.integer; break;
    case SqlValue::Type::kReal: value.real = payload.real; break;
    case SqlValue::Type::kText:
    case SqlValue::Type::kBlob: {
      const uint32_t length = column_.lengths_[bytes_index_++];
      value.bytes = length > 0 ? std::string_view(reinterpret_cast<const char*>(payload.bytes), length)
                               : std::string_view();
      break;
    }
    case SqlValue::Type::kNull: break;
  }
  return value;
}

// ---- LeafData ----

void LeafData::AppendBool(bool value) {
  if (num_bools_ == bool_capacity_) {
    const size_t capacity = std::max<size_t>(1024, bool_capacity_ * 2);
    auto grown = std::make_unique<bool[]>(capacity);
    if (num_bools_ > 0) std::copy(bools_.get(), bools_.get() + num_bools_, grown.get());
    bools_ = std::move(grown);
    bool_capacity_ = capacity;
  }
  bools_[num_bools_++] = value;
}

void LeafData::TruncateBools(size_t count) {
  if (count < num_bools_) num_bools_ = count;
}

size_t LeafData::num_values() const {
  switch (physical_type) {
    case parquet::Type::BOOLEAN: return num_bools_;
    case parquet::Type::INT32: return int32s.size();
    case parquet::Type::INT64: return int64s.size();
    case parquet::Type::FLOAT: return floats.size();
    case parquet::Type::DOUBLE: return doubles.size();
    default: return byte_arrays.size();
  }
}

void LeafData::Clear() {
  def_levels_.clear();
  pending_defined_ = 0;
  rep_levels.clear();
  int32s.clear();
  int64s.clear();
  floats.clear();
  doubles.clear();
  byte_arrays.clear();
  arena.Clear();
  num_bools_ = 0;
}

// ---- Conversion ----

void PrepareLeaves(const CopyType& type, std::vector<LeafData>* leaves) {
  leaves->resize(static_cast<size_t>(LeafCount(type)));
  size_t next = 0;
  PrepareLeaf(type, 1, 0, leaves, &next);
}

// VARIANT: each TEXT (or BLOB) of JSON encoded as Variant metadata and value.
bool ConvertVariant(const CopyType& type, const ValueColumn& column, bool null_on_error, std::vector<LeafData>* leaves,
                    ConversionFailure* failure) {
  ValueColumn::Reader reader(column);
  LeafData& metadata = (*leaves)[0];
  LeafData& value = (*leaves)[1];
  std::string metadata_bytes, value_bytes, error;
  for (size_t row = 0; row < column.size(); ++row) {
    const SqlValue v = reader.Next();
    bool ok = false;
    if (IsBytes(v)) {
      ok = parquet::EncodeJsonAsVariant(v.bytes, &metadata_bytes, &value_bytes, &error);
    } else if (v.type != SqlValue::Type::kNull) {
      error = "expected JSON text";
    }
    if (!ok && v.type != SqlValue::Type::kNull && !null_on_error) {
      failure->row = row;
      failure->message = DescribeFailure(v, type) + " (" + error + ")";
      return false;
    }
    const int16_t level = ok ? 1 : 0;
    metadata.AppendLevel(level);
    value.AppendLevel(level);
    if (!ok) continue;
    PutBytes(metadata_bytes, true, &metadata);
    PutBytes(value_bytes, true, &value);
  }
  return true;
}

bool ConvertColumn(const CopyType& type, const ValueColumn& column, bool null_on_error, std::vector<LeafData>* leaves,
                   ConversionFailure* failure) {
  if (type.kind == CopyKind::kVariant) return ConvertVariant(type, column, null_on_error, leaves, failure);
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

std::string QuoteValue(const SqlValue& value) {
  constexpr size_t kMaxTextShown = 60;
  constexpr size_t kMaxBlobShown = 32;
  switch (value.type) {
    case SqlValue::Type::kNull: return "NULL";
    case SqlValue::Type::kInteger: return std::to_string(value.integer);
    case SqlValue::Type::kReal: {
      char buffer[32];
      return std::string(buffer, FormatReal(value.real, buffer));
    }
    case SqlValue::Type::kText: {
      // Cut long text before kMaxTextShown bytes, never inside a UTF-8 sequence.
      size_t shown = value.bytes.size();
      if (shown > kMaxTextShown) {
        shown = kMaxTextShown;
        while (shown > 0 && (static_cast<unsigned char>(value.bytes[shown]) & 0xC0) == 0x80) --shown;
      }
      std::string quoted = "'";
      for (char c : value.bytes.substr(0, shown)) {
        quoted += c;
        if (c == '\'') quoted += '\'';
      }
      quoted += "'";
      if (shown < value.bytes.size()) quoted += "...";
      return quoted;
    }
    case SqlValue::Type::kBlob: {
      static constexpr char kHex[] = "0123456789ABCDEF";
      std::string quoted = "X'";
      const size_t shown = std::min(value.bytes.size(), kMaxBlobShown);
      for (size_t i = 0; i < shown; ++i) {
        const unsigned char c = static_cast<unsigned char>(value.bytes[i]);
        quoted += kHex[c >> 4];
        quoted += kHex[c & 15];
      }
      quoted += "'";
      if (value.bytes.size() > shown) quoted += "...";
      return quoted;
    }
  }
  return "NULL";
}

size_t FormatReal(double value, char* out) {
  if (std::isnan(value)) {
    std::memcpy(out, "NaN", 3);
    return 3;
  }
  if (std::isinf(value)) {
    if (value < 0) {
      std::memcpy(out, "-Inf", 4);
      return 4;
    }
    std::memcpy(out, "Inf", 3);
    return 3;
  }
  char digits[32];
  const std::to_chars_result result = std::to_chars(digits, digits + sizeof(digits), value);
  const size_t length = static_cast<size_t>(result.ptr - digits);
  const std::string_view text(digits, length);
  if (text.find('.') != std::string_view::npos) {
    std::memcpy(out, digits, length);
    return length;
  }
  // No '.': add ".0" before the exponent, or at the end.
  const size_t exponent = text.find('e');
  const size_t mantissa = exponent == std::string_view::npos ? length : exponent;
  std::memcpy(out, digits, mantissa);
  std::memcpy(out + mantissa, ".0", 2);
  std::memcpy(out + mantissa + 2, digits + mantissa, length - mantissa);
  return length + 2;
}

}  // namespace sqlite_parquet

// Decoding of column-chunk and page-index statistics (see statistics.h for the rules).
#include "format/index/statistics.h"

#include <cmath>
#include <cstring>

#include "format/common/error.h"
#include "format/values/logical_values.h"

namespace parquet {

namespace {

using Kind = LogicalType::Kind;

bool IsByteArray(Type type) { return type == Type::BYTE_ARRAY || type == Type::FIXED_LEN_BYTE_ARRAY; }
bool IsInteger(Type type) { return type == Type::INT32 || type == Type::INT64; }

// The sort order an annotation defines, given the physical type it sits on; kUnknown for
// an annotation that does not fit. `unsigned_integer` / `decimal` / `float16` tell the caller
// which comparison applies.
struct TypeOrder {
  ColumnSortOrder order = ColumnSortOrder::kUnknown;
  bool unsigned_integer = false;
  bool decimal = false;
  bool float16 = false;
};

TypeOrder OrderOfLogicalType(const LogicalType& logical, const SchemaNode& leaf) {
  const Type physical = *leaf.physical_type;
  TypeOrder t;
  switch (logical.kind) {
    case Kind::STRING:
    case Kind::ENUM:
    case Kind::JSON:
    case Kind::BSON:
      if (IsByteArray(physical)) t.order = ColumnSortOrder::kUnsigned;
      return t;
    case Kind::UUID:
      if (physical == Type::FIXED_LEN_BYTE_ARRAY) t.order = ColumnSortOrder::kUnsigned;
      return t;
    case Kind::DECIMAL:
      if (IsInteger(physical)) {
        t.order = ColumnSortOrder::kSigned;
      } else if (IsByteArray(physical)) {
        t.order = ColumnSortOrder::kSigned;
        t.decimal = true;
      }
      return t;
    case Kind::DATE:
      if (physical == Type::INT32) t.order = ColumnSortOrder::kSigned;
      return t;
    case Kind::TIME:
      if ((physical == Type::INT32 && logical.time_unit == TimeUnit::MILLIS) ||
          (physical == Type::INT64 && logical.time_unit != TimeUnit::MILLIS)) {
        t.order = ColumnSortOrder::kSigned;
      }
      return t;
    case Kind::TIMESTAMP:
      if (physical == Type::INT64) t.order = ColumnSortOrder::kSigned;
      return t;
    case Kind::INTEGER:
      if (IsInteger(physical)) {
        t.order = logical.int_is_signed ? ColumnSortOrder::kSigned : ColumnSortOrder::kUnsigned;
        t.unsigned_integer = !logical.int_is_signed;
      }
      return t;
    case Kind::FLOAT16:
      if (physical == Type::FIXED_LEN_BYTE_ARRAY && leaf.type_length == 2) {
        t.order = ColumnSortOrder::kSigned;
        t.float16 = true;
      }
      return t;
    default:
      // UNKNOWN (always null), MAP, LIST, VARIANT, GEOMETRY, GEOGRAPHY, VECTOR: no order.
      return t;
  }
}

TypeOrder OrderOfPhysicalType(Type physical) {
  TypeOrder t;
  switch (physical) {
    case Type::BOOLEAN:
    case Type::INT32:
    case Type::INT64:
    case Type::FLOAT:
    case Type::DOUBLE:
      t.order = ColumnSortOrder::kSigned;
      break;
    case Type::BYTE_ARRAY:
    case Type::FIXED_LEN_BYTE_ARRAY:
      t.order = ColumnSortOrder::kUnsigned;
      break;
    case Type::INT96:
      break;  // depends on the column order (see MakeStatisticsContext)
  }
  return t;
}

TypeOrder TypeOrderOf(const SchemaNode& leaf) {
  if (!leaf.physical_type.has_value()) return {};
  if (const auto logical = EffectiveLogicalType(leaf)) return OrderOfLogicalType(*logical, leaf);
  // INTERVAL's order is undefined; MAP, LIST, MAP_KEY_VALUE do not belong on a leaf.
  if (leaf.converted_type.has_value()) return {};
  return OrderOfPhysicalType(*leaf.physical_type);
}

ValueComparison ComparisonOf(const TypeOrder& t, Type physical) {
  if (t.order == ColumnSortOrder::kUnknown) return ValueComparison::kNone;
  switch (physical) {
    case Type::BOOLEAN: return ValueComparison::kBoolean;
    case Type::INT32:
    case Type::INT64:
      return t.unsigned_integer ? ValueComparison::kUnsignedInteger : ValueComparison::kSignedInteger;
    case Type::FLOAT:
    case Type::DOUBLE:
      return ValueComparison::kFloatingPoint;
    case Type::BYTE_ARRAY:
    case Type::FIXED_LEN_BYTE_ARRAY:
      if (t.float16) return ValueComparison::kFloatingPoint;
      if (t.decimal) return ValueComparison::kSignedBigEndian;
      return ValueComparison::kUnsignedBytes;
    case Type::INT96:
      return ValueComparison::kNone;
  }
  return ValueComparison::kNone;
}

template <typename T>
int Three(T a, T b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

int64_t Int96Nanos(const Int96& v) {
  return static_cast<int64_t>(static_cast<uint64_t>(v.words[0]) | (static_cast<uint64_t>(v.words[1]) << 32));
}

// A bound decoded from `plain`, or nothing when it is unusable (wrong size, NaN). Zero
// floating-point bounds are widened to cover both zeros.
std::optional<StatisticsBound> MakeBound(std::string_view plain, const StatisticsContext& context,
                                         ValueComparison comparison, bool is_lower, bool exact) {
  StatisticsBound bound;
  if (!DecodeStatisticsValue(plain, context, &bound.value)) return std::nullopt;
  if (comparison == ValueComparison::kFloatingPoint) {
    if (std::isnan(bound.value.real)) return std::nullopt;
    if (bound.value.real == 0) {
      bound.value.real = is_lower ? -0.0 : 0.0;
      if (context.float16) bound.value.bytes = is_lower ? std::string("\x00\x80", 2) : std::string("\x00\x00", 2);
    }
  }
  bound.exact = exact;
  return bound;
}

std::optional<int64_t> Count(const std::optional<int64_t>& value) {
  if (value.has_value() && *value >= 0) return value;
  return std::nullopt;
}

}  // namespace

int CompareSignedBigEndian(std::string_view a, std::string_view b) {
  const bool a_negative = !a.empty() && (static_cast<uint8_t>(a[0]) & 0x80);
  const bool b_negative = !b.empty() && (static_cast<uint8_t>(b[0]) & 0x80);
  if (a_negative != b_negative) return a_negative ? -1 : 1;
  // Same sign: sign-extend to a common length, then unsigned byte order is numeric order.
  const size_t length = a.size() > b.size() ? a.size() : b.size();
  const uint8_t fill = a_negative ? 0xFF : 0x00;
  for (size_t i = 0; i < length; i++) {
    const size_t pad_a = length - a.size(), pad_b = length - b.size();
    const uint8_t x = i < pad_a ? fill : static_cast<uint8_t>(a[i - pad_a]);
    const uint8_t y = i < pad_b ? fill : static_cast<uint8_t>(b[i - pad_b]);
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

int CompareUnsignedBytes(std::string_view a, std::string_view b) {
  const size_t common = a.size() < b.size() ? a.size() : b.size();
  const int c = common ? std::memcmp(a.data(), b.data(), common) : 0;
  if (c != 0) return c < 0 ? -1 : 1;
  if (a.size() == b.size()) return 0;
  return a.size() < b.size() ? -1 : 1;
}

const char* ToString(ColumnSortOrder order) {
  switch (order) {
    case ColumnSortOrder::kSigned: return "signed";
    case ColumnSortOrder::kUnsigned: return "unsigned";
    case ColumnSortOrder::kUnknown: return "unknown";
  }
  return "unknown";
}

StatisticsValue StatisticsValue::Integer(Type physical_type, int64_t value) {
  StatisticsValue v;
  v.physical_type = physical_type;
  v.integer = value;
  v.boolean = value != 0;
  v.real = static_cast<double>(value);
  return v;
}

StatisticsValue StatisticsValue::Real(Type physical_type, double value) {
  StatisticsValue v;
  v.physical_type = physical_type;
  v.real = value;
  return v;
}

StatisticsValue StatisticsValue::Bytes(Type physical_type, std::string_view value) {
  StatisticsValue v;
  v.physical_type = physical_type;
  v.bytes = std::string(value);
  return v;
}

bool WriterVersion::Before(int want_major, int want_minor, int want_patch) const {
  if (!has_version) return true;
  if (major != want_major) return major < want_major;
  if (minor != want_minor) return minor < want_minor;
  if (patch != want_patch) return patch < want_patch;
  return pre_release;
}

WriterVersion ParseCreatedBy(std::string_view created_by) {
  WriterVersion w;
  auto trim = [](std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
  };
  std::string_view rest;
  const size_t marker = created_by.find(" version ");
  if (marker == std::string_view::npos) {
    const size_t build = created_by.find(" (build");
    w.application = std::string(trim(created_by.substr(0, build)));
    return w;
  }
  w.application = std::string(trim(created_by.substr(0, marker)));
  rest = trim(created_by.substr(marker + 9));
  if (!rest.empty() && (rest.front() == 'v' || rest.front() == 'V')) rest.remove_prefix(1);
  int parts[3] = {0, 0, 0};
  size_t pos = 0;
  int count = 0;
  while (count < 3) {
    size_t start = pos;
    int64_t value = 0;
    while (pos < rest.size() && rest[pos] >= '0' && rest[pos] <= '9' && pos - start < 9) {
      value = value * 10 + (rest[pos] - '0');
      pos++;
    }
    if (pos == start) break;
    parts[count++] = static_cast<int>(value);
    if (pos < rest.size() && rest[pos] == '.' && pos + 1 < rest.size() && rest[pos + 1] >= '0' && rest[pos + 1] <= '9') {
      pos++;
    } else {
      break;
    }
  }
  if (count == 0) return w;
  w.has_version = true;
  w.major = parts[0];
  w.minor = parts[1];
  w.patch = parts[2];
  // Anything glued to the number ("-SNAPSHOT", "rc1") marks a pre-release; a space or the
  // end of the string does not.
  w.pre_release = pos < rest.size() && rest[pos] != ' ' && rest[pos] != '(';
  return w;
}

ColumnSortOrder TypeDefinedSortOrder(const SchemaNode& leaf) { return TypeOrderOf(leaf).order; }

ValueComparison TypeDefinedComparison(const SchemaNode& leaf) {
  if (!leaf.physical_type.has_value()) return ValueComparison::kNone;
  return ComparisonOf(TypeOrderOf(leaf), *leaf.physical_type);
}

StatisticsContext MakeStatisticsContext(const SchemaNode& leaf, const ColumnOrder* column_order,
                                        const WriterVersion& writer) {
  StatisticsContext c;
  if (!leaf.physical_type.has_value()) return c;
  const Type physical = *leaf.physical_type;
  const TypeOrder t = TypeOrderOf(leaf);
  c.physical_type = physical;
  c.type_length = leaf.type_length;
  c.unsigned_integer = t.unsigned_integer;
  c.float16 = t.float16;
  c.type_comparison = ComparisonOf(t, physical);
  const bool floating = c.type_comparison == ValueComparison::kFloatingPoint;

  const ColumnOrder::Kind order_kind = column_order ? column_order->kind : ColumnOrder::Kind::TYPE_DEFINED_ORDER;
  switch (order_kind) {
    case ColumnOrder::Kind::TYPE_DEFINED_ORDER:
      c.sort_order = t.order;
      c.comparison = c.type_comparison;
      break;
    case ColumnOrder::Kind::IEEE_754_TOTAL_ORDER:
      if (floating) {
        c.sort_order = ColumnSortOrder::kSigned;
        c.comparison = ValueComparison::kFloatingPoint;
      }
      break;
    case ColumnOrder::Kind::INT96_TIMESTAMP_ORDER:
      if (physical == Type::INT96) {
        c.sort_order = ColumnSortOrder::kSigned;
        c.comparison = ValueComparison::kInt96Timestamp;
      }
      break;
    default:
      break;  // an order this reader does not know: min_value/max_value are unusable
  }

  // The deprecated min/max are in signed order, whatever the column order says.
  const bool plain_signed = physical == Type::BOOLEAN || physical == Type::INT32 || physical == Type::INT64 ||
                            physical == Type::FLOAT || physical == Type::DOUBLE;
  c.deprecated_min_max_usable = plain_signed && t.order == ColumnSortOrder::kSigned;
  // PARQUET-251: parquet-mr before 1.8.0 could write corrupt binary statistics.
  const bool parquet_251 = IsByteArray(physical) && writer.application == "parquet-mr" && writer.Before(1, 8, 0);
  c.deprecated_equal_usable = c.type_comparison != ValueComparison::kNone && !parquet_251;
  return c;
}

StatisticsContext MakeStatisticsContext(const FileMetaData& metadata, const Schema& schema, int leaf_index) {
  const ColumnDescriptor& column = schema.column(leaf_index);
  const ColumnOrder* order = nullptr;
  if (metadata.column_orders.has_value() && static_cast<size_t>(leaf_index) < metadata.column_orders->size()) {
    order = &(*metadata.column_orders)[static_cast<size_t>(leaf_index)];
  }
  const WriterVersion writer = ParseCreatedBy(metadata.created_by.value_or(""));
  return MakeStatisticsContext(schema.node(column.node), order, writer);
}

bool DecodeStatisticsValue(std::string_view plain, const StatisticsContext& context, StatisticsValue* out) {
  *out = StatisticsValue();
  out->physical_type = context.physical_type;
  const auto* p = reinterpret_cast<const uint8_t*>(plain.data());
  switch (context.physical_type) {
    case Type::BOOLEAN:
      if (plain.size() != 1) return false;
      out->boolean = (p[0] & 1) != 0;
      out->integer = out->boolean ? 1 : 0;
      return true;
    case Type::INT32: {
      if (plain.size() != 4) return false;
      uint32_t bits;
      std::memcpy(&bits, p, 4);
      out->integer = context.unsigned_integer ? static_cast<int64_t>(bits)
                                              : static_cast<int64_t>(static_cast<int32_t>(bits));
      return true;
    }
    case Type::INT64: {
      if (plain.size() != 8) return false;
      uint64_t bits;
      std::memcpy(&bits, p, 8);
      out->integer = static_cast<int64_t>(bits);
      return true;
    }
    case Type::INT96:
      if (plain.size() != 12) return false;
      std::memcpy(out->int96.words, p, 12);
      return true;
    case Type::FLOAT: {
      if (plain.size() != 4) return false;
      float f;
      std::memcpy(&f, p, 4);
      out->real = f;
      return true;
    }
    case Type::DOUBLE:
      if (plain.size() != 8) return false;
      std::memcpy(&out->real, p, 8);
      return true;
    case Type::BYTE_ARRAY:
    case Type::FIXED_LEN_BYTE_ARRAY:
      if (context.float16) {
        if (plain.size() != 2) return false;
        out->real = HalfToDouble(static_cast<uint16_t>(p[0] | (p[1] << 8)));
      }
      out->bytes = std::string(plain);
      return true;
  }
  return false;
}

int CompareStatisticsValues(const StatisticsValue& a, const StatisticsValue& b, ValueComparison comparison) {
  switch (comparison) {
    case ValueComparison::kNone: return 0;
    case ValueComparison::kBoolean: return Three<int>(a.boolean, b.boolean);
    case ValueComparison::kSignedInteger: return Three(a.integer, b.integer);
    case ValueComparison::kUnsignedInteger:
      return Three(static_cast<uint64_t>(a.integer), static_cast<uint64_t>(b.integer));
    case ValueComparison::kFloatingPoint: return Three(a.real, b.real);
    case ValueComparison::kSignedBigEndian: return CompareSignedBigEndian(a.bytes, b.bytes);
    case ValueComparison::kUnsignedBytes: return CompareUnsignedBytes(a.bytes, b.bytes);
    case ValueComparison::kInt96Timestamp: {
      const int c = Three(static_cast<int32_t>(a.int96.words[2]), static_cast<int32_t>(b.int96.words[2]));
      return c != 0 ? c : Three(Int96Nanos(a.int96), Int96Nanos(b.int96));
    }
  }
  return 0;
}

DecodedStatistics DecodeStatistics(const Statistics& statistics, const StatisticsContext& context) {
  DecodedStatistics d;
  d.null_count = Count(statistics.null_count);
  d.distinct_count = Count(statistics.distinct_count);
  if (context.type_comparison == ValueComparison::kFloatingPoint) d.nan_count = Count(statistics.nan_count);

  if ((statistics.min_value.has_value() || statistics.max_value.has_value()) &&
      context.comparison != ValueComparison::kNone) {
    d.comparison = context.comparison;
    d.source = StatisticsSource::kMinMaxValue;
    if (statistics.min_value.has_value()) {
      d.min = MakeBound(*statistics.min_value, context, d.comparison, true, statistics.is_min_value_exact.value_or(false));
    }
    if (statistics.max_value.has_value()) {
      d.max = MakeBound(*statistics.max_value, context, d.comparison, false, statistics.is_max_value_exact.value_or(false));
    }
    if (d.min.has_value() || d.max.has_value()) return d;
    // Nothing usable (e.g. both NaN): the deprecated fields may still say something.
    d.comparison = ValueComparison::kNone;
    d.source = StatisticsSource::kNone;
  }

  if (statistics.min.has_value() || statistics.max.has_value()) {
    const bool equal = statistics.min.has_value() && statistics.max.has_value() && *statistics.min == *statistics.max;
    if (context.deprecated_min_max_usable || (equal && context.deprecated_equal_usable)) {
      d.comparison = context.type_comparison;
      d.source = StatisticsSource::kDeprecatedMinMax;
      if (statistics.min.has_value()) d.min = MakeBound(*statistics.min, context, d.comparison, true, false);
      if (statistics.max.has_value()) d.max = MakeBound(*statistics.max, context, d.comparison, false, false);
      if (!d.min.has_value() && !d.max.has_value()) {
        d.comparison = ValueComparison::kNone;
        d.source = StatisticsSource::kNone;
      }
    }
  }
  return d;
}

DecodedStatistics DecodeColumnIndexEntry(const ColumnIndex& index, size_t page, const StatisticsContext& context) {
  if (page >= index.null_pages.size()) {
    throw ParquetError("column index has " + std::to_string(index.null_pages.size()) + " pages, page " +
                       std::to_string(page) + " was asked for");
  }
  if (index.min_values.size() < index.null_pages.size() || index.max_values.size() < index.null_pages.size()) {
    throw ParquetError("corrupt column index: " + std::to_string(index.null_pages.size()) + " pages but " +
                       std::to_string(index.min_values.size()) + " min values and " +
                       std::to_string(index.max_values.size()) + " max values");
  }
  DecodedStatistics d;
  const size_t pages = index.null_pages.size();
  if (index.null_counts.has_value() && index.null_counts->size() == pages) d.null_count = Count((*index.null_counts)[page]);
  if (context.type_comparison == ValueComparison::kFloatingPoint && index.nan_counts.has_value() &&
      index.nan_counts->size() == pages) {
    d.nan_count = Count((*index.nan_counts)[page]);
  }
  d.all_null = index.null_pages[page];
  if (d.all_null || context.comparison == ValueComparison::kNone) return d;
  d.comparison = context.comparison;
  d.source = StatisticsSource::kColumnIndex;
  d.min = MakeBound(index.min_values[page], context, d.comparison, true, false);
  d.max = MakeBound(index.max_values[page], context, d.comparison, false, false);
  if (!d.min.has_value() && !d.max.has_value()) {
    d.comparison = ValueComparison::kNone;
    d.source = StatisticsSource::kNone;
  }
  return d;
}

}  // namespace parquet

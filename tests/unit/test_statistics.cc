// Tests of statistics decoding: sort orders per type (every physical / logical / converted
// combination, and the writer's answer beside the reader's), which min/max fields are trusted
// (deprecated signed fields, PARQUET-251), NaN and signed zeros, exactness, counts, the
// page index, created_by parsing, and real corpus files.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "format/common/error.h"
#include "format/read/file_reader.h"
#include "format/index/statistics.h"
#include "format/write/write_statistics.h"

using namespace parquet;

namespace {

const std::string kDataDir = "../shared/parquet-testing/data/";

SchemaNode Leaf(Type type, int32_t type_length = 0) {
  SchemaNode node;
  node.name = "x";
  node.physical_type = type;
  node.type_length = type_length;
  return node;
}

SchemaNode WithConverted(SchemaNode node, ConvertedType converted, int32_t scale = 0, int32_t precision = 0) {
  node.converted_type = converted;
  node.scale = scale;
  node.precision = precision;
  return node;
}

SchemaNode WithLogical(SchemaNode node, LogicalType::Kind kind) {
  LogicalType t;
  t.kind = kind;
  node.logical_type = t;
  return node;
}

SchemaNode UnsignedInt(Type type, int8_t bits) {
  SchemaNode node = Leaf(type);
  LogicalType t;
  t.kind = LogicalType::Kind::INTEGER;
  t.int_bit_width = bits;
  t.int_is_signed = false;
  node.logical_type = t;
  return node;
}

std::string Int32Bytes(int32_t v) {
  std::string s(4, '\0');
  std::memcpy(s.data(), &v, 4);
  return s;
}

std::string Int64Bytes(int64_t v) {
  std::string s(8, '\0');
  std::memcpy(s.data(), &v, 8);
  return s;
}

std::string DoubleBytes(double v) {
  std::string s(8, '\0');
  std::memcpy(s.data(), &v, 8);
  return s;
}

std::string FloatBytes(float v) {
  std::string s(4, '\0');
  std::memcpy(s.data(), &v, 4);
  return s;
}

StatisticsContext Context(const SchemaNode& node, const char* created_by = "parquet-cpp-arrow version 16.1.0",
                          const ColumnOrder* order = nullptr) {
  return MakeStatisticsContext(node, order, ParseCreatedBy(created_by));
}

Statistics Deprecated(const std::string& min, const std::string& max) {
  Statistics s;
  s.min = min;
  s.max = max;
  return s;
}

Statistics Current(const std::string& min, const std::string& max) {
  Statistics s;
  s.min_value = min;
  s.max_value = max;
  return s;
}

// The spec's sort order (LogicalTypes.md "Sort Order", parquet.thrift ColumnOrder) of a leaf
// of physical type `physical` (FIXED_LEN_BYTE_ARRAY of `length` bytes) annotated with
// `annotation`, a name of the table below. An annotation on a physical type it does not
// fit gives no order. Text annotations are taken on FIXED_LEN_BYTE_ARRAY as well as on
// BYTE_ARRAY (lenient, as other readers are).
ValueComparison SpecComparison(Type physical, int32_t length, const std::string& annotation) {
  const bool bytes = physical == Type::BYTE_ARRAY || physical == Type::FIXED_LEN_BYTE_ARRAY;
  const bool integer = physical == Type::INT32 || physical == Type::INT64;
  const auto when = [](bool fits, ValueComparison comparison) { return fits ? comparison : ValueComparison::kNone; };
  if (annotation.empty()) {
    switch (physical) {
      case Type::BOOLEAN: return ValueComparison::kBoolean;
      case Type::INT32:
      case Type::INT64: return ValueComparison::kSignedInteger;
      case Type::FLOAT:
      case Type::DOUBLE: return ValueComparison::kFloatingPoint;
      case Type::BYTE_ARRAY:
      case Type::FIXED_LEN_BYTE_ARRAY: return ValueComparison::kUnsignedBytes;
      case Type::INT96: return ValueComparison::kNone;  // only under INT96_TIMESTAMP_ORDER
    }
  }
  if (annotation == "text") return when(bytes, ValueComparison::kUnsignedBytes);
  if (annotation == "uuid") return when(physical == Type::FIXED_LEN_BYTE_ARRAY, ValueComparison::kUnsignedBytes);
  if (annotation == "decimal") {
    return integer ? ValueComparison::kSignedInteger : when(bytes, ValueComparison::kSignedBigEndian);
  }
  if (annotation == "date") return when(physical == Type::INT32, ValueComparison::kSignedInteger);
  if (annotation == "time-millis") return when(physical == Type::INT32, ValueComparison::kSignedInteger);
  if (annotation == "time-micros-nanos") return when(physical == Type::INT64, ValueComparison::kSignedInteger);
  if (annotation == "timestamp") return when(physical == Type::INT64, ValueComparison::kSignedInteger);
  if (annotation == "signed") return when(integer, ValueComparison::kSignedInteger);
  if (annotation == "unsigned") return when(integer, ValueComparison::kUnsignedInteger);
  if (annotation == "float16") {
    return when(physical == Type::FIXED_LEN_BYTE_ARRAY && length == 2, ValueComparison::kFloatingPoint);
  }
  REQUIRE(annotation == "unordered");  // UNKNOWN, nested, VARIANT, geospatial, VECTOR, INTERVAL
  return ValueComparison::kNone;
}

LogicalType Logical(LogicalType::Kind kind) {
  LogicalType t;
  t.kind = kind;
  return t;
}

struct Annotation {
  std::string spec;  // SpecComparison's name for it
  std::optional<LogicalType> logical;
  std::optional<ConvertedType> converted;
};

std::vector<Annotation> EveryAnnotation() {
  using K = LogicalType::Kind;
  std::vector<Annotation> all = {{"", std::nullopt, std::nullopt}};
  const std::map<K, std::string> plain = {
      {K::STRING, "text"},     {K::ENUM, "text"},          {K::JSON, "text"},       {K::BSON, "text"},
      {K::UUID, "uuid"},       {K::DATE, "date"},          {K::FLOAT16, "float16"}, {K::UNKNOWN, "unordered"},
      {K::MAP, "unordered"},   {K::LIST, "unordered"},     {K::VARIANT, "unordered"},
      {K::GEOMETRY, "unordered"}, {K::GEOGRAPHY, "unordered"}, {K::VECTOR, "unordered"}};
  for (const auto& [kind, spec] : plain) all.push_back({spec, Logical(kind), std::nullopt});
  LogicalType decimal = Logical(K::DECIMAL);
  decimal.decimal_precision = 9;
  decimal.decimal_scale = 2;
  all.push_back({"decimal", decimal, std::nullopt});
  for (TimeUnit unit : {TimeUnit::MILLIS, TimeUnit::MICROS, TimeUnit::NANOS}) {
    LogicalType time = Logical(K::TIME);
    time.time_unit = unit;
    all.push_back({unit == TimeUnit::MILLIS ? "time-millis" : "time-micros-nanos", time, std::nullopt});
    LogicalType timestamp = Logical(K::TIMESTAMP);
    timestamp.time_unit = unit;
    all.push_back({"timestamp", timestamp, std::nullopt});
  }
  for (int8_t bits : {8, 16, 32, 64}) {
    for (bool is_signed : {true, false}) {
      LogicalType integer = Logical(K::INTEGER);
      integer.int_bit_width = bits;
      integer.int_is_signed = is_signed;
      all.push_back({is_signed ? "signed" : "unsigned", integer, std::nullopt});
    }
  }
  using C = ConvertedType;
  const std::map<C, std::string> converted = {
      {C::UTF8, "text"},           {C::MAP, "unordered"},         {C::MAP_KEY_VALUE, "unordered"},
      {C::LIST, "unordered"},      {C::ENUM, "text"},             {C::DECIMAL, "decimal"},
      {C::DATE, "date"},           {C::TIME_MILLIS, "time-millis"}, {C::TIME_MICROS, "time-micros-nanos"},
      {C::TIMESTAMP_MILLIS, "timestamp"}, {C::TIMESTAMP_MICROS, "timestamp"},
      {C::UINT_8, "unsigned"},     {C::UINT_16, "unsigned"},      {C::UINT_32, "unsigned"},
      {C::UINT_64, "unsigned"},    {C::INT_8, "signed"},          {C::INT_16, "signed"},
      {C::INT_32, "signed"},       {C::INT_64, "signed"},         {C::JSON, "text"},
      {C::BSON, "text"},           {C::INTERVAL, "unordered"}};
  for (const auto& [type, spec] : converted) {
    all.push_back({spec, std::nullopt, type});
    // A logical type this reader does not know leaves the converted type in charge; a
    // known one overrides it.
    all.push_back({spec, Logical(K::UNRECOGNIZED), type});
  }
  all.push_back({"text", Logical(K::STRING), C::UINT_8});
  all.push_back({"unsigned", Logical(K::UNRECOGNIZED), C::UINT_8});
  all.push_back({"", Logical(K::UNRECOGNIZED), std::nullopt});
  return all;
}

}  // namespace

TEST_CASE("statistics: one sort order for reader and writer, the spec's, for every physical / logical / converted type") {
  struct Physical {
    Type type;
    int32_t length;
  };
  const Physical physicals[] = {{Type::BOOLEAN, 0}, {Type::INT32, 0}, {Type::INT64, 0},
                                {Type::INT96, 0}, {Type::FLOAT, 0}, {Type::DOUBLE, 0},
                                {Type::BYTE_ARRAY, 0}, {Type::FIXED_LEN_BYTE_ARRAY, 2},
                                {Type::FIXED_LEN_BYTE_ARRAY, 12}, {Type::FIXED_LEN_BYTE_ARRAY, 16}};
  const std::vector<Annotation> annotations = EveryAnnotation();
  size_t checked = 0;
  for (const Physical& physical : physicals) {
    for (const Annotation& annotation : annotations) {
      SchemaNode node = Leaf(physical.type, physical.length);
      node.logical_type = annotation.logical;
      node.converted_type = annotation.converted;
      if (annotation.converted == ConvertedType::DECIMAL) {
        node.precision = 9;
        node.scale = 2;
      }
      CAPTURE(ToString(physical.type));
      CAPTURE(physical.length);
      CAPTURE(annotation.logical.has_value() ? static_cast<int>(annotation.logical->kind) : 0);
      CAPTURE(annotation.converted.has_value() ? static_cast<int>(*annotation.converted) : -1);
      const ValueComparison expected = SpecComparison(physical.type, physical.length, annotation.spec);
      const ValueComparison reader = TypeDefinedComparison(node);
      CHECK(reader == expected);
      // The sort order named in metadata output agrees with the comparison.
      const ColumnSortOrder order = TypeDefinedSortOrder(node);
      if (expected == ValueComparison::kNone) {
        CHECK(order == ColumnSortOrder::kUnknown);
      } else if (expected == ValueComparison::kUnsignedInteger || expected == ValueComparison::kUnsignedBytes) {
        CHECK(order == ColumnSortOrder::kUnsigned);
      } else {
        CHECK(order == ColumnSortOrder::kSigned);
      }
      // The writer gathers min/max in that same order; FLOAT16 bounds it does not write.
      const bool float16 = expected == ValueComparison::kFloatingPoint && physical.type == Type::FIXED_LEN_BYTE_ARRAY;
      CHECK(WrittenStatisticsComparison(node) == (float16 ? ValueComparison::kNone : reader));
      checked++;
    }
  }
  // 10 physical types by 1 + 14 + 1 + 6 + 8 + 2 * 22 + 3 annotations.
  CHECK(checked == 10 * 77);
}

TEST_CASE("statistics: type-defined sort orders follow logical, converted, then physical type") {
  CHECK(TypeDefinedSortOrder(Leaf(Type::INT32)) == ColumnSortOrder::kSigned);
  CHECK(TypeDefinedSortOrder(Leaf(Type::BOOLEAN)) == ColumnSortOrder::kSigned);
  CHECK(TypeDefinedSortOrder(Leaf(Type::DOUBLE)) == ColumnSortOrder::kSigned);
  CHECK(TypeDefinedSortOrder(Leaf(Type::BYTE_ARRAY)) == ColumnSortOrder::kUnsigned);
  CHECK(TypeDefinedSortOrder(Leaf(Type::FIXED_LEN_BYTE_ARRAY, 16)) == ColumnSortOrder::kUnsigned);
  CHECK(TypeDefinedSortOrder(Leaf(Type::INT96)) == ColumnSortOrder::kUnknown);
  CHECK(TypeDefinedSortOrder(WithConverted(Leaf(Type::INT32), ConvertedType::UINT_8)) == ColumnSortOrder::kUnsigned);
  CHECK(TypeDefinedSortOrder(WithConverted(Leaf(Type::INT64), ConvertedType::UINT_64)) == ColumnSortOrder::kUnsigned);
  CHECK(TypeDefinedSortOrder(WithConverted(Leaf(Type::INT32), ConvertedType::DATE)) == ColumnSortOrder::kSigned);
  CHECK(TypeDefinedSortOrder(UnsignedInt(Type::INT32, 16)) == ColumnSortOrder::kUnsigned);
  CHECK(TypeDefinedSortOrder(WithLogical(Leaf(Type::BYTE_ARRAY), LogicalType::Kind::STRING)) == ColumnSortOrder::kUnsigned);
  CHECK(TypeDefinedSortOrder(WithConverted(Leaf(Type::FIXED_LEN_BYTE_ARRAY, 12), ConvertedType::INTERVAL)) ==
        ColumnSortOrder::kUnknown);
  CHECK(TypeDefinedSortOrder(WithLogical(Leaf(Type::BYTE_ARRAY), LogicalType::Kind::GEOMETRY)) == ColumnSortOrder::kUnknown);
  // An annotation that does not fit the physical type gives no order at all.
  CHECK(TypeDefinedSortOrder(WithLogical(Leaf(Type::BYTE_ARRAY), LogicalType::Kind::DATE)) == ColumnSortOrder::kUnknown);
  CHECK(TypeDefinedSortOrder(WithLogical(Leaf(Type::FIXED_LEN_BYTE_ARRAY, 4), LogicalType::Kind::FLOAT16)) ==
        ColumnSortOrder::kUnknown);

  CHECK(TypeDefinedComparison(WithConverted(Leaf(Type::FIXED_LEN_BYTE_ARRAY, 8), ConvertedType::DECIMAL, 2, 10)) ==
        ValueComparison::kSignedBigEndian);
  CHECK(TypeDefinedComparison(WithConverted(Leaf(Type::INT64), ConvertedType::DECIMAL, 2, 10)) ==
        ValueComparison::kSignedInteger);
  CHECK(TypeDefinedComparison(WithLogical(Leaf(Type::FIXED_LEN_BYTE_ARRAY, 2), LogicalType::Kind::FLOAT16)) ==
        ValueComparison::kFloatingPoint);
  CHECK(TypeDefinedComparison(UnsignedInt(Type::INT64, 64)) == ValueComparison::kUnsignedInteger);
  CHECK(TypeDefinedComparison(Leaf(Type::BOOLEAN)) == ValueComparison::kBoolean);
  CHECK(std::string(ToString(ColumnSortOrder::kUnsigned)) == "unsigned");
}

TEST_CASE("statistics: created_by gives the application and version") {
  WriterVersion mr = ParseCreatedBy("parquet-mr version 1.8.1 (build 4aba4dae7bb0d4edbcf7923ae1339f28fd3f7fcf)");
  CHECK(mr.application == "parquet-mr");
  CHECK(mr.has_version);
  CHECK(mr.major == 1);
  CHECK(mr.minor == 8);
  CHECK(mr.patch == 1);
  CHECK_FALSE(mr.pre_release);
  CHECK_FALSE(mr.Before(1, 8, 0));
  CHECK(mr.Before(1, 10, 0));

  WriterVersion snapshot = ParseCreatedBy("parquet-mr version 1.8.0-SNAPSHOT");
  CHECK(snapshot.pre_release);
  CHECK(snapshot.Before(1, 8, 0));
  CHECK_FALSE(snapshot.Before(1, 7, 9));

  WriterVersion impala = ParseCreatedBy("impala version 1.3.0-INTERNAL (build 8a48ddb1eff84592b3fc06bc6f51ec120e1fffc9)");
  CHECK(impala.application == "impala");
  CHECK(impala.minor == 3);

  WriterVersion duck = ParseCreatedBy("DuckDB version v1.1.3 (build 19864453f7)");
  CHECK(duck.application == "DuckDB");
  CHECK(duck.major == 1);
  CHECK(duck.patch == 3);

  WriterVersion two_parts = ParseCreatedBy("parquet-rs version 53.0");
  CHECK(two_parts.major == 53);
  CHECK(two_parts.minor == 0);
  CHECK_FALSE(two_parts.pre_release);

  WriterVersion bare = ParseCreatedBy("parquet-mr");
  CHECK(bare.application == "parquet-mr");
  CHECK_FALSE(bare.has_version);
  CHECK(bare.Before(1, 0, 0));  // an unknown version never counts as fixed

  CHECK_FALSE(ParseCreatedBy("").has_version);
  CHECK_FALSE(ParseCreatedBy("x version beta").has_version);
}

TEST_CASE("statistics: min_value/max_value of a signed integer column") {
  const StatisticsContext c = Context(Leaf(Type::INT32));
  Statistics s = Current(Int32Bytes(-5), Int32Bytes(42));
  s.null_count = 3;
  s.distinct_count = 7;
  s.is_min_value_exact = true;
  DecodedStatistics d = DecodeStatistics(s, c);
  CHECK(d.source == StatisticsSource::kMinMaxValue);
  CHECK(d.comparison == ValueComparison::kSignedInteger);
  REQUIRE(d.min.has_value());
  REQUIRE(d.max.has_value());
  CHECK(d.min->value.integer == -5);
  CHECK(d.max->value.integer == 42);
  CHECK(d.min->exact);
  CHECK_FALSE(d.max->exact);  // no flag: not known to be exact
  CHECK(d.null_count == 3);
  CHECK(d.distinct_count == 7);
  CHECK_FALSE(d.nan_count.has_value());
  CHECK(CompareStatisticsValues(d.min->value, d.max->value, d.comparison) < 0);
}

TEST_CASE("statistics: deprecated min/max are used only where signed order is the column's order") {
  // Signed integers, floats, booleans: usable.
  DecodedStatistics ints = DecodeStatistics(Deprecated(Int64Bytes(-1), Int64Bytes(9)), Context(Leaf(Type::INT64)));
  CHECK(ints.source == StatisticsSource::kDeprecatedMinMax);
  REQUIRE(ints.min.has_value());
  CHECK(ints.min->value.integer == -1);
  CHECK_FALSE(ints.min->exact);
  DecodedStatistics bools = DecodeStatistics(Deprecated(std::string(1, '\0'), std::string(1, '\1')), Context(Leaf(Type::BOOLEAN)));
  REQUIRE(bools.max.has_value());
  CHECK(bools.max->value.boolean);
  CHECK_FALSE(bools.min->value.boolean);
  DecodedStatistics dates =
      DecodeStatistics(Deprecated(Int32Bytes(1), Int32Bytes(2)), Context(WithConverted(Leaf(Type::INT32), ConvertedType::DATE)));
  CHECK(dates.source == StatisticsSource::kDeprecatedMinMax);

  // Unsigned integers: the signed order is wrong (0xFFFFFFFF sorts below 0).
  const StatisticsContext u32 = Context(WithConverted(Leaf(Type::INT32), ConvertedType::UINT_32));
  DecodedStatistics unsigned_deprecated = DecodeStatistics(Deprecated(Int32Bytes(-1), Int32Bytes(5)), u32);
  CHECK(unsigned_deprecated.source == StatisticsSource::kNone);
  CHECK_FALSE(unsigned_deprecated.min.has_value());
  CHECK_FALSE(unsigned_deprecated.max.has_value());

  // Strings and decimals in byte arrays: not usable when min and max differ.
  const StatisticsContext strings = Context(WithConverted(Leaf(Type::BYTE_ARRAY), ConvertedType::UTF8));
  CHECK(DecodeStatistics(Deprecated("abc", "xyz"), strings).source == StatisticsSource::kNone);
  const StatisticsContext decimals = Context(WithConverted(Leaf(Type::FIXED_LEN_BYTE_ARRAY, 2), ConvertedType::DECIMAL, 1, 4));
  CHECK(DecodeStatistics(Deprecated(std::string("\x00\x01", 2), std::string("\x01\x00", 2)), decimals).source ==
        StatisticsSource::kNone);
  CHECK(DecodeStatistics(Deprecated(Int32Bytes(1), Int32Bytes(9)),
                         Context(WithConverted(Leaf(Type::INT32), ConvertedType::DECIMAL, 2, 5)))
            .source == StatisticsSource::kDeprecatedMinMax);
}

TEST_CASE("statistics: equal deprecated min and max hold whatever the order, except PARQUET-251") {
  const SchemaNode text = WithConverted(Leaf(Type::BYTE_ARRAY), ConvertedType::UTF8);
  DecodedStatistics same = DecodeStatistics(Deprecated("abc", "abc"), Context(text, "parquet-mr version 1.8.1 (build x)"));
  CHECK(same.source == StatisticsSource::kDeprecatedMinMax);
  CHECK(same.comparison == ValueComparison::kUnsignedBytes);
  REQUIRE(same.min.has_value());
  CHECK(same.min->value.bytes == "abc");

  // parquet-mr before 1.8.0 could write corrupt binary statistics: ignored.
  CHECK(DecodeStatistics(Deprecated("abc", "abc"), Context(text, "parquet-mr version 1.7.0 (build x)")).source ==
        StatisticsSource::kNone);
  CHECK(DecodeStatistics(Deprecated("abc", "abc"), Context(text, "parquet-mr version 1.8.0-SNAPSHOT")).source ==
        StatisticsSource::kNone);
  // Other writers of the same era are not affected.
  CHECK(DecodeStatistics(Deprecated("abc", "abc"), Context(text, "parquet-cpp version 1.2.0")).source ==
        StatisticsSource::kDeprecatedMinMax);

  const StatisticsContext u32 = Context(WithConverted(Leaf(Type::INT32), ConvertedType::UINT_32));
  DecodedStatistics unsigned_equal = DecodeStatistics(Deprecated(Int32Bytes(-1), Int32Bytes(-1)), u32);
  REQUIRE(unsigned_equal.min.has_value());
  CHECK(unsigned_equal.min->value.integer == 4294967295LL);
  // INT96 has no type-defined order: nothing, not even equal values.
  CHECK(DecodeStatistics(Deprecated(std::string(12, '\1'), std::string(12, '\1')), Context(Leaf(Type::INT96))).source ==
        StatisticsSource::kNone);
}

TEST_CASE("statistics: min_value/max_value of unsigned, decimal and byte-array columns compare in their order") {
  const StatisticsContext u32 = Context(UnsignedInt(Type::INT32, 32));
  DecodedStatistics d = DecodeStatistics(Current(Int32Bytes(7), Int32Bytes(-1)), u32);
  CHECK(d.comparison == ValueComparison::kUnsignedInteger);
  REQUIRE(d.max.has_value());
  CHECK(d.max->value.integer == 4294967295LL);
  CHECK(CompareStatisticsValues(d.min->value, d.max->value, d.comparison) < 0);

  const StatisticsContext u64 = Context(UnsignedInt(Type::INT64, 64));
  DecodedStatistics big = DecodeStatistics(Current(Int64Bytes(1), Int64Bytes(-2)), u64);
  REQUIRE(big.max.has_value());
  CHECK(static_cast<uint64_t>(big.max->value.integer) == 0xFFFFFFFFFFFFFFFEULL);
  CHECK(CompareStatisticsValues(big.min->value, big.max->value, big.comparison) < 0);

  // DECIMAL(5,2) in FIXED_LEN_BYTE_ARRAY(3): -1.00 < 2.56 although 0xFF.. > 0x00.. as bytes.
  const StatisticsContext dec = Context(WithConverted(Leaf(Type::FIXED_LEN_BYTE_ARRAY, 3), ConvertedType::DECIMAL, 2, 5));
  DecodedStatistics decimal =
      DecodeStatistics(Current(std::string("\xFF\xFF\x9C", 3), std::string("\x00\x01\x00", 3)), dec);
  CHECK(decimal.comparison == ValueComparison::kSignedBigEndian);
  REQUIRE(decimal.min.has_value());
  CHECK(CompareStatisticsValues(decimal.min->value, decimal.max->value, decimal.comparison) < 0);

  // Strings: unsigned bytes, so "\xC3\xA9" (é) sorts after "z"; a truncated bound keeps its flag.
  const StatisticsContext text = Context(WithLogical(Leaf(Type::BYTE_ARRAY), LogicalType::Kind::STRING));
  Statistics s = Current("Al", "\xC3\xA9t");
  s.is_min_value_exact = false;
  s.is_max_value_exact = true;
  DecodedStatistics strings = DecodeStatistics(s, text);
  CHECK(strings.comparison == ValueComparison::kUnsignedBytes);
  CHECK_FALSE(strings.min->exact);
  CHECK(strings.max->exact);
  CHECK(CompareStatisticsValues(StatisticsValue::Bytes(Type::BYTE_ARRAY, "z"), strings.max->value, strings.comparison) < 0);
}

TEST_CASE("statistics: NaN bounds are ignored, zero bounds cover both zeros") {
  const StatisticsContext doubles = Context(Leaf(Type::DOUBLE));
  Statistics nan_max = Current(DoubleBytes(1.0), DoubleBytes(std::nan("")));
  nan_max.nan_count = 1;
  DecodedStatistics d = DecodeStatistics(nan_max, doubles);
  REQUIRE(d.min.has_value());
  CHECK(d.min->value.real == 1.0);
  CHECK_FALSE(d.max.has_value());
  CHECK(d.nan_count == 1);

  // Both NaN: nothing usable from min_value/max_value; the deprecated fields are tried next.
  Statistics both = Current(DoubleBytes(std::nan("")), DoubleBytes(std::nan("")));
  both.min = DoubleBytes(0.5);
  both.max = DoubleBytes(2.5);
  DecodedStatistics fallback = DecodeStatistics(both, doubles);
  CHECK(fallback.source == StatisticsSource::kDeprecatedMinMax);
  CHECK(fallback.max->value.real == 2.5);

  DecodedStatistics zeros = DecodeStatistics(Current(FloatBytes(0.0f), FloatBytes(-0.0f)), Context(Leaf(Type::FLOAT)));
  REQUIRE(zeros.min.has_value());
  REQUIRE(zeros.max.has_value());
  CHECK(std::signbit(zeros.min->value.real));
  CHECK_FALSE(std::signbit(zeros.max->value.real));

  // FLOAT16: decoded from its two bytes; a zero minimum becomes -0 in the bytes too.
  const StatisticsContext half = Context(WithLogical(Leaf(Type::FIXED_LEN_BYTE_ARRAY, 2), LogicalType::Kind::FLOAT16));
  DecodedStatistics h = DecodeStatistics(Current(std::string("\x00\x00", 2), std::string("\x00\x3C", 2)), half);
  REQUIRE(h.min.has_value());
  CHECK(std::signbit(h.min->value.real));
  CHECK(h.min->value.bytes == std::string("\x00\x80", 2));
  CHECK(h.max->value.real == 1.0);
  CHECK_FALSE(DecodeStatistics(Current(std::string("\x00\x7E", 2), std::string("\x00\x7E", 2)), half).min.has_value());

  // nan_count is kept for floating-point columns only.
  Statistics ints = Current(Int32Bytes(1), Int32Bytes(2));
  ints.nan_count = 0;
  CHECK_FALSE(DecodeStatistics(ints, Context(Leaf(Type::INT32))).nan_count.has_value());
}

TEST_CASE("statistics: column orders decide whether min_value/max_value are usable") {
  ColumnOrder unknown;
  unknown.kind = ColumnOrder::Kind::UNRECOGNIZED;
  Statistics s = Current(Int32Bytes(3), Int32Bytes(4));
  s.min = Int32Bytes(1);
  s.max = Int32Bytes(9);
  // An unknown order: min_value/max_value are ignored, the signed deprecated fields hold.
  DecodedStatistics d = DecodeStatistics(s, Context(Leaf(Type::INT32), "x", &unknown));
  CHECK(d.source == StatisticsSource::kDeprecatedMinMax);
  CHECK(d.min->value.integer == 1);

  ColumnOrder ieee;
  ieee.kind = ColumnOrder::Kind::IEEE_754_TOTAL_ORDER;
  CHECK(Context(Leaf(Type::INT32), "x", &ieee).comparison == ValueComparison::kNone);
  CHECK(Context(Leaf(Type::DOUBLE), "x", &ieee).comparison == ValueComparison::kFloatingPoint);

  ColumnOrder int96;
  int96.kind = ColumnOrder::Kind::INT96_TIMESTAMP_ORDER;
  const StatisticsContext ts = Context(Leaf(Type::INT96), "x", &int96);
  CHECK(ts.comparison == ValueComparison::kInt96Timestamp);
  CHECK(ts.sort_order == ColumnSortOrder::kSigned);
  // Day 2440588 at 23:00 is before day 2440589 at 00:00; within a day, nanoseconds decide.
  std::string early(12, '\0'), late(12, '\0');
  const int64_t eleven_pm = 23LL * 3600 * 1000000000;
  const uint32_t day1 = 2440588, day2 = 2440589;
  std::memcpy(early.data(), &eleven_pm, 8);
  std::memcpy(early.data() + 8, &day1, 4);
  std::memcpy(late.data() + 8, &day2, 4);
  DecodedStatistics t = DecodeStatistics(Current(early, late), ts);
  REQUIRE(t.min.has_value());
  CHECK(CompareStatisticsValues(t.min->value, t.max->value, t.comparison) < 0);
  CHECK(DecodeStatistics(Current(early, late), Context(Leaf(Type::INT96))).source == StatisticsSource::kNone);
}

TEST_CASE("statistics: malformed values and counts are dropped") {
  Statistics s = Current(std::string("\x01\x02", 2), Int32Bytes(5));
  s.null_count = -1;
  s.distinct_count = -3;
  DecodedStatistics d = DecodeStatistics(s, Context(Leaf(Type::INT32)));
  CHECK_FALSE(d.min.has_value());
  REQUIRE(d.max.has_value());
  CHECK(d.max->value.integer == 5);
  CHECK_FALSE(d.null_count.has_value());
  CHECK_FALSE(d.distinct_count.has_value());

  StatisticsValue v;
  CHECK_FALSE(DecodeStatisticsValue(std::string(3, '\0'), Context(Leaf(Type::INT32)), &v));
  CHECK_FALSE(DecodeStatisticsValue(std::string(4, '\0'), Context(Leaf(Type::DOUBLE)), &v));
  CHECK_FALSE(DecodeStatisticsValue("", Context(Leaf(Type::BOOLEAN)), &v));
  CHECK(DecodeStatisticsValue("", Context(Leaf(Type::BYTE_ARRAY)), &v));
  CHECK(v.bytes.empty());
  CHECK(DecodeStatistics(Statistics(), Context(Leaf(Type::INT32))).source == StatisticsSource::kNone);
}

TEST_CASE("statistics: comparisons of values") {
  using V = StatisticsValue;
  CHECK(CompareStatisticsValues(V::Bytes(Type::BYTE_ARRAY, "ab"), V::Bytes(Type::BYTE_ARRAY, "abc"),
                                ValueComparison::kUnsignedBytes) < 0);
  CHECK(CompareStatisticsValues(V::Bytes(Type::BYTE_ARRAY, "\x80"), V::Bytes(Type::BYTE_ARRAY, "\x7F"),
                                ValueComparison::kUnsignedBytes) > 0);
  CHECK(CompareStatisticsValues(V::Bytes(Type::BYTE_ARRAY, "x"), V::Bytes(Type::BYTE_ARRAY, "x"),
                                ValueComparison::kUnsignedBytes) == 0);
  // Two's complement of different lengths: -1 (FF) == -1 (FFFF), 1 (01) < 256 (0100), -2 < 1.
  CHECK(CompareStatisticsValues(V::Bytes(Type::BYTE_ARRAY, "\xFF"), V::Bytes(Type::BYTE_ARRAY, "\xFF\xFF"),
                                ValueComparison::kSignedBigEndian) == 0);
  CHECK(CompareStatisticsValues(V::Bytes(Type::BYTE_ARRAY, "\x01"), V::Bytes(Type::BYTE_ARRAY, std::string("\x01\x00", 2)),
                                ValueComparison::kSignedBigEndian) < 0);
  CHECK(CompareStatisticsValues(V::Bytes(Type::BYTE_ARRAY, "\xFE"), V::Bytes(Type::BYTE_ARRAY, "\x01"),
                                ValueComparison::kSignedBigEndian) < 0);
  CHECK(CompareStatisticsValues(V::Bytes(Type::BYTE_ARRAY, ""), V::Bytes(Type::BYTE_ARRAY, std::string(2, '\0')),
                                ValueComparison::kSignedBigEndian) == 0);
  CHECK(CompareStatisticsValues(V::Integer(Type::INT64, -1), V::Integer(Type::INT64, 1), ValueComparison::kSignedInteger) < 0);
  CHECK(CompareStatisticsValues(V::Integer(Type::INT64, -1), V::Integer(Type::INT64, 1), ValueComparison::kUnsignedInteger) > 0);
  CHECK(CompareStatisticsValues(V::Real(Type::DOUBLE, -0.0), V::Real(Type::DOUBLE, 0.0), ValueComparison::kFloatingPoint) == 0);
  CHECK(CompareStatisticsValues(V::Integer(Type::INT32, 1), V::Integer(Type::INT32, 2), ValueComparison::kNone) == 0);
}

TEST_CASE("statistics: page index entries") {
  ColumnIndex index;
  index.null_pages = {false, true, false};
  index.min_values = {Int64Bytes(1), "", DoubleBytes(0)};
  index.max_values = {Int64Bytes(10), "", Int64Bytes(30)};
  index.null_counts = std::vector<int64_t>{0, 5, 2};
  const StatisticsContext c = Context(Leaf(Type::INT64));

  DecodedStatistics first = DecodeColumnIndexEntry(index, 0, c);
  CHECK(first.source == StatisticsSource::kColumnIndex);
  REQUIRE(first.min.has_value());
  CHECK(first.min->value.integer == 1);
  CHECK(first.max->value.integer == 10);
  CHECK_FALSE(first.max->exact);
  CHECK(first.null_count == 0);

  DecodedStatistics nulls = DecodeColumnIndexEntry(index, 1, c);
  CHECK(nulls.all_null);
  CHECK_FALSE(nulls.min.has_value());
  CHECK(nulls.null_count == 5);

  DecodedStatistics third = DecodeColumnIndexEntry(index, 2, c);
  CHECK(third.min->value.integer == 0);
  CHECK(third.max->value.integer == 30);

  CHECK_THROWS_AS(DecodeColumnIndexEntry(index, 3, c), ParquetError);
  index.max_values.pop_back();
  CHECK_THROWS_AS(DecodeColumnIndexEntry(index, 0, c), ParquetError);

  // Floating point: a NaN page bound is ignored, nan_counts are per page.
  ColumnIndex floats;
  floats.null_pages = {false};
  floats.min_values = {DoubleBytes(std::nan(""))};
  floats.max_values = {DoubleBytes(4.0)};
  floats.nan_counts = std::vector<int64_t>{2};
  DecodedStatistics f = DecodeColumnIndexEntry(floats, 0, Context(Leaf(Type::DOUBLE)));
  CHECK_FALSE(f.min.has_value());
  REQUIRE(f.max.has_value());
  CHECK(f.max->value.real == 4.0);
  CHECK(f.nan_count == 2);
}

TEST_CASE("statistics: corpus files (nan_in_stats, binary_truncated_min_max, floating_orders_nan_count)") {
  {
    auto file = ParquetFileReader::Open(kDataDir + "nan_in_stats.parquet");
    const StatisticsContext c = MakeStatisticsContext(file->metadata(), file->schema(), 0);
    DecodedStatistics d = DecodeStatistics(*file->column_metadata(0, 0).statistics, c);
    REQUIRE(d.min.has_value());
    CHECK(d.min->value.real == 1.0);
    CHECK_FALSE(d.max.has_value());  // the file's max is NaN
  }
  {
    auto file = ParquetFileReader::Open(kDataDir + "binary_truncated_min_max.parquet");
    const StatisticsContext c = MakeStatisticsContext(file->metadata(), file->schema(), 0);
    CHECK(c.sort_order == ColumnSortOrder::kUnsigned);
    DecodedStatistics full = DecodeStatistics(*file->column_metadata(0, 0).statistics, c);
    REQUIRE(full.min.has_value());
    CHECK(full.min->value.bytes == "Al");
    CHECK_FALSE(full.min->exact);
    CHECK_FALSE(full.max->exact);
    DecodedStatistics none = DecodeStatistics(*file->column_metadata(0, 4).statistics,
                                              MakeStatisticsContext(file->metadata(), file->schema(), 4));
    CHECK(none.min->exact);
    CHECK(none.max->exact);
  }
  {
    // Column 0 uses IEEE_754_TOTAL_ORDER, column 1 TYPE_DEFINED_ORDER; row group 2 is all NaN.
    auto file = ParquetFileReader::Open(kDataDir + "floating_orders_nan_count.parquet");
    for (int column = 0; column < 2; column++) {
      const StatisticsContext c = MakeStatisticsContext(file->metadata(), file->schema(), column);
      CHECK(c.comparison == ValueComparison::kFloatingPoint);
      DecodedStatistics all_nan = DecodeStatistics(*file->column_metadata(2, column).statistics, c);
      CHECK_FALSE(all_nan.min.has_value());
      CHECK_FALSE(all_nan.max.has_value());
      CHECK(all_nan.nan_count == 10);
      DecodedStatistics zero_min = DecodeStatistics(*file->column_metadata(3, column).statistics, c);
      REQUIRE(zero_min.min.has_value());
      CHECK(std::signbit(zero_min.min->value.real));
      CHECK(zero_min.max->value.real == 5.0);
    }
  }
}

// Statistics of a column chunk (ColumnMetaData.statistics) or of one page-index entry
// (ColumnIndex), decoded into typed values that can be compared, together with whether
// each bound may be trusted. The metadata functions display them; constraint pushdown
// uses them to skip row groups and pages.
//
// The rules (parquet.thrift, Statistics and ColumnOrder):
//
//  * min_value / max_value are ordered by the column's ColumnOrder. TYPE_DEFINED_ORDER (or
//    no column_orders at all, which old writers omit) means the order of the logical type,
//    else of the physical type: signed for signed integers, DATE, TIME, TIMESTAMP,
//    DECIMAL (by the represented value), FLOAT, DOUBLE, FLOAT16 and BOOLEAN (false < true);
//    unsigned for unsigned integers and byte-wise for strings, enums, JSON, BSON, UUID and
//    unannotated binary; no order for INTERVAL, INT96 under TYPE_DEFINED_ORDER, nested and
//    geospatial types. IEEE_754_TOTAL_ORDER is accepted for floating-point columns,
//    INT96_TIMESTAMP_ORDER for INT96; any other column order makes min_value/max_value
//    unusable.
//  * The deprecated min / max are always in signed order. They are used only where that
//    is the column's order (BOOLEAN, signed INT32/INT64 and their annotations, FLOAT,
//    DOUBLE), or where min equals max (then every value equals it, whatever the order),
//    except for byte arrays written by parquet-mr before 1.8.0, whose binary statistics
//    may be corrupt (PARQUET-251). So they are never used for unsigned integers, for
//    decimals stored in byte arrays, or for strings (parquet-mr before 1.10 ordered those
//    by signed bytes).
//  * Floating point: a NaN bound is ignored; a zero lower bound becomes -0.0 and a zero
//    upper bound +0.0, since the other zero may be present too.
//  * A bound is exact only when the writer said so (is_min_value_exact /
//    is_max_value_exact); page-index bounds are never known to be exact. A bound that is
//    not exact is still a valid bound (e.g. a truncated string prefix).
//  * Counts are kept only when present and non-negative; an absent null_count or
//    nan_count means "unknown", never zero.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "format/metadata/enums.h"
#include "format/metadata/metadata.h"
#include "format/common/physical_values.h"
#include "format/metadata/schema.h"

namespace parquet {

// The order in which a column's statistics are meant (the spec's terms).
enum class ColumnSortOrder : uint8_t { kSigned, kUnsigned, kUnknown };

// "signed", "unsigned", "unknown".
const char* ToString(ColumnSortOrder order);

// How two values of a column compare; kNone: no order, bounds are unusable.
enum class ValueComparison : uint8_t {
  kNone,
  kBoolean,          // false < true
  kSignedInteger,    // INT32 / INT64 (also DATE, TIME, TIMESTAMP, DECIMAL stored in ints)
  kUnsignedInteger,  // INT32 / INT64 annotated unsigned
  kFloatingPoint,    // FLOAT, DOUBLE, FLOAT16, by value (NaN is never a bound)
  kSignedBigEndian,  // DECIMAL in BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY: two's complement, any length
  kUnsignedBytes,    // BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY, lexicographic on unsigned bytes
  kInt96Timestamp,   // INT96 chronologically (only under INT96_TIMESTAMP_ORDER)
};

// One value of a column, as its statistics store it (PLAIN encoding, byte arrays without
// a length prefix), decoded. Only the member of the column's physical type is meaningful.
struct StatisticsValue {
  Type physical_type = Type::INT32;
  bool boolean = false;
  // INT32 and INT64. An INT32 annotated unsigned is zero-extended (0..4294967295); an
  // unsigned INT64 keeps its bits (compare as uint64_t).
  int64_t integer = 0;
  double real = 0;       // FLOAT, DOUBLE, and FLOAT16 (whose bytes are also in `bytes`)
  Int96 int96{};
  std::string bytes;     // BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY

  static StatisticsValue Integer(Type physical_type, int64_t value);
  static StatisticsValue Real(Type physical_type, double value);
  static StatisticsValue Bytes(Type physical_type, std::string_view value);
};

// Application and version from FileMetaData.created_by, whose form is
// "<application> version <version> (build <hash>)", e.g.
// "parquet-mr version 1.8.1 (build 4aba4d...)". `has_version` is false when no leading
// "major[.minor[.patch]]" number could be read; a version with a suffix
// ("1.8.0-SNAPSHOT") is a pre-release, which counts as older than the release.
struct WriterVersion {
  std::string application;
  bool has_version = false;
  int major = 0, minor = 0, patch = 0;
  bool pre_release = false;

  // True when the version is known and below major.minor.patch; an unknown version counts
  // as below (so a fix is never assumed).
  bool Before(int major, int minor, int patch) const;
};

WriterVersion ParseCreatedBy(std::string_view created_by);

// What is needed to interpret one leaf column's statistics.
struct StatisticsContext {
  Type physical_type = Type::INT32;
  int32_t type_length = 0;
  // The order of min_value / max_value and of page-index bounds (from the column order),
  // and the comparison that implements it (kNone: those bounds are unusable).
  ColumnSortOrder sort_order = ColumnSortOrder::kUnknown;
  ValueComparison comparison = ValueComparison::kNone;
  // The comparison the type itself defines (what the deprecated min/max are checked against).
  ValueComparison type_comparison = ValueComparison::kNone;
  bool unsigned_integer = false;          // INT32/INT64 annotated unsigned
  bool float16 = false;                   // FIXED_LEN_BYTE_ARRAY(2) FLOAT16
  bool deprecated_min_max_usable = false; // the deprecated fields' signed order is the type's order
  bool deprecated_equal_usable = false;   // deprecated min == max may be used (not PARQUET-251)
};

// The type-defined sort order and comparison of a leaf (logical type, else converted type,
// else physical type). An annotation that does not fit the physical type gives kUnknown.
ColumnSortOrder TypeDefinedSortOrder(const SchemaNode& leaf);
ValueComparison TypeDefinedComparison(const SchemaNode& leaf);

// `column_order` is the leaf's entry of FileMetaData.column_orders, nullptr when absent.
StatisticsContext MakeStatisticsContext(const SchemaNode& leaf, const ColumnOrder* column_order,
                                        const WriterVersion& writer);
// The same for leaf column `leaf_index` of a file.
StatisticsContext MakeStatisticsContext(const FileMetaData& metadata, const Schema& schema, int leaf_index);

// Decodes a PLAIN statistics value of the context's column. Returns false when the bytes
// do not have the size the type needs (1 byte for BOOLEAN, 4 for INT32 and FLOAT, 8 for
// INT64 and DOUBLE, 12 for INT96, 2 for FLOAT16); byte arrays of any length decode.
bool DecodeStatisticsValue(std::string_view plain, const StatisticsContext& context, StatisticsValue* out);

// <0, 0 or >0 as a is below, equal to or above b under `comparison`; both values must be
// of the column's physical type (kFloatingPoint reads `real`, whatever the type).
// kNone compares nothing and returns 0.
int CompareStatisticsValues(const StatisticsValue& a, const StatisticsValue& b, ValueComparison comparison);

// Big-endian two's-complement integers of any lengths (the shorter sign-extended), as
// DECIMAL byte arrays hold them: <0, 0 or >0.
int CompareSignedBigEndian(std::string_view a, std::string_view b);
// Lexicographic order of unsigned bytes, a prefix first: <0, 0 or >0.
int CompareUnsignedBytes(std::string_view a, std::string_view b);

struct StatisticsBound {
  StatisticsValue value;
  bool exact = false;  // known to be the actual minimum / maximum, not just a bound
};

enum class StatisticsSource : uint8_t { kNone, kMinMaxValue, kDeprecatedMinMax, kColumnIndex };

// Usable statistics: every non-null, non-NaN value v of the chunk or page satisfies
// min <= v <= max under `comparison` (each bound only when present).
struct DecodedStatistics {
  ValueComparison comparison = ValueComparison::kNone;
  std::optional<StatisticsBound> min;
  std::optional<StatisticsBound> max;
  StatisticsSource source = StatisticsSource::kNone;  // where min/max came from
  std::optional<int64_t> null_count;
  std::optional<int64_t> distinct_count;
  std::optional<int64_t> nan_count;
  bool all_null = false;  // page index: the page holds only nulls
};

DecodedStatistics DecodeStatistics(const Statistics& statistics, const StatisticsContext& context);

// Entry `page` of a column index. Throws ParquetError when `page` is not below the number
// of entries of null_pages, or when min_values/max_values have fewer entries; optional
// per-page lists of the wrong length are ignored.
DecodedStatistics DecodeColumnIndexEntry(const ColumnIndex& index, size_t page, const StatisticsContext& context);

}  // namespace parquet

// The column types of parquet_copy: how a result column of a query becomes a Parquet
// field. Three sources decide a column's type, in this order:
//
//   1. the `schema='name TYPE, ...'` option (ParseSchemaOverride, ParseCopyType);
//   2. the column's declared type, as sqlite3_column_decltype gives it
//      (TypeFromDeclaredType), including the declared types of our own `parquet` virtual
//      table ("TEXT DATE", "REAL DECIMAL(10,2)", "INTEGER UINT64", ...), so that copying a
//      Parquet-backed table writes the same Parquet types back;
//   3. the storage classes seen in the first row group (TypeFromStorageClasses).
//
// Then AppendSchemaElements turns a field into the SchemaElements of the footer. Pure C++:
// no sqlite3.h, errors are returned as lowercase messages, nothing is thrown.
//
// Type syntax (case-insensitive; spaces allowed between tokens):
//   INT8 INT16 INT32 INT64 UINT8 UINT16 UINT32 UINT64 FLOAT DOUBLE FLOAT16 BOOLEAN
//   STRING BINARY UUID JSON ENUM DATE GEOMETRY GEOGRAPHY
//   FIXED(n)                      FIXED_LEN_BYTE_ARRAY of n bytes (1 <= n <= 65536)
//   DECIMAL(p[,s])                1 <= p <= 76, 0 <= s <= p; stored as INT32 (p <= 9),
//                                 INT64 (p <= 18) or FIXED of the fewest bytes p needs
//   TIME[(unit[, UTC])]           unit MILLIS | MICROS | NANOS (default MICROS)
//   TIMESTAMP[(unit[, UTC])]      isAdjustedToUTC only with UTC (both default to local time)
//   LIST<T>  MAP<K,V>  STRUCT<name T, ...>
//   VARIANT                       JSON text written as a Variant (shredded as the shredding=
//                                 option says: ParseShreddingOption); top level only
// Names in schema= and STRUCT<...> are bare words or quoted with "...", `...` or [...].
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "format/metadata/enums.h"
#include "format/metadata/metadata.h"
#include "format/values/variant_shredding.h"

namespace sqlite_parquet {

enum class CopyKind : uint8_t {
  kBoolean,
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kUInt8,
  kUInt16,
  kUInt32,
  kUInt64,
  kFloat,
  kDouble,
  kFloat16,
  kString,
  kBinary,
  kFixed,
  kDecimal,
  kDate,
  kTime,
  kTimestamp,
  kUuid,
  kJson,
  kEnum,
  kGeometry,   // WKB: GEOMETRY (planar edges)
  kGeography,  // WKB: GEOGRAPHY (edges per `edges`)
  kList,    // children[0]: the element
  kMap,     // children[0]: the key, children[1]: the value
  kStruct,  // children: the fields
  kVariant,  // JSON text as VARIANT (format/values/variant_shredding.h): VariantType()
};

struct CopyField;

struct CopyType {
  CopyKind kind = CopyKind::kString;
  int32_t length = 0;     // kFixed: bytes
  int32_t precision = 0;  // kDecimal
  int32_t scale = 0;      // kDecimal
  parquet::TimeUnit unit = parquet::TimeUnit::MICROS;  // kTime, kTimestamp
  bool utc = false;                                    // kTime, kTimestamp: isAdjustedToUTC
  std::optional<std::string> crs;                      // kGeometry, kGeography (nullopt: OGC:CRS84)
  parquet::EdgeInterpolationAlgorithm edges = parquet::EdgeInterpolationAlgorithm::SPHERICAL;  // kGeography
  bool plain_wkb = false;  // kGeometry, kGeography: plain BYTE_ARRAY, no annotation (GeoParquet 1.0 files)
  std::vector<CopyField> children;                     // kList, kMap, kStruct
  // kVariant: the typed_value columns (null: unshredded); shred_auto: to be chosen from the
  // first row group's values (parquet_copy's ResolveTypes), until then `shredding` is null.
  std::shared_ptr<const parquet::VariantShredding> shredding;
  bool shred_auto = false;

  bool is_nested() const {
    return kind == CopyKind::kList || kind == CopyKind::kMap || kind == CopyKind::kStruct || kind == CopyKind::kVariant;
  }
};

struct CopyField {
  std::string name;
  CopyType type;
};

// Storage-class bits for TypeFromStorageClasses.
inline constexpr unsigned kSeenInteger = 1;
inline constexpr unsigned kSeenReal = 2;
inline constexpr unsigned kSeenText = 4;
inline constexpr unsigned kSeenBlob = 8;

// VARIANT, unshredded: an optional group annotated VARIANT(1) of required binary
// `metadata` and `value` (VariantEncoding.md); with `shredding` set, the shredded layout of
// format/values/variant_shredding.h. Only as a top-level column.
CopyType VariantType();

// One column of the shredding= option.
struct ShreddingSpec {
  std::string column;
  bool automatic = false;             // COL:auto
  parquet::VariantShredding shredding;  // otherwise
};
// shredding='auto' (every VARIANT column chosen from its values: *all_auto) or
// 'COL:SHAPE, ...' with
//   SHAPE := '{' NAME ':' SHAPE (',' NAME ':' SHAPE)* '}'        an object's fields
//          | 'STRUCT' '(' NAME SHAPE (',' NAME SHAPE)* ')'        the same, DuckDB's spelling
//          | '[' SHAPE ']' | SHAPE '[]'                           an array's elements
//          | 'auto'                                               (a whole column only)
//          | BOOLEAN | INT8 | TINYINT | INT16 | SMALLINT | INT32 | INTEGER | INT
//          | INT64 | BIGINT | DOUBLE | DECIMAL(p,s) (p <= 38) | STRING | VARCHAR
// NAMEs as in schema= (bare or quoted); an object's names must be distinct (case-sensitive,
// as Variant field names are). Returns false with *error on bad syntax, on a shape whose
// Parquet schema would nest deeper than 64 levels (an array takes 3, an object 2; checked
// before each level is built) and past 10,000 names in the option. Linear in the text.
bool ParseShreddingOption(std::string_view text, bool* all_auto, std::vector<ShreddingSpec>* out, std::string* error);

// Parses one type (the whole text). Returns false with *error set on bad syntax or
// parameters out of range.
bool ParseCopyType(std::string_view text, CopyType* out, std::string* error);

// Parses the schema= option: `name TYPE, name TYPE, ...`. Names must be distinct (ignoring
// ASCII case); types nest at most 32 levels; at most 10,000 names in all. Linear in the text.
bool ParseSchemaOverride(std::string_view text, std::vector<CopyField>* out, std::string* error);

// Splits a comma-separated list of column names (bare or quoted as above), as the
// partition_by= and bloom_filter= options take them. Empty entries are an error.
bool ParseNameList(std::string_view text, std::vector<std::string>* out, std::string* error);

// One entry of sorting_columns=: `name [ASC|DESC] [NULLS FIRST|NULLS LAST|NULLS_FIRST|NULLS_LAST]`.
// Without NULLS, NULLs are placed as SQLite's ORDER BY places them: first when ascending,
// last when descending.
struct SortingSpec {
  std::string name;
  bool descending = false;
  bool nulls_first = true;
};
bool ParseSortingColumns(std::string_view text, std::vector<SortingSpec>* out, std::string* error);

// kv_metadata='key=value;key2=value2': entries split at ';', key and value at the first '='
// (a key without '=' gets no value). Keys are trimmed and must not be empty.
bool ParseKeyValueMetadata(std::string_view text, std::vector<parquet::KeyValue>* out, std::string* error);

// The type a declared type stands for, or nullopt when the values must decide (no declared
// type, NUMERIC affinity, or nothing recognised).
std::optional<CopyType> TypeFromDeclaredType(std::string_view declared_type);

// The type for a column without a usable declared type, from the storage classes seen
// (kSeen* bits): INTEGER -> INT64; INTEGER and REAL -> DOUBLE; TEXT (with or without
// numbers) -> STRING; anything with BLOB -> BINARY; only NULLs -> STRING.
CopyType TypeFromStorageClasses(unsigned seen);

// Canonical text of a type in the syntax above ("DECIMAL(10,2)", "LIST<INT64>").
std::string DescribeCopyType(const CopyType& type);

// Physical type of a non-nested type, and the FIXED_LEN_BYTE_ARRAY width where it has one.
parquet::Type PhysicalTypeOf(const CopyType& type);
int32_t FixedLengthOf(const CopyType& type);

// Bytes of the two's-complement FIXED_LEN_BYTE_ARRAY that holds every DECIMAL(precision).
int32_t DecimalByteWidth(int32_t precision);

// Appends the SchemaElements of `field` as an OPTIONAL top-level field (depth first, as the
// footer lists them). LIST and MAP use the three-level layouts of the spec:
//   optional group name (LIST) { repeated group list { optional <T> element; } }
//   optional group name (MAP) { repeated group key_value { required <K> key; optional <V> value; } }
// STRUCT is an optional group of optional fields. With next_field_id non-null, every
// element gets field_id = (*next_field_id)++ in that order.
void AppendSchemaElements(const CopyField& field, int32_t* next_field_id,
                          std::vector<parquet::SchemaElement>* out);

// Number of leaf columns the field has in the Parquet schema.
int LeafCount(const CopyType& type);

// ASCII case-insensitive comparison, as SQLite compares column names.
bool SameName(std::string_view a, std::string_view b);

}  // namespace sqlite_parquet

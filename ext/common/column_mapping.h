// How a Parquet column becomes a SQLite column: the declared type of the virtual table's
// column (which fixes SQLite's affinity for comparisons) and the kind of conversion each
// stored value goes through on its way to a SQLite value. docs/type-mapping.md's table
// documents the same rules.
//
// Declared types are "<affinity type> <parquet type>" where the Parquet type adds
// information, e.g. "TEXT DATE", "REAL DECIMAL(10,2)", "INTEGER UINT64". SQLite derives
// affinity from the first rule that matches (INT, then CHAR/CLOB/TEXT, then BLOB, then
// REAL/FLOA/DOUB), so every suffix is chosen not to change the affinity of its prefix;
// tests check this for every mapping.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "format/metadata/enums.h"
#include "format/metadata/schema.h"

namespace sqlite_parquet {

enum class ValueKind : uint8_t {
  kNull,            // LogicalType UNKNOWN: always NULL
  kBoolean,         // -> INTEGER 0/1
  kInt32,           // -> INTEGER
  kUInt32,          // INT32 annotated unsigned -> INTEGER 0..4294967295
  kInt64,           // -> INTEGER
  kUInt64,          // -> INTEGER, or REAL above INT64_MAX
  kFloat,           // -> REAL
  kDouble,          // -> REAL
  kFloat16,         // FIXED_LEN_BYTE_ARRAY(2) -> REAL
  kText,            // BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY -> TEXT
  kJson,            // -> TEXT with the JSON subtype
  kBlob,            // -> BLOB
  kUuid,            // FIXED_LEN_BYTE_ARRAY(16) -> TEXT 8-4-4-4-12
  kDecimalInt32,    // -> REAL (or TEXT with decimal_as=text)
  kDecimalInt64,
  kDecimalBytes,    // BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY big-endian two's complement
  kDate,            // INT32 days -> TEXT YYYY-MM-DD (or a number, see TimestampForm)
  kTime32,          // INT32 TIME(MILLIS) -> TEXT HH:MM:SS[.fff]
  kTime64,          // INT64 TIME(MICROS|NANOS)
  kTimestamp,       // INT64 TIMESTAMP(unit) -> TEXT YYYY-MM-DD HH:MM:SS[.f] (or a number)
  kInt96Timestamp,  // INT96 -> same forms as kTimestamp
  kInterval,        // FIXED_LEN_BYTE_ARRAY(12) -> TEXT {"months":..,"days":..,"millis":..}
  kNested,          // a group, LIST, MAP or repeated field -> TEXT JSON (nested_json.h)
};

// How DATE, TIMESTAMP and INT96 values are presented (option timestamp_as).
enum class TimestampForm : uint8_t { kText, kUnixEpoch, kUnixEpochMs, kUnixEpochUs, kJulianDay };

struct MappingOptions {
  bool binary_as_string = false;  // unannotated BYTE_ARRAY as TEXT instead of BLOB
  bool decimal_as_text = false;   // DECIMAL as exact TEXT instead of REAL
  TimestampForm timestamp_form = TimestampForm::kText;
};

struct OwnedSqlValue;  // sql_value.h

struct ColumnMapping {
  ValueKind kind = ValueKind::kNull;
  // kNull only: the value of every row instead of NULL (a lake column's default in a file
  // written before the column was added); null: NULL.
  std::shared_ptr<const OwnedSqlValue> constant;
  std::string declared_type;        // for the CREATE TABLE given to sqlite3_declare_vtab
  int leaf_column = -1;             // the Parquet leaf column, -1 for nested fields
  int nested_field = -1;            // kNested: the top-level field (index into top_level_fields())
  int32_t decimal_scale = 0;
  parquet::TimeUnit time_unit = parquet::TimeUnit::MILLIS;
  TimestampForm timestamp_form = TimestampForm::kText;
  bool decimal_as_text = false;
};

// The mapping of top-level field `field` (an index into schema.top_level_fields()).
// Groups and repeated fields map to kNested (TEXT JSON, see nested_json.h).
ColumnMapping MapTopLevelField(const parquet::Schema& schema, int field, const MappingOptions& options);

// The mapping of the leaf column at schema node `node` (a primitive node, its repetition
// ignored): what a flat column of that type would be. Nested values use it to render each
// leaf value (nested_json.h).
ColumnMapping MapLeaf(const parquet::Schema& schema, int node, const MappingOptions& options);

// SQLite's affinity rule for a declared type, as a single letter: 'I'nteger, 'T'ext,
// 'B'lob (none), 'R'eal, 'N'umeric. Used by tests to check declared types.
char AffinityOfDeclaredType(const std::string& declared_type);

}  // namespace sqlite_parquet

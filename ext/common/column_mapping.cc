// Chooses the SQLite value kind and declared type of each top-level Parquet field (see
// column_mapping.h). LogicalType decides first; a file without one (or with a LogicalType
// this code does not know) falls back to the legacy ConvertedType, then to the physical type.
#include "ext/common/column_mapping.h"

#include <algorithm>
#include <cctype>

#include "format/metadata/nested_schema.h"

namespace sqlite_parquet {

using parquet::LogicalType;
using parquet::SchemaNode;
using parquet::TimeUnit;
using parquet::Type;

namespace {

const char* UnitName(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::MILLIS: return "MILLIS";
    case TimeUnit::MICROS: return "MICROS";
    case TimeUnit::NANOS: return "NANOS";
  }
  return "MILLIS";
}

// The declared type of a date/time column under the chosen presentation.
std::string TemporalDeclaredType(TimestampForm form, const std::string& parquet_name) {
  switch (form) {
    case TimestampForm::kText: return "TEXT " + parquet_name;
    case TimestampForm::kJulianDay: return "REAL " + parquet_name;
    default: return "INTEGER " + parquet_name;
  }
}

// The mapping of a leaf by its physical type alone.
void MapPhysical(const SchemaNode& node, const MappingOptions& options, ColumnMapping* m) {
  switch (*node.physical_type) {
    case Type::BOOLEAN: m->kind = ValueKind::kBoolean; m->declared_type = "INTEGER BOOLEAN"; return;
    case Type::INT32: m->kind = ValueKind::kInt32; m->declared_type = "INTEGER"; return;
    case Type::INT64: m->kind = ValueKind::kInt64; m->declared_type = "INTEGER"; return;
    case Type::INT96:
      m->kind = ValueKind::kInt96Timestamp;
      m->timestamp_form = options.timestamp_form;
      m->declared_type = TemporalDeclaredType(options.timestamp_form, "TIMESTAMP");
      return;
    case Type::FLOAT: m->kind = ValueKind::kFloat; m->declared_type = "REAL FLOAT"; return;
    case Type::DOUBLE: m->kind = ValueKind::kDouble; m->declared_type = "REAL"; return;
    case Type::BYTE_ARRAY:
    case Type::FIXED_LEN_BYTE_ARRAY:
      if (options.binary_as_string) {
        m->kind = ValueKind::kText;
        m->declared_type = "TEXT";
      } else {
        m->kind = ValueKind::kBlob;
        m->declared_type = "BLOB";
      }
      return;
  }
  m->kind = ValueKind::kNull;
  m->declared_type = "";
}

}  // namespace

ColumnMapping MapTopLevelField(const parquet::Schema& schema, int field, const MappingOptions& options) {
  const int node_index = schema.top_level_fields()[static_cast<size_t>(field)];
  if (parquet::IsNestedField(schema, field)) {
    ColumnMapping m;
    m.kind = ValueKind::kNested;
    m.declared_type = "TEXT JSON";
    m.nested_field = field;
    return m;
  }
  return MapLeaf(schema, node_index, options);
}

ColumnMapping MapLeaf(const parquet::Schema& schema, int node_index, const MappingOptions& options) {
  ColumnMapping m;
  const SchemaNode& node = schema.node(node_index);
  m.leaf_column = node.leaf_index;
  const Type physical = *node.physical_type;
  // kind UNRECOGNIZED: no annotation.
  const LogicalType logical = parquet::EffectiveLogicalType(node).value_or(LogicalType{});
  using Kind = LogicalType::Kind;
  switch (logical.kind) {
    case Kind::UNKNOWN:
      m.kind = ValueKind::kNull;
      m.declared_type = "";
      return m;
    case Kind::STRING:
    case Kind::ENUM:
      if (physical == Type::BYTE_ARRAY || physical == Type::FIXED_LEN_BYTE_ARRAY) {
        m.kind = ValueKind::kText;
        m.declared_type = logical.kind == Kind::ENUM ? "TEXT ENUM" : "TEXT";
        return m;
      }
      break;
    case Kind::JSON:
      if (physical == Type::BYTE_ARRAY) {
        m.kind = ValueKind::kJson;
        m.declared_type = "TEXT JSON";
        return m;
      }
      break;
    case Kind::BSON:
    case Kind::GEOMETRY:
    case Kind::GEOGRAPHY:
      if (physical == Type::BYTE_ARRAY) {
        m.kind = ValueKind::kBlob;
        m.declared_type = logical.kind == Kind::BSON ? "BLOB BSON" : logical.kind == Kind::GEOMETRY ? "BLOB GEOMETRY" : "BLOB GEOGRAPHY";
        return m;
      }
      break;
    case Kind::UUID:
      if (physical == Type::FIXED_LEN_BYTE_ARRAY && node.type_length == 16) {
        m.kind = ValueKind::kUuid;
        m.declared_type = "TEXT UUID";
        return m;
      }
      break;
    case Kind::FLOAT16:
      if (physical == Type::FIXED_LEN_BYTE_ARRAY && node.type_length == 2) {
        m.kind = ValueKind::kFloat16;
        m.declared_type = "REAL FLOAT16";
        return m;
      }
      break;
    case Kind::DECIMAL: {
      ValueKind kind;
      if (physical == Type::INT32) kind = ValueKind::kDecimalInt32;
      else if (physical == Type::INT64) kind = ValueKind::kDecimalInt64;
      else if (physical == Type::BYTE_ARRAY || physical == Type::FIXED_LEN_BYTE_ARRAY) kind = ValueKind::kDecimalBytes;
      else break;
      m.kind = kind;
      m.decimal_scale = logical.decimal_scale;
      m.decimal_as_text = options.decimal_as_text;
      m.declared_type = std::string(options.decimal_as_text ? "TEXT" : "REAL") + " DECIMAL(" +
                        std::to_string(logical.decimal_precision) + "," + std::to_string(logical.decimal_scale) + ")";
      return m;
    }
    case Kind::DATE:
      if (physical == Type::INT32) {
        m.kind = ValueKind::kDate;
        m.timestamp_form = options.timestamp_form;
        m.declared_type = TemporalDeclaredType(options.timestamp_form, "DATE");
        return m;
      }
      break;
    case Kind::TIME:
      if (physical == Type::INT32 && logical.time_unit == TimeUnit::MILLIS) {
        m.kind = ValueKind::kTime32;
      } else if (physical == Type::INT64 && logical.time_unit != TimeUnit::MILLIS) {
        m.kind = ValueKind::kTime64;
      } else {
        break;
      }
      m.time_unit = logical.time_unit;
      m.declared_type = std::string("TEXT TIME_") + UnitName(logical.time_unit);
      return m;
    case Kind::TIMESTAMP:
      if (physical == Type::INT64) {
        m.kind = ValueKind::kTimestamp;
        m.time_unit = logical.time_unit;
        m.timestamp_form = options.timestamp_form;
        m.declared_type = TemporalDeclaredType(options.timestamp_form,
                                               std::string("TIMESTAMP_") + UnitName(logical.time_unit));
        return m;
      }
      break;
    case Kind::INTEGER:
      if (physical == Type::INT32) {
        m.kind = logical.int_is_signed ? ValueKind::kInt32 : ValueKind::kUInt32;
      } else if (physical == Type::INT64) {
        m.kind = logical.int_is_signed ? ValueKind::kInt64 : ValueKind::kUInt64;
      } else {
        break;
      }
      m.declared_type = logical.int_is_signed ? "INTEGER" : "INTEGER UINT" + std::to_string(logical.int_bit_width ? logical.int_bit_width : 64);
      return m;
    default:
      break;
  }
  if (parquet::IsInterval(node) && physical == Type::FIXED_LEN_BYTE_ARRAY && node.type_length == 12) {
    m.kind = ValueKind::kInterval;
    m.declared_type = "TEXT";  // "INTERVAL" would contain "INT" and turn the affinity to INTEGER
    return m;
  }
  MapPhysical(node, options, &m);
  return m;
}

char AffinityOfDeclaredType(const std::string& declared_type) {
  std::string upper = declared_type;
  std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return std::toupper(c); });
  auto has = [&](const char* s) { return upper.find(s) != std::string::npos; };
  if (has("INT")) return 'I';
  if (has("CHAR") || has("CLOB") || has("TEXT")) return 'T';
  if (has("BLOB") || upper.empty()) return 'B';
  if (has("REAL") || has("FLOA") || has("DOUB")) return 'R';
  return 'N';
}

}  // namespace sqlite_parquet

// Chooses the SQLite value kind and declared type of each top-level Parquet field (see
// column_mapping.h). LogicalType decides first; a file without one (or with a LogicalType
// this code does not know) falls back to the legacy ConvertedType, then to the physical type.
#include "ext/column_mapping.h"

#include <algorithm>
#include <cctype>

#include "format/nested_schema.h"

namespace sqlite_parquet {

using parquet::ConvertedType;
using parquet::LogicalType;
using parquet::SchemaNode;
using parquet::TimeUnit;
using parquet::Type;

namespace {

// The logical meaning of a leaf, normalised from LogicalType or ConvertedType.
struct Annotation {
  LogicalType::Kind kind = LogicalType::Kind::UNRECOGNIZED;  // UNRECOGNIZED = none
  int32_t scale = 0;
  int32_t precision = 0;
  TimeUnit unit = TimeUnit::MILLIS;
  bool is_signed = true;
  int bit_width = 0;
  bool interval = false;  // ConvertedType INTERVAL has no LogicalType
};

Annotation AnnotationOf(const SchemaNode& node) {
  Annotation a;
  if (node.logical_type.has_value() && node.logical_type->kind != LogicalType::Kind::UNRECOGNIZED) {
    const LogicalType& t = *node.logical_type;
    a.kind = t.kind;
    a.scale = t.decimal_scale;
    a.precision = t.decimal_precision;
    a.unit = t.time_unit;
    a.is_signed = t.int_is_signed;
    a.bit_width = t.int_bit_width;
    return a;
  }
  if (!node.converted_type.has_value()) return a;
  switch (*node.converted_type) {
    case ConvertedType::UTF8: a.kind = LogicalType::Kind::STRING; break;
    case ConvertedType::ENUM: a.kind = LogicalType::Kind::ENUM; break;
    case ConvertedType::JSON: a.kind = LogicalType::Kind::JSON; break;
    case ConvertedType::BSON: a.kind = LogicalType::Kind::BSON; break;
    case ConvertedType::DECIMAL:
      a.kind = LogicalType::Kind::DECIMAL;
      a.scale = node.scale;
      a.precision = node.precision;
      break;
    case ConvertedType::DATE: a.kind = LogicalType::Kind::DATE; break;
    case ConvertedType::TIME_MILLIS: a.kind = LogicalType::Kind::TIME; a.unit = TimeUnit::MILLIS; break;
    case ConvertedType::TIME_MICROS: a.kind = LogicalType::Kind::TIME; a.unit = TimeUnit::MICROS; break;
    case ConvertedType::TIMESTAMP_MILLIS: a.kind = LogicalType::Kind::TIMESTAMP; a.unit = TimeUnit::MILLIS; break;
    case ConvertedType::TIMESTAMP_MICROS: a.kind = LogicalType::Kind::TIMESTAMP; a.unit = TimeUnit::MICROS; break;
    case ConvertedType::UINT_8: a.kind = LogicalType::Kind::INTEGER; a.is_signed = false; a.bit_width = 8; break;
    case ConvertedType::UINT_16: a.kind = LogicalType::Kind::INTEGER; a.is_signed = false; a.bit_width = 16; break;
    case ConvertedType::UINT_32: a.kind = LogicalType::Kind::INTEGER; a.is_signed = false; a.bit_width = 32; break;
    case ConvertedType::UINT_64: a.kind = LogicalType::Kind::INTEGER; a.is_signed = false; a.bit_width = 64; break;
    case ConvertedType::INT_8: a.kind = LogicalType::Kind::INTEGER; a.bit_width = 8; break;
    case ConvertedType::INT_16: a.kind = LogicalType::Kind::INTEGER; a.bit_width = 16; break;
    case ConvertedType::INT_32: a.kind = LogicalType::Kind::INTEGER; a.bit_width = 32; break;
    case ConvertedType::INT_64: a.kind = LogicalType::Kind::INTEGER; a.bit_width = 64; break;
    case ConvertedType::INTERVAL: a.interval = true; break;
    default: break;  // MAP, LIST, MAP_KEY_VALUE annotate groups
  }
  return a;
}

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
  const Annotation a = AnnotationOf(node);
  using Kind = LogicalType::Kind;
  switch (a.kind) {
    case Kind::UNKNOWN:
      m.kind = ValueKind::kNull;
      m.declared_type = "";
      return m;
    case Kind::STRING:
    case Kind::ENUM:
      if (physical == Type::BYTE_ARRAY || physical == Type::FIXED_LEN_BYTE_ARRAY) {
        m.kind = ValueKind::kText;
        m.declared_type = a.kind == Kind::ENUM ? "TEXT ENUM" : "TEXT";
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
        m.declared_type = a.kind == Kind::BSON ? "BLOB BSON" : a.kind == Kind::GEOMETRY ? "BLOB GEOMETRY" : "BLOB GEOGRAPHY";
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
      m.decimal_scale = a.scale;
      m.decimal_as_text = options.decimal_as_text;
      m.declared_type = std::string(options.decimal_as_text ? "TEXT" : "REAL") + " DECIMAL(" +
                        std::to_string(a.precision) + "," + std::to_string(a.scale) + ")";
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
      if (physical == Type::INT32 && a.unit == TimeUnit::MILLIS) {
        m.kind = ValueKind::kTime32;
      } else if (physical == Type::INT64 && a.unit != TimeUnit::MILLIS) {
        m.kind = ValueKind::kTime64;
      } else {
        break;
      }
      m.time_unit = a.unit;
      m.declared_type = std::string("TEXT TIME_") + UnitName(a.unit);
      return m;
    case Kind::TIMESTAMP:
      if (physical == Type::INT64) {
        m.kind = ValueKind::kTimestamp;
        m.time_unit = a.unit;
        m.timestamp_form = options.timestamp_form;
        m.declared_type = TemporalDeclaredType(options.timestamp_form,
                                               std::string("TIMESTAMP_") + UnitName(a.unit));
        return m;
      }
      break;
    case Kind::INTEGER:
      if (physical == Type::INT32) {
        m.kind = a.is_signed ? ValueKind::kInt32 : ValueKind::kUInt32;
      } else if (physical == Type::INT64) {
        m.kind = a.is_signed ? ValueKind::kInt64 : ValueKind::kUInt64;
      } else {
        break;
      }
      m.declared_type = a.is_signed ? "INTEGER" : "INTEGER UINT" + std::to_string(a.bit_width ? a.bit_width : 64);
      return m;
    default:
      break;
  }
  if (a.interval && physical == Type::FIXED_LEN_BYTE_ARRAY && node.type_length == 12) {
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

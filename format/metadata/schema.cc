// Rebuilds the schema tree from the footer's flat SchemaElement list (see schema.h).
#include "format/metadata/schema.h"

#include "format/common/error.h"

namespace parquet {

namespace {

struct PendingGroup {
  int node;
  int32_t children_left;
};

}  // namespace

Schema Schema::FromElements(const std::vector<SchemaElement>& elements) {
  Schema schema;
  if (elements.empty()) throw ParquetError("schema is empty");
  const SchemaElement& root_element = elements[0];
  if (root_element.type.has_value() && root_element.num_children.value_or(0) == 0) {
    throw ParquetError("schema root '" + root_element.name + "' is a primitive, not a group");
  }
  int32_t root_children = root_element.num_children.value_or(0);
  if (root_children < 0 || static_cast<size_t>(root_children) > elements.size() - 1) {
    throw ParquetError("schema root claims " + std::to_string(root_children) +
                       " children but only " + std::to_string(elements.size() - 1) +
                       " schema elements follow");
  }
  schema.nodes_.reserve(elements.size());
  SchemaNode root;
  root.name = root_element.name;
  root.index = 0;
  schema.nodes_.push_back(root);

  // Iterative depth-first walk: a stack of groups still expecting children.
  std::vector<PendingGroup> stack;
  stack.push_back({0, root_children});
  size_t next = 1;
  while (!stack.empty()) {
    if (stack.back().children_left == 0) {
      stack.pop_back();
      continue;
    }
    if (next >= elements.size()) {
      throw ParquetError("schema element '" + schema.nodes_[static_cast<size_t>(stack.back().node)].name +
                         "' claims more children than the schema list holds");
    }
    stack.back().children_left--;
    const SchemaElement& element = elements[next];
    const SchemaNode& parent = schema.nodes_[static_cast<size_t>(stack.back().node)];

    SchemaNode node;
    node.name = element.name;
    node.index = static_cast<int>(next);
    node.parent = stack.back().node;
    node.depth = parent.depth + 1;
    if (node.depth > kMaxSchemaDepth) {
      throw ParquetError("schema nesting deeper than " + std::to_string(kMaxSchemaDepth) +
                         " levels at '" + element.name + "'");
    }
    node.repetition = element.repetition_type.value_or(FieldRepetitionType::OPTIONAL);
    if (!element.repetition_type.has_value()) {
      throw ParquetError("schema element '" + element.name + "' has no repetition type");
    }
    switch (node.repetition) {
      case FieldRepetitionType::REQUIRED:
      case FieldRepetitionType::OPTIONAL:
      case FieldRepetitionType::REPEATED:
        break;
      default:
        throw ParquetError("schema element '" + element.name + "' has unsupported repetition " +
                           ToString(node.repetition));
    }
    node.max_definition_level = static_cast<int16_t>(
        parent.max_definition_level + (node.repetition == FieldRepetitionType::REQUIRED ? 0 : 1));
    node.max_repetition_level = static_cast<int16_t>(
        parent.max_repetition_level + (node.repetition == FieldRepetitionType::REPEATED ? 1 : 0));
    node.logical_type = element.logical_type;
    node.converted_type = element.converted_type;
    node.scale = element.scale.value_or(0);
    node.precision = element.precision.value_or(0);
    node.field_id = element.field_id;

    int32_t num_children = element.num_children.value_or(0);
    bool is_group = !element.type.has_value();
    if (!is_group && num_children > 0) {
      throw ParquetError("schema element '" + element.name + "' has a type and " +
                         std::to_string(num_children) + " children");
    }
    if (num_children < 0 || static_cast<size_t>(num_children) > elements.size() - next - 1) {
      throw ParquetError("schema element '" + element.name + "' claims " +
                         std::to_string(num_children) + " children but only " +
                         std::to_string(elements.size() - next - 1) + " schema elements follow");
    }
    int node_index = static_cast<int>(schema.nodes_.size());
    if (!is_group) {
      node.physical_type = element.type;
      Type type = *element.type;
      if (static_cast<int32_t>(type) < 0 || static_cast<int32_t>(type) > 7) {
        throw ParquetError("column '" + element.name + "' has unknown physical type " + ToString(type));
      }
      if (type == Type::FIXED_LEN_BYTE_ARRAY) {
        node.type_length = element.type_length.value_or(0);
        if (node.type_length <= 0) {
          throw ParquetError("column '" + element.name + "' is FIXED_LEN_BYTE_ARRAY with type_length " +
                             std::to_string(node.type_length));
        }
      }
      node.leaf_index = static_cast<int>(schema.columns_.size());
      ColumnDescriptor column;
      column.node = node_index;
      column.physical_type = type;
      column.type_length = node.type_length;
      column.max_definition_level = node.max_definition_level;
      column.max_repetition_level = node.max_repetition_level;
      schema.columns_.push_back(column);
    }
    schema.nodes_.push_back(node);
    schema.nodes_[static_cast<size_t>(node.parent)].children.push_back(node_index);
    next++;
    if (is_group) stack.push_back({node_index, num_children});
  }
  if (next != elements.size()) {
    throw ParquetError("schema has " + std::to_string(elements.size() - next) +
                       " elements outside the tree rooted at '" + root_element.name + "'");
  }

  // Paths, and the contiguous leaf range of every top-level field.
  const std::vector<int>& fields = schema.nodes_[0].children;
  schema.field_first_column_.assign(fields.size(), 0);
  schema.field_column_count_.assign(fields.size(), 0);
  std::vector<int> field_of_top_node(schema.nodes_.size(), -1);
  for (size_t f = 0; f < fields.size(); f++) {
    schema.field_first_column_[f] = -1;
    field_of_top_node[static_cast<size_t>(fields[f])] = static_cast<int>(f);
  }
  for (ColumnDescriptor& column : schema.columns_) {
    std::vector<std::string> reversed;
    int n = column.node;
    int top = n;
    while (schema.nodes_[static_cast<size_t>(n)].parent >= 0) {
      reversed.push_back(schema.nodes_[static_cast<size_t>(n)].name);
      top = n;
      n = schema.nodes_[static_cast<size_t>(n)].parent;
    }
    column.path.assign(reversed.rbegin(), reversed.rend());
    for (size_t i = 0; i < column.path.size(); i++) {
      if (i) column.dotted_path += '.';
      column.dotted_path += column.path[i];
    }
    size_t f = static_cast<size_t>(field_of_top_node[static_cast<size_t>(top)]);
    column.top_level_field = static_cast<int>(f);
    int leaf = schema.nodes_[static_cast<size_t>(column.node)].leaf_index;
    if (schema.field_first_column_[f] < 0) schema.field_first_column_[f] = leaf;
    schema.field_column_count_[f]++;
  }
  for (size_t f = 0; f < fields.size(); f++) {
    if (schema.field_first_column_[f] < 0) schema.field_first_column_[f] = 0;  // a group without leaves
  }
  return schema;
}

namespace {

bool HasRecognizedLogicalType(const SchemaNode& node) {
  return node.logical_type.has_value() && node.logical_type->kind != LogicalType::Kind::UNRECOGNIZED;
}

LogicalType OfKind(LogicalType::Kind kind) {
  LogicalType t;
  t.kind = kind;
  return t;
}

LogicalType Temporal(LogicalType::Kind kind, TimeUnit unit) {
  LogicalType t = OfKind(kind);
  t.time_unit = unit;
  t.is_adjusted_to_utc = true;  // what the legacy annotations mean (LogicalTypes.md)
  return t;
}

LogicalType Integer(int8_t bit_width, bool is_signed) {
  LogicalType t = OfKind(LogicalType::Kind::INTEGER);
  t.int_bit_width = bit_width;
  t.int_is_signed = is_signed;
  return t;
}

}  // namespace

void AnnotateDecimal(SchemaElement* element, int32_t precision, int32_t scale) {
  LogicalType logical;
  logical.kind = LogicalType::Kind::DECIMAL;
  logical.decimal_precision = precision;
  logical.decimal_scale = scale;
  element->logical_type = logical;
  element->converted_type = ConvertedType::DECIMAL;
  element->precision = precision;
  element->scale = scale;
}

std::optional<LogicalType> EffectiveLogicalType(const SchemaNode& node) {
  using Kind = LogicalType::Kind;
  if (HasRecognizedLogicalType(node)) return node.logical_type;
  if (!node.converted_type.has_value()) return std::nullopt;
  switch (*node.converted_type) {
    case ConvertedType::UTF8: return OfKind(Kind::STRING);
    case ConvertedType::ENUM: return OfKind(Kind::ENUM);
    case ConvertedType::JSON: return OfKind(Kind::JSON);
    case ConvertedType::BSON: return OfKind(Kind::BSON);
    case ConvertedType::DECIMAL: {
      LogicalType t = OfKind(Kind::DECIMAL);
      t.decimal_scale = node.scale;
      t.decimal_precision = node.precision;
      return t;
    }
    case ConvertedType::DATE: return OfKind(Kind::DATE);
    case ConvertedType::TIME_MILLIS: return Temporal(Kind::TIME, TimeUnit::MILLIS);
    case ConvertedType::TIME_MICROS: return Temporal(Kind::TIME, TimeUnit::MICROS);
    case ConvertedType::TIMESTAMP_MILLIS: return Temporal(Kind::TIMESTAMP, TimeUnit::MILLIS);
    case ConvertedType::TIMESTAMP_MICROS: return Temporal(Kind::TIMESTAMP, TimeUnit::MICROS);
    case ConvertedType::UINT_8: return Integer(8, false);
    case ConvertedType::UINT_16: return Integer(16, false);
    case ConvertedType::UINT_32: return Integer(32, false);
    case ConvertedType::UINT_64: return Integer(64, false);
    case ConvertedType::INT_8: return Integer(8, true);
    case ConvertedType::INT_16: return Integer(16, true);
    case ConvertedType::INT_32: return Integer(32, true);
    case ConvertedType::INT_64: return Integer(64, true);
    default: return std::nullopt;  // INTERVAL; MAP, LIST, MAP_KEY_VALUE annotate groups
  }
}

bool IsInterval(const SchemaNode& node) {
  return !HasRecognizedLogicalType(node) && node.converted_type == ConvertedType::INTERVAL;
}

}  // namespace parquet

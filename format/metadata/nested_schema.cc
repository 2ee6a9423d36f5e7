// Classification of nested schema groups into struct/list/map shapes (see nested_schema.h).
// The builder recurses over the schema tree, whose depth Schema caps at kMaxSchemaDepth.
#include "format/metadata/nested_schema.h"

namespace parquet {

namespace {

bool HasAnnotation(const SchemaNode& node, LogicalType::Kind logical, ConvertedType converted) {
  if (node.logical_type.has_value() && node.logical_type->kind == logical) return true;
  return node.converted_type.has_value() && *node.converted_type == converted;
}

bool IsListAnnotated(const SchemaNode& node) {
  return HasAnnotation(node, LogicalType::Kind::LIST, ConvertedType::LIST);
}

bool IsMapAnnotated(const SchemaNode& node) {
  return HasAnnotation(node, LogicalType::Kind::MAP, ConvertedType::MAP) ||
         (node.converted_type.has_value() && *node.converted_type == ConvertedType::MAP_KEY_VALUE);
}

bool IsRepeated(const SchemaNode& node) { return node.repetition == FieldRepetitionType::REPEATED; }

class ShapeBuilder {
 public:
  ShapeBuilder(const Schema& schema, NestedFieldShape* out) : schema_(schema), out_(out) {}

  // Appends the shape of schema node `node` (and its subtree) with parent shape `parent`.
  // `as_element`: the node is a repeated node whose repetition is already taken care of by
  // an enclosing list or map; it then stands for one element.
  int Build(int node_index, int parent, bool as_element) {
    const SchemaNode& node = schema_.node(node_index);
    int shape = NewShape(node_index, parent);
    LeafRange range = LeavesBelow(node_index);
    Set(shape).first_leaf = range.first - out_->first_column;
    Set(shape).leaf_count = range.count;
    if (range.count == 0) {
      Set(shape).kind = ShapeKind::kEmpty;
      Set(shape).def_level = node.max_definition_level;
      return shape;
    }

    if (IsRepeated(node) && !as_element) {
      // A bare repeated field: a required list of required elements.
      Set(shape).kind = ShapeKind::kList;
      Set(shape).def_level = static_cast<int16_t>(node.max_definition_level - 1);
      Set(shape).element_def_level = node.max_definition_level;
      Set(shape).rep_level = node.max_repetition_level;
      int element = Build(node_index, shape, /*as_element=*/true);
      Set(shape).children.push_back(element);
      return shape;
    }

    Set(shape).def_level = node.max_definition_level;
    if (node.is_leaf()) {
      Set(shape).kind = ShapeKind::kValue;
      Set(shape).column = node.leaf_index;
      return shape;
    }

    if (IsListAnnotated(node) && node.children.size() == 1 && IsRepeated(schema_.node(node.children[0]))) {
      const int repeated_index = node.children[0];
      const SchemaNode& repeated = schema_.node(repeated_index);
      Set(shape).kind = ShapeKind::kList;
      Set(shape).element_def_level = repeated.max_definition_level;
      Set(shape).rep_level = repeated.max_repetition_level;
      int element;
      if (RepeatedNodeIsElement(node, repeated)) {
        element = Build(repeated_index, shape, /*as_element=*/true);
      } else {
        element = Build(repeated.children[0], shape, /*as_element=*/false);
      }
      Set(shape).children.push_back(element);
      return shape;
    }

    if (IsMapAnnotated(node) && node.children.size() == 1) {
      const int key_value_index = node.children[0];
      const SchemaNode& key_value = schema_.node(key_value_index);
      if (IsRepeated(key_value) && !key_value.is_leaf() && !key_value.children.empty() &&
          key_value.children.size() <= 2) {
        Set(shape).kind = ShapeKind::kMap;
        Set(shape).element_def_level = key_value.max_definition_level;
        Set(shape).rep_level = key_value.max_repetition_level;
        for (int child : key_value.children) {
          int built = Build(child, shape, /*as_element=*/false);
          Set(shape).children.push_back(built);
        }
        return shape;
      }
    }

    // Any other group (VARIANT included) is a struct.
    Set(shape).kind = ShapeKind::kStruct;
    for (int child : node.children) {
      int built = Build(child, shape, /*as_element=*/false);
      Set(shape).children.push_back(built);
    }
    return shape;
  }

 private:
  struct LeafRange {
    int first = 0;
    int count = 0;
  };

  // LogicalTypes.md, "Lists", backward-compatibility rules 1-4: when does the repeated
  // node itself stand for the element (rather than its only child)?
  bool RepeatedNodeIsElement(const SchemaNode& list, const SchemaNode& repeated) const {
    if (repeated.is_leaf()) return true;                   // rule 1
    if (repeated.children.size() != 1) return true;        // rule 2 (a group of 0 or 2+ fields)
    if (IsRepeated(schema_.node(repeated.children[0]))) return true;  // rule 3
    if (repeated.name == "array" || repeated.name == list.name + "_tuple") return true;  // rule 4
    return false;                                          // rule 5: 3-level list
  }

  // Leaf columns are numbered in schema pre-order, so a subtree's leaves are contiguous.
  LeafRange LeavesBelow(int node_index) const {
    const SchemaNode& node = schema_.node(node_index);
    if (node.is_leaf()) return {node.leaf_index, 1};
    LeafRange range{-1, 0};
    for (int child : node.children) {
      LeafRange sub = LeavesBelow(child);
      if (sub.count == 0) continue;
      if (range.first < 0) range.first = sub.first;
      range.count += sub.count;
    }
    if (range.first < 0) range.first = out_->first_column;
    return range;
  }

  int NewShape(int node_index, int parent) {
    Shape shape;
    shape.name = schema_.node(node_index).name;
    shape.schema_node = node_index;
    shape.parent = parent;
    out_->shapes.push_back(std::move(shape));
    return static_cast<int>(out_->shapes.size()) - 1;
  }

  // shapes may reallocate while children are built: always go through the index.
  Shape& Set(int shape) { return out_->shapes[static_cast<size_t>(shape)]; }

  const Schema& schema_;
  NestedFieldShape* out_;
};

}  // namespace

NestedFieldShape DescribeNestedField(const Schema& schema, int field) {
  NestedFieldShape result;
  result.field = field;
  result.first_column = schema.first_column_of_field(field);
  result.column_count = schema.column_count_of_field(field);
  ShapeBuilder builder(schema, &result);
  builder.Build(schema.top_level_fields()[static_cast<size_t>(field)], -1, /*as_element=*/false);
  return result;
}

bool IsNestedField(const Schema& schema, int field) {
  const SchemaNode& node = schema.node(schema.top_level_fields()[static_cast<size_t>(field)]);
  return !node.is_leaf() || IsRepeated(node);
}

}  // namespace parquet

// The schema tree. A Parquet footer stores the schema as a flat depth-first list of
// SchemaElements (groups carry num_children); Schema rebuilds the tree and derives, for
// every leaf column, its path and its maximum definition and repetition levels:
//
//   max_definition_level(node) = number of OPTIONAL or REPEATED nodes on the path from
//                                the root (exclusive) down to the node (inclusive)
//   max_repetition_level(node) = number of REPEATED nodes on that path
//
// Leaves are numbered 0..N-1 in schema order; that number is the column's index within
// every RowGroup.columns list.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "format/metadata/enums.h"
#include "format/metadata/metadata.h"

namespace parquet {

// Deepest schema nesting accepted (root = depth 0). Deeper schemas are rejected as malformed.
inline constexpr int kMaxSchemaDepth = 64;

struct SchemaNode {
  std::string name;
  int index = 0;                 // position in the flat SchemaElement list
  int parent = -1;               // node index of the parent, -1 for the root
  int depth = 0;                 // root = 0, top-level fields = 1
  std::vector<int> children;     // node indices
  FieldRepetitionType repetition = FieldRepetitionType::REQUIRED;
  std::optional<Type> physical_type;        // set on leaves only
  int32_t type_length = 0;                  // FIXED_LEN_BYTE_ARRAY width
  std::optional<LogicalType> logical_type;
  std::optional<ConvertedType> converted_type;
  int32_t scale = 0;
  int32_t precision = 0;
  std::optional<int32_t> field_id;
  int16_t max_definition_level = 0;
  int16_t max_repetition_level = 0;
  int leaf_index = -1;           // column index for leaves, -1 for groups

  bool is_leaf() const { return physical_type.has_value(); }
};

// The annotation that decides what a node's values mean: its LogicalType when it has one
// this reader recognizes, else the LogicalType its legacy ConvertedType stands for (DECIMAL
// with the element's scale and precision, UINT_8 as INTEGER(8, unsigned), TIMESTAMP_MILLIS
// as TIMESTAMP(MILLIS), ...). nullopt without either, and for ConvertedType INTERVAL (no
// LogicalType exists for it; see IsInterval) and the group-only MAP, LIST, MAP_KEY_VALUE.
// Whether the annotation fits the physical type is the caller's to check.
std::optional<LogicalType> EffectiveLogicalType(const SchemaNode& node);

// True for a node whose only annotation is the legacy ConvertedType INTERVAL.
bool IsInterval(const SchemaNode& node);

// Annotates an element written as DECIMAL(precision, scale): the LogicalType, and the
// legacy ConvertedType with the element's precision and scale (for older readers).
void AnnotateDecimal(SchemaElement* element, int32_t precision, int32_t scale);

// Everything a column reader needs to know about one leaf column.
struct ColumnDescriptor {
  int node = 0;                       // index into Schema::nodes()
  int top_level_field = 0;            // index into Schema::top_level_fields()
  std::vector<std::string> path;      // names from the top-level field down to the leaf
  std::string dotted_path;            // path joined with '.'
  Type physical_type = Type::INT32;
  int32_t type_length = 0;
  int16_t max_definition_level = 0;
  int16_t max_repetition_level = 0;
};

class Schema {
 public:
  Schema() = default;

  // Builds the tree; throws ParquetError when the list is malformed (children past the end,
  // trailing elements, a leaf without a type or a group with one, a FIXED_LEN_BYTE_ARRAY
  // without a positive type_length, nesting deeper than kMaxSchemaDepth).
  static Schema FromElements(const std::vector<SchemaElement>& elements);

  const std::vector<SchemaNode>& nodes() const { return nodes_; }
  const SchemaNode& node(int index) const { return nodes_[static_cast<size_t>(index)]; }
  const SchemaNode& root() const { return nodes_[0]; }

  // Node indices of the root's children, in order.
  const std::vector<int>& top_level_fields() const { return nodes_[0].children; }

  const std::vector<ColumnDescriptor>& columns() const { return columns_; }
  const ColumnDescriptor& column(int leaf_index) const { return columns_[static_cast<size_t>(leaf_index)]; }
  int num_columns() const { return static_cast<int>(columns_.size()); }

  // The leaf columns under top-level field `field` (an index into top_level_fields()):
  // they are contiguous, [first, first + count).
  int first_column_of_field(int field) const { return field_first_column_[static_cast<size_t>(field)]; }
  int column_count_of_field(int field) const { return field_column_count_[static_cast<size_t>(field)]; }

 private:
  std::vector<SchemaNode> nodes_;
  std::vector<ColumnDescriptor> columns_;
  std::vector<int> field_first_column_;
  std::vector<int> field_column_count_;
};

}  // namespace parquet

// The shape of a top-level nested field (a group, LIST, MAP or repeated field): which parts
// are structs, lists and maps, and how the definition and repetition levels of its leaf
// columns tell them apart. The record assembler (record_assembler.h) walks this tree to
// rebuild values; the extension renders them as JSON.
//
// Groups are classified as LogicalTypes.md says, backward-compatibility rules included:
//
// * A group annotated LIST (LogicalType or ConvertedType) whose only child is repeated is a
//   list. Its element type follows the five rules for legacy lists: the repeated child
//   itself is the (required) element when it is a primitive (2-level list), a group of
//   several fields, a group whose only field is repeated, or a one-field group named
//   `array` or `<list name>_tuple`; otherwise the repeated child's only field is the
//   element (the 3-level list), with its own repetition. The names `list` and `element`
//   are not required.
// * A group annotated MAP, or MAP_KEY_VALUE outside a MAP (old writers), whose only child
//   is a repeated group of one or two fields is a map: the first field is the key, the
//   second (if any) the value. Keys and values are found by position, not by name; an
//   optional key is accepted (some engines write one); a map without a value field reads
//   as a map whose values are all null.
// * A repeated field outside those structures (no annotation) is a required list of
//   required elements of the field's type; a repeated group is a list of structs.
// * Any other group is a struct whose fields are its children in schema order, including a
//   LIST or MAP annotation on a group that does not have the required layout, and VARIANT
//   groups (ext/common/nested_json.cc recognises those and decodes them with format/values/variant.h).
// * A group with no leaf columns below it has no data to read: its shape is kEmpty (null).
//
// Levels. For a shape S and a slot of one of its leaf columns with definition level d:
// S is null when d < S.def_level; a list or map is empty when
// def_level <= d < element_def_level; a slot whose repetition level equals S.rep_level
// starts a further element of the innermost instance of S. Every leaf below S has exactly
// one slot for a null S, an empty list or map, and at least one per element.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "format/metadata/schema.h"

namespace parquet {

enum class ShapeKind : uint8_t {
  kValue,   // a leaf column's value
  kStruct,  // named fields in schema order
  kList,    // elements in order
  kMap,     // key/value pairs in order
  kEmpty,   // a group without leaf columns: always null
};

struct Shape {
  ShapeKind kind = ShapeKind::kValue;
  std::string name;           // the schema node's name (the field name inside a struct)
  int schema_node = -1;       // index into Schema::nodes() of the node this shape reads
  int parent = -1;            // index of the parent shape, -1 for the field itself
  std::vector<int> children;  // struct: fields; list: {element}; map: {key} or {key, value}
  int16_t def_level = 0;          // not null when the definition level is >= this
  int16_t element_def_level = 0;  // list/map: at least one element when the level is >= this
  int16_t rep_level = 0;          // list/map: repetition level that starts a further element
  int first_leaf = 0;         // leaves below: [first_leaf, first_leaf + leaf_count), numbered
  int leaf_count = 0;         //   from 0 at the field's first leaf column
  int column = -1;            // kValue: the leaf column (index into Schema::columns())
};

// The shape tree of one top-level field. shapes[0] is the field itself; a parent always
// comes before its children.
struct NestedFieldShape {
  int field = 0;         // index into Schema::top_level_fields()
  int first_column = 0;  // the field's leaf columns: [first_column, first_column + column_count)
  int column_count = 0;
  std::vector<Shape> shapes;

  const Shape& root() const { return shapes[0]; }
  const Shape& shape(int index) const { return shapes[static_cast<size_t>(index)]; }
};

// Classifies top-level field `field` (an index into schema.top_level_fields()). Works for
// any field, flat ones included (a single kValue shape). Never throws for a schema that
// Schema::FromElements accepted.
NestedFieldShape DescribeNestedField(const Schema& schema, int field);

// Whether a top-level field needs assembly (a group, or a repeated leaf) rather than being
// one flat column.
bool IsNestedField(const Schema& schema, int field);

}  // namespace parquet

// JSON text of nested values: turns the events of the record assembler
// (format/read/record_assembler.h) into the JSON a nested column holds. Free of the SQLite API;
// the virtual table returns the text with the JSON subtype.
//
// Shapes (format/metadata/nested_schema.h):
//   struct -> object, fields in schema order: {"a":1,"b":null}
//   list   -> array: [1,null,3]
//   map    -> object when its key is text (STRING, ENUM, JSON, UUID, or binary read as text
//             with binary_as_string=1): {"k1":1,"k2":null}, keys in file order, repeated keys
//             kept as written; a null key (possible only with optional keys) is "".
//             Any other key type: array of pairs [{"key":1,"value":true},...].
//             A map without a value field has null values.
//   null   -> null
//
// Leaf values, by the column's mapping (column_mapping.h); decimal_as and timestamp_as do
// not apply inside JSON, binary_as_string does:
//   BOOLEAN true/false; integers exact digits (UINT64 too: 18446744073709551615);
//   FLOAT, DOUBLE, FLOAT16 the shortest digits that read back as the same value of that
//   width (1.1 for the float 1.1f), written as JavaScript writes numbers (1e+21, 1e-7,
//   0.000001) and with ".0" appended when neither '.' nor an exponent appears (1.0, -0.0),
//   so SQLite's JSON functions read them as REAL; NaN and infinities are null;
//   DECIMAL the exact decimal number with `scale` fraction digits (1.50, -0.05, 12300);
//   STRING, ENUM as strings; JSON embedded as JSON, without the whitespace between its
//   tokens, when it is one valid JSON value (RFC 8259, nesting up to 1000 levels), else as
//   a string; JSON map keys stay strings;
//   DATE, TIME, TIMESTAMP, INT96 strings in the text forms of top-level columns
//   ("2024-01-31", "12:00:00.5", "2024-01-31 12:00:00"); UUID the 8-4-4-4-12 string;
//   INTERVAL the object {"months":m,"days":d,"millis":n};
//   BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY without annotation, BSON, GEOMETRY, GEOGRAPHY:
//   base64 strings (RFC 4648 standard alphabet, with '=' padding);
//   UNKNOWN (always-null) null.
//   VARIANT group (LogicalType VARIANT): the variant value as JSON, in the forms of
//   format/values/variant.h, rebuilt from the group's `metadata`, `value` and `typed_value` as
//   VariantShredding.md says (parquet-format):
//   - `typed_value` a leaf (shredded primitive): its value in the leaf forms above;
//   - `typed_value` a group of field groups (shredded object): an object holding the
//     fields present in the groups (a field whose `value` and `typed_value` are both null
//     is missing) and, when `value` is set, the fields of that residual object, keys sorted
//     as the variant encoding sorts them; a residual field named like a shredded field is
//     left out (the shredded field wins, also when it is missing);
//   - `typed_value` a LIST of element groups (shredded array): the elements in order, a
//     missing element as null;
//   - `typed_value` null: the variant in `value`; both null: null (variant null).
//   Errors (ParquetError naming file, column, row group and row): `value` and a primitive
//   or array `typed_value` both set, a residual `value` that is not an object next to a
//   shredded object, a typed_value type the spec does not list (unsigned integers,
//   FIXED_LEN_BYTE_ARRAY other than UUID or DECIMAL, INT96, ...), a malformed variant.
//   Inside variants unannotated binary is base64 whatever binary_as_string says.
// Strings escape '"', '\' and control characters (\b \f \n \r \t, else \u00xx); other
// bytes are copied as they are.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ext/common/column_mapping.h"
#include "ext/common/parquet_to_sql.h"
#include "format/metadata/nested_schema.h"
#include "format/read/record_assembler.h"
#include "format/metadata/schema.h"
#include "format/values/variant.h"

namespace sqlite_parquet {

class NestedJsonRenderer {
 public:
  NestedJsonRenderer(const parquet::Schema& schema, const parquet::NestedFieldShape& shape,
                     const MappingOptions& options);

  // Shows struct fields stored under a physical name (the first of a pair) by their logical
  // name (the second): a lake table's column mapping (format/lake/lake_snapshot.h).
  void RenameFields(const std::vector<std::pair<std::string, std::string>>& physical_to_logical);

  // Writes the JSON of the assembler's current row into *out (replacing its contents).
  // Returns false, leaving *out empty, when the field itself is null in this row.
  bool Render(const parquet::RecordAssembler& assembler, std::string* out);

 private:
  // Role of a shape in a VARIANT group: the group itself (metadata, value, typed_value) or
  // a group of a shredded object field or array element (value, typed_value).
  enum class VariantRole : uint8_t { kNone, kRoot, kShredded };
  struct ShapeInfo {
    parquet::ShapeKind kind = parquet::ShapeKind::kValue;
    std::string name;           // the schema node's name
    std::string member_prefix;  // "\"name\":" for a struct field
    ColumnMapping mapping;      // kValue: how the leaf's values are rendered
    int leaf = -1;              // field-relative leaf index (kValue: its leaf; else its first)
    bool map_as_object = false; // kMap: text keys
    bool map_has_value = false; // kMap: the key_value group has a value field
    VariantRole variant_role = VariantRole::kNone;
    int variant_metadata = -1;  // kRoot/kShredded: child shapes (-1 when absent)
    int variant_value = -1;
    int variant_typed = -1;
    std::string variant_error;  // kRoot: why the group's layout cannot be read, if it cannot,
    int variant_error_shape = -1;  //  and the shape whose (first) column it concerns
    std::vector<std::string_view> shredded_names;  // typed_value object: field names, sorted
  };
  struct OpenContainer {
    const ShapeInfo* info;
    uint32_t items;       // struct fields, list elements or map entries written so far
    bool expecting_value; // map: the key of the current entry is written
    bool writing_key;     // map as object: the current item is the key
  };
  // Per nesting depth of shredded objects: the rendered fields before they are sorted.
  struct ObjectScratch {
    struct Entry {
      std::string_view key;
      size_t start;
      size_t length;
    };
    std::string text;
    std::vector<Entry> entries;
    std::vector<parquet::VariantField> residual;
  };

  std::string MarkShredded(const parquet::Schema& schema, const parquet::NestedFieldShape& shape, int node,
                           bool root, int* error_shape);
  std::string CheckShreddedLeaf(const parquet::Schema& schema, const parquet::Shape& leaf, ShapeInfo* info);
  size_t SkipShape(size_t pos) const;
  bool AppendShredded(const ShapeInfo& node, size_t* pos, int depth, std::string* out);
  void AppendShreddedObject(const ShapeInfo& typed, size_t begin, const parquet::ByteArray* residual,
                            const ShapeInfo* value_info, int depth, std::string* out);
  void AppendVariantValue(const ShapeInfo& value_leaf, const parquet::ByteArray& bytes, std::string* out);
  [[noreturn]] void VariantFail(const ShapeInfo& at, const std::string& what) const;

  void BeforeItem(int shape);
  void AfterItem();
  void AppendValue(const ShapeInfo& info, const parquet::RecordAssembler& assembler, uint32_t index,
                   std::string* out);

  std::vector<ShapeInfo> shapes_;
  std::vector<OpenContainer> open_;
  std::string* out_ = nullptr;
  FormatBuffer buffer_;  // leaf values converted to SQLite values (AppendValue)
  // While a variant is rendered: the row's assembler and events, and its metadata.
  const parquet::RecordAssembler* assembler_ = nullptr;
  const std::vector<parquet::NestedEvent>* events_ = nullptr;
  std::optional<parquet::VariantMetadata> variant_metadata_;
  std::vector<ObjectScratch> object_scratch_;  // indexed by depth
};

}  // namespace sqlite_parquet

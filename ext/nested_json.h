// JSON text of nested values: turns the events of the record assembler
// (format/record_assembler.h) into the JSON a nested column holds. Free of the SQLite API;
// the virtual table returns the text with the JSON subtype.
//
// Shapes (format/nested_schema.h):
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
//   STRING, ENUM, JSON as strings (a JSON leaf stays a string: json(value) parses it);
//   DATE, TIME, TIMESTAMP, INT96 strings in the text forms of top-level columns
//   ("2024-01-31", "12:00:00.5", "2024-01-31 12:00:00"); UUID the 8-4-4-4-12 string;
//   INTERVAL the object {"months":m,"days":d,"millis":n};
//   BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY without annotation, BSON, GEOMETRY, GEOGRAPHY:
//   base64 strings (RFC 4648 standard alphabet, with '=' padding);
//   UNKNOWN (always-null) null.
//   VARIANT group (LogicalType VARIANT with binary `metadata` and `value` fields, not
//   shredded): the decoded variant value as JSON, in the forms of format/variant.h; a null
//   `value` is null. A malformed variant is an error (ParquetError). A variant shredded to a
//   primitive (`typed_value` a leaf column) reads `value` when it is set, else the leaf
//   `typed_value` in the leaf forms above (both set is an error); other shredded variants (typed_value a group or
//   list) still show their fields as a struct.
// Strings escape '"', '\' and control characters (\b \f \n \r \t, else \u00xx); other
// bytes are copied as they are.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ext/column_mapping.h"
#include "format/nested_schema.h"
#include "format/record_assembler.h"
#include "format/schema.h"

namespace sqlite_parquet {

class NestedJsonRenderer {
 public:
  NestedJsonRenderer(const parquet::Schema& schema, const parquet::NestedFieldShape& shape,
                     const MappingOptions& options);

  // Writes the JSON of the assembler's current row into *out (replacing its contents).
  // Returns false, leaving *out empty, when the field itself is null in this row.
  bool Render(const parquet::RecordAssembler& assembler, std::string* out);

 private:
  struct ShapeInfo {
    parquet::ShapeKind kind = parquet::ShapeKind::kValue;
    std::string member_prefix;  // "\"name\":" for a struct field
    ColumnMapping mapping;      // kValue: how the leaf's values are rendered
    int leaf = -1;              // kValue: field-relative leaf index
    bool map_as_object = false; // kMap: text keys
    bool map_has_value = false; // kMap: the key_value group has a value field
    int variant_part = 0;       // kValue: 1 metadata, 2 value, 3 typed_value of a variant group
    bool is_variant = false;    // kStruct: an unshredded VARIANT group, decoded to JSON
  };
  struct OpenContainer {
    const ShapeInfo* info;
    uint32_t items;       // struct fields, list elements or map entries written so far
    bool expecting_value; // map: the key of the current entry is written
    bool writing_key;     // map as object: the current item is the key
  };
  // The metadata and value of the variant group being read (pointers into the assembler).
  struct VariantParts {
    const uint8_t* metadata = nullptr;
    size_t metadata_length = 0;
    const uint8_t* value = nullptr;
    size_t value_length = 0;
    bool has_metadata = false;
    bool has_value = false;
    const ShapeInfo* typed_info = nullptr;  // the typed_value leaf, when it is set
    uint32_t typed_index = 0;
  };
  void AppendVariant(const parquet::RecordAssembler& assembler);

  void BeforeItem(int shape);
  void AfterItem();
  void AppendValue(const ShapeInfo& info, const parquet::RecordAssembler& assembler, uint32_t index);

  std::vector<ShapeInfo> shapes_;
  std::vector<OpenContainer> open_;
  std::string* out_ = nullptr;
  std::string scratch_;
  VariantParts variant_;
};

}  // namespace sqlite_parquet

// Writing VARIANT columns shredded as VariantShredding.md (parquet-format) lays them out: the
// Parquet schema of a VARIANT group with or without `typed_value` columns, the leaf columns
// it has, the split of each encoded variant (metadata + value, variant_encoder.h) into those
// leaves with Dremel levels, and the choice of a shredding from sample values (`auto`).
//
// Layout of a top-level OPTIONAL VARIANT group named N (leaves depth first, `metadata` and
// `value` first, as DuckDB requires):
//   unshredded:  optional group N (VARIANT(1)) { required binary metadata; required binary value; }
//   shredded:    optional group N (VARIANT(1)) { required binary metadata; optional binary value;
//                                                optional <typed> typed_value; }
// where <typed> is, by the shredding's kind:
//   BOOLEAN boolean; INT8 / INT16 int32 (INTEGER(8|16, signed)); INT32 int32; INT64 int64;
//   DOUBLE double; STRING binary (STRING); DECIMAL(p,s) int32 (p <= 9), int64 (p <= 18) or
//   fixed_len_byte_array(16) (p <= 38), annotated DECIMAL(p,s);
//   object: group { required group <field> { optional binary value; optional <typed> typed_value; } ... }
//   array:  group (LIST) { repeated group list { required group element {
//                              optional binary value; optional <typed> typed_value; } } }
//
// Which variant values go into a typed_value (all others stay whole in `value`, and the
// typed_value is null): BOOLEAN true/false; INT8..INT64 int8..int64 values that fit the
// width; DOUBLE double; STRING short and long strings; DECIMAL(p,s) decimal4/8/16 values of
// exactly scale s with at most p digits (other scales would print differently); an object
// for an object shredding: its shredded fields go to their groups (a missing field has
// both `value` and `typed_value` null), the others stay in `value` as an object of the
// leftover fields (null when none is left); an array for an array shredding (every element
// written through the element group). Integers never go into DOUBLE or DECIMAL nor decimals
// into integers: the JSON text read back stays the same.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "format/metadata/enums.h"
#include "format/metadata/metadata.h"
#include "format/values/variant.h"

namespace parquet {

// What the typed_value of one variant position holds.
struct VariantShredding {
  enum class Kind : uint8_t { kBoolean, kInt8, kInt16, kInt32, kInt64, kDouble, kDecimal, kString, kObject, kArray };
  Kind kind = Kind::kString;
  int32_t precision = 0;  // kDecimal: 1..38
  int32_t scale = 0;      // kDecimal: 0..precision
  // kObject: the shredded fields, sorted by name (bytewise), distinct, at least one.
  std::vector<std::pair<std::string, VariantShredding>> fields;
  // kArray: exactly one, the element's shredding.
  std::vector<VariantShredding> element;
};

inline constexpr int32_t kMaxVariantDecimalPrecision = 38;

// The shredding in the syntax of parquet_copy's shredding= option:
// "{a:INT64,b:[STRING],c:DECIMAL(9,2)}". Names that are not plain words are quoted "...".
std::string DescribeVariantShredding(const VariantShredding& shredding);

// Appends the SchemaElements of a VARIANT group named `name` with `repetition` (the layout
// above; shredding null: unshredded). With next_field_id non-null every element gets
// field_id = (*next_field_id)++ in order.
void AppendVariantSchemaElements(const std::string& name, FieldRepetitionType repetition,
                                 const VariantShredding* shredding, int32_t* next_field_id,
                                 std::vector<SchemaElement>* out);

// One leaf column of a top-level OPTIONAL VARIANT group.
struct VariantLeaf {
  int16_t max_definition_level = 0;
  int16_t max_repetition_level = 0;
  Type physical_type = Type::BYTE_ARRAY;
};
// The leaves in schema order (metadata first, then value, then the typed_value columns).
std::vector<VariantLeaf> VariantLeaves(const VariantShredding* shredding);

// Receives the level entries (and values) ShreddedVariantWriter produces, per leaf index of
// VariantLeaves. A value comes with its leaf's maximum definition level.
class VariantLeafSink {
 public:
  virtual ~VariantLeafSink() = default;
  virtual void Level(int leaf, int16_t def, int16_t rep) = 0;  // an entry without a value
  virtual void Boolean(int leaf, int16_t def, int16_t rep, bool value) = 0;
  virtual void Int32(int leaf, int16_t def, int16_t rep, int32_t value) = 0;
  virtual void Int64(int leaf, int16_t def, int16_t rep, int64_t value) = 0;
  virtual void Double(int leaf, int16_t def, int16_t rep, double value) = 0;
  // BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY values (copied by the sink: the bytes do not last).
  virtual void Bytes(int leaf, int16_t def, int16_t rep, const uint8_t* data, size_t size) = 0;
};

// Splits encoded variants into the leaves of a top-level OPTIONAL VARIANT group.
class ShreddedVariantWriter {
 public:
  // shredding null: the unshredded layout (metadata and value only). The shredding must
  // outlive the writer.
  explicit ShreddedVariantWriter(const VariantShredding* shredding);
  ShreddedVariantWriter(const ShreddedVariantWriter&) = delete;
  ShreddedVariantWriter& operator=(const ShreddedVariantWriter&) = delete;
  ~ShreddedVariantWriter();

  // The leaves the writer fills (VariantLeaves).
  const std::vector<VariantLeaf>& leaves() const { return leaves_; }
  // A NULL (the group itself null).
  void WriteNull(VariantLeafSink* sink) const;
  // One variant: its metadata and value buffers (as EncodeJsonAsVariant makes them; every
  // object field name must be in the metadata). Throws ParquetError for a malformed value.
  void Write(const std::string& metadata, const std::string& value, VariantLeafSink* sink);

  struct Node;  // a shredded position (variant_shredding.cc)

 private:
  void Build(const VariantShredding* s, int16_t def, int16_t rep_depth, Node* node);
  void WriteNode(const Node& node, const uint8_t* value, size_t length, int16_t rep, int depth, VariantLeafSink* sink);
  bool WritePrimitive(const Node& node, const uint8_t* value, size_t length, int16_t rep, VariantLeafSink* sink);
  static void WriteMissing(const Node& node, int16_t def, int16_t rep, VariantLeafSink* sink);

  // Buffers of one nesting depth, kept between rows (a deque: deeper levels are added while
  // shallower ones are in use).
  struct Scratch {
    std::vector<VariantField> fields;
    std::vector<const VariantField*> leftover, matched;
    std::vector<std::pair<const uint8_t*, size_t>> elements;  // array elements, or leftover field bytes
  };
  Scratch& ScratchAt(int depth);

  std::vector<VariantLeaf> leaves_;
  std::unique_ptr<Node> root_;
  std::deque<Scratch> scratch_;
  const VariantMetadata* metadata_ = nullptr;  // during Write
  std::string residual_;                        // the leftover fields of a partially shredded object
};

// Chooses a shredding from sample variants (parquet_copy's shredding=auto: the first row
// group). At each position (the top-level value, a field of the objects at a position, the
// elements of the arrays at a position) the values fall in classes: boolean, integer
// (int8..int64; the widest seen decides INT8..INT64), double, decimal of scale s (one class
// per scale; the most digits seen decide DECIMAL(9|18|38, s)), string, object, array (null
// values count as present but in no class). A position is shredded as its most common class
// when more than half of the values there are of it, where a field counts against every
// object at its parent position (so a field is shredded only if present, with that class,
// in most of them). An object position keeps at most kMaxShreddedFields of its qualifying
// fields (the most frequent; ties by name), of fields whose names differ only in ASCII case
// the most frequent (DuckDB matches struct fields ignoring case), and is shredded only if
// it keeps one; an array
// position only if its elements are shredded. Nesting deeper than kMaxShreddingDepth
// positions stays unshredded.
class VariantShreddingChooser {
 public:
  static constexpr size_t kMaxShreddedFields = 256;
  static constexpr int kMaxShreddingDepth = 16;

  VariantShreddingChooser();
  ~VariantShreddingChooser();
  // One non-NULL sample. Throws ParquetError for a malformed value.
  void Add(const std::string& metadata, const std::string& value);
  // The shredding, or nullopt when nothing qualifies (write unshredded).
  std::optional<VariantShredding> Choose() const;

  struct Stats;  // what was seen at one position (variant_shredding.cc)

 private:
  std::unique_ptr<Stats> root_;
};

}  // namespace parquet

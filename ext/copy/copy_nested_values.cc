// parquet_copy's conversion of nested values (see copy_values.h): the JSON text of a LIST,
// MAP or STRUCT value parsed and written into the leaves of its field with Dremel levels
// (NestedWriter, ConvertNested), and the leaves of a column prepared (PrepareLeaves).
#include <algorithm>
#include <charconv>
#include <cstring>
#include <functional>
#include <string>
#include <system_error>
#include <unordered_map>
#include <vector>

#include "ext/copy/copy_conversion.h"
#include "ext/copy/copy_values.h"
#include "format/common/text_to_double.h"
#include "format/io/http_client.h"
#include "format/values/json_document.h"
#include "format/values/logical_values.h"
#include "format/values/text.h"
#include "format/values/variant_encoder.h"
#include "format/values/variant_shredding.h"

namespace sqlite_parquet {

namespace {

using parquet::ByteArray;
using parquet::JsonDocument;
using parquet::JsonNode;
using parquet::UnescapeJsonString;
using parquet::TimeUnit;

// Writes JSON values into the leaves of a nested field (Dremel levels).
class NestedWriter {
 public:
  NestedWriter(std::vector<LeafData>* leaves) : leaves_(*leaves) {}

  // Writes the value of a top-level OPTIONAL field; `node` null means NULL.
  bool WriteTop(const CopyType& type, const JsonDocument* document, std::string* detail) {
    document_ = document;
    detail_ = detail;
    return WriteField(type, 0, document != nullptr ? 0 : -1, 0, 0, 0, "");
  }

 private:
  // Every leaf under `type` (starting at leaf `leaf`) gets an entry at (def, rep) and no value.
  int EmitEmpty(const CopyType& type, int leaf, int16_t def, int16_t rep) {
    if (!type.is_nested()) {
      LeafData& data = leaves_[static_cast<size_t>(leaf)];
      data.AppendLevel(def);
      if (data.max_repetition_level > 0) data.rep_levels.push_back(rep);
      return 1;
    }
    int count = 0;
    for (const CopyField& child : type.children) count += EmitEmpty(child.type, leaf + count, def, rep);
    return count;
  }

  const JsonNode& Node(int32_t index) const { return document_->node(index); }

  bool Failed(const std::string& path, const std::string& what) {
    *detail_ = (path.empty() ? std::string() : path + ": ") + what;
    return false;
  }

  // A STRUCT type's fields by ASCII-lowercased name (distinct: schema= refuses names that
  // differ only in case), built once per type.
  const std::unordered_map<std::string, size_t>& FieldIndex(const CopyType& type) {
    auto [entry, inserted] = field_indexes_.try_emplace(&type);
    if (inserted) {
      for (size_t f = 0; f < type.children.size(); ++f) {
        std::string name = type.children[f].name;
        for (char& c : name) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
        entry->second.emplace(std::move(name), f);
      }
    }
    return entry->second;
  }

  // The key of an object member, unescaped if needed.
  std::string_view KeyOf(const JsonNode& node) {
    if (!node.key_escaped) return node.key;
    UnescapeJsonString(node.key, &key_scratch_);
    return key_scratch_;
  }

  // A JSON scalar (or a whole array/object for STRING, BINARY and JSON leaves) as an SqlValue.
  bool ScalarValue(const CopyType& type, const JsonNode& node, SqlValue* v) {
    if (type.kind == CopyKind::kJson) {
      v->type = SqlValue::Type::kText;
      v->bytes = node.kind == JsonNode::Kind::kString
                     ? std::string_view(node.text.data() - 1, node.text.size() + 2)
                     : node.kind == JsonNode::Kind::kNumber || node.kind == JsonNode::Kind::kArray ||
                               node.kind == JsonNode::Kind::kObject
                           ? node.text
                           : std::string_view(node.kind == JsonNode::Kind::kTrue ? "true" : "false");
      return true;
    }
    const bool textual = type.kind == CopyKind::kString || type.kind == CopyKind::kEnum || type.kind == CopyKind::kBinary;
    switch (node.kind) {
      case JsonNode::Kind::kTrue:
      case JsonNode::Kind::kFalse:
        v->type = SqlValue::Type::kInteger;
        v->integer = node.kind == JsonNode::Kind::kTrue ? 1 : 0;
        if (textual) {
          v->type = SqlValue::Type::kText;
          v->bytes = v->integer ? "true" : "false";
        }
        return true;
      case JsonNode::Kind::kNumber: {
        if (textual) {
          v->type = SqlValue::Type::kText;
          v->bytes = node.text;
          return true;
        }
        const char* begin = node.text.data();
        const char* end = begin + node.text.size();
        const std::from_chars_result integer = std::from_chars(begin, end, v->integer);
        if (integer.ec == std::errc() && integer.ptr == end) {
          v->type = SqlValue::Type::kInteger;
          return true;
        }
        const parquet::TextToDoubleResult real = parquet::TextToDouble(begin, end, v->real);
        if (real.error != std::errc() || real.end != end) return false;  // out of double range
        v->type = SqlValue::Type::kReal;
        return true;
      }
      case JsonNode::Kind::kString:
        v->type = SqlValue::Type::kText;
        if (node.escaped) {
          UnescapeJsonString(node.text, &string_scratch_);
          v->bytes = string_scratch_;
        } else {
          v->bytes = node.text;
        }
        return true;
      case JsonNode::Kind::kArray:
      case JsonNode::Kind::kObject:
        if (!textual) return false;
        v->type = SqlValue::Type::kText;
        v->bytes = node.text;
        return true;
      case JsonNode::Kind::kNull:
        return false;
    }
    return false;
  }

  bool WriteScalar(const CopyType& type, int leaf, const JsonNode& node, int16_t def, int16_t rep,
                   const std::string& path) {
    SqlValue v;
    LeafData& data = leaves_[static_cast<size_t>(leaf)];
    if (!ScalarValue(type, node, &v) || !PutScalar(type, v, true, &data)) {
      std::string shown = node.kind == JsonNode::Kind::kString ? "\"" + std::string(node.text) + "\"" : std::string(node.text);
      if (node.kind == JsonNode::Kind::kTrue) shown = "true";
      if (node.kind == JsonNode::Kind::kFalse) shown = "false";
      if (shown.size() > 60) shown = shown.substr(0, 57) + "...";
      return Failed(path, shown + " is not a valid " + DescribeCopyType(type));
    }
    data.AppendLevel(def);
    if (data.max_repetition_level > 0) data.rep_levels.push_back(rep);
    return true;
  }

  // Writes an OPTIONAL field (or the REQUIRED map key when `required`) of type `type` whose
  // leaves start at `leaf`; `node` is the JSON node or -1 for NULL/missing. `def` is the
  // definition level of the parent, `rep` the repetition level of this entry and
  // `rep_depth` the number of repeated ancestors.
  bool WriteField(const CopyType& type, int leaf, int32_t node_index, int16_t def, int16_t rep, int16_t rep_depth,
                  const std::string& path, bool required = false) {
    if (node_index < 0 || Node(node_index).kind == JsonNode::Kind::kNull) {
      if (required) return Failed(path, "a map key cannot be null");
      EmitEmpty(type, leaf, def, rep);
      return true;
    }
    const int16_t here = required ? def : static_cast<int16_t>(def + 1);
    const JsonNode& node = Node(node_index);
    switch (type.kind) {
      case CopyKind::kList: {
        if (node.kind != JsonNode::Kind::kArray) return Failed(path, "expected a JSON array");
        if (node.first_child < 0) {
          EmitEmpty(type.children[0].type, leaf, here, rep);
          return true;
        }
        const int16_t element_depth = static_cast<int16_t>(rep_depth + 1);
        int index = 0;
        for (int32_t child = node.first_child; child >= 0; child = Node(child).next_sibling, ++index) {
          if (!WriteField(type.children[0].type, leaf, child, static_cast<int16_t>(here + 1),
                          index == 0 ? rep : element_depth, element_depth, path + "[" + std::to_string(index) + "]")) {
            return false;
          }
        }
        return true;
      }
      case CopyKind::kMap: {
        // An object {"key": value, ...}, or an array of {"key": k, "value": v} entries (the
        // form the parquet table reads maps with non-text keys in).
        const bool pairs = node.kind == JsonNode::Kind::kArray;
        if (node.kind != JsonNode::Kind::kObject && !pairs) {
          return Failed(path, "expected a JSON object or an array of {\"key\": ..., \"value\": ...} objects");
        }
        const int value_leaf = leaf + LeafCount(type.children[0].type);
        if (node.first_child < 0) {
          EmitEmpty(type.children[0].type, leaf, here, rep);
          EmitEmpty(type.children[1].type, value_leaf, here, rep);
          return true;
        }
        const int16_t entry_depth = static_cast<int16_t>(rep_depth + 1);
        const int16_t entry_def = static_cast<int16_t>(here + 1);
        int index = 0;
        for (int32_t child = node.first_child; child >= 0; child = Node(child).next_sibling, ++index) {
          const int16_t entry_rep = index == 0 ? rep : entry_depth;
          if (!pairs) {
            const std::string key(KeyOf(Node(child)));
            const std::string entry_path = path + "[\"" + key + "\"]";
            if (!WriteKey(type.children[0].type, leaf, key, entry_def, entry_rep, entry_path) ||
                !WriteField(type.children[1].type, value_leaf, child, entry_def, entry_rep, entry_depth, entry_path)) {
              return false;
            }
            continue;
          }
          const std::string entry_path = path + "[" + std::to_string(index) + "]";
          const JsonNode& entry = Node(child);
          if (entry.kind != JsonNode::Kind::kObject) {
            return Failed(entry_path, "expected a {\"key\": ..., \"value\": ...} object");
          }
          int32_t key_node = -1, value_node = -1;
          for (int32_t member = entry.first_child; member >= 0; member = Node(member).next_sibling) {
            const std::string_view name = KeyOf(Node(member));
            if (name == "key") {
              key_node = member;
            } else if (name == "value") {
              value_node = member;
            } else {
              return Failed(entry_path, "unexpected member \"" + std::string(name) + "\" in a map entry");
            }
          }
          if (key_node < 0) return Failed(entry_path, "a map entry needs a \"key\"");
          if (!WriteField(type.children[0].type, leaf, key_node, entry_def, entry_rep, entry_depth, entry_path + ".key", true) ||
              !WriteField(type.children[1].type, value_leaf, value_node, entry_def, entry_rep, entry_depth, entry_path + ".value")) {
            return false;
          }
        }
        return true;
      }
      case CopyKind::kStruct: {
        if (node.kind != JsonNode::Kind::kObject) return Failed(path, "expected a JSON object");
        // Every member must name a field; each field takes the first member of its exact
        // name, else the first of its name in another case. One pass over the members with
        // the type's field index (linear however many members repeat a name).
        const std::unordered_map<std::string, size_t>& fields = FieldIndex(type);
        std::vector<int32_t> exact(type.children.size(), -1), loose(type.children.size(), -1);
        for (int32_t child = node.first_child; child >= 0; child = Node(child).next_sibling) {
          const std::string_view key = KeyOf(Node(child));
          lower_scratch_.assign(key);
          for (char& c : lower_scratch_) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
          const auto found = fields.find(lower_scratch_);
          if (found == fields.end()) {
            return Failed(path, "no field named \"" + std::string(key) + "\" in " + DescribeCopyType(type));
          }
          if (loose[found->second] < 0) loose[found->second] = child;
          if (exact[found->second] < 0 && key == type.children[found->second].name) exact[found->second] = child;
        }
        int child_leaf = leaf;
        for (size_t f = 0; f < type.children.size(); ++f) {
          const CopyField& field = type.children[f];
          const int32_t match = exact[f] >= 0 ? exact[f] : loose[f];
          if (!WriteField(field.type, child_leaf, match, here, rep, rep_depth,
                          path.empty() ? field.name : path + "." + field.name)) {
            return false;
          }
          child_leaf += LeafCount(field.type);
        }
        return true;
      }
      default:
        return WriteScalar(type, leaf, node, here, rep, path);
    }
  }

  // A map key comes from a JSON object key (a string): numbers and booleans are read from it.
  bool WriteKey(const CopyType& type, int leaf, const std::string& key, int16_t def, int16_t rep,
                const std::string& path) {
    SqlValue v;
    v.type = SqlValue::Type::kText;
    v.bytes = key;
    const char* begin = key.data();
    const char* end = begin + key.size();
    const bool numeric = type.kind != CopyKind::kString && type.kind != CopyKind::kEnum && type.kind != CopyKind::kJson &&
                         type.kind != CopyKind::kBinary && type.kind != CopyKind::kFixed && type.kind != CopyKind::kUuid &&
                         type.kind != CopyKind::kDecimal && type.kind != CopyKind::kDate && type.kind != CopyKind::kTime &&
                         type.kind != CopyKind::kTimestamp;
    std::string json_key;
    if (numeric && !key.empty()) {
      int64_t integer = 0;
      double real = 0;
      if (std::from_chars(begin, end, integer).ptr == end) {
        v.type = SqlValue::Type::kInteger;
        v.integer = integer;
      } else if (parquet::TextToDouble(begin, end, real).end == end) {
        v.type = SqlValue::Type::kReal;
        v.real = real;
      } else if (key == "true" || key == "false") {
        v.type = SqlValue::Type::kInteger;
        v.integer = key == "true" ? 1 : 0;
      }
    } else if (type.kind == CopyKind::kJson) {
      json_key = "\"" + key + "\"";  // a JSON key is a JSON string
      v.bytes = json_key;
    }
    LeafData& data = leaves_[static_cast<size_t>(leaf)];
    if (!PutScalar(type, v, true, &data)) {
      return Failed(path, "key \"" + key + "\" is not a valid " + DescribeCopyType(type));
    }
    data.AppendLevel(def);
    if (data.max_repetition_level > 0) data.rep_levels.push_back(rep);
    return true;
  }

  std::vector<LeafData>& leaves_;
  const JsonDocument* document_ = nullptr;
  std::string* detail_ = nullptr;
  std::string string_scratch_;
  std::string key_scratch_;
  std::string lower_scratch_;
  std::unordered_map<const CopyType*, std::unordered_map<std::string, size_t>> field_indexes_;
};

// Sizes of a leaf's buffers, to undo a partly written row.
struct LeafMark {
  size_t def = 0, rep = 0, values = 0;
};

LeafMark MarkOf(const LeafData& leaf) {
  return LeafMark{leaf.def_levels().size(), leaf.rep_levels.size(), leaf.num_values()};
}

void PrepareLeaf(const CopyType& type, int16_t def, int16_t rep, std::vector<LeafData>* leaves, size_t* next) {
  if (!type.is_nested()) {
    LeafData& leaf = (*leaves)[(*next)++];
    leaf.Clear();
    leaf.max_definition_level = def;
    leaf.max_repetition_level = rep;
    leaf.physical_type = PhysicalTypeOf(type);
    return;
  }
  if (type.kind == CopyKind::kVariant) {  // only top level: the leaves of its layout
    for (const parquet::VariantLeaf& layout : parquet::VariantLeaves(type.shredding.get())) {
      LeafData& leaf = (*leaves)[(*next)++];
      leaf.Clear();
      leaf.max_definition_level = layout.max_definition_level;
      leaf.max_repetition_level = layout.max_repetition_level;
      leaf.physical_type = layout.physical_type;
    }
  } else if (type.kind == CopyKind::kStruct) {
    for (const CopyField& child : type.children) PrepareLeaf(child.type, static_cast<int16_t>(def + 1), rep, leaves, next);
  } else if (type.kind == CopyKind::kList) {
    PrepareLeaf(type.children[0].type, static_cast<int16_t>(def + 2), static_cast<int16_t>(rep + 1), leaves, next);
  } else {  // MAP: repeated key_value, required key, optional value
    PrepareLeaf(type.children[0].type, static_cast<int16_t>(def + 1), static_cast<int16_t>(rep + 1), leaves, next);
    PrepareLeaf(type.children[1].type, static_cast<int16_t>(def + 2), static_cast<int16_t>(rep + 1), leaves, next);
  }
}

void TruncateLeaf(LeafData* leaf, const LeafMark& mark);

}  // namespace

namespace {

// The leaves of a VARIANT column as the shredded writer fills them.
class VariantLeafData : public parquet::VariantLeafSink {
 public:
  explicit VariantLeafData(std::vector<LeafData>* leaves) : leaves_(*leaves) {}
  void Level(int leaf, int16_t def, int16_t rep) override { Entry(leaf, def, rep); }
  void Boolean(int leaf, int16_t def, int16_t rep, bool value) override { Entry(leaf, def, rep).AppendBool(value); }
  void Int32(int leaf, int16_t def, int16_t rep, int32_t value) override { Entry(leaf, def, rep).int32s.push_back(value); }
  void Int64(int leaf, int16_t def, int16_t rep, int64_t value) override { Entry(leaf, def, rep).int64s.push_back(value); }
  void Double(int leaf, int16_t def, int16_t rep, double value) override { Entry(leaf, def, rep).doubles.push_back(value); }
  void Bytes(int leaf, int16_t def, int16_t rep, const uint8_t* data, size_t size) override {
    LeafData& target = Entry(leaf, def, rep);
    const uint8_t* copy = size > 0 ? target.arena.Append(data, size) : nullptr;
    target.byte_arrays.push_back(parquet::ByteArray{copy, static_cast<uint32_t>(size)});
  }

 private:
  LeafData& Entry(int leaf, int16_t def, int16_t rep) {
    LeafData& target = leaves_[static_cast<size_t>(leaf)];
    target.AppendLevel(def);
    if (target.max_repetition_level > 0) target.rep_levels.push_back(rep);
    return target;
  }
  std::vector<LeafData>& leaves_;
};

// VARIANT: each TEXT (or BLOB) of JSON encoded as Variant metadata and value, split into the
// shredded columns when the type has a shredding.
// The interrupt check of a long value's encoding: the query thread's (parquet_copy runs
// under a ConnectionInterruptScope), so sqlite3_interrupt() stops a copy inside one value.
const std::function<bool()> kInterruptCheck = [] { return parquet::HttpInterruptRequested(); };

// EncodeJsonAsVariant, ending the copy (as an interrupt, never a NULL of null_on_type_error)
// when sqlite3_interrupt() comes during the value.
bool EncodeVariant(std::string_view json, std::string* metadata, std::string* value, std::string* error) {
  bool interrupted = false;
  const bool ok = parquet::EncodeJsonAsVariant(json, metadata, value, error, &kInterruptCheck, &interrupted);
  if (interrupted) throw parquet::HttpInterrupted("interrupted");
  return ok;
}

bool ConvertVariant(const CopyType& type, const ValueColumn& column, bool null_on_error, std::vector<LeafData>* leaves,
                    ConversionFailure* failure) {
  ValueColumn::Reader reader(column);
  parquet::ShreddedVariantWriter writer(type.shredding.get());
  VariantLeafData sink(leaves);
  std::string metadata_bytes, value_bytes, error;
  for (size_t row = 0; row < column.size(); ++row) {
    const SqlValue v = reader.Next();
    bool ok = false;
    if (IsBytes(v)) {
      ok = EncodeVariant(v.bytes, &metadata_bytes, &value_bytes, &error);
    } else if (v.type != SqlValue::Type::kNull) {
      error = "expected JSON text";
    }
    if (!ok && v.type != SqlValue::Type::kNull && !null_on_error) {
      failure->row = row;
      failure->message = DescribeFailure(v, type) + " (" + error + ")";
      return false;
    }
    if (ok) {
      writer.Write(metadata_bytes, value_bytes, &sink);
    } else {
      writer.WriteNull(&sink);
    }
  }
  return true;
}

}  // namespace

std::optional<parquet::VariantShredding> ChooseVariantShredding(const std::vector<const ValueColumn*>& samples) {
  parquet::VariantShreddingChooser chooser;
  std::string metadata, value, error;
  for (const ValueColumn* column : samples) {
    ValueColumn::Reader reader(*column);
    for (size_t row = 0; row < column->size(); ++row) {
      const SqlValue v = reader.Next();
      if (IsBytes(v) && EncodeVariant(v.bytes, &metadata, &value, &error)) chooser.Add(metadata, value);
    }
  }
  return chooser.Choose();
}

bool ConvertNested(const CopyType& type, const ValueColumn& column, bool null_on_error, std::vector<LeafData>* leaves,
                   ConversionFailure* failure) {
  if (type.kind == CopyKind::kVariant) return ConvertVariant(type, column, null_on_error, leaves, failure);
  ValueColumn::Reader reader(column);
  JsonDocument document;
  NestedWriter writer(leaves);
  std::vector<LeafMark> marks(leaves->size());
  std::string detail;
  for (size_t row = 0; row < column.size(); ++row) {
    const SqlValue v = reader.Next();
    if (v.type == SqlValue::Type::kNull) {
      writer.WriteTop(type, nullptr, &detail);
      continue;
    }
    for (size_t i = 0; i < leaves->size(); ++i) marks[i] = MarkOf((*leaves)[i]);
    bool ok = false;
    if (IsBytes(v)) {
      ok = document.Parse(v.bytes, &detail) && writer.WriteTop(type, &document, &detail);
    } else {
      detail = "expected JSON text";
    }
    if (ok) continue;
    if (!null_on_error) {
      failure->row = row;
      failure->message = DescribeFailure(v, type) + ": " + detail;
      return false;
    }
    for (size_t i = 0; i < leaves->size(); ++i) TruncateLeaf(&(*leaves)[i], marks[i]);
    writer.WriteTop(type, nullptr, &detail);
  }
  return true;
}

namespace {

void TruncateLeaf(LeafData* leaf, const LeafMark& mark) {
  leaf->def_levels().resize(mark.def);
  leaf->rep_levels.resize(mark.rep);
  switch (leaf->physical_type) {
    case parquet::Type::INT32: leaf->int32s.resize(mark.values); break;
    case parquet::Type::INT64: leaf->int64s.resize(mark.values); break;
    case parquet::Type::FLOAT: leaf->floats.resize(mark.values); break;
    case parquet::Type::DOUBLE: leaf->doubles.resize(mark.values); break;
    case parquet::Type::BYTE_ARRAY:
    case parquet::Type::FIXED_LEN_BYTE_ARRAY: leaf->byte_arrays.resize(mark.values); break;
    case parquet::Type::BOOLEAN:
      leaf->TruncateBools(mark.values);
      break;
    default: break;
  }
}

}  // namespace

void PrepareLeaves(const CopyType& type, std::vector<LeafData>* leaves) {
  leaves->resize(static_cast<size_t>(LeafCount(type)));
  size_t next = 0;
  PrepareLeaf(type, 1, 0, leaves, &next);
}

}  // namespace sqlite_parquet

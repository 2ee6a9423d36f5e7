// JSON rendering of assembled nested rows (see nested_json.h). One pass over the events
// with a stack of the open containers; leaf values are converted by parquet_to_sql.h and
// written into the output directly.
#include "ext/common/nested_json.h"

#include <algorithm>
#include <charconv>

#include "ext/common/parquet_to_sql.h"
#include "format/common/error.h"
#include "format/values/json_text.h"
#include "format/values/variant.h"

namespace sqlite_parquet {

using parquet::AppendJsonBase64;
using parquet::AppendJsonDouble;
using parquet::AppendJsonFloat;
using parquet::AppendJsonHalf;
using parquet::AppendJsonString;

using parquet::ByteArray;
using parquet::NestedEvent;
using parquet::NestedEventKind;
using parquet::ShapeKind;

namespace {

// "INT32 (UINT_32)", "FIXED_LEN_BYTE_ARRAY(4)": a leaf's physical and converted type for
// error messages.
std::string DescribeLeafType(const parquet::SchemaNode& node) {
  std::string text = parquet::ToString(*node.physical_type);
  if (*node.physical_type == parquet::Type::FIXED_LEN_BYTE_ARRAY) text += "(" + std::to_string(node.type_length) + ")";
  if (node.logical_type.has_value() && node.logical_type->kind == parquet::LogicalType::Kind::INTEGER) {
    text += std::string(" INT(") + std::to_string(node.logical_type->int_bit_width) +
            (node.logical_type->int_is_signed ? ", signed)" : ", unsigned)");
  } else if (node.converted_type.has_value()) {
    text += " " + parquet::ToString(*node.converted_type);
  }
  return text;
}

// "a.b.c": the names from the top-level field down to schema node `node`.
std::string NodePath(const parquet::Schema& schema, int node) {
  std::string path;
  for (int n = node; n >= 0; n = schema.nodes()[static_cast<size_t>(n)].parent) {
    const parquet::SchemaNode& current = schema.nodes()[static_cast<size_t>(n)];
    if (current.depth == 0) break;  // the root
    path = path.empty() ? current.name : current.name + "." + path;
  }
  return path;
}

}  // namespace

void NestedJsonRenderer::RenameFields(const std::vector<std::pair<std::string, std::string>>& physical_to_logical) {
  for (ShapeInfo& info : shapes_) {
    if (info.member_prefix.empty()) continue;
    for (const auto& pair : physical_to_logical) {
      if (pair.first != info.name) continue;
      info.member_prefix.clear();
      AppendJsonString(pair.second, &info.member_prefix);
      info.member_prefix.push_back(':');
      break;
    }
  }
}

NestedJsonRenderer::NestedJsonRenderer(const parquet::Schema& schema, const parquet::NestedFieldShape& shape,
                                       const MappingOptions& options) {
  shapes_.resize(shape.shapes.size());
  // Inside JSON, dates and times are text and decimals exact numbers, whatever timestamp_as
  // and decimal_as say.
  MappingOptions json_leaf_options = options;
  json_leaf_options.timestamp_form = TimestampForm::kText;
  json_leaf_options.decimal_as_text = true;
  for (size_t i = 0; i < shape.shapes.size(); i++) {
    const parquet::Shape& s = shape.shapes[i];
    ShapeInfo& info = shapes_[i];
    info.kind = s.kind;
    if (s.parent >= 0 && shape.shape(s.parent).kind == ShapeKind::kStruct) {
      AppendJsonString(s.name, &info.member_prefix);
      info.member_prefix.push_back(':');
    }
    info.name = s.name;
    info.leaf = s.first_leaf;
    if (s.kind == ShapeKind::kValue) info.mapping = MapLeaf(schema, s.schema_node, json_leaf_options);
  }
  // VARIANT groups and their shredded parts.
  for (size_t i = 0; i < shape.shapes.size(); i++) {
    const parquet::Shape& s = shape.shapes[i];
    if (s.kind != ShapeKind::kStruct) continue;
    const auto& logical = schema.nodes()[static_cast<size_t>(s.schema_node)].logical_type;
    if (!logical.has_value() || logical->kind != parquet::LogicalType::Kind::VARIANT) continue;
    shapes_[i].variant_error = MarkShredded(schema, shape, static_cast<int>(i), true, &shapes_[i].variant_error_shape);
  }
  for (size_t i = 0; i < shape.shapes.size(); i++) {
    const parquet::Shape& s = shape.shapes[i];
    if (s.kind != ShapeKind::kMap) continue;
    ShapeInfo& info = shapes_[i];
    info.map_has_value = s.children.size() > 1;
    const ShapeInfo& key = shapes_[static_cast<size_t>(s.children[0])];
    info.map_as_object = key.kind == ShapeKind::kValue &&
                         (key.mapping.kind == ValueKind::kText || key.mapping.kind == ValueKind::kJson ||
                          key.mapping.kind == ValueKind::kUuid);
  }
  open_.reserve(2 * parquet::kMaxSchemaDepth + 2);
  object_scratch_.resize(shape.shapes.size() + 1);
}

// Marks the children of `node` (a VARIANT group when `root`, else the group of a shredded
// field or element) and, below its typed_value, the shredded groups. Returns what makes
// the layout unreadable, empty when it is fine.
std::string NestedJsonRenderer::MarkShredded(const parquet::Schema& schema, const parquet::NestedFieldShape& shape,
                                             int node, bool root, int* error_shape) {
  const parquet::Shape& s = shape.shape(node);
  ShapeInfo& info = shapes_[static_cast<size_t>(node)];
  *error_shape = node;
  const std::string where = "the variant group '" + NodePath(schema, s.schema_node) + "'";
  info.variant_role = root ? VariantRole::kRoot : VariantRole::kShredded;
  for (int child : s.children) {
    const parquet::Shape& c = shape.shape(child);
    const bool binary_leaf = c.kind == ShapeKind::kValue &&
                             schema.nodes()[static_cast<size_t>(c.schema_node)].physical_type == parquet::Type::BYTE_ARRAY;
    if (c.name == "metadata" && root && binary_leaf) {
      info.variant_metadata = child;
    } else if (c.name == "value" && binary_leaf) {
      info.variant_value = child;
    } else if (c.name == "typed_value") {
      info.variant_typed = child;
    } else {
      return where + " has a field '" + c.name + "' (only metadata, value and typed_value belong there)";
    }
  }
  if (root && info.variant_metadata < 0) return where + " has no binary field 'metadata'";
  if (info.variant_value < 0 && info.variant_typed < 0) return where + " has neither 'value' nor 'typed_value'";
  if (info.variant_typed < 0) return "";
  *error_shape = info.variant_typed;
  const parquet::Shape& typed = shape.shape(info.variant_typed);
  ShapeInfo& typed_info = shapes_[static_cast<size_t>(info.variant_typed)];
  switch (typed.kind) {
    case ShapeKind::kValue:
      return CheckShreddedLeaf(schema, typed, &typed_info);
    case ShapeKind::kStruct:
      for (int field : typed.children) {
        if (shape.shape(field).kind != ShapeKind::kStruct) {
          *error_shape = field;
          return where + ": shredded object field '" + shape.shape(field).name + "' is not a group";
        }
        std::string error = MarkShredded(schema, shape, field, false, error_shape);
        if (!error.empty()) return error;
        *error_shape = info.variant_typed;
        typed_info.shredded_names.push_back(shapes_[static_cast<size_t>(field)].name);
      }
      std::sort(typed_info.shredded_names.begin(), typed_info.shredded_names.end());
      return "";
    case ShapeKind::kList: {
      const int element = typed.children[0];
      if (shape.shape(element).kind != ShapeKind::kStruct) {
        return where + ": the elements of a shredded array must be groups of value and typed_value";
      }
      return MarkShredded(schema, shape, element, false, error_shape);
    }
    case ShapeKind::kEmpty:
      return "";
    case ShapeKind::kMap:
      break;
  }
  return where + ": typed_value of this kind (MAP) is not a shredded variant type";
}

// Checks that a typed_value leaf has one of the types of VariantShredding.md ("Shredded
// Value Types"); unannotated binary is forced to base64.
std::string NestedJsonRenderer::CheckShreddedLeaf(const parquet::Schema& schema, const parquet::Shape& leaf,
                                                  ShapeInfo* info) {
  const parquet::SchemaNode& node = schema.nodes()[static_cast<size_t>(leaf.schema_node)];
  const parquet::Type physical = *node.physical_type;
  const bool annotated = node.logical_type.has_value() || node.converted_type.has_value();
  bool supported = false;
  switch (info->mapping.kind) {
    case ValueKind::kBoolean:
    case ValueKind::kInt32:
    case ValueKind::kInt64:
    case ValueKind::kFloat:
    case ValueKind::kDouble:
    case ValueKind::kDecimalInt32:
    case ValueKind::kDecimalInt64:
    case ValueKind::kDecimalBytes:
    case ValueKind::kDate:
    case ValueKind::kUuid:
      supported = true;
      break;
    case ValueKind::kTime64:
      supported = info->mapping.time_unit == parquet::TimeUnit::MICROS;
      break;
    case ValueKind::kTimestamp:
      supported = info->mapping.time_unit != parquet::TimeUnit::MILLIS;
      break;
    case ValueKind::kText:
    case ValueKind::kBlob:
      if (physical == parquet::Type::BYTE_ARRAY && !annotated) {
        info->mapping.kind = ValueKind::kBlob;  // binary, whatever binary_as_string says
        supported = true;
      } else {
        supported = physical == parquet::Type::BYTE_ARRAY && info->mapping.kind == ValueKind::kText &&
                    ((node.logical_type.has_value() && node.logical_type->kind == parquet::LogicalType::Kind::STRING) ||
                     (!node.logical_type.has_value() && node.converted_type == parquet::ConvertedType::UTF8));
      }
      break;
    default:
      break;
  }
  if (supported) return "";
  return "typed_value of type " + DescribeLeafType(node) + " is not a shredded variant type";
}

void NestedJsonRenderer::BeforeItem(int shape) {
  if (open_.empty()) return;
  OpenContainer& top = open_.back();
  switch (top.info->kind) {
    case ShapeKind::kStruct:
      if (top.items++ > 0) out_->push_back(',');
      out_->append(shapes_[static_cast<size_t>(shape)].member_prefix);
      return;
    case ShapeKind::kList:
      if (top.items++ > 0) out_->push_back(',');
      return;
    case ShapeKind::kMap:
      if (top.expecting_value) {
        if (!top.info->map_as_object) out_->append(",\"value\":");
        return;
      }
      if (top.items++ > 0) out_->push_back(',');
      if (top.info->map_as_object) {
        top.writing_key = true;
      } else {
        out_->append("{\"key\":");
      }
      return;
    default:
      return;
  }
}

void NestedJsonRenderer::AfterItem() {
  if (open_.empty()) return;
  OpenContainer& top = open_.back();
  if (top.info->kind != ShapeKind::kMap) return;
  top.writing_key = false;
  if (top.expecting_value) {
    if (!top.info->map_as_object) out_->push_back('}');
    top.expecting_value = false;
    return;
  }
  if (top.info->map_has_value) {
    if (top.info->map_as_object) out_->push_back(':');
    top.expecting_value = true;
  } else {
    out_->append(top.info->map_as_object ? ":null" : ",\"value\":null}");
  }
}

bool NestedJsonRenderer::Render(const parquet::RecordAssembler& assembler, std::string* out) {
  out->clear();
  const std::vector<NestedEvent>& events = assembler.events();
  if (events.empty() || (events.size() == 1 && events[0].kind == NestedEventKind::kNull)) return false;
  out_ = out;
  open_.clear();
  assembler_ = &assembler;
  events_ = &events;
  for (size_t i = 0; i < events.size(); i++) {
    const NestedEvent& event = events[i];
    const ShapeInfo& info = shapes_[static_cast<size_t>(event.shape)];
    switch (event.kind) {
      case NestedEventKind::kNull:
        BeforeItem(event.shape);
        if (!open_.empty() && open_.back().writing_key) {
          out->append("\"\"");
        } else {
          out->append("null");
        }
        AfterItem();
        break;
      case NestedEventKind::kValue:
        BeforeItem(event.shape);
        if (info.mapping.kind == ValueKind::kJson && (open_.empty() || !open_.back().writing_key)) {
          // A JSON leaf is embedded as JSON when it is valid JSON (map keys stay strings).
          const std::string_view text = assembler.values<ByteArray>(info.leaf)[event.value].view();
          if (!parquet::AppendJsonMinified(text, out)) AppendJsonString(text, out);
        } else {
          AppendValue(info, assembler, event.value, out);
        }
        AfterItem();
        break;
      case NestedEventKind::kBeginStruct:
        BeforeItem(event.shape);
        if (info.variant_role == VariantRole::kRoot) {
          if (!info.variant_error.empty()) {
            throw parquet::ParquetError(
                assembler.DescribeRow(shapes_[static_cast<size_t>(info.variant_error_shape)].leaf) +
                ": invalid variant: " + info.variant_error);
          }
          size_t pos = i;
          variant_metadata_.reset();
          if (!AppendShredded(info, &pos, 0, out)) out->append("null");  // missing: variant null
          i = pos - 1;
          AfterItem();
          break;
        }
        out->push_back('{');
        open_.push_back({&info, 0, false, false});
        break;
      case NestedEventKind::kBeginList:
        BeforeItem(event.shape);
        out->push_back('[');
        open_.push_back({&info, 0, false, false});
        break;
      case NestedEventKind::kBeginMap:
        BeforeItem(event.shape);
        out->push_back(info.map_as_object ? '{' : '[');
        open_.push_back({&info, 0, false, false});
        break;
      case NestedEventKind::kEndStruct:
      case NestedEventKind::kEndList:
      case NestedEventKind::kEndMap:
        open_.pop_back();
        out->push_back(event.kind == NestedEventKind::kEndStruct || (event.kind == NestedEventKind::kEndMap && info.map_as_object)
                           ? '}'
                           : ']');
        AfterItem();
        break;
    }
  }
  out_ = nullptr;
  assembler_ = nullptr;
  events_ = nullptr;
  return true;
}

void NestedJsonRenderer::VariantFail(const ShapeInfo& at, const std::string& what) const {
  throw parquet::ParquetError(assembler_->DescribeRow(at.leaf) + ": invalid variant: " + what);
}

// The position after the events of the shape whose Null, Value or Begin event is at `pos`.
// Shapes never contain themselves, so the first End event of the same shape closes it.
size_t NestedJsonRenderer::SkipShape(size_t pos) const {
  const std::vector<NestedEvent>& events = *events_;
  const NestedEvent& first = events[pos];
  if (first.kind == NestedEventKind::kNull || first.kind == NestedEventKind::kValue) return pos + 1;
  for (size_t i = pos + 1; i < events.size(); i++) {
    if (events[i].shape == first.shape &&
        (events[i].kind == NestedEventKind::kEndStruct || events[i].kind == NestedEventKind::kEndList ||
         events[i].kind == NestedEventKind::kEndMap)) {
      return i + 1;
    }
  }
  throw parquet::ParquetError("nested events of a row are not balanced");
}

void NestedJsonRenderer::AppendVariantValue(const ShapeInfo& value_leaf, const ByteArray& bytes, std::string* out) {
  if (!variant_metadata_.has_value()) VariantFail(value_leaf, "a value without metadata");
  try {
    parquet::AppendVariantJson(*variant_metadata_, bytes.ptr, bytes.len, out);
  } catch (const parquet::ParquetError& e) {
    throw parquet::ParquetError(assembler_->DescribeRow(value_leaf.leaf) + ": " + e.what());
  }
}

// Appends the variant value of `node` (a VARIANT group or a shredded field or element
// group) whose events start at events[*pos], and moves *pos past them. Returns false,
// appending nothing, when the value is missing (value and typed_value both null).
bool NestedJsonRenderer::AppendShredded(const ShapeInfo& node, size_t* pos, int depth, std::string* out) {
  const std::vector<NestedEvent>& events = *events_;
  const int node_shape = events[*pos].shape;
  if (events[*pos].kind != NestedEventKind::kBeginStruct) {  // the group itself is null
    *pos = SkipShape(*pos);
    return false;
  }
  const ByteArray* value = nullptr;
  size_t typed = 0;  // position of the typed_value's non-null event, 0 when it is null
  size_t i = *pos + 1;
  while (!(events[i].kind == NestedEventKind::kEndStruct && events[i].shape == node_shape)) {
    const NestedEvent& event = events[i];
    if (event.kind != NestedEventKind::kNull) {
      if (event.shape == node.variant_metadata) {
        const ByteArray& bytes = assembler_->values<ByteArray>(shapes_[static_cast<size_t>(event.shape)].leaf)[event.value];
        try {
          variant_metadata_.emplace(bytes.ptr, bytes.len);
        } catch (const parquet::ParquetError& e) {
          throw parquet::ParquetError(assembler_->DescribeRow(node.leaf) + ": " + e.what());
        }
      } else if (event.shape == node.variant_value) {
        value = &assembler_->values<ByteArray>(shapes_[static_cast<size_t>(event.shape)].leaf)[event.value];
      } else if (event.shape == node.variant_typed) {
        typed = i;
      }
    }
    i = SkipShape(i);
  }
  *pos = i + 1;
  const ShapeInfo* value_info = node.variant_value >= 0 ? &shapes_[static_cast<size_t>(node.variant_value)] : nullptr;
  if (typed == 0) {
    if (value == nullptr) return false;
    AppendVariantValue(*value_info, *value, out);
    return true;
  }
  const NestedEvent& typed_event = events[typed];
  const ShapeInfo& typed_info = shapes_[static_cast<size_t>(typed_event.shape)];
  switch (typed_event.kind) {
    case NestedEventKind::kBeginStruct:
      AppendShreddedObject(typed_info, typed, value, value_info, depth, out);
      return true;
    case NestedEventKind::kBeginList: {
      if (value != nullptr) VariantFail(typed_info, "conflicting value and typed_value (a shredded array)");
      out->push_back('[');
      size_t element = typed + 1;
      bool first = true;
      while (events[element].kind != NestedEventKind::kEndList || events[element].shape != typed_event.shape) {
        if (!first) out->push_back(',');
        first = false;
        const ShapeInfo& element_info = shapes_[static_cast<size_t>(events[element].shape)];
        if (!AppendShredded(element_info, &element, depth + 1, out)) out->append("null");
      }
      out->push_back(']');
      return true;
    }
    case NestedEventKind::kValue:
      if (value != nullptr) VariantFail(typed_info, "conflicting value and typed_value (a shredded primitive)");
      AppendValue(typed_info, *assembler_, typed_event.value, out);
      return true;
    default:
      VariantFail(typed_info, "unexpected structure of typed_value");
  }
}

// Appends the object whose shredded fields are the groups of the typed_value group whose
// BeginStruct is at events[begin], merged with the fields of the residual object value
// (when residual is set), keys sorted.
void NestedJsonRenderer::AppendShreddedObject(const ShapeInfo& typed, size_t begin, const ByteArray* residual,
                                              const ShapeInfo* value_info, int depth, std::string* out) {
  ObjectScratch& scratch = object_scratch_[static_cast<size_t>(depth)];
  scratch.text.clear();
  scratch.entries.clear();
  const std::vector<NestedEvent>& events = *events_;
  const int typed_shape = events[begin].shape;
  size_t field = begin + 1;
  while (events[field].kind != NestedEventKind::kEndStruct || events[field].shape != typed_shape) {
    const ShapeInfo& field_info = shapes_[static_cast<size_t>(events[field].shape)];
    const size_t start = scratch.text.size();
    if (AppendShredded(field_info, &field, depth + 1, &scratch.text)) {
      scratch.entries.push_back({field_info.name, start, scratch.text.size() - start});
    }
  }
  if (residual != nullptr) {
    if (!variant_metadata_.has_value()) VariantFail(*value_info, "a value without metadata");
    bool is_object = false;
    try {
      is_object = parquet::ReadVariantObjectFields(*variant_metadata_, residual->ptr, residual->len, &scratch.residual);
    } catch (const parquet::ParquetError& e) {
      throw parquet::ParquetError(assembler_->DescribeRow(value_info->leaf) + ": " + e.what());
    }
    if (!is_object) VariantFail(*value_info, "a value that is not an object next to a shredded object (typed_value)");
    for (const parquet::VariantField& f : scratch.residual) {
      // The shredded fields win over residual fields of the same name.
      if (std::binary_search(typed.shredded_names.begin(), typed.shredded_names.end(), f.key)) continue;
      const size_t start = scratch.text.size();
      try {
        parquet::AppendVariantJson(*variant_metadata_, f.value, f.length, &scratch.text);
      } catch (const parquet::ParquetError& e) {
        throw parquet::ParquetError(assembler_->DescribeRow(value_info->leaf) + ": " + e.what());
      }
      scratch.entries.push_back({f.key, start, scratch.text.size() - start});
    }
  }
  std::sort(scratch.entries.begin(), scratch.entries.end(),
            [](const ObjectScratch::Entry& a, const ObjectScratch::Entry& b) { return a.key < b.key; });
  out->push_back('{');
  for (size_t k = 0; k < scratch.entries.size(); k++) {
    if (k > 0) out->push_back(',');
    AppendJsonString(scratch.entries[k].key, out);
    out->push_back(':');
    out->append(scratch.text, scratch.entries[k].start, scratch.entries[k].length);
  }
  out->push_back('}');
}

// A leaf value: converted as a top-level column converts it (ToSqlValue, under the leaf's
// mapping with text dates and decimals), then written in JSON's forms.
void NestedJsonRenderer::AppendValue(const ShapeInfo& info, const parquet::RecordAssembler& assembler,
                                     uint32_t index, std::string* out) {
  const ColumnMapping& m = info.mapping;
  const ParquetValue value = ParquetValueAt(m.kind, assembler.values<uint8_t>(info.leaf), index);
  SqlValue converted;
  ToSqlValue(m, value, &buffer_, &converted);  // cannot fail: dates and timestamps are text
  char digits[24];
  switch (m.kind) {
    case ValueKind::kBoolean:
      out->append(converted.integer != 0 ? "true" : "false");
      return;
    case ValueKind::kUInt64: {  // exact digits, also above INT64_MAX (where the SQLite value is REAL)
      auto r = std::to_chars(digits, digits + sizeof digits, static_cast<uint64_t>(value.integer));
      out->append(digits, static_cast<size_t>(r.ptr - digits));
      return;
    }
    case ValueKind::kFloat:  // the shortest digits of the float, not of the double it widens to
      if (converted.is_null()) break;
      AppendJsonFloat(static_cast<float>(converted.real), out);
      return;
    case ValueKind::kFloat16:
      AppendJsonHalf(static_cast<uint16_t>(value.bytes.ptr[0] | (value.bytes.ptr[1] << 8)), out);
      return;
    case ValueKind::kInterval:  // the text is a JSON object
    case ValueKind::kDecimalInt32:
    case ValueKind::kDecimalInt64:
    case ValueKind::kDecimalBytes:  // the text is a JSON number
      out->append(converted.bytes);
      return;
    default:
      break;
  }
  switch (converted.type) {
    case SqlValue::Type::kNull: out->append("null"); return;
    case SqlValue::Type::kInteger: {
      auto r = std::to_chars(digits, digits + sizeof digits, converted.integer);
      out->append(digits, static_cast<size_t>(r.ptr - digits));
      return;
    }
    case SqlValue::Type::kReal: AppendJsonDouble(converted.real, out); return;
    case SqlValue::Type::kText: AppendJsonString(converted.bytes, out); return;
    case SqlValue::Type::kBlob:
      AppendJsonBase64(reinterpret_cast<const uint8_t*>(converted.bytes.data()), converted.bytes.size(), out);
      return;
  }
}

}  // namespace sqlite_parquet

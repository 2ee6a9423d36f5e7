// JSON rendering of assembled nested rows (see nested_json.h). One pass over the events
// with a stack of the open containers; leaf values are formatted into the output directly.
#include "ext/nested_json.h"

#include <charconv>
#include <cmath>
#include <cstring>

#include "format/error.h"
#include "format/json_text.h"
#include "format/logical_values.h"
#include "format/variant.h"

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

void AppendRaw(std::string* out, const char* text, size_t length) { out->append(text, length); }

void AppendQuoted(std::string* out, const char* text, size_t length) {
  out->push_back('"');
  out->append(text, length);
  out->push_back('"');
}

}  // namespace

NestedJsonRenderer::NestedJsonRenderer(const parquet::Schema& schema, const parquet::NestedFieldShape& shape,
                                       const MappingOptions& options) {
  shapes_.resize(shape.shapes.size());
  for (size_t i = 0; i < shape.shapes.size(); i++) {
    const parquet::Shape& s = shape.shapes[i];
    ShapeInfo& info = shapes_[i];
    info.kind = s.kind;
    if (s.parent >= 0 && shape.shape(s.parent).kind == ShapeKind::kStruct) {
      AppendJsonString(s.name, &info.member_prefix);
      info.member_prefix.push_back(':');
    }
    if (s.kind == ShapeKind::kValue) {
      info.mapping = MapLeaf(schema, s.schema_node, options);
      info.leaf = s.first_leaf;
    }
  }
  // VARIANT groups: binary leaves named metadata and value, and optionally a leaf
  // typed_value (shredded to a primitive).
  for (size_t i = 0; i < shape.shapes.size(); i++) {
    const parquet::Shape& s = shape.shapes[i];
    if (s.kind != ShapeKind::kStruct || s.children.size() < 2 || s.children.size() > 3) continue;
    const auto& logical = schema.nodes()[static_cast<size_t>(s.schema_node)].logical_type;
    if (!logical.has_value() || logical->kind != parquet::LogicalType::Kind::VARIANT) continue;
    int metadata = -1;
    int value = -1;
    int typed_value = -1;
    for (int child : s.children) {
      const parquet::Shape& c = shape.shape(child);
      if (c.kind == ShapeKind::kValue && c.name == "typed_value") {
        typed_value = child;
        continue;
      }
      if (c.kind != ShapeKind::kValue ||
          schema.nodes()[static_cast<size_t>(c.schema_node)].physical_type != parquet::Type::BYTE_ARRAY) {
        continue;
      }
      if (c.name == "metadata") metadata = child;
      if (c.name == "value") value = child;
    }
    if (metadata < 0 || value < 0 || (s.children.size() == 3 && typed_value < 0)) continue;
    shapes_[i].is_variant = true;
    shapes_[static_cast<size_t>(metadata)].variant_part = 1;
    shapes_[static_cast<size_t>(value)].variant_part = 2;
    if (typed_value >= 0) shapes_[static_cast<size_t>(typed_value)].variant_part = 3;
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
}

void NestedJsonRenderer::AppendVariant(const parquet::RecordAssembler& assembler) {
  if (!variant_.has_value) {
    if (variant_.typed_info != nullptr) {
      AppendValue(*variant_.typed_info, assembler, variant_.typed_index);
    } else {
      out_->append("null");
    }
    return;
  }
  if (!variant_.has_metadata) throw parquet::ParquetError("variant value without metadata");
  if (variant_.typed_info != nullptr) {
    throw parquet::ParquetError("invalid variant: both value and the primitive typed_value are set");
  }
  const parquet::VariantMetadata metadata(variant_.metadata, variant_.metadata_length);
  parquet::AppendVariantJson(metadata, variant_.value, variant_.value_length, out_);
}

void NestedJsonRenderer::BeforeItem(int shape) {
  if (open_.empty()) return;
  if (open_.back().info->is_variant) return;
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
  if (open_.back().info->is_variant) return;
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
  for (const NestedEvent& event : events) {
    const ShapeInfo& info = shapes_[static_cast<size_t>(event.shape)];
    switch (event.kind) {
      case NestedEventKind::kNull:
        if (info.variant_part != 0 && !open_.empty() && open_.back().info->is_variant) break;
        BeforeItem(event.shape);
        if (!open_.empty() && open_.back().writing_key) {
          out->append("\"\"");
        } else {
          out->append("null");
        }
        AfterItem();
        break;
      case NestedEventKind::kValue:
        if (info.variant_part == 3 && !open_.empty() && open_.back().info->is_variant) {
          variant_.typed_info = &info;
          variant_.typed_index = event.value;
          break;
        }
        if (info.variant_part != 0 && !open_.empty() && open_.back().info->is_variant) {
          const parquet::ByteArray& bytes = assembler.values<parquet::ByteArray>(info.leaf)[event.value];
          if (info.variant_part == 1) {
            variant_.metadata = bytes.ptr;
            variant_.metadata_length = bytes.len;
            variant_.has_metadata = true;
          } else {
            variant_.value = bytes.ptr;
            variant_.value_length = bytes.len;
            variant_.has_value = true;
          }
          break;
        }
        BeforeItem(event.shape);
        AppendValue(info, assembler, event.value);
        AfterItem();
        break;
      case NestedEventKind::kBeginStruct:
        BeforeItem(event.shape);
        if (info.is_variant) {
          variant_ = VariantParts{};
        } else {
          out->push_back('{');
        }
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
        if (info.is_variant) {
          AppendVariant(assembler);
          AfterItem();
          break;
        }
        out->push_back(event.kind == NestedEventKind::kEndStruct || (event.kind == NestedEventKind::kEndMap && info.map_as_object)
                           ? '}'
                           : ']');
        AfterItem();
        break;
    }
  }
  out_ = nullptr;
  return true;
}

void NestedJsonRenderer::AppendValue(const ShapeInfo& info, const parquet::RecordAssembler& assembler,
                                     uint32_t index) {
  const ColumnMapping& m = info.mapping;
  const int leaf = info.leaf;
  std::string* out = out_;
  char buffer[80];
  auto int64_text = [&](int64_t v) {
    auto r = std::to_chars(buffer, buffer + sizeof buffer, v);
    out->append(buffer, static_cast<size_t>(r.ptr - buffer));
  };
  auto uint64_text = [&](uint64_t v) {
    auto r = std::to_chars(buffer, buffer + sizeof buffer, v);
    out->append(buffer, static_cast<size_t>(r.ptr - buffer));
  };
  switch (m.kind) {
    case ValueKind::kNull:
    case ValueKind::kNested:
      out->append("null");
      return;
    case ValueKind::kBoolean:
      out->append(assembler.values<bool>(leaf)[index] ? "true" : "false");
      return;
    case ValueKind::kInt32:
      int64_text(assembler.values<int32_t>(leaf)[index]);
      return;
    case ValueKind::kUInt32:
      uint64_text(static_cast<uint32_t>(assembler.values<int32_t>(leaf)[index]));
      return;
    case ValueKind::kInt64:
      int64_text(assembler.values<int64_t>(leaf)[index]);
      return;
    case ValueKind::kUInt64:
      uint64_text(static_cast<uint64_t>(assembler.values<int64_t>(leaf)[index]));
      return;
    case ValueKind::kFloat:
      AppendJsonFloat(assembler.values<float>(leaf)[index], out);
      return;
    case ValueKind::kDouble:
      AppendJsonDouble(assembler.values<double>(leaf)[index], out);
      return;
    case ValueKind::kFloat16: {
      const ByteArray& v = assembler.values<ByteArray>(leaf)[index];
      AppendJsonHalf(static_cast<uint16_t>(v.ptr[0] | (v.ptr[1] << 8)), out);
      return;
    }
    case ValueKind::kText:
    case ValueKind::kJson: {
      const ByteArray& v = assembler.values<ByteArray>(leaf)[index];
      AppendJsonString(v.view(), out);
      return;
    }
    case ValueKind::kBlob: {
      const ByteArray& v = assembler.values<ByteArray>(leaf)[index];
      AppendJsonBase64(v.ptr, v.len, out);
      return;
    }
    case ValueKind::kUuid:
      AppendQuoted(out, buffer, parquet::FormatUuid(assembler.values<ByteArray>(leaf)[index].ptr, buffer));
      return;
    case ValueKind::kInterval:
      AppendRaw(out, buffer, parquet::FormatInterval(assembler.values<ByteArray>(leaf)[index].ptr, buffer));
      return;
    case ValueKind::kDecimalInt32:
    case ValueKind::kDecimalInt64: {
      const int64_t unscaled = m.kind == ValueKind::kDecimalInt32 ? assembler.values<int32_t>(leaf)[index]
                                                                  : assembler.values<int64_t>(leaf)[index];
      scratch_.resize(parquet::DecimalTextCapacity(8, m.decimal_scale));
      AppendRaw(out, scratch_.data(), parquet::FormatDecimal(unscaled, m.decimal_scale, scratch_.data()));
      return;
    }
    case ValueKind::kDecimalBytes: {
      const ByteArray& v = assembler.values<ByteArray>(leaf)[index];
      const size_t capacity = parquet::DecimalTextCapacity(v.len, m.decimal_scale);
      if (scratch_.size() < capacity) scratch_.resize(capacity);
      AppendRaw(out, scratch_.data(),
                parquet::FormatDecimalBigEndian(v.ptr, v.len, m.decimal_scale, scratch_.data(), capacity));
      return;
    }
    case ValueKind::kDate:
      AppendQuoted(out, buffer, parquet::FormatDate(assembler.values<int32_t>(leaf)[index], buffer));
      return;
    case ValueKind::kTime32:
      AppendQuoted(out, buffer, parquet::FormatTime(assembler.values<int32_t>(leaf)[index], m.time_unit, buffer));
      return;
    case ValueKind::kTime64:
      AppendQuoted(out, buffer, parquet::FormatTime(assembler.values<int64_t>(leaf)[index], m.time_unit, buffer));
      return;
    case ValueKind::kTimestamp:
      AppendQuoted(out, buffer,
                   parquet::FormatTimestamp(assembler.values<int64_t>(leaf)[index], m.time_unit, buffer));
      return;
    case ValueKind::kInt96Timestamp:
      AppendQuoted(out, buffer, parquet::FormatInt96Timestamp(assembler.values<parquet::Int96>(leaf)[index], buffer));
      return;
  }
  out->append("null");
}

}  // namespace sqlite_parquet

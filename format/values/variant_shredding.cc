// Shredded VARIANT columns: schema, leaves, the split of encoded variants into them, and the
// choice of a shredding from samples (see variant_shredding.h).
#include "format/values/variant_shredding.h"

#include <algorithm>
#include <cstring>

#include "format/common/error.h"
#include "format/metadata/schema.h"
#include "format/values/variant.h"

namespace parquet {

namespace {

__extension__ typedef __int128 Int128;  // GCC/Clang extension: decimal16 values

using Kind = VariantShredding::Kind;

bool IsPlainName(const std::string& name) {
  if (name.empty()) return false;
  for (char c : name) {
    const bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                      static_cast<unsigned char>(c) >= 0x80;
    if (!word) return false;
  }
  return true;
}

Type PhysicalTypeOf(const VariantShredding& s) {
  switch (s.kind) {
    case Kind::kBoolean: return Type::BOOLEAN;
    case Kind::kInt8:
    case Kind::kInt16:
    case Kind::kInt32: return Type::INT32;
    case Kind::kInt64: return Type::INT64;
    case Kind::kDouble: return Type::DOUBLE;
    case Kind::kDecimal:
      return s.precision <= 9 ? Type::INT32 : s.precision <= 18 ? Type::INT64 : Type::FIXED_LEN_BYTE_ARRAY;
    default: return Type::BYTE_ARRAY;
  }
}

SchemaElement Element(const std::string& name, FieldRepetitionType repetition, int32_t* next_field_id) {
  SchemaElement element;
  element.name = name;
  element.repetition_type = repetition;
  if (next_field_id != nullptr) element.field_id = (*next_field_id)++;
  return element;
}

void AppendBinary(const std::string& name, FieldRepetitionType repetition, int32_t* next_field_id,
                  std::vector<SchemaElement>* out) {
  SchemaElement element = Element(name, repetition, next_field_id);
  element.type = Type::BYTE_ARRAY;
  out->push_back(std::move(element));
}

void AppendTyped(const VariantShredding& s, int32_t* next_field_id, std::vector<SchemaElement>* out);

// `value` and `typed_value` of a shredded position.
void AppendValueAndTyped(const VariantShredding& s, int32_t* next_field_id, std::vector<SchemaElement>* out) {
  AppendBinary("value", FieldRepetitionType::OPTIONAL, next_field_id, out);
  AppendTyped(s, next_field_id, out);
}

void AppendTyped(const VariantShredding& s, int32_t* next_field_id, std::vector<SchemaElement>* out) {
  SchemaElement element = Element("typed_value", FieldRepetitionType::OPTIONAL, next_field_id);
  LogicalType logical;
  switch (s.kind) {
    case Kind::kObject:
      element.num_children = static_cast<int32_t>(s.fields.size());
      out->push_back(std::move(element));
      for (const auto& [name, field] : s.fields) {
        SchemaElement group = Element(name, FieldRepetitionType::REQUIRED, next_field_id);
        group.num_children = 2;
        out->push_back(std::move(group));
        AppendValueAndTyped(field, next_field_id, out);
      }
      return;
    case Kind::kArray: {
      element.num_children = 1;
      element.converted_type = ConvertedType::LIST;
      logical.kind = LogicalType::Kind::LIST;
      element.logical_type = logical;
      out->push_back(std::move(element));
      SchemaElement list = Element("list", FieldRepetitionType::REPEATED, next_field_id);
      list.num_children = 1;
      out->push_back(std::move(list));
      SchemaElement group = Element("element", FieldRepetitionType::REQUIRED, next_field_id);
      group.num_children = 2;
      out->push_back(std::move(group));
      AppendValueAndTyped(s.element[0], next_field_id, out);
      return;
    }
    case Kind::kInt8:
    case Kind::kInt16:
      logical.kind = LogicalType::Kind::INTEGER;
      logical.int_bit_width = s.kind == Kind::kInt8 ? 8 : 16;
      logical.int_is_signed = true;
      element.logical_type = logical;
      element.converted_type = s.kind == Kind::kInt8 ? ConvertedType::INT_8 : ConvertedType::INT_16;
      break;
    case Kind::kString:
      logical.kind = LogicalType::Kind::STRING;
      element.logical_type = logical;
      element.converted_type = ConvertedType::UTF8;
      break;
    case Kind::kDecimal:
      AnnotateDecimal(&element, s.precision, s.scale);
      if (s.precision > 18) element.type_length = 16;
      break;
    default:
      break;
  }
  element.type = PhysicalTypeOf(s);
  out->push_back(std::move(element));
}

// Little-endian two's-complement integer of `size` bytes.
Int128 ReadSigned(const uint8_t* p, size_t size) {
  unsigned __int128 bits = 0;
  for (size_t i = 0; i < size; ++i) bits |= static_cast<unsigned __int128>(p[i]) << (8 * i);
  if (size < 16 && (p[size - 1] & 0x80) != 0) bits |= ~static_cast<unsigned __int128>(0) << (8 * size);
  return static_cast<Int128>(bits);
}

Int128 PowerOfTen(int exponent) {
  Int128 result = 1;
  for (int i = 0; i < exponent; ++i) result *= 10;
  return result;
}

int DigitCount(Int128 value) {
  unsigned __int128 magnitude = value < 0 ? static_cast<unsigned __int128>(-(value + 1)) + 1 : static_cast<unsigned __int128>(value);
  int digits = 1;
  while (magnitude >= 10) {
    magnitude /= 10;
    ++digits;
  }
  return digits;
}

// The class of a variant value for the chooser (and the details its shredding needs).
enum class ValueClass : uint8_t { kNull, kBoolean, kInteger, kDouble, kDecimal, kString, kObject, kArray, kOther };

struct Classified {
  ValueClass value_class = ValueClass::kOther;
  int integer_bytes = 0;  // kInteger: 1, 2, 4 or 8
  int scale = 0;          // kDecimal
  int digits = 0;         // kDecimal
};

Classified Classify(const uint8_t* value, size_t length) {
  Classified c;
  if (length < 1) throw ParquetError("variant value is empty");
  const uint32_t basic = value[0] & 3;
  const uint32_t type = value[0] >> 2;
  if (basic == 1) {
    c.value_class = ValueClass::kString;
  } else if (basic == 2) {
    c.value_class = ValueClass::kObject;
  } else if (basic == 3) {
    c.value_class = ValueClass::kArray;
  } else if (type == 0) {
    c.value_class = ValueClass::kNull;
  } else if (type == 1 || type == 2) {
    c.value_class = ValueClass::kBoolean;
  } else if (type >= 3 && type <= 6) {
    c.value_class = ValueClass::kInteger;
    c.integer_bytes = 1 << (type - 3);
  } else if (type == 7) {
    c.value_class = ValueClass::kDouble;
  } else if (type >= 8 && type <= 10) {
    const size_t width = type == 8 ? 4 : type == 9 ? 8 : 16;
    if (length < 1 + 1 + width) throw ParquetError("variant decimal truncated");
    c.value_class = ValueClass::kDecimal;
    c.scale = value[1];
    c.digits = DigitCount(ReadSigned(value + 2, width));
  } else if (type == 16) {
    c.value_class = ValueClass::kString;
  }
  return c;
}

}  // namespace

std::string DescribeVariantShredding(const VariantShredding& s) {
  switch (s.kind) {
    case Kind::kBoolean: return "BOOLEAN";
    case Kind::kInt8: return "INT8";
    case Kind::kInt16: return "INT16";
    case Kind::kInt32: return "INT32";
    case Kind::kInt64: return "INT64";
    case Kind::kDouble: return "DOUBLE";
    case Kind::kString: return "STRING";
    case Kind::kDecimal: return "DECIMAL(" + std::to_string(s.precision) + "," + std::to_string(s.scale) + ")";
    case Kind::kArray: return "[" + DescribeVariantShredding(s.element[0]) + "]";
    case Kind::kObject: {
      std::string text = "{";
      for (const auto& [name, field] : s.fields) {
        if (text.size() > 1) text += ",";
        if (IsPlainName(name)) {
          text += name;
        } else {
          text += '"';
          for (char c : name) {
            text += c;
            if (c == '"') text += '"';
          }
          text += '"';
        }
        text += ":" + DescribeVariantShredding(field);
      }
      return text + "}";
    }
  }
  return "?";
}

void AppendVariantSchemaElements(const std::string& name, FieldRepetitionType repetition,
                                 const VariantShredding* shredding, int32_t* next_field_id,
                                 std::vector<SchemaElement>* out) {
  SchemaElement group = Element(name, repetition, next_field_id);
  group.num_children = shredding != nullptr ? 3 : 2;
  LogicalType logical;
  logical.kind = LogicalType::Kind::VARIANT;
  logical.variant_specification_version = 1;
  group.logical_type = logical;
  out->push_back(std::move(group));
  AppendBinary("metadata", FieldRepetitionType::REQUIRED, next_field_id, out);
  if (shredding == nullptr) {
    AppendBinary("value", FieldRepetitionType::REQUIRED, next_field_id, out);
  } else {
    AppendValueAndTyped(*shredding, next_field_id, out);
  }
}

// A shredded position: its `value` leaf and its typed_value's leaves (a contiguous range:
// the value leaf, then the typed leaves), the definition level at which the position exists
// (`def`: its value and typed_value are null there) and the repeated ancestors' count.
struct ShreddedVariantWriter::Node {
  const VariantShredding* shredding = nullptr;
  int value_leaf = 0;
  int leaf_count = 0;  // value leaf included
  int16_t def = 0;
  int16_t rep_depth = 0;
  std::vector<Node> children;  // kObject: per field, in shredding->fields order; kArray: the element
};

void ShreddedVariantWriter::Build(const VariantShredding* s, int16_t def, int16_t rep_depth, Node* node) {
  auto add = [this](int16_t max_def, int16_t max_rep, Type type) {
    leaves_.push_back(VariantLeaf{max_def, max_rep, type});
    return static_cast<int>(leaves_.size()) - 1;
  };
  node->shredding = s;
  node->def = def;
  node->rep_depth = rep_depth;
  node->value_leaf = add(static_cast<int16_t>(def + 1), rep_depth, Type::BYTE_ARRAY);
  if (s->kind == Kind::kObject) {
    node->children.resize(s->fields.size());
    for (size_t i = 0; i < s->fields.size(); ++i) {
      Build(&s->fields[i].second, static_cast<int16_t>(def + 1), rep_depth, &node->children[i]);
    }
  } else if (s->kind == Kind::kArray) {
    node->children.resize(1);
    Build(&s->element[0], static_cast<int16_t>(def + 2), static_cast<int16_t>(rep_depth + 1), &node->children[0]);
  } else {
    add(static_cast<int16_t>(def + 1), rep_depth, PhysicalTypeOf(*s));
  }
  node->leaf_count = static_cast<int>(leaves_.size()) - node->value_leaf;
}

ShreddedVariantWriter::ShreddedVariantWriter(const VariantShredding* shredding) {
  leaves_.push_back(VariantLeaf{1, 0, Type::BYTE_ARRAY});  // metadata
  if (shredding == nullptr) {
    leaves_.push_back(VariantLeaf{1, 0, Type::BYTE_ARRAY});  // required value
    return;
  }
  root_ = std::make_unique<Node>();
  Build(shredding, 1, 0, root_.get());
}

ShreddedVariantWriter::~ShreddedVariantWriter() = default;

std::vector<VariantLeaf> VariantLeaves(const VariantShredding* shredding) {
  return ShreddedVariantWriter(shredding).leaves();
}

void ShreddedVariantWriter::WriteNull(VariantLeafSink* sink) const {
  sink->Level(0, 0, 0);
  if (!root_) {
    sink->Level(1, 0, 0);
    return;
  }
  WriteMissing(*root_, 0, 0, sink);
}

void ShreddedVariantWriter::WriteMissing(const Node& node, int16_t def, int16_t rep, VariantLeafSink* sink) {
  for (int leaf = node.value_leaf; leaf < node.value_leaf + node.leaf_count; ++leaf) sink->Level(leaf, def, rep);
}

void ShreddedVariantWriter::Write(const std::string& metadata, const std::string& value, VariantLeafSink* sink) {
  const auto* metadata_bytes = reinterpret_cast<const uint8_t*>(metadata.data());
  const auto* value_bytes = reinterpret_cast<const uint8_t*>(value.data());
  sink->Bytes(0, 1, 0, metadata_bytes, metadata.size());
  if (!root_) {
    sink->Bytes(1, 1, 0, value_bytes, value.size());
    return;
  }
  const VariantMetadata parsed(metadata_bytes, metadata.size());
  metadata_ = &parsed;
  WriteNode(*root_, value_bytes, VariantValueSize(value_bytes, value.size()), 0, 0, sink);
  metadata_ = nullptr;
}

ShreddedVariantWriter::Scratch& ShreddedVariantWriter::ScratchAt(int depth) {
  while (scratch_.size() <= static_cast<size_t>(depth)) scratch_.emplace_back();
  return scratch_[static_cast<size_t>(depth)];
}

void ShreddedVariantWriter::WriteNode(const Node& node, const uint8_t* value, size_t length, int16_t rep, int depth,
                                      VariantLeafSink* sink) {
  if (depth > kMaxVariantDepth) throw ParquetError("variant nesting deeper than " + std::to_string(kMaxVariantDepth) + " levels");
  const int16_t present = static_cast<int16_t>(node.def + 1);
  const Kind kind = node.shredding->kind;
  if (kind == Kind::kObject && (value[0] & 3) == 2) {
    Scratch& scratch = ScratchAt(depth);
    std::vector<VariantField>& fields = scratch.fields;
    ReadVariantObjectFields(*metadata_, value, length, &fields);
    const auto& shredded = node.shredding->fields;
    // Both lists are in key order: walk them together.
    std::vector<const VariantField*>& leftover = scratch.leftover;
    std::vector<const VariantField*>& matched = scratch.matched;
    leftover.clear();
    matched.assign(shredded.size(), nullptr);
    size_t s = 0;
    for (const VariantField& field : fields) {
      while (s < shredded.size() && std::string_view(shredded[s].first) < field.key) ++s;
      if (s < shredded.size() && shredded[s].first == field.key) {
        matched[s] = &field;
      } else {
        leftover.push_back(&field);
      }
    }
    if (leftover.empty()) {
      sink->Level(node.value_leaf, node.def, rep);
    } else {
      // The leftover fields as an object of their own (ids and values as they were).
      std::vector<std::pair<const uint8_t*, size_t>>& bytes = scratch.elements;
      bytes.clear();
      size_t total = 0;
      uint32_t max_id = 0;
      for (const VariantField* field : leftover) {
        bytes.emplace_back(field->value, VariantValueSize(field->value, field->length));
        total += bytes.back().second;
        max_id = std::max(max_id, field->id);
      }
      auto width = [](uint64_t v) -> uint32_t { return v < 0x100 ? 1 : v < 0x10000 ? 2 : v < 0x1000000 ? 3 : 4; };
      const uint32_t offset_size = width(total);
      const uint32_t id_size = width(max_id);
      const bool large = leftover.size() > 255;
      std::string& out = residual_;  // the sink copies it before the fields below reuse it
      out.clear();
      out.push_back(static_cast<char>(2 | ((offset_size - 1) << 2) | ((id_size - 1) << 4) | (large ? 1u << 6 : 0)));
      auto append = [&out](uint64_t v, uint32_t size) {
        for (uint32_t i = 0; i < size; ++i) out.push_back(static_cast<char>(v >> (8 * i)));
      };
      append(leftover.size(), large ? 4 : 1);
      for (const VariantField* field : leftover) append(field->id, id_size);
      uint64_t offset = 0;
      for (const auto& b : bytes) {
        append(offset, offset_size);
        offset += b.second;
      }
      append(offset, offset_size);
      for (const auto& b : bytes) out.append(reinterpret_cast<const char*>(b.first), b.second);
      sink->Bytes(node.value_leaf, present, rep, reinterpret_cast<const uint8_t*>(out.data()), out.size());
    }
    for (size_t i = 0; i < shredded.size(); ++i) {
      const Node& child = node.children[i];
      if (matched[i] == nullptr) {
        WriteMissing(child, child.def, rep, sink);
      } else {
        WriteNode(child, matched[i]->value, VariantValueSize(matched[i]->value, matched[i]->length), rep, depth + 1, sink);
      }
    }
    return;
  }
  if (kind == Kind::kArray && (value[0] & 3) == 3) {
    std::vector<std::pair<const uint8_t*, size_t>>& elements = ScratchAt(depth).elements;
    ReadVariantArrayElements(value, length, &elements);
    sink->Level(node.value_leaf, node.def, rep);
    const Node& element = node.children[0];
    if (elements.empty()) {
      WriteMissing(element, present, rep, sink);  // an empty list
      return;
    }
    for (size_t i = 0; i < elements.size(); ++i) {
      WriteNode(element, elements[i].first, VariantValueSize(elements[i].first, elements[i].second),
                i == 0 ? rep : element.rep_depth, depth + 1, sink);
    }
    return;
  }
  if (kind != Kind::kObject && kind != Kind::kArray && WritePrimitive(node, value, length, rep, sink)) {
    sink->Level(node.value_leaf, node.def, rep);
    return;
  }
  // Not of the shredded type: the whole value in `value`, typed_value null.
  sink->Bytes(node.value_leaf, present, rep, value, length);
  for (int leaf = node.value_leaf + 1; leaf < node.value_leaf + node.leaf_count; ++leaf) sink->Level(leaf, node.def, rep);
}

bool ShreddedVariantWriter::WritePrimitive(const Node& node, const uint8_t* value, size_t length, int16_t rep,
                                           VariantLeafSink* sink) {
  const VariantShredding& s = *node.shredding;
  const int leaf = node.value_leaf + 1;
  const int16_t def = static_cast<int16_t>(node.def + 1);
  const uint32_t basic = value[0] & 3;
  const uint32_t type = value[0] >> 2;
  switch (s.kind) {
    case Kind::kBoolean:
      if (basic != 0 || (type != 1 && type != 2)) return false;
      sink->Boolean(leaf, def, rep, type == 1);
      return true;
    case Kind::kInt8:
    case Kind::kInt16:
    case Kind::kInt32:
    case Kind::kInt64: {
      if (basic != 0 || type < 3 || type > 6) return false;
      const size_t bytes = size_t{1} << (type - 3);
      if (length < 1 + bytes) throw ParquetError("variant integer truncated");
      const auto v = static_cast<int64_t>(ReadSigned(value + 1, bytes));
      const int64_t limit = s.kind == Kind::kInt8 ? INT8_MAX : s.kind == Kind::kInt16 ? INT16_MAX : INT32_MAX;
      if (s.kind == Kind::kInt64) {
        sink->Int64(leaf, def, rep, v);
        return true;
      }
      if (v > limit || v < -limit - 1) return false;
      sink->Int32(leaf, def, rep, static_cast<int32_t>(v));
      return true;
    }
    case Kind::kDouble: {
      if (basic != 0 || type != 7) return false;
      if (length < 9) throw ParquetError("variant double truncated");
      const uint64_t bits = static_cast<uint64_t>(ReadSigned(value + 1, 8));
      double v;
      std::memcpy(&v, &bits, sizeof v);
      sink->Double(leaf, def, rep, v);
      return true;
    }
    case Kind::kString:
      if (basic == 1) {
        sink->Bytes(leaf, def, rep, value + 1, type);
        return true;
      }
      if (basic != 0 || type != 16) return false;
      if (length < 5) throw ParquetError("variant string truncated");
      sink->Bytes(leaf, def, rep, value + 5, static_cast<size_t>(ReadSigned(value + 1, 4)) & 0xffffffffu);
      return true;
    case Kind::kDecimal: {
      if (basic != 0 || type < 8 || type > 10) return false;
      const size_t width = type == 8 ? 4 : type == 9 ? 8 : 16;
      if (length < 2 + width) throw ParquetError("variant decimal truncated");
      if (value[1] != s.scale) return false;
      const Int128 unscaled = ReadSigned(value + 2, width);
      const Int128 limit = PowerOfTen(s.precision);
      if (unscaled >= limit || unscaled <= -limit) return false;
      if (s.precision <= 9) {
        sink->Int32(leaf, def, rep, static_cast<int32_t>(unscaled));
      } else if (s.precision <= 18) {
        sink->Int64(leaf, def, rep, static_cast<int64_t>(unscaled));
      } else {
        uint8_t big_endian[16];
        const auto bits = static_cast<unsigned __int128>(unscaled);
        for (int i = 0; i < 16; ++i) big_endian[i] = static_cast<uint8_t>(bits >> (8 * (15 - i)));
        sink->Bytes(leaf, def, rep, big_endian, 16);
      }
      return true;
    }
    default:
      return false;
  }
}

// ---- The chooser ----

struct VariantShreddingChooser::Stats {
  uint64_t total = 0;  // values seen here (nulls included)
  uint64_t booleans = 0, integers = 0, doubles = 0, strings = 0, objects = 0, arrays = 0;
  int integer_bytes = 0;
  std::map<int, std::pair<uint64_t, int>> decimals;  // scale -> (count, most digits)
  std::map<std::string, std::unique_ptr<Stats>> fields;
  std::unique_ptr<Stats> elements;
};

VariantShreddingChooser::VariantShreddingChooser() : root_(std::make_unique<Stats>()) {}
VariantShreddingChooser::~VariantShreddingChooser() = default;

namespace {

void AddSample(VariantShreddingChooser::Stats* stats, const VariantMetadata& metadata, const uint8_t* value,
               size_t length, int depth) {
  ++stats->total;
  const Classified c = Classify(value, length);
  switch (c.value_class) {
    case ValueClass::kBoolean: ++stats->booleans; break;
    case ValueClass::kInteger:
      ++stats->integers;
      stats->integer_bytes = std::max(stats->integer_bytes, c.integer_bytes);
      break;
    case ValueClass::kDouble: ++stats->doubles; break;
    case ValueClass::kString: ++stats->strings; break;
    case ValueClass::kDecimal: {
      auto& entry = stats->decimals[c.scale];
      ++entry.first;
      entry.second = std::max(entry.second, c.digits);
      break;
    }
    case ValueClass::kObject: {
      ++stats->objects;
      if (depth >= VariantShreddingChooser::kMaxShreddingDepth) break;
      std::vector<VariantField> fields;
      ReadVariantObjectFields(metadata, value, length, &fields);
      for (const VariantField& field : fields) {
        auto& child = stats->fields[std::string(field.key)];
        if (!child) child = std::make_unique<VariantShreddingChooser::Stats>();
        AddSample(child.get(), metadata, field.value, VariantValueSize(field.value, field.length), depth + 1);
      }
      break;
    }
    case ValueClass::kArray: {
      ++stats->arrays;
      if (depth >= VariantShreddingChooser::kMaxShreddingDepth) break;
      std::vector<std::pair<const uint8_t*, size_t>> elements;
      ReadVariantArrayElements(value, length, &elements);
      if (!stats->elements && !elements.empty()) stats->elements = std::make_unique<VariantShreddingChooser::Stats>();
      for (const auto& element : elements) AddSample(stats->elements.get(), metadata, element.first, element.second, depth + 1);
      break;
    }
    default: break;
  }
}

bool SameNameIgnoringAsciiCase(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

int DecimalPrecisionFor(int digits) { return digits <= 9 ? 9 : digits <= 18 ? 18 : 38; }

// The shredding of a position whose values are `stats`, against `denominator` values (the
// position's own count, or for a field its parent's objects); the count of the class
// chosen goes to *support.
std::optional<VariantShredding> ChooseAt(const VariantShreddingChooser::Stats& stats, uint64_t denominator,
                                         uint64_t* support) {
  VariantShredding s;
  uint64_t best = 0;
  auto consider = [&](uint64_t count, Kind kind) {
    if (count > best) {
      best = count;
      s.kind = kind;
    }
  };
  consider(stats.objects, Kind::kObject);
  consider(stats.arrays, Kind::kArray);
  consider(stats.strings, Kind::kString);
  consider(stats.integers, Kind::kInt64);
  consider(stats.doubles, Kind::kDouble);
  consider(stats.booleans, Kind::kBoolean);
  for (const auto& [scale, entry] : stats.decimals) {
    if (entry.first > best) {
      best = entry.first;
      s.kind = Kind::kDecimal;
      s.scale = scale;
      s.precision = DecimalPrecisionFor(std::max(entry.second, scale));
    }
  }
  *support = best;
  if (best == 0 || best * 2 <= denominator) return std::nullopt;
  if (s.kind == Kind::kInt64) {
    s.kind = stats.integer_bytes == 1 ? Kind::kInt8 : stats.integer_bytes == 2 ? Kind::kInt16
             : stats.integer_bytes == 4 ? Kind::kInt32 : Kind::kInt64;
  }
  if (s.kind == Kind::kObject) {
    std::vector<std::pair<uint64_t, std::pair<std::string, VariantShredding>>> chosen;
    for (const auto& [name, child] : stats.fields) {
      uint64_t child_support = 0;
      std::optional<VariantShredding> field = ChooseAt(*child, stats.objects, &child_support);
      if (field) chosen.push_back({child_support, {name, std::move(*field)}});
    }
    // The most frequent first; of names equal but for ASCII case only the first (DuckDB
    // matches struct fields ignoring case and renames the second); at most kMaxShreddedFields.
    std::stable_sort(chosen.begin(), chosen.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (auto& entry : chosen) {
      if (s.fields.size() == VariantShreddingChooser::kMaxShreddedFields) break;
      bool clash = false;
      for (const auto& kept : s.fields) clash = clash || SameNameIgnoringAsciiCase(kept.first, entry.second.first);
      if (!clash) s.fields.push_back(std::move(entry.second));
    }
    if (s.fields.empty()) return std::nullopt;
    std::sort(s.fields.begin(), s.fields.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  } else if (s.kind == Kind::kArray) {
    if (!stats.elements) return std::nullopt;
    uint64_t element_support = 0;
    std::optional<VariantShredding> element = ChooseAt(*stats.elements, stats.elements->total, &element_support);
    if (!element) return std::nullopt;
    s.element.push_back(std::move(*element));
  }
  return s;
}

}  // namespace

void VariantShreddingChooser::Add(const std::string& metadata, const std::string& value) {
  const auto* metadata_bytes = reinterpret_cast<const uint8_t*>(metadata.data());
  const auto* value_bytes = reinterpret_cast<const uint8_t*>(value.data());
  const VariantMetadata parsed(metadata_bytes, metadata.size());
  AddSample(root_.get(), parsed, value_bytes, VariantValueSize(value_bytes, value.size()), 0);
}

std::optional<VariantShredding> VariantShreddingChooser::Choose() const {
  uint64_t support = 0;
  return ChooseAt(*root_, root_->total, &support);
}

}  // namespace parquet

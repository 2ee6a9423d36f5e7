// Variant binary encoding -> JSON text (see format/values/variant.h).
#include "format/values/variant.h"

#include <charconv>
#include <cmath>
#include <cstring>

#include "format/common/error.h"
#include "format/values/json_text.h"
#include "format/values/logical_values.h"

namespace parquet {
namespace {

// Little-endian unsigned integer of `size` (1..4) bytes.
uint32_t ReadUnsigned(const uint8_t* p, uint32_t size) {
  uint32_t value = 0;
  for (uint32_t i = 0; i < size; ++i) value |= static_cast<uint32_t>(p[i]) << (8 * i);
  return value;
}

template <class T> T ReadLittleEndian(const uint8_t* p) {
  uint64_t bits = 0;
  for (size_t i = 0; i < sizeof(T); ++i) bits |= static_cast<uint64_t>(p[i]) << (8 * i);
  T value;
  if constexpr (sizeof(T) == 8) {
    std::memcpy(&value, &bits, 8);
  } else {
    const auto narrow = static_cast<uint32_t>(bits);
    if constexpr (sizeof(T) == 4) {
      std::memcpy(&value, &narrow, 4);
    } else {
      const auto narrower = static_cast<uint16_t>(bits);
      if constexpr (sizeof(T) == 2) {
        std::memcpy(&value, &narrower, 2);
      } else {
        value = static_cast<T>(static_cast<uint8_t>(bits));
      }
    }
  }
  return value;
}

void Need(size_t available, size_t needed, const char* what) {
  if (needed > available) {
    throw ParquetError(std::string("variant value truncated: ") + what + " needs " +
                       std::to_string(needed) + " bytes, " + std::to_string(available) +
                       " available");
  }
}

template <class T> void AppendInteger(T value, std::string* out) {
  char buffer[24];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  out->append(buffer, result.ptr);
}

void AppendDecimal(const uint8_t* p, size_t available, size_t width, std::string* out) {
  Need(available, 1 + width, "decimal");
  const int32_t scale = p[0];
  if (scale > 38) throw ParquetError("variant decimal scale " + std::to_string(scale) + " exceeds 38");
  uint8_t big_endian[16];
  for (size_t i = 0; i < width; ++i) big_endian[i] = p[1 + width - 1 - i];
  char text[DecimalTextCapacity(16, 38)];
  const size_t n = FormatDecimalBigEndian(big_endian, width, scale, text, sizeof(text));
  if (n == 0) throw ParquetError("variant decimal cannot be formatted");
  out->append(text, n);
}

void AppendTimestamp(int64_t value, TimeUnit unit, std::string* out) {
  char text[kTimestampTextCapacity];
  const size_t n = FormatTimestamp(value, unit, text);
  out->push_back('"');
  out->append(text, n);
  out->push_back('"');
}

// Appends a primitive (basic type 0) with type id `type`; p/available follow the header.
void AppendPrimitive(uint32_t type, const uint8_t* p, size_t available, std::string* out) {
  switch (type) {
    case 0: out->append("null"); return;
    case 1: out->append("true"); return;
    case 2: out->append("false"); return;
    case 3: Need(available, 1, "int8"); AppendInteger(ReadLittleEndian<int8_t>(p), out); return;
    case 4: Need(available, 2, "int16"); AppendInteger(ReadLittleEndian<int16_t>(p), out); return;
    case 5: Need(available, 4, "int32"); AppendInteger(ReadLittleEndian<int32_t>(p), out); return;
    case 6: Need(available, 8, "int64"); AppendInteger(ReadLittleEndian<int64_t>(p), out); return;
    case 7: Need(available, 8, "double"); AppendJsonDouble(ReadLittleEndian<double>(p), out); return;
    case 8: AppendDecimal(p, available, 4, out); return;
    case 9: AppendDecimal(p, available, 8, out); return;
    case 10: AppendDecimal(p, available, 16, out); return;
    case 11: {
      Need(available, 4, "date");
      char text[kDateTextCapacity];
      const size_t n = FormatDate(ReadLittleEndian<int32_t>(p), text);
      out->push_back('"');
      out->append(text, n);
      out->push_back('"');
      return;
    }
    case 12:
    case 13:
      Need(available, 8, "timestamp");
      AppendTimestamp(ReadLittleEndian<int64_t>(p), TimeUnit::MICROS, out);
      return;
    case 14: Need(available, 4, "float"); AppendJsonFloat(ReadLittleEndian<float>(p), out); return;
    case 15:
    case 16: {
      Need(available, 4, type == 15 ? "binary length" : "string length");
      const uint32_t length = ReadUnsigned(p, 4);
      Need(available - 4, length, type == 15 ? "binary" : "string");
      if (type == 15) {
        AppendJsonBase64(p + 4, length, out);
      } else {
        AppendJsonString(std::string_view(reinterpret_cast<const char*>(p + 4), length), out);
      }
      return;
    }
    case 17: {
      Need(available, 8, "time");
      char text[kTimeTextCapacity];
      const size_t n = FormatTime(ReadLittleEndian<int64_t>(p), TimeUnit::MICROS, text);
      out->push_back('"');
      out->append(text, n);
      out->push_back('"');
      return;
    }
    case 18:
    case 19:
      Need(available, 8, "timestamp");
      AppendTimestamp(ReadLittleEndian<int64_t>(p), TimeUnit::NANOS, out);
      return;
    case 20: {
      Need(available, 16, "uuid");
      char text[kUuidTextCapacity];
      const size_t n = FormatUuid(p, text);
      out->push_back('"');
      out->append(text, n);
      out->push_back('"');
      return;
    }
    default:
      throw ParquetError("variant primitive type id " + std::to_string(type) + " is not supported");
  }
}

// The header of an object or array value: element count, field ids (objects), offsets
// and the values area, checked to lie within the value.
struct ElementBytes {
  const uint8_t* value;
  size_t length;
};

struct ContainerLayout {
  bool is_object = false;
  uint64_t count = 0;
  uint32_t id_size = 0;
  uint32_t offset_size = 1;
  const uint8_t* ids = nullptr;
  const uint8_t* offsets = nullptr;
  const uint8_t* values = nullptr;
  size_t values_length = 0;

  uint32_t FieldId(uint64_t i) const { return ReadUnsigned(ids + i * id_size, id_size); }

  // Element i's bytes. Objects may store field values in any order, so a field's value
  // runs from its offset to the end of the values area (its own encoding says where it
  // ends); arrays are in order and end at the next offset.
  ElementBytes Element(uint64_t i) const {
    const uint32_t start = ReadUnsigned(offsets + i * offset_size, offset_size);
    uint32_t end = ReadUnsigned(offsets + (i + 1) * offset_size, offset_size);
    if (is_object) end = static_cast<uint32_t>(values_length);
    if (start >= values_length || end > values_length || start >= end) {
      throw ParquetError("variant element offset " + std::to_string(start) + " is outside the " +
                         std::to_string(values_length) + "-byte values area");
    }
    return {values + start, end - start};
  }
};

// p/available: the bytes after the value header byte, whose upper six bits are `header`.
ContainerLayout ParseContainer(bool is_object, uint32_t header, const uint8_t* p, size_t available) {
  ContainerLayout layout;
  layout.is_object = is_object;
  layout.offset_size = (header & 3) + 1;
  layout.id_size = is_object ? ((header >> 2) & 3) + 1 : 0;
  const bool is_large = is_object ? (header >> 4) & 1 : (header >> 2) & 1;
  const uint32_t count_size = is_large ? 4 : 1;
  Need(available, count_size, "element count");
  layout.count = ReadUnsigned(p, count_size);
  const uint64_t offsets_start = count_size + layout.count * layout.id_size;
  const uint64_t values_start = offsets_start + (layout.count + 1) * layout.offset_size;
  Need(available, values_start, is_object ? "object header" : "array header");
  layout.ids = p + count_size;
  layout.offsets = p + offsets_start;
  layout.values = p + values_start;
  layout.values_length = available - values_start;
  return layout;
}

void AppendValue(const VariantMetadata& metadata, const uint8_t* value, size_t length, int depth,
                 std::string* out) {
  if (depth > kMaxVariantDepth) {
    throw ParquetError("variant nesting deeper than " + std::to_string(kMaxVariantDepth) + " levels");
  }
  Need(length, 1, "value header");
  const uint32_t basic_type = value[0] & 3;
  const uint32_t header = value[0] >> 2;
  const uint8_t* p = value + 1;
  const size_t available = length - 1;
  switch (basic_type) {
    case 0:
      AppendPrimitive(header, p, available, out);
      return;
    case 1:
      Need(available, header, "short string");
      AppendJsonString(std::string_view(reinterpret_cast<const char*>(p), header), out);
      return;
    case 2:
    case 3: {
      const bool is_object = basic_type == 2;
      const ContainerLayout layout = ParseContainer(is_object, header, p, available);
      out->push_back(is_object ? '{' : '[');
      for (uint64_t i = 0; i < layout.count; ++i) {
        if (i > 0) out->push_back(',');
        if (is_object) {
          AppendJsonString(metadata.Key(layout.FieldId(i)), out);
          out->push_back(':');
        }
        const ElementBytes element = layout.Element(i);
        AppendValue(metadata, element.value, element.length, depth + 1, out);
      }
      out->push_back(is_object ? '}' : ']');
      return;
    }
  }
}

}  // namespace

VariantMetadata::VariantMetadata(const uint8_t* bytes, size_t length) : bytes_(bytes), length_(length) {
  if (length < 1) throw ParquetError("variant metadata is empty");
  const uint32_t version = bytes[0] & 15;
  if (version != 1) throw ParquetError("variant metadata version " + std::to_string(version) + " is not supported");
  offset_size_ = ((bytes[0] >> 6) & 3) + 1;
  Need(length - 1, offset_size_, "metadata dictionary size");
  dictionary_size_ = ReadUnsigned(bytes + 1, offset_size_);
  offsets_start_ = 1 + offset_size_;
  const uint64_t offsets_bytes = (uint64_t{dictionary_size_} + 1) * offset_size_;
  if (offsets_bytes > length - offsets_start_) {
    throw ParquetError("variant metadata truncated: dictionary of " + std::to_string(dictionary_size_) +
                       " strings does not fit in " + std::to_string(length) + " bytes");
  }
  strings_start_ = offsets_start_ + offsets_bytes;
}

std::string_view VariantMetadata::Key(uint32_t id) const {
  if (id >= dictionary_size_) {
    throw ParquetError("variant field id " + std::to_string(id) + " is outside the metadata dictionary of " +
                       std::to_string(dictionary_size_) + " strings");
  }
  const uint32_t start = ReadUnsigned(bytes_ + offsets_start_ + size_t{id} * offset_size_, offset_size_);
  const uint32_t end = ReadUnsigned(bytes_ + offsets_start_ + (size_t{id} + 1) * offset_size_, offset_size_);
  if (start > end || end > length_ - strings_start_) {
    throw ParquetError("variant metadata string " + std::to_string(id) + " has bad offsets");
  }
  return std::string_view(reinterpret_cast<const char*>(bytes_ + strings_start_ + start), end - start);
}

void AppendVariantJson(const VariantMetadata& metadata, const uint8_t* value, size_t length,
                       std::string* out) {
  AppendValue(metadata, value, length, 0, out);
}

bool ReadVariantObjectFields(const VariantMetadata& metadata, const uint8_t* value, size_t length,
                             std::vector<VariantField>* fields) {
  Need(length, 1, "value header");
  if ((value[0] & 3) != 2) return false;
  const ContainerLayout layout = ParseContainer(true, value[0] >> 2, value + 1, length - 1);
  fields->clear();
  for (uint64_t i = 0; i < layout.count; ++i) {
    const ElementBytes element = layout.Element(i);
    const uint32_t id = layout.FieldId(i);
    fields->push_back({metadata.Key(id), id, element.value, element.length});
  }
  return true;
}

bool ReadVariantArrayElements(const uint8_t* value, size_t length, std::vector<std::pair<const uint8_t*, size_t>>* elements) {
  Need(length, 1, "value header");
  if ((value[0] & 3) != 3) return false;
  const ContainerLayout layout = ParseContainer(false, value[0] >> 2, value + 1, length - 1);
  elements->clear();
  for (uint64_t i = 0; i < layout.count; ++i) {
    const ElementBytes element = layout.Element(i);
    elements->emplace_back(element.value, element.length);
  }
  return true;
}

size_t VariantValueSize(const uint8_t* value, size_t length) {
  Need(length, 1, "value header");
  const uint32_t header = value[0] >> 2;
  size_t size = 1;
  switch (value[0] & 3) {
    case 0: {
      static constexpr uint8_t kFixedSizes[] = {0, 0, 0, 1, 2, 4, 8, 8, 5, 9, 17, 4, 8, 8, 4, 0, 0, 8, 8, 8, 16};
      if (header == 15 || header == 16) {
        Need(length - 1, 4, "length");
        size += 4 + ReadUnsigned(value + 1, 4);
      } else if (header < sizeof(kFixedSizes)) {
        size += kFixedSizes[header];
      } else {
        throw ParquetError("variant primitive type id " + std::to_string(header) + " is not supported");
      }
      break;
    }
    case 1: size += header; break;
    default: {
      const ContainerLayout layout = ParseContainer((value[0] & 3) == 2, header, value + 1, length - 1);
      const uint32_t values_size = ReadUnsigned(layout.offsets + layout.count * layout.offset_size, layout.offset_size);
      size = static_cast<size_t>(layout.values - value) + values_size;
      break;
    }
  }
  Need(length, size, "value");
  return size;
}

std::string VariantToJson(const uint8_t* metadata, size_t metadata_length, const uint8_t* value,
                          size_t value_length) {
  const VariantMetadata parsed(metadata, metadata_length);
  std::string out;
  AppendVariantJson(parsed, value, value_length, &out);
  return out;
}

}  // namespace parquet

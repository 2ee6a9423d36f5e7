// Statistics as the writer gathers them (see write_statistics.h): the sort order answer
// for the writer, text detection and the truncation of byte-array bounds.
#include "format/write/write_statistics.h"

#include <algorithm>
#include <optional>

#include "format/values/text.h"

namespace parquet {

namespace {

// Length of the longest prefix of at most `limit` bytes that ends at a character boundary
// (for text; any cut for binary).
size_t CutPoint(std::string_view value, size_t limit, bool text) {
  size_t cut = std::min(limit, value.size());
  if (text) {
    while (cut > 0 && cut < value.size() && (static_cast<uint8_t>(value[cut]) & 0xC0) == 0x80) cut--;
  }
  return cut;
}

// A lower bound of `value` in unsigned byte order, at most `limit` bytes: a prefix.
std::string TruncatedLowerBound(std::string_view value, size_t limit, bool text) {
  return std::string(value.substr(0, CutPoint(value, limit, text)));
}

// An upper bound of `value` in unsigned byte order, at most `limit` bytes: a prefix whose
// last byte that can grow grew by one, what followed it dropped. For text, the last
// character that can grow becomes the next code point, so the bound stays valid UTF-8.
// nullopt when no such bound exists (a prefix of only 0xFF bytes, or of U+10FFFF).
std::optional<std::string> TruncatedUpperBound(std::string_view value, size_t limit, bool text) {
  if (text) {
    std::string_view prefix = value.substr(0, CutPoint(value, limit, text));
    // Split the prefix into characters; invalid UTF-8 falls back to bytes below.
    std::vector<size_t> starts;
    bool valid = true;
    for (size_t pos = 0; pos < prefix.size();) {
      uint32_t cp;
      size_t length;
      if (!DecodeUtf8Character(reinterpret_cast<const uint8_t*>(prefix.data()) + pos, prefix.size() - pos, &cp,
                               &length)) {
        valid = false;
        break;
      }
      starts.push_back(pos);
      pos += length;
    }
    if (valid) {
      for (size_t i = starts.size(); i-- > 0;) {
        uint32_t cp;
        size_t length;
        DecodeUtf8Character(reinterpret_cast<const uint8_t*>(prefix.data()) + starts[i],
                            prefix.size() - starts[i], &cp, &length);
        uint32_t next = cp + 1;
        if (next == 0xD800) next = 0xE000;  // surrogates are not characters
        if (next > 0x10FFFF) continue;
        std::string bound(prefix.substr(0, starts[i]));
        AppendUtf8(next, &bound);
        if (bound.size() <= limit) return bound;
      }
      return std::nullopt;
    }
  }
  for (size_t i = std::min(limit, value.size()); i-- > 0;) {
    const uint8_t byte = static_cast<uint8_t>(value[i]);
    if (byte != 0xFF) {
      std::string bound(value.substr(0, i));
      bound.push_back(static_cast<char>(byte + 1));
      return bound;
    }
  }
  return std::nullopt;
}

template <typename T>
T LoadValue(const std::string& bytes) {
  T value{};
  std::memcpy(&value, bytes.data(), std::min(sizeof(T), bytes.size()));
  return value;
}

template <typename T>
int ThreeWay(T a, T b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

}  // namespace

ValueComparison WrittenStatisticsComparison(const SchemaNode& node) {
  const ValueComparison comparison = TypeDefinedComparison(node);
  const bool float16 = comparison == ValueComparison::kFloatingPoint && node.physical_type.has_value() &&
                       *node.physical_type == Type::FIXED_LEN_BYTE_ARRAY;
  return float16 ? ValueComparison::kNone : comparison;
}

bool IsTextColumn(const SchemaNode& node) {
  if (node.logical_type.has_value()) {
    switch (node.logical_type->kind) {
      case LogicalType::Kind::STRING:
      case LogicalType::Kind::ENUM:
      case LogicalType::Kind::JSON:
        return true;
      default:
        break;
    }
  }
  return node.converted_type == ConvertedType::UTF8 || node.converted_type == ConvertedType::ENUM ||
         node.converted_type == ConvertedType::JSON;
}

void TruncateBounds(EncodedBounds* bounds, size_t limit, ValueComparison comparison, bool text) {
  if (limit == 0 || comparison != ValueComparison::kUnsignedBytes) return;
  if (bounds->min.size() > limit) {
    bounds->min = TruncatedLowerBound(bounds->min, limit, text);
    bounds->min_exact = false;
  }
  if (bounds->max.size() > limit) {
    if (std::optional<std::string> upper = TruncatedUpperBound(bounds->max, limit, text)) {
      bounds->max = std::move(*upper);
      bounds->max_exact = false;
    }
  }
}

int CompareEncoded(Type type, ValueComparison comparison, const std::string& a, const std::string& b) {
  const bool is_unsigned = comparison == ValueComparison::kUnsignedInteger;
  switch (type) {
    case Type::BOOLEAN:
      return ThreeWay(LoadValue<uint8_t>(a), LoadValue<uint8_t>(b));
    case Type::INT32:
      return is_unsigned ? ThreeWay(LoadValue<uint32_t>(a), LoadValue<uint32_t>(b))
                         : ThreeWay(LoadValue<int32_t>(a), LoadValue<int32_t>(b));
    case Type::INT64:
      return is_unsigned ? ThreeWay(LoadValue<uint64_t>(a), LoadValue<uint64_t>(b))
                         : ThreeWay(LoadValue<int64_t>(a), LoadValue<int64_t>(b));
    case Type::FLOAT:
      return ThreeWay(LoadValue<float>(a), LoadValue<float>(b));
    case Type::DOUBLE:
      return ThreeWay(LoadValue<double>(a), LoadValue<double>(b));
    case Type::BYTE_ARRAY:
    case Type::FIXED_LEN_BYTE_ARRAY:
      return comparison == ValueComparison::kSignedBigEndian ? CompareSignedBigEndian(a, b) : CompareUnsignedBytes(a, b);
    case Type::INT96:
      break;
  }
  return 0;
}
}  // namespace parquet

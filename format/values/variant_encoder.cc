// The JSON to Variant encoder of variant_encoder.h.
#include "format/values/variant_encoder.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <vector>

#include "format/values/json_document.h"

namespace parquet {

namespace {

__extension__ typedef unsigned __int128 UInt128;  // GCC/Clang extension: decimal16 values

uint32_t BytesFor(uint64_t max_value) { return max_value < 0x100 ? 1 : max_value < 0x10000 ? 2 : max_value < 0x1000000 ? 3 : 4; }

void AppendUnsigned(uint64_t value, uint32_t size, std::string* out) {
  for (uint32_t i = 0; i < size; i++) out->push_back(static_cast<char>(value >> (8 * i)));
}

// Thrown inside the encoder when its interrupt check says yes; caught by EncodeJsonAsVariant.
struct EncodingInterrupted {};

class VariantEncoder {
 public:
  VariantEncoder(const JsonDocument& document, const std::function<bool()>* interrupted)
      : document_(document), interrupted_(interrupted) {}

  // Collects the keys of every object, then encodes.
  void Encode(std::string* metadata, std::string* value) {
    CollectKeys(0);
    uint32_t id = 0;
    for (auto& entry : keys_) entry.second = id++;  // sorted: std::map orders the keys bytewise
    member_of_id_.assign(keys_.size(), kNoMember);
    EncodeMetadata(metadata);
    value->clear();
    EncodeValue(0, value);
  }

 private:
  std::string_view KeyOf(const JsonNode& node, std::string* scratch) const {
    if (!node.key_escaped) return node.key;
    UnescapeJsonString(node.key, scratch);
    return *scratch;
  }

  // Counts one value visited; asks the interrupt check every kVariantInterruptInterval.
  void Step() {
    if (interrupted_ != nullptr && ++steps_ % kVariantInterruptInterval == 0 && (*interrupted_)()) {
      throw EncodingInterrupted();
    }
  }

  void CollectKeys(int32_t index) {
    Step();
    const JsonNode& node = document_.node(index);
    if (node.kind != JsonNode::Kind::kArray && node.kind != JsonNode::Kind::kObject) return;
    for (int32_t child = node.first_child; child >= 0; child = document_.node(child).next_sibling) {
      if (node.kind == JsonNode::Kind::kObject) {
        std::string scratch;
        keys_.emplace(std::string(KeyOf(document_.node(child), &scratch)), 0);
      }
      CollectKeys(child);
    }
  }

  void EncodeMetadata(std::string* out) const {
    uint64_t total = 0;
    for (const auto& entry : keys_) total += entry.first.size();
    const uint32_t offset_size = BytesFor(std::max<uint64_t>(total, keys_.size()));
    out->clear();
    // version 1, sorted_strings, offset_size - 1 in the top two bits
    out->push_back(static_cast<char>(1 | 0x10 | ((offset_size - 1) << 6)));
    AppendUnsigned(keys_.size(), offset_size, out);
    uint64_t offset = 0;
    AppendUnsigned(0, offset_size, out);
    for (const auto& entry : keys_) {
      offset += entry.first.size();
      AppendUnsigned(offset, offset_size, out);
    }
    for (const auto& entry : keys_) out->append(entry.first);
  }

  static void Primitive(uint8_t type_id, std::string* out) { out->push_back(static_cast<char>(type_id << 2)); }

  void EncodeNumber(std::string_view text, std::string* out) {
    const bool integral = text.find_first_of(".eE") == std::string_view::npos;
    int64_t integer = 0;
    if (integral) {
      const auto result = std::from_chars(text.data(), text.data() + text.size(), integer);
      if (result.ec == std::errc() && result.ptr == text.data() + text.size()) {
        if (integer >= INT8_MIN && integer <= INT8_MAX) {
          Primitive(3, out);
          AppendUnsigned(static_cast<uint64_t>(integer), 1, out);
        } else if (integer >= INT16_MIN && integer <= INT16_MAX) {
          Primitive(4, out);
          AppendUnsigned(static_cast<uint64_t>(integer), 2, out);
        } else if (integer >= INT32_MIN && integer <= INT32_MAX) {
          Primitive(5, out);
          AppendUnsigned(static_cast<uint64_t>(integer), 4, out);
        } else {
          Primitive(6, out);
          AppendUnsigned(static_cast<uint64_t>(integer), 8, out);
        }
        return;
      }
    }
    if (EncodeDecimal(text, out)) return;
    const double real = std::strtod(std::string(text).c_str(), nullptr);
    uint64_t bits;
    std::memcpy(&bits, &real, 8);
    Primitive(7, out);
    AppendUnsigned(bits, 8, out);
  }

  // A number without exponent whose digits (leading zeros aside) number at most 38, with at
  // most 38 after the point: decimal4/8/16 by the digit count (9, 18, 38), the scale the
  // number of digits after the point. False (a double then) otherwise, and for a negative
  // zero, which a decimal cannot hold.
  static bool EncodeDecimal(std::string_view text, std::string* out) {
    if (text.find_first_of("eE") != std::string_view::npos) return false;
    const bool negative = !text.empty() && text[0] == '-';
    UInt128 unscaled = 0;
    int digits = 0, scale = 0;
    bool fraction = false;
    for (size_t i = negative ? 1 : 0; i < text.size(); ++i) {
      const char c = text[i];
      if (c == '.') {
        fraction = true;
        continue;
      }
      if (c < '0' || c > '9') return false;
      if (fraction && ++scale > 38) return false;
      if (unscaled == 0 && c == '0') continue;
      if (++digits > 38) return false;
      unscaled = unscaled * 10 + static_cast<unsigned>(c - '0');
    }
    if (unscaled == 0 && negative) return false;
    const uint32_t width = digits <= 9 ? 4 : digits <= 18 ? 8 : 16;
    Primitive(width == 4 ? 8 : width == 8 ? 9 : 10, out);
    out->push_back(static_cast<char>(scale));
    const UInt128 twos = negative ? ~unscaled + 1 : unscaled;
    for (uint32_t i = 0; i < width; i++) out->push_back(static_cast<char>(static_cast<uint64_t>(twos >> (8 * i)) & 0xff));
    return true;
  }

  void EncodeString(std::string_view text, std::string* out) {
    if (text.size() < 64) {
      out->push_back(static_cast<char>(1 | (text.size() << 2)));
    } else {
      Primitive(16, out);
      AppendUnsigned(text.size(), 4, out);
    }
    out->append(text);
  }

  void EncodeValue(int32_t index, std::string* out) {
    Step();
    const JsonNode& node = document_.node(index);
    switch (node.kind) {
      case JsonNode::Kind::kNull: Primitive(0, out); return;
      case JsonNode::Kind::kTrue: Primitive(1, out); return;
      case JsonNode::Kind::kFalse: Primitive(2, out); return;
      case JsonNode::Kind::kNumber: EncodeNumber(node.text, out); return;
      case JsonNode::Kind::kString: {
        if (!node.escaped) return EncodeString(node.text, out);
        std::string text;
        UnescapeJsonString(node.text, &text);
        return EncodeString(text, out);
      }
      case JsonNode::Kind::kArray:
      case JsonNode::Kind::kObject: EncodeContainer(node, out); return;
    }
  }

  void EncodeContainer(const JsonNode& node, std::string* out) {
    const bool object = node.kind == JsonNode::Kind::kObject;
    // Members: (field id, child); an object keeps the last of repeated keys, in key order. A
    // repeated key is found through member_of_id_ (field id -> its index in `members`),
    // shared by all objects and cleared again below, before the members are encoded (which
    // uses it for the nested objects): linear however many members repeat a key.
    std::vector<std::pair<uint32_t, int32_t>> members;
    std::string scratch;
    for (int32_t child = node.first_child; child >= 0; child = document_.node(child).next_sibling) {
      uint32_t id = 0;
      if (object) {
        id = keys_.find(std::string(KeyOf(document_.node(child), &scratch)))->second;
        size_t& slot = member_of_id_[id];
        if (slot != kNoMember) {
          members[slot].second = child;
          continue;
        }
        slot = members.size();
      }
      members.emplace_back(id, child);
    }
    if (object) {
      for (const auto& member : members) member_of_id_[member.first] = kNoMember;
    }
    if (object) std::sort(members.begin(), members.end());  // ids follow key order
    std::string values;
    std::vector<uint64_t> offsets{0};
    for (const auto& member : members) {
      EncodeValue(member.second, &values);
      offsets.push_back(values.size());
    }
    const uint32_t offset_size = BytesFor(values.size());
    const bool large = members.size() > 255;
    uint32_t header;
    uint32_t id_size = 1;
    if (object) {
      id_size = BytesFor(keys_.empty() ? 0 : keys_.size() - 1);
      header = 2 | ((offset_size - 1) << 2) | ((id_size - 1) << 4) | (large ? 1u << 6 : 0);
    } else {
      header = 3 | ((offset_size - 1) << 2) | (large ? 1u << 4 : 0);
    }
    out->push_back(static_cast<char>(header));
    AppendUnsigned(members.size(), large ? 4 : 1, out);
    if (object) {
      for (const auto& member : members) AppendUnsigned(member.first, id_size, out);
    }
    for (uint64_t offset : offsets) AppendUnsigned(offset, offset_size, out);
    out->append(values);
  }

  static constexpr size_t kNoMember = static_cast<size_t>(-1);

  const JsonDocument& document_;
  const std::function<bool()>* interrupted_;
  uint64_t steps_ = 0;
  std::map<std::string, uint32_t> keys_;  // key -> field id
  std::vector<size_t> member_of_id_;       // field id -> index among the current object's members
};

}  // namespace

bool EncodeJsonAsVariant(std::string_view json, std::string* metadata, std::string* value, std::string* error,
                         const std::function<bool()>* interrupted, bool* was_interrupted) {
  if (was_interrupted != nullptr) *was_interrupted = false;
  JsonDocument document;
  bool parse_interrupted = false;
  if (!document.Parse(json, error, interrupted, kVariantInterruptInterval, &parse_interrupted)) {
    if (was_interrupted != nullptr) *was_interrupted = parse_interrupted;
    return false;
  }
  try {
    VariantEncoder(document, interrupted).Encode(metadata, value);
  } catch (const EncodingInterrupted&) {
    *error = "interrupted";
    if (was_interrupted != nullptr) *was_interrupted = true;
    return false;
  }
  return true;
}

}  // namespace parquet

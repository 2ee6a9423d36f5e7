// Read-only helpers over a parsed JsonDocument for the lake metadata readers (json_view.h).
#include "format/lake/json_view.h"


#include "format/common/error.h"
#include "format/common/text_to_double.h"

namespace parquet::lake {

JsonView JsonView::Get(std::string_view key) const {
  if (!is_object()) return {};
  for (int32_t c = node().first_child; c >= 0; c = doc_->node(c).next_sibling) {
    const JsonNode& child = doc_->node(c);
    if (!child.key_escaped) {
      if (child.key == key) return JsonView(doc_, c);
    } else {
      std::string k;
      UnescapeJsonString(child.key, &k);
      if (k == key) return JsonView(doc_, c);
    }
  }
  return {};
}

JsonView JsonView::First() const {
  if (!present() || (kind() != JsonNode::Kind::kArray && kind() != JsonNode::Kind::kObject)) return {};
  return JsonView(doc_, node().first_child);
}

JsonView JsonView::Next() const {
  if (!present()) return {};
  return JsonView(doc_, node().next_sibling);
}

std::string JsonView::Key() const {
  std::string out;
  if (!present()) return out;
  if (node().key_escaped) {
    UnescapeJsonString(node().key, &out);
  } else {
    out.assign(node().key);
  }
  return out;
}

size_t JsonView::Size() const {
  size_t n = 0;
  for (JsonView c = First(); c.present(); c = c.Next()) ++n;
  return n;
}

std::string JsonView::String(const char* what) const {
  if (!is_string()) throw ParquetError(std::string("JSON: '") + what + "' is not a string");
  std::string out;
  if (node().escaped) {
    UnescapeJsonString(node().text, &out);
  } else {
    out.assign(node().text);
  }
  return out;
}

bool ParseJsonInt(std::string_view text, int64_t* out) {
  if (text.empty() || text.size() > 20) return false;
  size_t i = 0;
  const bool negative = text[0] == '-';
  if (negative) ++i;
  if (i == text.size()) return false;
  uint64_t magnitude = 0;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c < '0' || c > '9') return false;
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    if (magnitude > (UINT64_MAX - digit) / 10) return false;
    magnitude = magnitude * 10 + digit;
  }
  if (negative) {
    if (magnitude > static_cast<uint64_t>(INT64_MAX) + 1) return false;
    *out = magnitude == static_cast<uint64_t>(INT64_MAX) + 1 ? INT64_MIN : -static_cast<int64_t>(magnitude);
  } else {
    if (magnitude > static_cast<uint64_t>(INT64_MAX)) return false;
    *out = static_cast<int64_t>(magnitude);
  }
  return true;
}

int64_t JsonView::Int(const char* what) const {
  int64_t value = 0;
  if (!is_number() || !ParseJsonInt(node().text, &value)) {
    throw ParquetError(std::string("JSON: '") + what + "' is not an integer");
  }
  return value;
}

int64_t JsonView::Id(const char* what) const {
  int64_t value = 0;
  if (is_number() && ParseJsonInt(node().text, &value)) return value;
  const std::string_view text = is_number() ? node().text : std::string_view();
  if (text.empty() || text.size() > 20) throw ParquetError(std::string("JSON: '") + what + "' is not an integer");
  uint64_t magnitude = 0;
  for (char c : text) {
    if (c < '0' || c > '9') throw ParquetError(std::string("JSON: '") + what + "' is not an integer");
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    if (magnitude > (UINT64_MAX - digit) / 10) throw ParquetError(std::string("JSON: '") + what + "' is out of range");
    magnitude = magnitude * 10 + digit;
  }
  return static_cast<int64_t>(magnitude);
}

double JsonView::Double(const char* what) const {
  if (!is_number()) throw ParquetError(std::string("JSON: '") + what + "' is not a number");
  double value = 0;
  const TextToDoubleResult r = TextToDouble(node().text.data(), node().text.data() + node().text.size(), value);
  if (r.error == std::errc::invalid_argument) throw ParquetError(std::string("JSON: '") + what + "' is not a number");
  return value;
}

bool JsonView::Bool(const char* what) const {
  if (!is_bool()) throw ParquetError(std::string("JSON: '") + what + "' is not a boolean");
  return kind() == JsonNode::Kind::kTrue;
}

std::string JsonView::StringOr(std::string_view key, std::string fallback) const {
  const JsonView v = Get(key);
  if (v.is_null()) return fallback;
  return v.String(std::string(key).c_str());
}

int64_t JsonView::IntOr(std::string_view key, int64_t fallback) const {
  const JsonView v = Get(key);
  if (v.is_null()) return fallback;
  return v.Int(std::string(key).c_str());
}

}  // namespace parquet::lake

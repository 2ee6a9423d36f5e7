// Read-only helpers over a parsed JsonDocument (format/values/json_document.h) for the lake
// metadata readers (Avro schemas, Iceberg metadata.json): members by key, strings with
// escapes resolved, integers checked for range. Every accessor checks the node's kind, so a
// document of the wrong shape is an error naming what was expected, never a crash.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "format/values/json_document.h"

namespace parquet::lake {

// A node of a JsonDocument, or none (index -1).
class JsonView {
 public:
  JsonView() = default;
  JsonView(const JsonDocument* doc, int32_t index) : doc_(doc), index_(index) {}
  static JsonView Root(const JsonDocument& doc) { return JsonView(&doc, 0); }

  bool present() const { return doc_ != nullptr && index_ >= 0; }
  JsonNode::Kind kind() const { return node().kind; }
  bool is_null() const { return !present() || kind() == JsonNode::Kind::kNull; }
  bool is_object() const { return present() && kind() == JsonNode::Kind::kObject; }
  bool is_array() const { return present() && kind() == JsonNode::Kind::kArray; }
  bool is_string() const { return present() && kind() == JsonNode::Kind::kString; }
  bool is_number() const { return present() && kind() == JsonNode::Kind::kNumber; }
  bool is_bool() const {
    return present() && (kind() == JsonNode::Kind::kTrue || kind() == JsonNode::Kind::kFalse);
  }

  // The member `key` of an object (none when absent or when this is not an object).
  JsonView Get(std::string_view key) const;
  // First child of an array or object, and the next sibling: for (c = v.First(); c.present(); c = c.Next()).
  JsonView First() const;
  JsonView Next() const;
  // The member's key (object members), escapes resolved.
  std::string Key() const;
  size_t Size() const;  // children of an array or object

  // Values; `what` names the member in the error thrown when the kind is wrong.
  std::string String(const char* what) const;
  int64_t Int(const char* what) const;
  // An identifier (snapshot ids): an integer of int64 range, or up to 2^64-1 taken modulo
  // 2^64 as a writer with unsigned ids meant it (some tables hold ids beyond INT64_MAX).
  int64_t Id(const char* what) const;
  double Double(const char* what) const;
  bool Bool(const char* what) const;
  // The JSON text of the node as written.
  std::string_view Text() const { return node().text; }

  // Optional members: the default when absent or null.
  std::string StringOr(std::string_view key, std::string fallback) const;
  int64_t IntOr(std::string_view key, int64_t fallback) const;

 private:
  const JsonNode& node() const { return doc_->node(index_); }
  const JsonDocument* doc_ = nullptr;
  int32_t index_ = -1;
};

// A JSON integer as written (no fraction or exponent), in int64 range; false otherwise.
bool ParseJsonInt(std::string_view text, int64_t* out);

}  // namespace parquet::lake

// A JSON parser (RFC 8259, no extensions) that keeps the document as a tree of nodes
// pointing into the text, without copying it: parquet_copy reads LIST, MAP and STRUCT
// values from JSON text with it (ext/copy/copy_nested_values.cc).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace parquet {

// Arrays and objects nest at most this deep.
inline constexpr int kMaxJsonDocumentDepth = 64;

struct JsonNode {
  enum class Kind : uint8_t { kNull, kTrue, kFalse, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  bool escaped = false;       // the string (kString) has escapes
  bool key_escaped = false;   // the member key has escapes
  int32_t first_child = -1;   // arrays and objects
  int32_t next_sibling = -1;
  std::string_view text;      // numbers: as written; strings: between the quotes; arrays/objects: all of it
  std::string_view key;       // object members: the key between its quotes
};

// A parsed JSON document. Nodes are reused between documents; they point into the text
// passed to Parse, which must outlive them.
class JsonDocument {
 public:
  // Parses `text` as one JSON value; false with *error set (naming the offset) when it is not.
  // With `interrupted`, asks it every `interval` values and stops when it says yes: false,
  // *error "interrupted" and *was_interrupted set.
  bool Parse(std::string_view text, std::string* error, const std::function<bool()>* interrupted = nullptr,
             unsigned interval = 4096, bool* was_interrupted = nullptr);
  const JsonNode& node(int32_t index) const { return nodes_[static_cast<size_t>(index)]; }
  const JsonNode& root() const { return nodes_[0]; }

 private:
  bool Fail(const char* what);
  void SkipSpace();
  bool Literal(std::string_view word);
  // Reads a string whose opening quote is at pos_; sets *content and *escaped.
  bool String(std::string_view* content, bool* escaped);
  bool Number();
  // Parses the value at pos_ into a new node; returns its index or -1.
  int32_t ParseValue(int depth);

  std::string_view text_;
  size_t pos_ = 0;
  std::vector<JsonNode> nodes_;
  std::string* error_ = nullptr;
  const std::function<bool()>* interrupted_ = nullptr;
  unsigned interval_ = 4096;
  bool* was_interrupted_ = nullptr;
};

// The content of a JSON string (between its quotes, already validated by the parser) with
// its escapes resolved into *out. Unpaired surrogates become U+FFFD.
void UnescapeJsonString(std::string_view content, std::string* out);

}  // namespace parquet

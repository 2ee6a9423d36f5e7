// The JSON parser of json_document.h.
#include "format/values/json_document.h"

#include <cstring>

#include "format/values/text.h"

namespace parquet {

bool JsonDocument::Parse(std::string_view text, std::string* error, const std::function<bool()>* interrupted,
                         unsigned interval, bool* was_interrupted) {
  text_ = text;
  pos_ = 0;
  nodes_.clear();
  error_ = error;
  interrupted_ = interrupted;
  interval_ = interval == 0 ? 1 : interval;
  was_interrupted_ = was_interrupted;
  if (was_interrupted_ != nullptr) *was_interrupted_ = false;
  SkipSpace();
  if (ParseValue(0) < 0) return false;
  SkipSpace();
  if (pos_ != text_.size()) return Fail("unexpected text after the JSON value");
  return true;
}

bool JsonDocument::Fail(const char* what) {
  *error_ = std::string("malformed JSON (") + what + " at offset " + std::to_string(pos_) + ")";
  return false;
}

void JsonDocument::SkipSpace() {
  while (pos_ < text_.size() &&
         (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r')) {
    ++pos_;
  }
}

bool JsonDocument::Literal(std::string_view word) {
  if (text_.substr(pos_, word.size()) != word) return Fail("unknown literal");
  pos_ += word.size();
  return true;
}

// Reads a string whose opening quote is at pos_; sets *content and *escaped.
bool JsonDocument::String(std::string_view* content, bool* escaped) {
  const size_t start = ++pos_;
  *escaped = false;
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    if (c == '"') {
      *content = text_.substr(start, pos_ - start);
      ++pos_;
      return true;
    }
    if (static_cast<unsigned char>(c) < 0x20) return Fail("control character in string");
    if (c == '\\') {
      *escaped = true;
      if (pos_ + 1 >= text_.size()) break;
      const char e = text_[pos_ + 1];
      if (e == 'u') {
        for (size_t i = 2; i < 6; ++i) {
          if (pos_ + i >= text_.size() || HexDigit(text_[pos_ + i]) < 0) return Fail("bad \\u escape");
        }
        pos_ += 6;
        continue;
      }
      if (std::strchr("\"\\/bfnrt", e) == nullptr || e == '\0') return Fail("bad escape");
      pos_ += 2;
      continue;
    }
    ++pos_;
  }
  return Fail("unterminated string");
}

bool JsonDocument::Number() {
  const size_t start = pos_;
  if (pos_ < text_.size() && text_[pos_] == '-') ++pos_;
  auto digits = [&] {
    const size_t from = pos_;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
    return pos_ - from;
  };
  const size_t integer_start = pos_;
  const size_t integer_digits = digits();
  if (integer_digits == 0 || (integer_digits > 1 && text_[integer_start] == '0')) return Fail("bad number");
  if (pos_ < text_.size() && text_[pos_] == '.') {
    ++pos_;
    if (digits() == 0) return Fail("bad number");
  }
  if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
    ++pos_;
    if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
    if (digits() == 0) return Fail("bad number");
  }
  nodes_.back().text = text_.substr(start, pos_ - start);
  return true;
}

// Parses the value at pos_ into a new node; returns its index or -1.
int32_t JsonDocument::ParseValue(int depth) {
  if (depth > kMaxJsonDocumentDepth) {
    Fail("nested too deeply");
    return -1;
  }
  if (pos_ >= text_.size()) {
    Fail("unexpected end");
    return -1;
  }
  const int32_t index = static_cast<int32_t>(nodes_.size());
  if (interrupted_ != nullptr && static_cast<size_t>(index) % interval_ == interval_ - 1 && (*interrupted_)()) {
    *error_ = "interrupted";
    if (was_interrupted_ != nullptr) *was_interrupted_ = true;
    return -1;
  }
  nodes_.emplace_back();
  const size_t start = pos_;
  const char c = text_[pos_];
  bool ok = true;
  if (c == '{' || c == '[') {
    const bool object = c == '{';
    nodes_[static_cast<size_t>(index)].kind = object ? JsonNode::Kind::kObject : JsonNode::Kind::kArray;
    ++pos_;
    SkipSpace();
    int32_t previous = -1;
    const char close = object ? '}' : ']';
    if (pos_ < text_.size() && text_[pos_] == close) {
      ++pos_;
    } else {
      for (;;) {
        std::string_view key;
        bool key_escaped = false;
        if (object) {
          if (pos_ >= text_.size() || text_[pos_] != '"') {
            Fail("expected a key");
            return -1;
          }
          if (!String(&key, &key_escaped)) return -1;
          SkipSpace();
          if (pos_ >= text_.size() || text_[pos_] != ':') {
            Fail("expected ':'");
            return -1;
          }
          ++pos_;
          SkipSpace();
        }
        const int32_t child = ParseValue(depth + 1);
        if (child < 0) return -1;
        nodes_[static_cast<size_t>(child)].key = key;
        nodes_[static_cast<size_t>(child)].key_escaped = key_escaped;
        if (previous < 0) {
          nodes_[static_cast<size_t>(index)].first_child = child;
        } else {
          nodes_[static_cast<size_t>(previous)].next_sibling = child;
        }
        previous = child;
        SkipSpace();
        if (pos_ < text_.size() && text_[pos_] == ',') {
          ++pos_;
          SkipSpace();
          continue;
        }
        if (pos_ < text_.size() && text_[pos_] == close) {
          ++pos_;
          break;
        }
        Fail(object ? "expected ',' or '}'" : "expected ',' or ']'");
        return -1;
      }
    }
    nodes_[static_cast<size_t>(index)].text = text_.substr(start, pos_ - start);
  } else if (c == '"') {
    nodes_[static_cast<size_t>(index)].kind = JsonNode::Kind::kString;
    std::string_view content;
    bool escaped = false;
    ok = String(&content, &escaped);
    nodes_[static_cast<size_t>(index)].text = content;
    nodes_[static_cast<size_t>(index)].escaped = escaped;
  } else if (c == 't') {
    nodes_[static_cast<size_t>(index)].kind = JsonNode::Kind::kTrue;
    ok = Literal("true");
  } else if (c == 'f') {
    nodes_[static_cast<size_t>(index)].kind = JsonNode::Kind::kFalse;
    ok = Literal("false");
  } else if (c == 'n') {
    nodes_[static_cast<size_t>(index)].kind = JsonNode::Kind::kNull;
    ok = Literal("null");
  } else if (c == '-' || (c >= '0' && c <= '9')) {
    nodes_[static_cast<size_t>(index)].kind = JsonNode::Kind::kNumber;
    ok = Number();
  } else {
    Fail("unexpected character");
    return -1;
  }
  return ok ? index : -1;
}

void UnescapeJsonString(std::string_view content, std::string* out) {
  out->clear();
  for (size_t i = 0; i < content.size(); ++i) {
    const char c = content[i];
    if (c != '\\') {
      *out += c;
      continue;
    }
    const char e = content[++i];
    switch (e) {
      case 'b': *out += '\b'; break;
      case 'f': *out += '\f'; break;
      case 'n': *out += '\n'; break;
      case 'r': *out += '\r'; break;
      case 't': *out += '\t'; break;
      case 'u': {
        auto read4 = [&](size_t at) {
          uint32_t value = 0;
          for (size_t k = 0; k < 4; ++k) value = value * 16 + static_cast<uint32_t>(HexDigit(content[at + k]));
          return value;
        };
        uint32_t code = read4(i + 1);
        i += 4;
        if (code >= 0xD800 && code <= 0xDBFF && i + 6 < content.size() && content[i + 1] == '\\' &&
            content[i + 2] == 'u') {
          const uint32_t low = read4(i + 3);
          if (low >= 0xDC00 && low <= 0xDFFF) {
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
            i += 6;
          } else {
            code = 0xFFFD;
          }
        } else if (code >= 0xD800 && code <= 0xDFFF) {
          code = 0xFFFD;
        }
        AppendUtf8(code, out);
        break;
      }
      default: *out += e; break;  // \" \\ \/
    }
  }
}

}  // namespace parquet

// The key=value argument parser of the parquet virtual table and parquet_copy; see
// options.h for the accepted syntax.
#include "ext/common/options.h"

#include <cctype>
#include <charconv>
#include <limits>
#include <system_error>
#include <utility>

namespace sqlite_parquet {

namespace {

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

std::string_view TrimOptionText(std::string_view text) {
  while (!text.empty() && IsSpace(text.front())) text.remove_prefix(1);
  while (!text.empty() && IsSpace(text.back())) text.remove_suffix(1);
  return text;
}

char ToLowerAscii(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

std::string ToLowerAscii(std::string_view text) {
  std::string result(text);
  for (char& c : result) c = ToLowerAscii(c);
  return result;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (ToLowerAscii(a[i]) != ToLowerAscii(b[i])) return false;
  }
  return true;
}

bool IsIdentifierQuote(char c) { return c == '\'' || c == '"' || c == '`' || c == '['; }
bool IsValueQuote(char c) { return c == '\'' || c == '"'; }

// Finds the quote that closes the one at text[open]; '[' closes with ']' and has no
// escape, the other quotes close with themselves and a doubled quote stands for itself.
bool FindClosingQuote(std::string_view text, size_t open, size_t* close) {
  const char closer = text[open] == '[' ? ']' : text[open];
  const bool doubling_escapes = text[open] != '[';
  for (size_t i = open + 1; i < text.size(); ++i) {
    if (text[i] != closer) continue;
    if (doubling_escapes && i + 1 < text.size() && text[i + 1] == closer) {
      ++i;
      continue;
    }
    *close = i;
    return true;
  }
  return false;
}

// The text between text[open] and text[close] with doubled quotes collapsed.
parquet::SecretString Unquote(std::string_view text, size_t open, size_t close) {
  const char closer = text[close];
  const bool doubling_escapes = text[open] != '[';
  parquet::SecretString result;
  result.reserve(close - open - 1);
  for (size_t i = open + 1; i < close; ++i) {
    result.push_back(text[i]);
    if (doubling_escapes && text[i] == closer) ++i;  // skip the second of a doubled quote
  }
  return result;
}

// A syntax error of one argument. The argument's text is not quoted: it may hold a key.
std::string Describe(std::string_view problem) { return std::string(problem) + " in parquet option"; }

// Position of the '=' that separates key and value, skipping quoted key segments; npos
// when there is none.
bool FindKeyValueSeparator(std::string_view argument, size_t* separator, std::string* error) {
  bool at_segment_start = true;
  size_t position = 0;
  while (position < argument.size()) {
    const char c = argument[position];
    if (at_segment_start && IsSpace(c)) {
      ++position;
      continue;
    }
    if (at_segment_start && IsIdentifierQuote(c)) {
      size_t close = 0;
      if (!FindClosingQuote(argument, position, &close)) {
        *error = Describe("unterminated quote");
        return false;
      }
      position = close + 1;
      at_segment_start = false;
      continue;
    }
    if (c == '=') {
      *separator = position;
      return true;
    }
    at_segment_start = c == '.';
    ++position;
  }
  *separator = std::string_view::npos;
  return true;
}

bool ParseValueText(std::string_view text, parquet::SecretString* value, std::string* error) {
  if (text.empty() || !IsValueQuote(text.front())) {
    value->assign(text);
    return true;
  }
  size_t close = 0;
  if (!FindClosingQuote(text, 0, &close)) {
    *error = Describe("unterminated quote");
    return false;
  }
  if (close + 1 != text.size()) {
    *error = Describe("unexpected text after quoted value");
    return false;
  }
  *value = Unquote(text, 0, close);
  return true;
}

// Splits a key into its '.'-separated segments, unquoting quoted ones.
bool ParseKeySegments(std::string_view key, std::vector<std::string>* segments, std::string* error) {
  size_t position = 0;
  for (;;) {
    while (position < key.size() && IsSpace(key[position])) ++position;
    std::string segment;
    if (position < key.size() && IsIdentifierQuote(key[position])) {
      size_t close = 0;
      if (!FindClosingQuote(key, position, &close)) {
        *error = Describe("unterminated quote");
        return false;
      }
      segment = Unquote(key, position, close).view();
      position = close + 1;
      while (position < key.size() && IsSpace(key[position])) ++position;
    } else {
      const size_t start = position;
      while (position < key.size() && key[position] != '.') ++position;
      segment = std::string(TrimOptionText(key.substr(start, position - start)));
    }
    if (segment.empty()) {
      *error = Describe("malformed option name");
      return false;
    }
    segments->push_back(std::move(segment));
    if (position == key.size()) return true;
    if (key[position] != '.') {
      *error = Describe("malformed option name");
      return false;
    }
    ++position;
  }
}

std::string DescribeExpectation(OptionKind kind, int64_t min_value, int64_t max_value,
                                const std::vector<std::string>& words) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  switch (kind) {
    case OptionKind::STRING:
      return "a string";
    case OptionKind::BOOLEAN:
      return "a boolean";
    case OptionKind::INTEGER:
      if (min_value == kMin && max_value == kMax) return "an integer";
      if (max_value == kMax) return "an integer of at least " + std::to_string(min_value);
      if (min_value == kMin) return "an integer of at most " + std::to_string(max_value);
      return "an integer from " + std::to_string(min_value) + " to " + std::to_string(max_value);
    case OptionKind::ENUM: {
      std::string text = "one of: ";
      for (size_t i = 0; i < words.size(); ++i) {
        if (i > 0) text += ", ";
        text += words[i];
      }
      return text;
    }
  }
  return "a value";
}

bool ParseBoolean(std::string_view text, bool* value) {
  static constexpr std::string_view kTrue[] = {"1", "true", "on", "yes"};
  static constexpr std::string_view kFalse[] = {"0", "false", "off", "no"};
  for (std::string_view word : kTrue) {
    if (EqualsIgnoreCase(text, word)) {
      *value = true;
      return true;
    }
  }
  for (std::string_view word : kFalse) {
    if (EqualsIgnoreCase(text, word)) {
      *value = false;
      return true;
    }
  }
  return false;
}

bool ParseInteger(std::string_view text, int64_t* value) {
  if (!text.empty() && text.front() == '+') {
    text.remove_prefix(1);
    if (!text.empty() && text.front() == '-') return false;
  }
  if (text.empty()) return false;
  const std::from_chars_result result = std::from_chars(text.data(), text.data() + text.size(), *value);
  return result.ec == std::errc() && result.ptr == text.data() + text.size();
}

bool SameKey(const OptionValue& a, const OptionValue& b) {
  return a.prefix == b.prefix && a.suffix.empty() == b.suffix.empty() &&
         EqualsIgnoreCase(a.suffix, b.suffix);
}

}  // namespace

bool SplitOptionArgument(std::string_view argument, OptionArgument* out, std::string* error) {
  const std::string_view trimmed = TrimOptionText(argument);
  *out = OptionArgument();
  size_t separator = 0;
  if (!FindKeyValueSeparator(trimmed, &separator, error)) return false;
  if (separator == std::string_view::npos) {
    out->positional = true;
    return ParseValueText(trimmed, &out->value, error);
  }
  const std::string_view key_text = TrimOptionText(trimmed.substr(0, separator));
  if (key_text.empty()) {
    *error = Describe("missing option name");
    return false;
  }
  std::vector<std::string> segments;
  if (!ParseKeySegments(key_text, &segments, error)) return false;

  std::string head = std::move(segments[0]);
  std::string tail;
  if (segments.size() == 1) {
    // A whole quoted key may still name a prefixed option: "compression.Unit Price".
    const size_t dot = head.find('.');
    if (dot != std::string::npos) {
      out->has_suffix = true;
      tail = head.substr(dot + 1);
      head.resize(dot);
    }
  } else {
    out->has_suffix = true;
    for (size_t i = 1; i < segments.size(); ++i) {
      if (i > 1) tail += '.';
      tail += segments[i];
    }
  }
  if (head.empty() || (out->has_suffix && tail.empty())) {
    *error = Describe("malformed option name");
    return false;
  }
  out->prefix = ToLowerAscii(head);
  out->suffix = std::move(tail);
  out->key = out->has_suffix ? out->prefix + "." + out->suffix : out->prefix;
  return ParseValueText(TrimOptionText(trimmed.substr(separator + 1)), &out->value, error);
}

// ---- ParsedOptions ----

const OptionValue* ParsedOptions::Find(std::string_view key) const {
  for (const OptionValue& value : values_) {
    if (value.key == key) return &value;
  }
  return nullptr;
}

std::string_view ParsedOptions::GetString(std::string_view key, std::string_view fallback) const {
  const OptionValue* value = Find(key);
  return value != nullptr ? std::string_view(value->text) : fallback;
}

bool ParsedOptions::GetBool(std::string_view key, bool fallback) const {
  const OptionValue* value = Find(key);
  return value != nullptr ? value->boolean : fallback;
}

int64_t ParsedOptions::GetInteger(std::string_view key, int64_t fallback) const {
  const OptionValue* value = Find(key);
  return value != nullptr ? value->integer : fallback;
}

int ParsedOptions::GetEnumIndex(std::string_view key, int fallback) const {
  const OptionValue* value = Find(key);
  return value != nullptr ? static_cast<int>(value->integer) : fallback;
}

std::vector<const OptionValue*> ParsedOptions::WithPrefix(std::string_view prefix) const {
  std::vector<const OptionValue*> result;
  for (const OptionValue& value : values_) {
    if (!value.suffix.empty() && value.prefix == prefix) result.push_back(&value);
  }
  return result;
}

// ---- OptionSet ----

OptionSet& OptionSet::Add(Declaration declaration, std::string_view name) {
  constexpr std::string_view kFamilyMarker = ".*";
  if (name.size() > kFamilyMarker.size() && name.substr(name.size() - kFamilyMarker.size()) == kFamilyMarker) {
    declaration.prefixed = true;
    name.remove_suffix(kFamilyMarker.size());
  }
  declaration.name = ToLowerAscii(name);
  if (Lookup(declaration.name, declaration.prefixed) == nullptr) {
    declarations_.push_back(std::move(declaration));
  }
  return *this;
}

OptionSet& OptionSet::AddString(std::string_view name) {
  Declaration declaration;
  declaration.kind = OptionKind::STRING;
  return Add(std::move(declaration), name);
}

OptionSet& OptionSet::AddSecret(std::string_view name) {
  Declaration declaration;
  declaration.kind = OptionKind::STRING;
  declaration.secret = true;
  return Add(std::move(declaration), name);
}

OptionSet& OptionSet::AddBoolean(std::string_view name) {
  Declaration declaration;
  declaration.kind = OptionKind::BOOLEAN;
  return Add(std::move(declaration), name);
}

OptionSet& OptionSet::AddInteger(std::string_view name, int64_t min_value, int64_t max_value) {
  Declaration declaration;
  declaration.kind = OptionKind::INTEGER;
  declaration.min_value = min_value;
  declaration.max_value = max_value;
  return Add(std::move(declaration), name);
}

OptionSet& OptionSet::AddEnum(std::string_view name, std::vector<std::string> words) {
  Declaration declaration;
  declaration.kind = OptionKind::ENUM;
  declaration.words = std::move(words);
  return Add(std::move(declaration), name);
}

OptionSet& OptionSet::SetPositional(std::string_view name) {
  positional_name_ = ToLowerAscii(name);
  if (Lookup(positional_name_, false) == nullptr) AddString(positional_name_);
  return *this;
}

const OptionSet::Declaration* OptionSet::Lookup(std::string_view name, bool prefixed) const {
  for (const Declaration& declaration : declarations_) {
    if (declaration.prefixed == prefixed && declaration.name == name) return &declaration;
  }
  return nullptr;
}

bool OptionSet::ConvertValue(const Declaration& declaration, OptionValue* value,
                             std::string* error) const {
  value->kind = declaration.kind;
  value->secret = declaration.secret;
  bool valid = true;
  switch (declaration.kind) {
    case OptionKind::STRING:
      break;
    case OptionKind::BOOLEAN:
      valid = ParseBoolean(value->text, &value->boolean);
      break;
    case OptionKind::INTEGER:
      valid = ParseInteger(value->text, &value->integer) && value->integer >= declaration.min_value &&
              value->integer <= declaration.max_value;
      break;
    case OptionKind::ENUM:
      valid = false;
      for (size_t i = 0; i < declaration.words.size(); ++i) {
        if (EqualsIgnoreCase(value->text, declaration.words[i])) {
          value->integer = static_cast<int64_t>(i);
          valid = true;
          break;
        }
      }
      break;
  }
  if (!valid) {
    *error = "invalid value for " + value->key + ": '" + std::string(value->text.view()) + "' (expected " +
             DescribeExpectation(declaration.kind, declaration.min_value, declaration.max_value,
                                 declaration.words) +
             ")";
  }
  return valid;
}

bool OptionSet::Parse(std::span<const std::string_view> arguments, ParsedOptions* out,
                      std::string* error) const {
  out->values_.clear();
  for (size_t index = 0; index < arguments.size(); ++index) {
    OptionArgument argument;
    if (!SplitOptionArgument(arguments[index], &argument, error)) {
      // "... in parquet option" becomes "... in parquet option 2 (footer_key)".
      *error = error->substr(0, error->size() - std::string_view("parquet option").size()) + Locate(index, argument.key);
      return false;
    }
    OptionValue value;
    const Declaration* declaration = nullptr;
    if (argument.positional) {
      const Declaration* named = nullptr;
      const std::string hint = PositionalHint(argument.value, &named);
      // A first argument that starts like a key option is a misquoted key, not a file name.
      if (index != 0 || positional_name_.empty() || (named != nullptr && named->secret)) {
        *error = Locate(index, "") + " is not key=value" + (hint.empty() ? "" : " (" + hint + ")");
        return false;
      }
      declaration = Lookup(positional_name_, false);
      value.key = positional_name_;
      value.prefix = positional_name_;
      value.positional = true;
    } else {
      declaration = Lookup(argument.prefix, argument.has_suffix);
      if (declaration == nullptr) {
        *error = "unknown parquet option: " + argument.key;
        return false;
      }
      value.key = std::move(argument.key);
      value.prefix = std::move(argument.prefix);
      value.suffix = std::move(argument.suffix);
    }
    for (const OptionValue& earlier : out->values_) {
      if (SameKey(earlier, value)) {
        *error = "duplicate parquet option: " + value.key;
        return false;
      }
    }
    value.text = std::move(argument.value);
    if (!ConvertValue(*declaration, &value, error)) return false;
    out->values_.push_back(std::move(value));
  }
  return true;
}

std::string OptionSet::Locate(size_t index, std::string_view key) const {
  std::string where = "parquet option " + std::to_string(index + 1);
  const size_t dot = key.find('.');
  if (!key.empty() && Lookup(key.substr(0, dot), dot != std::string_view::npos) != nullptr) {
    where += " (" + std::string(key) + ")";
  }
  return where;
}

std::string OptionSet::PositionalHint(std::string_view value, const Declaration** named) const {
  *named = nullptr;
  value = TrimOptionText(value);
  size_t end = 0;
  while (end < value.size() && (std::isalnum(static_cast<unsigned char>(value[end])) || value[end] == '_')) ++end;
  const std::string name = ToLowerAscii(value.substr(0, end));
  const Declaration* declaration = name.empty() ? nullptr : Lookup(name, false);
  if (declaration == nullptr || name == positional_name_) return "";
  const std::string_view rest = TrimOptionText(value.substr(end));
  // A key option written whole in quotes ('footer_key=...') or without its '='.
  const bool quoted_whole = !rest.empty() && rest.front() == '=';
  if (!quoted_whole && !rest.empty() && !IsSpace(value[end])) return "";
  *named = declaration;
  return "it starts with " + name + ": write " + name + "=value" +
         (quoted_whole ? ", quoting only the value" : "");
}

bool OptionSet::Parse(int argc, const char* const* argv, ParsedOptions* out,
                      std::string* error) const {
  std::vector<std::string_view> arguments;
  arguments.reserve(argc > 0 ? static_cast<size_t>(argc) : 0);
  for (int i = 0; i < argc; ++i) arguments.emplace_back(argv[i]);
  return Parse(arguments, out, error);
}

}  // namespace sqlite_parquet

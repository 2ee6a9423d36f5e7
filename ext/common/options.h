// Parser for the key=value arguments of the parquet virtual table
// (CREATE VIRTUAL TABLE t USING parquet('file.parquet', key=value, ...)) and of
// parquet_copy('key=value', ...). Pure C++: no sqlite3.h, errors are returned as
// lowercase messages, nothing is thrown.
//
// Argument syntax (each argument is one string, as SQLite hands them to xCreate):
//   - `key = value`; whitespace around the key, the '=' and the value is ignored.
//   - Values may be bare (`binary_as_string=1`, `path=a b.parquet` keeps its inner space)
//     or quoted with '...' or "..." where a doubled quote stands for itself
//     (`key="it""s"` is it"s). An empty value (`key=` or `key=''`) is the empty string.
//   - Keys may be bare or quoted like SQLite identifiers: '...', "...", `...` (doubled
//     quote escapes) or [...]. Keys are case-insensitive and normalised to lowercase.
//   - Prefixed keys such as `compression.<column>` name a per-column option. The part
//     after the first '.' may itself be quoted (`compression."Unit Price"`), or the
//     whole key may be quoted (`"compression.Unit Price"`). Only the prefix is
//     lowercased; the suffix keeps its case (duplicates are still detected ignoring
//     ASCII case, as SQLite column names are case-insensitive).
//   - The first argument may be a bare or quoted value without '=' (the positional
//     argument, usually the file name); it is stored under the key declared with
//     SetPositional and conflicts with an explicit `key=` for that name.
//
// Secrets: an error message never quotes an argument's text, only the option's name (when
// it is a declared one) and its position ("parquet option 3", counting from 1), since an
// argument that does not parse may hold a key. Values of options declared with AddSecret
// (keys) are never quoted at all. Every value is held in a parquet::SecretString, wiped
// when freed.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "format/crypto/secret.h"

namespace sqlite_parquet {

// `name` as a quoted SQL identifier ("a""b" for a"b), the form the key parser and SQLite
// both read back: for column names in a declared schema and in generated SQL.
inline std::string QuoteIdentifier(std::string_view name) {
  std::string quoted = "\"";
  for (char c : name) {
    quoted += c;
    if (c == '"') quoted += '"';
  }
  return quoted + "\"";
}

// One argument split into its parts, quotes removed.
struct OptionArgument {
  bool positional = false;  // no '=': `value` is the whole argument
  std::string key;          // normalised: lowercase prefix, then "." + suffix if any
  std::string prefix;       // the lowercased part before the first '.' (the key if no '.')
  std::string suffix;       // the part after the first '.', verbatim
  bool has_suffix = false;
  parquet::SecretString value;
};

// Splits and unquotes one argument. On a syntax error (unterminated quote, text after a
// closing quote, empty or malformed key) returns false and sets *error, e.g.
// "unterminated quote in parquet option" (the argument's text is never quoted); out->key
// is set when the key was read before the error.
bool SplitOptionArgument(std::string_view argument, OptionArgument* out, std::string* error);

enum class OptionKind {
  STRING,
  BOOLEAN,  // 1/0, true/false, on/off, yes/no (any case)
  INTEGER,  // decimal integer within a declared range
  ENUM,     // one of a declared list of words (any case)
};

// One accepted option.
struct OptionValue {
  std::string key;     // normalised key, e.g. "binary_as_string" or "compression.Price"
  std::string prefix;  // for prefixed keys: "compression"; otherwise same as key
  std::string suffix;  // for prefixed keys: "Price"; otherwise empty
  bool positional = false;
  OptionKind kind = OptionKind::STRING;
  bool secret = false;   // declared with AddSecret
  parquet::SecretString text;  // the value as written, quotes removed
  bool boolean = false;  // BOOLEAN: the value
  int64_t integer = 0;   // INTEGER: the value; ENUM: index of the word in the declaration
};

// The result of OptionSet::Parse, in argument order.
class ParsedOptions {
 public:
  const std::vector<OptionValue>& values() const { return values_; }

  // Lookup by normalised key (pass plain keys in lowercase); null when absent.
  const OptionValue* Find(std::string_view key) const;
  bool Has(std::string_view key) const { return Find(key) != nullptr; }

  // Typed lookups that fall back when the option was not given. The string_view points
  // into this object.
  std::string_view GetString(std::string_view key, std::string_view fallback) const;
  bool GetBool(std::string_view key, bool fallback) const;
  int64_t GetInteger(std::string_view key, int64_t fallback) const;
  int GetEnumIndex(std::string_view key, int fallback) const;

  // All options of a prefixed family (prefix without the '.'), in argument order.
  std::vector<const OptionValue*> WithPrefix(std::string_view prefix) const;

 private:
  friend class OptionSet;
  std::vector<OptionValue> values_;
};

// The declared options of one caller, and the parser that checks arguments against them.
class OptionSet {
 public:
  // `name` is a plain key ("binary_as_string") or a prefixed family written with a
  // trailing ".*" ("compression.*" accepts "compression.<anything>"). Names are
  // lowercase; declaring a name twice keeps the first declaration.
  OptionSet& AddString(std::string_view name);
  // A string option holding key material: its value never appears in an error.
  OptionSet& AddSecret(std::string_view name);
  OptionSet& AddBoolean(std::string_view name);
  OptionSet& AddInteger(std::string_view name, int64_t min_value, int64_t max_value);
  OptionSet& AddEnum(std::string_view name, std::vector<std::string> words);

  // The plain key the positional first argument is stored under (e.g. "filename").
  // Without it, an argument without '=' is an error.
  OptionSet& SetPositional(std::string_view name);

  // Parses the arguments in order. Returns false with a message such as
  // "unknown parquet option: foo", "duplicate parquet option: foo",
  // "invalid value for binary_as_string: 'maybe' (expected a boolean)",
  // "unterminated quote in parquet option 2 (footer_key)" or "parquet option 2 is not
  // key=value (it starts with footer_key: ...)"; *out is then unspecified.
  bool Parse(std::span<const std::string_view> arguments, ParsedOptions* out,
             std::string* error) const;
  // The same for argv-style C strings, e.g. xCreate's argv + 3, argc - 3.
  bool Parse(int argc, const char* const* argv, ParsedOptions* out, std::string* error) const;

 private:
  struct Declaration {
    std::string name;  // without ".*" for prefixed families
    bool prefixed = false;
    OptionKind kind = OptionKind::STRING;
    bool secret = false;
    int64_t min_value = 0;
    int64_t max_value = 0;
    std::vector<std::string> words;
  };

  OptionSet& Add(Declaration declaration, std::string_view name);
  const Declaration* Lookup(std::string_view name, bool prefixed) const;
  bool ConvertValue(const Declaration& declaration, OptionValue* value, std::string* error) const;
  // Where argument `index` failed: "parquet option 3", with " (name)" for a declared name.
  std::string Locate(size_t index, std::string_view key) const;
  // For an argument without '=': a hint when it starts with a declared option's name
  // followed by a space or '=' (*named: that declaration, else null).
  std::string PositionalHint(std::string_view value, const Declaration** named) const;

  std::vector<Declaration> declarations_;
  std::string positional_name_;
};

}  // namespace sqlite_parquet

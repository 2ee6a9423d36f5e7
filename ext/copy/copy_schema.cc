// Column types of parquet_copy: the schema= syntax, declared-type and storage-class
// mapping, and the Parquet SchemaElements of a field (see copy_schema.h).
#include "ext/copy/copy_schema.h"

#include <algorithm>
#include <charconv>
#include <system_error>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "format/metadata/schema.h"

namespace sqlite_parquet {

namespace {

using parquet::ConvertedType;
using parquet::FieldRepetitionType;
using parquet::LogicalType;
using parquet::SchemaElement;
using parquet::TimeUnit;
using parquet::Type;

constexpr int kMaxNesting = 32;
// The most names (columns and fields at every level) one schema= or shredding= option
// holds: parsing stays well under a millisecond, and the writer's leaves stay bounded.
constexpr int kMaxOptionFields = 10000;
// Error messages quote at most this much of the option's remaining text.
constexpr size_t kMaxQuotedText = 80;
constexpr int32_t kMaxFixedLength = 65536;
constexpr int32_t kMaxDecimalPrecision = 76;

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
bool IsWordChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}
char Upper(char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c; }

std::string UpperCase(std::string_view text) {
  std::string result(text);
  for (char& c : result) c = Upper(c);
  return result;
}

std::string_view TrimSchemaText(std::string_view text) {
  while (!text.empty() && IsSpace(text.front())) text.remove_prefix(1);
  while (!text.empty() && IsSpace(text.back())) text.remove_suffix(1);
  return text;
}

// A small tokenizer over the schema text: words, quoted names, single punctuation.
class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  void SkipSpace() {
    while (pos_ < text_.size() && IsSpace(text_[pos_])) ++pos_;
  }
  bool AtEnd() {
    SkipSpace();
    return pos_ >= text_.size();
  }
  char Peek() {
    SkipSpace();
    return pos_ < text_.size() ? text_[pos_] : '\0';
  }
  bool Accept(char c) {
    if (Peek() != c) return false;
    ++pos_;
    return true;
  }
  // A bare word ([A-Za-z0-9_] and non-ASCII bytes); empty when there is none.
  std::string_view Word() {
    SkipSpace();
    const size_t start = pos_;
    while (pos_ < text_.size() && IsWordChar(text_[pos_])) ++pos_;
    return text_.substr(start, pos_ - start);
  }
  // A name: a bare word or a quoted identifier ("...", `...`, [...]); false with *error on an
  // unterminated quote, or when there is no name.
  bool Name(std::string* out, std::string* error) {
    SkipSpace();
    if (pos_ < text_.size() && (text_[pos_] == '"' || text_[pos_] == '`' || text_[pos_] == '[' || text_[pos_] == '\'')) {
      const char open = text_[pos_];
      const char close = open == '[' ? ']' : open;
      std::string name;
      size_t i = pos_ + 1;
      for (;; ++i) {
        if (i >= text_.size()) {
          *error = "unterminated quote in name: " + std::string(text_.substr(pos_));
          return false;
        }
        if (text_[i] == close) {
          if (open != '[' && i + 1 < text_.size() && text_[i + 1] == close) {
            name += close;
            ++i;
            continue;
          }
          break;
        }
        name += text_[i];
      }
      pos_ = i + 1;
      if (name.empty()) {
        *error = "empty column name";
        return false;
      }
      *out = std::move(name);
      return true;
    }
    const std::string_view word = Word();
    if (word.empty()) {
      *error = "expected a column name at: " + Rest();
      return false;
    }
    *out = std::string(word);
    return true;
  }
  bool Integer(int64_t* value) {
    SkipSpace();
    const size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
    if (pos_ == start || pos_ - start > 9) return false;
    std::from_chars(text_.data() + start, text_.data() + pos_, *value);
    return true;
  }
  // The text left, for messages: at most kMaxQuotedText bytes of it (cut at a character
  // boundary), so that an error on a long option stays short.
  std::string Rest() {
    SkipSpace();
    if (pos_ >= text_.size()) return "end of text";
    std::string_view rest = text_.substr(pos_);
    if (rest.size() <= kMaxQuotedText) return std::string(rest);
    size_t cut = kMaxQuotedText;
    while (cut > 0 && (static_cast<unsigned char>(rest[cut]) & 0xC0) == 0x80) --cut;
    return std::string(rest.substr(0, cut)) + "...";
  }
  // Counts one more name of the option; false with *error past kMaxOptionFields.
  bool CountField(std::string* error) {
    if (++fields_ <= kMaxOptionFields) return true;
    *error = "more than " + std::to_string(kMaxOptionFields) + " names (columns and fields) in one option";
    return false;
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
  int fields_ = 0;
};

// A name in ASCII upper case: the key under which SameName's equal names collide.
std::string NameKey(std::string_view name) { return UpperCase(name); }

bool ParseUnit(std::string_view word, TimeUnit* unit) {
  const std::string upper = UpperCase(word);
  if (upper == "MILLIS" || upper == "MS") {
    *unit = TimeUnit::MILLIS;
  } else if (upper == "MICROS" || upper == "US") {
    *unit = TimeUnit::MICROS;
  } else if (upper == "NANOS" || upper == "NS") {
    *unit = TimeUnit::NANOS;
  } else {
    return false;
  }
  return true;
}

const char* UnitName(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::MILLIS: return "MILLIS";
    case TimeUnit::MICROS: return "MICROS";
    case TimeUnit::NANOS: return "NANOS";
  }
  return "MICROS";
}

struct NamedKind {
  const char* name;
  CopyKind kind;
};

constexpr NamedKind kSimpleKinds[] = {
    {"BOOLEAN", CopyKind::kBoolean}, {"INT8", CopyKind::kInt8},       {"INT16", CopyKind::kInt16},
    {"INT32", CopyKind::kInt32},     {"INT64", CopyKind::kInt64},     {"UINT8", CopyKind::kUInt8},
    {"UINT16", CopyKind::kUInt16},   {"UINT32", CopyKind::kUInt32},   {"UINT64", CopyKind::kUInt64},
    {"FLOAT", CopyKind::kFloat},     {"DOUBLE", CopyKind::kDouble},   {"FLOAT16", CopyKind::kFloat16},
    {"STRING", CopyKind::kString},   {"BINARY", CopyKind::kBinary},   {"UUID", CopyKind::kUuid},
    {"JSON", CopyKind::kJson},       {"ENUM", CopyKind::kEnum},       {"DATE", CopyKind::kDate},
    {"GEOMETRY", CopyKind::kGeometry}, {"GEOGRAPHY", CopyKind::kGeography},
};

bool ParseTypeAt(Lexer& lexer, CopyType* out, std::string* error, int depth);

bool ParseFieldList(Lexer& lexer, char terminator, std::vector<CopyField>* out, std::string* error, int depth) {
  std::unordered_set<std::string> seen;  // NameKey of each earlier name: linear in the list
  for (;;) {
    CopyField field;
    if (!lexer.Name(&field.name, error) || !lexer.CountField(error)) return false;
    if (!seen.insert(NameKey(field.name)).second) {
      *error = "duplicate column name in schema: " + field.name;
      return false;
    }
    if (lexer.AtEnd() || lexer.Peek() == ',' || lexer.Peek() == terminator) {
      *error = "missing type for column " + field.name;
      return false;
    }
    if (!ParseTypeAt(lexer, &field.type, error, depth)) return false;
    out->push_back(std::move(field));
    if (lexer.Accept(',')) continue;
    if (terminator == '\0' ? lexer.AtEnd() : lexer.Accept(terminator)) return true;
    *error = "expected ',' or " + std::string(terminator == '\0' ? "the end" : "'>'") + " at: " + lexer.Rest();
    return false;
  }
}

bool ParseTypeAt(Lexer& lexer, CopyType* out, std::string* error, int depth) {
  if (depth > kMaxNesting) {
    *error = "types nested deeper than " + std::to_string(kMaxNesting) + " levels";
    return false;
  }
  const std::string_view word = lexer.Word();
  if (word.empty()) {
    *error = "expected a type at: " + lexer.Rest();
    return false;
  }
  const std::string name = UpperCase(word);
  *out = CopyType();
  if (name == "VARIANT") {
    if (depth > 0) {
      *error = "VARIANT only as a top-level column";
      return false;
    }
    *out = VariantType();
    return true;
  }
  for (const NamedKind& simple : kSimpleKinds) {
    if (name == simple.name) {
      out->kind = simple.kind;
      return true;
    }
  }
  if (name == "FIXED") {
    int64_t length = 0;
    if (!lexer.Accept('(') || !lexer.Integer(&length) || !lexer.Accept(')')) {
      *error = "expected FIXED(n) at: FIXED" + lexer.Rest();
      return false;
    }
    if (length < 1 || length > kMaxFixedLength) {
      *error = "FIXED length " + std::to_string(length) + " is not between 1 and " + std::to_string(kMaxFixedLength);
      return false;
    }
    out->kind = CopyKind::kFixed;
    out->length = static_cast<int32_t>(length);
    return true;
  }
  if (name == "DECIMAL") {
    int64_t precision = 0, scale = 0;
    if (!lexer.Accept('(') || !lexer.Integer(&precision) ||
        (lexer.Accept(',') && !lexer.Integer(&scale)) || !lexer.Accept(')')) {
      *error = "expected DECIMAL(precision, scale) at: DECIMAL" + lexer.Rest();
      return false;
    }
    if (precision < 1 || precision > kMaxDecimalPrecision) {
      *error = "DECIMAL precision " + std::to_string(precision) + " is not between 1 and " +
               std::to_string(kMaxDecimalPrecision);
      return false;
    }
    if (scale > precision) {
      *error = "DECIMAL scale " + std::to_string(scale) + " is larger than the precision " + std::to_string(precision);
      return false;
    }
    out->kind = CopyKind::kDecimal;
    out->precision = static_cast<int32_t>(precision);
    out->scale = static_cast<int32_t>(scale);
    return true;
  }
  if (name == "TIME" || name == "TIMESTAMP") {
    out->kind = name == "TIME" ? CopyKind::kTime : CopyKind::kTimestamp;
    out->unit = TimeUnit::MICROS;
    if (lexer.Accept('(')) {
      const std::string_view unit = lexer.Word();
      if (!ParseUnit(unit, &out->unit)) {
        *error = "unknown time unit '" + std::string(unit) + "' (expected MILLIS, MICROS or NANOS)";
        return false;
      }
      if (lexer.Accept(',')) {
        const std::string_view flag = lexer.Word();
        if (UpperCase(flag) != "UTC") {
          *error = "expected UTC at: " + std::string(flag) + lexer.Rest();
          return false;
        }
        out->utc = true;
      }
      if (!lexer.Accept(')')) {
        *error = "expected ')' at: " + lexer.Rest();
        return false;
      }
    }
    return true;
  }
  if (name == "LIST" || name == "MAP") {
    const bool is_map = name == "MAP";
    if (!lexer.Accept('<')) {
      *error = "expected '<' after " + name;
      return false;
    }
    CopyField first;
    first.name = is_map ? "key" : "element";
    if (!ParseTypeAt(lexer, &first.type, error, depth + 1)) return false;
    out->kind = is_map ? CopyKind::kMap : CopyKind::kList;
    out->children.push_back(std::move(first));
    if (is_map) {
      if (out->children[0].type.is_nested()) {
        *error = "MAP keys must be of a scalar type, not " + DescribeCopyType(out->children[0].type);
        return false;
      }
      CopyField value;
      value.name = "value";
      if (!lexer.Accept(',') || !ParseTypeAt(lexer, &value.type, error, depth + 1)) {
        if (error->empty()) *error = "expected MAP<key type, value type>";
        return false;
      }
      out->children.push_back(std::move(value));
    }
    if (!lexer.Accept('>')) {
      *error = "expected '>' at: " + lexer.Rest();
      return false;
    }
    return true;
  }
  if (name == "STRUCT") {
    if (!lexer.Accept('<')) {
      *error = "expected '<' after STRUCT";
      return false;
    }
    out->kind = CopyKind::kStruct;
    return ParseFieldList(lexer, '>', &out->children, error, depth + 1);
  }
  *error = "unknown type: " + std::string(word);
  return false;
}

// ---- shredding= ----

struct ShreddingName {
  const char* name;
  parquet::VariantShredding::Kind kind;
};

constexpr ShreddingName kShreddingNames[] = {
    {"BOOLEAN", parquet::VariantShredding::Kind::kBoolean}, {"BOOL", parquet::VariantShredding::Kind::kBoolean},
    {"INT8", parquet::VariantShredding::Kind::kInt8},       {"TINYINT", parquet::VariantShredding::Kind::kInt8},
    {"INT16", parquet::VariantShredding::Kind::kInt16},     {"SMALLINT", parquet::VariantShredding::Kind::kInt16},
    {"INT32", parquet::VariantShredding::Kind::kInt32},     {"INTEGER", parquet::VariantShredding::Kind::kInt32},
    {"INT", parquet::VariantShredding::Kind::kInt32},       {"INT64", parquet::VariantShredding::Kind::kInt64},
    {"BIGINT", parquet::VariantShredding::Kind::kInt64},    {"DOUBLE", parquet::VariantShredding::Kind::kDouble},
    {"STRING", parquet::VariantShredding::Kind::kString},   {"VARCHAR", parquet::VariantShredding::Kind::kString},
};

// Shapes are bounded by the Parquet schema they make, which a file may nest at most
// parquet::kMaxSchemaDepth levels deep: the VARIANT group takes one, each array three
// (typed_value, its repeated list group, the element group), each object two (typed_value
// and the field's group), each scalar one (typed_value).
constexpr int kShapeLevels = parquet::kMaxSchemaDepth - 1;
constexpr int kArrayLevels = 3;
constexpr int kObjectLevels = 2;

// A shape `depth` schema levels below its column's group. *levels: the schema levels it
// takes (above). depth + levels never exceeds kShapeLevels, checked as each level is added
// (the T[] suffixes included), so no shape deeper than that is ever built, and recursion
// stays within kShapeLevels / kObjectLevels calls.
bool ParseShape(Lexer& lexer, parquet::VariantShredding* out, std::string* error, int depth, int* levels);

std::string ShapeTooDeep() {
  return "shapes nested too deeply (their Parquet schema would be deeper than " +
         std::to_string(parquet::kMaxSchemaDepth) + " levels: an array takes " + std::to_string(kArrayLevels) +
         ", an object " + std::to_string(kObjectLevels) + ")";
}

// The fields of an object shape up to `close`: NAME ':' SHAPE (braces) or NAME SHAPE (STRUCT).
bool ParseShapeFields(Lexer& lexer, char close, bool colon, parquet::VariantShredding* out, std::string* error,
                      int depth, int* levels) {
  out->kind = parquet::VariantShredding::Kind::kObject;
  *levels = kObjectLevels + 1;
  std::unordered_map<std::string, std::string> seen;  // NameKey -> the name as written
  do {
    std::string name;
    if (!lexer.Name(&name, error) || !lexer.CountField(error)) return false;
    if (colon && !lexer.Accept(':')) {
      *error = "expected ':' after field " + name + " at: " + lexer.Rest();
      return false;
    }
    const auto [earlier, inserted] = seen.emplace(NameKey(name), name);
    if (!inserted) {
      *error = earlier->second == name ? "field " + name + " is named twice"
                                       : "fields " + earlier->second + " and " + name +
                                             " differ only in case (DuckDB would read them wrongly)";
      return false;
    }
    parquet::VariantShredding field;
    int field_levels = 0;
    if (!ParseShape(lexer, &field, error, depth + kObjectLevels, &field_levels)) return false;
    *levels = std::max(*levels, field_levels + kObjectLevels);
    out->fields.emplace_back(std::move(name), std::move(field));
  } while (lexer.Accept(','));
  if (!lexer.Accept(close)) {
    *error = std::string("expected ',' or '") + close + "' at: " + lexer.Rest();
    return false;
  }
  std::sort(out->fields.begin(), out->fields.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return true;
}

bool ParseShape(Lexer& lexer, parquet::VariantShredding* out, std::string* error, int depth, int* levels) {
  const auto too_deep = [error] {
    *error = ShapeTooDeep();
    return false;
  };
  if (depth + 1 > kShapeLevels) return too_deep();
  *out = parquet::VariantShredding();
  *levels = 1;
  if (lexer.Accept('{')) {
    if (!ParseShapeFields(lexer, '}', true, out, error, depth, levels)) return false;
  } else if (lexer.Accept('[')) {
    out->kind = parquet::VariantShredding::Kind::kArray;
    out->element.emplace_back();
    int element_levels = 0;
    if (!ParseShape(lexer, &out->element[0], error, depth + kArrayLevels, &element_levels)) return false;
    *levels = element_levels + kArrayLevels;
    if (!lexer.Accept(']')) {
      *error = "expected ']' at: " + lexer.Rest();
      return false;
    }
  } else {
    const std::string_view word = lexer.Word();
    const std::string name = UpperCase(word);
    bool known = false;
    if (name == "STRUCT") {
      if (!lexer.Accept('(')) {
        *error = "expected '(' after STRUCT";
        return false;
      }
      if (!ParseShapeFields(lexer, ')', false, out, error, depth, levels)) return false;
      known = true;
    } else if (name == "DECIMAL") {
      int64_t precision = 0, scale = 0;
      if (!lexer.Accept('(') || !lexer.Integer(&precision) || (lexer.Accept(',') && !lexer.Integer(&scale)) ||
          !lexer.Accept(')')) {
        *error = "expected DECIMAL(precision, scale) at: DECIMAL" + lexer.Rest();
        return false;
      }
      if (precision < 1 || precision > parquet::kMaxVariantDecimalPrecision || scale > precision) {
        *error = "DECIMAL(" + std::to_string(precision) + "," + std::to_string(scale) +
                 ") is not a variant decimal (precision 1 to 38, scale at most the precision)";
        return false;
      }
      out->kind = parquet::VariantShredding::Kind::kDecimal;
      out->precision = static_cast<int32_t>(precision);
      out->scale = static_cast<int32_t>(scale);
      known = true;
    }
    for (const ShreddingName& entry : kShreddingNames) {
      if (!known && name == entry.name) {
        out->kind = entry.kind;
        known = true;
      }
    }
    if (!known) {
      *error = word.empty() ? "expected a shredding type at: " + lexer.Rest()
                            : "unknown shredding type: " + std::string(word) +
                                  " (BOOLEAN, INT8..INT64, DOUBLE, DECIMAL(p,s), STRING, {...} or [...])";
      return false;
    }
  }
  while (lexer.Accept('[')) {  // DuckDB's T[]: an array around it, bounded before it is built
    if (!lexer.Accept(']')) {
      *error = "expected ']' at: " + lexer.Rest();
      return false;
    }
    if (depth + *levels + kArrayLevels > kShapeLevels) return too_deep();
    *levels += kArrayLevels;
    parquet::VariantShredding array;
    array.kind = parquet::VariantShredding::Kind::kArray;
    array.element.push_back(std::move(*out));
    *out = std::move(array);
  }
  return true;
}

}  // namespace

bool ParseShreddingOption(std::string_view text, bool* all_auto, std::vector<ShreddingSpec>* out, std::string* error) {
  *all_auto = false;
  out->clear();
  if (UpperCase(TrimSchemaText(text)) == "AUTO") {
    *all_auto = true;
    return true;
  }
  Lexer lexer(text);
  std::unordered_set<std::string> seen;  // NameKey of each earlier column
  do {
    ShreddingSpec spec;
    if (!lexer.Name(&spec.column, error) || !lexer.CountField(error)) return false;
    if (!seen.insert(NameKey(spec.column)).second) {
      *error = "column " + spec.column + " is named twice";
      return false;
    }
    if (!lexer.Accept(':')) {
      *error = "expected ':' after column " + spec.column + " at: " + lexer.Rest();
      return false;
    }
    Lexer saved = lexer;
    if (UpperCase(lexer.Word()) == "AUTO" && (lexer.AtEnd() || lexer.Peek() == ',')) {
      spec.automatic = true;
    } else {
      lexer = saved;
      int levels = 0;
      if (!ParseShape(lexer, &spec.shredding, error, 0, &levels)) {
        *error = "column " + spec.column + ": " + *error;
        return false;
      }
    }
    out->push_back(std::move(spec));
  } while (lexer.Accept(','));
  if (!lexer.AtEnd()) {
    *error = "expected ',' or the end at: " + lexer.Rest();
    return false;
  }
  return true;
}

namespace {

// ---- Declared types ----

std::optional<CopyType> Simple(CopyKind kind) {
  CopyType type;
  type.kind = kind;
  return type;
}

std::optional<CopyType> Temporal(CopyKind kind, TimeUnit unit) {
  CopyType type;
  type.kind = kind;
  type.unit = unit;
  return type;
}

// "DECIMAL(p,s)" / "NUMERIC(p,s)" / "DECIMAL(p)"; nullopt for anything else.
std::optional<CopyType> DecimalFromDeclared(std::string_view text) {
  Lexer lexer(text);
  const std::string word = UpperCase(lexer.Word());
  if (word != "DECIMAL" && word != "NUMERIC") return std::nullopt;
  int64_t precision = 0, scale = 0;
  if (!lexer.Accept('(') || !lexer.Integer(&precision)) return std::nullopt;
  if (lexer.Accept(',') && !lexer.Integer(&scale)) return std::nullopt;
  if (!lexer.Accept(')') || !lexer.AtEnd()) return std::nullopt;
  if (precision < 1 || precision > kMaxDecimalPrecision || scale > precision) return std::nullopt;
  CopyType type;
  type.kind = CopyKind::kDecimal;
  type.precision = static_cast<int32_t>(precision);
  type.scale = static_cast<int32_t>(scale);
  return type;
}

// The Parquet part of a declared type of the parquet virtual table ("DATE" in "TEXT DATE").
std::optional<CopyType> FromVtabAnnotation(const std::string& affinity, const std::string& rest) {
  if (rest == "BOOLEAN" && affinity == "INTEGER") return Simple(CopyKind::kBoolean);
  if (affinity == "INTEGER") {
    if (rest == "UINT8") return Simple(CopyKind::kUInt8);
    if (rest == "UINT16") return Simple(CopyKind::kUInt16);
    if (rest == "UINT32") return Simple(CopyKind::kUInt32);
    if (rest == "UINT64") return Simple(CopyKind::kUInt64);
  }
  if (affinity == "REAL" && rest == "FLOAT") return Simple(CopyKind::kFloat);
  if (affinity == "REAL" && rest == "FLOAT16") return Simple(CopyKind::kFloat16);
  if (affinity == "TEXT") {
    if (rest == "ENUM") return Simple(CopyKind::kEnum);
    if (rest == "JSON") return Simple(CopyKind::kJson);
    if (rest == "UUID") return Simple(CopyKind::kUuid);
  }
  // INT96 timestamps (nanosecond precision) read as "TEXT TIMESTAMP" (or INTEGER / REAL with
  // timestamp_as=...).
  if (rest == "TIMESTAMP" && affinity != "BLOB") return Temporal(CopyKind::kTimestamp, TimeUnit::NANOS);
  if (affinity == "BLOB" && rest == "BSON") return Simple(CopyKind::kBinary);
  if (affinity == "BLOB" && rest == "GEOMETRY") return Simple(CopyKind::kGeometry);
  if (affinity == "BLOB" && rest == "GEOGRAPHY") return Simple(CopyKind::kGeography);
  if (rest == "DATE") return Simple(CopyKind::kDate);
  if (affinity == "TEXT" && rest.rfind("TIME_", 0) == 0) {
    TimeUnit unit;
    if (ParseUnit(std::string_view(rest).substr(5), &unit)) return Temporal(CopyKind::kTime, unit);
  }
  if (rest.rfind("TIMESTAMP_", 0) == 0) {
    TimeUnit unit;
    if (ParseUnit(std::string_view(rest).substr(10), &unit)) return Temporal(CopyKind::kTimestamp, unit);
  }
  if (affinity == "REAL" || affinity == "TEXT") {
    if (auto decimal = DecimalFromDeclared(rest)) return decimal;
  }
  return std::nullopt;
}

bool Contains(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

void SetLogical(SchemaElement* element, LogicalType::Kind kind) {
  LogicalType logical;
  logical.kind = kind;
  element->logical_type = logical;
}

void SetInteger(SchemaElement* element, int bits, bool is_signed) {
  LogicalType logical;
  logical.kind = LogicalType::Kind::INTEGER;
  logical.int_bit_width = static_cast<int8_t>(bits);
  logical.int_is_signed = is_signed;
  element->logical_type = logical;
  static constexpr ConvertedType kSigned[] = {ConvertedType::INT_8, ConvertedType::INT_16, ConvertedType::INT_32,
                                              ConvertedType::INT_64};
  static constexpr ConvertedType kUnsigned[] = {ConvertedType::UINT_8, ConvertedType::UINT_16,
                                                ConvertedType::UINT_32, ConvertedType::UINT_64};
  const int index = bits == 8 ? 0 : bits == 16 ? 1 : bits == 32 ? 2 : 3;
  element->converted_type = is_signed ? kSigned[index] : kUnsigned[index];
}

void AppendElements(const CopyField& field, FieldRepetitionType repetition, int32_t* next_field_id,
                    std::vector<SchemaElement>* out) {
  SchemaElement element;
  element.name = field.name;
  element.repetition_type = repetition;
  if (next_field_id != nullptr) element.field_id = (*next_field_id)++;
  const CopyType& type = field.type;
  switch (type.kind) {
    case CopyKind::kList: {
      element.num_children = 1;
      element.converted_type = ConvertedType::LIST;
      SetLogical(&element, LogicalType::Kind::LIST);
      out->push_back(std::move(element));
      SchemaElement list;
      list.name = "list";
      list.repetition_type = FieldRepetitionType::REPEATED;
      list.num_children = 1;
      if (next_field_id != nullptr) list.field_id = (*next_field_id)++;
      out->push_back(std::move(list));
      AppendElements(type.children[0], FieldRepetitionType::OPTIONAL, next_field_id, out);
      return;
    }
    case CopyKind::kMap: {
      element.num_children = 1;
      element.converted_type = ConvertedType::MAP;
      SetLogical(&element, LogicalType::Kind::MAP);
      out->push_back(std::move(element));
      SchemaElement key_value;
      key_value.name = "key_value";
      key_value.repetition_type = FieldRepetitionType::REPEATED;
      key_value.num_children = 2;
      if (next_field_id != nullptr) key_value.field_id = (*next_field_id)++;
      out->push_back(std::move(key_value));
      AppendElements(type.children[0], FieldRepetitionType::REQUIRED, next_field_id, out);
      AppendElements(type.children[1], FieldRepetitionType::OPTIONAL, next_field_id, out);
      return;
    }
    case CopyKind::kStruct:
      element.num_children = static_cast<int32_t>(type.children.size());
      out->push_back(std::move(element));
      for (const CopyField& child : type.children) {
        AppendElements(child, FieldRepetitionType::OPTIONAL, next_field_id, out);
      }
      return;
    case CopyKind::kVariant:
      parquet::AppendVariantSchemaElements(field.name, repetition, type.shredding.get(), next_field_id, out);
      return;
    default:
      break;
  }
  element.type = PhysicalTypeOf(type);
  if (*element.type == Type::FIXED_LEN_BYTE_ARRAY) element.type_length = FixedLengthOf(type);
  switch (type.kind) {
    case CopyKind::kInt8: SetInteger(&element, 8, true); break;
    case CopyKind::kInt16: SetInteger(&element, 16, true); break;
    case CopyKind::kInt32:
    case CopyKind::kInt64: break;  // plain INT32 / INT64, as most writers leave them
    case CopyKind::kUInt8: SetInteger(&element, 8, false); break;
    case CopyKind::kUInt16: SetInteger(&element, 16, false); break;
    case CopyKind::kUInt32: SetInteger(&element, 32, false); break;
    case CopyKind::kUInt64: SetInteger(&element, 64, false); break;
    case CopyKind::kFloat16: SetLogical(&element, LogicalType::Kind::FLOAT16); break;
    case CopyKind::kString:
      SetLogical(&element, LogicalType::Kind::STRING);
      element.converted_type = ConvertedType::UTF8;
      break;
    case CopyKind::kEnum:
      SetLogical(&element, LogicalType::Kind::ENUM);
      element.converted_type = ConvertedType::ENUM;
      break;
    case CopyKind::kJson:
      SetLogical(&element, LogicalType::Kind::JSON);
      element.converted_type = ConvertedType::JSON;
      break;
    case CopyKind::kUuid: SetLogical(&element, LogicalType::Kind::UUID); break;
    case CopyKind::kGeometry:
    case CopyKind::kGeography: {
      if (type.plain_wkb) break;
      LogicalType logical;
      logical.kind = type.kind == CopyKind::kGeometry ? LogicalType::Kind::GEOMETRY : LogicalType::Kind::GEOGRAPHY;
      logical.crs = type.crs;
      // Spherical is the default when the algorithm is absent.
      if (type.kind == CopyKind::kGeography && type.edges != parquet::EdgeInterpolationAlgorithm::SPHERICAL) {
        logical.edge_algorithm = type.edges;
      }
      element.logical_type = logical;
      break;
    }
    case CopyKind::kDecimal:
      parquet::AnnotateDecimal(&element, type.precision, type.scale);
      break;
    case CopyKind::kDate:
      SetLogical(&element, LogicalType::Kind::DATE);
      element.converted_type = ConvertedType::DATE;
      break;
    case CopyKind::kTime:
    case CopyKind::kTimestamp: {
      const bool is_time = type.kind == CopyKind::kTime;
      LogicalType logical;
      logical.kind = is_time ? LogicalType::Kind::TIME : LogicalType::Kind::TIMESTAMP;
      logical.time_unit = type.unit;
      logical.is_adjusted_to_utc = type.utc;
      element.logical_type = logical;
      // The legacy annotations exist for MILLIS and MICROS and imply UTC adjustment.
      if (type.utc) {
        if (type.unit == TimeUnit::MILLIS) {
          element.converted_type = is_time ? ConvertedType::TIME_MILLIS : ConvertedType::TIMESTAMP_MILLIS;
        } else if (type.unit == TimeUnit::MICROS) {
          element.converted_type = is_time ? ConvertedType::TIME_MICROS : ConvertedType::TIMESTAMP_MICROS;
        }
      }
      break;
    }
    default:
      break;  // BOOLEAN, FLOAT, DOUBLE, BINARY, FIXED: no annotation
  }
  out->push_back(std::move(element));
}

}  // namespace

bool SameName(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (Upper(a[i]) != Upper(b[i])) return false;
  }
  return true;
}

bool ParseCopyType(std::string_view text, CopyType* out, std::string* error) {
  Lexer lexer(text);
  error->clear();
  if (!ParseTypeAt(lexer, out, error, 0)) return false;
  if (!lexer.AtEnd()) {
    *error = "unexpected text after type: " + lexer.Rest();
    return false;
  }
  return true;
}

bool ParseSchemaOverride(std::string_view text, std::vector<CopyField>* out, std::string* error) {
  out->clear();
  error->clear();
  Lexer lexer(text);
  if (lexer.AtEnd()) {
    *error = "empty schema";
    return false;
  }
  return ParseFieldList(lexer, '\0', out, error, 0);
}

bool ParseNameList(std::string_view text, std::vector<std::string>* out, std::string* error) {
  out->clear();
  Lexer lexer(text);
  if (lexer.AtEnd()) {
    *error = "empty list of column names";
    return false;
  }
  for (;;) {
    std::string name;
    if (!lexer.Name(&name, error)) return false;
    out->push_back(std::move(name));
    if (lexer.AtEnd()) return true;
    if (!lexer.Accept(',')) {
      *error = "expected ',' between column names at: " + lexer.Rest();
      return false;
    }
  }
}

bool ParseSortingColumns(std::string_view text, std::vector<SortingSpec>* out, std::string* error) {
  out->clear();
  Lexer lexer(text);
  if (lexer.AtEnd()) {
    *error = "empty list of sorting columns";
    return false;
  }
  for (;;) {
    SortingSpec spec;
    if (!lexer.Name(&spec.name, error)) return false;
    bool seen_direction = false, seen_nulls = false;
    for (;;) {
      if (lexer.AtEnd() || lexer.Peek() == ',') break;
      const std::string word = UpperCase(lexer.Word());
      if (!seen_direction && (word == "ASC" || word == "DESC")) {
        spec.descending = word == "DESC";
        seen_direction = true;
      } else if (!seen_nulls && (word == "NULLS_FIRST" || word == "NULLS_LAST")) {
        spec.nulls_first = word == "NULLS_FIRST";
        seen_nulls = true;
      } else if (!seen_nulls && word == "NULLS") {
        const std::string which = UpperCase(lexer.Word());
        if (which != "FIRST" && which != "LAST") {
          *error = "expected NULLS FIRST or NULLS LAST for sorting column " + spec.name;
          return false;
        }
        spec.nulls_first = which == "FIRST";
        seen_nulls = true;
      } else {
        *error = "unexpected '" + (word.empty() ? lexer.Rest() : word) + "' in sorting column " + spec.name +
                 " (expected ASC, DESC, NULLS FIRST or NULLS LAST)";
        return false;
      }
    }
    // NULLs go where SQLite's ORDER BY puts them: it takes them as the smallest values.
    if (!seen_nulls) spec.nulls_first = !spec.descending;
    out->push_back(std::move(spec));
    if (lexer.AtEnd()) return true;
    lexer.Accept(',');
  }
}

bool ParseKeyValueMetadata(std::string_view text, std::vector<parquet::KeyValue>* out, std::string* error) {
  out->clear();
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(';', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view entry = text.substr(start, end - start);
    start = end + 1;
    if (TrimSchemaText(entry).empty()) continue;
    parquet::KeyValue kv;
    const size_t equals = entry.find('=');
    kv.key = std::string(TrimSchemaText(entry.substr(0, equals)));
    if (equals != std::string_view::npos) kv.value = std::string(TrimSchemaText(entry.substr(equals + 1)));
    if (kv.key.empty()) {
      *error = "empty key in kv_metadata entry: " + std::string(entry);
      return false;
    }
    for (const parquet::KeyValue& earlier : *out) {
      if (earlier.key == kv.key) {
        *error = "duplicate key in kv_metadata: " + kv.key;
        return false;
      }
    }
    out->push_back(std::move(kv));
  }
  return true;
}

std::optional<CopyType> TypeFromDeclaredType(std::string_view declared_type) {
  // Normalise: upper case, single spaces, none next to '(', ',' and ')'.
  std::string collapsed;
  for (char c : TrimSchemaText(declared_type)) {
    if (!IsSpace(c)) {
      collapsed += Upper(c);
    } else if (!collapsed.empty() && collapsed.back() != ' ') {
      collapsed += ' ';
    }
  }
  std::string text;
  for (size_t i = 0; i < collapsed.size(); ++i) {
    const bool after_punctuation = i > 0 && (collapsed[i - 1] == '(' || collapsed[i - 1] == ',');
    const bool before_punctuation =
        i + 1 < collapsed.size() && (collapsed[i + 1] == '(' || collapsed[i + 1] == ',' || collapsed[i + 1] == ')');
    if (collapsed[i] == ' ' && (after_punctuation || before_punctuation)) continue;
    text += collapsed[i];
  }
  if (text.empty()) return std::nullopt;

  // Our own virtual table's "<affinity> <parquet type>" forms.
  const size_t space = text.find(' ');
  if (space != std::string::npos) {
    const std::string affinity = text.substr(0, space);
    if (affinity == "INTEGER" || affinity == "REAL" || affinity == "TEXT" || affinity == "BLOB") {
      if (auto type = FromVtabAnnotation(affinity, text.substr(space + 1))) return type;
    }
  }

  // SQL type names with a meaning beyond their affinity.
  if (text == "BOOLEAN" || text == "BOOL") return Simple(CopyKind::kBoolean);
  if (text == "DATE") return Simple(CopyKind::kDate);
  if (text == "DATETIME" || text == "TIMESTAMP") return Temporal(CopyKind::kTimestamp, TimeUnit::MICROS);
  if (text == "TIMESTAMPTZ" || text == "TIMESTAMP WITH TIME ZONE") {
    auto type = Temporal(CopyKind::kTimestamp, TimeUnit::MICROS);
    type->utc = true;
    return type;
  }
  if (text == "TIME") return Temporal(CopyKind::kTime, TimeUnit::MICROS);
  if (text == "JSON") return Simple(CopyKind::kJson);
  if (text == "UUID") return Simple(CopyKind::kUuid);
  if (auto decimal = DecimalFromDeclared(text)) return decimal;

  // SQLite's affinity rules, in SQLite's order.
  if (Contains(text, "INT")) return Simple(CopyKind::kInt64);
  if (Contains(text, "CHAR") || Contains(text, "CLOB") || Contains(text, "TEXT")) return Simple(CopyKind::kString);
  if (Contains(text, "BLOB")) return Simple(CopyKind::kBinary);
  if (Contains(text, "REAL") || Contains(text, "FLOA") || Contains(text, "DOUB")) return Simple(CopyKind::kDouble);
  return std::nullopt;  // NUMERIC affinity: the values decide
}

CopyType TypeFromStorageClasses(unsigned seen) {
  CopyType type;
  if (seen & kSeenBlob) {
    type.kind = CopyKind::kBinary;
  } else if (seen & kSeenText) {
    type.kind = CopyKind::kString;
  } else if (seen & kSeenReal) {
    type.kind = CopyKind::kDouble;
  } else if (seen & kSeenInteger) {
    type.kind = CopyKind::kInt64;
  } else {
    type.kind = CopyKind::kString;
  }
  return type;
}

CopyType VariantType() {
  CopyType type;
  type.kind = CopyKind::kVariant;
  return type;
}

std::string DescribeCopyType(const CopyType& type) {
  if (type.kind == CopyKind::kVariant) return "VARIANT";
  for (const NamedKind& simple : kSimpleKinds) {
    if (simple.kind == type.kind) return simple.name;
  }
  switch (type.kind) {
    case CopyKind::kFixed: return "FIXED(" + std::to_string(type.length) + ")";
    case CopyKind::kDecimal:
      return "DECIMAL(" + std::to_string(type.precision) + "," + std::to_string(type.scale) + ")";
    case CopyKind::kTime: return std::string("TIME(") + UnitName(type.unit) + (type.utc ? ", UTC)" : ")");
    case CopyKind::kTimestamp:
      return std::string("TIMESTAMP(") + UnitName(type.unit) + (type.utc ? ", UTC)" : ")");
    case CopyKind::kList: return "LIST<" + DescribeCopyType(type.children[0].type) + ">";
    case CopyKind::kMap:
      return "MAP<" + DescribeCopyType(type.children[0].type) + ", " + DescribeCopyType(type.children[1].type) + ">";
    case CopyKind::kStruct: {
      std::string text = "STRUCT<";
      for (size_t i = 0; i < type.children.size(); ++i) {
        if (i > 0) text += ", ";
        bool plain = !type.children[i].name.empty();
        for (char c : type.children[i].name) plain = plain && IsWordChar(c);
        if (plain) {
          text += type.children[i].name;
        } else {
          text += '"';
          for (char c : type.children[i].name) {
            text += c;
            if (c == '"') text += '"';
          }
          text += '"';
        }
        text += " " + DescribeCopyType(type.children[i].type);
      }
      return text + ">";
    }
    default: return "?";
  }
}

int32_t DecimalByteWidth(int32_t precision) {
  // The fewest bytes n with 2^(8n-1) > 10^precision - 1, i.e. 8n - 1 >= precision * log2(10).
  // log2(10) < 3.3219281 is enough: rounding up the bit count covers the boundary cases.
  const int64_t bits = (static_cast<int64_t>(precision) * 33219281 + 9999999) / 10000000 + 1;
  return static_cast<int32_t>((bits + 7) / 8);
}

parquet::Type PhysicalTypeOf(const CopyType& type) {
  switch (type.kind) {
    case CopyKind::kBoolean: return Type::BOOLEAN;
    case CopyKind::kInt8:
    case CopyKind::kInt16:
    case CopyKind::kInt32:
    case CopyKind::kUInt8:
    case CopyKind::kUInt16:
    case CopyKind::kUInt32:
    case CopyKind::kDate: return Type::INT32;
    case CopyKind::kInt64:
    case CopyKind::kUInt64:
    case CopyKind::kTimestamp: return Type::INT64;
    case CopyKind::kTime: return type.unit == TimeUnit::MILLIS ? Type::INT32 : Type::INT64;
    case CopyKind::kFloat: return Type::FLOAT;
    case CopyKind::kDouble: return Type::DOUBLE;
    case CopyKind::kFloat16:
    case CopyKind::kFixed:
    case CopyKind::kUuid: return Type::FIXED_LEN_BYTE_ARRAY;
    case CopyKind::kDecimal:
      return type.precision <= 9 ? Type::INT32 : type.precision <= 18 ? Type::INT64 : Type::FIXED_LEN_BYTE_ARRAY;
    default: return Type::BYTE_ARRAY;  // STRING, BINARY, JSON, ENUM
  }
}

int32_t FixedLengthOf(const CopyType& type) {
  switch (type.kind) {
    case CopyKind::kFloat16: return 2;
    case CopyKind::kUuid: return 16;
    case CopyKind::kFixed: return type.length;
    case CopyKind::kDecimal: return type.precision > 18 ? DecimalByteWidth(type.precision) : 0;
    default: return 0;
  }
}

void AppendSchemaElements(const CopyField& field, int32_t* next_field_id, std::vector<SchemaElement>* out) {
  AppendElements(field, FieldRepetitionType::OPTIONAL, next_field_id, out);
}

int LeafCount(const CopyType& type) {
  if (!type.is_nested()) return 1;
  if (type.kind == CopyKind::kVariant) return static_cast<int>(parquet::VariantLeaves(type.shredding.get()).size());
  int count = 0;
  for (const CopyField& child : type.children) count += LeafCount(child.type);
  return count;
}

}  // namespace sqlite_parquet

// The Delta transaction log replayed into a snapshot, and the table's history (delta_log.h:
// the pipeline, step by step).
#include "format/lake/delta_log.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

#include "format/common/error.h"
#include "format/io/remote_file.h"
#include "format/metadata/nested_schema.h"
#include "format/read/file_reader.h"
#include "format/read/record_assembler.h"
#include "format/values/json_document.h"
#include "format/values/json_text.h"
#include "format/values/logical_values.h"
#include "format/values/text.h"

namespace parquet::lake {

namespace {

// ---- JSON helpers ----

int32_t Member(const JsonDocument& doc, int32_t object, std::string_view key) {
  if (object < 0 || doc.node(object).kind != JsonNode::Kind::kObject) return -1;
  std::string unescaped;
  for (int32_t c = doc.node(object).first_child; c >= 0; c = doc.node(c).next_sibling) {
    const JsonNode& n = doc.node(c);
    if (n.key_escaped) {
      unescaped.clear();
      UnescapeJsonString(n.key, &unescaped);
      if (unescaped == key) return c;
    } else if (n.key == key) {
      return c;
    }
  }
  return -1;
}

bool IsString(const JsonDocument& doc, int32_t node) { return node >= 0 && doc.node(node).kind == JsonNode::Kind::kString; }

std::string StringOf(const JsonDocument& doc, int32_t node) {
  if (!IsString(doc, node)) return std::string();
  const JsonNode& n = doc.node(node);
  if (!n.escaped) return std::string(n.text);
  std::string out;
  UnescapeJsonString(n.text, &out);
  return out;
}

std::string KeyOf(const JsonDocument& doc, int32_t node) {
  const JsonNode& n = doc.node(node);
  if (!n.key_escaped) return std::string(n.key);
  std::string out;
  UnescapeJsonString(n.key, &out);
  return out;
}

bool ParseInt(std::string_view text, int64_t* out) {
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, *out);
  return ec == std::errc() && p == end;
}

bool ParseDouble(std::string_view text, double* out) {
  std::string copy(text);
  if (copy.empty()) return false;
  char* end = nullptr;
  *out = std::strtod(copy.c_str(), &end);
  return end == copy.c_str() + copy.size() && std::isfinite(*out);
}

bool IntOf(const JsonDocument& doc, int32_t node, int64_t* out) {
  return node >= 0 && doc.node(node).kind == JsonNode::Kind::kNumber && ParseInt(doc.node(node).text, out);
}

[[noreturn]] void Malformed(const std::string& source, const std::string& what) {
  throw ParquetError("Delta log " + source + ": " + what);
}

// ---- paths ----

bool PercentDecode(std::string_view text, std::string* out) {
  out->clear();
  for (size_t i = 0; i < text.size(); i++) {
    if (text[i] != '%') {
      out->push_back(text[i]);
      continue;
    }
    if (i + 2 >= text.size()) return false;
    const int hi = HexDigit(text[i + 1]), lo = HexDigit(text[i + 2]);
    if (hi < 0 || lo < 0) return false;
    out->push_back(static_cast<char>(hi * 16 + lo));
    i += 2;
  }
  return true;
}

// The scheme of a URI ("file", "s3", ...) or "" for a plain path.
std::string SchemeOf(std::string_view path) {
  for (size_t i = 0; i < path.size(); i++) {
    const char c = path[i];
    if (c == ':') return i >= 2 ? AsciiLowercase(std::string(path.substr(0, i))) : std::string();
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (i > 0 && ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.'));
    if (!ok) return std::string();
  }
  return std::string();
}

// The path of a data file named `raw` in the log, made canonical: relative paths below the
// root, file: URIs as local paths, percent escapes decoded. Whether it may be read is
// decided later (CheckInsideRoot).
std::string CanonicalPath(std::string_view raw, const std::string& root, const std::string& source) {
  if (raw.empty()) Malformed(source, "a file action with an empty path");
  const std::string scheme = SchemeOf(raw);
  std::string decoded;
  if (scheme.empty()) {
    if (!PercentDecode(raw, &decoded)) Malformed(source, "path '" + std::string(raw) + "' has a malformed % escape");
    if (!decoded.empty() && decoded[0] == '/') return decoded;  // absolute
    return root + "/" + decoded;
  }
  if (scheme == "file") {
    std::string_view rest = raw.substr(5);
    if (rest.substr(0, 3) == "///") rest.remove_prefix(2);
    else if (rest.substr(0, 2) == "//") Malformed(source, "path '" + std::string(raw) + "' names a file on another host");
    if (!PercentDecode(rest, &decoded)) Malformed(source, "path '" + std::string(raw) + "' has a malformed % escape");
    return decoded;
  }
  return std::string(raw);
}

// Whether `path` lies below `root` without leaving it through "..".
bool InsideRoot(const std::string& path, const std::string& root) {
  if (path.size() <= root.size() + 1 || path.compare(0, root.size(), root) != 0 || path[root.size()] != '/') return false;
  size_t start = root.size() + 1;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    const std::string_view segment(path.data() + start, end - start);
    if (segment == ".." || segment == "." || segment.empty()) return false;
    start = end + 1;
  }
  return true;
}

// ---- log file names ----

struct LogFile {
  enum class Kind { kCommit, kClassicCheckpoint, kMultiPartCheckpoint, kV2Checkpoint, kOther };
  Kind kind = Kind::kOther;
  int64_t version = -1;
  int part = 0, parts = 0;  // multi-part
  std::string name;
  int64_t modified_ms = -1;
};

bool AllDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

LogFile ClassifyLogName(const LakeEntry& entry) {
  LogFile f;
  f.name = entry.name;
  f.modified_ms = entry.modified_ms;
  const std::string_view name = entry.name;
  if (name.size() < 21 || !AllDigits(name.substr(0, 20)) || name[20] != '.') return f;
  // A log file's name is one path segment of printable characters: a listing that names
  // "N.checkpoint.x/../../elsewhere.parquet" (a hostile S3 server ignoring the delimiter)
  // names no log file.
  if (name.find("..") != std::string_view::npos ||
      std::any_of(name.begin(), name.end(), [](char c) { return c == '/' || c == '\\' || static_cast<unsigned char>(c) < 0x20; })) {
    return f;
  }
  int64_t version = 0;
  if (!ParseInt(name.substr(0, 20), &version)) return f;
  const std::string_view rest = name.substr(21);
  if (rest == "json") {
    f.kind = LogFile::Kind::kCommit;
  } else if (rest == "checkpoint.parquet") {
    f.kind = LogFile::Kind::kClassicCheckpoint;
  } else if (rest.substr(0, 11) == "checkpoint.") {
    const std::string_view tail = rest.substr(11);
    int64_t part = 0, parts = 0;
    if (tail.size() == 10 + 1 + 10 + 8 && tail.substr(21) == ".parquet" && tail[10] == '.' && AllDigits(tail.substr(0, 10)) &&
        AllDigits(tail.substr(11, 10)) && ParseInt(tail.substr(0, 10), &part) && ParseInt(tail.substr(11, 10), &parts) &&
        part >= 1 && part <= parts && parts <= 100000) {
      f.kind = LogFile::Kind::kMultiPartCheckpoint;
      f.part = static_cast<int>(part);
      f.parts = static_cast<int>(parts);
    } else if ((tail.size() > 5 && tail.substr(tail.size() - 5) == ".json") ||
               (tail.size() > 8 && tail.substr(tail.size() - 8) == ".parquet")) {
      f.kind = LogFile::Kind::kV2Checkpoint;
    } else {
      return f;
    }
  } else {
    return f;
  }
  f.version = version;
  return f;
}

// ---- checkpoint parquet rows as JSON actions ----

// Renders the row the assembler read last as JSON into *out.
void RenderRow(const RecordAssembler& assembler, const Schema& schema, std::string* out) {
  const NestedFieldShape& shape = assembler.shape();
  struct Context {
    ShapeKind kind;
    bool first = true;
    bool map_key_next = true;
  };
  std::vector<Context> stack;
  char buffer[64];
  // Writes what comes before a value: a struct member's name, or the separator of a list
  // element or map entry (a map's key and value are written "key":value).
  auto before_value = [&](int32_t shape_index) {
    if (stack.empty()) return;
    Context& c = stack.back();
    if (c.kind == ShapeKind::kStruct) {
      if (!c.first) out->push_back(',');
      c.first = false;
      AppendJsonString(shape.shape(shape_index).name, out);
      out->push_back(':');
    } else if (c.kind == ShapeKind::kList) {
      if (!c.first) out->push_back(',');
      c.first = false;
    } else if (c.kind == ShapeKind::kMap) {
      if (c.map_key_next) {
        if (!c.first) out->push_back(',');
        c.first = false;
      } else {
        out->push_back(':');
      }
    }
  };
  auto after_value = [&]() {
    if (!stack.empty() && stack.back().kind == ShapeKind::kMap) stack.back().map_key_next = !stack.back().map_key_next;
  };
  for (const NestedEvent& e : assembler.events()) {
    const Shape& s = shape.shape(e.shape);
    switch (e.kind) {
      case NestedEventKind::kBeginStruct:
        before_value(e.shape);
        out->push_back('{');
        stack.push_back(Context{ShapeKind::kStruct});
        break;
      case NestedEventKind::kBeginList:
        before_value(e.shape);
        out->push_back('[');
        stack.push_back(Context{ShapeKind::kList});
        break;
      case NestedEventKind::kBeginMap:
        before_value(e.shape);
        out->push_back('{');
        stack.push_back(Context{ShapeKind::kMap});
        break;
      case NestedEventKind::kEndStruct:
      case NestedEventKind::kEndMap:
        stack.pop_back();
        out->push_back('}');
        after_value();
        break;
      case NestedEventKind::kEndList:
        stack.pop_back();
        out->push_back(']');
        after_value();
        break;
      case NestedEventKind::kNull: {
        const bool key = !stack.empty() && stack.back().kind == ShapeKind::kMap && stack.back().map_key_next;
        before_value(e.shape);
        out->append(key ? "\"\"" : "null");
        after_value();
        break;
      }
      case NestedEventKind::kValue: {
        const bool key = !stack.empty() && stack.back().kind == ShapeKind::kMap && stack.back().map_key_next;
        before_value(e.shape);
        const int leaf = s.first_leaf;
        const SchemaNode& node = schema.node(schema.columns()[static_cast<size_t>(s.column)].node);
        const std::optional<LogicalType> logical = EffectiveLogicalType(node);
        std::string value;
        switch (assembler.leaf_physical_type(leaf)) {
          case Type::BOOLEAN: value = assembler.values<bool>(leaf)[e.value] ? "true" : "false"; break;
          case Type::INT32: {
            const int32_t v = assembler.values<int32_t>(leaf)[e.value];
            if (logical && logical->kind == LogicalType::Kind::DATE) {
              const size_t n = FormatDate(v, buffer);
              AppendJsonString(std::string_view(buffer, n), &value);
            } else {
              value = std::to_string(v);
            }
            break;
          }
          case Type::INT64: {
            const int64_t v = assembler.values<int64_t>(leaf)[e.value];
            if (logical && logical->kind == LogicalType::Kind::TIMESTAMP) {
              value = "null";  // statistics of timestamps are not used
            } else {
              value = std::to_string(v);
            }
            break;
          }
          case Type::FLOAT: AppendJsonFloat(assembler.values<float>(leaf)[e.value], &value); break;
          case Type::DOUBLE: AppendJsonDouble(assembler.values<double>(leaf)[e.value], &value); break;
          case Type::BYTE_ARRAY:
          case Type::FIXED_LEN_BYTE_ARRAY: {
            const ByteArray b = assembler.values<ByteArray>(leaf)[e.value];
            if (logical && logical->kind == LogicalType::Kind::DECIMAL) {
              value = "null";
            } else if (IsValidUtf8(b.view())) {
              AppendJsonString(b.view(), &value);
            } else {
              value = "null";
            }
            break;
          }
          default: value = "null"; break;
        }
        if (key && value[0] != '"') {
          out->push_back('"');
          out->append(value);
          out->push_back('"');
        } else {
          out->append(value);
        }
        after_value();
        break;
      }
    }
  }
}

// The actions of a Parquet checkpoint or sidecar, fed to `replay` as JSON.
void ReadParquetActions(LakeStorage& storage, const std::string& path, const std::string& shown, DeltaLogReplay* replay,
                        std::vector<std::string>* sidecars) {
  std::unique_ptr<ParquetFileReader> file = ParquetFileReader::Open(storage.Open(path));
  const Schema& schema = file->schema();
  static const char* const kWanted[] = {"add", "metaData", "protocol", "sidecar"};
  std::vector<std::pair<std::string, std::unique_ptr<RecordAssembler>>> fields;
  for (size_t f = 0; f < schema.top_level_fields().size(); f++) {
    const std::string& name = schema.node(schema.top_level_fields()[f]).name;
    for (const char* wanted : kWanted) {
      if (name == wanted) fields.emplace_back(name, std::make_unique<RecordAssembler>(*file, static_cast<int>(f)));
    }
  }
  std::string json;
  for (int rg = 0; rg < file->num_row_groups(); rg++) {
    for (auto& field : fields) field.second->Reset(rg);
    const int64_t rows = file->row_group_num_rows(rg);
    for (int64_t r = 0; r < rows; r++) {
      for (auto& field : fields) {
        field.second->ReadRow();
        const std::vector<NestedEvent>& events = field.second->events();
        if (events.empty() || events[0].kind == NestedEventKind::kNull) continue;
        json = "{";
        AppendJsonString(field.first, &json);
        json.push_back(':');
        RenderRow(*field.second, schema, &json);
        json.push_back('}');
        replay->AddCheckpointAction(json, shown, sidecars);
      }
    }
  }
}

// ---- types and values ----

LakeType ParseDeltaType(const JsonDocument& doc, int32_t node, const std::string& source) {
  LakeType t;
  if (node >= 0 && doc.node(node).kind == JsonNode::Kind::kObject) {
    const std::string kind = StringOf(doc, Member(doc, node, "type"));
    t.name = std::string(doc.node(node).text);
    if (kind == "struct") t.kind = LakeType::Kind::kStruct;
    else if (kind == "array") t.kind = LakeType::Kind::kArray;
    else if (kind == "map") t.kind = LakeType::Kind::kMap;
    else Malformed(source, "unknown nested type '" + kind + "'");
    return t;
  }
  if (!IsString(doc, node)) Malformed(source, "a schema field without a type");
  t.name = StringOf(doc, node);
  static const std::pair<const char*, LakeType::Kind> kNames[] = {
      {"boolean", LakeType::Kind::kBoolean}, {"byte", LakeType::Kind::kByte}, {"short", LakeType::Kind::kShort},
      {"integer", LakeType::Kind::kInt}, {"long", LakeType::Kind::kLong}, {"float", LakeType::Kind::kFloat},
      {"double", LakeType::Kind::kDouble}, {"string", LakeType::Kind::kString}, {"binary", LakeType::Kind::kBinary},
      {"date", LakeType::Kind::kDate}, {"timestamp", LakeType::Kind::kTimestamp},
      {"timestamp_ntz", LakeType::Kind::kTimestampNtz}, {"variant", LakeType::Kind::kVariant}};
  for (const auto& [name, kind] : kNames) {
    if (t.name == name) {
      t.kind = kind;
      return t;
    }
  }
  int p = 0, s = 0;
  if (t.name.rfind("decimal(", 0) == 0 && std::sscanf(t.name.c_str(), "decimal(%d,%d)", &p, &s) == 2 && p > 0 && p <= 38 &&
      s >= 0 && s <= p) {
    t.kind = LakeType::Kind::kDecimal;
    t.precision = p;
    t.scale = s;
    return t;
  }
  if (t.name == "decimal") {
    t.kind = LakeType::Kind::kDecimal;
    t.precision = 10;
    return t;
  }
  t.kind = LakeType::Kind::kOther;
  return t;
}

// A partition value of the log (text, or nullopt) typed by the column's type.
LakeValue PartitionValue(const std::optional<std::string>& text, const LakeColumn& column, const std::string& source) {
  if (!text || (text->empty() && column.type.kind != LakeType::Kind::kString)) return LakeValue::Null();
  const std::string& v = *text;
  auto bad = [&]() -> LakeValue {
    Malformed(source, "partition value '" + v + "' of column '" + column.name + "' is not a " + column.type.name);
  };
  switch (column.type.kind) {
    case LakeType::Kind::kBoolean:
      if (v == "true") return LakeValue::Integer(1);
      if (v == "false") return LakeValue::Integer(0);
      return bad();
    case LakeType::Kind::kByte: case LakeType::Kind::kShort: case LakeType::Kind::kInt: case LakeType::Kind::kLong: {
      int64_t i = 0;
      if (!ParseInt(v, &i)) return bad();
      return LakeValue::Integer(i);
    }
    case LakeType::Kind::kFloat: case LakeType::Kind::kDouble: case LakeType::Kind::kDecimal: {
      double d = 0;
      if (v == "NaN") return LakeValue::Null();
      if (!ParseDouble(v, &d)) return bad();
      return LakeValue::Real(d);
    }
    case LakeType::Kind::kDate: {
      int32_t days = 0;
      if (!ParseDate(v, &days)) return bad();
      char buffer[kDateTextCapacity];
      return LakeValue::Text(std::string(buffer, FormatDate(days, buffer)));
    }
    case LakeType::Kind::kTimestamp: case LakeType::Kind::kTimestampNtz: {
      int64_t micros = 0;
      if (!ParseTimestamp(v, TimeUnit::MICROS, &micros)) return bad();
      char buffer[kTimestampTextCapacity];
      return LakeValue::Text(std::string(buffer, FormatTimestamp(micros, TimeUnit::MICROS, buffer)));
    }
    default: return LakeValue::Text(v);
  }
}

// A statistic of `column` from the stats JSON; `upper` for a maximum (timestamps are
// written truncated to milliseconds: a maximum is widened by the microseconds cut off).
LakeValue StatValue(const JsonDocument& doc, int32_t node, const LakeColumn& column, bool upper) {
  if (node < 0) return LakeValue();
  const JsonNode& n = doc.node(node);
  switch (column.type.kind) {
    case LakeType::Kind::kByte: case LakeType::Kind::kShort: case LakeType::Kind::kInt: case LakeType::Kind::kLong: {
      int64_t i = 0;
      if (n.kind == JsonNode::Kind::kNumber && ParseInt(n.text, &i)) return LakeValue::Integer(i);
      return LakeValue();
    }
    case LakeType::Kind::kDouble: case LakeType::Kind::kDecimal: {
      double d = 0;
      if (n.kind == JsonNode::Kind::kNumber && ParseDouble(n.text, &d)) return LakeValue::Real(d);
      return LakeValue();
    }
    case LakeType::Kind::kDate: {
      int32_t days = 0;
      const std::string text = StringOf(doc, node);
      if (!ParseDate(text, &days)) return LakeValue();
      char buffer[kDateTextCapacity];
      return LakeValue::Text(std::string(buffer, FormatDate(days, buffer)));
    }
    case LakeType::Kind::kString:
      if (n.kind == JsonNode::Kind::kString) return LakeValue::Text(StringOf(doc, node));
      return LakeValue();
    case LakeType::Kind::kTimestamp: case LakeType::Kind::kTimestampNtz: {
      // As the text the column's values have ("YYYY-MM-DD HH:MM:SS[.f]", UTC), whose order
      // is time order for years 0000..9999.
      int64_t micros = 0;
      if (n.kind != JsonNode::Kind::kString || !ParseTimestamp(StringOf(doc, node), TimeUnit::MICROS, &micros)) {
        return LakeValue();
      }
      constexpr int64_t kFirst = -62167219200000000;  // 0000-01-01
      constexpr int64_t kLast = 253402300799000000;   // 9999-12-31 23:59:59
      if (micros < kFirst || micros > kLast) return LakeValue();
      if (upper) micros += 999;
      char buffer[kTimestampTextCapacity];
      return LakeValue::Text(std::string(buffer, FormatTimestamp(micros, TimeUnit::MICROS, buffer)));
    }
    default: return LakeValue();  // floats (printed shorter than stored), booleans, binary, ...
  }
}

// Delta writers keep this many characters of a string statistic.
constexpr size_t kStatsStringPrefix = 32;

size_t Utf8Length(std::string_view s) {
  size_t n = 0;
  for (char c : s) n += (static_cast<uint8_t>(c) & 0xC0) != 0x80;
  return n;
}

std::vector<LakeColumnStats> ParseStats(std::string_view text, const std::vector<LakeColumn>& columns, bool has_dv,
                                        int64_t* num_records) {
  std::vector<LakeColumnStats> stats;
  JsonDocument doc;
  std::string error;
  if (text.empty() || !doc.Parse(text, &error) || doc.root().kind != JsonNode::Kind::kObject) return stats;
  int64_t records = -1;
  if (IntOf(doc, Member(doc, 0, "numRecords"), &records) && records >= 0) *num_records = records;
  const int32_t mins = Member(doc, 0, "minValues"), maxs = Member(doc, 0, "maxValues"), nulls = Member(doc, 0, "nullCount");
  stats.resize(columns.size());
  for (size_t c = 0; c < columns.size(); c++) {
    const LakeColumn& column = columns[c];
    if (column.type.nested()) continue;
    LakeColumnStats& s = stats[c];
    s.min = StatValue(doc, Member(doc, mins, column.physical_name), column, false);
    s.max = StatValue(doc, Member(doc, maxs, column.physical_name), column, true);
    if (s.max.kind == LakeValue::Kind::kText && column.type.kind == LakeType::Kind::kString &&
        Utf8Length(s.max.text) >= kStatsStringPrefix) {
      s.max_unusable = true;
      s.max = LakeValue();
    }
    int64_t n = -1;
    // NaN reads as NULL in SQLite but is not counted in nullCount: not used for floats.
    const bool floating = column.type.kind == LakeType::Kind::kFloat || column.type.kind == LakeType::Kind::kDouble;
    if (!has_dv && !floating && IntOf(doc, Member(doc, nulls, column.physical_name), &n) && n >= 0) s.null_count = n;
  }
  return stats;
}

bool IsSupportedReaderFeature(const std::string& f) {
  static const char* const kSupported[] = {"columnMapping", "deletionVectors", "timestampNtz", "typeWidening",
                                           "typeWidening-preview", "v2Checkpoint", "vacuumProtocolCheck",
                                           "variantType", "variantType-preview"};
  for (const char* s : kSupported) {
    if (f == s) return true;
  }
  return false;
}

struct RawFile {
  std::string path;       // canonical
  std::vector<std::pair<std::string, std::optional<std::string>>> partition_values;
  int64_t size = -1;
  std::string stats;
  std::optional<DeletionVectorDescriptor> dv;
};

std::optional<DeletionVectorDescriptor> ParseDv(const JsonDocument& doc, int32_t node, const std::string& source) {
  if (node < 0 || doc.node(node).kind == JsonNode::Kind::kNull) return std::nullopt;
  if (doc.node(node).kind != JsonNode::Kind::kObject) Malformed(source, "deletionVector is not an object");
  DeletionVectorDescriptor dv;
  const std::string type = StringOf(doc, Member(doc, node, "storageType"));
  if (type.size() != 1 || (type[0] != 'u' && type[0] != 'i' && type[0] != 'p')) {
    Malformed(source, "deletion vector storage type '" + type + "' is not u, i or p");
  }
  dv.storage_type = type[0];
  dv.path_or_inline = StringOf(doc, Member(doc, node, "pathOrInlineDv"));
  int64_t v = 0;
  const int32_t offset = Member(doc, node, "offset");
  if (offset >= 0 && doc.node(offset).kind != JsonNode::Kind::kNull) {
    if (!IntOf(doc, offset, &v)) Malformed(source, "deletion vector offset is not an integer");
    dv.offset = v;
  }
  if (!IntOf(doc, Member(doc, node, "sizeInBytes"), &dv.size_in_bytes)) Malformed(source, "deletion vector without sizeInBytes");
  if (!IntOf(doc, Member(doc, node, "cardinality"), &dv.cardinality)) Malformed(source, "deletion vector without cardinality");
  return dv;
}

}  // namespace

// ---- schema ----

namespace {

// The renamed fields below nested type `node` (column mapping), depth-bounded by the parser.
void CollectNestedNames(const JsonDocument& doc, int32_t node, std::vector<std::pair<std::string, std::string>>* out) {
  if (node < 0 || doc.node(node).kind != JsonNode::Kind::kObject) return;
  const std::string kind = StringOf(doc, Member(doc, node, "type"));
  if (kind == "struct") {
    const int32_t fields = Member(doc, node, "fields");
    if (fields < 0 || doc.node(fields).kind != JsonNode::Kind::kArray) return;
    for (int32_t f = doc.node(fields).first_child; f >= 0; f = doc.node(f).next_sibling) {
      const std::string name = StringOf(doc, Member(doc, f, "name"));
      const int32_t physical = Member(doc, Member(doc, f, "metadata"), "delta.columnMapping.physicalName");
      if (IsString(doc, physical) && StringOf(doc, physical) != name && out->size() < kMaxDeltaColumns * 10) {
        out->emplace_back(StringOf(doc, physical), name);
      }
      CollectNestedNames(doc, Member(doc, f, "type"), out);
    }
  } else if (kind == "array") {
    CollectNestedNames(doc, Member(doc, node, "elementType"), out);
  } else if (kind == "map") {
    CollectNestedNames(doc, Member(doc, node, "keyType"), out);
    CollectNestedNames(doc, Member(doc, node, "valueType"), out);
  }
}

}  // namespace

std::vector<LakeColumn> ParseDeltaSchema(std::string_view text, const std::string& mapping_mode,
                                         std::vector<std::pair<std::string, std::string>>* nested_names) {
  JsonDocument doc;
  std::string error;
  if (!doc.Parse(text, &error)) throw ParquetError("Delta schema is not JSON: " + error);
  const int32_t fields = Member(doc, 0, "fields");
  if (StringOf(doc, Member(doc, 0, "type")) != "struct" || fields < 0 || doc.node(fields).kind != JsonNode::Kind::kArray) {
    throw ParquetError("Delta schema is not a struct with fields");
  }
  std::vector<LakeColumn> columns;
  const std::string source = "schema";
  for (int32_t f = doc.node(fields).first_child; f >= 0; f = doc.node(f).next_sibling) {
    if (columns.size() >= kMaxDeltaColumns) throw ParquetError("Delta schema has more than " + std::to_string(kMaxDeltaColumns) + " columns");
    LakeColumn column;
    if (!IsString(doc, Member(doc, f, "name"))) throw ParquetError("Delta schema has a field without a name");
    column.name = StringOf(doc, Member(doc, f, "name"));
    column.type = ParseDeltaType(doc, Member(doc, f, "type"), source);
    column.nullable = doc.node(Member(doc, f, "nullable") >= 0 ? Member(doc, f, "nullable") : f).kind != JsonNode::Kind::kFalse;
    const int32_t metadata = Member(doc, f, "metadata");
    column.physical_name = column.name;
    if (mapping_mode == "name" || mapping_mode == "id") {
      const int32_t physical = Member(doc, metadata, "delta.columnMapping.physicalName");
      if (!IsString(doc, physical)) {
        throw ParquetError("Delta schema: column '" + column.name + "' has no physical name (column mapping mode " + mapping_mode + ")");
      }
      column.physical_name = StringOf(doc, physical);
      if (mapping_mode == "id") {
        int64_t id = -1;
        if (!IntOf(doc, Member(doc, metadata, "delta.columnMapping.id"), &id) || id < 0 || id > INT32_MAX) {
          throw ParquetError("Delta schema: column '" + column.name + "' has no column mapping id");
        }
        column.field_id = id;
      }
    } else if (!mapping_mode.empty() && mapping_mode != "none") {
      throw ParquetError("Delta column mapping mode '" + mapping_mode + "' is not known");
    }
    if (nested_names && (mapping_mode == "name" || mapping_mode == "id")) {
      CollectNestedNames(doc, Member(doc, f, "type"), nested_names);
    }
    columns.push_back(std::move(column));
  }
  return columns;
}

// ---- the replay ----

struct DeltaLogReplay::State {
  std::string root;
  DeltaReadOptions options;
  std::map<std::string, RawFile> files;  // by path '\n' dvId
  std::string metadata;                  // the latest metaData action's JSON
  std::string metadata_source;
  std::string protocol;
  std::string protocol_source;
  JsonDocument doc;
};

DeltaLogReplay::DeltaLogReplay(std::string root, DeltaReadOptions options) : state_(std::make_unique<State>()) {
  state_->root = std::move(root);
  state_->options = std::move(options);
}

DeltaLogReplay::~DeltaLogReplay() = default;

namespace {

std::string FileKey(const RawFile& f) { return f.path + "\n" + (f.dv ? f.dv->UniqueId() : std::string()); }

RawFile ParseFileAction(const JsonDocument& doc, int32_t node, const std::string& root, const std::string& source,
                        bool add) {
  if (doc.node(node).kind != JsonNode::Kind::kObject) Malformed(source, "a file action that is not an object");
  RawFile f;
  const int32_t path = Member(doc, node, "path");
  if (!IsString(doc, path)) Malformed(source, "a file action without a path");
  f.path = CanonicalPath(StringOf(doc, path), root, source);
  f.dv = ParseDv(doc, Member(doc, node, "deletionVector"), source);
  if (!add) return f;
  const int32_t values = Member(doc, node, "partitionValues");
  if (values >= 0 && doc.node(values).kind == JsonNode::Kind::kObject) {
    for (int32_t c = doc.node(values).first_child; c >= 0; c = doc.node(c).next_sibling) {
      std::optional<std::string> value;
      if (IsString(doc, c)) value = StringOf(doc, c);
      else if (doc.node(c).kind != JsonNode::Kind::kNull) Malformed(source, "a partition value that is not a string");
      f.partition_values.emplace_back(KeyOf(doc, c), std::move(value));
    }
  }
  IntOf(doc, Member(doc, node, "size"), &f.size);
  const int32_t stats = Member(doc, node, "stats");
  if (IsString(doc, stats)) {
    f.stats = StringOf(doc, stats);
  } else if (stats < 0 || doc.node(stats).kind == JsonNode::Kind::kNull) {
    // Checkpoints may carry the statistics parsed (stats_parsed) rather than as JSON text.
    const int32_t parsed = Member(doc, node, "stats_parsed");
    if (parsed >= 0 && doc.node(parsed).kind == JsonNode::Kind::kObject) f.stats = std::string(doc.node(parsed).text);
  }
  return f;
}

}  // namespace

void DeltaLogReplay::AddCommit(std::string_view text, const std::string& source) {
  State& s = *state_;
  std::vector<RawFile> adds, removes;
  size_t line_number = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    line_number++;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
    if (line.empty()) continue;
    std::string error;
    const std::string where = source + " line " + std::to_string(line_number);
    if (!s.doc.Parse(line, &error)) Malformed(where, "not JSON (" + error + ")");
    const JsonDocument& doc = s.doc;
    if (doc.root().kind != JsonNode::Kind::kObject) Malformed(where, "an action that is not a JSON object");
    for (int32_t a = doc.root().first_child; a >= 0; a = doc.node(a).next_sibling) {
      const std::string name = KeyOf(doc, a);
      if (doc.node(a).kind == JsonNode::Kind::kNull) continue;
      if (name == "add") {
        adds.push_back(ParseFileAction(doc, a, s.root, where, true));
      } else if (name == "remove") {
        removes.push_back(ParseFileAction(doc, a, s.root, where, false));
      } else if (name == "metaData") {
        if (doc.node(a).kind != JsonNode::Kind::kObject) Malformed(where, "metaData is not an object");
        s.metadata = std::string(doc.node(a).text);
        s.metadata_source = where;
      } else if (name == "protocol") {
        if (doc.node(a).kind != JsonNode::Kind::kObject) Malformed(where, "protocol is not an object");
        s.protocol = std::string(doc.node(a).text);
        s.protocol_source = where;
      }
    }
  }
  for (const RawFile& f : removes) s.files.erase(FileKey(f));
  for (RawFile& f : adds) {
    if (s.files.size() >= kMaxDeltaFiles) Malformed(source, "more than " + std::to_string(kMaxDeltaFiles) + " live files");
    std::string key = FileKey(f);
    s.files[key] = std::move(f);
  }
}

void DeltaLogReplay::AddCheckpointAction(std::string_view json, const std::string& source,
                                         std::vector<std::string>* sidecars) {
  State& s = *state_;
  std::string error;
  if (!s.doc.Parse(json, &error) || s.doc.root().kind != JsonNode::Kind::kObject) {
    Malformed(source, "an action that is not a JSON object");
  }
  const JsonDocument& doc = s.doc;
  for (int32_t a = doc.root().first_child; a >= 0; a = doc.node(a).next_sibling) {
    const std::string name = KeyOf(doc, a);
    if (doc.node(a).kind == JsonNode::Kind::kNull) continue;
    if (name == "add") {
      RawFile f = ParseFileAction(doc, a, s.root, source, true);
      if (s.files.size() >= kMaxDeltaFiles) Malformed(source, "more than " + std::to_string(kMaxDeltaFiles) + " live files");
      std::string key = FileKey(f);
      s.files[key] = std::move(f);
    } else if (name == "metaData") {
      s.metadata = std::string(doc.node(a).text);
      s.metadata_source = source;
    } else if (name == "protocol") {
      s.protocol = std::string(doc.node(a).text);
      s.protocol_source = source;
    } else if (name == "sidecar" && sidecars) {
      const std::string path = StringOf(doc, Member(doc, a, "path"));
      if (path.empty()) Malformed(source, "a sidecar action without a path");
      sidecars->push_back(path);
    }
  }
}

LakeSnapshot DeltaLogReplay::Finish(int64_t version, int64_t timestamp_ms) {
  State& s = *state_;
  const std::string table = "Delta table '" + PathForDisplay(s.root) + "' version " + std::to_string(version);
  if (s.protocol.empty()) throw ParquetError(table + " has no protocol action in its log");
  if (s.metadata.empty()) throw ParquetError(table + " has no metaData action in its log");
  JsonDocument doc;
  std::string error;
  // Protocol.
  if (!doc.Parse(s.protocol, &error)) Malformed(s.protocol_source, "protocol: " + error);
  int64_t reader_version = 0;
  if (!IntOf(doc, Member(doc, 0, "minReaderVersion"), &reader_version)) Malformed(s.protocol_source, "protocol without minReaderVersion");
  if (reader_version < 1 || reader_version > 3) {
    throw ParquetError(table + " needs Delta reader version " + std::to_string(reader_version) +
                       ": this reader supports versions 1 to 3");
  }
  if (reader_version == 3) {
    const int32_t features = Member(doc, 0, "readerFeatures");
    if (features >= 0 && doc.node(features).kind == JsonNode::Kind::kArray) {
      for (int32_t f = doc.node(features).first_child; f >= 0; f = doc.node(f).next_sibling) {
        const std::string feature = StringOf(doc, f);
        if (!IsSupportedReaderFeature(feature)) {
          throw ParquetError(table + " needs the Delta reader feature '" + feature +
                             "' (reader version 3), which this reader does not support");
        }
      }
    }
  }
  // Metadata.
  if (!doc.Parse(s.metadata, &error)) Malformed(s.metadata_source, "metaData: " + error);
  const int32_t format = Member(doc, 0, "format");
  const std::string provider = StringOf(doc, Member(doc, format, "provider"));
  if (!provider.empty() && provider != "parquet") throw ParquetError(table + " stores its data as '" + provider + "', not parquet");
  const int32_t configuration = Member(doc, 0, "configuration");
  std::string mapping_mode = StringOf(doc, Member(doc, configuration, "delta.columnMapping.mode"));
  const std::string schema_text = StringOf(doc, Member(doc, 0, "schemaString"));
  if (schema_text.empty()) Malformed(s.metadata_source, "metaData without schemaString");
  LakeSnapshot snapshot;
  snapshot.format = "delta";
  snapshot.root = s.root;
  snapshot.version = version;
  snapshot.timestamp_ms = timestamp_ms;
  try {
    snapshot.columns = ParseDeltaSchema(schema_text, mapping_mode, &snapshot.nested_field_names);
  } catch (const ParquetError& e) {
    throw ParquetError(table + ": " + e.what());
  }
  const int32_t partitions = Member(doc, 0, "partitionColumns");
  if (partitions >= 0 && doc.node(partitions).kind == JsonNode::Kind::kArray) {
    for (int32_t p = doc.node(partitions).first_child; p >= 0; p = doc.node(p).next_sibling) {
      const std::string name = StringOf(doc, p);
      int found = -1;
      for (size_t c = 0; c < snapshot.columns.size(); c++) {
        if (snapshot.columns[c].name == name) found = static_cast<int>(c);
      }
      if (found < 0) throw ParquetError(table + ": partition column '" + name + "' is not in the schema");
      snapshot.partition_columns.push_back(found);
    }
  }
  // Files.
  snapshot.files.reserve(s.files.size());
  for (auto& entry : s.files) {
    RawFile& raw = entry.second;
    const std::string source = table + " file '" + raw.path + "'";
    if (!InsideRoot(raw.path, s.root) && !s.options.allow_external_paths) {
      throw ParquetError(table + " names data file '" + PathForDisplay(raw.path) +
                         "' outside the table's directory: pass allow_external_paths=1 to read it");
    }
    LakeDataFile file;
    file.path = raw.path;
    file.size = raw.size;
    for (int p : snapshot.partition_columns) {
      const LakeColumn& column = snapshot.columns[static_cast<size_t>(p)];
      std::optional<std::string> text;
      for (const auto& [key, value] : raw.partition_values) {
        if (key == column.physical_name || (key == column.name && column.physical_name == column.name)) text = value;
      }
      file.partition_values.push_back(PartitionValue(text, column, source));
    }
    file.stats = ParseStats(raw.stats, snapshot.columns, raw.dv.has_value(), &file.record_count);
    if (raw.dv && raw.dv->storage_type == 'p') {
      // An absolute deletion-vector path obeys the rule of data files.
      raw.dv->path_or_inline = CanonicalPath(raw.dv->path_or_inline, s.root, source);
      if (!InsideRoot(raw.dv->path_or_inline, s.root) && !s.options.allow_external_paths) {
        throw ParquetError(table + " names deletion vector '" + PathForDisplay(raw.dv->path_or_inline) +
                           "' outside the table's directory: pass allow_external_paths=1 to read it");
      }
    }
    if (raw.dv) file.deleted = MakeDeltaDeletedRows(*raw.dv, s.root, s.options.remote);
    snapshot.files.push_back(std::move(file));
  }
  std::sort(snapshot.files.begin(), snapshot.files.end(),
            [](const LakeDataFile& a, const LakeDataFile& b) { return a.path < b.path; });
  for (size_t i = 1; i < snapshot.files.size(); i++) {
    if (snapshot.files[i].path == snapshot.files[i - 1].path) {
      throw ParquetError(table + " has data file '" + PathForDisplay(snapshot.files[i].path) +
                         "' twice, with different deletion vectors");
    }
  }
  return snapshot;
}

// ---- reading a table ----

namespace {

struct LogListing {
  std::vector<LogFile> commits;      // by version
  std::vector<LogFile> checkpoints;  // every checkpoint file
};

// The names of _delta_log/ (those after `start_after` when it is not empty). Without
// `listed` a log that lists nothing is an error; with it, *listed says whether it listed
// anything (over S3 nothing may follow a `start_after` that names a future version).
LogListing ListLog(LakeStorage& storage, const std::string& root, const std::string& start_after = "",
                   bool* listed_any = nullptr) {
  const std::string dir = root + "/_delta_log";
  std::vector<LakeEntry> entries;
  const bool listed = start_after.empty() ? storage.List(dir, kMaxDeltaLogEntries, &entries)
                                          : storage.ListAfter(dir, start_after, kMaxDeltaLogEntries, &entries);
  if (listed_any) *listed_any = listed;
  if (!listed && listed_any) return LogListing();
  if (!listed) {
    throw ParquetError("'" + PathForDisplay(root) + "' is not a Delta table: it has no _delta_log directory");
  }
  LogListing listing;
  for (const LakeEntry& entry : entries) {
    LogFile f = ClassifyLogName(entry);
    if (f.kind != LogFile::Kind::kOther && f.version > kMaxDeltaVersion) {
      throw ParquetError("Delta table '" + PathForDisplay(root) + "' has log file '" + f.name + "' of version " +
                         std::to_string(f.version) + ", beyond the largest a reader accepts (" +
                         std::to_string(kMaxDeltaVersion) + ")");
    }
    if (f.kind == LogFile::Kind::kCommit) listing.commits.push_back(std::move(f));
    else if (f.kind != LogFile::Kind::kOther) listing.checkpoints.push_back(std::move(f));
  }
  // By version, each once (a listing may come unordered or name a key twice).
  std::sort(listing.commits.begin(), listing.commits.end(),
            [](const LogFile& a, const LogFile& b) { return a.version < b.version; });
  listing.commits.erase(std::unique(listing.commits.begin(), listing.commits.end(),
                                    [](const LogFile& a, const LogFile& b) { return a.version == b.version; }),
                        listing.commits.end());
  std::sort(listing.checkpoints.begin(), listing.checkpoints.end(),
            [](const LogFile& a, const LogFile& b) { return a.name < b.name; });
  listing.checkpoints.erase(std::unique(listing.checkpoints.begin(), listing.checkpoints.end(),
                                        [](const LogFile& a, const LogFile& b) { return a.name == b.name; }),
                            listing.checkpoints.end());
  return listing;
}

// The timestamp of a commit: its commitInfo's inCommitTimestamp or timestamp, else the
// file's modification time.
int64_t CommitTimestamp(std::string_view text, int64_t modified_ms, std::string* operation, std::string* parameters,
                        LakeHistoryEntry* counts) {
  int64_t timestamp = modified_ms;
  JsonDocument doc;
  size_t start = 0;
  bool have_ict = false;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    std::string error;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos || !doc.Parse(line, &error)) continue;
    for (int32_t a = doc.root().first_child; a >= 0; a = doc.node(a).next_sibling) {
      const std::string name = KeyOf(doc, a);
      if (name == "commitInfo") {
        int64_t t = 0;
        if (IntOf(doc, Member(doc, a, "inCommitTimestamp"), &t)) {
          timestamp = t;
          have_ict = true;
        } else if (!have_ict && IntOf(doc, Member(doc, a, "timestamp"), &t)) {
          timestamp = t;
        }
        if (operation) *operation = StringOf(doc, Member(doc, a, "operation"));
        const int32_t params = Member(doc, a, "operationParameters");
        if (parameters && params >= 0) {
          parameters->clear();
          AppendJsonMinified(doc.node(params).text, parameters);
        }
      } else if (counts && (name == "add" || name == "remove")) {
        int64_t& files = name == "add" ? counts->files_added : counts->files_removed;
        int64_t& rows = name == "add" ? counts->rows_added : counts->rows_removed;
        files = std::max<int64_t>(files, 0) + 1;
        const std::string stats = StringOf(doc, Member(doc, a, "stats"));
        JsonDocument stats_doc;
        int64_t n = 0;
        if (!stats.empty() && stats_doc.Parse(stats, &error) && IntOf(stats_doc, Member(stats_doc, 0, "numRecords"), &n)) {
          rows = std::max<int64_t>(rows, 0) + n;
        }
      }
    }
  }
  return timestamp;
}

}  // namespace

bool IsDeltaTable(LakeStorage& storage, const std::string& root) { return storage.IsDirectory(root + "/_delta_log"); }

namespace {

// The version `_delta_log/_last_checkpoint` names, -1 when it is missing, unreadable or
// malformed (the hint is only a shortcut: the listing decides).
int64_t LastCheckpointVersion(LakeStorage& storage, const std::string& root) {
  std::string text;
  try {
    text = storage.ReadWhole(root + "/_delta_log/_last_checkpoint", kMaxLastCheckpointBytes);
  } catch (const ParquetError&) {
    return -1;  // missing, unreadable, or over kMaxLastCheckpointBytes (refused before it is read)
  }
  return ParseDeltaLastCheckpoint(text).value_or(-1);
}

// The 20 digits that begin the names of version `version`'s log files: those names, and
// those of later versions, sort after them; earlier versions' before.
std::string VersionDigits(int64_t version) {
  char digits[32];
  std::snprintf(digits, sizeof(digits), "%020lld", static_cast<long long>(version));
  return digits;
}

// The newest complete checkpoint of `listing` at or before `target`: its version (-1: none)
// and files. A v2 or classic single file is preferred; a multi-part checkpoint needs all
// its parts.
int64_t ChooseCheckpoint(const LogListing& listing, int64_t target, std::vector<std::string>* files) {
  std::map<int64_t, std::vector<const LogFile*>> by_version;
  for (const LogFile& f : listing.checkpoints) {
    if (f.version <= target) by_version[f.version].push_back(&f);
  }
  for (auto it = by_version.rbegin(); it != by_version.rend(); ++it) {
    const LogFile* single = nullptr;
    std::map<int, std::map<int, const LogFile*>> parts;  // parts count -> part -> file
    for (const LogFile* f : it->second) {
      if (f->kind == LogFile::Kind::kV2Checkpoint || f->kind == LogFile::Kind::kClassicCheckpoint) {
        if (!single || f->kind == LogFile::Kind::kV2Checkpoint) single = f;
      } else {
        parts[f->parts][f->part] = f;
      }
    }
    if (single) {
      files->push_back(single->name);
      return it->first;
    }
    for (const auto& [count, found] : parts) {
      if (static_cast<int>(found.size()) == count) {
        for (const auto& part : found) files->push_back(part.second->name);
        return it->first;
      }
    }
  }
  return -1;
}

}  // namespace

std::optional<int64_t> ParseDeltaLastCheckpoint(std::string_view text) {
  if (text.size() > kMaxLastCheckpointBytes) return std::nullopt;
  JsonDocument doc;
  std::string error;
  int64_t version = -1;
  if (!doc.Parse(text, &error) || doc.root().kind != JsonNode::Kind::kObject ||
      !IntOf(doc, Member(doc, 0, "version"), &version) || version < 0 || version > kMaxDeltaVersion) {
    return std::nullopt;
  }
  return version;
}

LakeSnapshot ReadDeltaSnapshot(LakeStorage& storage, const std::string& root, const DeltaReadOptions& options) {
  // Over S3 the log is listed from the checkpoint _last_checkpoint names (one listing of
  // what follows it, plus the checkpoint): when it names one, the version read is not
  // older, and no timestamp needs every commit. Should that listing hold no complete
  // checkpoint of that version, the whole log is listed. A local listing is complete.
  int64_t hinted = -1;
  if (storage.remote() && !options.timestamp_ms) {
    hinted = LastCheckpointVersion(storage, root);
    if (options.version && *options.version < hinted) hinted = -1;
  }
  LogListing listing;
  if (hinted > 0) {
    // The listing from the hint serves when it holds a complete checkpoint at or after the
    // hinted version (at or before the version asked for): everything from there on is
    // listed. A hint naming a version without a checkpoint, a future version or one past
    // every file (an empty listing) falls back to the whole log.
    bool listed_any = false;
    listing = ListLog(storage, root, VersionDigits(hinted), &listed_any);
    std::vector<std::string> ignored;
    int64_t newest = -1;
    for (const LogFile& f : listing.commits) newest = std::max(newest, f.version);
    for (const LogFile& f : listing.checkpoints) newest = std::max(newest, f.version);
    if (!listed_any || newest < 0 || ChooseCheckpoint(listing, options.version.value_or(newest), &ignored) < hinted) {
      hinted = -1;
    }
  } else {
    hinted = -1;
  }
  if (hinted < 0) listing = ListLog(storage, root);
  const std::string shown = PathForDisplay(root);
  const std::string log_dir = root + "/_delta_log/";
  int64_t latest = -1;
  for (const LogFile& f : listing.commits) latest = std::max(latest, f.version);
  for (const LogFile& f : listing.checkpoints) latest = std::max(latest, f.version);
  if (latest < 0) throw ParquetError("Delta table '" + shown + "' has no commits in its _delta_log");
  int64_t target = latest;
  if (options.version) {
    if (*options.version < 0 || *options.version > latest) {
      throw ParquetError("Delta table '" + shown + "' has no version " + std::to_string(*options.version) +
                         " (its latest is " + std::to_string(latest) + ")");
    }
    target = *options.version;
  } else if (options.timestamp_ms) {
    // The last version committed at or before the timestamp.
    int64_t found = -1;
    for (const LogFile& f : listing.commits) {
      const std::string text = storage.ReadWhole(log_dir + f.name, kMaxDeltaCommitBytes);
      if (CommitTimestamp(text, f.modified_ms, nullptr, nullptr, nullptr) <= *options.timestamp_ms) found = f.version;
    }
    if (found < 0) throw ParquetError("Delta table '" + shown + "' has no version committed at or before that timestamp");
    target = found;
  }
  // The newest complete checkpoint at or before the target.
  std::vector<std::string> checkpoint_files;
  const int64_t checkpoint_version = ChooseCheckpoint(listing, target, &checkpoint_files);
  DeltaLogReplay replay(root, options);
  if (checkpoint_version >= 0) {
    for (const std::string& name : checkpoint_files) {
      std::vector<std::string> sidecars;
      const std::string path = log_dir + name;
      const std::string where = PathForDisplay(path);
      try {
        if (name.ends_with(".json")) {
          const std::string text = storage.ReadWhole(path, kMaxDeltaCommitBytes);
          size_t start = 0;
          size_t line = 0;
          while (start < text.size()) {
            size_t end = text.find('\n', start);
            if (end == std::string::npos) end = text.size();
            std::string_view action(text.data() + start, end - start);
            start = end + 1;
            line++;
            if (action.find_first_not_of(" \t\r") == std::string_view::npos) continue;
            replay.AddCheckpointAction(action, where + " line " + std::to_string(line), &sidecars);
          }
        } else {
          ReadParquetActions(storage, path, where, &replay, &sidecars);
        }
        for (const std::string& sidecar : sidecars) {
          if (sidecar.find('/') != std::string::npos || sidecar.find('\\') != std::string::npos || sidecar == ".." ) {
            throw ParquetError("sidecar path '" + sidecar + "' is not a file name in _delta_log/_sidecars");
          }
          const std::string sidecar_path = log_dir + "_sidecars/" + sidecar;
          ReadParquetActions(storage, sidecar_path, PathForDisplay(sidecar_path), &replay, nullptr);
        }
      } catch (const ParquetError& e) {
        const std::string message = e.what();
        if (message.rfind("Delta", 0) == 0) throw;
        throw ParquetError("Delta checkpoint " + where + ": " + message);
      }
    }
  }
  // The commits after the checkpoint, contiguous up to the target.
  int64_t expected = checkpoint_version + 1;
  int64_t timestamp_ms = 0;
  for (const LogFile& f : listing.commits) {
    if (f.version <= checkpoint_version || f.version > target) continue;
    if (f.version != expected) {
      throw ParquetError("Delta table '" + shown + "' log is missing version " + std::to_string(expected) +
                         " (the next commit found is " + std::to_string(f.version) + ")");
    }
    const std::string path = log_dir + f.name;
    const std::string text = storage.ReadWhole(path, kMaxDeltaCommitBytes);
    replay.AddCommit(text, PathForDisplay(path));
    timestamp_ms = CommitTimestamp(text, f.modified_ms, nullptr, nullptr, nullptr);
    expected++;
  }
  if (expected <= target) {
    throw ParquetError("Delta table '" + shown + "' log is missing version " + std::to_string(expected) +
                       (checkpoint_version < 0 ? " (and has no checkpoint to start from)" : ""));
  }
  return replay.Finish(target, timestamp_ms);
}

std::vector<LakeHistoryEntry> ReadDeltaHistory(LakeStorage& storage, const std::string& root) {
  const LogListing listing = ListLog(storage, root);
  std::vector<LakeHistoryEntry> history;
  int64_t previous = -1;
  for (const LogFile& f : listing.commits) {
    LakeHistoryEntry entry;
    entry.version = entry.snapshot_id = f.version;
    entry.parent_id = previous;
    const std::string text = storage.ReadWhole(root + "/_delta_log/" + f.name, kMaxDeltaCommitBytes);
    entry.timestamp_ms = CommitTimestamp(text, f.modified_ms, &entry.operation, &entry.parameters_json, &entry);
    if (entry.parameters_json.empty()) entry.parameters_json = "{}";
    history.push_back(std::move(entry));
    previous = f.version;
  }
  return history;
}

}  // namespace parquet::lake

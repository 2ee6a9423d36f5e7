// Apache Iceberg table metadata (iceberg_metadata.h): metadata.json parsing, schemas,
// partition transforms, time travel, bounds and the resolution of recorded paths.
#include "format/lake/iceberg_metadata.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>

#include "format/common/error.h"
#include "format/io/random_access_file.h"
#include "format/lake/json_view.h"
#include "format/platform/system.h"
#include "format/values/json_document.h"

namespace parquet::lake {

namespace {

[[noreturn]] void FailIcebergMetadata(const std::string& file, const std::string& what) {
  throw ParquetError("Iceberg metadata '" + file + "': " + what);
}

const IcebergField* FindFieldIn(const std::vector<IcebergField>& fields, int32_t id) {
  for (const IcebergField& f : fields) {
    if (f.id == id) return &f;
    if (const IcebergField* nested = FindFieldIn(f.children, id)) return nested;
  }
  return nullptr;
}

struct MetadataParser {
  const std::string& file;

  IcebergField ParseType(const JsonView& type, IcebergField field, int depth) {
    if (depth > 64) FailIcebergMetadata(file, "schema nested too deep");
    if (type.is_string()) {
      field.type = type.String("type");
      return field;
    }
    if (!type.is_object()) FailIcebergMetadata(file, "field '" + field.name + "' has an invalid type");
    field.type = type.Get("type").String("type");
    if (field.type == "struct") {
      const JsonView fields = type.Get("fields");
      if (!fields.is_array()) FailIcebergMetadata(file, "struct without fields");
      for (JsonView f = fields.First(); f.present(); f = f.Next()) field.children.push_back(ParseField(f, depth + 1));
    } else if (field.type == "list") {
      IcebergField element;
      element.id = static_cast<int32_t>(type.Get("element-id").Int("element-id"));
      element.name = "element";
      element.required = type.Get("element-required").is_bool() && type.Get("element-required").Bool("element-required");
      field.children.push_back(ParseType(type.Get("element"), std::move(element), depth + 1));
    } else if (field.type == "map") {
      IcebergField key;
      key.id = static_cast<int32_t>(type.Get("key-id").Int("key-id"));
      key.name = "key";
      key.required = true;
      field.children.push_back(ParseType(type.Get("key"), std::move(key), depth + 1));
      IcebergField value;
      value.id = static_cast<int32_t>(type.Get("value-id").Int("value-id"));
      value.name = "value";
      value.required = type.Get("value-required").is_bool() && type.Get("value-required").Bool("value-required");
      field.children.push_back(ParseType(type.Get("value"), std::move(value), depth + 1));
    } else {
      FailIcebergMetadata(file, "unknown nested type '" + field.type + "'");
    }
    return field;
  }

  IcebergField ParseField(const JsonView& f, int depth) {
    if (!f.is_object()) FailIcebergMetadata(file, "a schema field is not an object");
    IcebergField field;
    const int64_t id = f.Get("id").Int("id");
    if (id < INT32_MIN || id > INT32_MAX) FailIcebergMetadata(file, "field id out of range");
    field.id = static_cast<int32_t>(id);
    field.name = f.Get("name").String("name");
    field.required = f.Get("required").is_bool() && f.Get("required").Bool("required");
    // Kept as JSON text: a string's node text lies between its quotes, so they are put back
    // (escapes stay as written), else "12345.00" would read back as the number 12345.00;
    // literals are spelled out (their nodes carry no text).
    auto json_text = [](const JsonView& v) -> std::string {
      if (v.is_string()) return "\"" + std::string(v.Text()) + "\"";
      if (v.is_bool()) return v.Bool("initial-default") ? "true" : "false";
      if (v.is_null()) return "null";
      return std::string(v.Text());
    };
    const JsonView initial = f.Get("initial-default");
    if (initial.present()) field.initial_default = json_text(initial);
    const JsonView write = f.Get("write-default");
    if (write.present()) field.write_default = json_text(write);
    return ParseType(f.Get("type"), std::move(field), depth);
  }

  IcebergSchema ParseSchema(const JsonView& s) {
    if (!s.is_object()) FailIcebergMetadata(file, "a schema is not an object");
    IcebergSchema schema;
    schema.schema_id = static_cast<int32_t>(s.IntOr("schema-id", 0));
    const JsonView fields = s.Get("fields");
    if (!fields.is_array()) FailIcebergMetadata(file, "a schema has no fields");
    for (JsonView f = fields.First(); f.present(); f = f.Next()) schema.fields.push_back(ParseField(f, 0));
    const JsonView ids = s.Get("identifier-field-ids");
    for (JsonView i = ids.First(); i.present(); i = i.Next()) {
      schema.identifier_field_ids.push_back(static_cast<int32_t>(i.Int("identifier-field-ids")));
    }
    return schema;
  }

  std::vector<IcebergPartitionField> ParseSpecFields(const JsonView& fields, int32_t* next_field_id) {
    std::vector<IcebergPartitionField> out;
    if (!fields.is_array()) FailIcebergMetadata(file, "a partition spec has no fields");
    for (JsonView f = fields.First(); f.present(); f = f.Next()) {
      IcebergPartitionField field;
      field.source_id = static_cast<int32_t>(f.Get("source-id").Int("source-id"));
      // v1 specs may omit field-id: ids are assigned from 1000 in order.
      field.field_id = static_cast<int32_t>(f.IntOr("field-id", *next_field_id));
      *next_field_id = field.field_id + 1;
      field.name = f.Get("name").String("name");
      field.transform = IcebergTransform::Parse(f.Get("transform").String("transform"));
      out.push_back(std::move(field));
    }
    return out;
  }

  std::vector<IcebergNameMapping> ParseMapping(const JsonView& list, int depth) {
    if (depth > 64) FailIcebergMetadata(file, "name mapping nested too deep");
    std::vector<IcebergNameMapping> out;
    if (!list.is_array()) FailIcebergMetadata(file, "name mapping is not a list");
    for (JsonView m = list.First(); m.present(); m = m.Next()) {
      IcebergNameMapping mapping;
      const JsonView id = m.Get("field-id");
      if (id.is_number()) mapping.field_id = static_cast<int32_t>(id.Int("field-id"));
      for (JsonView n = m.Get("names").First(); n.present(); n = n.Next()) mapping.names.push_back(n.String("names"));
      const JsonView nested = m.Get("fields");
      if (nested.is_array()) mapping.fields = ParseMapping(nested, depth + 1);
      out.push_back(std::move(mapping));
    }
    return out;
  }
};

std::string StripFileScheme(std::string path) {
  if (path.rfind("file://", 0) == 0) {
    path.erase(0, 7);
  } else if (path.rfind("file:", 0) == 0) {
    path.erase(0, 5);
  }
  while (path.rfind("./", 0) == 0) path.erase(0, 2);
  return path;
}

std::string TrimSlashes(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

bool IsUnder(const std::string& path, const std::string& dir) {
  if (dir.empty()) return false;
  return path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 && path[dir.size()] == '/';
}

bool IsMetadataFileName(std::string_view name) {
  return name.ends_with(".metadata.json") || name.ends_with(".metadata.json.gz");
}

// The version of a metadata file name: "v12.metadata.json", "v12.gz.metadata.json",
// "00012-<uuid>.metadata.json"; -1 when it has none.
int64_t MetadataVersion(std::string_view name) {
  size_t i = 0;
  if (!name.empty() && name[0] == 'v') i = 1;
  const size_t start = i;
  int64_t v = 0;
  while (i < name.size() && name[i] >= '0' && name[i] <= '9' && i - start < 18) v = v * 10 + (name[i++] - '0');
  if (i == start || i >= name.size()) return -1;
  if (start == 1 && name[i] != '.') return -1;
  if (start == 0 && name[i] != '-') return -1;
  return v;
}

class LocalFileSystem final : public IcebergFileSystem {
 public:
  std::string Read(const std::string& path, size_t max_bytes) override { return ReadSmallFile(path, max_bytes); }
  bool Exists(const std::string& path) override {
    platform::FileStatus status;
    return platform::PathStatus(path, true, &status).ok() && status.type == platform::FileType::kRegular;
  }
  std::vector<std::string> List(const std::string& directory) override {
    std::vector<std::string> names;
    if (!platform::ListDirectory(directory, &names).ok()) names.clear();
    return names;
  }
};

}  // namespace

// ---------------------------------------------------------------------------------------

const IcebergField* IcebergSchema::FindField(int32_t id) const { return FindFieldIn(fields, id); }

const IcebergField* IcebergSchema::FindByName(std::string_view name) const {
  const std::vector<IcebergField>* level = &fields;
  const IcebergField* found = nullptr;
  while (true) {
    const size_t dot = name.find('.');
    const std::string_view part = name.substr(0, dot);
    found = nullptr;
    for (const IcebergField& f : *level) {
      if (f.name == part) {
        found = &f;
        break;
      }
    }
    if (found == nullptr || dot == std::string_view::npos) return found;
    level = &found->children;
    name.remove_prefix(dot + 1);
  }
}

IcebergPrimitive ParseIcebergPrimitive(std::string_view type) {
  IcebergPrimitive p;
  auto number = [](std::string_view s, int32_t* out) {
    int64_t v = 0;
    size_t i = 0;
    while (i < s.size() && s[i] == ' ') ++i;
    const size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9' && v < (1 << 30)) v = v * 10 + (s[i++] - '0');
    *out = static_cast<int32_t>(v);
    return i > start;
  };
  if (type.rfind("decimal(", 0) == 0 && type.back() == ')') {
    p.name = "decimal";
    const std::string_view inner = type.substr(8, type.size() - 9);
    const size_t comma = inner.find(',');
    if (comma == std::string_view::npos || !number(inner.substr(0, comma), &p.precision) ||
        !number(inner.substr(comma + 1), &p.scale)) {
      throw ParquetError("Iceberg: invalid type '" + std::string(type) + "'");
    }
    return p;
  }
  if (type.rfind("fixed[", 0) == 0 && type.back() == ']') {
    p.name = "fixed";
    if (!number(type.substr(6, type.size() - 7), &p.length)) throw ParquetError("Iceberg: invalid type '" + std::string(type) + "'");
    return p;
  }
  p.name = std::string(type);
  return p;
}

IcebergTransform IcebergTransform::Parse(std::string_view text) {
  IcebergTransform t;
  t.text = std::string(text);
  auto parameter = [&](std::string_view prefix) {
    if (text.rfind(prefix, 0) != 0 || text.back() != ']') return false;
    const std::string_view inner = text.substr(prefix.size(), text.size() - prefix.size() - 1);
    int64_t v = 0;
    if (inner.empty() || inner.size() > 9) return false;
    for (char c : inner) {
      if (c < '0' || c > '9') return false;
      v = v * 10 + (c - '0');
    }
    if (v <= 0) return false;
    t.parameter = static_cast<int32_t>(v);
    return true;
  };
  if (text == "identity") {
    t.kind = Kind::kIdentity;
  } else if (text == "year") {
    t.kind = Kind::kYear;
  } else if (text == "month") {
    t.kind = Kind::kMonth;
  } else if (text == "day") {
    t.kind = Kind::kDay;
  } else if (text == "hour") {
    t.kind = Kind::kHour;
  } else if (text == "void" || text == "alwaysNull") {
    t.kind = Kind::kVoid;
  } else if (parameter("bucket[")) {
    t.kind = Kind::kBucket;
  } else if (parameter("truncate[")) {
    t.kind = Kind::kTruncate;
  } else {
    t.kind = Kind::kUnknown;
  }
  return t;
}

bool IcebergPartitionSpec::unpartitioned() const {
  for (const IcebergPartitionField& f : fields) {
    if (f.transform.kind != IcebergTransform::Kind::kVoid) return false;
  }
  return true;
}

int32_t IcebergMurmur3(const uint8_t* data, size_t size) {
  const uint32_t c1 = 0xcc9e2d51, c2 = 0x1b873593;
  uint32_t h = 0;
  const size_t blocks = size / 4;
  for (size_t i = 0; i < blocks; ++i) {
    uint32_t k = uint32_t{data[i * 4]} | (uint32_t{data[i * 4 + 1]} << 8) | (uint32_t{data[i * 4 + 2]} << 16) |
                 (uint32_t{data[i * 4 + 3]} << 24);
    k *= c1;
    k = (k << 15) | (k >> 17);
    k *= c2;
    h ^= k;
    h = (h << 13) | (h >> 19);
    h = h * 5 + 0xe6546b64;
  }
  const uint8_t* tail = data + blocks * 4;
  uint32_t k = 0;
  switch (size & 3) {
    case 3: k ^= uint32_t{tail[2]} << 16; [[fallthrough]];
    case 2: k ^= uint32_t{tail[1]} << 8; [[fallthrough]];
    case 1:
      k ^= tail[0];
      k *= c1;
      k = (k << 15) | (k >> 17);
      k *= c2;
      h ^= k;
  }
  h ^= static_cast<uint32_t>(size);
  h ^= h >> 16;
  h *= 0x85ebca6b;
  h ^= h >> 13;
  h *= 0xc2b2ae35;
  h ^= h >> 16;
  return static_cast<int32_t>(h);
}

int32_t IcebergHashLong(int64_t value) {
  uint8_t bytes[8];
  const uint64_t u = static_cast<uint64_t>(value);
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<uint8_t>(u >> (8 * i));
  return IcebergMurmur3(bytes, 8);
}

int32_t IcebergHashBytes(std::string_view bytes) {
  return IcebergMurmur3(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}

int32_t IcebergHashDecimal(std::string_view unscaled_be) { return IcebergHashBytes(unscaled_be); }

int32_t IcebergBucket(int32_t hash, int32_t n) {
  if (n <= 0) throw ParquetError("Iceberg: bucket count must be positive");
  return static_cast<int32_t>((static_cast<uint32_t>(hash) & 0x7fffffffu) % static_cast<uint32_t>(n));
}

namespace {
int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
// Civil date from days since 1970-01-01 (proleptic Gregorian).
void CivilFromDays(int64_t z, int64_t* y, unsigned* m, unsigned* d) {
  z += 719468;
  const int64_t era = FloorDiv(z, 146097);
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t year = static_cast<int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  *d = doy - (153 * mp + 2) / 5 + 1;
  *m = mp < 10 ? mp + 3 : mp - 9;
  *y = year + (*m <= 2 ? 1 : 0);
}
}  // namespace

int32_t IcebergYearFromDays(int32_t days) {
  int64_t y;
  unsigned m, d;
  CivilFromDays(days, &y, &m, &d);
  return static_cast<int32_t>(y - 1970);
}

int32_t IcebergMonthFromDays(int32_t days) {
  int64_t y;
  unsigned m, d;
  CivilFromDays(days, &y, &m, &d);
  return static_cast<int32_t>((y - 1970) * 12 + static_cast<int64_t>(m) - 1);
}

int64_t IcebergDaysFromTimestamp(int64_t value, bool nanos) {
  return FloorDiv(value, nanos ? int64_t{86400} * 1000000000 : int64_t{86400} * 1000000);
}

int64_t IcebergHoursFromTimestamp(int64_t value, bool nanos) {
  return FloorDiv(value, nanos ? int64_t{3600} * 1000000000 : int64_t{3600} * 1000000);
}

int64_t IcebergTruncateInteger(int64_t value, int32_t width) {
  if (width <= 0) throw ParquetError("Iceberg: truncate width must be positive");
  const int64_t w = width;
  return value - (((value % w) + w) % w);
}

std::string IcebergTruncateString(std::string_view value, int32_t width) {
  size_t i = 0;
  int32_t points = 0;
  while (i < value.size() && points < width) {
    ++i;
    while (i < value.size() && (static_cast<uint8_t>(value[i]) & 0xc0) == 0x80) ++i;
    ++points;
  }
  return std::string(value.substr(0, i));
}

int64_t IcebergDaysFromCivil(int64_t year, unsigned month, unsigned day) {
  // Years counted from March, so that the leap day ends a year; eras of 400 years.
  const int64_t y = year - (month <= 2 ? 1 : 0);
  const int64_t era = FloorDiv(y, 400);
  const int64_t year_of_era = y - era * 400;
  const int64_t shifted_month = month > 2 ? month - 3 : month + 9;
  const int64_t day_of_year = (153 * shifted_month + 2) / 5 + static_cast<int64_t>(day) - 1;
  const int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + day_of_era - 719468;
}

__extension__ typedef __int128 WideInt;  // GCC/Clang extension: ranges checked before narrowing

bool IcebergTransformRange(const IcebergTransform& transform, bool date_source, bool nanos, int64_t partition,
                           int64_t* lo, int64_t* hi) {
  using Kind = IcebergTransform::Kind;
  const WideInt per_day = nanos ? WideInt{86400} * 1000000000 : WideInt{86400} * 1000000;
  const WideInt per_hour = per_day / 24;
  // A partition value is an int (32 bits) for every transform handled here but truncate.
  if (transform.kind != Kind::kTruncate && (partition < INT32_MIN || partition > INT32_MAX)) return false;
  WideInt first = 0, last = 0;  // inclusive
  auto day_range = [&](int64_t first_day, int64_t last_day) {
    if (date_source) {
      first = first_day;
      last = last_day;
    } else {
      first = first_day * per_day;
      last = (last_day + 1) * per_day - 1;
    }
  };
  switch (transform.kind) {
    case Kind::kYear:
      day_range(IcebergDaysFromCivil(1970 + partition, 1, 1), IcebergDaysFromCivil(1971 + partition, 1, 1) - 1);
      break;
    case Kind::kMonth: {
      const int64_t year = 1970 + FloorDiv(partition, 12);
      const unsigned month = static_cast<unsigned>(partition - FloorDiv(partition, 12) * 12) + 1;
      const int64_t next = month == 12 ? IcebergDaysFromCivil(year + 1, 1, 1) : IcebergDaysFromCivil(year, month + 1, 1);
      day_range(IcebergDaysFromCivil(year, month, 1), next - 1);
      break;
    }
    case Kind::kDay: day_range(partition, partition); break;
    case Kind::kHour:
      if (date_source) return false;
      first = partition * per_hour;
      last = (partition + 1) * per_hour - 1;
      break;
    case Kind::kTruncate:
      if (transform.parameter <= 0) return false;
      first = partition;
      last = WideInt{partition} + transform.parameter - 1;
      break;
    default: return false;
  }
  if (first < INT64_MIN || last > INT64_MAX || first > last) return false;
  *lo = static_cast<int64_t>(first);
  *hi = static_cast<int64_t>(last);
  return true;
}

std::optional<std::string> IcebergPrefixUpperBound(std::string_view prefix) {
  size_t n = prefix.size();
  while (n > 0 && static_cast<uint8_t>(prefix[n - 1]) == 0xff) n--;
  if (n == 0) return std::nullopt;
  std::string out(prefix.substr(0, n));
  out.back() = static_cast<char>(static_cast<uint8_t>(out.back()) + 1);
  return out;
}

// ---------------------------------------------------------------------------------------

const IcebergSchema& IcebergTableMetadata::current_schema() const {
  const IcebergSchema* s = FindSchema(current_schema_id);
  if (s == nullptr) throw ParquetError("Iceberg metadata: no schema with the current schema id");
  return *s;
}

const IcebergSchema* IcebergTableMetadata::FindSchema(int32_t id) const {
  for (const IcebergSchema& s : schemas) {
    if (s.schema_id == id) return &s;
  }
  return nullptr;
}

const IcebergPartitionSpec* IcebergTableMetadata::FindSpec(int32_t id) const {
  for (const IcebergPartitionSpec& s : specs) {
    if (s.spec_id == id) return &s;
  }
  return nullptr;
}

const IcebergSnapshot* IcebergTableMetadata::FindSnapshot(int64_t id) const {
  for (const IcebergSnapshot& s : snapshots) {
    if (s.snapshot_id == id) return &s;
  }
  return nullptr;
}

const IcebergSnapshot* IcebergTableMetadata::CurrentSnapshot() const {
  if (!current_snapshot_id) return nullptr;
  return FindSnapshot(*current_snapshot_id);
}

IcebergTableMetadata ParseIcebergMetadata(std::string_view json, const std::string& file) {
  JsonDocument doc;
  std::string error;
  if (!doc.Parse(json, &error)) FailIcebergMetadata(file, "not JSON: " + error);
  const JsonView root = JsonView::Root(doc);
  if (!root.is_object()) FailIcebergMetadata(file, "not a JSON object");
  MetadataParser parser{file};
  IcebergTableMetadata m;
  try {
    const int64_t version = root.Get("format-version").Int("format-version");
    if (version < 1 || version > 3) {
      FailIcebergMetadata(file, "format-version " + std::to_string(version) + " is not supported (1 to 3 are)");
    }
    m.format_version = static_cast<int32_t>(version);
    m.table_uuid = root.StringOr("table-uuid", "");
    m.location = root.StringOr("location", "");
    m.last_sequence_number = root.IntOr("last-sequence-number", 0);
    m.last_updated_ms = root.IntOr("last-updated-ms", 0);

    const JsonView schemas = root.Get("schemas");
    if (schemas.is_array()) {
      for (JsonView s = schemas.First(); s.present(); s = s.Next()) m.schemas.push_back(parser.ParseSchema(s));
      m.current_schema_id = static_cast<int32_t>(root.IntOr("current-schema-id", m.schemas.empty() ? 0 : m.schemas.front().schema_id));
    } else {
      const JsonView schema = root.Get("schema");
      if (!schema.is_object()) FailIcebergMetadata(file, "no schema");
      m.schemas.push_back(parser.ParseSchema(schema));
      m.current_schema_id = m.schemas.back().schema_id;
    }
    if (m.FindSchema(m.current_schema_id) == nullptr) FailIcebergMetadata(file, "current-schema-id names no schema");

    const JsonView specs = root.Get("partition-specs");
    if (specs.is_array()) {
      for (JsonView s = specs.First(); s.present(); s = s.Next()) {
        IcebergPartitionSpec spec;
        spec.spec_id = static_cast<int32_t>(s.IntOr("spec-id", 0));
        int32_t next_id = 1000;
        spec.fields = parser.ParseSpecFields(s.Get("fields"), &next_id);
        m.specs.push_back(std::move(spec));
      }
      m.default_spec_id = static_cast<int32_t>(root.IntOr("default-spec-id", 0));
    } else {
      IcebergPartitionSpec spec;
      int32_t next_id = 1000;
      const JsonView v1 = root.Get("partition-spec");
      if (v1.is_array()) spec.fields = parser.ParseSpecFields(v1, &next_id);
      m.specs.push_back(std::move(spec));
    }

    const JsonView properties = root.Get("properties");
    for (JsonView p = properties.First(); p.present(); p = p.Next()) {
      if (p.is_string()) m.properties[p.Key()] = p.String("properties");
    }

    const JsonView current = root.Get("current-snapshot-id");
    if (current.is_number()) {
      const int64_t id = current.Id("current-snapshot-id");
      if (id != -1) m.current_snapshot_id = id;
    }
    const JsonView snapshots = root.Get("snapshots");
    for (JsonView s = snapshots.First(); s.present(); s = s.Next()) {
      IcebergSnapshot snap;
      snap.snapshot_id = s.Get("snapshot-id").Id("snapshot-id");
      const JsonView parent = s.Get("parent-snapshot-id");
      if (parent.is_number()) snap.parent_snapshot_id = parent.Id("parent-snapshot-id");
      snap.sequence_number = s.IntOr("sequence-number", 0);
      snap.timestamp_ms = s.Get("timestamp-ms").Int("timestamp-ms");
      snap.manifest_list = s.StringOr("manifest-list", "");
      for (JsonView f = s.Get("manifests").First(); f.present(); f = f.Next()) snap.manifests.push_back(f.String("manifests"));
      if (snap.manifest_list.empty() && snap.manifests.empty() && m.format_version >= 2) {
        FailIcebergMetadata(file, "snapshot " + std::to_string(snap.snapshot_id) + " has no manifest-list");
      }
      for (JsonView e = s.Get("summary").First(); e.present(); e = e.Next()) {
        if (!e.is_string()) continue;
        snap.summary.emplace_back(e.Key(), e.String("summary"));
        if (snap.summary.back().first == "operation") snap.operation = snap.summary.back().second;
      }
      const JsonView schema_id = s.Get("schema-id");
      if (schema_id.is_number()) snap.schema_id = static_cast<int32_t>(schema_id.Int("schema-id"));
      m.snapshots.push_back(std::move(snap));
    }
    for (JsonView r = root.Get("refs").First(); r.present(); r = r.Next()) {
      IcebergRef ref;
      ref.name = r.Key();
      ref.snapshot_id = r.Get("snapshot-id").Id("snapshot-id");
      ref.type = r.StringOr("type", "branch");
      m.refs.push_back(std::move(ref));
    }
    for (JsonView e = root.Get("snapshot-log").First(); e.present(); e = e.Next()) {
      m.snapshot_log.emplace_back(e.Get("timestamp-ms").Int("timestamp-ms"), e.Get("snapshot-id").Id("snapshot-id"));
    }
    auto mapping = m.properties.find("schema.name-mapping.default");
    if (mapping != m.properties.end()) {
      JsonDocument mapping_doc;
      if (!mapping_doc.Parse(mapping->second, &error)) FailIcebergMetadata(file, "schema.name-mapping.default is not JSON: " + error);
      m.name_mapping = parser.ParseMapping(JsonView::Root(mapping_doc), 0);
      m.has_name_mapping = true;
    }
  } catch (const ParquetError& e) {
    const std::string message = e.what();
    if (message.rfind("Iceberg metadata", 0) == 0) throw;
    FailIcebergMetadata(file, message);
  }
  if (m.current_snapshot_id && m.FindSnapshot(*m.current_snapshot_id) == nullptr) {
    FailIcebergMetadata(file, "current-snapshot-id " + std::to_string(*m.current_snapshot_id) + " names no snapshot");
  }
  return m;
}

std::string MaybeGunzipMetadata(std::string data, const std::string& file) {
  if (data.size() < 2 || static_cast<uint8_t>(data[0]) != 0x1f || static_cast<uint8_t>(data[1]) != 0x8b) return data;
  constexpr size_t kMax = size_t{256} << 20;
  z_stream stream;
  std::memset(&stream, 0, sizeof(stream));
  if (inflateInit2(&stream, 16 + 15) != Z_OK) FailIcebergMetadata(file, "cannot start gzip decompression");
  std::string out;
  out.resize(std::min(kMax, std::max<size_t>(4096, data.size() * 8)));
  stream.next_in = reinterpret_cast<Bytef*>(data.data());
  stream.avail_in = static_cast<uInt>(data.size());
  size_t produced = 0;
  while (true) {
    if (produced == out.size()) {
      if (out.size() >= kMax) {
        inflateEnd(&stream);
        FailIcebergMetadata(file, "gzip metadata decompresses to more than 256 MiB");
      }
      out.resize(std::min(kMax, out.size() * 2));
    }
    stream.next_out = reinterpret_cast<Bytef*>(out.data() + produced);
    stream.avail_out = static_cast<uInt>(out.size() - produced);
    const int result = inflate(&stream, Z_NO_FLUSH);
    produced = out.size() - stream.avail_out;
    if (result == Z_STREAM_END) break;
    if ((result != Z_OK && result != Z_BUF_ERROR) || (stream.avail_in == 0 && stream.avail_out != 0)) {
      inflateEnd(&stream);
      FailIcebergMetadata(file, "corrupt or truncated gzip data");
    }
  }
  inflateEnd(&stream);
  out.resize(produced);
  return out;
}

const IcebergSnapshot* SelectIcebergSnapshot(const IcebergTableMetadata& m, const IcebergSnapshotSelector& selector) {
  const int selectors = (selector.snapshot_id ? 1 : 0) + (selector.timestamp_ms ? 1 : 0) + (selector.ref ? 1 : 0);
  if (selectors > 1) throw ParquetError("Iceberg: give at most one of snapshot_id, timestamp and ref");
  if (selector.snapshot_id) {
    const IcebergSnapshot* s = m.FindSnapshot(*selector.snapshot_id);
    if (s == nullptr) throw ParquetError("Iceberg: the table has no snapshot " + std::to_string(*selector.snapshot_id));
    return s;
  }
  if (selector.ref) {
    for (const IcebergRef& r : m.refs) {
      if (r.name == *selector.ref) {
        const IcebergSnapshot* s = m.FindSnapshot(r.snapshot_id);
        if (s == nullptr) throw ParquetError("Iceberg: ref '" + r.name + "' names a snapshot the table does not have");
        return s;
      }
    }
    if (*selector.ref == "main" && m.refs.empty()) return m.CurrentSnapshot();
    throw ParquetError("Iceberg: the table has no branch or tag '" + *selector.ref + "'");
  }
  if (selector.timestamp_ms) {
    const int64_t t = *selector.timestamp_ms;
    std::optional<int64_t> found;
    if (!m.snapshot_log.empty()) {
      int64_t best_time = INT64_MIN;
      for (const auto& entry : m.snapshot_log) {
        if (entry.first <= t && entry.first >= best_time) {
          best_time = entry.first;
          found = entry.second;
        }
      }
    } else {
      int64_t best_time = INT64_MIN;
      for (const IcebergSnapshot& s : m.snapshots) {
        if (s.timestamp_ms <= t && s.timestamp_ms >= best_time) {
          best_time = s.timestamp_ms;
          found = s.snapshot_id;
        }
      }
    }
    if (!found) throw ParquetError("Iceberg: the table has no snapshot at or before timestamp " + std::to_string(t) + " ms");
    const IcebergSnapshot* s = m.FindSnapshot(*found);
    if (s == nullptr) throw ParquetError("Iceberg: the snapshot current at that time (" + std::to_string(*found) + ") has expired");
    return s;
  }
  return m.CurrentSnapshot();
}

const IcebergSchema& IcebergSchemaForSnapshot(const IcebergTableMetadata& m, const IcebergSnapshot* snapshot,
                                              bool time_travel) {
  if (time_travel && snapshot != nullptr && snapshot->schema_id) {
    if (const IcebergSchema* s = m.FindSchema(*snapshot->schema_id)) return *s;
  }
  return m.current_schema();
}

// ---------------------------------------------------------------------------------------

bool IcebergValue::operator==(const IcebergValue& other) const {
  if (kind != other.kind) return false;
  switch (kind) {
    case Kind::kNull: return true;
    case Kind::kInteger: return integer == other.integer;
    case Kind::kFloat: {
      // Equal bit patterns, NaNs normalised (spec, scan planning note 3).
      if (real != real && other.real != other.real) return true;
      uint64_t a, b;
      std::memcpy(&a, &real, 8);
      std::memcpy(&b, &other.real, 8);
      return a == b;
    }
    case Kind::kBytes: return bytes == other.bytes;
  }
  return false;
}

IcebergValue DecodeIcebergBound(std::string_view type, std::string_view bytes) {
  IcebergValue v;
  const IcebergPrimitive p = ParseIcebergPrimitive(type);
  auto little = [&](size_t n) {
    uint64_t u = 0;
    for (size_t i = 0; i < n; ++i) u |= static_cast<uint64_t>(static_cast<uint8_t>(bytes[i])) << (8 * i);
    return u;
  };
  auto bad = [&]() -> IcebergValue {
    throw ParquetError("Iceberg: a bound of type " + std::string(type) + " has " + std::to_string(bytes.size()) + " bytes");
  };
  const std::string& n = p.name;
  if (n == "boolean") {
    if (bytes.size() != 1) return bad();
    v.kind = IcebergValue::Kind::kInteger;
    v.integer = bytes[0] != 0;
  } else if (n == "int" || n == "date") {
    if (bytes.size() != 4) return bad();
    v.kind = IcebergValue::Kind::kInteger;
    v.integer = static_cast<int32_t>(static_cast<uint32_t>(little(4)));
  } else if (n == "long" || n == "time" || n.rfind("timestamp", 0) == 0) {
    v.kind = IcebergValue::Kind::kInteger;
    if (bytes.size() == 4) {  // a column promoted from int
      v.integer = static_cast<int32_t>(static_cast<uint32_t>(little(4)));
    } else if (bytes.size() == 8) {
      v.integer = static_cast<int64_t>(little(8));
    } else {
      return bad();
    }
  } else if (n == "float" || n == "double") {
    v.kind = IcebergValue::Kind::kFloat;
    if (bytes.size() == 4) {
      const uint32_t u = static_cast<uint32_t>(little(4));
      float f;
      std::memcpy(&f, &u, 4);
      v.real = f;
    } else if (bytes.size() == 8) {
      const uint64_t u = little(8);
      std::memcpy(&v.real, &u, 8);
    } else {
      return bad();
    }
  } else if (n == "decimal") {
    if (bytes.empty()) return bad();
    if (bytes.size() <= 8) {
      v.kind = IcebergValue::Kind::kInteger;
      uint64_t u = static_cast<int8_t>(bytes[0]) < 0 ? ~uint64_t{0} : 0;
      for (char c : bytes) u = (u << 8) | static_cast<uint8_t>(c);
      v.integer = static_cast<int64_t>(u);
    } else {
      v.kind = IcebergValue::Kind::kBytes;
      v.bytes.assign(bytes);
    }
  } else if (n == "uuid") {
    if (bytes.size() != 16) return bad();
    v.kind = IcebergValue::Kind::kBytes;
    v.bytes.assign(bytes);
  } else {
    v.kind = IcebergValue::Kind::kBytes;
    v.bytes.assign(bytes);
  }
  return v;
}

// ---------------------------------------------------------------------------------------

std::unique_ptr<IcebergFileSystem> LocalIcebergFileSystem() { return std::make_unique<LocalFileSystem>(); }

std::string LocateIcebergMetadata(IcebergFileSystem& fs, const std::string& path_in, std::string* table_root) {
  const std::string path = TrimSlashes(path_in);
  const size_t slash = path.rfind('/');
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  if (IsMetadataFileName(base)) {
    // <table>/metadata/<file>: the table is two levels up.
    const std::string dir = slash == std::string::npos ? std::string(".") : path.substr(0, slash);
    const size_t up = dir.rfind('/');
    const std::string dir_name = up == std::string::npos ? dir : dir.substr(up + 1);
    if (dir_name == "metadata") {
      *table_root = up == std::string::npos ? std::string(".") : dir.substr(0, up);
    } else {
      *table_root = dir;
    }
    return path;
  }
  *table_root = path;
  const std::string metadata_dir = path + "/metadata";
  const std::string hint_path = metadata_dir + "/version-hint.text";
  if (fs.Exists(hint_path)) {
    std::string hint = fs.Read(hint_path, 4096);
    while (!hint.empty() && (hint.back() == '\n' || hint.back() == '\r' || hint.back() == ' ')) hint.pop_back();
    while (!hint.empty() && (hint.front() == ' ' || hint.front() == '\n')) hint.erase(0, 1);
    if (!hint.empty() && hint.find('/') == std::string::npos && hint.find('\0') == std::string::npos) {
      const std::vector<std::string> candidates = {
          hint, "v" + hint + ".metadata.json", "v" + hint + ".gz.metadata.json", "v" + hint + ".metadata.json.gz",
          hint + ".metadata.json"};
      for (const std::string& c : candidates) {
        if (IsMetadataFileName(c) && fs.Exists(metadata_dir + "/" + c)) return metadata_dir + "/" + c;
      }
    }
  }
  std::vector<std::string> names = fs.List(metadata_dir);
  std::string best;
  int64_t best_version = -2;
  for (const std::string& name : names) {
    if (!IsMetadataFileName(name) || name[0] == '.') continue;
    const int64_t version = MetadataVersion(name);
    if (version > best_version || (version == best_version && name > best)) {
      best_version = version;
      best = name;
    }
  }
  if (best.empty()) {
    throw ParquetError("Iceberg table '" + path + "': no metadata/version-hint.text nor metadata/*.metadata.json");
  }
  return metadata_dir + "/" + best;
}

bool HasParentSegment(const std::string& path) {
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    if (path.compare(start, end - start, "..") == 0 && end - start == 2) return true;
    start = end + 1;
  }
  return false;
}

std::string IcebergPathResolver::Resolve(const std::string& path_in) const {
  const std::string path = StripFileScheme(path_in);
  if (path.find('\0') != std::string::npos || HasParentSegment(path)) {
    throw ParquetError("Iceberg table '" + TrimSlashes(table_root) + "' names '" + path_in +
                       "': a path with a '..' segment or a NUL byte is refused");
  }
  const std::string location = TrimSlashes(StripFileScheme(this->location));
  const std::string root = TrimSlashes(table_root);
  if (IsUnder(path, root)) return path;
  if (!location.empty() && IsUnder(path, location)) {
    if (location == root) return path;
    if (!allow_moved_paths) {
      throw ParquetError("Iceberg table '" + root + "' was written at '" + location + "' and names '" + path_in +
                         "' there: set allow_moved_paths=1 to read it below where the table was found");
    }
    return root + path.substr(location.size());
  }
  if (allow_external_paths) return path;
  throw ParquetError("Iceberg table '" + root + "' names '" + path_in +
                     "', outside the table's location: refused unless the application sets allow_external_paths=1");
}

}  // namespace parquet::lake

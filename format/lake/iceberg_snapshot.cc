// An Apache Iceberg table read into the common lake-snapshot model (iceberg_snapshot.h).
#include "format/lake/iceberg_snapshot.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <unordered_set>

#include "format/common/error.h"
#include "format/common/physical_values.h"
#include "format/io/remote_file.h"
#include "format/lake/puffin.h"
#include "format/lake/roaring.h"
#include "format/read/file_reader.h"
#include "format/read/record_assembler.h"
#include "format/common/text_to_double.h"
#include "format/lake/json_view.h"
#include "format/values/json_document.h"
#include "format/values/json_text.h"
#include "format/values/text.h"
#include "format/values/logical_values.h"

namespace parquet::lake {

namespace {

constexpr size_t kMaxMetadataBytes = size_t{1} << 30;
constexpr int32_t kDeleteFilePathId = 2147483546;
constexpr int32_t kDeletePosId = 2147483545;
constexpr size_t kMaxEqualityKeyBytes = size_t{1} << 30;

class StorageFileSystem final : public IcebergFileSystem {
 public:
  explicit StorageFileSystem(LakeStorage& storage) : storage_(storage) {}
  std::string Read(const std::string& path, size_t max_bytes) override { return storage_.ReadWhole(path, max_bytes); }
  bool Exists(const std::string& path) override {
    const size_t slash = path.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash);
    const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    std::vector<LakeEntry> entries;
    if (!storage_.List(dir, 1000000, &entries)) return false;
    for (const LakeEntry& e : entries) {
      if (e.name == name) return true;
    }
    return false;
  }
  std::vector<std::string> List(const std::string& directory) override {
    std::vector<LakeEntry> entries;
    std::vector<std::string> names;
    if (!storage_.List(directory, 1000000, &entries)) return names;
    for (LakeEntry& e : entries) names.push_back(std::move(e.name));
    return names;
  }

 private:
  LakeStorage& storage_;
};

// The top-level field of `file` with field id `id`, else the one named `name` when the file
// has no field ids at all; -1 when there is none.
int FindField(const ParquetFileReader& file, int32_t id, const std::string& name) {
  const Schema& schema = file.schema();
  bool any_id = false;
  for (size_t f = 0; f < schema.top_level_fields().size(); f++) {
    const SchemaNode& node = schema.node(schema.top_level_fields()[f]);
    if (node.field_id) {
      any_id = true;
      if (*node.field_id == id) return static_cast<int>(f);
    }
  }
  if (any_id || name.empty()) return -1;
  for (size_t f = 0; f < schema.top_level_fields().size(); f++) {
    if (schema.node(schema.top_level_fields()[f]).name == name) return static_cast<int>(f);
  }
  return -1;
}

// Appends the value of the primitive field `a` read last to *key, in a form equal for equal
// Iceberg values: integers as 64-bit, floats as doubles, bytes with their length; NULL as 'N'.
void AppendKey(const RecordAssembler& a, std::string* key) {
  const std::vector<NestedEvent>& events = a.events();
  if (events.empty() || events[0].kind != NestedEventKind::kValue) {
    key->push_back('N');
    return;
  }
  const uint32_t i = events[0].value;
  auto put = [&](char tag, const void* data, size_t size) {
    key->push_back(tag);
    const uint32_t n = static_cast<uint32_t>(size);
    key->append(reinterpret_cast<const char*>(&n), 4);
    key->append(static_cast<const char*>(data), size);
  };
  switch (a.leaf_physical_type(0)) {
    case Type::BOOLEAN: {
      const int64_t v = a.values<bool>(0)[i] ? 1 : 0;
      put('I', &v, 8);
      break;
    }
    case Type::INT32: {
      const int64_t v = a.values<int32_t>(0)[i];
      put('I', &v, 8);
      break;
    }
    case Type::INT64: {
      const int64_t v = a.values<int64_t>(0)[i];
      put('I', &v, 8);
      break;
    }
    case Type::FLOAT: {
      const double v = a.values<float>(0)[i];
      put('D', &v, 8);
      break;
    }
    case Type::DOUBLE: {
      const double v = a.values<double>(0)[i];
      put('D', &v, 8);
      break;
    }
    case Type::INT96: {
      const Int96& v = a.values<Int96>(0)[i];
      put('X', &v, sizeof(Int96));
      break;
    }
    case Type::BYTE_ARRAY:
    case Type::FIXED_LEN_BYTE_ARRAY: {
      const ByteArray& v = a.values<ByteArray>(0)[i];
      put('B', v.ptr, v.len);
      break;
    }
  }
}

// The path of a location without its scheme and authority ("hdfs://nn:8020/a/b" -> "/a/b"):
// writers name one file as "hdfs://host/..." in a delete file and "/..." in a manifest.
std::string_view PathPart(std::string_view location) {
  const size_t scheme = location.find("://");
  if (scheme == std::string_view::npos) return location;
  const size_t slash = location.find('/', scheme + 3);
  return slash == std::string_view::npos ? std::string_view() : location.substr(slash);
}

bool SameFile(std::string_view a, std::string_view b) { return a == b || PathPart(a) == PathPart(b); }

// Sorted positions into disjoint ranges, merged with `more` (already ranges).
std::vector<PositionRange> ToRanges(std::vector<uint64_t> positions, const std::vector<PositionRange>& more) {
  std::vector<PositionRange> ranges;
  for (uint64_t p : positions) ranges.push_back(PositionRange{p, p + 1});
  ranges.insert(ranges.end(), more.begin(), more.end());
  std::sort(ranges.begin(), ranges.end(), [](const PositionRange& a, const PositionRange& b) { return a.begin < b.begin; });
  std::vector<PositionRange> out;
  for (const PositionRange& r : ranges) {
    if (r.end <= r.begin) continue;
    if (!out.empty() && r.begin <= out.back().end) {
      out.back().end = std::max(out.back().end, r.end);
    } else {
      out.push_back(r);
    }
  }
  return out;
}

class IcebergDeletedRowsSource final : public DeletedRowsSource {
 public:
  IcebergDeletedRowsSource(std::string data_path, std::string resolved, std::vector<IcebergDataFile> deletes,
                           std::shared_ptr<const IcebergSchema> schema, std::shared_ptr<const RemoteOptions> remote)
      : data_path_(std::move(data_path)), resolved_(std::move(resolved)), deletes_(std::move(deletes)),
        schema_(std::move(schema)), remote_(std::move(remote)) {
    // Known without reading only when a deletion vector alone applies: its record_count is
    // its cardinality. Position delete files may repeat a position or name other files, and
    // equality deletes match rows only a read of the data file finds.
    if (deletes_.size() == 1 && deletes_.front().is_deletion_vector()) claimed_ = deletes_.front().record_count;
  }
  int64_t claimed_count() const override { return claimed_; }
  std::shared_ptr<const DeletedRows> Load() const override {
    std::unique_ptr<LakeStorage> storage = MakeStorageFor(resolved_, remote_);
    auto rows = std::make_shared<const DeletedRows>(IcebergDeletedPositions(*storage, data_path_, resolved_, deletes_, *schema_));
    if (claimed_ >= 0 && rows->count() != static_cast<uint64_t>(claimed_)) {
      throw ParquetError("the deletion vector of '" + resolved_ + "' in '" + deletes_.front().resolved_path + "' holds " +
                         std::to_string(rows->count()) + " positions, its manifest entry says " + std::to_string(claimed_));
    }
    return rows;
  }

 private:
  std::string data_path_, resolved_;
  std::vector<IcebergDataFile> deletes_;
  std::shared_ptr<const IcebergSchema> schema_;
  std::shared_ptr<const RemoteOptions> remote_;
  int64_t claimed_ = -1;
};

LakeColumnStats StatsOf(const IcebergDataFile& file, const IcebergField& field) {
  LakeColumnStats stats;
  if (std::optional<int64_t> nulls = file.NullCount(field.id)) stats.null_count = *nulls;
  if (!field.is_primitive()) return stats;
  const IcebergPrimitive p = ParseIcebergPrimitive(field.type);
  const bool integer = p.name == "int" || p.name == "long" || p.name == "boolean";
  const bool real = p.name == "float" || p.name == "double";
  const bool text = p.name == "string";
  if (!integer && !real && !text) return stats;
  if (real) {
    // NaN is outside the bounds: only files known to hold none keep them.
    bool no_nan = false;
    for (const auto& c : file.nan_value_counts) {
      if (c.first == field.id) no_nan = c.second == 0;
    }
    if (!no_nan) return stats;
  }
  auto decode = [&](const std::string* bytes) -> LakeValue {
    if (bytes == nullptr) return LakeValue{};
    try {
      const IcebergValue v = DecodeIcebergBound(field.type, *bytes);
      if (integer && v.kind == IcebergValue::Kind::kInteger) return LakeValue::Integer(v.integer);
      if (real && v.kind == IcebergValue::Kind::kFloat && v.real == v.real) return LakeValue::Real(v.real);
      if (text && v.kind == IcebergValue::Kind::kBytes) return LakeValue::Text(v.bytes);
    } catch (const ParquetError&) {
    }
    return LakeValue{};
  };
  stats.min = decode(file.LowerBound(field.id));
  stats.max = decode(file.UpperBound(field.id));
  return stats;
}

// A manifest's partition summary of an identity field as bounds of its source column, in
// the form the column's values take: partition values (PartitionLakeValue) for a column
// read from the manifests, else as StatsOf gives file bounds (integers, floats, strings).
LakeValue PartitionLakeValue(const IcebergValue& v, const std::string& type);
LakeColumnStats SummaryStats(const IcebergFieldSummary& summary, const IcebergField& field, bool partition_column) {
  LakeColumnStats stats;
  if (!summary.contains_null) stats.null_count = 0;
  const IcebergPrimitive p = ParseIcebergPrimitive(field.type);
  const bool real = p.name == "float" || p.name == "double";
  if (real && summary.contains_nan.value_or(true)) return stats;  // NaN is outside the bounds
  const bool integer = p.name == "int" || p.name == "long" || p.name == "boolean";
  const bool text = p.name == "string";
  auto decode = [&](const std::optional<std::string>& bytes) -> LakeValue {
    if (!bytes) return LakeValue{};
    try {
      const IcebergValue v = DecodeIcebergBound(field.type, *bytes);
      if (partition_column) {
        const LakeValue value = PartitionLakeValue(v, field.type);
        return value.kind == LakeValue::Kind::kNull ? LakeValue{} : value;
      }
      if (integer && v.kind == IcebergValue::Kind::kInteger) return LakeValue::Integer(v.integer);
      if (real && v.kind == IcebergValue::Kind::kFloat && v.real == v.real) return LakeValue::Real(v.real);
      if (text && v.kind == IcebergValue::Kind::kBytes) return LakeValue::Text(v.bytes);
    } catch (const ParquetError&) {
    }
    return LakeValue{};
  };
  stats.min = decode(summary.lower_bound);
  stats.max = decode(summary.upper_bound);
  return stats;
}

std::string TableName(const std::string& path) { return "Iceberg table '" + path + "'"; }

// An identity partition value as the lake model's value for a column of `type`.
LakeValue PartitionLakeValue(const IcebergValue& v, const std::string& type) {
  if (v.kind == IcebergValue::Kind::kNull) return LakeValue::Null();
  const IcebergPrimitive p = ParseIcebergPrimitive(type);
  char buffer[96];
  if (v.kind == IcebergValue::Kind::kInteger) {
    if (p.name == "date") return LakeValue::Text(std::string(buffer, FormatDate(static_cast<int32_t>(v.integer), buffer)));
    if (p.name == "time") return LakeValue::Text(std::string(buffer, FormatTime(v.integer, TimeUnit::MICROS, buffer)));
    if (p.name == "timestamp" || p.name == "timestamptz") {
      return LakeValue::Text(std::string(buffer, FormatTimestamp(v.integer, TimeUnit::MICROS, buffer)));
    }
    if (p.name == "timestamp_ns" || p.name == "timestamptz_ns") {
      return LakeValue::Text(std::string(buffer, FormatTimestamp(v.integer, TimeUnit::NANOS, buffer)));
    }
    if (p.name == "decimal") {
      if (p.precision > 38 || p.scale < 0 || p.scale > 38) return LakeValue{};
      const size_t n = FormatDecimal(v.integer, p.scale, buffer);
      double d = 0;
      TextToDouble(buffer, buffer + n, d);
      return LakeValue::Real(d);
    }
    return LakeValue::Integer(v.integer);
  }
  if (v.kind == IcebergValue::Kind::kFloat) return LakeValue::Real(v.real);
  if (p.name == "decimal") {
    if (v.bytes.size() > 16 || p.scale < 0 || p.scale > 38) return LakeValue{};
    const size_t n = FormatDecimalBigEndian(reinterpret_cast<const uint8_t*>(v.bytes.data()), v.bytes.size(), p.scale, buffer, sizeof(buffer));
    double d = 0;
    TextToDouble(buffer, buffer + n, d);
    return LakeValue::Real(d);
  }
  if (p.name == "uuid" && v.bytes.size() == 16) {
    return LakeValue::Text(std::string(buffer, FormatUuid(reinterpret_cast<const uint8_t*>(v.bytes.data()), buffer)));
  }
  return LakeValue::Text(v.bytes);
}

// The tighter of two lower (upper: `upper`) bounds of one kind; a bound of another kind
// than the one known is left out (both hold, but only one is kept).
void MergeBound(LakeValue* bound, LakeValue candidate, bool upper) {
  if (candidate.kind == LakeValue::Kind::kNone) return;
  if (bound->kind == LakeValue::Kind::kNone) {
    *bound = std::move(candidate);
    return;
  }
  if (bound->kind != candidate.kind) return;
  bool tighter = false;
  if (candidate.kind == LakeValue::Kind::kInteger) tighter = upper ? candidate.integer < bound->integer : candidate.integer > bound->integer;
  if (candidate.kind == LakeValue::Kind::kText) tighter = upper ? candidate.text < bound->text : candidate.text > bound->text;
  if (tighter) *bound = std::move(candidate);
}

// Days of 0000-01-01 and 9999-12-31: dates and timestamps show as text of a fixed-width
// year ("YYYY-MM-DD ...", which sorts as the time does) only between them.
constexpr int64_t kFirstFourDigitDay = -719528;
constexpr int64_t kLastFourDigitDay = 2932896;

// What a non-identity partition field on `field` says of the field's values in files whose
// partition values are between `low` and `high` (one file: both its value; a manifest: its
// summary's bounds), in the form the values read as (the reader's type mapping: integers,
// strings, dates and timestamps as text "YYYY-MM-DD HH:MM:SS..."), merged into *stats:
//  - year, month, day, hour of a date or timestamp: the first and last dates they cover;
//    for a timestamp "YYYY-MM-DD" of the first day (hour: "YYYY-MM-DD HH:00:00") and
//    "YYYY-MM-DD 23:59:59.999999999" of the last (hour: "...HH:59:59.999999999"), so that
//    values of any sub-second precision (and dates) sort within them;
//  - truncate[W] of an integer: [low, high + W - 1]; of a string: [low, the shortest text
//    above every text starting with high];
//  - bucket[N]: the range of buckets, checked against = and IN by hashing their values.
// Nothing for void, identity (handled as partition keys or file bounds), other types
// (decimals, binary, time) and values the forms do not keep in order (years outside
// 0000..9999).
void AddTransformBounds(const IcebergPartitionField& pf, const IcebergField& field, const IcebergValue& low,
                        const IcebergValue& high, LakeColumnStats* stats) {
  using Kind = IcebergTransform::Kind;
  if (!field.is_primitive() || low.kind == IcebergValue::Kind::kNull || high.kind == IcebergValue::Kind::kNull) return;
  const IcebergPrimitive p = ParseIcebergPrimitive(field.type);
  const bool integer = p.name == "int" || p.name == "long";
  const bool date = p.name == "date";
  const bool timestamp = p.name == "timestamp" || p.name == "timestamptz";
  const bool timestamp_ns = p.name == "timestamp_ns" || p.name == "timestamptz_ns";
  const IcebergTransform& t = pf.transform;
  switch (t.kind) {
    case Kind::kBucket: {
      if (t.parameter <= 0 || low.kind != IcebergValue::Kind::kInteger || high.kind != IcebergValue::Kind::kInteger) return;
      if (low.integer < 0 || high.integer >= t.parameter || low.integer > high.integer) return;
      LakeColumnStats::BucketKey key = LakeColumnStats::BucketKey::kNone;
      if (integer) key = LakeColumnStats::BucketKey::kInteger;
      if (p.name == "string") key = LakeColumnStats::BucketKey::kText;
      if (date) key = LakeColumnStats::BucketKey::kDate;
      if (timestamp) key = LakeColumnStats::BucketKey::kTimestamp;
      if (key == LakeColumnStats::BucketKey::kNone || stats->bucket_count != 0) return;
      stats->bucket_key = key;
      stats->bucket_count = t.parameter;
      stats->bucket_lo = static_cast<int32_t>(low.integer);
      stats->bucket_hi = static_cast<int32_t>(high.integer);
      return;
    }
    case Kind::kTruncate:
      if (integer && low.kind == IcebergValue::Kind::kInteger && high.kind == IcebergValue::Kind::kInteger) {
        int64_t lo = 0, hi = 0, unused = 0;
        if (IcebergTransformRange(t, false, false, low.integer, &lo, &unused)) MergeBound(&stats->min, LakeValue::Integer(lo), false);
        if (IcebergTransformRange(t, false, false, high.integer, &unused, &hi)) MergeBound(&stats->max, LakeValue::Integer(hi), true);
      } else if (p.name == "string" && low.kind == IcebergValue::Kind::kBytes && high.kind == IcebergValue::Kind::kBytes) {
        MergeBound(&stats->min, LakeValue::Text(low.bytes), false);
        if (std::optional<std::string> above = IcebergPrefixUpperBound(high.bytes)) {
          if (stats->max_unusable) {
            stats->max = LakeValue{};
            stats->max_unusable = false;
          }
          MergeBound(&stats->max, LakeValue::Text(std::move(*above)), true);
        }
      }
      return;
    case Kind::kYear:
    case Kind::kMonth:
    case Kind::kDay:
    case Kind::kHour: {
      if (!date && !timestamp && !timestamp_ns) return;
      if (low.kind != IcebergValue::Kind::kInteger || high.kind != IcebergValue::Kind::kInteger) return;
      int64_t lo = 0, hi = 0, unused = 0;
      if (!IcebergTransformRange(t, date, timestamp_ns, low.integer, &lo, &unused) ||
          !IcebergTransformRange(t, date, timestamp_ns, high.integer, &unused, &hi)) {
        return;
      }
      char buffer[kTimestampTextCapacity + 1];
      if (date) {
        if (lo < kFirstFourDigitDay || hi > kLastFourDigitDay) return;
        MergeBound(&stats->min, LakeValue::Text(std::string(buffer, FormatDate(static_cast<int32_t>(lo), buffer))), false);
        MergeBound(&stats->max, LakeValue::Text(std::string(buffer, FormatDate(static_cast<int32_t>(hi), buffer))), true);
        return;
      }
      const int64_t per_day = timestamp_ns ? int64_t{86400} * 1000000000 : int64_t{86400} * 1000000;
      const int64_t first_day = lo / per_day - (lo % per_day < 0 ? 1 : 0);
      const int64_t last_day = hi / per_day - (hi % per_day < 0 ? 1 : 0);
      if (first_day < kFirstFourDigitDay || last_day > kLastFourDigitDay) return;
      // "YYYY-MM-DD HH:MM:SS[.fraction]": the first instant's date (and hour), the last
      // one's with a rest no value's exceeds (at most 9 fraction digits, whatever unit a
      // data file stores).
      const bool hour = t.kind == Kind::kHour;
      const size_t prefix = hour ? 13 : 10;  // "YYYY-MM-DD HH" or "YYYY-MM-DD"
      const TimeUnit unit = timestamp_ns ? TimeUnit::NANOS : TimeUnit::MICROS;
      const size_t n_lo = FormatTimestamp(lo, unit, buffer);
      // Day-level periods start at the bare date: a data file written before the column's
      // promotion from date to timestamp (v3) holds dates, which read as "YYYY-MM-DD".
      std::string lo_text = std::string(buffer, std::min(n_lo, prefix)) + (hour ? ":00:00" : "");
      const size_t n_hi = FormatTimestamp(hi, unit, buffer);
      std::string after_text = std::string(buffer, std::min(n_hi, prefix)) + (hour ? ":59:59.999999999" : " 23:59:59.999999999");
      MergeBound(&stats->min, LakeValue::Text(std::move(lo_text)), false);
      MergeBound(&stats->max, LakeValue::Text(std::move(after_text)), true);
      return;
    }
    default: return;
  }
}

// The partition tuple of `data` says of `field`'s values in it (AddTransformBounds): also
// that it holds no NULL (a non-null partition value) or only NULLs (a null one: every
// transform but void maps NULL, and only NULL, to NULL).
void AddPartitionBounds(const IcebergDataFile& data, const IcebergPartitionSpec* spec, const IcebergField& field,
                        LakeColumnStats* stats) {
  if (spec == nullptr || spec->fields.size() != data.partition.size()) return;
  for (size_t k = 0; k < spec->fields.size(); k++) {
    const IcebergPartitionField& pf = spec->fields[k];
    const IcebergTransform::Kind kind = pf.transform.kind;
    if (pf.source_id != field.id || kind == IcebergTransform::Kind::kIdentity || kind == IcebergTransform::Kind::kVoid ||
        kind == IcebergTransform::Kind::kUnknown) {
      continue;
    }
    const IcebergValue& v = data.partition[k];
    if (v.kind == IcebergValue::Kind::kNull) {
      if (data.record_count >= 0) stats->null_count = data.record_count;
      stats->min = stats->max = LakeValue{};
      stats->bucket_count = 0;
      return;
    }
    if (stats->null_count < 0) stats->null_count = 0;
    AddTransformBounds(pf, field, v, v, stats);
  }
}

// The same from a manifest's partition summary of field `pf`.
void AddSummaryBounds(const IcebergFieldSummary& summary, const IcebergPartitionField& pf, const IcebergField& field,
                      LakeColumnStats* stats) {
  const IcebergTransform::Kind kind = pf.transform.kind;
  if (kind == IcebergTransform::Kind::kIdentity || kind == IcebergTransform::Kind::kVoid ||
      kind == IcebergTransform::Kind::kUnknown || !field.is_primitive()) {
    return;
  }
  if (!summary.contains_null) stats->null_count = 0;
  if (!summary.lower_bound || !summary.upper_bound) return;
  // Partition values of bucket and the time transforms are ints; truncate keeps the type.
  const std::string type = kind == IcebergTransform::Kind::kTruncate ? field.type : std::string("int");
  try {
    const IcebergValue low = DecodeIcebergBound(type, *summary.lower_bound);
    const IcebergValue high = DecodeIcebergBound(type, *summary.upper_bound);
    AddTransformBounds(pf, field, low, high, stats);
  } catch (const ParquetError&) {
  }
}

}  // namespace

LakeValue IcebergInitialDefault(const IcebergField& field, const std::string& file) {
  if (field.initial_default.empty() || !field.is_primitive()) return LakeValue{};
  JsonDocument doc;
  std::string error;
  if (!doc.Parse(field.initial_default, &error)) {
    throw ParquetError("Iceberg metadata '" + file + "': the initial-default of field '" + field.name + "' is not JSON: " + error);
  }
  const JsonView v = JsonView::Root(doc);
  if (v.is_null()) return LakeValue{};
  const IcebergPrimitive p = ParseIcebergPrimitive(field.type);
  auto bad = [&]() {
    return ParquetError("Iceberg metadata '" + file + "': the initial-default " + field.initial_default + " of field '" +
                        field.name + "' is not a " + field.type);
  };
  auto text = [&]() {
    if (!v.is_string()) throw bad();
    return v.String("initial-default");
  };
  auto hex = [&](const std::string& digits) {
    if (digits.size() % 2 != 0) throw bad();
    std::string bytes;
    for (size_t i = 0; i < digits.size(); i += 2) {
      const int hi = HexDigit(digits[i]), lo = HexDigit(digits[i + 1]);
      if (hi < 0 || lo < 0) throw bad();
      bytes.push_back(static_cast<char>(hi * 16 + lo));
    }
    return bytes;
  };
  const std::string& name = p.name;
  if (name == "boolean") {
    if (!v.is_bool()) throw bad();
    return LakeValue::Integer(v.Bool("initial-default") ? 1 : 0);
  }
  if (name == "int" || name == "long") {
    int64_t i = 0;
    if (!v.is_number() || !ParseJsonInt(v.Text(), &i)) throw bad();
    if (name == "int" && (i < INT32_MIN || i > INT32_MAX)) throw bad();
    return LakeValue::Integer(i);
  }
  if (name == "float" || name == "double") {
    if (!v.is_number()) throw bad();
    const double d = v.Double("initial-default");
    // A float default reads as the float a file would store.
    return LakeValue::Real(name == "float" ? static_cast<double>(static_cast<float>(d)) : d);
  }
  if (name == "string") return LakeValue::Text(text());
  if (name == "binary" || name == "fixed") {
    std::string bytes = hex(text());
    if (name == "fixed" && bytes.size() != static_cast<size_t>(p.length)) throw bad();
    return LakeValue::Text(std::move(bytes));
  }
  if (name == "uuid") {
    std::string digits;
    for (char c : text()) {
      if (c != '-') digits.push_back(c);
    }
    if (digits.size() != 32) throw bad();
    return LakeValue::Text(hex(digits));
  }
  if (name == "date") {
    int32_t days = 0;
    if (!ParseDate(text(), &days)) throw bad();
    return LakeValue::Integer(days);
  }
  if (name == "time") {
    int64_t micros = 0;
    if (!ParseTime(text(), TimeUnit::MICROS, &micros)) throw bad();
    return LakeValue::Integer(micros);
  }
  if (name == "timestamp" || name == "timestamptz" || name == "timestamp_ns" || name == "timestamptz_ns") {
    int64_t value = 0;
    const bool nanos = name == "timestamp_ns" || name == "timestamptz_ns";
    if (!ParseTimestamp(text(), nanos ? TimeUnit::NANOS : TimeUnit::MICROS, &value)) throw bad();
    return LakeValue::Integer(value);
  }
  if (name == "decimal") {
    const std::string digits = text();
    if (p.precision <= 18) {
      int64_t unscaled = 0;
      if (!ParseDecimal(digits, p.scale, &unscaled)) throw bad();
      return LakeValue::Integer(unscaled);
    }
    uint8_t bytes[16];
    if (!ParseDecimal(digits, p.scale, bytes, sizeof(bytes))) throw bad();
    return LakeValue::Text(std::string(reinterpret_cast<const char*>(bytes), sizeof(bytes)));
  }
  return LakeValue{};  // geometry, geography, variant, unknown: NULL
}

std::unique_ptr<IcebergFileSystem> IcebergFileSystemOver(LakeStorage& storage) {
  return std::make_unique<StorageFileSystem>(storage);
}

bool IsIcebergTable(LakeStorage& storage, const std::string& path_in) {
  std::string path = path_in;
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  if (path.ends_with(".metadata.json") || path.ends_with(".metadata.json.gz")) return true;
  std::vector<LakeEntry> entries;
  if (!storage.List(path + "/metadata", 100000, &entries)) return false;
  for (const LakeEntry& e : entries) {
    if (e.name == "version-hint.text" || ((e.name.ends_with(".metadata.json") || e.name.ends_with(".metadata.json.gz")) &&
                                          e.name[0] != '.')) {
      return true;
    }
  }
  return false;
}

LakeType IcebergLakeType(const IcebergField& field) {
  LakeType t;
  t.name = field.type;
  if (field.type == "struct") {
    t.kind = LakeType::Kind::kStruct;
    return t;
  }
  if (field.type == "list") {
    t.kind = LakeType::Kind::kArray;
    return t;
  }
  if (field.type == "map") {
    t.kind = LakeType::Kind::kMap;
    return t;
  }
  const IcebergPrimitive p = ParseIcebergPrimitive(field.type);
  static const std::pair<const char*, LakeType::Kind> kNames[] = {
      {"boolean", LakeType::Kind::kBoolean}, {"int", LakeType::Kind::kInt},       {"long", LakeType::Kind::kLong},
      {"float", LakeType::Kind::kFloat},     {"double", LakeType::Kind::kDouble}, {"string", LakeType::Kind::kString},
      {"binary", LakeType::Kind::kBinary},   {"date", LakeType::Kind::kDate},     {"timestamptz", LakeType::Kind::kTimestamp},
      {"timestamp", LakeType::Kind::kTimestampNtz}, {"variant", LakeType::Kind::kVariant}};
  for (const auto& entry : kNames) {
    if (p.name == entry.first) {
      t.kind = entry.second;
      return t;
    }
  }
  if (p.name == "decimal") {
    t.kind = LakeType::Kind::kDecimal;
    t.precision = p.precision;
    t.scale = p.scale;
    return t;
  }
  // time, timestamp_ns, timestamptz_ns, uuid, fixed[L], geometry, geography, unknown: read
  // as the files store them.
  t.kind = LakeType::Kind::kOther;
  return t;
}

std::vector<PositionRange> IcebergDeletedPositions(LakeStorage& storage, const std::string& data_path,
                                                   const std::string& resolved, const std::vector<IcebergDataFile>& deletes,
                                                   const IcebergSchema& schema) {
  std::vector<uint64_t> positions;
  std::vector<PositionRange> vector_ranges;
  std::map<std::vector<int32_t>, std::unordered_set<std::string>> equality_keys;
  size_t key_bytes = 0;  // the keys held, bounded (kMaxEqualityKeyBytes)
  for (const IcebergDataFile& d : deletes) {
    if (d.is_deletion_vector()) {
      std::unique_ptr<RandomAccessFile> file = storage.Open(d.resolved_path);
      std::vector<uint8_t> blob;
      if (*d.content_size > (int64_t{1} << 31)) throw ParquetError("deletion vector in '" + d.resolved_path + "' claims over 2 GiB");
      file->ReadAt(static_cast<uint64_t>(*d.content_offset), static_cast<size_t>(*d.content_size), &blob);
      const std::string_view bitmap =
          DeletionVectorBitmap(std::string_view(reinterpret_cast<const char*>(blob.data()), blob.size()), d.resolved_path);
      std::vector<PositionRange> ranges = DecodeRoaring64(bitmap);
      vector_ranges.insert(vector_ranges.end(), ranges.begin(), ranges.end());
      continue;
    }
    if (d.format != "PARQUET") {
      throw ParquetError("Iceberg delete file '" + d.resolved_path + "' is " + d.format + ": only Parquet delete files are read");
    }
    std::unique_ptr<ParquetFileReader> file = ParquetFileReader::Open(storage.Open(d.resolved_path));
    if (d.content == IcebergContent::kPositionDeletes) {
      const int path_field = FindField(*file, kDeleteFilePathId, "file_path");
      const int pos_field = FindField(*file, kDeletePosId, "pos");
      if (path_field < 0 || pos_field < 0) {
        throw ParquetError("Iceberg position delete file '" + d.resolved_path + "' has no file_path and pos columns");
      }
      RecordAssembler path_column(*file, path_field);
      RecordAssembler pos_column(*file, pos_field);
      for (int rg = 0; rg < file->num_row_groups(); rg++) {
        path_column.Reset(rg);
        pos_column.Reset(rg);
        for (int64_t r = 0; r < file->row_group_num_rows(rg); r++) {
          path_column.ReadRow();
          pos_column.ReadRow();
          const auto& pe = path_column.events();
          if (pe.empty() || pe[0].kind != NestedEventKind::kValue || path_column.leaf_physical_type(0) != Type::BYTE_ARRAY) continue;
          if (!SameFile(path_column.values<ByteArray>(0)[pe[0].value].view(), data_path)) continue;
          const auto& qe = pos_column.events();
          if (qe.empty() || qe[0].kind != NestedEventKind::kValue) continue;
          int64_t pos = 0;
          if (pos_column.leaf_physical_type(0) == Type::INT64) {
            pos = pos_column.values<int64_t>(0)[qe[0].value];
          } else if (pos_column.leaf_physical_type(0) == Type::INT32) {
            pos = pos_column.values<int32_t>(0)[qe[0].value];
          } else {
            throw ParquetError("Iceberg position delete file '" + d.resolved_path + "': pos is not an integer");
          }
          if (pos < 0) throw ParquetError("Iceberg position delete file '" + d.resolved_path + "': negative position");
          positions.push_back(static_cast<uint64_t>(pos));
        }
      }
      continue;
    }
    // Equality deletes: the keys of this file, by the columns of its equality ids.
    std::vector<std::unique_ptr<RecordAssembler>> columns;
    for (int32_t id : d.equality_ids) {
      const IcebergField* field = schema.FindField(id);
      const int f = FindField(*file, id, field != nullptr ? field->name : std::string());
      if (f < 0) throw ParquetError("Iceberg equality delete file '" + d.resolved_path + "' has no column of field id " + std::to_string(id));
      columns.push_back(std::make_unique<RecordAssembler>(*file, f));
    }
    std::unordered_set<std::string>& keys = equality_keys[d.equality_ids];
    std::string key;
    for (int rg = 0; rg < file->num_row_groups(); rg++) {
      for (auto& c : columns) c->Reset(rg);
      for (int64_t r = 0; r < file->row_group_num_rows(rg); r++) {
        key.clear();
        for (auto& c : columns) {
          c->ReadRow();
          AppendKey(*c, &key);
        }
        key_bytes += key.size() + 32;
        if (key_bytes > kMaxEqualityKeyBytes) {
          throw ParquetError("Iceberg equality delete files of '" + resolved + "' hold more than 1 GiB of keys");
        }
        keys.insert(key);
      }
    }
  }
  if (!equality_keys.empty()) {
    std::unique_ptr<ParquetFileReader> file = ParquetFileReader::Open(storage.Open(resolved));
    for (const auto& group : equality_keys) {
      // A column the data file lacks (added later) reads as NULL in every row.
      std::vector<std::unique_ptr<RecordAssembler>> columns;
      for (int32_t id : group.first) {
        const IcebergField* field = schema.FindField(id);
        const int f = FindField(*file, id, field != nullptr ? field->name : std::string());
        columns.push_back(f < 0 ? nullptr : std::make_unique<RecordAssembler>(*file, f));
      }
      std::string key;
      int64_t first = 0;
      for (int rg = 0; rg < file->num_row_groups(); rg++) {
        for (auto& c : columns) {
          if (c) c->Reset(rg);
        }
        const int64_t rows = file->row_group_num_rows(rg);
        for (int64_t r = 0; r < rows; r++) {
          key.clear();
          for (auto& c : columns) {
            if (c) {
              c->ReadRow();
              AppendKey(*c, &key);
            } else {
              key.push_back('N');
            }
          }
          if (group.second.count(key) != 0) positions.push_back(static_cast<uint64_t>(first + r));
        }
        first += rows;
      }
    }
  }
  return ToRanges(std::move(positions), vector_ranges);
}

namespace {

// Over http(s):// nothing can be listed: the table must be named by its metadata file.
void CheckNamedWithoutListing(LakeStorage& storage, const std::string& path) {
  std::string trimmed = path;
  while (trimmed.size() > 1 && trimmed.back() == '/') trimmed.pop_back();
  if (storage.CanList() || trimmed.ends_with(".metadata.json") || trimmed.ends_with(".metadata.json.gz")) return;
  throw ParquetError(TableName(PathForDisplay(path)) +
                     ": over http(s) an Iceberg table is named by its metadata file (.../metadata/vN.metadata.json): "
                     "a directory cannot be listed there");
}

}  // namespace

LakeSnapshot ReadIcebergSnapshot(LakeStorage& storage, const std::string& path, const IcebergReadOptions& options) {
  CheckNamedWithoutListing(storage, path);
  std::unique_ptr<IcebergFileSystem> fs = IcebergFileSystemOver(storage);
  std::string root;
  const std::string metadata_path = LocateIcebergMetadata(*fs, path, &root);
  const IcebergTableMetadata metadata =
      ParseIcebergMetadata(MaybeGunzipMetadata(fs->Read(metadata_path, kMaxMetadataBytes), metadata_path), metadata_path);
  IcebergSnapshotSelector selector;
  selector.snapshot_id = options.snapshot_id;
  selector.timestamp_ms = options.timestamp_ms;
  selector.ref = options.ref;
  const bool time_travel = options.snapshot_id || options.timestamp_ms;
  const IcebergSnapshot* snapshot;
  try {
    snapshot = SelectIcebergSnapshot(metadata, selector);
  } catch (const ParquetError& e) {
    throw ParquetError(TableName(path) + ": " + e.what());
  }
  auto schema = std::make_shared<const IcebergSchema>(IcebergSchemaForSnapshot(metadata, snapshot, time_travel));
  IcebergPathResolver resolver{root, metadata.location, options.allow_moved_paths, options.allow_external_paths};

  LakeSnapshot out;
  out.format = "iceberg";
  out.root = root;
  if (snapshot != nullptr) {
    out.version = snapshot->sequence_number;
    out.timestamp_ms = snapshot->timestamp_ms;
  }
  for (const IcebergField& field : schema->fields) {
    LakeColumn column;
    column.name = field.name;
    column.type = IcebergLakeType(field);
    column.nullable = !field.required;
    column.physical_name = field.name;
    column.field_id = field.id;
    column.initial_default = IcebergInitialDefault(field, metadata_path);
    if (metadata.has_name_mapping) {
      // Files without field ids (migrated from Hive) are matched by the names the mapping
      // gives the field id; a field the mapping leaves out is in none of them (NULL).
      column.physical_name.clear();
      for (const IcebergNameMapping& m : metadata.name_mapping) {
        if (m.field_id && *m.field_id == field.id && !m.names.empty()) column.physical_name = m.names.front();
      }
    }
    out.columns.push_back(std::move(column));
  }
  if (snapshot == nullptr) return out;
  IcebergScanPlan plan = PlanIcebergScan(*fs, metadata, snapshot, resolver);

  // Identity-partitioned columns the data files do not hold (tables written Hive-style,
  // migrated tables) take their values from the manifests: such a column becomes a
  // partition column of the model when every live file's spec has it as an identity field
  // and the first data file lacks it.
  std::vector<std::vector<int>> identity_slot;  // per column: per data file, the slot in its partition tuple
  std::unique_ptr<ParquetFileReader> first_file;
  for (size_t c = 0; c < schema->fields.size() && !plan.data_files.empty(); c++) {
    const IcebergField& field = schema->fields[c];
    if (!field.is_primitive()) continue;
    std::vector<int> slots;
    for (const IcebergDataFile& data : plan.data_files) {
      const IcebergPartitionSpec* spec = metadata.FindSpec(data.spec_id);
      int slot = -1;
      if (spec != nullptr && spec->fields.size() == data.partition.size()) {
        for (size_t k = 0; k < spec->fields.size(); k++) {
          if (spec->fields[k].source_id == field.id && spec->fields[k].transform.kind == IcebergTransform::Kind::kIdentity) {
            slot = static_cast<int>(k);
          }
        }
      }
      if (slot < 0) break;
      slots.push_back(slot);
    }
    if (slots.size() != plan.data_files.size()) continue;
    if (!first_file) first_file = ParquetFileReader::Open(storage.Open(plan.data_files.front().resolved_path));
    if (FindField(*first_file, field.id, out.columns[c].physical_name) >= 0) continue;
    out.partition_columns.push_back(static_cast<int>(c));
    identity_slot.push_back(std::move(slots));
  }
  // Each data manifest is a group of files: the manifest list's partition summaries of its
  // identity fields bound the values of their source columns in every file of it.
  for (const IcebergManifestFile& m : plan.data_manifests) {
    LakeFileGroup group;
    group.name = m.path;
    const IcebergPartitionSpec* spec = metadata.FindSpec(m.spec_id);
    bool any = false;
    for (size_t c = 0; c < schema->fields.size(); c++) {
      LakeColumnStats stats;
      const IcebergField& field = schema->fields[c];
      const bool partition_column = std::find(out.partition_columns.begin(), out.partition_columns.end(),
                                              static_cast<int>(c)) != out.partition_columns.end();
      // A file column matched by name in files without ids holds what the mapping says, not
      // necessarily the partition's source values.
      if (spec != nullptr && field.is_primitive() && !(out.columns[c].physical_name.empty() && !partition_column)) {
        for (size_t k = 0; k < spec->fields.size() && k < m.partitions.size(); k++) {
          if (spec->fields[k].source_id != field.id || spec->fields[k].transform.kind != IcebergTransform::Kind::kIdentity) {
            continue;
          }
          stats = SummaryStats(m.partitions[k], field, partition_column);
          any = true;
          break;
        }
        if (!partition_column && spec->fields.size() == m.partitions.size()) {
          for (size_t k = 0; k < spec->fields.size(); k++) {
            if (spec->fields[k].source_id == field.id) AddSummaryBounds(m.partitions[k], spec->fields[k], field, &stats);
          }
          any |= stats.null_count >= 0 || stats.min.kind != LakeValue::Kind::kNone ||
                 stats.max.kind != LakeValue::Kind::kNone || stats.bucket_count != 0;
        }
      }
      group.stats.push_back(std::move(stats));
    }
    if (!any) group.stats.clear();
    out.file_groups.push_back(std::move(group));
  }
  for (size_t i = 0; i < plan.data_files.size(); i++) {
    IcebergDataFile& data = plan.data_files[i];
    if (data.format != "PARQUET") {
      throw ParquetError(TableName(path) + ": data file '" + data.path + "' is " + data.format +
                         ": only Parquet data files are read");
    }
    LakeDataFile file;
    file.path = data.resolved_path;
    file.size = data.file_size;
    file.record_count = data.record_count;
    file.group = i < plan.manifest_of.size() ? static_cast<int32_t>(plan.manifest_of[i]) : -1;
    for (size_t c = 0; c < schema->fields.size(); c++) {
      // A column the name mapping leaves out reads as NULL in files without field ids: the
      // manifests' metrics of its field id do not describe what such a file gives.
      if (out.columns[c].physical_name.empty()) {
        file.stats.emplace_back();
        continue;
      }
      LakeColumnStats stats = StatsOf(data, schema->fields[c]);
      AddPartitionBounds(data, metadata.FindSpec(data.spec_id), schema->fields[c], &stats);
      file.stats.push_back(std::move(stats));
    }
    for (size_t k = 0; k < out.partition_columns.size(); k++) {
      const IcebergField& field = schema->fields[static_cast<size_t>(out.partition_columns[k])];
      file.partition_values.push_back(PartitionLakeValue(data.partition[static_cast<size_t>(identity_slot[k][i])], field.type));
    }
    if (!plan.deletes_of[i].empty()) {
      std::vector<IcebergDataFile> deletes;
      for (uint32_t d : plan.deletes_of[i]) deletes.push_back(plan.delete_files[d]);
      file.deleted =
          std::make_shared<IcebergDeletedRowsSource>(data.path, data.resolved_path, std::move(deletes), schema, options.remote);
    }
    out.files.push_back(std::move(file));
  }
  return out;
}

std::vector<LakeHistoryEntry> ReadIcebergHistory(LakeStorage& storage, const std::string& path) {
  CheckNamedWithoutListing(storage, path);
  std::unique_ptr<IcebergFileSystem> fs = IcebergFileSystemOver(storage);
  std::string root;
  const std::string metadata_path = LocateIcebergMetadata(*fs, path, &root);
  const IcebergTableMetadata metadata =
      ParseIcebergMetadata(MaybeGunzipMetadata(fs->Read(metadata_path, kMaxMetadataBytes), metadata_path), metadata_path);
  std::vector<const IcebergSnapshot*> snapshots;
  for (const IcebergSnapshot& s : metadata.snapshots) snapshots.push_back(&s);
  std::stable_sort(snapshots.begin(), snapshots.end(), [](const IcebergSnapshot* a, const IcebergSnapshot* b) {
    return a->sequence_number != b->sequence_number ? a->sequence_number < b->sequence_number : a->timestamp_ms < b->timestamp_ms;
  });
  std::vector<LakeHistoryEntry> out;
  for (const IcebergSnapshot* s : snapshots) {
    LakeHistoryEntry e;
    e.version = s->sequence_number;
    e.snapshot_id = s->snapshot_id;
    e.parent_id = s->parent_snapshot_id.value_or(-1);
    e.timestamp_ms = s->timestamp_ms;
    e.operation = s->operation;
    std::string json = "{";
    for (const auto& entry : s->summary) {
      if (json.size() > 1) json.push_back(',');
      AppendJsonString(entry.first, &json);
      json.push_back(':');
      AppendJsonString(entry.second, &json);
    }
    json.push_back('}');
    e.parameters_json = std::move(json);
    auto number = [&](const char* key) -> int64_t {
      for (const auto& entry : s->summary) {
        if (entry.first == key) {
          int64_t v = 0;
          for (char c : entry.second) {
            if (c < '0' || c > '9' || v > INT64_MAX / 10 - 10) return -1;
            v = v * 10 + (c - '0');
          }
          return entry.second.empty() ? -1 : v;
        }
      }
      return -1;
    };
    e.files_added = number("added-data-files");
    e.files_removed = number("deleted-data-files");
    e.rows_added = number("added-records");
    e.rows_removed = number("deleted-records");
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace parquet::lake

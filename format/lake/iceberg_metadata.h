// Apache Iceberg table metadata: the metadata.json of format versions 1, 2 and 3 (gzip
// compressed ones too), version-hint.text and the choice of the current metadata file,
// schemas with field ids and v3 initial defaults, partition specs and their transforms
// (identity, bucket with Iceberg's murmur3, truncate, year, month, day, hour, void),
// snapshots, refs and the snapshot log, time travel (snapshot id, timestamp, ref), the
// default name mapping, the single-value binary form of bounds (Appendix D), and the
// resolution of the paths the metadata records (moved tables, external files).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parquet::lake {

// ---------------------------------------------------------------------------------------
// Schemas

struct IcebergField {
  int32_t id = 0;
  std::string name;
  bool required = false;
  // "struct", "list", "map", or the primitive's name as written: "int", "long",
  // "decimal(9,2)", "fixed[16]", "timestamp", "timestamptz", "timestamp_ns", ...
  std::string type;
  // struct: its fields; list: the element (one child, named "element"); map: key then value.
  std::vector<IcebergField> children;
  // v3 defaults, as the JSON text written in the metadata ("" when absent).
  std::string initial_default;
  std::string write_default;
  bool is_primitive() const { return type != "struct" && type != "list" && type != "map"; }
};

struct IcebergSchema {
  int32_t schema_id = 0;
  std::vector<IcebergField> fields;
  std::vector<int32_t> identifier_field_ids;
  // The field with this id anywhere in the schema, or nullptr.
  const IcebergField* FindField(int32_t id) const;
  // The top-level or nested field named by a dotted path ("a.b"), or nullptr.
  const IcebergField* FindByName(std::string_view name) const;
};

// A primitive type's parameters ("decimal(P,S)", "fixed[L]").
struct IcebergPrimitive {
  std::string name;  // "decimal", "fixed", or the type as written
  int32_t precision = 0, scale = 0, length = 0;
};
IcebergPrimitive ParseIcebergPrimitive(std::string_view type);

// ---------------------------------------------------------------------------------------
// Partition specs and transforms

struct IcebergTransform {
  enum class Kind { kIdentity, kBucket, kTruncate, kYear, kMonth, kDay, kHour, kVoid, kUnknown };
  Kind kind = Kind::kUnknown;
  int32_t parameter = 0;  // bucket count, truncate width
  std::string text;       // as written
  static IcebergTransform Parse(std::string_view text);
};

struct IcebergPartitionField {
  int32_t source_id = 0;
  int32_t field_id = 0;
  std::string name;
  IcebergTransform transform;
};

struct IcebergPartitionSpec {
  int32_t spec_id = 0;
  std::vector<IcebergPartitionField> fields;
  // Unpartitioned: no fields, or only void transforms.
  bool unpartitioned() const;
};

// Iceberg's bucket hash: murmur3 x86 32-bit, seed 0, of the value's hash bytes (spec,
// Appendix B), and the bucket (hash & INT32_MAX) % n.
int32_t IcebergMurmur3(const uint8_t* data, size_t size);
int32_t IcebergHashLong(int64_t value);   // int, long, date, time, timestamp (as long)
int32_t IcebergHashBytes(std::string_view bytes);  // string (UTF-8), binary, fixed, uuid (16 bytes big endian)
// A decimal's unscaled value, given as its minimal big-endian two's complement bytes.
int32_t IcebergHashDecimal(std::string_view unscaled_be);
int32_t IcebergBucket(int32_t hash, int32_t n);

// Time transforms of a source value in its Iceberg unit (date: days; timestamp: micros or
// nanos per `nanos`): years, months, days or hours since 1970 (floor division).
int32_t IcebergYearFromDays(int32_t days);
int32_t IcebergMonthFromDays(int32_t days);
int64_t IcebergDaysFromTimestamp(int64_t value, bool nanos);
int64_t IcebergHoursFromTimestamp(int64_t value, bool nanos);
// truncate[W] of an integer (int, long, decimal unscaled value): v - (((v % W) + W) % W).
int64_t IcebergTruncateInteger(int64_t value, int32_t width);
// truncate[W] of a string: its first W code points (UTF-8); of binary: the first W bytes.
std::string IcebergTruncateString(std::string_view value, int32_t width);

// The source values one partition value stands for, for pruning (the inverse of an
// order-preserving transform): every source value v whose transform is `partition` lies in
// [*lo, *hi], in the source's Iceberg unit: days for a date source (`date_source`), micro-
// or nanoseconds (`nanos`) for a timestamp source, the value itself for truncate of an
// integer. Year, month and day of dates and timestamps, hour of timestamps, truncate[W] of
// integers. False for any other transform (identity, bucket, void, string truncate) and
// when the range leaves the int64 range.
bool IcebergTransformRange(const IcebergTransform& transform, bool date_source, bool nanos, int64_t partition,
                           int64_t* lo, int64_t* hi);
// Days since 1970-01-01 of a proleptic Gregorian date (any year within +-2^40).
int64_t IcebergDaysFromCivil(int64_t year, unsigned month, unsigned day);
// The shortest text greater than every text that starts with `prefix` (memcmp order): the
// prefix with its last byte below 0xFF incremented and the rest dropped; nullopt when
// there is none (empty, or all 0xFF).
std::optional<std::string> IcebergPrefixUpperBound(std::string_view prefix);

// ---------------------------------------------------------------------------------------
// Snapshots and table metadata

struct IcebergSnapshot {
  int64_t snapshot_id = 0;
  std::optional<int64_t> parent_snapshot_id;
  int64_t sequence_number = 0;  // 0 in v1
  int64_t timestamp_ms = 0;
  std::string manifest_list;            // "" for a v1 snapshot listing manifests itself
  std::vector<std::string> manifests;   // v1 only
  std::string operation;
  std::vector<std::pair<std::string, std::string>> summary;  // in written order, operation included
  std::optional<int32_t> schema_id;
};

struct IcebergRef {
  std::string name;
  int64_t snapshot_id = 0;
  std::string type;  // "branch" or "tag"
};

// One name of schema.name-mapping.default: the names a field had, its id, its nested mapping.
struct IcebergNameMapping {
  std::optional<int32_t> field_id;
  std::vector<std::string> names;
  std::vector<IcebergNameMapping> fields;
};

struct IcebergTableMetadata {
  int32_t format_version = 1;
  std::string table_uuid;
  std::string location;
  int64_t last_sequence_number = 0;
  int64_t last_updated_ms = 0;
  int32_t current_schema_id = 0;
  std::vector<IcebergSchema> schemas;
  int32_t default_spec_id = 0;
  std::vector<IcebergPartitionSpec> specs;
  std::map<std::string, std::string> properties;
  std::optional<int64_t> current_snapshot_id;
  std::vector<IcebergSnapshot> snapshots;
  std::vector<IcebergRef> refs;
  std::vector<std::pair<int64_t, int64_t>> snapshot_log;  // (timestamp-ms, snapshot-id)
  std::vector<IcebergNameMapping> name_mapping;  // empty when the table has none
  bool has_name_mapping = false;

  const IcebergSchema& current_schema() const;
  const IcebergSchema* FindSchema(int32_t id) const;
  const IcebergPartitionSpec* FindSpec(int32_t id) const;
  const IcebergSnapshot* FindSnapshot(int64_t id) const;
  // The current snapshot (nullptr for a table without one).
  const IcebergSnapshot* CurrentSnapshot() const;
};

// Parses a metadata.json text (already decompressed); `file` names it in errors.
IcebergTableMetadata ParseIcebergMetadata(std::string_view json, const std::string& file);
// Decompresses a gzip metadata file when it starts with gzip's magic (bounded: at most
// 256 MiB out); otherwise returns it unchanged.
std::string MaybeGunzipMetadata(std::string data, const std::string& file);

// Time travel: the snapshot a query reads. At most one of the selectors is set; with none,
// the current snapshot (nullptr when the table has none). Throws ParquetError naming the
// snapshot id, timestamp or ref when there is no such snapshot.
struct IcebergSnapshotSelector {
  std::optional<int64_t> snapshot_id;
  std::optional<int64_t> timestamp_ms;  // the snapshot current at this time (from the snapshot log)
  std::optional<std::string> ref;
};
const IcebergSnapshot* SelectIcebergSnapshot(const IcebergTableMetadata& metadata,
                                             const IcebergSnapshotSelector& selector);
// The schema a snapshot is read with: the snapshot's schema when time travelling by id or
// timestamp, the table's current one otherwise (as Iceberg readers do for branches).
const IcebergSchema& IcebergSchemaForSnapshot(const IcebergTableMetadata& metadata,
                                              const IcebergSnapshot* snapshot, bool time_travel);

// ---------------------------------------------------------------------------------------
// Bounds (single-value serialization, Appendix D)

// A decoded bound or partition value: null, an integer (boolean, int, long, date, time,
// timestamps, decimals up to 18 digits as unscaled), a float or double, or bytes (string,
// binary, fixed, uuid; decimals beyond 18 digits as unscaled big-endian bytes).
struct IcebergValue {
  enum class Kind : uint8_t { kNull, kInteger, kFloat, kBytes };
  Kind kind = Kind::kNull;
  int64_t integer = 0;
  double real = 0;
  std::string bytes;
  bool operator==(const IcebergValue& other) const;
};
// Decodes a bound of a primitive type; throws ParquetError when its size does not fit the type.
IcebergValue DecodeIcebergBound(std::string_view type, std::string_view bytes);

// ---------------------------------------------------------------------------------------
// Files: where the metadata lives and how its paths are read

// Access to files for the metadata readers: local files here, remote ones given by the caller.
class IcebergFileSystem {
 public:
  virtual ~IcebergFileSystem() = default;
  // The whole file; throws ParquetError naming it when it cannot be read or exceeds max_bytes.
  virtual std::string Read(const std::string& path, size_t max_bytes) = 0;
  // True when the file exists (false for a directory).
  virtual bool Exists(const std::string& path) = 0;
  // The names in a directory ("" list when it does not exist or cannot be listed).
  virtual std::vector<std::string> List(const std::string& directory) = 0;
};
std::unique_ptr<IcebergFileSystem> LocalIcebergFileSystem();

// The metadata file of a table found at `path`: the path itself when it names a
// .metadata.json (.gz) file; otherwise the file version-hint.text names in path/metadata, or
// the highest version among path/metadata/*.metadata.json. Sets *table_root to the table's
// directory (the parent of metadata/). Throws ParquetError when none is found.
std::string LocateIcebergMetadata(IcebergFileSystem& fs, const std::string& path, std::string* table_root);

// Turns a path written in the metadata into one to read. The table's recorded `location`
// (where it was written: hdfs://..., s3://other-bucket/..., a relative path) may differ from
// `table_root`, where it was found: paths under the location then resolve below table_root
// only with allow_moved_paths; paths under neither are refused unless allow_external_paths.
struct IcebergPathResolver {
  std::string table_root;
  std::string location;
  bool allow_moved_paths = false;
  bool allow_external_paths = false;
  std::string Resolve(const std::string& path) const;
};

}  // namespace parquet::lake

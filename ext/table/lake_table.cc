// Lake tables as `parquet` tables (lake_table.h): detection, the snapshot turned into the
// table's columns and files, per-file column mapping, pruning by the log's statistics and
// the removal of deleted rows from a row group's ranges.
#include "ext/table/lake_table.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string_view>

#include "ext/common/file_list.h"
#include "ext/common/hive_partitions.h"
#include "ext/common/parquet_to_sql.h"
#include "ext/common/sql_value.h"
#include "ext/table/iceberg_catalog.h"
#include "format/common/error.h"
#include "format/io/remote_file.h"
#include "format/lake/delta_log.h"
#include "format/lake/iceberg_metadata.h"
#include "format/lake/iceberg_snapshot.h"
#include "format/lake/lake_storage.h"
#include "format/platform/system.h"
#include "format/values/logical_values.h"

namespace sqlite_parquet {

namespace {

using parquet::lake::LakeColumn;
using parquet::lake::LakeSnapshot;
using parquet::lake::LakeType;
using parquet::lake::LakeValue;

std::string TableRoot(const ParquetTable& table) {
  std::string root = table.options.filename;
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  return root;
}

std::string TemporalType(TimestampForm form, const char* name) {
  switch (form) {
    case TimestampForm::kText: return std::string("TEXT ") + name;
    case TimestampForm::kJulianDay: return std::string("REAL ") + name;
    default: return std::string("INTEGER ") + name;
  }
}

// The declared type of a lake column, as the type mapping declares the Parquet column the
// type is stored as (docs/type-mapping.md).
std::string DeclaredTypeOf(const LakeType& type, const MappingOptions& options) {
  switch (type.kind) {
    case LakeType::Kind::kBoolean: return "INTEGER BOOLEAN";
    case LakeType::Kind::kByte: case LakeType::Kind::kShort: case LakeType::Kind::kInt: case LakeType::Kind::kLong:
      return "INTEGER";
    case LakeType::Kind::kFloat: return "REAL FLOAT";
    case LakeType::Kind::kDouble: return "REAL";
    case LakeType::Kind::kDecimal:
      return std::string(options.decimal_as_text ? "TEXT" : "REAL") + " DECIMAL(" + std::to_string(type.precision) + "," +
             std::to_string(type.scale) + ")";
    case LakeType::Kind::kString: return "TEXT";
    case LakeType::Kind::kBinary: return options.binary_as_string ? "TEXT" : "BLOB";
    case LakeType::Kind::kDate: return TemporalType(options.timestamp_form, "DATE");
    case LakeType::Kind::kTimestamp: case LakeType::Kind::kTimestampNtz:
      return TemporalType(options.timestamp_form, "TIMESTAMP_MICROS");
    case LakeType::Kind::kVariant: case LakeType::Kind::kStruct: case LakeType::Kind::kArray: case LakeType::Kind::kMap:
      return "TEXT JSON";
    case LakeType::Kind::kOther: return "";
  }
  return "";
}

HiveType HiveTypeOf(const LakeType& type) {
  switch (type.kind) {
    case LakeType::Kind::kBoolean: case LakeType::Kind::kByte: case LakeType::Kind::kShort: case LakeType::Kind::kInt:
    case LakeType::Kind::kLong:
      return HiveType::kInteger;
    case LakeType::Kind::kFloat: case LakeType::Kind::kDouble: case LakeType::Kind::kDecimal: return HiveType::kReal;
    default: return HiveType::kText;
  }
}

// The storage of the table's root: a local directory, an s3:// prefix, or (Iceberg, named
// by its metadata file) an https:// URL.
std::unique_ptr<parquet::lake::LakeStorage> StorageOf(const ParquetTable& table, const std::string& root) {
  if (parquet::IsRemoteUrl(root) && !parquet::IsS3Url(root) && table.lake_format != "iceberg") {
    throw parquet::ParquetError("lake table '" + parquet::PathForDisplay(root) +
                                "': a Delta table needs a listing of its log: use a local directory or s3://");
  }
  return parquet::lake::MakeStorageFor(root, table.options.remote);
}

// Where the table is: its path, or the metadata file its catalog row names.
std::string LocationOf(const ParquetTable& table) {
  if (table.options.catalog.empty()) return TableRoot(table);
  IcebergCatalogTable catalog;
  catalog.catalog_path = table.options.catalog;
  catalog.table = table.options.catalog_table;
  catalog.catalog_name = table.options.catalog_name;
  catalog.allow_moved_paths = table.options.allow_moved_paths;
  std::string location = ResolveIcebergCatalogTable(catalog);
  if (table.catalog_network_paths_allowed && parquet::platform::IsWindowsNetworkPath(location) &&
      !table.catalog_network_paths_allowed->load()) {
    throw parquet::ParquetError("parquet table " + table.name + " was read from the database file and its " +
                                IcebergCatalogTableName(catalog) + " names the network path '" + location +
                                "': opening it would make Windows log in to that server with the user's credentials, so "
                                "it is not opened; to read it, let this connection's tables use network paths with "
                                "SELECT parquet_allow_ambient_credentials(1)");
  }
  return location;
}

// The snapshot the table's options ask for, read by the reader of its format (the one
// place a new lake format plugs in: it fills the same LakeSnapshot).
std::shared_ptr<const LakeSnapshot> ReadSnapshot(const ParquetTable& table) {
  const std::string root = LocationOf(table);
  std::unique_ptr<parquet::lake::LakeStorage> storage = StorageOf(table, root);
  if (table.lake_format == "iceberg") {
    if (table.options.version) {
      throw parquet::ParquetError("Iceberg table '" + parquet::PathForDisplay(root) +
                                  "': version= applies to Delta tables; use snapshot_id=, timestamp= or ref=");
    }
    parquet::lake::IcebergReadOptions iceberg;
    iceberg.snapshot_id = table.options.snapshot_id;
    iceberg.timestamp_ms = table.options.timestamp_ms;
    iceberg.ref = table.options.ref;
    iceberg.allow_moved_paths = table.options.allow_moved_paths;
    iceberg.allow_external_paths = table.options.allow_external_paths;
    iceberg.remote = table.options.remote;
    return std::make_shared<const LakeSnapshot>(parquet::lake::ReadIcebergSnapshot(*storage, root, iceberg));
  }
  if (table.lake_format == "delta") {
    if (table.options.snapshot_id || table.options.ref) {
      throw parquet::ParquetError("Delta table '" + parquet::PathForDisplay(root) +
                                  "': snapshot_id= and ref= apply to Iceberg tables; use version= or timestamp=");
    }
    parquet::lake::DeltaReadOptions options;
    options.version = table.options.version;
    options.timestamp_ms = table.options.timestamp_ms;
    options.allow_external_paths = table.options.allow_external_paths;
    options.remote = table.options.remote;
    return std::make_shared<const LakeSnapshot>(parquet::lake::ReadDeltaSnapshot(*storage, root, options));
  }
  throw parquet::ParquetError("lake table '" + parquet::PathForDisplay(root) + "': unknown lake format '" +
                              table.lake_format + "'");
}

std::shared_ptr<const FileSet> FileSetOf(const ParquetTable& table, std::shared_ptr<const LakeSnapshot> snapshot) {
  auto files = std::make_shared<FileSet>();
  for (const parquet::lake::LakeDataFile& file : snapshot->files) {
    files->paths.push_back(file.path);
    std::vector<HiveValue> values;
    for (size_t k = 0; k < table.hive_keys.size(); k++) {
      const int lake_column = table.lake_columns[table.file_columns.size() + k];
      HiveValue value;
      const auto& partitions = snapshot->partition_columns;
      const auto at = std::find(partitions.begin(), partitions.end(), lake_column);
      if (at != partitions.end()) {
        const LakeValue& v = file.partition_values[static_cast<size_t>(at - partitions.begin())];
        switch (v.kind) {
          case LakeValue::Kind::kInteger:
            value.is_null = false;
            value.integer = v.integer;
            value.real = static_cast<double>(v.integer);
            value.text = std::to_string(v.integer);
            break;
          case LakeValue::Kind::kReal:
            value.is_null = false;
            value.real = v.real;
            value.text = std::to_string(v.real);
            break;
          case LakeValue::Kind::kText:
            value.is_null = false;
            value.text = v.text;
            break;
          default: break;
        }
      }
      values.push_back(std::move(value));
    }
    files->hive_values.push_back(std::move(values));
  }
  // The metadata's record counts stand for the files' rows (rowids, counted scans); a scan
  // that opens a file checks its count (OpenFile).
  files->rows.assign(files->paths.size(), -1);
  for (size_t i = 0; i < snapshot->files.size(); i++) {
    const int64_t claimed = snapshot->files[i].record_count;
    files->rows[i] = claimed >= 0 && claimed <= kMaxTrustedRecordCount ? claimed : -1;
  }
  files->lake = std::move(snapshot);
  return files;
}

// table->lake_columns from the names of its columns; throws when the snapshot lacks one.
void MatchLakeColumns(ParquetTable* table, const LakeSnapshot& snapshot) {
  table->lake_columns.clear();
  auto find = [&](const std::string& name, bool partition) {
    for (size_t c = 0; c < snapshot.columns.size(); c++) {
      const bool is_partition = std::find(snapshot.partition_columns.begin(), snapshot.partition_columns.end(),
                                          static_cast<int>(c)) != snapshot.partition_columns.end();
      if (snapshot.columns[c].name == name && is_partition == partition) return static_cast<int>(c);
    }
    throw parquet::ParquetError(std::string(snapshot.format == "iceberg" ? "Iceberg" : "Delta") + " table '" +
                                parquet::PathForDisplay(snapshot.root) + "' version " +
                                std::to_string(snapshot.version) + " has no " + (partition ? "partition " : "") +
                                "column '" + name + "' of table " + table->name +
                                " (its schema changed since the table was created: recreate it)");
  };
  for (const FileColumn& column : table->file_columns) table->lake_columns.push_back(find(column.name, false));
  for (const HiveKey& key : table->hive_keys) table->lake_columns.push_back(find(key.name, true));
}

// The value every row of a file without `column` reads (its initial default), as the
// Parquet column of the column's type would give it; null when it has none.
std::shared_ptr<const OwnedSqlValue> DefaultOf(const LakeColumn& column, const MappingOptions& options) {
  const LakeValue& d = column.initial_default;
  if (d.kind != LakeValue::Kind::kInteger && d.kind != LakeValue::Kind::kReal && d.kind != LakeValue::Kind::kText) {
    return nullptr;
  }
  ColumnMapping m;
  ParquetValue value;
  value.integer = d.integer;
  value.real = d.real;
  value.bytes = parquet::ByteArray{reinterpret_cast<const uint8_t*>(d.text.data()), static_cast<uint32_t>(d.text.size())};
  const LakeType& type = column.type;
  const std::string& name = type.name;
  using Kind = LakeType::Kind;
  switch (type.kind) {
    case Kind::kBoolean: m.kind = ValueKind::kBoolean; break;
    case Kind::kByte: case Kind::kShort: case Kind::kInt: m.kind = ValueKind::kInt32; break;
    case Kind::kLong: m.kind = ValueKind::kInt64; break;
    case Kind::kFloat: m.kind = ValueKind::kFloat; break;
    case Kind::kDouble: m.kind = ValueKind::kDouble; break;
    case Kind::kDecimal:
      m.kind = d.kind == LakeValue::Kind::kText ? ValueKind::kDecimalBytes : ValueKind::kDecimalInt64;
      m.decimal_scale = type.scale;
      m.decimal_as_text = options.decimal_as_text;
      break;
    case Kind::kString: m.kind = ValueKind::kText; break;
    case Kind::kBinary: m.kind = options.binary_as_string ? ValueKind::kText : ValueKind::kBlob; break;
    case Kind::kDate:
      m.kind = ValueKind::kDate;
      m.timestamp_form = options.timestamp_form;
      break;
    case Kind::kTimestamp: case Kind::kTimestampNtz:
      m.kind = ValueKind::kTimestamp;
      m.time_unit = parquet::TimeUnit::MICROS;
      m.timestamp_form = options.timestamp_form;
      break;
    case Kind::kOther:
      if (name == "time") {
        m.kind = ValueKind::kTime64;
        m.time_unit = parquet::TimeUnit::MICROS;
      } else if (name == "timestamp_ns" || name == "timestamptz_ns") {
        m.kind = ValueKind::kTimestamp;
        m.time_unit = parquet::TimeUnit::NANOS;
        m.timestamp_form = options.timestamp_form;
      } else if (name == "uuid") {
        m.kind = ValueKind::kUuid;
      } else if (name.rfind("fixed", 0) == 0) {
        m.kind = ValueKind::kBlob;
      } else {
        return nullptr;
      }
      break;
    default: return nullptr;
  }
  // Kinds that hold bytes need them; the others their number.
  const bool bytes = m.kind == ValueKind::kText || m.kind == ValueKind::kBlob || m.kind == ValueKind::kUuid ||
                     m.kind == ValueKind::kDecimalBytes;
  if (bytes != (d.kind == LakeValue::Kind::kText)) return nullptr;
  if ((m.kind == ValueKind::kFloat || m.kind == ValueKind::kDouble) != (d.kind == LakeValue::Kind::kReal)) return nullptr;
  FormatBuffer buffer;
  SqlValue sql;
  if (!ToSqlValue(m, value, &buffer, &sql)) {
    throw parquet::ParquetError("the default of column '" + column.name + "' does not fit timestamp_as");
  }
  return std::make_shared<const OwnedSqlValue>(OwnedSqlValue::Of(sql));
}

}  // namespace

namespace {

// Whether format=auto probes the table's s3:// path for a Delta log: a prefix (ending in
// '/', no glob), never a single object.
bool ProbesS3Prefix(const ParquetTable& table) {
  const std::string& path = table.options.filename;
  return table.options.format == "auto" && parquet::IsS3Url(path) && !path.empty() && path.back() == '/' &&
         !HasGlobCharacters(path);
}

}  // namespace

bool MayBeLakeTable(const ParquetTable& table) {
  return table.is_lake ? *table.is_lake : ProbesS3Prefix(table);
}

bool IsLakeTable(ParquetTable* table, bool may_probe_remote) {
  if (table->is_lake) return *table->is_lake;
  const std::string& format = table->options.format;
  bool lake = false;
  if (format == "delta" || format == "iceberg") {
    lake = true;
    table->lake_format = format;
  } else if (format == "auto") {
    // Local directories are probed for a Delta or Iceberg table, an s3:// prefix for a
    // Delta log (one listing request of at most one key; a table connected from a database
    // file probes at its first scan, not when connected); a URL naming a .metadata.json
    // file is an Iceberg table by its name.
    const std::string root = TableRoot(*table);
    if (ProbesS3Prefix(*table)) {
      if (!may_probe_remote) return false;  // undecided (is_lake unset)
      std::unique_ptr<parquet::lake::LakeStorage> storage = parquet::lake::MakeS3Storage(table->options.remote);
      if (parquet::lake::IsDeltaTable(*storage, root)) {
        lake = true;
        table->lake_format = "delta";
      }
    } else if (parquet::IsRemoteUrl(root)) {
      std::unique_ptr<parquet::lake::LakeStorage> storage = parquet::lake::MakeHttpStorage(table->options.remote);
      if (parquet::lake::IsIcebergTable(*storage, root)) {
        lake = true;
        table->lake_format = "iceberg";
      }
    } else {
      std::unique_ptr<parquet::lake::LakeStorage> storage = parquet::lake::MakeLocalStorage();
      if (parquet::lake::IsDeltaTable(*storage, root)) {
        lake = true;
        table->lake_format = "delta";
      } else if (parquet::lake::IsIcebergTable(*storage, root)) {
        lake = true;
        table->lake_format = "iceberg";
      }
    }
  }
  table->is_lake = lake;
  return lake;
}

void CreateLakeTable(ParquetTable* table) {
  std::shared_ptr<const LakeSnapshot> snapshot = ReadSnapshot(*table);
  table->file_columns.clear();
  table->hive_keys.clear();
  for (size_t c = 0; c < snapshot->columns.size(); c++) {
    const LakeColumn& column = snapshot->columns[c];
    const bool partition = std::find(snapshot->partition_columns.begin(), snapshot->partition_columns.end(),
                                     static_cast<int>(c)) != snapshot->partition_columns.end();
    if (partition) {
      table->hive_keys.push_back(HiveKey{column.name, HiveTypeOf(column.type)});
    } else {
      table->file_columns.push_back(
          FileColumn{column.name, DeclaredTypeOf(column.type, table->options.mapping), column.type.nested()});
    }
  }
  if (table->file_columns.empty() && table->hive_keys.empty()) {
    throw parquet::ParquetError(std::string(snapshot->format == "iceberg" ? "Iceberg" : "Delta") + " table '" +
                                parquet::PathForDisplay(snapshot->root) + "' has no columns");
  }
  MatchLakeColumns(table, *snapshot);
  int64_t rows = 0;
  for (const auto& file : snapshot->files) rows += std::max<int64_t>(file.record_count, 0);
  table->estimated_rows = rows;
  table->files = FileSetOf(*table, std::move(snapshot));
}

std::shared_ptr<const FileSet> ListLakeFiles(ParquetTable* table) {
  std::shared_ptr<const LakeSnapshot> snapshot = ReadSnapshot(*table);
  MatchLakeColumns(table, *snapshot);
  int64_t rows = 0;
  for (const auto& file : snapshot->files) rows += std::max<int64_t>(file.record_count, 0);
  table->estimated_rows = rows;
  return FileSetOf(*table, std::move(snapshot));
}

std::vector<ColumnMapping> MapLakeFileColumns(const ParquetTable& table, const parquet::ParquetFileReader& file,
                                              const std::string& path) {
  const parquet::Schema& schema = file.schema();
  const LakeSnapshot& snapshot = *table.files->lake;
  const size_t num_fields = schema.top_level_fields().size();
  // A file written without field ids (an Iceberg table migrated from Hive, with a name
  // mapping) has its columns matched by name.
  bool file_has_ids = false;
  for (size_t f = 0; f < num_fields; f++) file_has_ids |= schema.node(schema.top_level_fields()[f]).field_id.has_value();
  std::vector<ColumnMapping> mappings(table.file_columns.size());
  for (size_t c = 0; c < table.file_columns.size(); c++) {
    const LakeColumn& column = snapshot.columns[static_cast<size_t>(table.lake_columns[c])];
    for (size_t f = 0; f < num_fields; f++) {
      const parquet::SchemaNode& node = schema.node(schema.top_level_fields()[f]);
      const bool match = column.field_id >= 0 && file_has_ids ? node.field_id && *node.field_id == column.field_id
                                                              : node.name == column.physical_name;
      if (!match) continue;
      mappings[c] = MapTopLevelField(schema, static_cast<int>(f), table.options.mapping);
      if ((mappings[c].kind == ValueKind::kNested) != table.file_columns[c].nested) {
        throw parquet::ParquetError("column '" + column.name + "' is " +
                                    (table.file_columns[c].nested ? "nested" : "not nested") + " in the table's schema but " +
                                    (table.file_columns[c].nested ? "not nested" : "nested") + " in data file " +
                                    parquet::PathForDisplay(path));
      }
      break;
    }
    if (mappings[c].kind == ValueKind::kNull && mappings[c].leaf_column < 0 && !table.file_columns[c].nested) {
      mappings[c].constant = DefaultOf(column, table.options.mapping);  // the file lacks the column
    }
  }
  return mappings;
}

namespace {

// The Iceberg bucket (of `count`) of a value compared with a column bucketed by `key`, as
// the column's values would hash when equal to it; nullopt when not known (then nothing is
// ruled out). A column of integers equals an integral real too; a date or timestamp
// column (text "YYYY-MM-DD", "YYYY-MM-DD HH:MM:SS[.fraction]") equals only the text its
// value prints as.
std::optional<int32_t> IcebergBucketOf(const SqlValue& v, parquet::lake::LakeColumnStats::BucketKey key, int32_t count,
                                       ValueClass value_class) {
  using Key = parquet::lake::LakeColumnStats::BucketKey;
  switch (key) {
    case Key::kInteger:
      if (value_class != ValueClass::kNumeric) return std::nullopt;
      if (v.type == SqlValue::Type::kInteger) return parquet::lake::IcebergBucket(parquet::lake::IcebergHashLong(v.integer), count);
      if (v.type == SqlValue::Type::kReal && v.real >= -9.2e18 && v.real <= 9.2e18 && v.real == std::floor(v.real)) {
        return parquet::lake::IcebergBucket(parquet::lake::IcebergHashLong(static_cast<int64_t>(v.real)), count);
      }
      return std::nullopt;
    case Key::kText:
      if (value_class != ValueClass::kText || v.type != SqlValue::Type::kText) return std::nullopt;
      return parquet::lake::IcebergBucket(parquet::lake::IcebergHashBytes(v.bytes), count);
    case Key::kDate: {
      if (value_class != ValueClass::kText || v.type != SqlValue::Type::kText) return std::nullopt;
      int32_t days = 0;
      if (!parquet::ParseDate(v.bytes, &days)) return std::nullopt;
      char buffer[parquet::kDateTextCapacity + 1];
      if (std::string_view(buffer, parquet::FormatDate(days, buffer)) != v.bytes) return std::nullopt;
      return parquet::lake::IcebergBucket(parquet::lake::IcebergHashLong(days), count);
    }
    case Key::kTimestamp: {
      // The text of one instant, whatever unit a file stores it in (the fraction's trailing
      // zeros are never shown): the microseconds it parses to, if it prints back as itself.
      if (value_class != ValueClass::kText || v.type != SqlValue::Type::kText) return std::nullopt;
      int64_t micros = 0;
      if (!parquet::ParseTimestamp(v.bytes, parquet::TimeUnit::MICROS, &micros)) return std::nullopt;
      char buffer[parquet::kTimestampTextCapacity + 1];
      if (std::string_view(buffer, parquet::FormatTimestamp(micros, parquet::TimeUnit::MICROS, buffer)) != v.bytes) {
        return std::nullopt;
      }
      return parquet::lake::IcebergBucket(parquet::lake::IcebergHashLong(micros), count);
    }
    case Key::kNone: break;
  }
  return std::nullopt;
}

// Whether a column bucketed into [stats.bucket_lo, stats.bucket_hi] may hold a value of an
// =, IS or IN filter.
bool BucketMayMatch(const parquet::lake::LakeColumnStats& stats, ValueClass value_class, const ColumnFilter& filter) {
  if (stats.bucket_count <= 0 || !filter.active) return true;
  if (filter.op != ConstraintOp::kEq && filter.op != ConstraintOp::kIs && filter.op != ConstraintOp::kIn) return true;
  for (const SqlValue& v : filter.values) {
    if (v.is_null()) {
      if (filter.op == ConstraintOp::kIs) return true;  // IS NULL: the null counts decide
      continue;
    }
    const std::optional<int32_t> bucket = IcebergBucketOf(v, stats.bucket_key, stats.bucket_count, value_class);
    if (!bucket || (*bucket >= stats.bucket_lo && *bucket <= stats.bucket_hi)) return true;
  }
  return false;
}

// Whether values bounded by `stats` (in `record_count` rows, -1 unknown) may satisfy
// `filter`, whose column's values are of `value_class`.
bool StatsMayMatch(const parquet::lake::LakeColumnStats& stats, int64_t record_count, ValueClass value_class,
                   const ColumnFilter& filter) {
  if (!BucketMayMatch(stats, value_class, filter)) return false;
  ValueBounds bounds;
  auto bound = [&](const LakeValue& v, std::string* storage) -> std::optional<SqlValue> {
    switch (v.kind) {
      case LakeValue::Kind::kInteger:
        if (value_class == ValueClass::kNumeric) return SqlValue::Integer(v.integer);
        return std::nullopt;
      case LakeValue::Kind::kReal:
        if (value_class == ValueClass::kNumeric) return SqlValue::Real(v.real);
        return std::nullopt;
      case LakeValue::Kind::kText:
        if (value_class != ValueClass::kText) return std::nullopt;
        *storage = v.text;
        return SqlValue::Text(*storage);
      default: return std::nullopt;
    }
  };
  bounds.min = bound(stats.min, &bounds.min_bytes);
  bounds.max = bound(stats.max, &bounds.max_bytes);
  if (stats.null_count == 0) bounds.may_have_null = false;
  if (stats.null_count >= 0 && record_count >= 0 && stats.null_count >= record_count) {
    bounds.may_have_non_null = false;
  }
  if (bounds.may_have_non_null && (!bounds.min || !bounds.max) && stats.null_count < 0) return true;
  return MayMatch(filter, bounds);
}

}  // namespace

bool LakeStatisticsMayMatch(const ParquetTable& table, const FileSet& files, size_t index, const ColumnFilter& filter) {
  if (!files.lake || filter.column < 0 || filter.column >= table.hive_column() || !filter.active) return true;
  const parquet::lake::LakeDataFile& file = files.lake->files[index];
  const size_t lake_column = static_cast<size_t>(table.lake_columns[static_cast<size_t>(filter.column)]);
  if (file.stats.size() <= lake_column) return true;
  return StatsMayMatch(file.stats[lake_column], file.record_count,
                       table.pushdown[static_cast<size_t>(filter.column)].value_class, filter);
}

bool LakeGroupMayMatch(const ParquetTable& table, const FileSet& files, int32_t group,
                       const std::vector<ColumnFilter>& filters) {
  if (!files.lake || group < 0 || static_cast<size_t>(group) >= files.lake->file_groups.size()) return true;
  const parquet::lake::LakeFileGroup& g = files.lake->file_groups[static_cast<size_t>(group)];
  if (g.stats.empty()) return true;
  const int partition_keys = static_cast<int>(table.hive_keys.size());
  for (const ColumnFilter& filter : filters) {
    // File columns and the partition keys (the table's lake_columns, in that order).
    if (!filter.active || filter.column < 0 || filter.column >= table.hive_column() + partition_keys) continue;
    const size_t lake_column = static_cast<size_t>(table.lake_columns[static_cast<size_t>(filter.column)]);
    if (lake_column >= g.stats.size()) continue;
    if (!StatsMayMatch(g.stats[lake_column], -1, table.pushdown[static_cast<size_t>(filter.column)].value_class, filter)) {
      return false;
    }
  }
  return true;
}

parquet::RowRanges RemoveDeletedRows(const parquet::RowRanges& ranges, const parquet::lake::DeletedRows& deleted,
                                     int64_t first, int64_t* removed) {
  if (ranges.empty() || deleted.empty()) return ranges;
  parquet::RowRanges out;
  const auto& dels = deleted.ranges();
  for (const parquet::RowRange& r : ranges) {
    // File positions [first + r.begin, first + r.end).
    uint64_t pos = static_cast<uint64_t>(first + r.begin);
    const uint64_t end = static_cast<uint64_t>(first + r.end);
    size_t d = deleted.FirstRangeEndingAfter(pos);
    while (pos < end) {
      if (d >= dels.size() || dels[d].begin >= end) {
        out.Append(static_cast<int64_t>(pos) - first, static_cast<int64_t>(end) - first);
        break;
      }
      if (dels[d].begin > pos) out.Append(static_cast<int64_t>(pos) - first, static_cast<int64_t>(dels[d].begin) - first);
      const uint64_t skip_from = std::max(pos, dels[d].begin);
      const uint64_t skip_to = std::min(end, dels[d].end);
      *removed += static_cast<int64_t>(skip_to - skip_from);
      pos = skip_to;
      d++;
    }
  }
  return out;
}

}  // namespace sqlite_parquet

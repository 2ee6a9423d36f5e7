// The `parquet` table's definition: parsing the CREATE VIRTUAL TABLE options, listing the
// files, reading the schema (one file's, or every file's with union_by_name), the hive
// partition columns, and declaring the table to SQLite (xCreate, xConnect, xDisconnect).
// The manual is in parquet_vtab.cc.

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ext/common/credential_rule.h"
#include "ext/common/connection_interrupt.h"
#include "ext/common/encryption_options.h"
#include "ext/common/file_list.h"
#include "ext/common/options.h"
#include "ext/common/remote_options.h"
#include "ext/table/lake_table.h"
#include "ext/table/parquet_table.h"
#include "ext/table/scan_stats.h"
#include "ext/table/stored_schema.h"
#include "ext/common/vtab_errors.h"
#include "ext/common/sql_value.h"
#include "format/common/error.h"
#include "format/io/remote_file.h"
#include "format/platform/system.h"
#include "format/values/logical_values.h"
#include "format/values/text.h"

namespace sqlite_parquet {

namespace {

// Parses the CREATE VIRTUAL TABLE arguments (argv[3..]) into *options.
bool ParseTableOptions(sqlite3* db, int argc, const char* const* argv, TableOptions* options, std::string* error) {
  OptionSet set;
  set.AddString("filename")
      .SetPositional("filename")
      .AddBoolean("binary_as_string")
      .AddEnum("decimal_as", {"real", "text"})
      .AddEnum("timestamp_as", {"text", "unixepoch", "unixepoch_ms", "unixepoch_us", "julianday"})
      .AddBoolean("verify_crc")
      .AddInteger("max_memory", 1, std::numeric_limits<int64_t>::max())
      .AddBoolean("union_by_name")
      .AddBoolean("hive_partitioning")
      .AddInteger("join_index_memory", 0, std::numeric_limits<int64_t>::max())
      .AddBoolean("decompress_ahead")
      .AddString("metadata_cache")
      .AddInteger("metadata_cache_size", 0, std::numeric_limits<int64_t>::max())
      .AddEnum("format", {"auto", "delta", "iceberg", "files"})
      .AddInteger("version", 0, std::numeric_limits<int64_t>::max())
      .AddString("timestamp")
      .AddBoolean("allow_external_paths")
      .AddInteger("snapshot_id", std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max())
      .AddString("ref")
      .AddBoolean("allow_moved_paths")
      .AddString("catalog")
      .AddString("table")
      .AddString("catalog_name");
  AddDecryptionOptions(&set);
  AddRemoteOptions(&set);
  ParsedOptions parsed;
  if (!set.Parse(argc - 3, argv + 3, &parsed, error)) return false;
  options->filename = std::string(parsed.GetString("filename", ""));
  if (parsed.Has("catalog") || parsed.Has("table") || parsed.Has("catalog_name")) {
    // An Iceberg table named by its row in a PyIceberg SQLite catalog (iceberg_catalog.h).
    if (parsed.Has("filename")) {
      *error = "give either a path or catalog= and table=, not both";
      return false;
    }
    if (!parsed.Has("catalog") || !parsed.Has("table")) {
      *error = "catalog= and table= go together: parquet(catalog='catalog.db', table='namespace.table')";
      return false;
    }
    options->catalog = std::string(parsed.GetString("catalog", ""));
    options->catalog_table = std::string(parsed.GetString("table", ""));
    if (parsed.Has("catalog_name")) options->catalog_name = std::string(parsed.GetString("catalog_name", ""));
    if (options->catalog.empty() || options->catalog_table.empty()) {
      *error = "empty catalog= or table=";
      return false;
    }
    const int format = parsed.GetEnumIndex("format", 0);
    if (format != 0 && format != 2) {
      *error = "a table of an Iceberg catalog is an Iceberg table: format=iceberg (or leave format out)";
      return false;
    }
  } else if (!parsed.Has("filename")) {
    *error = "missing file name: use parquet('file.parquet') or parquet(filename='file.parquet')";
    return false;
  }
  if (options->filename.empty() && options->catalog.empty()) {
    *error = "empty file name";
    return false;
  }
  options->mapping.binary_as_string = parsed.GetBool("binary_as_string", false);
  options->mapping.decimal_as_text = parsed.GetEnumIndex("decimal_as", 0) == 1;
  static const TimestampForm kForms[] = {TimestampForm::kText, TimestampForm::kUnixEpoch, TimestampForm::kUnixEpochMs,
                                         TimestampForm::kUnixEpochUs, TimestampForm::kJulianDay};
  options->mapping.timestamp_form = kForms[parsed.GetEnumIndex("timestamp_as", 0)];
  options->verify_crc = parsed.GetBool("verify_crc", true);
  options->max_memory = parsed.GetInteger("max_memory", kDefaultMaxMemory);
  options->join_index_memory = parsed.GetInteger("join_index_memory", kDefaultJoinIndexMemory);
  options->union_by_name = parsed.GetBool("union_by_name", false);
  options->decompress_ahead = parsed.GetBool("decompress_ahead", true);
  if (parsed.Has("hive_partitioning")) options->hive_partitioning = parsed.GetBool("hive_partitioning", false);
  if (parsed.Has("metadata_cache")) {
    options->metadata_cache = std::string(parsed.GetString("metadata_cache", ""));
    if (std::string problem = MetadataCacheNameProblem(options->metadata_cache); !problem.empty()) {
      *error = problem;
      return false;
    }
  } else if (parsed.Has("metadata_cache_size")) {
    *error = "metadata_cache_size needs metadata_cache";
    return false;
  }
  options->metadata_cache_size = parsed.GetInteger("metadata_cache_size", kDefaultMetadataCacheSize);
  static const char* const kFormats[] = {"auto", "delta", "iceberg", "files"};
  options->format = kFormats[parsed.GetEnumIndex("format", 0)];
  if (!options->catalog.empty()) options->format = "iceberg";
  if (parsed.Has("version")) options->version = parsed.GetInteger("version", 0);
  if (parsed.Has("timestamp")) {
    const std::string text(parsed.GetString("timestamp", ""));
    int64_t ms = 0;
    if (!parquet::ParseTimestamp(text, parquet::TimeUnit::MILLIS, &ms)) {
      *error = "timestamp '" + text + "' is not a timestamp (YYYY-MM-DD HH:MM:SS[.fff], UTC)";
      return false;
    }
    options->timestamp_ms = ms;
  }
  if (options->version && options->timestamp_ms) {
    *error = "version and timestamp cannot both be given";
    return false;
  }
  if (parsed.Has("snapshot_id")) options->snapshot_id = parsed.GetInteger("snapshot_id", 0);
  if (parsed.Has("ref")) options->ref = std::string(parsed.GetString("ref", ""));
  if ((options->snapshot_id ? 1 : 0) + (options->ref ? 1 : 0) + (options->timestamp_ms ? 1 : 0) + (options->version ? 1 : 0) > 1) {
    *error = "give at most one of version, snapshot_id, timestamp and ref";
    return false;
  }
  if ((options->version || options->timestamp_ms) && options->format == "files") {
    *error = "version and timestamp apply to lake tables, not to format=files";
    return false;
  }
  if ((options->snapshot_id || options->ref) && options->format == "files") {
    *error = "snapshot_id and ref apply to Iceberg tables, not to format=files";
    return false;
  }
  options->allow_moved_paths = parsed.GetBool("allow_moved_paths", false);
  options->allow_external_paths = parsed.GetBool("allow_external_paths", false);
  if (!MakeRemoteOptions(parsed, &options->remote, error)) return false;
  return MakeDecryptionProperties(db, parsed, &options->decryption, error);
}



}  // namespace

std::string FieldName(const parquet::Schema& schema, size_t field) {
  return schema.node(schema.top_level_fields()[field]).name;
}

// The mappings of the table's file columns for one file; throws (naming the file) when the
// file does not fit the table (see the manual: schemas of many files).
std::vector<ColumnMapping> MapFileColumns(const ParquetTable& table, const parquet::ParquetFileReader& file,
                                          const std::string& path) {
  if (table.files && table.files->lake) return MapLakeFileColumns(table, file, path);
  const parquet::Schema& schema = file.schema();
  const size_t num_fields = schema.top_level_fields().size();
  std::vector<ColumnMapping> mappings(table.file_columns.size());
  if (!table.options.union_by_name) {
    // Files match when each column has the same name, the same SQLite type (the first word
    // of the declared type: DECIMAL(4,2) and DECIMAL(10,2) are both REAL) and is nested in
    // both or in neither.
    auto sqlite_type = [](const std::string& declared) { return declared.substr(0, declared.find(' ')); };
    for (size_t c = 0; c < std::max(num_fields, table.file_columns.size()); c++) {
      const FileColumn* expected = c < table.file_columns.size() ? &table.file_columns[c] : nullptr;
      std::string found = "no column";
      bool same = false;
      if (c < num_fields) {
        ColumnMapping mapping = MapTopLevelField(schema, static_cast<int>(c), table.options.mapping);
        const std::string name = FieldName(schema, c);
        found = "'" + name + " " + mapping.declared_type + "'" + (mapping.kind == ValueKind::kNested ? " (nested)" : "");
        same = expected && expected->name == name && (mapping.kind == ValueKind::kNested) == expected->nested &&
               sqlite_type(mapping.declared_type) == sqlite_type(expected->declared_type);
        if (same) mappings[c] = std::move(mapping);
      }
      if (!same) {
        // The columns were stored when the table was created, from the first file then
        // (the first of the whole listing, when there is one).
        const bool first = !table.files || table.files->paths.empty() || path == table.files->paths[0];
        throw parquet::ParquetError(
            "parquet file " + parquet::PathForDisplay(path) +
            (first ? " has changed since table " + table.name + " was created"
                   : " does not match the schema of " + parquet::PathForDisplay(table.files->paths[0])) +
            ": column " + std::to_string(c + 1) + " is " + found + " in that file but " +
            (expected ? "'" + expected->name + " " + expected->declared_type + "'" + (expected->nested ? " (nested)" : "")
                      : std::string("no column")) +
            (first ? " in the table (recreate it to read the new columns)"
                   : " in the first file (union_by_name=1 combines files by column name)"));
      }
    }
    return mappings;
  }
  for (size_t c = 0; c < table.file_columns.size(); c++) {
    for (size_t f = 0; f < num_fields; f++) {
      if (FieldName(schema, f) != table.file_columns[c].name) continue;
      mappings[c] = MapTopLevelField(schema, static_cast<int>(f), table.options.mapping);
      if ((mappings[c].kind == ValueKind::kNested) != table.file_columns[c].nested) {
        throw parquet::ParquetError("column '" + table.file_columns[c].name + "' is " +
                                    (table.file_columns[c].nested ? "not nested" : "nested") + " in parquet file " +
                                    parquet::PathForDisplay(path) + " but " + (table.file_columns[c].nested ? "nested" : "not nested") +
                                    " in the files table " + table.name +
                                    " was created from: union_by_name cannot combine them");
      }
      break;
    }
  }
  return mappings;
}

namespace {

// Adds the fields of one file to table->file_columns by name (union_by_name=1).
void UnionFileColumns(ParquetTable* table, const parquet::ParquetFileReader& file, const std::string& path) {
  const parquet::Schema& schema = file.schema();
  for (size_t f = 0; f < schema.top_level_fields().size(); f++) {
    ColumnMapping mapping = MapTopLevelField(schema, static_cast<int>(f), table->options.mapping);
    const std::string name = FieldName(schema, f);
    const bool nested = mapping.kind == ValueKind::kNested;
    bool found = false;
    for (const FileColumn& column : table->file_columns) {
      if (column.name != name) continue;
      found = true;
      if (column.nested != nested) {
        throw parquet::ParquetError("column '" + name + "' is " + (nested ? "nested" : "not nested") + " in parquet file " +
                                    parquet::PathForDisplay(path) + " but " + (column.nested ? "nested" : "not nested") +
                                    " in an earlier file: union_by_name cannot combine them");
      }
    }
    if (!found) table->file_columns.push_back(FileColumn{name, mapping.declared_type, nested});
  }
}

// xCreate: the columns from the files: lists them, reads the first footer (every footer
// with union_by_name) and the partition keys of the paths; returns the files. An S3 glob or
// prefix (without union_by_name) is listed only up to its first file: when that file's path
// has partition keys, *listed_whole is false and each scan lists what its constraints on
// the keys leave (listing_pruning.h); otherwise the listing is completed here.
std::vector<std::string> ReadColumnsFromFiles(ParquetTable* table, bool* listed_whole) {
  const std::string& path = table->options.filename;
  const bool first_only = parquet::IsS3Url(path) && PathNamesDataset(path) && !table->options.union_by_name &&
                          table->options.hive_partitioning.value_or(true);
  ListingOptions listing;
  if (first_only) listing.counts = &table->unreported_listing;  // reported by the first scan
  listing.first_file_only = first_only;
  std::vector<std::string> files = ListFiles(*table, listing);
  *listed_whole = !first_only;
  {
    // Each footer is closed before the next is opened.
    auto first = parquet::ParquetFileReader::OpenWithStore(files[0], table->options.decryption.get(),
                                                          table->options.remote.get(), table->metadata_store.get());
    const parquet::Schema& schema = first->schema();
    const size_t num_fields = schema.top_level_fields().size();
    if (num_fields == 0) throw parquet::ParquetError("parquet file " + parquet::PathForDisplay(files[0]) + " has no columns");
    if (table->options.union_by_name) {
      UnionFileColumns(table, *first, files[0]);
    } else {
      for (size_t f = 0; f < num_fields; f++) {
        ColumnMapping mapping = MapTopLevelField(schema, static_cast<int>(f), table->options.mapping);
        table->file_columns.push_back(
            FileColumn{FieldName(schema, f), mapping.declared_type, mapping.kind == ValueKind::kNested});
      }
    }
    table->estimated_rows = first->num_rows() * static_cast<int64_t>(files.size());
  }
  if (table->options.union_by_name) {
    for (size_t i = 1; i < files.size(); i++) {
      auto file = parquet::ParquetFileReader::OpenWithStore(files[i], table->options.decryption.get(),
                                                           table->options.remote.get(), table->metadata_store.get());
      UnionFileColumns(table, *file, files[i]);
    }
  }
  // Automatic only for a directory or glob: a single named file is read as it is.
  const bool hive = table->options.hive_partitioning
                        ? *table->options.hive_partitioning
                        : PathNamesDataset(table->options.filename) && !HivePairs(files[0]).empty();
  if (hive) table->hive_keys = CollectHiveKeys(files);
  if (!*listed_whole && table->hive_keys.empty()) {
    ListingOptions whole;
    whole.counts = &table->unreported_listing;
    files = ListFiles(*table, whole);
    *listed_whole = true;
  }
  return files;
}

std::vector<StoredColumn> StoredColumnsOf(const ParquetTable& table) {
  std::vector<StoredColumn> columns;
  for (const FileColumn& column : table.file_columns) {
    columns.push_back(StoredColumn{StoredColumn::Kind::kFile, column.name, column.declared_type, column.nested});
  }
  for (const HiveKey& key : table.hive_keys) {
    columns.push_back(StoredColumn{StoredColumn::Kind::kHive, key.name, HiveTypeName(key.type), false});
  }
  return columns;
}

void UseStoredColumns(ParquetTable* table, const std::vector<StoredColumn>& columns) {
  for (const StoredColumn& column : columns) {
    if (column.kind == StoredColumn::Kind::kFile) {
      table->file_columns.push_back(FileColumn{column.name, column.declared_type, column.nested});
    } else {
      HiveType type = HiveType::kText;  // LoadStoredSchema accepts only the three names
      for (HiveType t : {HiveType::kInteger, HiveType::kReal}) {
        if (column.declared_type == HiveTypeName(t)) type = t;
      }
      table->hive_keys.push_back(HiveKey{column.name, type});
    }
  }
}

// Declares the table's columns (file columns, partition keys, the hidden two) and sets up
// what xBestIndex knows of each.
int DeclareTable(sqlite3* db, ParquetTable* table, char** error_out) {
  std::string sql = "CREATE TABLE x(";
  std::vector<std::string> used_names;
  // Lowercased names taken, and the next suffix to try for each name: linear in the
  // columns, however many share a name (a file or a stored list may hold 32767).
  std::unordered_set<std::string> taken;
  std::unordered_map<std::string, int> next_suffix;
  auto add_column = [&](const std::string& name, const std::string& type) {
    std::string unique = name;
    int& suffix = next_suffix[parquet::AsciiLowercase(name)];
    while (taken.count(parquet::AsciiLowercase(unique)) != 0) unique = name + "_" + std::to_string(++suffix);
    taken.insert(parquet::AsciiLowercase(unique));
    if (!used_names.empty()) sql += ", ";
    used_names.push_back(unique);
    sql += QuoteIdentifier(unique);
    if (!type.empty()) sql += " " + type;
  };
  // SQLite reads the declaration as a C string: a NUL byte would cut it short.
  for (const FileColumn& column : table->file_columns) {
    if (column.name.find('\0') != std::string::npos) {
      *error_out = sqlite3_mprintf("cannot declare the table for %s: column name '%s' holds a NUL byte",
                                   parquet::PathForDisplay(table->options.filename).c_str(),
                                   parquet::ShowNulBytes(column.name).c_str());
      return SQLITE_ERROR;
    }
  }
  for (const FileColumn& column : table->file_columns) add_column(column.name, column.declared_type);
  for (const HiveKey& key : table->hive_keys) add_column(key.name, HiveTypeName(key.type));
  // Without a usable stored list they are the only columns, not hidden: `SELECT *` then
  // reaches xBestIndex and its error rather than SQLite's "no tables specified".
  const bool hidden = table->unusable.empty();
  add_column("filename", hidden ? "TEXT HIDDEN" : "TEXT");
  add_column("file_row_number", hidden ? "INTEGER HIDDEN" : "INTEGER");
  sql += ")";
  int rc = sqlite3_declare_vtab(db, sql.c_str());
  if (rc != SQLITE_OK) {
    *error_out = sqlite3_mprintf("cannot declare the table for %s: %s",
                                 parquet::PathForDisplay(table->options.filename).c_str(), sqlite3_errmsg(db));
    return rc;
  }
  sqlite3_vtab_config(db, SQLITE_VTAB_DIRECTONLY);
  table->column_names = used_names;
  table->pushdown.resize(used_names.size());
  for (size_t c = 0; c < table->file_columns.size(); c++) {
    ColumnPushdown& p = table->pushdown[c];
    p.pushable = !table->file_columns[c].nested;
    p.value_class = ValueClassOfDeclaredType(table->file_columns[c].declared_type);
    // A lake table's files may store a column as a narrower type (type widening) or not at all.
    // (An s3:// prefix not probed yet may be one.)
    p.exact = !table->options.union_by_name && !MayBeLakeTable(*table);
  }
  for (size_t k = 0; k < table->hive_keys.size(); k++) {
    ColumnPushdown& p = table->pushdown[static_cast<size_t>(table->hive_column()) + k];
    p.pushable = p.exact = true;
    p.value_class = table->hive_keys[k].type == HiveType::kText ? ValueClass::kText : ValueClass::kNumeric;
  }
  table->pushdown[static_cast<size_t>(table->filename_column())] = ColumnPushdown{true, ValueClass::kText, true, false};
  table->pushdown[static_cast<size_t>(table->file_row_number_column())] =
      ColumnPushdown{true, ValueClass::kNumeric, true, false};
  return SQLITE_OK;
}

// xCreate reads the columns from the files and stores them (stored_schema.h); xConnect
// declares them from the stored list without touching a file (see the top of this file).
// A table without a usable stored list (made by an older version, or a list this
// extension did not write) connects with the columns filename and file_row_number only,
// so that PRAGMA table_info and DROP TABLE work, and any query of it is an error saying to
// recreate it.
int ConnectTable(sqlite3* db, CredentialRule* rule, int argc, const char* const* argv, sqlite3_vtab** out,
                 char** error_out, bool create) {
  *out = nullptr;
  std::unique_ptr<ParquetTable> table;
  try {
    // CREATE lists the files and reads their footers (connecting reads none).
    std::optional<ConnectionInterruptScope> interruptible;
    if (create) interruptible.emplace(db);
    table = std::make_unique<ParquetTable>();
    std::memset(&table->base, 0, sizeof(table->base));
    table->db = db;
    table->numeric_affinity = std::make_unique<NumericAffinity>(db);
    table->schema_name = argv[1];
    table->name = argv[2];
    std::string error;
    if (!ParseTableOptions(db, argc, argv, &table->options, &error)) {
      *error_out = sqlite3_mprintf("%s", error.c_str());
      return SQLITE_ERROR;
    }
    if (create) rule->NoteCreated(argc, argv);
    table->options.remote = rule->Apply(create, table->schema_name, table->name, argc, argv, table->options.remote);
    table->network_path_gate = rule->GateNetworkPaths(
        create, table->schema_name, table->name, argc, argv,
        {parquet::IsRemoteUrl(table->options.filename) ? std::string() : table->options.filename,
         table->options.remote->http_ca_file, table->options.catalog},
        parquet::platform::kWindows);
    if (!table->options.metadata_cache.empty()) {
      // A table read from a database file writes its cache only with the application's
      // opt-in (metadata_cache.h).
      table->metadata_store = std::make_unique<SqliteMetadataStore>(
          db, table->schema_name, table->options.metadata_cache, table->options.metadata_cache_size,
          rule->FromDatabaseFile(create, table->schema_name, argc, argv) ? rule->cache_writes_allowed() : nullptr);
      // CREATE makes the cache table; a table connected from a file only uses one that exists.
      if (create && !CreateMetadataCacheTable(db, table->schema_name, table->options.metadata_cache, &error)) {
        *error_out = sqlite3_mprintf("%s", error.c_str());
        return SQLITE_ERROR;
      }
      if (create && table->metadata_store->Check(&error) != SqliteMetadataStore::State::kReady) {
        *error_out = sqlite3_mprintf("%s", error.c_str());
        return SQLITE_ERROR;
      }
    }
    // allow_external_paths is the application's own choice only when it creates the table:
    // a table stored in a database file never reads outside its root.
    if (!create) table->options.allow_external_paths = false;
    // The metadata location a catalog row names is as much the file's choice as a path: a
    // network path there waits for the same opt-in (Windows).
    if (!table->options.catalog.empty() && parquet::platform::kWindows &&
        rule->FromDatabaseFile(create, table->schema_name, argc, argv)) {
      table->catalog_network_paths_allowed = rule->network_paths_allowed();
    }
    if (create && IsLakeTable(table.get())) {
      CreateLakeTable(table.get());
    } else if (create) {
      bool listed_whole = true;
      std::vector<std::string> files = ReadColumnsFromFiles(table.get(), &listed_whole);
      if (listed_whole) table->files = MakeFileSet(*table, std::move(files));
    } else {
      std::vector<StoredColumn> columns;
      std::string problem;
      switch (LoadStoredSchema(db, table->schema_name, table->name, &columns, &problem)) {
        case StoredSchemaState::kLoaded:
          UseStoredColumns(table.get(), columns);
          table->owns_stored_schema = true;
          break;
        case StoredSchemaState::kMissing:
          table->unusable = "parquet table " + table->name +
                            " has no stored column list (it was created by an older version of the extension): "
                            "recreate it (DROP TABLE, then CREATE VIRTUAL TABLE again)";
          break;
        case StoredSchemaState::kInvalid:
          table->unusable = "parquet table " + table->name + " has no usable stored column list (" + problem +
                            "): recreate it (DROP TABLE, then CREATE VIRTUAL TABLE again)";
          break;
      }
    }
    // A remote table connected from a database file, or created over an S3 dataset with
    // partition keys (not listed whole), is planned without a request.
    // A catalog table's location is known only once the catalog is read: it may be remote.
    table->plan_without_io = (parquet::IsRemoteUrl(table->options.filename) || !table->options.catalog.empty()) &&
                             (!create || !table->files);
    // Local directories only: no file is read (an s3:// prefix is probed at the first scan).
    if (!create && table->unusable.empty()) IsLakeTable(table.get(), false);
    const int rc = DeclareTable(db, table.get(), error_out);
    if (rc != SQLITE_OK) return rc;
    if (create) {
      if (!SaveStoredSchema(db, table->schema_name, table->name, StoredColumnsOf(*table), &error)) {
        *error_out = sqlite3_mprintf("cannot store the columns of parquet table %s: %s", table->name.c_str(),
                                     error.c_str());
        return SQLITE_ERROR;
      }
      table->owns_stored_schema = true;
      if (table->metadata_store) table->metadata_store->Flush();
    }
    // A remote table created whole reads its first file's statistics (the row estimate, the
    // ordered columns) now, from the footer CREATE fetched, checked in CREATE's statement: no
    // request. So the first statement's planning makes none either (before, its check of the
    // file), and its scan's check is in flight with its first reads (OpenTableFile). Like any
    // later planning's, they may be of a version the file no longer has: they only guide plans.
    if (create && table->files && !table->plan_without_io && parquet::IsRemoteUrl(table->options.filename)) {
      ReadOrderStatistics(table.get());
    }
    // CREATE's checks of the remote files end with it: the next statement checks them again.
    if (table->options.remote->statement_checks) table->options.remote->statement_checks->EndStatement();
  } catch (const std::bad_alloc&) {
    return SQLITE_NOMEM;
  } catch (const parquet::HttpInterrupted&) {
    *error_out = sqlite3_mprintf("interrupted");
    return SQLITE_INTERRUPT;
  } catch (const std::exception& e) {
    *error_out = sqlite3_mprintf("%s", e.what());
    return SQLITE_ERROR;
  }
  *out = &table.release()->base;
  return SQLITE_OK;
}


}  // namespace

// A network path a database file named waits for the application's opt-in (Windows; see
// credential_rule.h): checked before each listing and each planning.
void CheckNetworkPathGate(const ParquetTable& table) {
  if (table.network_path_gate && !table.network_path_gate->Open()) throw parquet::ParquetError(table.network_path_gate->refusal);
}

// The table's files, listed at the first planning of a connected table (after SQLite's
// SQLITE_VTAB_DIRECTONLY check): the file list is not needed to declare the columns.
void ListTableFiles(ParquetTable* table) {
  CheckNetworkPathGate(*table);  // also when listed: the opt-in may have been withdrawn
  if (table->files) return;
  if (IsLakeTable(table)) {
    table->files = ListLakeFiles(table);
    return;
  }
  ListingOptions listing;
  listing.counts = &table->unreported_listing;
  table->files = MakeFileSet(*table, ListFiles(*table, listing));
}

std::shared_ptr<const FileSet> MakeFileSet(const ParquetTable& table, std::vector<std::string> paths) {
  auto files = std::make_shared<FileSet>();
  files->hive_values = CollectHiveValues(paths, table.hive_keys, table.name);
  files->rows.assign(paths.size(), -1);
  files->paths = std::move(paths);
  return files;
}

// A directory without Parquet files says it is a directory.
std::vector<std::string> ListFiles(const ParquetTable& table, const ListingOptions& listing) {
  CheckNetworkPathGate(table);
  const std::string& path = table.options.filename;
  if (parquet::IsRemoteUrl(path)) return ExpandRemotePath(path, *table.options.remote, listing);
  parquet::platform::FileStatus info;
  const bool exists = parquet::platform::PathStatus(path, true, &info).ok();
  if (!exists && !HasGlobCharacters(path)) return {path};
  try {
    return ExpandFilePath(path, listing);
  } catch (const FileListError&) {
    if (exists && info.type == parquet::platform::FileType::kDirectory) {
      throw FileListError("'" + path + "' is a directory with no .parquet files below it");
    }
    throw;
  }
}


namespace vtab {

int Connect(sqlite3* db, void* aux, int argc, const char* const* argv, sqlite3_vtab** out, char** error_out) {
  return ConnectTable(db, static_cast<std::shared_ptr<CredentialRule>*>(aux)->get(), argc, argv, out, error_out, false);
}

// A distinct xCreate (rather than xConnect itself) keeps the module from being eponymous:
// a bare `SELECT * FROM parquet` has no file to read.
int Create(sqlite3* db, void* aux, int argc, const char* const* argv, sqlite3_vtab** out, char** error_out) {
  return ConnectTable(db, static_cast<std::shared_ptr<CredentialRule>*>(aux)->get(), argc, argv, out, error_out, true);
}

int Disconnect(sqlite3_vtab* vtab) {
  ParquetTable* table = reinterpret_cast<ParquetTable*>(vtab);
  if (table->db) ForgetScanStats(table->db, table->name);
  delete table;
  return SQLITE_OK;
}

// DROP TABLE: the stored column list goes with the table.
int Destroy(sqlite3_vtab* vtab) {
  ParquetTable* table = reinterpret_cast<ParquetTable*>(vtab);
  if (table->owns_stored_schema) {
    try {
      std::string error;
      if (!DropStoredSchema(table->db, table->schema_name, table->name, &error)) {
        SetVtabError(vtab, "cannot drop the stored columns of parquet table " + table->name + ": " + error);
        return SQLITE_ERROR;
      }
    } catch (const std::bad_alloc&) {
      return SQLITE_NOMEM;
    }
  }
  return Disconnect(vtab);
}

// ALTER TABLE RENAME: the stored column list follows the table's name.
int Rename(sqlite3_vtab* vtab, const char* new_name) {
  ParquetTable* table = reinterpret_cast<ParquetTable*>(vtab);
  try {
    std::string error;
    if (table->owns_stored_schema && !RenameStoredSchema(table->db, table->schema_name, table->name, new_name, &error)) {
      SetVtabError(vtab, "cannot rename the stored columns of parquet table " + table->name + ": " + error);
      return SQLITE_ERROR;
    }
    ForgetScanStats(table->db, table->name);
    table->name = new_name;
  } catch (const std::bad_alloc&) {
    return SQLITE_NOMEM;
  }
  return SQLITE_OK;
}

int ShadowName(const char* suffix) { return IsStoredSchemaSuffix(suffix) ? 1 : 0; }

}  // namespace vtab

}  // namespace sqlite_parquet

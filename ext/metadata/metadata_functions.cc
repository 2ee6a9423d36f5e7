// Table-valued functions that show what is inside Parquet files without reading their data.
//
// USAGE
//
//   SELECT * FROM parquet_metadata('file.parquet');        -- row group x column chunk
//   SELECT * FROM parquet_schema('data/*.parquet');        -- schema elements
//   SELECT * FROM parquet_file_metadata('data/');          -- one row per file
//   SELECT * FROM parquet_kv_metadata('file.parquet');     -- footer key/value pairs
//
// The argument is a file, a directory or a glob (ext/common/file_list.h: `*`, `?`, `[...]`,
// `**`); every file it names is read in sorted order and `file_name` says which file a
// row comes from. The argument is the HIDDEN column `path`, so
// `SELECT * FROM parquet_schema WHERE path = 'x.parquet'` works too. Only footers are
// read: one file is open at a time.
//
// COLUMNS (docs/metadata-functions.md has the same lists)
//
// parquet_metadata: file_name, row_group_id, row_group_num_rows, row_group_num_columns,
//   row_group_bytes, column_id, file_offset, num_values, path_in_schema, type, stats_min,
//   stats_max, stats_null_count, stats_distinct_count, stats_min_value, stats_max_value,
//   compression, encodings, index_page_offset, dictionary_page_offset, data_page_offset,
//   total_compressed_size, total_uncompressed_size, key_value_metadata,
//   bloom_filter_offset, bloom_filter_length, min_is_exact, max_is_exact,
//   row_group_compressed_bytes, stats_nan_count, stats_sort_order, stats_lower_bound,
//   stats_upper_bound, column_index_offset, column_index_length, offset_index_offset,
//   offset_index_length, row_group_sorting_columns, geo_bbox, geo_types.
//   geo_bbox/geo_types are the chunk's GeospatialStatistics (GEOMETRY / GEOGRAPHY
//   columns): {"xmin":..,"xmax":..,"ymin":..,"ymax":..[,"zmin","zmax"][,"mmin","mmax"]}
//   and a JSON array of the ISO WKB type codes ([1, 1003]); NULL when absent.
//   stats_min/stats_max are the deprecated Statistics.min/max fields, stats_min_value/
//   stats_max_value the current ones, each decoded as the column's values are (the
//   parquet table's default type mapping), or the raw bytes as a BLOB when they cannot
//   be (wrong size). stats_lower_bound/stats_upper_bound are the bounds this reader
//   trusts (format/index/statistics.h: NaN ignored, deprecated fields only where their signed
//   order is the column's order, ...), NULL when there is none.
//
// parquet_schema: file_name, name, type, type_length, repetition_type, num_children,
//   converted_type, scale, precision, field_id, logical_type, sqlite_type, column_id.
//   One row per schema element, depth first (the root first). sqlite_type is the declared
//   type of the parquet table's column for top-level fields ('' for none), NULL for the
//   root and inner nodes; column_id is the leaf's column number (parquet_metadata's
//   column_id), NULL for groups.
//
// parquet_file_metadata: file_name, created_by, num_rows, num_row_groups, format_version,
//   encryption_algorithm, footer_signing_key_metadata, file_size_bytes, footer_size,
//   column_orders, footer_encrypted. A file with an encrypted footer ("PARE") gives one
//   row with what is readable without a key: the algorithm, sizes, footer_encrypted = 1,
//   and NULL for the rest.
//
// parquet_kv_metadata: file_name, key, value. Keys and values are TEXT when they are
//   valid UTF-8, BLOB otherwise; a value the file leaves out is NULL.
//
// parquet_bloom_probe(path, column_name, value): file_name, row_group_id,
//   bloom_filter_excludes (1: the chunk's bloom filter proves `column = value` false; 0:
//   it may hold; NULL: no usable filter). The value is turned into the table pushdown's
//   ColumnFilter (MakeColumnFilter: the affinity of the column's declared type) and asked
//   with pushdown's BloomFilterRulesOut, so both answer alike.
//
// parquet_full_metadata(path): file_name, file_metadata, schema, row_groups,
//   key_value_metadata: the rows of the four functions above as JSON documents (JSON
//   subtype), made from those functions' cursors directly, with no SQL statement
//   (MakeFullMetadataDocuments).
//
// Encrypted files: after the path, up to five 'key=value' arguments take the parquet
// table's key options (footer_key, column_keys, aad_prefix, key_table,
// verify_footer_signature), e.g. parquet_metadata('f.parquet', 'footer_key=...',
// 'column_keys=a:...'). With them the footer and the column metadata are decrypted
// (statistics of encrypted columns included).
//
// Errors name the file or the path: "no files match 'x'", "cannot open 'x': ...",
// "not a parquet file: x ...", "x has an encrypted footer: a footer key is needed to read
// it" (every function but parquet_file_metadata).
//
// The functions are registered SQLITE_VTAB_DIRECTONLY: views and triggers cannot use
// them, so a database someone else made cannot make the extension read files.
#include "ext/metadata/metadata_functions.h"

#include <cstring>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ext/common/connection_interrupt.h"
#include "ext/metadata/metadata_cursor.h"
#include "ext/common/column_mapping.h"
#include "ext/common/encryption_options.h"
#include "ext/common/file_list.h"
#include "ext/common/remote_options.h"
#include "ext/common/options.h"
#include "ext/common/parquet_to_sql.h"
#include "ext/common/sqlite_values.h"
#include "ext/common/vtab_errors.h"
#include "ext/table/constraints.h"
#include "ext/table/parquet_table.h"
#include "ext/table/row_group_pruning.h"
#include "format/index/bloom_filter.h"
#include "format/common/error.h"
#include "format/read/file_reader.h"
#include "format/values/json_text.h"
#include "format/metadata/metadata.h"
#include "format/io/random_access_file.h"
#include "format/index/statistics.h"
#include "format/values/text.h"

namespace sqlite_parquet {

using namespace metadata;  // NOLINT: this file is the module over metadata_cursor.h

namespace {

// ---- Opening files ---------------------------------------------------------------------

// Reads the FileCryptoMetaData of a file whose footer is encrypted ("PARE" magic); the
// encrypted FileMetaData after it needs a key.
void OpenEncryptedFooter(OpenFile* file, parquet::RandomAccessFile* handle) {
  file->file_size = handle->Size();
  if (file->file_size < 12) throw parquet::ParquetError("not a parquet file: " + parquet::PathForDisplay(file->name) + " is too small");
  uint8_t trailer[8];
  handle->ReadAt(file->file_size - 8, 8, trailer);
  const uint32_t length = static_cast<uint32_t>(trailer[0]) | (static_cast<uint32_t>(trailer[1]) << 8) |
                          (static_cast<uint32_t>(trailer[2]) << 16) | (static_cast<uint32_t>(trailer[3]) << 24);
  if (length == 0 || length > file->file_size - 12) {
    throw parquet::ParquetError("corrupt parquet file " + parquet::PathForDisplay(file->name) + ": footer length " + std::to_string(length) +
                                " does not fit in a file of " + std::to_string(file->file_size) + " bytes");
  }
  std::vector<uint8_t> footer;
  handle->ReadAt(file->file_size - 8 - length, length, &footer);
  size_t consumed = 0;
  try {
    file->crypto = parquet::ParseFileCryptoMetaData(footer.data(), footer.size(), &consumed);
  } catch (const parquet::ParquetError& e) {
    throw parquet::ParquetError("corrupt encrypted footer in " + parquet::PathForDisplay(file->name) + ": " + e.what());
  }
  file->footer_length = length;
}

bool HasEncryptedFooter(parquet::RandomAccessFile* handle) {
  const uint64_t size = handle->Size();
  if (size < 12) return false;
  uint8_t magic[4];
  handle->ReadAt(size - 4, 4, magic);
  return std::memcmp(magic, "PARE", 4) == 0;
}

// Opens files[next_file] and sets rows_in_file.
void OpenCurrentFile(MetadataCursor* cursor, FunctionKind kind) {
  OpenFile& file = cursor->file;
  file = OpenFile();
  file.name = cursor->files[cursor->next_file];
  if (kind == FunctionKind::kFullMetadata) {  // documents made by Filter
    cursor->rows_in_file = 1;
    return;
  }
  std::unique_ptr<parquet::RandomAccessFile> handle = parquet::OpenFileOrUrl(file.name, cursor->remote.get());
  if (kind == FunctionKind::kFileMetadata && !cursor->decryption && HasEncryptedFooter(handle.get())) {
    OpenEncryptedFooter(&file, handle.get());
    cursor->rows_in_file = 1;
    return;
  }
  file.reader = parquet::ParquetFileReader::Open(std::move(handle), cursor->decryption.get());
  const parquet::FileMetaData& metadata = file.reader->metadata();
  const parquet::Schema& schema = file.reader->schema();
  file.file_size = file.reader->file().Size();
  file.footer_length = file.reader->footer_length();
  switch (kind) {
    case FunctionKind::kMetadata:
      file.leaves.resize(static_cast<size_t>(schema.num_columns()));
      for (int c = 0; c < schema.num_columns(); c++) {
        LeafInfo& leaf = file.leaves[static_cast<size_t>(c)];
        leaf.context = parquet::MakeStatisticsContext(metadata, schema, c);
        leaf.mapping = MapLeaf(schema, schema.column(c).node, MappingOptions());
      }
      cursor->rows_in_file = static_cast<int64_t>(file.reader->num_row_groups()) * schema.num_columns();
      break;
    case FunctionKind::kSchema: {
      file.top_level_field_of.assign(metadata.schema.size(), -1);
      const std::vector<int>& fields = schema.top_level_fields();
      for (size_t f = 0; f < fields.size(); f++) {
        file.top_level_field_of[static_cast<size_t>(schema.node(fields[f]).index)] = static_cast<int>(f);
        file.sqlite_types.push_back(MapTopLevelField(schema, static_cast<int>(f), MappingOptions()).declared_type);
      }
      cursor->rows_in_file = static_cast<int64_t>(metadata.schema.size());
      break;
    }
    case FunctionKind::kFileMetadata:
      cursor->rows_in_file = 1;
      break;
    case FunctionKind::kKvMetadata:
      cursor->rows_in_file = metadata.key_value_metadata.has_value()
                                 ? static_cast<int64_t>(metadata.key_value_metadata->size())
                                 : 0;
      break;
    case FunctionKind::kBloomProbe: {
      // The column as the parquet table maps it (default options), and `column = value`
      // with the affinity of its declared type applied, as the table's pushdown builds it.
      const std::vector<int>& fields = schema.top_level_fields();
      size_t field = 0;
      while (field < fields.size() && FieldName(schema, field) != cursor->probe_column) field++;
      if (field == fields.size()) {
        throw parquet::ParquetError("parquet_bloom_probe: no column named '" + cursor->probe_column + "' in " +
                                    parquet::PathForDisplay(file.name));
      }
      file.probe_mapping = MapTopLevelField(schema, static_cast<int>(field), MappingOptions());
      if (file.probe_mapping.leaf_column < 0) {
        throw parquet::ParquetError("parquet_bloom_probe: column '" + cursor->probe_column + "' in " +
                                    parquet::PathForDisplay(file.name) + " is nested; only flat columns have one bloom filter");
      }
      file.probe_filter = MakeColumnFilter(cursor->probe_affinity.get(), PlanTerm{0, ConstraintOp::kEq},
                                           cursor->probe_value, ValueClassOfKind(file.probe_mapping));
      cursor->rows_in_file = file.reader->num_row_groups();
      break;
    }
    case FunctionKind::kFullMetadata: break;
  }
}

// Moves to the next row, opening files as needed; skips files without rows.
void Advance(MetadataCursor* cursor, FunctionKind kind) {
  cursor->row++;
  cursor->rowid++;
  while (cursor->row >= cursor->rows_in_file) {
    if (cursor->next_file >= cursor->files.size()) {
      cursor->eof = true;
      cursor->file = OpenFile();
      return;
    }
    OpenCurrentFile(cursor, kind);
    cursor->next_file++;
    cursor->row = 0;
  }
  cursor->eof = false;
}

// ---- parquet_full_metadata's documents ---------------------------------------------------
//
// Made from the rows of the other four functions themselves (one place per fact): each
// function's cursor runs over the file here, directly, and its producers' values (the
// values their columns give) are turned into JSON objects, the column names as keys (no
// SQL JSON function: SQLite before 3.38 may lack them); BLOB values (undecodable
// statistics, non-UTF-8 key/value metadata) become hex text, text with invalid UTF-8 has
// it replaced (U+FFFD). No SQL statement runs: a statement naming the functions would find
// whatever a database calls by those names (an ordinary table, a stored parquet table).

struct DeclaredColumn {
  std::string name;
  int column = 0;  // its number in the function's row
};

// The declared columns of `spec` but file_name (the document's own file).
std::vector<DeclaredColumn> DeclaredColumnsOf(const FunctionSpec& spec) {
  std::vector<DeclaredColumn> columns;
  std::string_view rest(spec.columns);
  int number = 0;
  while (!rest.empty()) {
    const size_t comma = rest.find(", ");
    std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 2);
    const std::string_view name = item.substr(0, item.find(' '));
    if (name != "file_name") columns.push_back(DeclaredColumn{std::string(name), number});
    number++;
  }
  return columns;
}

// Column `column` of the current row of `cursor`, a cursor of function `kind`.
const SqlValue& ValueOf(MetadataCursor* cursor, FunctionKind kind, int column, ColumnOut* out) {
  switch (kind) {
    case FunctionKind::kMetadata: MetadataColumnValue(cursor, out, column); break;
    case FunctionKind::kSchema: SchemaColumnValue(cursor, out, column); break;
    case FunctionKind::kFileMetadata: FileMetadataColumnValue(cursor, out, column); break;
    case FunctionKind::kKvMetadata: KvColumnValue(cursor, out, column); break;
    case FunctionKind::kBloomProbe:
    case FunctionKind::kFullMetadata: throw std::logic_error("not a document's function");
  }
  return out->value();
}

// The JSON object of `columns` of the current row of `cursor` (a cursor of `kind`).
std::string JsonObjectOfRow(MetadataCursor* cursor, FunctionKind kind, const std::vector<DeclaredColumn>& columns,
                            ColumnOut* out) {
  std::string object = "{";
  for (size_t i = 0; i < columns.size(); i++) {
    if (i) object += ',';
    parquet::AppendJsonString(columns[i].name, &object);
    object += ':';
    AppendJsonSqlValue(ValueOf(cursor, kind, columns[i].column, out), &object);
  }
  return object + "}";
}

// Runs function `kind` over `file` with the options of `parent` (a cursor of its own, as
// the function's xFilter would) and hands `row` each row's cursor.
template <typename RowFn>
void ForEachMetadataRow(const MetadataCursor& parent, const std::string& file, FunctionKind kind, RowFn row) {
  MetadataCursor cursor;
  cursor.files.push_back(file);
  cursor.decryption = parent.decryption;
  cursor.remote = parent.remote;
  cursor.row = -1;
  cursor.rowid = -1;
  Advance(&cursor, kind);
  while (!cursor.eof) {
    row(&cursor);
    Advance(&cursor, kind);
  }
}

void AppendToArray(std::string* array, std::string_view element) {
  array->push_back(array->empty() ? '[' : ',');
  array->append(element);
}

const FunctionSpec& SpecOf(FunctionKind kind);

// Fills cursor->documents for cursor->files (parquet_full_metadata).
void MakeFullMetadataDocuments(MetadataCursor* cursor) {
  const std::vector<DeclaredColumn> file_columns = DeclaredColumnsOf(SpecOf(FunctionKind::kFileMetadata));
  const std::vector<DeclaredColumn> schema_columns = DeclaredColumnsOf(SpecOf(FunctionKind::kSchema));
  const std::vector<DeclaredColumn> kv_columns = DeclaredColumnsOf(SpecOf(FunctionKind::kKvMetadata));
  // parquet_metadata: the row_group_* columns once per row group, the others per chunk.
  std::vector<DeclaredColumn> row_group_columns, chunk_columns;
  for (DeclaredColumn& c : DeclaredColumnsOf(SpecOf(FunctionKind::kMetadata))) {
    (c.name.rfind("row_group_", 0) == 0 ? row_group_columns : chunk_columns).push_back(std::move(c));
  }
  ColumnOut out;
  cursor->documents.clear();
  for (const std::string& file : cursor->files) {
    FullMetadataDocuments& d = cursor->documents.emplace_back();
    ForEachMetadataRow(*cursor, file, FunctionKind::kFileMetadata, [&](MetadataCursor* rows) {
      d.file_metadata = JsonObjectOfRow(rows, FunctionKind::kFileMetadata, file_columns, &out);
    });
    ForEachMetadataRow(*cursor, file, FunctionKind::kSchema, [&](MetadataCursor* rows) {
      AppendToArray(&d.schema, JsonObjectOfRow(rows, FunctionKind::kSchema, schema_columns, &out));
    });
    ForEachMetadataRow(*cursor, file, FunctionKind::kKvMetadata, [&](MetadataCursor* rows) {
      AppendToArray(&d.key_value_metadata, JsonObjectOfRow(rows, FunctionKind::kKvMetadata, kv_columns, &out));
    });
    ForEachMetadataRow(*cursor, file, FunctionKind::kMetadata, [&](MetadataCursor* rows) {
      const int64_t row_group = ValueOf(rows, FunctionKind::kMetadata, kMdRowGroupId, &out).integer;
      if (row_group != d.last_row_group) {
        if (!d.row_groups.empty()) d.row_groups += "]}";
        const std::string object = JsonObjectOfRow(rows, FunctionKind::kMetadata, row_group_columns, &out);
        AppendToArray(&d.row_groups, std::string_view(object).substr(0, object.size() - 1));  // "columns" goes before its "}"
        d.row_groups += ",\"columns\":[";
        d.last_row_group = row_group;
      } else {
        d.row_groups += ',';
      }
      d.row_groups += JsonObjectOfRow(rows, FunctionKind::kMetadata, chunk_columns, &out);
    });
    d.row_groups = d.row_groups.empty() ? "[]" : d.row_groups + "]}]";
    d.schema = d.schema.empty() ? "[]" : d.schema + "]";
    d.key_value_metadata = d.key_value_metadata.empty() ? "[]" : d.key_value_metadata + "]";
  }
}

// ---- The module ------------------------------------------------------------------------

int Connect(sqlite3* db, void* aux, int, const char* const*, sqlite3_vtab** out, char** error_out) {
  *out = nullptr;
  const FunctionSpec* spec = static_cast<const FunctionSpec*>(aux);
  try {
    std::string sql = std::string("CREATE TABLE x(") + spec->columns + ", path HIDDEN";
    for (int i = 1; i < spec->num_arguments; i++) sql += std::string(", ") + kBloomProbeArguments[i - 1] + " HIDDEN";
    for (int i = 1; i <= kOptionArguments; i++) sql += ", option" + std::to_string(i) + " HIDDEN";
    sql += ")";
    int rc = sqlite3_declare_vtab(db, sql.c_str());
    if (rc != SQLITE_OK) {
      *error_out = sqlite3_mprintf("cannot declare %s: %s", spec->name, sqlite3_errmsg(db));
      return rc;
    }
    sqlite3_vtab_config(db, SQLITE_VTAB_DIRECTONLY);
    auto table = std::make_unique<MetadataTable>();
    std::memset(&table->base, 0, sizeof(table->base));
    table->spec = spec;
    table->db = db;
    *out = &table.release()->base;
    return SQLITE_OK;
  } catch (const std::bad_alloc&) {
    return SQLITE_NOMEM;
  }
}

int Disconnect(sqlite3_vtab* vtab) {
  delete reinterpret_cast<MetadataTable*>(vtab);
  return SQLITE_OK;
}

// The arguments (path; parquet_bloom_probe's column name and value) are equality
// constraints on the hidden columns, all needed; the options follow them. Without the
// arguments the plan still succeeds (idxNum 0) so that xFilter can say what is missing; an
// unusable one (a join order where an argument is not known yet) is refused. argv holds
// the arguments in column order, then the options given.
int BestIndex(sqlite3_vtab* vtab, sqlite3_index_info* info) {
  const MetadataTable* table = reinterpret_cast<MetadataTable*>(vtab);
  const int first_hidden = table->spec->num_columns;
  const int num_hidden = table->spec->num_arguments + kOptionArguments;
  bool unusable = false;
  std::vector<int> constraint_of(static_cast<size_t>(num_hidden), -1);
  for (int i = 0; i < info->nConstraint; i++) {
    const auto& c = info->aConstraint[i];
    if (c.iColumn < first_hidden || c.iColumn >= first_hidden + num_hidden || c.op != SQLITE_INDEX_CONSTRAINT_EQ) {
      continue;
    }
    if (!c.usable) {
      unusable = true;
    } else {
      constraint_of[static_cast<size_t>(c.iColumn - first_hidden)] = i;
    }
  }
  bool complete = true;
  for (int a = 0; a < table->spec->num_arguments; a++) complete = complete && constraint_of[static_cast<size_t>(a)] >= 0;
  if (complete && !unusable) {
    int next = 1;
    for (int i : constraint_of) {
      if (i < 0) continue;
      info->aConstraintUsage[i].argvIndex = next++;
      info->aConstraintUsage[i].omit = 1;
    }
    info->idxNum = 1;
    info->estimatedCost = 1000;
    info->estimatedRows = 100;
    return SQLITE_OK;
  }
  if (unusable) return SQLITE_CONSTRAINT;
  info->idxNum = 0;
  info->estimatedCost = 1e12;
  info->estimatedRows = 1;
  return SQLITE_OK;
}

int Open(sqlite3_vtab*, sqlite3_vtab_cursor** out) {
  try {
    auto cursor = std::make_unique<MetadataCursor>();
    std::memset(&cursor->base, 0, sizeof(cursor->base));
    *out = &cursor.release()->base;
    return SQLITE_OK;
  } catch (const std::bad_alloc&) {
    return SQLITE_NOMEM;
  }
}

int Close(sqlite3_vtab_cursor* cursor) {
  delete reinterpret_cast<MetadataCursor*>(cursor);
  return SQLITE_OK;
}

int Filter(sqlite3_vtab_cursor* base, int idx_num, const char*, int argc, sqlite3_value** argv) {
  MetadataCursor* cursor = reinterpret_cast<MetadataCursor*>(base);
  const FunctionSpec* spec = TableOf(base)->spec;
  cursor->eof = true;
  cursor->files.clear();
  cursor->file = OpenFile();
  cursor->next_file = 0;
  cursor->rows_in_file = 0;
  cursor->row = -1;
  cursor->rowid = -1;
  try {
    if (idx_num != 1 || argc < spec->num_arguments) {
      SetVtabError(base->pVtab, spec->kind == FunctionKind::kBloomProbe
                                    ? std::string(spec->name) + " needs a path, a column name and a value: SELECT * FROM " +
                                          spec->name + "('file.parquet', 'column', value)"
                                    : std::string(spec->name) + " needs a path: SELECT * FROM " + spec->name +
                                          "('file.parquet')");
      return SQLITE_ERROR;
    }
    const unsigned char* text = sqlite3_value_text(argv[0]);
    if (text == nullptr) {
      SetVtabError(base->pVtab, std::string(spec->name) + ": the path is NULL");
      return SQLITE_ERROR;
    }
    // All of its bytes: a NUL inside is refused by ExpandFilePath, not silently cut there.
    cursor->path.assign(reinterpret_cast<const char*>(text), static_cast<size_t>(sqlite3_value_bytes(argv[0])));
    if (spec->kind == FunctionKind::kBloomProbe) {
      const unsigned char* column = sqlite3_value_text(argv[1]);
      if (column == nullptr) {
        SetVtabError(base->pVtab, std::string(spec->name) + ": the column name is NULL");
        return SQLITE_ERROR;
      }
      cursor->probe_column.assign(reinterpret_cast<const char*>(column), static_cast<size_t>(sqlite3_value_bytes(argv[1])));
      sqlite3_value_free(cursor->probe_value);
      cursor->probe_value = sqlite3_value_dup(argv[2]);
      if (cursor->probe_value == nullptr) return SQLITE_NOMEM;
      if (!cursor->probe_affinity) cursor->probe_affinity = std::make_unique<NumericAffinity>(TableOf(base)->db);
    }
    std::vector<parquet::SecretString> arguments;  // options may hold keys: wiped when freed
    for (int i = spec->num_arguments; i < argc; i++) {
      const unsigned char* option = sqlite3_value_text(argv[i]);
      if (option != nullptr) arguments.emplace_back(reinterpret_cast<const char*>(option));
    }
    cursor->decryption.reset();
    cursor->remote = std::make_shared<const parquet::RemoteOptions>();
    if (!arguments.empty()) {
      OptionSet set;
      AddDecryptionOptions(&set);
      AddRemoteOptions(&set);
      std::vector<std::string_view> views(arguments.begin(), arguments.end());
      ParsedOptions parsed;
      std::string error;
      if (!set.Parse(views, &parsed, &error) ||
          !MakeDecryptionProperties(TableOf(base)->db, parsed, &cursor->decryption, &error) ||
          !MakeRemoteOptions(parsed, &cursor->remote, &error)) {
        SetVtabError(base->pVtab, std::string(spec->name) + ": " + error);
        return SQLITE_ERROR;
      }
    }
    const ConnectionInterruptScope interruptible(TableOf(base)->db);
    cursor->files = parquet::IsRemoteUrl(cursor->path) ? ExpandRemotePath(cursor->path, *cursor->remote)
                                                       : ExpandFilePath(cursor->path);
    if (spec->kind == FunctionKind::kFullMetadata) MakeFullMetadataDocuments(cursor);
    Advance(cursor, spec->kind);
    return SQLITE_OK;
  } catch (...) {
    return CursorCallbackError(base->pVtab, &cursor->eof);
  }
}

int Next(sqlite3_vtab_cursor* base) {
  MetadataCursor* cursor = reinterpret_cast<MetadataCursor*>(base);
  try {
    const ConnectionInterruptScope interruptible(TableOf(base)->db);  // the next file's footer
    Advance(cursor, TableOf(base)->spec->kind);
    return SQLITE_OK;
  } catch (...) {
    return CursorCallbackError(base->pVtab, &cursor->eof);
  }
}

int Eof(sqlite3_vtab_cursor* base) { return reinterpret_cast<MetadataCursor*>(base)->eof ? 1 : 0; }

int Rowid(sqlite3_vtab_cursor* base, sqlite3_int64* rowid) {
  *rowid = reinterpret_cast<MetadataCursor*>(base)->rowid;
  return SQLITE_OK;
}

int Column(sqlite3_vtab_cursor* base, sqlite3_context* ctx, int column) {
  MetadataCursor* cursor = reinterpret_cast<MetadataCursor*>(base);
  const FunctionSpec* spec = TableOf(base)->spec;
  try {
    if (column == spec->num_columns) {
      ResultText(ctx, cursor->path);
      return SQLITE_OK;
    }
    if (spec->kind == FunctionKind::kBloomProbe && column == spec->num_columns + 1) {
      ResultText(ctx, cursor->probe_column);
      return SQLITE_OK;
    }
    if (spec->kind == FunctionKind::kBloomProbe && column == spec->num_columns + 2) {
      sqlite3_result_value(ctx, cursor->probe_value);
      return SQLITE_OK;
    }
    ColumnOut out(ctx);
    switch (spec->kind) {
      case FunctionKind::kMetadata: MetadataColumnValue(cursor, &out, column); break;
      case FunctionKind::kSchema: SchemaColumnValue(cursor, &out, column); break;
      case FunctionKind::kFileMetadata: FileMetadataColumnValue(cursor, &out, column); break;
      case FunctionKind::kKvMetadata: KvColumnValue(cursor, &out, column); break;
      case FunctionKind::kBloomProbe: BloomProbeColumnValue(cursor, &out, column); break;
      case FunctionKind::kFullMetadata: FullMetadataColumnValue(cursor, &out, column); break;
    }
    return SQLITE_OK;
  } catch (...) {
    return ColumnCallbackError(base->pVtab, ctx);
  }
}

// xCreate is null: the tables are eponymous only (they exist under their own name and
// CREATE VIRTUAL TABLE cannot make more of them).
sqlite3_module metadata_module = {
    /* iVersion    */ 0,
    /* xCreate     */ nullptr,
    /* xConnect    */ Connect,
    /* xBestIndex  */ BestIndex,
    /* xDisconnect */ Disconnect,
    /* xDestroy    */ Disconnect,
    /* xOpen       */ Open,
    /* xClose      */ Close,
    /* xFilter     */ Filter,
    /* xNext       */ Next,
    /* xEof        */ Eof,
    /* xColumn     */ Column,
    /* xRowid      */ Rowid,
    /* xUpdate     */ nullptr,
    /* xBegin      */ nullptr,
    /* xSync       */ nullptr,
    /* xCommit     */ nullptr,
    /* xRollback   */ nullptr,
    /* xFindMethod */ nullptr,
    /* xRename     */ nullptr,
    /* xSavepoint  */ nullptr,
    /* xRelease    */ nullptr,
    /* xRollbackTo */ nullptr,
    /* xShadowName */ nullptr,
    /* xIntegrity  */ nullptr,  // SQLite 3.44+; not read at iVersion 0
};

const FunctionSpec& SpecOf(FunctionKind kind) {
  for (const FunctionSpec& spec : kFunctions) {
    if (spec.kind == kind) return spec;
  }
  throw std::logic_error("no metadata function of this kind");
}

}  // namespace

int RegisterMetadataFunctions(sqlite3* db) {
  for (const FunctionSpec& spec : kFunctions) {
    int rc = sqlite3_create_module_v2(db, spec.name, &metadata_module, const_cast<FunctionSpec*>(&spec), nullptr);
    if (rc != SQLITE_OK) return rc;
  }
  return SQLITE_OK;
}

}  // namespace sqlite_parquet

// The `parquet` virtual table: one Parquet file presented as a read-only SQLite table.
//
// USAGE
//
//   CREATE VIRTUAL TABLE t USING parquet('path/to/file.parquet' [, key=value ...]);
//   CREATE VIRTUAL TABLE t USING parquet(filename='path/to/file.parquet', ...);
//
// Options (values may be quoted with '...' or "..."; keys are case-insensitive; an unknown
// or repeated key is an error naming it):
//
//   filename=PATH          the Parquet file (also accepted as the first, unnamed argument)
//   binary_as_string=0|1   unannotated BYTE_ARRAY columns as TEXT instead of BLOB (default 0)
//   decimal_as=real|text   DECIMAL columns as REAL (default) or as exact decimal TEXT
//   timestamp_as=text|unixepoch|unixepoch_ms|unixepoch_us|julianday
//                          how DATE, TIMESTAMP and INT96 columns are presented (default text)
//   verify_crc=0|1         check page CRCs where the writer stored them (default 1)
//
// The table has one column per top-level field of the file, named as in the file (a name
// that repeats case-insensitively gets a suffix _1, _2, ...), with the declared types of
// column_mapping.h. A nested field (group, LIST, MAP or repeated field) is one column of
// JSON text with the JSON subtype (the rules are in nested_json.h). The rowid is the row's
// 0-based position in the file.
//
// HOW A SCAN WORKS
//
// The cursor walks the row groups in order. Columns are decoded lazily: the first time
// xColumn asks for column i in a row group, that column's chunk is read and decoded in
// batches of up to kBatchSlots values; columns the query never asks for are never read,
// and rows a column is not asked for are skipped (whole pages without decompression).
// Memory is bounded by one row group's chunks of the columns in use.
//
// The module is registered with SQLITE_VTAB_DIRECTONLY, so views and triggers of a
// database someone else made cannot make it read files.
#include "ext/parquet_vtab.h"

#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "ext/column_mapping.h"
#include "ext/nested_json.h"
#include "ext/sqlite_values.h"
#include "ext/options.h"
#include "format/column_reader.h"
#include "format/error.h"
#include "format/file_reader.h"
#include "format/logical_values.h"
#include "format/record_assembler.h"

namespace sqlite_parquet {

namespace {

constexpr size_t kBatchSlots = 2048;

struct TableOptions {
  std::string filename;
  MappingOptions mapping;
  bool verify_crc = true;
};

struct ParquetTable {
  sqlite3_vtab base;  // must come first
  TableOptions options;
  std::unique_ptr<parquet::ParquetFileReader> file;
  std::vector<ColumnMapping> columns;
};

// Per-column decoding state of a cursor.
struct ColumnState {
  std::unique_ptr<parquet::ColumnChunkReader> reader;
  int row_group = -1;           // row group the reader is positioned in
  parquet::ColumnBatch batch;   // the slots [batch_first_row, batch_first_row + batch.num_levels)
  int64_t batch_first_row = 0;  // row (within the row group) of slot 0 of the batch
  size_t slot = 0;              // slot the value cursor stands at
  size_t value = 0;             // index into the batch's values of the first value at or after `slot`

  // Nested fields: rows are assembled from all the field's leaf columns and rendered as
  // JSON; the text of the last row rendered is kept for repeated xColumn calls.
  std::unique_ptr<parquet::RecordAssembler> assembler;
  std::unique_ptr<NestedJsonRenderer> renderer;
  int64_t json_row = -1;        // row (within row_group) whose JSON `json` holds
  bool json_is_null = false;
  std::string json;
};

struct ParquetCursor {
  sqlite3_vtab_cursor base;  // must come first
  int row_group = 0;
  int64_t row = 0;            // row within the row group
  int64_t rows_in_group = 0;
  bool eof = true;
  std::vector<ColumnState> states;
  std::string text;           // scratch for formatted values
};

ParquetTable* TableOf(sqlite3_vtab_cursor* cursor) { return reinterpret_cast<ParquetTable*>(cursor->pVtab); }

void SetError(sqlite3_vtab* vtab, const std::string& message) {
  sqlite3_free(vtab->zErrMsg);
  vtab->zErrMsg = sqlite3_mprintf("%s", message.c_str());
}

std::string QuoteIdentifier(const std::string& name) {
  std::string quoted = "\"";
  for (char c : name) {
    quoted += c;
    if (c == '"') quoted += '"';
  }
  return quoted + "\"";
}

std::string Lowercase(std::string s) {
  for (char& c : s) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return s;
}

// Parses the CREATE VIRTUAL TABLE arguments (argv[3..]) into *options.
bool ParseTableOptions(int argc, const char* const* argv, TableOptions* options, std::string* error) {
  OptionSet set;
  set.AddString("filename")
      .SetPositional("filename")
      .AddBoolean("binary_as_string")
      .AddEnum("decimal_as", {"real", "text"})
      .AddEnum("timestamp_as", {"text", "unixepoch", "unixepoch_ms", "unixepoch_us", "julianday"})
      .AddBoolean("verify_crc");
  ParsedOptions parsed;
  if (!set.Parse(argc - 3, argv + 3, &parsed, error)) return false;
  options->filename = std::string(parsed.GetString("filename", ""));
  if (!parsed.Has("filename")) {
    *error = "missing file name: use parquet('file.parquet') or parquet(filename='file.parquet')";
    return false;
  }
  if (options->filename.empty()) {
    *error = "empty file name";
    return false;
  }
  options->mapping.binary_as_string = parsed.GetBool("binary_as_string", false);
  options->mapping.decimal_as_text = parsed.GetEnumIndex("decimal_as", 0) == 1;
  static const TimestampForm kForms[] = {TimestampForm::kText, TimestampForm::kUnixEpoch, TimestampForm::kUnixEpochMs,
                                         TimestampForm::kUnixEpochUs, TimestampForm::kJulianDay};
  options->mapping.timestamp_form = kForms[parsed.GetEnumIndex("timestamp_as", 0)];
  options->verify_crc = parsed.GetBool("verify_crc", true);
  return true;
}

// xCreate and xConnect: open the file, map its columns and declare the table.
int Connect(sqlite3* db, void*, int argc, const char* const* argv, sqlite3_vtab** out, char** error_out) {
  *out = nullptr;
  std::unique_ptr<ParquetTable> table;
  try {
    table = std::make_unique<ParquetTable>();
    std::memset(&table->base, 0, sizeof(table->base));
    std::string error;
    if (!ParseTableOptions(argc, argv, &table->options, &error)) {
      *error_out = sqlite3_mprintf("%s", error.c_str());
      return SQLITE_ERROR;
    }
    table->file = parquet::ParquetFileReader::Open(table->options.filename);
    const parquet::Schema& schema = table->file->schema();
    const size_t num_fields = schema.top_level_fields().size();
    if (num_fields == 0) {
      *error_out = sqlite3_mprintf("parquet file %s has no columns", table->options.filename.c_str());
      return SQLITE_ERROR;
    }
    std::string sql = "CREATE TABLE x(";
    std::vector<std::string> used_names;
    for (size_t f = 0; f < num_fields; f++) {
      ColumnMapping mapping = MapTopLevelField(schema, static_cast<int>(f), table->options.mapping);
      std::string name = schema.node(schema.top_level_fields()[f]).name;
      std::string unique = name;
      for (int suffix = 1;; suffix++) {
        bool clash = false;
        for (const std::string& used : used_names) clash = clash || Lowercase(used) == Lowercase(unique);
        if (!clash) break;
        unique = name + "_" + std::to_string(suffix);
      }
      used_names.push_back(unique);
      if (f) sql += ", ";
      sql += QuoteIdentifier(unique);
      if (!mapping.declared_type.empty()) sql += " " + mapping.declared_type;
      table->columns.push_back(std::move(mapping));
    }
    sql += ")";
    int rc = sqlite3_declare_vtab(db, sql.c_str());
    if (rc != SQLITE_OK) {
      *error_out = sqlite3_mprintf("cannot declare the table for %s: %s", table->options.filename.c_str(),
                                   sqlite3_errmsg(db));
      return rc;
    }
    sqlite3_vtab_config(db, SQLITE_VTAB_DIRECTONLY);
  } catch (const std::bad_alloc&) {
    return SQLITE_NOMEM;
  } catch (const std::exception& e) {
    *error_out = sqlite3_mprintf("%s", e.what());
    return SQLITE_ERROR;
  }
  *out = &table.release()->base;
  return SQLITE_OK;
}

// A distinct xCreate (rather than xConnect itself) keeps the module from being eponymous:
// a bare `SELECT * FROM parquet` has no file to read.
int Create(sqlite3* db, void* aux, int argc, const char* const* argv, sqlite3_vtab** out, char** error_out) {
  return Connect(db, aux, argc, argv, out, error_out);
}

int Disconnect(sqlite3_vtab* vtab) {
  delete reinterpret_cast<ParquetTable*>(vtab);
  return SQLITE_OK;
}

int BestIndex(sqlite3_vtab* vtab, sqlite3_index_info* info) {
  ParquetTable* table = reinterpret_cast<ParquetTable*>(vtab);
  // No constraint is pushed down yet: SQLite filters every row itself. The cost grows with
  // the number of columns used, since only those are decoded.
  int64_t rows = table->file->num_rows();
  int used = 0;
  for (int i = 0; i < 64; i++) used += (info->colUsed >> i) & 1;
  info->estimatedRows = rows;
  info->estimatedCost = static_cast<double>(rows) * (1.0 + used);
  info->idxNum = 0;
  return SQLITE_OK;
}

int Open(sqlite3_vtab* vtab, sqlite3_vtab_cursor** out) {
  try {
    ParquetTable* table = reinterpret_cast<ParquetTable*>(vtab);
    auto cursor = std::make_unique<ParquetCursor>();
    std::memset(&cursor->base, 0, sizeof(cursor->base));
    cursor->states.resize(table->columns.size());
    *out = &cursor.release()->base;
    return SQLITE_OK;
  } catch (const std::bad_alloc&) {
    return SQLITE_NOMEM;
  }
}

int Close(sqlite3_vtab_cursor* cursor) {
  delete reinterpret_cast<ParquetCursor*>(cursor);
  return SQLITE_OK;
}

// Moves to the first row at or after (row_group, row) that exists.
void SettleOnRow(ParquetCursor* cursor, const parquet::ParquetFileReader& file) {
  while (cursor->row_group < file.num_row_groups()) {
    cursor->rows_in_group = file.row_group_num_rows(cursor->row_group);
    if (cursor->row < cursor->rows_in_group) {
      cursor->eof = false;
      return;
    }
    cursor->row_group++;
    cursor->row = 0;
  }
  cursor->eof = true;
}

int Filter(sqlite3_vtab_cursor* base, int, const char*, int, sqlite3_value**) {
  ParquetCursor* cursor = reinterpret_cast<ParquetCursor*>(base);
  cursor->row_group = 0;
  cursor->row = 0;
  for (ColumnState& state : cursor->states) state.row_group = -1;
  SettleOnRow(cursor, *TableOf(base)->file);
  return SQLITE_OK;
}

int Next(sqlite3_vtab_cursor* base) {
  ParquetCursor* cursor = reinterpret_cast<ParquetCursor*>(base);
  cursor->row++;
  if (cursor->row >= cursor->rows_in_group) SettleOnRow(cursor, *TableOf(base)->file);
  return SQLITE_OK;
}

int Eof(sqlite3_vtab_cursor* base) { return reinterpret_cast<ParquetCursor*>(base)->eof ? 1 : 0; }

int Rowid(sqlite3_vtab_cursor* base, sqlite3_int64* rowid) {
  ParquetCursor* cursor = reinterpret_cast<ParquetCursor*>(base);
  *rowid = TableOf(base)->file->row_group_first_row(cursor->row_group) + cursor->row;
  return SQLITE_OK;
}

// Positions `state` on the cursor's current row; returns the value index of that row in the
// batch, or -1 when the row is NULL.
int64_t PositionColumn(ParquetCursor* cursor, const ParquetTable& table, int leaf, ColumnState* state) {
  const parquet::ParquetFileReader& file = *table.file;
  if (state->row_group != cursor->row_group) {
    if (!state->reader) {
      parquet::ColumnReaderOptions options;
      options.verify_crc = table.options.verify_crc;
      state->reader = parquet::ColumnChunkReader::Make(file, cursor->row_group, leaf, options);
    } else {
      state->reader->Reset(cursor->row_group);
    }
    state->row_group = cursor->row_group;
    state->batch.num_levels = 0;
    state->batch.num_values = 0;
    state->batch_first_row = 0;
    state->slot = 0;
    state->value = 0;
  }
  const int64_t row = cursor->row;
  int64_t batch_end = state->batch_first_row + static_cast<int64_t>(state->batch.num_levels);
  if (row >= batch_end) {
    if (row > batch_end) {
      size_t gap = static_cast<size_t>(row - batch_end);
      if (state->reader->Skip(gap) != gap) {
        throw parquet::ParquetError(file.Describe(cursor->row_group, leaf) + ": column has fewer values than the row group's " +
                                    std::to_string(cursor->rows_in_group) + " rows");
      }
    }
    if (state->reader->ReadBatch(kBatchSlots, &state->batch) == 0) {
      throw parquet::ParquetError(file.Describe(cursor->row_group, leaf) + ": column has fewer values than the row group's " +
                                  std::to_string(cursor->rows_in_group) + " rows");
    }
    state->batch_first_row = row;
    state->slot = 0;
    state->value = 0;
  }
  const size_t slot = static_cast<size_t>(row - state->batch_first_row);
  const int16_t max_def = state->reader->descriptor().max_definition_level;
  if (max_def == 0) return static_cast<int64_t>(slot);
  const int16_t* def = state->batch.def_levels.data();
  size_t value = state->value;
  for (size_t j = state->slot; j < slot; j++) value += (def[j] == max_def);
  state->slot = slot;
  state->value = value;
  return def[slot] == max_def ? static_cast<int64_t>(value) : -1;
}

// Assembles the cursor's current row of a nested field into state->json (unless it is
// there already); sets state->json_is_null for a null value.
void PositionNestedColumn(ParquetCursor* cursor, const ParquetTable& table, int field, ColumnState* state) {
  if (!state->assembler) {
    parquet::ColumnReaderOptions options;
    options.verify_crc = table.options.verify_crc;
    state->assembler = std::make_unique<parquet::RecordAssembler>(*table.file, field, options, kBatchSlots);
    state->renderer = std::make_unique<NestedJsonRenderer>(table.file->schema(), state->assembler->shape(),
                                                           table.options.mapping);
  }
  if (state->row_group == cursor->row_group && state->json_row == cursor->row) return;
  if (state->row_group != cursor->row_group || cursor->row < state->assembler->next_row()) {
    state->assembler->Reset(cursor->row_group);
    state->row_group = cursor->row_group;
  }
  state->json_row = -1;
  try {
    state->assembler->SkipRows(cursor->row - state->assembler->next_row());
    state->assembler->ReadRow();
    state->json_is_null = !state->renderer->Render(*state->assembler, &state->json);
  } catch (...) {
    state->row_group = -1;  // start afresh next time
    throw;
  }
  state->json_row = cursor->row;
}

int NestedColumn(ParquetCursor* cursor, ParquetTable* table, sqlite3_context* ctx, const ColumnMapping& mapping,
                 ColumnState* state) {
  PositionNestedColumn(cursor, *table, mapping.nested_field, state);
  if (state->json_is_null) {
    sqlite3_result_null(ctx);
    return SQLITE_OK;
  }
  const int limit = sqlite3_limit(sqlite3_context_db_handle(ctx), SQLITE_LIMIT_LENGTH, -1);
  if (state->json.size() > static_cast<size_t>(limit)) {
    const parquet::Schema& schema = table->file->schema();
    std::string message = "the value of nested column '" +
                          schema.node(schema.top_level_fields()[static_cast<size_t>(mapping.nested_field)]).name +
                          "' in row " + std::to_string(table->file->row_group_first_row(cursor->row_group) + cursor->row) +
                          " is " + std::to_string(state->json.size()) +
                          " bytes of JSON, more than SQLite's maximum length of " + std::to_string(limit) +
                          " bytes (SQLITE_MAX_LENGTH)";
    SetError(cursor->base.pVtab, message);
    sqlite3_result_error(ctx, message.c_str(), -1);
    return SQLITE_ERROR;
  }
  sqlite3_result_text64(ctx, state->json.data(), state->json.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  sqlite3_result_subtype(ctx, kJsonSubtype);
  return SQLITE_OK;
}

int Column(sqlite3_vtab_cursor* base, sqlite3_context* ctx, int column) {
  ParquetCursor* cursor = reinterpret_cast<ParquetCursor*>(base);
  ParquetTable* table = TableOf(base);
  const ColumnMapping& mapping = table->columns[static_cast<size_t>(column)];
  if (mapping.kind != ValueKind::kNested && (mapping.leaf_column < 0 || mapping.kind == ValueKind::kNull)) {
    sqlite3_result_null(ctx);
    return SQLITE_OK;
  }
  try {
    ColumnState& state = cursor->states[static_cast<size_t>(column)];
    if (mapping.kind == ValueKind::kNested) return NestedColumn(cursor, table, ctx, mapping, &state);
    int64_t index = PositionColumn(cursor, *table, mapping.leaf_column, &state);
    if (index < 0) {
      sqlite3_result_null(ctx);
    } else {
      ResultValue(ctx, mapping, state.batch, static_cast<size_t>(index), &cursor->text);
    }
    return SQLITE_OK;
  } catch (const std::bad_alloc&) {
    sqlite3_result_error_nomem(ctx);
    return SQLITE_NOMEM;
  } catch (const std::exception& e) {
    SetError(base->pVtab, e.what());
    sqlite3_result_error(ctx, e.what(), -1);
    return SQLITE_ERROR;
  }
}

sqlite3_module parquet_module = {
    /* iVersion    */ 0,
    /* xCreate     */ Create,
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
};

}  // namespace

int RegisterParquetModule(sqlite3* db) { return sqlite3_create_module_v2(db, "parquet", &parquet_module, nullptr, nullptr); }

}  // namespace sqlite_parquet
